"""The LGD gram panchayats as the gram pradhans' shipped units, with partial Census figures and their history.

Census figures by gram panchayat are not published. ``data/gp_census2011.csv.gz`` (built by
``data/build/gp_census2011.py``, data/README.md) gives each of LGD's 57,695 gram panchayats the Census 2011 villages
whose names match its own: a lower bound of its population (70.8 % of the blocks' rural population is placed),
and nothing for 11,777 of them. So every row of an allotment on these units says what its figures are:

- ``figures``: ``partial`` (villages of the gram panchayat's name: a part of its people), ``none`` (no village
  placed: share 0 in every pass, so within its rotation tier it ranks below every gram panchayat of its block with
  figures; among themselves by code),
  ``supplied`` (the user's ``--population`` row replaced them);
- ``figures_rule``: how the villages were placed (``name_match``, ``name_match_tehsil``, ``name_skeleton``), and
  ``block_covered``: the share of the block's Census rural population that the block's placed villages hold.

The posts of each block are counted from the block's own Census rural figures (``data/blocks_census2011.csv``,
every village of the block), not from the sum of its gram panchayats' partial figures: only the order inside
the block rests on the partial figures. The history is ``data/history/gp-pradhan.csv.gz`` (2005, 2010, 2015 on
LGD codes). The result is a computation under stated figures, never the list the State would make.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pandas as pd

from ..inputs.units import DATA_DIR

__all__ = ["FIGURES", "HISTORY", "shipped_units", "block_figures", "shipped_history", "notes",
           "SHIPPED_COLUMNS"]

FIGURES = DATA_DIR / "gp_census2011.csv.gz"
HISTORY = DATA_DIR / "history" / "gp-pradhan.csv.gz"
#: The table columns an allotment on gram panchayats carries (a user's units file: ``supplied``, blank).
SHIPPED_COLUMNS = ("figures", "figures_rule", "block_covered", "block_lgd_code")


@lru_cache(maxsize=1)
def _blocks() -> pd.DataFrame:
    b = pd.read_csv(DATA_DIR / "blocks_census2011.csv")
    d = pd.read_csv(DATA_DIR / "districts.csv", usecols=["district_lgd_code", "division_en"])
    b = b.merge(d, on="district_lgd_code", how="left", validate="many_to_one")
    b["label"] = b["block_name"] + ", " + b["district_en"]
    if b["label"].duplicated().any():
        raise RuntimeError("data/blocks_census2011.csv: two blocks of one name in one district")
    return b.set_index("block_lgd_code")


@lru_cache(maxsize=1)
def _units() -> pd.DataFrame:
    g = pd.read_csv(FIGURES, dtype={"census_village_codes": str, "share_of_block": str, "block_covered": str},
                    keep_default_na=False)
    b = _blocks()
    df = pd.DataFrame({
        "unit_code": g["gp_code"].astype(np.int64), "block": g["block_lgd_code"].map(b["label"]),
        "pop": g["pop"].astype(np.int64), "sc": g["sc"].astype(np.int64), "st": g["st"].astype(np.int64),
        "unit_name_en": g["gp_name"], "unit_name_hi": "", "district": g["block_lgd_code"].map(b["district_en"]),
        "division": g["block_lgd_code"].map(b["division_en"]),
        "figures": np.where(g["figures"] == "none", "none", "partial"),
        "figures_rule": np.where(g["figures"] == "none", "", g["figures"]),
        "block_covered": g["block_covered"], "block_lgd_code": g["block_lgd_code"].astype(np.int64)})
    if df["block"].isna().any():
        raise RuntimeError(f"{FIGURES.name}: a gram panchayat of a block not in data/blocks_census2011.csv")
    return df.sort_values(["block", "unit_code"], kind="stable").reset_index(drop=True)


def shipped_units() -> pd.DataFrame:
    """The 57,695 gram panchayats: ``unit_code, block`` (its label "Block, District"), ``pop, sc, st`` (partial:
    0 where ``figures`` is ``none``), names, district, division and the columns of :data:`SHIPPED_COLUMNS`."""
    return _units().copy()


def block_figures(labels) -> pd.DataFrame:
    """The Census 2011 rural ``pop, sc, st`` of the blocks labelled ``labels`` (data/blocks_census2011.csv)."""
    b = _blocks().reset_index().set_index("label")
    t = b.loc[list(labels), ["tot_p_rural", "sc_rural", "st_rural"]]
    return t.rename(columns={"tot_p_rural": "pop", "sc_rural": "sc", "st_rural": "st"}).astype(np.int64)


def shipped_history(until: int) -> pd.DataFrame:
    """The shipped gram pradhan history up to ``until`` (records of later elections are left out, their years in
    ``attrs["later_years"]``): ``unit_code, year, category, source``."""
    h = _history()
    keep = h["year"] <= int(until)
    out = h[keep].reset_index(drop=True)
    out.attrs["later_years"] = sorted(set(h.loc[~keep, "year"].tolist()))
    return out


@lru_cache(maxsize=1)
def _history() -> pd.DataFrame:
    h = pd.read_csv(HISTORY, usecols=["unit", "year", "category", "source"], dtype={"category": str})
    return pd.DataFrame({"unit_code": h["unit"].astype(np.int64), "year": h["year"].astype(np.int64),
                         "category": h["category"], "source": "gp-pradhan.csv.gz " + h["source"]})


def notes(frame: pd.DataFrame) -> list[str]:
    """What a reader must know of an allotment on the shipped gram panchayats, in words (the meta's assumptions
    and the CLI's ``assumed:`` lines)."""
    n = len(frame)
    none = int((frame["figures"] == "none").sum())
    rules = frame["figures_rule"].value_counts()
    placed = int(frame["pop"].sum())
    rural = int(block_figures(frame["block"].unique())["pop"].sum())
    return [
        "NOT the State's list: gram panchayat figures are not published; this computation ranks LGD's "
        f"{n:,} gram panchayats by partial figures (data/gp_census2011.csv.gz: the Census 2011 villages whose "
        f"names match the gram panchayat's, {placed:,} of the blocks' {rural:,} rural people, "
        f"{placed / rural:.1%}); column 'figures' says what each row rests on",
        f"{n - none:,} gram panchayat(s) have partial figures (figures=partial: "
        + ", ".join(f"{k} {int(rules.get(k, 0)):,}" for k in ("name_match", "name_match_tehsil", "name_skeleton"))
        + f"); {none:,} have none (figures=none): share 0 in every pass, so within its rotation tier such a gram "
        "panchayat ranks below every one of its block with figures (among themselves: by code)",
        "the posts of each block are counted from the block's Census 2011 rural figures "
        "(data/blocks_census2011.csv), not from its gram panchayats' partial figures; --population replaces a "
        "gram panchayat's figures (figures=supplied) for the order inside its block, not the block's counts",
    ]
