"""The allotment engine: category passes in the legal order, rotation tiers, division saturation, women.

A *pass* fills the posts of one category group (or of one code, under category order A6 reading a) from the
units not yet allotted. Units are grouped by a *parent* (the counting unit: the State for Zila Panchayat
chairs, the district for block pramukhs, the block for gram pradhans); each parent has its own number of posts.
Inside a parent the units are taken in this order of preference (GO 2021, seed b, ZP chair items 1-3 and KP
items 1-10):

1. rotation tier (1 never reserved for the group, 2 not reserved at the last election, 3 the rest: see
   :mod:`reservation.rotation`), then
2. descending share of the group's population (exact: :mod:`reservation.ranking`; ties by lot or the
   documented rule of the ``tie_break`` option).

A unit may be *not eligible* for a pass (the two-person rule of KP item 2). If the chosen units would make
*every* unit of a division reserved for the group, the least populous of them is left unreserved and the next
unit in order takes the post (the division rule of ZP items 1-3; A12). Within a group, the women's posts go to
the first units in that order ("from the top", A7 reading a). Units reached by no pass are unreserved.

The engine works on whole arrays (numpy), not one unit at a time: a pass is a sort and a count within each
parent, so that 732,000 ward seats cost about what one ``sort_values`` + ``groupby().cumcount()`` costs.
Words are rendered afterwards, only when asked for: :class:`EngineResult` holds the decisions as numbers and
renders ``table`` (one row per unit with ``clause`` and ``reason``) and ``trace`` (one row per rule step that
touched a unit) on first use. Nothing here reads files, prints or draws.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Callable

import numpy as np
import pandas as pd

from .categories import CODES, by_code
from .ranking import Ratio, order_key
from .rotation import RotationView

__all__ = ["CategoryPass", "EngineSettings", "EngineResult", "Allotment", "run_passes", "RuleError", "Pin",
           "Ratio", "TABLE_COLUMNS", "TRACE_COLUMNS", "DECISIONS"]


class RuleError(RuntimeError):
    """The rules cannot be applied to these inputs (e.g. fewer eligible units than posts)."""


TABLE_COLUMNS = ["unit_code", "unit_name_en", "unit_name_hi", "district", "division", "category", "tier",
                 "rank", "pool", "key", "clause", "reason", "tie_break"]
TRACE_COLUMNS = ["step", "unit_code", "unit_name_en", "pass", "rank", "pool", "key", "tier", "tier_reason",
                 "decision", "category", "clause", "tie_break"]

# decision codes of the trace
PASSED, ALLOTTED, LEFT_OUT, NOT_ELIGIBLE, NO_POSTS, PINNED, UNRESERVED = range(7)
DECISIONS = {PASSED: "passed over: the posts were filled by units earlier in rotation order",
             ALLOTTED: "allotted", LEFT_OUT: "left out", NOT_ELIGIBLE: "not eligible",
             NO_POSTS: "no posts in this pass", PINNED: "pinned", UNRESERVED: "unreserved"}
_CODE_INDEX = {c: i for i, c in enumerate(CODES)}
_UR = _CODE_INDEX["UR"]
_WOMEN_CODES = np.array([c for c in CODES if by_code(c).women])


@dataclass
class CategoryPass:
    """One pass of the engine.

    ``slots``: the codes it fills with their numbers, women's code first: ``[("SC_W", 6), ("SC", 10)]`` for a
    single parent, or ``{parent: [("SC_W", 1), ("SC", 2)], ...}`` per parent (same codes in every parent), or a
    DataFrame indexed by parent with one column per code (for many parents).
    ``key``: the ranking key, descending: a Series (index-aligned with the units) of Fractions/ints, or a
    :class:`Ratio`. ``key_label`` says what it is; ``key_format`` shows one value (Series keys only).
    ``population``: larger first among equal keys (tie-break rule ``population``).
    ``saturation_population``: None = no division rule in this pass; else the population whose least member is
    left unreserved.
    ``eligible``: None = every unit of the pool; else a boolean array (False = may not take this group).
    """

    group: str
    slots: list | dict
    key: object
    key_label: str
    history_codes: frozenset
    population: object
    clause: str
    clause_women: str
    clause_rotation: str
    key_format: Callable[[Fraction], str] | None = None
    saturation_population: object = None
    clause_saturation: str = ""
    note: str = ""
    eligible: object = None
    eligible_reason: str = ""
    clause_eligible: str = ""


@dataclass
class Pin:
    code: str
    source: str           # "pins.csv row 3"


@dataclass
class EngineSettings:
    tie_break: str = "population"              # A14
    lots: dict[str, dict[int, int]] = field(default_factory=dict)   # group -> unit -> lot ("*" for all)
    category_women: str = "top"                # A7
    rotation_fallback: str = "rank"            # A8 "as far as possible"
    division_saturation: str = "on"            # A12
    saturation_scope: str = "per_category"     # A12
    ur_clause: str = "not allotted to any reserved category"
    parent_label: str = "State"                # how a parent is named in reasons ("district", "block")


def _ordinal_array(n: np.ndarray) -> np.ndarray:
    n = np.asarray(n, dtype=np.int64)
    suffix = np.where((n % 100 >= 10) & (n % 100 <= 20), "th",
                      np.select([n % 10 == 1, n % 10 == 2, n % 10 == 3], ["st", "nd", "rd"], "th"))
    return np.char.add(n.astype(str), suffix)


def _runs(sorted_parent: np.ndarray) -> np.ndarray:
    """0-based position of each element within its run of equal values (the input is sorted by parent)."""
    n = len(sorted_parent)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    start = np.r_[True, sorted_parent[1:] != sorted_parent[:-1]]
    first = np.maximum.accumulate(np.where(start, np.arange(n), 0))
    return np.arange(n) - first


def _pct_text(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """Exact half-up percentage with 4 decimals, as text, for integer shares (display only)."""
    num = np.asarray(num, dtype=np.int64)
    den = np.asarray(den, dtype=np.int64)
    safe = np.where(den == 0, 1, den)
    scaled = (num * 2_000_000 + safe) // (2 * safe)           # half-up of num * 10**6 / den
    scaled = np.where(den == 0, 0, scaled)
    whole = (scaled // 10_000).astype(str)
    frac = pd.Series((scaled % 10_000).astype(str)).str.zfill(4).to_numpy(dtype=str)
    return np.char.add(np.char.add(np.char.add(whole, "."), frac), " %")


class _PassRecord:
    """What one pass decided. The engine stores whole-state arrays by unit position (cheap); the per-step
    views (``rank``, ``decision``, ... in trace order, i.e. indexed like ``unit``) are built when words are."""

    def __init__(self, index, spec, name, unit, par, rank, tier, tied, lot, decision, active, pool_size, need,
                 category, chosen, chosen_pos, slot_n, left_out_words):
        self.index, self.spec, self.name, self.unit = index, spec, name, unit
        self._par, self._rank, self._tier, self._tied, self._lot = par, rank, tier, tied, lot
        self._decision, self._active, self._pool_size, self._need = decision, active, pool_size, need
        self._category, self._chosen, self._chosen_pos, self._slot_n = category, chosen, chosen_pos, slot_n
        self.left_out_words = left_out_words

    @cached_property
    def rank(self):
        return self._rank[self.unit]

    @cached_property
    def tier(self):
        return self._tier[self.unit]

    @cached_property
    def tied(self):
        return self._tied[self.unit]

    @cached_property
    def lot(self):
        return self._lot[self.unit] if self._lot is not None else np.full(len(self.unit), -1, dtype=np.int64)

    @cached_property
    def decision(self):
        return self._decision[self.unit]

    @cached_property
    def pool(self):
        return np.where(self._active[self.unit], self._pool_size[self._par[self.unit]], -1)

    @cached_property
    def need(self):
        return self._need[self._par[self.unit]]

    @cached_property
    def category(self):
        return np.where(self.decision == ALLOTTED, self._category[self.unit], -1)

    def _chosen_view(self, values):
        full = np.zeros(len(self._par), dtype=np.int64)
        full[self._chosen] = values
        return full[self.unit]

    @cached_property
    def chosen_pos(self):
        return self._chosen_view(self._chosen_pos + 1)

    @cached_property
    def slot_n(self):
        return self._chosen_view(self._slot_n)


class EngineResult:
    """Decisions as arrays, and their rendering in words (``table``, ``trace``, ``explain``)."""

    def __init__(self, units: pd.DataFrame, rotation: RotationView, settings: EngineSettings,
                 records: list[_PassRecord], category: np.ndarray, decided_by: np.ndarray,
                 pins: dict[int, Pin], extra_columns: tuple[str, ...]):
        self.units = units
        self.rotation = rotation
        self.settings = settings
        self.records = records
        self.category = category
        self.decided_by = decided_by          # pass index per unit, -1 pinned, -2 unreserved
        self.pins = pins
        self.extra_columns = extra_columns
        self.codes = units["unit_code"].to_numpy(dtype=np.int64)

    # -- words ---------------------------------------------------------------------------------------------
    def _key_text(self, spec: CategoryPass, positions: np.ndarray) -> np.ndarray:
        if len(positions) == 0:
            return np.zeros(0, dtype=str)
        k = spec.key
        if isinstance(k, Ratio):
            if k.den is None:
                v = np.asarray(k.num, dtype=np.int64)[positions]
                if k.scale == 1:
                    return (pd.Series(v).map("{:,}".format) + " people").to_numpy(dtype=object)
                cents = (np.abs(v) * 200 + k.scale) // (2 * k.scale)          # exact half-up to 2 decimals
                sign = np.where(v < 0, "-", "")
                text = (pd.Series(sign) + pd.Series(cents // 100).astype(str) + "."
                        + pd.Series(cents % 100).astype(str).str.zfill(2) + " people (OBC assumed)")
                return text.to_numpy(dtype=object)
            return _pct_text(np.asarray(k.num)[positions], np.asarray(k.den)[positions])
        fmt = spec.key_format or (lambda x: str(x))
        vals = k.to_numpy() if isinstance(k, pd.Series) else np.asarray(k, dtype=object)
        return np.array([fmt(Fraction(vals[i])) for i in positions], dtype=object).astype(str)

    def _tie_text(self, rec: _PassRecord, sel: np.ndarray) -> np.ndarray:
        tied, lot = rec.tied[sel], rec.lot[sel]
        units = rec.unit[sel]
        head = (f"{rec.spec.key_label} tied with " + pd.Series(tied).astype(str) + " other unit(s); placed by ")
        if self.settings.tie_break == "population":
            pops = pd.Series(np.asarray(rec.spec.population, dtype=np.int64)[units]).astype(str)
            rule = head + "the tie-break rule (larger population " + pops + " first, then lower code)"
        else:
            rule = head + "the tie-break rule (lower code first)"
        by_lot = head + "lot number " + pd.Series(lot).astype(str)
        out = np.where(tied > 0, np.where(lot >= 0, by_lot.to_numpy(dtype=object), rule.to_numpy(dtype=object)), "")
        return out.astype(object)

    def _tier_words(self, rec: _PassRecord, sel: np.ndarray) -> np.ndarray:
        return self.rotation.tier_words(self.codes[rec.unit[sel]], rec.tier[sel], rec.spec.history_codes)

    @cached_property
    def table(self) -> pd.DataFrame:
        """One row per unit: :data:`TABLE_COLUMNS` (plus the engine's extra columns)."""
        n = len(self.units)
        tier = np.full(n, -1, dtype=np.int64)
        rank = np.full(n, -1, dtype=np.int64)
        pool = np.full(n, -1, dtype=np.int64)
        key = np.full(n, "", dtype=object)
        clause = np.full(n, "", dtype=object)
        reason = np.full(n, "", dtype=object)
        tie = np.full(n, "", dtype=object)
        for rec in self.records:
            sel = np.flatnonzero(rec.decision == ALLOTTED)
            if len(sel) == 0:
                continue
            u = rec.unit[sel]
            spec = rec.spec
            codes = np.asarray(CODES)[rec.category[sel]]
            women = np.isin(codes, _WOMEN_CODES) & (len(self._slot_codes(spec)) > 1)
            ktext = self._key_text(spec, u)
            words = self._tier_words(rec, sel)
            t = rec.tier[sel]
            text = (pd.Series(codes) + ": " + pd.Series(_ordinal_array(rec.rank[sel])) + " of "
                    + pd.Series(rec.pool[sel].astype(str)) + f" by {spec.key_label} (" + pd.Series(ktext)
                    + "); tier " + pd.Series(t.astype(str)) + ": " + pd.Series(words) + "; chosen "
                    + pd.Series(_ordinal_array(rec.chosen_pos[sel])) + " of the "
                    + pd.Series(rec.need[sel].astype(str)) + f" {rec.name} posts in rotation order")
            if self.settings.category_women == "top":
                wtext = "; among the first " + pd.Series(rec.slot_n[sel].astype(str)) + ", so reserved for women"
            else:
                wtext = pd.Series(["; women's post (not a women's office at the last election first)"] * len(sel))
            text = text.where(~women, text + wtext)
            if spec.note:
                text = text + f"; {spec.note}"
            cl = np.where(women, spec.clause_women, spec.clause).astype(object)
            cl = np.where(t > 1, cl + f"; {spec.clause_rotation}", cl)
            tier[u], rank[u], pool[u] = t, rec.rank[sel], rec.pool[sel]
            key[u], clause[u], reason[u] = ktext, cl, text.to_numpy(dtype=object)
            tie[u] = self._tie_text(rec, sel)
        for pos, pin in self.pins.items():
            clause[pos] = f"pinned by input ({pin.source})"
            reason[pos] = f"{pin.code} fixed by the pin file ({pin.source}); the rest is computed around it"
        ur = np.flatnonzero(self.decided_by == -2)
        if len(ur):
            parts = np.full(n, "", dtype=object)
            for rec in self.records:
                m = (self.decided_by[rec.unit] == -2) & (rec.rank > 0)
                if not m.any():
                    continue
                u = rec.unit[m]
                piece = (f"{rec.name} rank " + pd.Series(rec.rank[m]).astype(str) + " of "
                         + pd.Series(rec.pool[m]).astype(str) + " (tier " + pd.Series(rec.tier[m]).astype(str)
                         + ")").to_numpy(dtype=object)
                parts[u] = np.where(parts[u] == "", piece, parts[u] + "; " + piece)
            reason[ur] = "UR: reached by no category pass (" + parts[ur] + ")"
            clause[ur] = self.settings.ur_clause
        df = pd.DataFrame({
            "unit_code": self.codes,
            "unit_name_en": self.units["unit_name_en"].to_numpy(),
            "unit_name_hi": self.units["unit_name_hi"].to_numpy(),
            "district": self.units["district"].to_numpy(),
            "division": self.units["division"].to_numpy(),
            "category": np.asarray(CODES)[self.category],
            "tier": pd.array(np.where(tier < 0, None, tier), dtype="Int64"),
            "rank": pd.array(np.where(rank < 0, None, rank), dtype="Int64"),
            "pool": pd.array(np.where(pool < 0, None, pool), dtype="Int64"),
            "key": key, "clause": clause, "reason": reason, "tie_break": tie,
        })
        for c in self.extra_columns:
            df.insert(df.columns.get_loc("category"), c, self.units[c].to_numpy())
        return df

    @staticmethod
    def _slot_codes(spec: CategoryPass) -> list[str]:
        if isinstance(spec.slots, pd.DataFrame):
            return list(spec.slots.columns)
        slots = spec.slots if isinstance(spec.slots, list) else next(iter(spec.slots.values()), [])
        return [c for c, _ in slots]

    def _trace_rows(self, only: np.ndarray | None = None) -> pd.DataFrame:
        frames = []
        names = self.units["unit_name_en"].to_numpy()
        for pos, pin in sorted(self.pins.items()):
            if only is not None and pos not in only:
                continue
            frames.append(pd.DataFrame({"o1": [-1], "o2": [0], "unit": [pos], "pass": ["pin"], "rank": [None],
                                        "pool": [None], "key": [""], "tier": [None], "tier_reason": [""],
                                        "decision": [f"pinned to {pin.code}"], "category": [pin.code],
                                        "clause": [f"pinned by input ({pin.source})"], "tie_break": [""]}))
        for rec in self.records:
            sel = np.arange(len(rec.unit)) if only is None else np.flatnonzero(np.isin(rec.unit, only))
            if len(sel) == 0:
                continue
            spec = rec.spec
            dec = rec.decision[sel]
            cat = rec.category[sel]
            codes = np.where(cat >= 0, np.asarray(CODES)[np.maximum(cat, 0)], "")
            women = np.isin(codes, _WOMEN_CODES) & (len(self._slot_codes(spec)) > 1)
            words = np.array([DECISIONS[d] for d in dec], dtype=object)
            words = np.where(dec == ALLOTTED, "allotted " + codes.astype(object), words)
            lo = [rec.left_out_words.get(int(u), "") for u in rec.unit[sel]]
            words = np.where(dec == LEFT_OUT, np.array(["left out: " + w for w in lo], dtype=object), words)
            words = np.where(dec == NOT_ELIGIBLE, f"not eligible: {spec.eligible_reason}", words)
            clause = np.where(dec == ALLOTTED, np.where(women, spec.clause_women, spec.clause), spec.clause)
            clause = np.where((dec == ALLOTTED) & (rec.tier[sel] > 1), clause + f"; {spec.clause_rotation}", clause)
            clause = np.where(dec == LEFT_OUT, spec.clause_saturation, clause)
            clause = np.where(dec == NOT_ELIGIBLE, spec.clause_eligible, clause)
            frames.append(pd.DataFrame({
                "o1": rec.index, "o2": sel, "unit": rec.unit[sel], "pass": rec.name,
                "rank": rec.rank[sel], "pool": rec.pool[sel],
                "key": np.char.add(f"{spec.key_label} ", self._key_text(spec, rec.unit[sel]).astype(str)),
                "tier": rec.tier[sel], "tier_reason": self._tier_words(rec, sel), "decision": words,
                "category": codes, "clause": clause, "tie_break": self._tie_text(rec, sel)}))
        ur = np.flatnonzero(self.decided_by == -2)
        if only is not None:
            ur = ur[np.isin(ur, only)]
        if len(ur):
            frames.append(pd.DataFrame({"o1": len(self.records), "o2": ur, "unit": ur,
                                        "pass": "UR", "rank": None, "pool": None, "key": "", "tier": None,
                                        "tier_reason": "", "decision": "unreserved", "category": "UR",
                                        "clause": self.settings.ur_clause, "tie_break": ""}))
        if not frames:
            return pd.DataFrame(columns=TRACE_COLUMNS)
        tr = pd.concat(frames, ignore_index=True)
        tr = tr.sort_values(["o1", "o2"], kind="stable").reset_index(drop=True)
        tr.insert(0, "step", np.arange(1, len(tr) + 1))
        tr.insert(1, "unit_code", self.codes[tr["unit"].to_numpy(dtype=np.int64)])
        tr.insert(2, "unit_name_en", names[tr["unit"].to_numpy(dtype=np.int64)])
        for c in ("rank", "pool", "tier"):
            tr[c] = pd.array(tr[c].where(tr[c].notna() & (tr[c].astype("float") >= 0), None), dtype="Int64")
        return tr[TRACE_COLUMNS]

    @cached_property
    def trace(self) -> pd.DataFrame:
        """Every rule step that touched a unit, in the order the rules applied them (:data:`TRACE_COLUMNS`)."""
        return self._trace_rows()

    def explain(self, unit_code: int) -> pd.DataFrame:
        """The trace rows of one unit (rendered for that unit only)."""
        pos = np.flatnonzero(self.codes == int(unit_code))
        tr = self._trace_rows(only=pos)
        tr["step"] = np.arange(1, len(tr) + 1)
        return tr


@dataclass
class Allotment:
    """The result: ``table`` (one row per unit), ``trace`` (every step), ``counts`` (category counts used),
    ``meta`` (body, year, options, inputs, assumptions) and ``history`` (the history used)."""

    engine: EngineResult
    counts: pd.DataFrame
    meta: dict
    history: pd.DataFrame | None = None
    extra: dict = field(default_factory=dict)      # body-specific tables (e.g. the district apportionment)
    resolve: Callable[[str], int] | None = None    # a unit's name or code -> its unit_code

    @property
    def table(self) -> pd.DataFrame:
        return self.engine.table

    @property
    def trace(self) -> pd.DataFrame:
        return self.engine.trace

    def explain(self, unit_code: int) -> pd.DataFrame:
        return self.engine.explain(unit_code)

    def summary_by_division(self, by: str = "division") -> pd.DataFrame:
        """Divisions (or another column) x categories: how many units got each category."""
        t = pd.crosstab(self.table[by], self.table["category"])
        for c in CODES:
            if c not in t.columns:
                t[c] = 0
        t = t[list(CODES)]
        t["TOTAL"] = t.sum(axis=1)
        return t


def _slots_matrix(spec: CategoryPass, parent_labels: np.ndarray) -> tuple[list[str], np.ndarray]:
    if isinstance(spec.slots, pd.DataFrame):      # index: parent labels, one column per code
        extra = spec.slots.index.difference(pd.Index(parent_labels))
        if len(extra) and spec.slots.loc[extra].to_numpy().any():
            raise RuleError(f"posts given for {extra[0]!r}, which has no units")
        mat = spec.slots.reindex(pd.Index(parent_labels)).fillna(0).to_numpy(dtype=np.int64)
        return list(spec.slots.columns), mat
    if isinstance(spec.slots, list):
        codes = [c for c, _ in spec.slots]
        mat = np.tile(np.array([n for _, n in spec.slots], dtype=np.int64), (len(parent_labels), 1))
        return codes, mat
    codes = None
    mat = np.zeros((len(parent_labels), 0), dtype=np.int64)
    index = {p: i for i, p in enumerate(parent_labels)}
    for p, lst in spec.slots.items():
        if codes is None:
            codes = [c for c, _ in lst]
            mat = np.zeros((len(parent_labels), len(codes)), dtype=np.int64)
        if [c for c, _ in lst] != codes:
            raise ValueError("every parent of a pass must list the same codes")
        if p not in index:
            if any(n for _, n in lst):
                raise RuleError(f"posts given for {p!r}, which has no units")
            continue
        mat[index[p]] = [n for _, n in lst]
    return codes or [], mat


def run_passes(units: pd.DataFrame, passes: list[CategoryPass], rotation: RotationView, settings: EngineSettings,
               pins: dict[int, Pin] | None = None, parent: str | None = None,
               extra_columns: tuple[str, ...] = ()) -> EngineResult:
    """Apply ``passes`` to ``units`` (columns unit_code, unit_name_en, unit_name_hi, district, division and,
    when given, the ``parent`` column). Pinned units keep their category and stay out of every pass; the
    ``slots`` of a pass are its full counts (pins are subtracted here)."""
    units = units.reset_index(drop=True)
    n = len(units)
    codes = units["unit_code"].to_numpy(dtype=np.int64)
    if n > 1 and (np.diff(np.sort(codes)) == 0).any():
        raise RuleError("unit codes are not unique")
    if parent is None:
        par = np.zeros(n, dtype=np.int64)
        parent_labels = np.array(["*"], dtype=object)
    else:
        par, parent_labels = pd.factorize(units[parent], sort=True)
        par = par.astype(np.int64)
        parent_labels = np.asarray(parent_labels, dtype=object)
    n_par = len(parent_labels)
    if n > 1 and not ((par[1:] > par[:-1]) | ((par[1:] == par[:-1]) & (codes[1:] > codes[:-1]))).all():
        raise ValueError("units must be sorted by parent, then unit code (the code is the last tie-break)")
    category = np.full(n, -1, dtype=np.int64)
    decided_by = np.full(n, -3, dtype=np.int64)
    pin_pos: dict[int, Pin] = {}
    if pins:
        pos_of = dict(zip(codes.tolist(), range(n)))
        for u, pin in pins.items():
            p = pos_of[int(u)]
            pin_pos[p] = pin
            category[p] = _CODE_INDEX[pin.code]
            decided_by[p] = -1
    division = units["division"].to_numpy(dtype=object) if "division" in units else None
    par16 = par.astype(np.uint16) if n_par <= 65536 else None
    records: list[_PassRecord] = []
    rotation.bind(codes)

    for pi, spec in enumerate(passes):
        slot_codes, mat = _slots_matrix(spec, parent_labels)
        name = "+".join(slot_codes)
        for p, pin in pin_pos.items():
            if pin.code in slot_codes:
                mat[par[p], slot_codes.index(pin.code)] -= 1
        if (mat < 0).any():
            raise RuleError(f"{name}: more pinned units than posts")
        need = mat.sum(axis=1)
        pool = category < 0
        active = pool & (need[par] > 0)            # units in a parent with no posts in this pass are not ranked
        elig = active.copy()
        if spec.eligible is not None:
            elig &= np.asarray(spec.eligible, dtype=bool)
        key = order_key(spec.key if isinstance(spec.key, Ratio) else
                        (spec.key.to_numpy() if isinstance(spec.key, pd.Series) else spec.key))
        tier = rotation.tiers(codes, spec.history_codes)
        lots = dict(settings.lots.get("*", {}))
        lots.update(settings.lots.get(spec.group, {}))
        lot = (np.array([lots.get(c, -1) for c in codes.tolist()], dtype=np.int64) if lots
               else None)
        pop = np.asarray(spec.population, dtype=np.int64)
        # rank: position within the parent among the active units by key; equal keys: lot, then the rule
        # (larger population), then the unit code (the input order: lexsort is stable)
        ia = np.flatnonzero(active)
        sort_keys = []                              # np.lexsort: the last key is the primary one
        if settings.tie_break == "population":
            sort_keys.append(-pop[ia])
        if lots:
            sort_keys += [lot[ia], lot[ia] < 0]     # units with a lot first, by lot number
        sort_keys.append(key[ia])
        if len(ia) == 0:
            sp = ia
        elif n_par <= 65536:
            # units are in parent order already: sort by key (and the tie-breaks), then regroup by parent with
            # a stable radix sort on 16-bit parent numbers
            o = np.lexsort(tuple(sort_keys))
            sp = ia[o][np.argsort(par16[ia][o], kind="stable")]
        else:
            sp = ia[np.lexsort(tuple(sort_keys) + (par[ia],))]
        rank = np.full(n, -1, dtype=np.int32)
        rank[sp] = _runs(par[sp]) + 1
        pool_size = np.bincount(par[ia], minlength=n_par)
        tied = np.zeros(n, dtype=np.int32)
        if len(sp):
            ks, ps = key[sp], par[sp]
            new_run = np.r_[True, (ks[1:] != ks[:-1]) | (ps[1:] != ps[:-1])]
            run_id = np.cumsum(new_run) - 1
            tied[sp] = np.bincount(run_id)[run_id] - 1
        # rotation order: tier, then rank (a stable sort of the rank order)
        rot = sp[np.argsort(par[sp] * 4 + tier[sp], kind="stable")] if len(sp) else sp
        barred: dict[int, str] = {}
        while True:
            ok = elig[rot]
            if barred:
                ok &= ~np.isin(rot, np.fromiter(barred, dtype=np.int64))
            cand = rot[ok]
            cpos = _runs(par[cand])
            have = np.bincount(par[cand], minlength=n_par)
            short = np.flatnonzero(have < need)
            if len(short):
                r = short[0]
                raise RuleError(f"{name}: {need[r]} posts in {settings.parent_label} {parent_labels[r]} but only "
                                f"{have[r]} units left to take them")
            take = cpos < need[par[cand]]
            chosen, chosen_pos = cand[take], cpos[take]
            if settings.rotation_fallback == "error" and (tier[chosen] == 3).any():
                raise RuleError(f"{name}: tiers 1-2 cannot fill the posts without a unit reserved for "
                                f"{spec.group} at the last election (option rotation_fallback=error)")
            if (spec.saturation_population is None or settings.division_saturation != "on" or division is None
                    or len(chosen) == 0):
                break
            victims = _saturated(spec, settings, division, category, chosen, par, codes)
            if not victims:
                break
            satpop = np.asarray(spec.saturation_population, dtype=object)
            for v, div, size in victims:
                barred[v] = (f"all {size} districts of {div} division would be reserved for {spec.group}; the "
                             f"least populous ({int(satpop[v]):,}) is left unreserved for {spec.group}")
        # the women's posts (and any further codes) go by position among the chosen
        split_pos = chosen_pos
        if settings.category_women == "not_women_last" and len(slot_codes) > 1 and len(chosen):
            held = rotation.held_women_last(codes[chosen]).astype(np.int64)
            o3 = np.lexsort((chosen_pos, held, par[chosen]))
            split_pos = np.empty_like(chosen_pos)
            split_pos[o3] = _runs(par[chosen][o3])
        bounds = np.cumsum(mat, axis=1)
        slot_idx = np.zeros(len(chosen), dtype=np.int64)
        for j in range(len(slot_codes) - 1):
            slot_idx += split_pos >= bounds[par[chosen], j]
        code_idx = np.array([_CODE_INDEX[c] for c in slot_codes], dtype=np.int64)
        category[chosen] = code_idx[slot_idx] if len(slot_codes) else -1
        decided_by[chosen] = pi
        # the trace of this pass: left-out units first (in the order barred), then the ranked units in rotation
        # order, then the pool units of parents without posts in this pass
        left = np.fromiter(barred, dtype=np.int64) if barred else np.zeros(0, dtype=np.int64)
        rest = rot[~np.isin(rot, left)] if len(left) else rot
        idle = np.flatnonzero(pool & ~active)
        dec = np.full(n, -1, dtype=np.int8)
        dec[idle] = NO_POSTS
        dec[ia] = PASSED
        dec[ia[~elig[ia]]] = NOT_ELIGIBLE
        dec[chosen] = ALLOTTED
        dec[left] = LEFT_OUT
        records.append(_PassRecord(
            pi, spec, name, np.concatenate([left, rest, idle]), par, rank, tier, tied, lot, dec, active, pool_size,
            need, category, chosen, chosen_pos, mat[par[chosen], slot_idx] if len(chosen) else chosen, dict(barred)))
    rest = category < 0
    category[rest] = _UR
    decided_by[rest] = -2
    return EngineResult(units, rotation, settings, records, category, decided_by, pin_pos, extra_columns)


def _saturated(spec, settings, division, category, chosen, par, codes):
    """Divisions all of whose units would be reserved: [(least populous chosen unit, division, size)]."""
    group_set = {spec.group, f"{spec.group}_W"} if spec.group != "GEN" else {"W"}
    idx = [_CODE_INDEX[c] for c in group_set]
    if settings.saturation_scope == "per_category":
        held = np.isin(category, idx)
    else:
        held = (category >= 0) & (category != _UR)
    reserved = held.copy()
    reserved[chosen] = True
    satpop = np.asarray(spec.saturation_population, dtype=object)
    chosen_set = set(int(c) for c in chosen)
    victims = []
    members: dict[tuple, list[int]] = {}
    for i, d in enumerate(division):
        members.setdefault((int(par[i]), d), []).append(i)
    for (p, d), mem in sorted(members.items(), key=lambda kv: (kv[0][0], str(kv[0][1]))):
        if len(mem) < 2 or not reserved[mem].all():
            continue
        mine = [i for i in mem if i in chosen_set]
        if not mine:
            continue
        v = min(mine, key=lambda i: (Fraction(satpop[i]), int(codes[i])))
        victims.append((v, d, len(mem)))
    return victims
