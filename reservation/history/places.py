"""The units of every body with a history, found as people name them, and the lists we hold for each.

- :func:`find_unit`: a name (English or Hindi, any usual spelling), ``"Name, Parent"`` or an LGD code -> the
  unit's code, through the body's own index (districts: :func:`reservation.inputs.names.crosswalk`; blocks:
  :func:`reservation.rules.kp_chair.block_index`; urban bodies: the body's shipped units); gram panchayats through
  :func:`gp_index`: LGD's names (the shipped gram panchayats, ``data/gp_census2011.csv.gz``) and the names the lists published
  (``name_as_published`` of ``data/history/gp-pradhan.csv.gz``), as ``"GP"``, ``"GP, Block"``, ``"GP, District"``
  or ``"GP, Block, District"``. Unknown or ambiguous: an InputError with the nearest candidates (option ``--unit``).
- :func:`shipped_records`: every record of a body in the lists the package ships, ``unit_code, year, category,
  source, note``: the file and row it is read from (:func:`cite`: ``FILE row N``, N the spreadsheet row, the
  header row 1), and where the record came from before (the published list's row, the crosswalk's match and score, the source's caveats).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pandas as pd

from ..base.errors import InputError, excerpt
from ..base.paths import DATA_DIR
from .rows import cite, cite_stored

__all__ = ["HISTORY_BODIES", "find_unit", "unit_label", "gp_index", "gp_table", "shipped_records"]

#: The bodies whose past lists the package ships (the ward bodies have none).
HISTORY_BODIES = ("zp-chair", "kp-chair", "gp-pradhan", "mayor", "pp-chair", "np-chair")
_URBAN_TYPE = {"mayor": "Nagar Nigam", "pp-chair": "Nagar Palika Parishad", "np-chair": "Nagar Panchayat"}
_H = "data/history/"


def _check_body(body: str) -> None:
    if body not in HISTORY_BODIES:
        raise InputError(f"no past lists are held for {excerpt(body)}; history is kept for "
                         f"{', '.join(HISTORY_BODIES)}", option="--body")


# --- finding the unit --------------------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _blocks():
    from ..rules.kp_chair import block_index, load_blocks
    blocks, _ = load_blocks(2015, DATA_DIR / "blocks_census2011.csv")
    return blocks, block_index(blocks)


@lru_cache(maxsize=1)
def _gp_raw() -> pd.DataFrame:
    """``data/history/gp-pradhan.csv.gz`` as text, with ``_row`` (the spreadsheet row: the header is row 1)."""
    h = pd.read_csv(DATA_DIR / "history" / "gp-pradhan.csv.gz", dtype=str, keep_default_na=False,
                    encoding="utf-8").astype(object)
    h["_row"] = np.arange(2, len(h) + 2)
    h["unit"] = h["unit"].astype("int64")
    return h


@lru_cache(maxsize=1)
def gp_table() -> pd.DataFrame:
    """LGD's gram panchayats (the gram pradhans' shipped units, :func:`reservation.rules.gp_units.shipped_units`):
    ``unit_code, block`` (LGD block code), ``unit_name_en``, ``unit_name_hi`` (the latest name a list published,
    '' where none), ``district`` (LGD district code)."""
    from ..rules.gp_units import shipped_units
    g = shipped_units()
    h = _gp_raw()
    h = h[h["name_as_published"] != ""].sort_values(["unit", "year"], kind="stable")
    latest = h.drop_duplicates("unit", keep="last").set_index("unit")["name_as_published"]
    blocks, _ = _blocks()
    district = blocks.set_index("unit_code")["district_lgd_code"]
    out = pd.DataFrame({"unit_code": g["unit_code"].astype("int64"), "block": g["block_lgd_code"].astype("int64"),
                        "unit_name_en": g["unit_name_en"], "unit_name_hi": g["unit_code"].map(latest).fillna("")})
    out["district"] = out["block"].map(district).fillna(-1).astype("int64")
    return out


@lru_cache(maxsize=1)
def _gp_aliases() -> dict[int, list[str]]:
    """Every name a list published for each gram panchayat (the index takes them as other names)."""
    h = _gp_raw()[["unit", "name_as_published"]].drop_duplicates()
    out: dict[int, list[str]] = {}
    for u, n in zip(h["unit"].tolist(), h["name_as_published"].tolist()):
        if n:
            out.setdefault(u, []).append(n)
    return out


def _gp_names_index(frame: pd.DataFrame):
    from ..inputs.names import NameIndex
    _, blocks = _blocks()
    aliases = _gp_aliases()
    return NameIndex(frame["unit_code"].to_numpy(), frame["unit_name_en"].tolist(), frame["unit_name_hi"].tolist(),
                     kind="gram panchayat", parents=frame["block"].to_numpy(), parent_index=blocks,
                     aliases=[(a, c) for c in frame["unit_code"].tolist() for a in aliases.get(c, ())])


@lru_cache(maxsize=1)
def gp_index():
    """The index of every LGD gram panchayat (parents: their blocks), by LGD and published names."""
    return _gp_names_index(gp_table())


def _gp_within(name: str, where: str, lgd_only: bool = False):
    """A gram panchayat named inside ``where``: a block ("Block" or "Block, District") or a district (both tried,
    the block first, where a block bears its district's name: "Dogahra, Maharajganj")."""
    from ..inputs.names import UnknownName, crosswalk
    _, blocks = _blocks()
    places, first_error = [], None
    for kind, index in (("block", blocks), ("district", crosswalk())):
        try:
            places.append((kind, index.resolve(where), index))
        except KeyError as e:
            first_error = first_error or e
    if not places:
        raise KeyError(first_error.args[0])
    error, unknown_everywhere = None, True
    for kind, code, parent in places:
        index = _local_index(kind, code)
        if index is None:
            error = error or KeyError(f"LGD lists no gram panchayat in the {kind} {parent.label(code)}")
            continue
        try:
            return index.resolve(name)
        except KeyError as e:
            unknown_everywhere &= isinstance(e, UnknownName)
            msg = str(e.args[0])
            error = error or KeyError(msg.replace("gram panchayat ", f"gram panchayat in the {kind} "
                                                                     f"{parent.label(code)}: ", 1))
    if unknown_everywhere and not lgd_only:            # a gram panchayat of the lists that LGD does not hold
        from .unplaced import find_unplaced
        table, _ = _blocks()
        for kind, code, _ in places:
            inside = [code] if kind == "block" else table.loc[table["district_lgd_code"] == code, "unit_code"]
            found = find_unplaced(name, inside)
            if found is not None:
                return found
    raise error


@lru_cache(maxsize=256)
def _local_index(kind: str, code: int):
    g = gp_table()
    part = g[g[kind] == code]
    return _gp_names_index(part) if len(part) else None


def _find_gp(text: str, lgd_only: bool = False):
    parts = [p.strip() for p in str(text).split(",")]
    if len(parts) >= 2 and all(parts):
        return _gp_within(parts[0], ", ".join(parts[1:]), lgd_only)
    return gp_index().resolve(text)


def _index(body: str, year: int):
    if body == "zp-chair":
        from ..inputs.names import crosswalk
        return crosswalk()
    if body == "kp-chair":
        return _blocks()[1]
    from ..rules.registry import get_rulebook
    rb = get_rulebook(body)
    return rb.load_units(None, year, rb.option_set()).resolve


def resolver(body: str, year: int, lgd_only: bool = True):
    """The resolver of ``body``'s units (a name or code -> the unit's code, KeyError with one line), also the one a
    user's history file is read with. Gram panchayats with ``lgd_only=False``: a name that no LGD gram panchayat
    bears but an unplaced row of the lists prints in the block is an
    :class:`reservation.history.unplaced.UnplacedGP`."""
    _check_body(body)
    if body == "gp-pradhan":
        return _GPResolver(lgd_only)
    return _index(body, year)


class _GPResolver:
    """Gram panchayats: a code, a name unique in the State, or the name inside its block or district."""

    def __init__(self, lgd_only: bool = True):
        self.lgd_only = lgd_only

    def __call__(self, value) -> int:
        return self.resolve(value)

    def resolve(self, value):
        from ..inputs.text import ascii_digits
        if isinstance(value, (int, np.integer)) or ascii_digits(str(value)).strip().isdigit():
            return gp_index().resolve(value)
        return _find_gp(value, self.lgd_only)

    def many(self, values) -> np.ndarray:
        out = []
        for v in values:
            try:
                out.append(self.resolve(v))
            except KeyError:
                out.append(-1)
        return np.asarray(out, dtype=np.int64)


def find_unit(body: str, name, year: int):
    """The code of ``body``'s unit named ``name`` (see the module's doc), or a gram panchayat of the lists that LGD
    does not hold (an :class:`reservation.history.unplaced.UnplacedGP`); an InputError (``--unit``) naming the
    nearest candidates when unknown or ambiguous."""
    try:
        found = resolver(body, year, lgd_only=False).resolve(name)
        return found if not isinstance(found, (int, np.integer)) else int(found)
    except KeyError as e:
        raise InputError(str(e.args[0]), option="--unit") from None


def unit_label(body: str, code, year: int, lang: str = "en") -> dict:
    """The names of a unit: ``name`` (in ``lang``, else the other), ``name_en``, ``name_hi`` and ``where``: its
    block and district (gram panchayats), district (blocks, urban bodies) as words."""
    from ..inputs.names import crosswalk
    from .unplaced import UnplacedGP
    dist = crosswalk()
    if isinstance(code, UnplacedGP):
        blocks, index = _blocks()
        d = int(blocks.set_index("unit_code").loc[code.block, "district_lgd_code"])
        en, hi, where = "", code.name, [index.label(code.block, lang), dist.label(d, lang)]
    elif body == "gp-pradhan":
        g = gp_table().set_index("unit_code").loc[code]
        _, blocks = _blocks()
        en, hi = g["unit_name_en"], g["unit_name_hi"]
        where = [blocks.label(int(g["block"]), lang), dist.label(int(g["district"]), lang)]
    elif body == "zp-chair":
        en, hi, where = dist.name_en(code), dist.name_hi(code), []
    elif body == "kp-chair":
        blocks, index = _blocks()
        b = blocks.set_index("unit_code").loc[code]
        en, hi, where = b["unit_name_en"], b["unit_name_hi"], [dist.label(int(b["district_lgd_code"]), lang)]
    else:
        index = _index(body, year)
        en, hi = index.name_en(code), index.name_hi(code)
        where = [index.parent_index.label(index.parent(code), lang)] if index.parent_index is not None else []
    first, second = (hi, en) if lang == "hi" else (en, hi)
    return {"name": first or second or str(code), "name_en": en or "", "name_hi": hi or "", "where": where}


# --- the records we hold -------------------------------------------------------------------------------------------
# A record's ``note`` is a tuple of typed parts ``(key, ((field, value), ...))``, rendered in words by
# reservation.history.unit_render from reservation.law.words (``history.note.KEY``): where the record came from.

def _n(key: str, **fields) -> tuple:
    return (key, tuple((k, str(v)) for k, v in fields.items()))


def _rows(df: pd.DataFrame) -> np.ndarray:
    """The rows of a table as a spreadsheet numbers them (the header is row 1)."""
    return np.arange(2, len(df) + 2)


def _text(path) -> pd.DataFrame:
    return pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8")


def _zp_records() -> pd.DataFrame:
    from ..inputs.units import nfc
    h = _text(DATA_DIR / "history" / "zp-chair.csv")
    src = [cite(f"{_H}zp-chair.csv", i) for i in _rows(h)]
    p15 = _text(DATA_DIR / "history" / "zp_adhyaksh_2015.csv")
    row15 = {nfc(n): i for n, i in zip(p15["district_hi"], _rows(p15))}
    p21 = _text(DATA_DIR / "published" / "zp_adhyaksh_2021_final.csv")
    row21 = dict(zip(p21["district_lgd_code"], _rows(p21)))
    notes = []
    for unit, year, name in zip(h["unit"], h["year"], h["name_as_published"]):
        if year == "2015" and nfc(name) in row15:
            notes.append((_n("published", source=cite(f"{_H}zp_adhyaksh_2015.csv", row15[nfc(name)]), name=name),))
        elif year == "2021" and unit in row21:
            notes.append((_n("published", source=cite("data/published/zp_adhyaksh_2021_final.csv", row21[unit]),
                             name=name), _n("stage_final")))
        else:
            notes.append(())
    return _frame(h["unit"], h["year"], h["category"], src, notes)


def _kp_records() -> pd.DataFrame:
    from ..inputs.units import nfc
    h = _text(DATA_DIR / "history" / "kp-chair.csv")
    p15 = _text(DATA_DIR / "history" / "kp_pramukh_2015.csv")
    row15 = {(nfc(d), nfc(b)): i for d, b, i in zip(p15["district_hi"], p15["block_hi"], _rows(p15))}
    notes = []
    for y, d, b in zip(h["year"], h["district_as_published"], h["name_as_published"]):
        r = row15.get((nfc(d), nfc(b))) if y == "2015" else None
        notes.append((_n("published", source=cite(f"{_H}kp_pramukh_2015.csv", r), name=b),) if r else ())
    frames = []
    for y in (2005, 2010):
        s = _text(DATA_DIR / "history" / f"kp_pramukh_{y}.csv")
        rows = _rows(s)
        ok = (s["block_lgd_code"] != "").to_numpy()
        by_unit = {u: (r, m, sc) for u, r, m, sc, k in zip(s["block_lgd_code"], rows, s["match"], s["score"], ok) if k}
        for i, (unit, year) in enumerate(zip(h["unit"], h["year"])):
            r = by_unit.get(unit) if year == str(y) else None
            if r:
                notes[i] = (_n("list", source=cite(f"{_H}kp_pramukh_{y}.csv", r[0]),
                               name=h["name_as_published"].iat[i]),
                            _n("crosswalk", match=r[1], score=r[2]))
        have = set(h.loc[h["year"] == str(y), "unit"])
        add = s[ok & (s["category"] != "").to_numpy() & ~s["block_lgd_code"].isin(have).to_numpy()]
        frames.append(_frame(add["block_lgd_code"], [str(y)] * len(add), add["category"],
                             [cite(f"{_H}kp_pramukh_{y}.csv", r) for r in rows[add.index]],
                             [(_n("crosswalk", match=m, score=sc),) for m, sc in zip(add["match"], add["score"])]))
    first = _frame(h["unit"], h["year"], h["category"], [cite(f"{_H}kp-chair.csv", i) for i in _rows(h)], notes)
    return pd.concat([first] + frames, ignore_index=True)


def _gp_records(unit: int | None = None) -> pd.DataFrame:
    h = _gp_raw()
    if unit is not None:
        h = h[h["unit"] == int(unit)]
    notes = [(_n("list", source=cite_stored(s), name=n), _n("crosswalk", match=m, score=sc))
             + ((_n("caveat", caveat=c),) if c else ())
             for s, n, m, sc, c in zip(h["source"], h["name_as_published"], h["match"], h["score"], h["caveat"])]
    return _frame(h["unit"], h["year"], h["category"], [cite(f"{_H}gp-pradhan.csv.gz", i) for i in h["_row"]], notes)


def _urban_2012(body: str) -> pd.DataFrame:
    from ..inputs.published import category_of
    sec = _text(DATA_DIR / "build" / "sec2012_urban_bodies_hi.csv")
    link = _text(DATA_DIR / "build" / "urban_names_hi.csv")
    row = dict(zip(sec["first_serial"], _rows(sec)))
    by_serial = sec.set_index("first_serial")
    codes = set(_bodies_of(body))
    link = link[link["unit_code"].astype(int).isin(codes) & link["sec_row"].isin(row)]
    cats, src, notes = [], [], []
    for serial, m, sc in zip(link["sec_row"], link["match"], link["score"]):
        r = by_serial.loc[serial]
        cats.append(category_of(r["category_hi"]) if r["category_hi"].strip() else "")   # blank: unknown
        src.append(cite("data/build/sec2012_urban_bodies_hi.csv", row[serial]))
        name = r["body_name_hi"]
        if not name.startswith(r["body_type_hi"]):
            name = f"{r['body_type_hi']} {name}"
        notes.append((_n("sec2012", serial=serial, name=name, district=r["district_hi"]),
                      _n("link", source="data/build/urban_names_hi.csv", match=m, score=sc or "—")))
    return _frame(link["unit_code"], ["2012"] * len(link), cats, src, notes)


def _bodies_of(body: str) -> list[int]:
    b = pd.read_csv(DATA_DIR / "urban_bodies_2023.csv", usecols=["unit_code", "body_type_name"])
    return b.loc[b["body_type_name"] == _URBAN_TYPE[body], "unit_code"].astype(int).tolist()


def _mayor_records() -> pd.DataFrame:
    h = _text(DATA_DIR / "history" / "mayor.csv")
    notes = []
    pub = {y: _text(DATA_DIR / "published" / f"mayor_{y}.csv") for y in ("2017", "2023")}
    for unit, year in zip(h["unit"], h["year"]):
        p = pub[year]
        hit = np.flatnonzero((p["unit_code"] == unit).to_numpy())
        if not len(hit):
            notes.append(())
            continue
        r = p.iloc[hit[0]]
        parts = [_n("published", source=cite(f"data/published/mayor_{year}.csv", hit[0] + 2), name=r["name_hi"])]
        if r["confidence"]:
            parts.append(_n("confidence", confidence=r["confidence"], note=r["note"]))
        notes.append(tuple(parts))
    return pd.concat([_frame(h["unit"], h["year"], h["category"], [cite(f"{_H}mayor.csv", i) for i in _rows(h)], notes),
                      _urban_2012("mayor")], ignore_index=True)


def _frame(units, years, cats, sources, notes) -> pd.DataFrame:
    return pd.DataFrame({"unit_code": np.asarray(units, dtype=np.int64), "year": np.asarray(years, dtype=np.int64),
                         "category": list(cats), "source": list(sources), "note": list(notes)})


@lru_cache(maxsize=4)
def _urban_2006(body: str) -> tuple[pd.DataFrame, dict]:
    """The 2006 urban chairs on ``body``'s units (:mod:`reservation.history.urban2006`, through each unit's 2012
    row) and the reason of every unit with none."""
    from .urban2006 import records_2006
    link = _text(DATA_DIR / "build" / "urban_names_hi.csv")
    sec_of = {int(u): int(s) for u, s in zip(link["unit_code"], link["sec_row"]) if s}
    return records_2006({u: sec_of.get(u) for u in _bodies_of(body)})


def _urban_records(body: str) -> pd.DataFrame:
    first = _mayor_records() if body == "mayor" else _urban_2012(body)
    return pd.concat([first, _urban_2006(body)[0]], ignore_index=True)


@lru_cache(maxsize=8)
def _records(body: str) -> pd.DataFrame:
    load = {"zp-chair": _zp_records, "kp-chair": _kp_records}.get(body, lambda: _urban_records(body))
    return load().sort_values(["unit_code", "year"], kind="stable").reset_index(drop=True)


def shipped_records(body: str, unit: int | None = None) -> pd.DataFrame:
    """Every record of ``body`` in the shipped lists (of one ``unit`` when given): ``unit_code, year, category,
    source, note`` (typed parts, see above); ``attrs["years"]``: the years whose list is shipped for the body."""
    _check_body(body)
    if body == "gp-pradhan":        # 144,071 rows: the notes of one unit only
        years = sorted(int(y) for y in _gp_raw()["year"].unique())
        out = _gp_records(unit).sort_values(["unit_code", "year"], kind="stable").reset_index(drop=True)
    else:
        r = _records(body)
        years = sorted(int(y) for y in r["year"].unique())
        out = (r if unit is None else r[r["unit_code"] == int(unit)].reset_index(drop=True)).copy()
    out.attrs["years"] = years
    # a list placed on today's units but not on this one, with the reason (the 2006 urban chairs)
    out.attrs["unplaced"] = {}
    if body in _URBAN_TYPE and unit is not None and int(unit) in _urban_2006(body)[1]:
        from .urban2006 import FILE
        out.attrs["unplaced"] = {2006: (FILE, ((("not_placed", (("reason", _urban_2006(body)[1][int(unit)]),)),)))}
    return out
