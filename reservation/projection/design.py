"""The assignment as data, for researchers (issue 21 item 6): every pass of the law, unit by unit.

Studies of reservation use rotation as a natural experiment (a unit's rank in a population-ranked pool against
the pool's cut-off is a running variable). ``design(body, year, ...)`` gives, for one election, one row per unit
and per pass the unit was a candidate in (``reservation design``; docs/research.md says what each column means
and what it can and cannot support):

- everything about the pass is read from the engine's own record of it
  (:class:`reservation.engine.passes.PassRecord` of the run :func:`reservation.allotment.pipeline.allot` makes:
  the tier, the order the pass used, the posts, the pool, the units taken, the eligibility, the units the
  division rule left out, the lots) and from :meth:`reservation.engine.passes.EngineResult.ranks` (the rank by
  key alone and the ties); no rule is computed a second time here: the rank is the place in the pass's own order
  (``rotation_order``), the cut-off the place of the last unit the pass took;
- the key and its margin are the pass's own key (:class:`reservation.law.ranking.Ratio`, exact) in its own units
  (a share, or a number of people), as exact fractions;
- where the unknown OBC population decides, the probability of each category comes from the projection
  (:func:`reservation.projection.project.project`, the defaults and seed of ``reservation project``); where none
  is given the row says why.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pandas as pd

from ..allotment.pipeline import prepare
from ..base.errors import RuleError
from ..engine.steps import run_positions
from ..law.categories import CODES
from .defaults import DEFAULT_OBC_SD
from .orders import UNKNOWN_KEY, pass_kinds

__all__ = ["design", "Design", "DESIGN_COLUMNS", "COLUMN_MEANINGS", "KEY_BASES", "EXACT_COLUMNS", "read_design"]

#: What each column means (also written into the meta file, ``design.columns``; docs/research.md explains them).
COLUMN_MEANINGS = {
    "unit_code": "the unit's code (LGD code for districts, blocks and gram panchayats)",
    "unit_name_en": "the unit's name",
    "counting_unit": "the parent whose posts the pass fills (State, district, block)",
    "pass_index": "the pass's place in the legal order of the run (0 = first); empty on a unit's row without a pass",
    "pass": "the pass's step code (its category codes, women's first: SC_W+SC); empty: the unit was a candidate "
            "in no pass (pinned, or its counting unit had no posts in any pass)",
    "group": "the category group of the pass (ST, SC, OBC, GEN)",
    "tier": "the unit's rotation tier for the group in this pass: 1 never reserved for it since the base year, 2 not "
            "at the last election, 3 reserved for it at the last election",
    "rank": "the unit's place in the order the pass used within its counting unit (tier, then key descending, then "
            "the tie-break), 1 = first",
    "key_rank": "the unit's place by the key alone within its counting unit (tiers ignored), 1 = highest key",
    "pool": "the units ranked in this pass in the counting unit (the pool)",
    "posts": "the posts the pass fills in the counting unit (pins taken off)",
    "cutoff": "the rank of the last unit the pass took in the counting unit",
    "cutoff_tier": "the tier of that last unit taken",
    "margin": "rank minus cutoff: 0 or below = at or above the cut-off, above 0 = below it",
    "key_kind": "share (of the unit's population) or people (a number of persons)",
    "key": "the unit's ranking key in the pass, exact (a fraction for a share)",
    "cutoff_key": "the key of the last unit taken",
    "key_margin": "key minus cutoff_key, exact: above 0 = a higher key than the cut-off's (across tiers: see tier)",
    "key_margin_approx": "key_margin as a binary float (for plotting; the exact value is key_margin)",
    "key_basis": "what the key rests on: public (Census figures), stand_in (the OBC population is not public: every "
                 "unit's OBC share is assumed at the State share), given (the user's OBC figures, --population), "
                 "unknown (a key whose dependence on the OBC figures the projection does not know)",
    "tied": "other units of the pool with exactly the same key",
    "tie_break": "how equal keys were ordered for this unit: lot, population (larger first, then lower code), code "
                 "(lower code first); empty when the key ties with no other unit",
    "eligible": "whether the unit could take the group in this pass (two-person rule; freed by the division rule)",
    "left_out_division": "whether the division rule left the unit out of this pass (its division would have been "
                         "wholly reserved)",
    "taken": "whether the pass gave the unit one of its posts",
    "category_taken": "the code the unit took in this pass (the women's code or the group's), empty if not taken",
    "category": "the unit's final category in the run",
    "decided_by": "the step that decided the final category: a pass's step code, pin, or UR (taken by no pass)",
    **{f"P_{c}": f"the probability that the unit is {c} (share of the projection's samples); empty: see probability"
       for c in CODES},
    "certain": "the projection proved the category the same for every OBC population (empty: no projection)",
    "probability": "where the probabilities come from, or why none is given",
}
DESIGN_COLUMNS = list(COLUMN_MEANINGS)
#: The values of ``key_basis``.
KEY_BASES = ("public", "stand_in", "given", "unknown")
#: The exact values written as text ("-1/10"): in a CSV a negative one begins with ``'`` (the spreadsheet guard of
#: :func:`reservation.output.tables.neutralise`); :func:`read_design` takes it off.
EXACT_COLUMNS = ("key", "cutoff_key", "key_margin")
_INT_COLUMNS = ("pass_index", "tier", "rank", "key_rank", "pool", "posts", "cutoff", "cutoff_tier", "margin", "tied")


@dataclass
class Design:
    """The result of :func:`design`: ``table`` (:data:`DESIGN_COLUMNS`), ``meta`` (the allotment's meta with a
    ``design`` section), the allotment it reads (``allotment``) and the projection (or None)."""

    body: str
    year: int
    table: pd.DataFrame
    meta: dict
    allotment: object
    projection: object = None


def _key_values(key, positions: np.ndarray) -> list:
    """The exact key of the units at ``positions`` (Fractions in the key's own units: a share, or persons)."""
    n = int(positions.max()) + 1 if len(positions) else 0
    num = np.broadcast_to(np.asarray(key.num), (max(n, 1),)) if np.ndim(key.num) == 0 else np.asarray(key.num)
    if key.den is None:
        s = int(key.scale)
        return [Fraction(int(num[p]), s) for p in positions.tolist()]
    den = np.broadcast_to(np.asarray(key.den), (max(n, 1),)) if np.ndim(key.den) == 0 else np.asarray(key.den)
    return [Fraction(int(num[p]), int(den[p])) if int(den[p]) else Fraction(0) for p in positions.tolist()]


def _key_basis(kind, given: bool) -> str:
    if kind.key is None:
        return "public"
    if kind.key == UNKNOWN_KEY:
        return "unknown"
    return "given" if given else "stand_in"


def _pass_rows(result, rec, frame, basis: str) -> dict | None:
    """The rows of one pass (its active units, in the pass's own order), read from its record."""
    eng = result.engine
    rot = np.asarray(rec.rotation_order, dtype=np.int64)
    if not len(rot):
        return None
    par = eng.par[rot]
    rank = run_positions(par) + 1                      # the place in the pass's own order, per counting unit
    rank_of = np.zeros(len(eng.codes), dtype=np.int64)
    rank_of[rot] = rank
    n_par = len(eng.parent_labels)
    cut = np.zeros(n_par, dtype=np.int64)
    np.maximum.at(cut, eng.par[rec.chosen], rank_of[rec.chosen])
    at_cut = np.full(n_par, -1, dtype=np.int64)
    hit = rank == cut[par]
    at_cut[par[hit]] = rot[hit]
    key_rank, _pool, tied = eng.ranks(rec)
    keys = _key_values(rec.spec.key, rot)
    cut_pos = at_cut[par]
    cut_keys = _key_values(rec.spec.key, np.where(cut_pos >= 0, cut_pos, rot))
    taken = np.zeros(len(eng.codes), dtype=bool)
    taken[rec.chosen] = True
    took = np.full(len(eng.codes), "", dtype=object)
    took[rec.chosen] = np.asarray(rec.spec.codes, dtype=object)[rec.slot_index]
    lot = rec.lot[rot] if rec.lot is not None else np.full(len(rot), -1)
    rule = getattr(rec.spec.text, "tie_rule", "") or eng.settings.tie_break.value
    t = tied[rot]
    has_cut = cut_pos >= 0
    return {
        "unit_code": eng.codes[rot], "unit_name_en": frame["unit_name_en"].to_numpy(dtype=object)[rot],
        "counting_unit": np.asarray(eng.parent_labels, dtype=object)[par],
        "pass_index": np.full(len(rot), rec.index), "pass": rec.spec.name, "group": rec.spec.group,
        "tier": rec.tier[rot].astype(np.int64), "rank": rank, "key_rank": key_rank[rot],
        "pool": rec.pool_size[par], "posts": rec.need[par],
        "cutoff": np.where(has_cut, cut[par], -1), "cutoff_tier": np.where(has_cut, rec.tier[cut_pos], -1),
        "margin": np.where(has_cut, rank - cut[par], -1),
        "key_kind": rec.spec.key.kind, "key": [str(k) for k in keys],
        "cutoff_key": [str(c) if h else "" for c, h in zip(cut_keys, has_cut)],
        "key_margin": [str(k - c) if h else "" for k, c, h in zip(keys, cut_keys, has_cut)],
        "key_margin_approx": [float(k - c) if h else np.nan for k, c, h in zip(keys, cut_keys, has_cut)],
        "key_basis": basis, "tied": t,
        "tie_break": np.where(t == 0, "", np.where(lot >= 0, "lot", rule)),
        "eligible": rec.eligible[rot] & ~np.isin(rot, list(rec.barred)),
        "left_out_division": np.isin(rot, list(rec.barred)), "taken": taken[rot], "category_taken": took[rot],
        "_pos": rot, "_missing_cut": ~has_cut,
    }


def _without_pass(result, frame, seen: np.ndarray) -> dict:
    """One row for each unit that was a candidate in no pass (pinned, or no posts in its counting unit)."""
    eng = result.engine
    pos = np.flatnonzero(~seen)
    return {"unit_code": eng.codes[pos], "unit_name_en": frame["unit_name_en"].to_numpy(dtype=object)[pos],
            "counting_unit": np.asarray(eng.parent_labels, dtype=object)[eng.par[pos]], "pass": "", "group": "",
            "_pos": pos}


def _rows(result, kinds) -> pd.DataFrame:
    """Every pass's rows, then the rows of the units in no pass; sorted by counting unit order, pass, rank."""
    eng, frame = result.engine, result.units
    given = "obc" in frame.columns
    parts, seen = [], np.zeros(len(eng.codes), dtype=bool)
    for rec, kind in zip(eng.records, kinds):
        got = _pass_rows(result, rec, frame, _key_basis(kind, given))
        if got is not None:
            seen[got["_pos"]] = True
            missing = got.pop("_missing_cut")
            df = pd.DataFrame(got)
            for c in ("cutoff", "cutoff_tier", "margin"):
                df[c] = df[c].astype("Int64").mask(missing)
            parts.append(df)
    if not seen.all():
        parts.append(pd.DataFrame(_without_pass(result, frame, seen)))
    t = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame({"_pos": np.zeros(0, dtype=np.int64)})
    for c in _INT_COLUMNS:
        t[c] = t[c].astype("Int64") if c in t else pd.array([pd.NA] * len(t), dtype="Int64")
    for c in ("eligible", "left_out_division", "taken"):
        t[c] = t[c].astype("boolean") if c in t else pd.array([pd.NA] * len(t), dtype="boolean")
    for c in ("key_kind", "key", "cutoff_key", "key_margin", "key_basis", "tie_break", "category_taken"):
        t[c] = t[c].fillna("") if c in t else ""
    pos = t["_pos"].to_numpy(dtype=np.int64)
    t["category"] = np.asarray(CODES, dtype=object)[eng.category[pos]]
    names = {-1: "pin", -2: "UR"} | {r.index: r.spec.name for r in eng.records}
    t["decided_by"] = [names[int(d)] for d in eng.decided_by[pos]]
    order = np.lexsort((t["rank"].fillna(0).to_numpy(dtype=np.int64),
                        t["pass_index"].fillna(len(eng.records)).to_numpy(dtype=np.int64), eng.par[pos]))
    return t.iloc[order].reset_index(drop=True)


def _probabilities(prepared, result, kw: dict, samples: int, seed: int, want: bool):
    """(probabilities: units x CODES floats or None, certain: bools or None, note per unit, the projection or
    None, what the meta says). The projection is :func:`reservation.projection.project.project` with the inputs
    of the run and the defaults of ``reservation project``; a body or history it cannot project gives no
    probability, and says why."""
    from .project import project
    n = len(prepared.frame)
    if not want:
        return None, None, ["none: not asked for (--no-probabilities)"] * n, None, "not asked for"
    if "obc" in prepared.frame.columns:
        onehot = np.zeros((n, len(CODES)))
        onehot[np.arange(n), result.engine.category] = 1.0
        note = "certain: the OBC figures were given (--population or the units file), nothing is unknown"
        return onehot, np.ones(n, dtype=bool), [note] * n, None, note
    try:
        pr = project(prepared.body, prepared.year, samples=samples, seed=seed, progress=False, **kw)
    except RuleError as e:
        from ..base.errors import bounded
        note = f"none: the projection cannot be made for this body and history ({bounded(e)})"
        return None, None, [note] * n, None, note
    if not np.array_equal(pr.table["unit_code"].to_numpy(dtype=np.int64),
                          prepared.frame["unit_code"].to_numpy(dtype=np.int64)):
        raise AssertionError("the projection's units are not the allotment's")
    probs = pr.tallies / pr.samples
    sampled = f"sampled: the share of {pr.samples} OBC samples (seed {seed}) giving each category"
    proved = "certain: proved the same for every OBC population"
    notes = [proved if c else sampled for c in pr.certain.tolist()]
    return probs, pr.certain, notes, pr, pr.meta["projection"]


def design(body: str, year: int, *, units=None, history=None, population=None, pins=None, options=(),
           base_year: int | None = None, samples: int = 1000, seed: int = 0, probabilities: bool = True) -> Design:
    """The assignment of ``body`` at the election of ``year`` as data: one row per unit and per pass it was a
    candidate in (:data:`DESIGN_COLUMNS`; see the module docstring). Inputs and options as
    :func:`reservation.allotment.pipeline.allot`; ``samples`` and ``seed`` as ``reservation project`` (its
    defaults); ``probabilities=False`` leaves the projection out (the rows say so). Bad input raises InputError,
    rules that cannot apply RuleError."""
    kw = dict(units=units, history=history, population=population, pins=pins, options=options, base_year=base_year)
    prepared = prepare(body, year, _stacklevel=3, **kw)
    result = prepared.run()
    kinds = pass_kinds(prepared, strict=False)     # a key the projection does not know: basis "unknown"
    t = _rows(result, kinds)
    probs, certain, notes, pr, what = _probabilities(prepared, result, kw, samples, seed, probabilities)
    pos = t["_pos"].to_numpy(dtype=np.int64)
    for j, c in enumerate(CODES):
        t[f"P_{c}"] = probs[pos, j] if probs is not None else np.nan
    t["certain"] = pd.array(certain[pos], dtype="boolean") if certain is not None else pd.array(
        [pd.NA] * len(t), dtype="boolean")
    t["probability"] = np.asarray(notes, dtype=object)[pos] if len(pos) else []
    if prepared.parent is None:              # one counting unit: the State
        t["counting_unit"] = "State"
    table = t[DESIGN_COLUMNS]
    meta = dict(result.meta)
    meta["design"] = {
        "rows": int(len(table)), "units": int(len(prepared.frame)),
        "passes": [r.spec.name for r in result.engine.records],
        "columns": COLUMN_MEANINGS,
        "probabilities": what,
        "projection_defaults": {"samples": samples, "seed": seed, "obc_sd": DEFAULT_OBC_SD,
                                "constraint": "past_lists"},
        "read_from": "the engine's records of each pass of the run `reservation allot` makes with these inputs",
    }
    if pr is not None:
        meta["assumptions"] = list(pr.meta["assumptions"])
    return Design(body, year, table, meta, result, pr)


def read_design(path) -> pd.DataFrame:
    """A table written by ``reservation design`` (CSV or Parquet) read back with the types it was written with:
    whole numbers as nullable integers, the flags as nullable booleans, the exact columns (:data:`EXACT_COLUMNS`)
    as text without the spreadsheet guard's leading ``'`` (``Fraction(value)`` reads them)."""
    from pathlib import Path
    p = Path(path)
    if p.suffix.lower() == ".parquet":
        t = pd.read_parquet(p)
    else:
        t = pd.read_csv(p, dtype={c: str for c in ("unit_name_en", "counting_unit", "pass", "group", "key_kind",
                                                  *EXACT_COLUMNS, "key_basis", "tie_break", "category_taken",
                                                  "category", "decided_by", "probability")},
                        keep_default_na=False, na_values={c: [""] for c in DESIGN_COLUMNS
                                                          if c not in ("pass", "group", "unit_name_en")})
        for c in EXACT_COLUMNS + ("key_kind", "key_basis", "tie_break", "category_taken"):
            t[c] = t[c].fillna("").str.removeprefix("'")
    for c in _INT_COLUMNS:
        t[c] = t[c].astype("Int64")
    for c in ("eligible", "left_out_division", "taken", "certain"):
        t[c] = t[c].astype("boolean")
    return t[DESIGN_COLUMNS]
