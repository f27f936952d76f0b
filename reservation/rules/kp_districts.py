"""The districts' tables of the Kshetra Panchayat pramukhs (:mod:`reservation.rules.kp_chair`): the blocks summed
per district, the districts' table kept by its inputs (a projection sums new OBC figures for every sample, and the
rest is the same every time), and the engine's slots from the posts per district."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd

from ..base.errors import RuleError
from ..inputs.units import load_districts

__all__ = ["district_populations", "district_slots_of"]


def _block_sums(blocks: pd.DataFrame) -> dict:
    """Blocks and their persons per district (``district_lgd_code`` ascending; as ``groupby().agg``, in numpy:
    a projection sums the blocks of every sample), as numpy columns."""
    codes = blocks["district_lgd_code"].to_numpy()
    order = np.argsort(codes, kind="stable")
    keys, starts, counts = np.unique(codes[order], return_index=True, return_counts=True)
    out = {"district_lgd_code": keys, "blocks": counts.astype(np.int64)}
    for name, col in (("b_pop", "pop"), ("b_sc", "sc"), ("b_st", "st"), ("b_obc", "obc")):
        values = blocks[col].to_numpy()
        if values.dtype.kind not in "iu" or not len(values):
            g = blocks.groupby("district_lgd_code").agg(
                blocks=("unit_code", "size"), b_pop=("pop", "sum"), b_sc=("sc", "sum"), b_st=("st", "sum"),
                b_obc=("obc", "sum")).reset_index()
            return {c: g[c].to_numpy() for c in g.columns}
        out[name] = np.add.reduceat(values[order].astype(np.int64), starts)
    return out


#: The districts' table by everything but the blocks' OBC sums (a projection sums new OBC figures per sample, and
#: the rest is the same every time): the table, per row its row of :func:`_block_sums`, and its columns as lists.
_DISTRICT_TABLES: dict = {}


def district_populations(blocks, opts, population):
    """The districts' table (kept: read it, never change it), the sums of the blocks' OBC persons in its rows
    (a numpy array; None: the OBC population is not given) and its columns as plain lists (with the SC shares,
    and the order of the districts in the engine's slots)."""
    b = _block_sums(blocks)
    obc_given = population is not None and "obc" in population.columns
    key = (opts["district_population"], population is not None, obc_given,
           *((str(b[c].dtype), tuple(b[c].tolist())) for c in ("district_lgd_code", "blocks", "b_pop", "b_sc", "b_st")))
    if key not in _DISTRICT_TABLES:
        if len(_DISTRICT_TABLES) >= 8:
            _DISTRICT_TABLES.pop(next(iter(_DISTRICT_TABLES)))
        d = _district_table(pd.DataFrame(b), opts, population)
        lists = {c: d[c].tolist() for c in ("district", "blocks", "pop", "st")}
        lists["sc_share"] = [Fraction(int(x), int(y)) for x, y in zip(d["sc"], d["pop"])]
        index = pd.Index(d["district"].unique(), name="district").sort_values()
        lists["slots"] = (index, index.get_indexer(d["district"]))
        _DISTRICT_TABLES[key] = (d, np.searchsorted(b["district_lgd_code"], d["district_lgd_code"].to_numpy()), lists)
    table, rows, lists = _DISTRICT_TABLES[key]
    return table, (b["b_obc"][rows] if obc_given else None), lists


def _district_table(b, opts, population):
    d = load_districts().drop(columns=["district"]).rename(columns={"unit_code": "district_lgd_code",
                                                                     "unit_name_en": "district"})
    d = d.merge(b, on="district_lgd_code", how="inner")
    if opts["district_population"] == "block_sums" or population is not None:
        d["pop"], d["sc"], d["st"] = d["b_pop"], d["b_sc"], d["b_st"]
    else:
        d["pop"], d["sc"], d["st"] = d["pop_rural"], d["sc_rural"], d["st_rural"]
    d["obc"] = d["b_obc"] if population is not None and "obc" in population.columns else None
    empty = d[d["pop"] <= 0]
    if len(empty):       # every block of the district at 0 persons (--units or --population): no share exists
        raise RuleError(f"district {empty['district'].iat[0]}: its {int(empty['blocks'].iat[0])} block(s) have 0 "
                        f"persons in all, so its SC and OBC shares (persons of the category / persons) cannot be "
                        f"computed")
    return d.sort_values("district").reset_index(drop=True)


#: The codes of the engine's slots, in the order :func:`reservation.rules.rulebook.slots_from_split` gives them.
SLOT_CODES = ["ST_W", "ST", "SC_W", "SC", "OBC_W", "OBC", "W", "UR"]


def district_slots_of(d: pd.DataFrame, order: tuple, finals: dict, women: dict, reserved) -> pd.DataFrame:
    """The engine's slots (as :func:`reservation.rules.rulebook.slots_from_split` of the districts' long table)
    from the numbers alone: the districts ``d`` (``blocks``), their ``order`` in the slots (the sorted index and
    each row's place in it, :func:`district_populations`), the posts of ST, SC and OBC (``finals``), the women's
    posts (``women``: ST, SC, OBC, GEN) and the reserved posts per district."""
    index, rows = order
    cols = []
    for g in ("ST", "SC", "OBC"):
        w = np.asarray(women[g], dtype=np.int64)
        cols += [w, np.asarray(finals[g], dtype=np.int64) - w]
    gen = np.asarray(women["GEN"], dtype=np.int64)
    cols += [gen, d["blocks"].to_numpy(dtype=np.int64) - np.asarray(reserved, dtype=np.int64) - gen]
    out = np.zeros((len(index), len(cols)), dtype=np.int64)
    out[rows] = np.column_stack(cols)
    return pd.DataFrame(out, index=index, columns=SLOT_CODES)
