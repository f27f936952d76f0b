"""The 2006 urban chairs placed on today's bodies (``reservation history``; ``benchmarks/rotation_record.py``).

``data/history/urban_chairs_2006.csv`` has one row per body of the SEC's 2006 lists (12 Nagar Nigam Mayors, 193
Palika Parishad and 419 Nagar Panchayat chairs), with the district of the time, the type and the name as typed;
no code of today. It is placed in two steps, the first here, the second the 2012 records' own:

1. on a row of the SEC's 2012 results (``data/build/sec2012_urban_bodies_hi.csv``) by :func:`link_2006`, the type
   always equal: a Nagar Nigam on the Nagar Nigam of the same district (``district``: one per district in both
   lists); the others by the spelling key of the name (:func:`reservation.inputs.spelling.key` of its
   :func:`~reservation.inputs.spelling.latin` spelling) inside the same district of today, ``exact`` when the
   two cleaned names are the same letters, ``spelling`` when only their keys agree; else the key unique in the
   State among every row of the type, placed or not (``spelling_state``: a district redrawn between the two
   elections). A key two rows share on either side places neither;
2. from that 2012 row to today's body by ``data/build/urban_names_hi.csv`` (the link the 2012 records use, with
   its rule and score).

A body of today with no 2006 row placed on it keeps 2006 unknown, with the reason (:data:`REASONS`): it has no
2012 row; its 2012 row has no 2006 row of its type alike; or two rows alike.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pandas as pd

from ..base.paths import DATA_DIR
from .rows import cite

__all__ = ["FILE", "REASONS", "link_2006", "pairs_2012", "records_2006", "unplaced_reason"]

FILE = "data/history/urban_chairs_2006.csv"
_SEC = "data/build/sec2012_urban_bodies_hi.csv"
_LINK = "data/build/urban_names_hi.csv"
#: body type codes (as data/build/link_urban_names_hi.py): Nagar Nigam 4, Palika Parishad 5, Nagar Panchayat 7
TYPES_2006 = {"nagar_nigam": 4, "nagar_palika_parishad": 5, "nagar_panchayat": 7}
TYPES_2012 = {"नगर निगम": 4, "नगर पालिका परिषद": 5, "नगर पंचायत": 7}
#: why a body of today has no 2006 record (words: reservation.law.words UNPLACED_REASONS; a row placed whose
#: category is blank gives that list's "category blank in the source": none of the 624 is blank today)
REASONS = ("no 2012 row links to this body", "no 2006 body of its type alike", "two 2006 bodies alike")


def _text(rel: str) -> pd.DataFrame:
    return pd.read_csv(DATA_DIR / rel.removeprefix("data/"), dtype=str, keep_default_na=False, encoding="utf-8")


def _district(cw, *names) -> int:
    """The LGD district of a district of the time, by its first name that resolves (0: none does)."""
    for n in names:
        try:
            return int(cw.resolve(n))
        except KeyError:
            continue
    return 0


def _keyed(names) -> tuple[list[str], list[str]]:
    from ..inputs.spelling import clean_name, key, latin
    clean = [clean_name(n) for n in names]
    return clean, [key(latin(n)) for n in clean]


@lru_cache(maxsize=1)
def _sec() -> pd.DataFrame:
    """The 2012 rows: ``sec_row`` (the file's ``first_serial``), ``row`` (the spreadsheet row), ``district_code``,
    ``type``, ``name`` (cleaned), ``key``, ``category_hi``."""
    from ..inputs.names import crosswalk
    cw = crosswalk()
    s = _text(_SEC)
    out = pd.DataFrame({"sec_row": s["first_serial"].astype("int64"), "row": np.arange(2, len(s) + 2),
                        "district_code": [_district(cw, d) for d in s["district_hi"]],
                        "type": s["body_type_hi"].map(TYPES_2012).astype("int64"),
                        "category_hi": s["category_hi"]})
    out["name"], out["key"] = _keyed(s["body_name_hi"])
    return out


@lru_cache(maxsize=1)
def _old() -> pd.DataFrame:
    """The 2006 rows with ``row`` (the spreadsheet row: the header is row 1), ``district_code``, ``type``, ``name``
    (cleaned), ``key`` and the source's columns."""
    from ..inputs.names import crosswalk
    cw = crosswalk()
    o = _text(FILE)
    o["row"] = np.arange(2, len(o) + 2)
    o["district_code"] = [_district(cw, h, e) for h, e in zip(o["district_hi_at_time"], o["district_en"])]
    o["type"] = o["body_type"].map(TYPES_2006).astype("int64")
    o["name"], o["key"] = _keyed(o["body_hi"])
    return o


def _unique_pairs(new: pd.DataFrame, old: pd.DataFrame, ids: list[str]) -> pd.DataFrame:
    """``sec_row, row`` of the new and old rows equal on ``ids``, each unique on them on its side."""
    a = new[~new.duplicated(ids, keep=False)][["sec_row"] + ids]
    b = old[~old.duplicated(ids, keep=False)][["row"] + ids]
    return a.merge(b, on=ids, how="inner")[["sec_row", "row"]]


@lru_cache(maxsize=1)
def link_2006() -> pd.DataFrame:
    """Every 2006 row with the 2012 row it is placed on (module doc, step 1): ``row`` (spreadsheet row of the
    2006 file), ``sec_row`` (0: none), ``match`` (``district``, ``exact``, ``spelling``, ``spelling_state``, or
    "" when unplaced)."""
    sec, old = _sec(), _old()
    nn = _unique_pairs(sec[sec["type"] == 4], old[old["type"] == 4], ["district_code", "type"])
    nn["match"] = "district"
    rest_sec, rest_old = sec[sec["type"] != 4], old[old["type"] != 4]
    first = _unique_pairs(rest_sec, rest_old, ["district_code", "type", "key"])
    same = (sec.set_index("sec_row").loc[first["sec_row"], "name"].to_numpy()
            == old.set_index("row").loc[first["row"], "name"].to_numpy())
    first["match"] = np.where(same, "exact", "spelling")
    ids = ["type", "key"]              # unique in the State: among every row of the type, placed or not
    second = _unique_pairs(rest_sec, rest_old, ids)
    second = second[~second["sec_row"].isin(first["sec_row"]) & ~second["row"].isin(first["row"])]
    second["match"] = "spelling_state"
    placed = pd.concat([nn, first, second], ignore_index=True)
    out = old[["row"]].merge(placed, on="row", how="left")
    out["sec_row"] = out["sec_row"].fillna(0).astype("int64")
    out["match"] = out["match"].fillna("")
    return out


def pairs_2012() -> pd.DataFrame:
    """Every 2012 row with the category of the 2006 row placed on it: ``sec_row, type, category_hi`` (2012, as
    written), ``cat_2006`` ("" where none), ``match``. What benchmarks/rotation_record.py compares."""
    link = link_2006()
    link = link[link["sec_row"] != 0].merge(_old()[["row", "category"]], on="row")
    out = _sec()[["sec_row", "type", "category_hi"]].merge(
        link[["sec_row", "category", "match"]].rename(columns={"category": "cat_2006"}), on="sec_row", how="left")
    return out.fillna({"cat_2006": "", "match": ""})


def unplaced_reason(sec_row: int | None) -> str:
    """Why no 2006 row is placed on the body whose 2012 row is ``sec_row`` (None: it has none); :data:`REASONS`."""
    if sec_row is None:
        return REASONS[0]
    s = _sec().set_index("sec_row").loc[int(sec_row)]
    old = _old()
    alike = old[(old["type"] == s["type"]) & ((old["key"] == s["key"]) if s["type"] != 4
                                              else (old["district_code"] == s["district_code"]))]
    return REASONS[2] if len(alike) else REASONS[1]


def records_2006(units_to_sec: dict[int, int | None]) -> tuple[pd.DataFrame, dict[int, str]]:
    """The 2006 records of today's bodies (``units_to_sec``: LGD code -> its 2012 ``sec_row``, the 2012 records'
    link): ``unit_code, year, category, source, note`` (``note``: typed parts, as reservation.history.places),
    and the reason of every body given with no 2006 record. A blank 2006 category is no record."""
    link = link_2006()
    by_sec = dict(zip(link.loc[link["sec_row"] != 0, "sec_row"], link.loc[link["sec_row"] != 0, "row"]))
    old = _old().set_index("row")
    sec_rows = dict(zip(_sec()["sec_row"], _sec()["row"]))       # the SEC serial -> the row of our 2012 file
    rows, reasons = [], {}
    for unit, sec_row in units_to_sec.items():
        r = by_sec.get(sec_row) if sec_row is not None else None
        if r is None or not old.at[r, "category"]:
            reasons[unit] = unplaced_reason(sec_row) if r is None else "category blank in the source"
            continue
        o = old.loc[r]
        match = link.loc[link["row"] == r, "match"].iat[0]
        note = (("urban2006", (("name", f"{o['body_type_hi']} {o['body_hi']}"), ("district", o["district_hi_at_time"]),
                               ("page", f"{o['source_file']} p. {o['source_page']}"))),
                (f"link2006_{match}", (("row", cite(_SEC, sec_rows[sec_row])),)))
        rows.append((unit, 2006, o["category"], cite(FILE, r), note))
    frame = pd.DataFrame(rows, columns=["unit_code", "year", "category", "source", "note"])
    return frame.astype({"unit_code": "int64", "year": "int64"}), reasons
