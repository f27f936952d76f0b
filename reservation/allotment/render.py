"""Putting an engine result into words: the allotment table and the trace, in English or Hindi.

:class:`reservation.engine.passes.EngineResult` holds numbers and decision codes; this module renders

- ``table``: one row per unit (:data:`TABLE_COLUMNS`): its category, tier, rank, pool, key, the clause, the
  reason in words, the tie-break, the step (pass) and the decision code that decided it;
- ``trace``: one row per rule step that touched a unit, in the order the rules applied them
  (:data:`TRACE_COLUMNS`), with the decision as a code and in words.

Rendering happens only when a table is written or shown. The words come from :mod:`reservation.law.words`; the
clauses and key labels from the rulebook (:class:`PassText`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..law.categories import CODES, by_code
from ..law.decisions import Decision
from ..engine.passes import EngineResult, PassRecord
from ..engine.steps import TieRule, WomenRule
from ..law.ranking import Ratio
from ..law.words import ALLOTMENT_WORDS, DECISION_WORDS, TIER_WORDS, check_lang
from ..law.words_codes import category_words_hi
from .textarrays import _decimal, _join, _ordinals, _pick, _same, _text, vformat

__all__ = ["PassText", "TABLE_COLUMNS", "TRACE_COLUMNS", "render_table", "render_table_blocks", "render_trace", "key_texts"]

TABLE_COLUMNS = ["unit_code", "unit_name_en", "unit_name_hi", "district", "division", "category", "tier",
                 "rank", "pool", "key", "clause", "reason", "tie_break", "step", "decision"]
TRACE_COLUMNS = ["step", "unit_code", "unit_name_en", "pass", "rank", "pool", "key", "tier", "tier_reason",
                 "decision", "detail", "category", "clause", "tie_break"]
_CODES = np.asarray(CODES, dtype=object)
_WOMEN = {c for c in CODES if by_code(c).women}
_CODE_WORDS = pa.array(list(CODES), type=pa.string())                   # the words of the coded columns, made once
_DECISION_WORDS = pa.array([d.code for d in Decision], type=pa.string())
#: The pandas dtype of a pyarrow string array's ``to_pandas()`` (whatever pandas infers): a text column of the table
#: is made with it directly (``pd.array``: the same values and dtype, without a Series per column and block).
_STR = pa.array([], type=pa.string()).to_pandas().dtype


@dataclass
class PassText:
    """How a pass is put into words: what its key is, and the clauses it applies."""

    key_label: str
    clause: str
    clause_women: str
    clause_rotation: str
    clause_saturation: str = ""
    clause_eligible: str = ""
    eligible_reason: str = ""
    note: str = ""
    key_label_hi: str = ""
    freed_reason: str = ""          # a unit made unreserved by the division rule in an earlier pass
    clause_freed: str = ""
    note_hi: str = ""
    tie_rule: str = ""              # "code": this pass breaks ties by the code alone (tie_break=assumed_by_code)
    hi: dict = field(default_factory=dict)   # the Hindi of the clause fields above (clause, clause_women, ...)

    def note_in(self, lang: str) -> str:
        return self.note_hi if lang == "hi" and self.note_hi else self.note

    def in_lang(self, name: str, lang: str) -> str:
        """The clause field ``name`` (clause, clause_women, clause_rotation, clause_saturation, clause_eligible,
        eligible_reason, freed_reason, clause_freed) in ``lang``: Hindi where the rulebook gives it."""
        english = getattr(self, name)
        return self.hi.get(name) or english if lang == "hi" else english

    def label(self, lang: str) -> str:
        return self.key_label_hi if lang == "hi" and self.key_label_hi else self.key_label


def key_texts(key: Ratio, positions: np.ndarray, lang: str = "en"):
    """The key of each unit in words (a pyarrow string array): a percentage with 4 decimals (exact half-up), or a
    number of people ("about N people (OBC assumed)", rounded half-up to a whole person, when the OBC population
    is assumed: the ranking itself uses the exact fraction)."""
    w = ALLOTMENT_WORDS[lang]
    positions = np.asarray(positions, dtype=np.int64)
    num = np.asarray(key.num, dtype=np.int64)[positions]
    if key.den is None:
        if key.scale == 1:
            return vformat(w["people"], n=pa.array([f"{v:,}" for v in num.tolist()], type=pa.string()))
        s = key.scale           # an assumed OBC population: whole people, half-up (display only)
        whole = (np.abs(num) * 2 + s) // (2 * s) * np.where(num < 0, -1, 1)
        return vformat(w["people_assumed"], n=pa.array([f"{v:,}" for v in whole.tolist()], type=pa.string()))
    den = np.asarray(key.den, dtype=np.int64)[positions]
    zero = den == 0
    neg = (num < 0) ^ (den < 0)
    a, b = np.abs(num), np.where(zero, 1, np.abs(den))
    scaled = np.where(zero, 0, (a * 2_000_000 + b) // (2 * b))
    return _join(_decimal(scaled // 10_000, scaled % 10_000, 4, neg & ~zero), " %")


def _pct(num: int, den: int) -> str:
    """Exact half-up percentage with 4 decimals (display only)."""
    return key_texts(Ratio(np.array([num]), np.array([den])), np.array([0]))[0].as_py()


class _Column:
    """One text column of the table, assembled from pieces (positions, values) without a loop per unit."""

    def __init__(self, n: int, default: str = ""):
        self.n, self.default = n, default
        self.pos, self.vals = [], []

    def put(self, positions: np.ndarray, values) -> None:
        """``values``: one text for all, a :class:`_Choice` of a few texts, or one text per position."""
        positions = np.asarray(positions, dtype=np.int64)
        if not len(positions):
            return
        if isinstance(values, str):
            values = _Choice([values], np.zeros(len(positions), dtype=np.int64))
        self.pos.append(positions)
        self.vals.append(values if isinstance(values, _Choice) else _text(values))

    def array(self):
        """The column: each position takes the value put for it (the default where none was put); one take from
        the pieces, or from the few texts when every piece is a choice among a few (no sort, no Python string per
        unit)."""
        if all(isinstance(v, _Choice) for v in self.vals):
            words, where = [], np.full(self.n, -1, dtype=np.int64)
            for p, v in zip(self.pos, self.vals):
                where[p] = len(words) + v.index
                words += v.words
            where[where < 0] = len(words)
            return _texts(_pick(words + [self.default], where))
        vals = [_pick(v.words, v.index) if isinstance(v, _Choice) else v for v in self.vals]
        sizes = [len(p) for p in self.pos]
        where = np.full(self.n, sum(sizes), dtype=np.int64)      # the default: the last value of the pieces
        start = 0
        for p, size in zip(self.pos, sizes):
            where[p] = np.arange(start, start + size)
            start += size
        pieces = [pa.array(v) if isinstance(v, pa.ChunkedArray) else v for v in vals]
        self.pos, self.vals = [], []           # the pieces are freed once concatenated (memory: one copy less)
        del vals
        vals = pa.concat_arrays([v.cast(pa.string()) for v in pieces] + [pa.array([self.default], type=pa.string())])
        del pieces
        return _texts(pc.take(vals, pa.array(where)))


@dataclass
class _Choice:
    """A text per unit chosen among a few: ``words[index]``."""

    words: list
    index: np.ndarray


class _Words:
    """Word caches for one rendering."""

    def __init__(self, result: EngineResult, lang: str, once: "_Once | None" = None):
        self.r = result
        self.lang = lang
        self.w = ALLOTMENT_WORDS[lang]
        self.tw = TIER_WORDS[lang]
        self.divisions: dict = {}       # a division's name in a Hindi sentence (render_trace fills it)
        self.once = once                # a table's shared parts (the history found by unit code), or None

    def history(self, unit_codes: np.ndarray, history_codes: frozenset) -> pd.DataFrame:
        """The previous-election records of some units in the pass's categories (``history_codes``), in the
        history's order."""
        if self.once is not None:
            return self.once.history(self.r.rotation, history_codes).records(unit_codes)
        h = self.r.rotation.records(unit_codes)
        return h[h["category"].isin(history_codes)]

    def code(self, code: str) -> str:
        """A category code (or a pass's codes, "SC_W+SC") as a sentence in ``lang`` says it: English sentences
        keep the code, Hindi ones say the category (अनुसूचित जाति महिला, not SC_W)."""
        return category_words_hi(code) if self.lang == "hi" else code

    def tier_words(self, positions: np.ndarray, tiers: np.ndarray, history_codes: frozenset):
        """The words of each unit's tier, with the history behind it (a pyarrow string array)."""
        rot = self.r.rotation
        n = len(positions)
        if rot.last_year is None:
            return _same(self.tw["none"], n)
        years = rot.years
        span = f"{years[0]}-{years[-1]}" if len(years) > 1 else str(years[0])
        one = f"{self.tw[1]} ({span})"
        one_missing = f"{one}; " + self.tw["no_record"].format(year=rot.last_year)
        out = pc.if_else(pa.array(rot.has_last[positions]), one, one_missing)
        codes = self.r.codes[positions]
        t3 = np.flatnonzero(tiers == 3)
        t2 = np.flatnonzero(tiers == 2)
        if len(t3) or len(t2):
            h = self.history(codes[np.r_[t3, t2]], history_codes)
            special = np.full(n, None, dtype=object)
            if len(t3):
                last = h[h["year"] == rot.last_year].drop_duplicates("unit_code").set_index("unit_code")["category"]
                held = last.reindex(codes[t3]).astype(str).tolist()
                said = {c: f"{self.tw[3]} ({rot.last_year}: {self.code(c)})" for c in set(held)}
                special[t3] = [said[c] for c in held]
            if len(t2):
                earlier = h.sort_values(["unit_code", "year"], kind="stable")
                text = {}
                for u, y, c in zip(earlier["unit_code"].tolist(), earlier["year"].tolist(),
                                   earlier["category"].tolist()):
                    c = self.code(c)
                    text[u] = f"{text[u]}, {y}: {c}" if u in text else f"{y}: {c}"
                special[t2] = [f"{self.tw[2]} ({rot.last_year}), {self.tw['earlier']} ({text[int(u)]})"
                               for u in codes[t2]]
            mask = np.zeros(n, dtype=bool)
            mask[np.r_[t3, t2]] = True
            out = pc.if_else(pa.array(mask), pa.array(special, type=pa.string()), out)
        return out

    def ties(self, rec: PassRecord, positions: np.ndarray, tied: np.ndarray):
        """The tie-break words of each unit ("" where its key is not tied)."""
        t = tied[positions]
        at = t > 0
        if not at.any():
            return _same("", len(positions))
        spec, w = rec.spec, self.w
        head = pc.if_else(pa.array(t == 1), w["tied_one"].format(key_label=spec.text.label(self.lang)),
                          vformat(w["tied"], key_label=spec.text.label(self.lang), n=t))
        lot = rec.lot[positions] if rec.lot is not None else np.full(len(positions), -1)
        if self.r.settings.tie_break is TieRule.POPULATION and spec.text.tie_rule != "code":
            rule = vformat(w["by_population"], population=np.asarray(spec.population, dtype=np.int64)[positions])
        else:
            rule = w["by_code"]
        how = pc.if_else(pa.array(lot >= 0), vformat(w["by_lot"], lot=lot), rule)
        return pc.if_else(pa.array(at), _join(head, how), "")


def _texts(a: pa.Array):
    """A pyarrow string array as a text column of the table (dtype :data:`_STR`, as its ``to_pandas()``)."""
    return pd.array(a, dtype=_STR)


def _objects(a) -> np.ndarray:
    return a.to_numpy(zero_copy_only=False).astype(object) if not isinstance(a, str) else a


def _int_or_none(a: np.ndarray) -> pd.arrays.IntegerArray:
    """Nullable integers: negative values (not ranked, no tier) become missing."""
    a = np.asarray(a, dtype=np.int64)
    return pd.arrays.IntegerArray(np.where(a < 0, 0, a), a < 0)


def _clause_in(ur_clause, lang: str) -> str:
    """The unreserved clause in ``lang``: a text, or a text per language (``{"en": ..., "hi": ...}``)."""
    if isinstance(ur_clause, str):
        return ur_clause
    return ur_clause.get(lang) or ur_clause["en"]


def render_table(result: EngineResult, units: pd.DataFrame, ur_clause, extra_columns=(),
                 lang: str = "en") -> pd.DataFrame:
    """One row per unit (:data:`TABLE_COLUMNS`, the extra columns before ``category``). ``ur_clause``: the
    unreserved clause, a text or a text per language."""
    check_lang(lang)
    return _render_rows(result, _Once(result, units, extra_columns), ur_clause, lang, 0, len(result.codes))


def render_table_blocks(result: EngineResult, units: pd.DataFrame, ur_clause, extra_columns=(),
                        lang: str = "en", rows: int = 65_536):
    """The rows of :func:`render_table` as DataFrames of ``rows`` rows, one after the other: the same values
    (their concatenation is the table), without ever holding the words of every unit (a writer renders and
    writes a block at a time). The ranks of each pass and the decisions are computed once for all blocks."""
    check_lang(lang)
    n = len(result.codes)
    once = _Once(result, units, extra_columns, blocks=True)
    for lo in range(0, max(n, 1), rows):
        yield _render_rows(result, once, ur_clause, lang, lo, min(n, lo + rows))


class _Once:
    """What every block of a table shares, computed once per table: the ranks of each pass, the decisions, the
    units' columns and (``blocks``) each pass's chosen units in position order (a block finds its own by bisection
    instead of a scan of every chosen unit)."""

    def __init__(self, result: EngineResult, units: pd.DataFrame, extra_columns, blocks: bool = False):
        self.ranks = [result.ranks(rec) for rec in result.records]
        self.decision = result.decision()
        self.extra_columns = tuple(extra_columns)
        self.columns = {c: _values(units[c]) for c in ("unit_name_en", "unit_name_hi", "district", "division",
                                                        *self.extra_columns)}
        self.order = [np.argsort(rec.chosen, kind="stable") for rec in result.records] if blocks else None
        self.sorted = [rec.chosen[o] for rec, o in zip(result.records, self.order)] if blocks else None
        self._history: dict = {}

    def history(self, rotation, history_codes: frozenset) -> "_History":
        """The previous-election records in ``history_codes``, indexed by unit code once per table."""
        if history_codes not in self._history:
            self._history[history_codes] = _History(rotation.previous, history_codes)
        return self._history[history_codes]

    def chosen_in(self, i: int, lo: int, hi: int) -> np.ndarray:
        """The indices (into the pass's ``chosen``, ascending) of the units of pass ``i`` at positions lo:hi."""
        a, b = np.searchsorted(self.sorted[i], [lo, hi])
        return np.sort(self.order[i][a:b])


class _History:
    """The previous-election records in some categories, found by unit code by bisection: the rows, in the
    history's order, that ``rotation.records(codes)`` filtered to those categories gives, without a scan of the
    whole history for every block and pass (732,000 wards: 47 blocks x passes)."""

    def __init__(self, previous: pd.DataFrame, history_codes: frozenset):
        self.h = previous[previous["category"].isin(history_codes)]
        codes = self.h["unit_code"].to_numpy(dtype=np.int64)
        self.order = np.argsort(codes, kind="stable")
        self.sorted = codes[self.order]

    def records(self, unit_codes: np.ndarray) -> pd.DataFrame:
        want = np.unique(np.asarray(unit_codes, dtype=np.int64))
        a = np.searchsorted(self.sorted, want, "left")
        lens = np.searchsorted(self.sorted, want, "right") - a
        at = np.repeat(a - np.cumsum(lens) + lens, lens) + np.arange(lens.sum())
        return self.h.iloc[np.sort(self.order[at])]


class _Rows:
    """The table's columns for the rows ``lo:hi``, filled pass by pass."""

    def __init__(self, n: int):
        self.tier = np.full(n, -1, dtype=np.int64)
        self.rank = np.full(n, -1, dtype=np.int64)
        self.pool = np.full(n, -1, dtype=np.int64)
        self.key, self.clause, self.reason, self.tie = _Column(n), _Column(n), _Column(n), _Column(n)
        self.step = _Column(n, "UR")


def _render_rows(result: EngineResult, once: _Once, ur_clause, lang: str, lo: int, hi: int) -> pd.DataFrame:
    """The table's rows ``lo:hi`` (unit positions; the rows are numbered from 0 in the DataFrame)."""
    r = result
    ur_clause = _clause_in(ur_clause, lang)
    whole = lo == 0 and hi == len(r.codes)
    W = _Words(r, lang, once)
    rows = _Rows(hi - lo)
    ur = np.flatnonzero(r.decided_by[lo:hi] == -2) + lo
    ur_parts = None
    for i, rec in enumerate(r.records):
        u, slot_index, chosen_pos = rec.chosen, rec.slot_index, rec.chosen_pos
        if not whole:
            sel = once.chosen_in(i, lo, hi)
            u, slot_index, chosen_pos = u[sel], slot_index[sel], chosen_pos[sel]
        rk, pl, tied = once.ranks[i]
        if len(u):
            _put_chosen(rows, W, rec, u, slot_index, chosen_pos, rk, pl, tied, lo)
        ur_parts = _unreserved_parts(ur_parts, W, rec, ur, rk, pl)
    for pos, (code, source) in r.pins.items():
        if lo <= pos < hi:
            rows.clause.put([pos - lo], W.w["pinned_clause"].format(source=source))
            rows.reason.put([pos - lo], W.w["pinned_reason"].format(code=W.code(code), source=source))
            rows.step.put([pos - lo], "pin")
    if len(ur):
        parts = ur_parts if ur_parts is not None else _same("", len(ur))
        rows.reason.put(ur - lo, vformat(W.w["unreserved"], parts=parts))
        rows.clause.put(ur - lo, ur_clause)
    return _frame(r, once, rows, lo, hi, whole)


def _put_chosen(rows: _Rows, W: _Words, rec: PassRecord, u, slot_index, chosen_pos, rk, pl, tied, lo: int) -> None:
    """The rows of the units a pass chose (``u``, with the slot and place each took): tier, rank, pool, key,
    clause, the reason in words, the tie-break and the step."""
    r, w, lang = W.r, W.w, W.lang
    spec, text = rec.spec, rec.spec.text
    codes = _pick([W.code(c) for c in spec.codes], slot_index)
    multi = len(spec.codes) > 1
    women = np.array([multi and c in _WOMEN for c in spec.codes])[slot_index]
    t = rec.tier[u].astype(np.int64)
    ktext = key_texts(spec.key, u, lang)
    par = r.par[u]
    add = ""                    # the women's words and the note joined in the same pass over the units
    if women.any():
        if r.settings.category_women is WomenRule.TOP:
            add = vformat(w["women_top"], n=rec.slots[par, slot_index])
        else:
            add = w["women_not_last"]
        add = pc.if_else(pa.array(women), add, "")
    note = f"; {text.note_in(lang)}" if text.note_in(lang) else ""
    text_ = vformat(w["allotted"] + "{_women}{_note}", code=codes, rank=_ordinals(rk[u], lang), pool=pl[u],
                    key_label=text.label(lang), key=ktext, tier=t,
                    tier_words=W.tier_words(u, t, spec.history_codes),
                    chosen=_ordinals(chosen_pos + 1, lang), need=rec.need[par], name=W.code(spec.name),
                    _women=add, _note=note)
    rot = f"; {text.in_lang('clause_rotation', lang)}"
    clause, clause_women = text.in_lang("clause", lang), text.in_lang("clause_women", lang)
    cl = _Choice([clause, clause_women, clause + rot, clause_women + rot],
                 women.astype(np.int64) + 2 * (t > 1))
    at = u - lo
    rows.tier[at], rows.rank[at], rows.pool[at] = t, rk[u], pl[u]
    rows.key.put(at, ktext)
    rows.clause.put(at, cl)
    rows.reason.put(at, text_)
    rows.tie.put(at, W.ties(rec, u, tied))
    rows.step.put(at, spec.name)


def _unreserved_parts(ur_parts, W: _Words, rec: PassRecord, ur: np.ndarray, rk, pl):
    """The words of the unreserved units (``ur``) so far, with where this pass ranked those it ranked."""
    m = rk[ur] > 0
    if not m.any():
        return ur_parts
    x = ur[m]
    piece = vformat(W.w["unreserved_part"], name=W.code(rec.spec.name), rank=rk[x], pool=pl[x], tier=rec.tier[x])
    if ur_parts is None:
        ur_parts = _same("", len(ur))
    old = pc.array_filter(ur_parts, pa.array(m))
    new = pc.if_else(pc.equal(old, ""), piece, _join(old, "; ", piece))
    return pc.replace_with_mask(ur_parts, pa.array(m), new)


def _frame(r: EngineResult, once: _Once, rows: _Rows, lo: int, hi: int, whole: bool) -> pd.DataFrame:
    """The table's rows ``lo:hi`` as a DataFrame (:data:`TABLE_COLUMNS`, the extra columns before ``category``),
    made of arrays (no Series to align)."""
    col = once.columns if whole else {c: v[lo:hi] for c, v in once.columns.items()}
    data = {"unit_code": r.codes[lo:hi]}
    data.update({c: col[c] for c in ("unit_name_en", "unit_name_hi", "district", "division", *once.extra_columns)})
    data.update({
        "category": _coded(_CODE_WORDS, r.category[lo:hi]),
        "tier": _int_or_none(rows.tier), "rank": _int_or_none(rows.rank), "pool": _int_or_none(rows.pool),
        "key": rows.key.array(), "clause": rows.clause.array(), "reason": rows.reason.array(),
        "tie_break": rows.tie.array(), "step": rows.step.array(),
        "decision": _coded(_DECISION_WORDS, once.decision[lo:hi]),
    })
    return pd.DataFrame(data)


def _values(column: pd.Series, rows: slice | None = None):
    """A column of the units (its rows ``rows``, default all) as the table takes it: text columns as they are (no
    Python string per unit)."""
    a = column.array if isinstance(column.dtype, pd.StringDtype) else column.to_numpy()
    return a if rows is None else a[rows]


def _coded(words: pa.Array, codes: np.ndarray):
    """The word of each code, as a text column: one take from the few words."""
    return _texts(pc.take(words, pa.array(np.asarray(codes, dtype=np.int64))))


def render_trace(result: EngineResult, units: pd.DataFrame, ur_clause, only: np.ndarray | None = None,
                 lang: str = "en") -> pd.DataFrame:
    """Every rule step that touched a unit, in order (:data:`TRACE_COLUMNS`); ``only``: some unit positions."""
    check_lang(lang)
    ur_clause = _clause_in(ur_clause, lang)
    r = result
    W = _Words(r, lang)
    if lang == "hi" and "division_hi" in units.columns:      # the division rule names a division in Hindi
        W.divisions = {str(a): str(b) for a, b in zip(units["division"], units["division_hi"]) if str(b).strip()}
    w, dw = W.w, DECISION_WORDS[lang]
    names = units["unit_name_en"].to_numpy()
    frames = []
    for pos, (code, source) in sorted(r.pins.items()):
        if only is not None and pos not in only:
            continue
        frames.append(pd.DataFrame({"o1": [-1], "o2": [0], "unit": [pos], "pass": ["pin"], "rank": [-1],
                                    "pool": [-1], "key": [""], "tier": [-1], "tier_reason": [""],
                                    "decision": [Decision.PINNED.code],
                                    "detail": [dw[Decision.PINNED].format(code=W.code(code))], "category": [code],
                                    "clause": [w["pinned_clause"].format(source=source)], "tie_break": [""]}))
    for rec in r.records:
        frame = _pass_trace(W, rec, only)
        if frame is not None:
            frames.append(frame)
    ur = np.flatnonzero(r.decided_by == -2)
    if only is not None:
        ur = ur[np.isin(ur, only)]
    if len(ur):
        frames.append(pd.DataFrame({"o1": len(r.records), "o2": ur, "unit": ur, "pass": "UR", "rank": -1,
                                    "pool": -1, "key": "", "tier": -1, "tier_reason": "",
                                    "decision": Decision.UNRESERVED.code, "detail": dw[Decision.UNRESERVED],
                                    "category": "UR", "clause": ur_clause, "tie_break": ""}))
    if not frames:
        return pd.DataFrame(columns=TRACE_COLUMNS)
    tr = pd.concat(frames, ignore_index=True)
    tr = tr.sort_values(["o1", "o2"], kind="stable").reset_index(drop=True)
    tr.insert(0, "step", np.arange(1, len(tr) + 1))
    at = tr["unit"].to_numpy(dtype=np.int64)
    tr.insert(1, "unit_code", r.codes[at])
    tr.insert(2, "unit_name_en", names[at])
    for c in ("rank", "pool", "tier"):
        tr[c] = _int_or_none(tr[c].to_numpy(dtype=np.int64))
    return tr[TRACE_COLUMNS]


def _pass_trace(W: _Words, rec: PassRecord, only: np.ndarray | None) -> pd.DataFrame | None:
    """The trace rows of one pass: the units the division rule left out, then the pass's rotation order, then
    the units of counting units without posts (``only``: some unit positions; None when it touched none)."""
    r, lang = W.r, W.lang
    spec, text = rec.spec, rec.spec.text
    left = np.fromiter(rec.barred, dtype=np.int64, count=len(rec.barred))
    rest = rec.rotation_order[~np.isin(rec.rotation_order, left)] if len(left) else rec.rotation_order
    unit = np.concatenate([left, rest, rec.idle]).astype(np.int64)
    sel = np.arange(len(unit)) if only is None else np.flatnonzero(np.isin(unit, only))
    if not len(sel):
        return None
    u = unit[sel]
    dec, codes = _trace_decisions(r, rec, u, left)
    multi = len(spec.codes) > 1
    women = np.array([multi and c in _WOMEN for c in codes], dtype=bool)
    rk, pl, tied = r.ranks(rec)
    t = rec.tier[u].astype(np.int64)
    label = text.label(lang)
    return pd.DataFrame({
        "o1": rec.index, "o2": sel, "unit": u, "pass": spec.name,
        "rank": np.where(rk[u] > 0, rk[u], -1), "pool": np.where(rk[u] > 0, pl[u], -1),
        "key": _objects(_join(f"{label} ", key_texts(spec.key, u, lang))),
        "tier": t, "tier_reason": _objects(W.tier_words(u, t, spec.history_codes)),
        "decision": np.asarray([d.code for d in Decision], dtype=object)[dec],
        "detail": _trace_details(W, rec, dec, codes, u),
        "category": codes, "clause": _trace_clauses(text, rec, dec, women, t, u, lang),
        "tie_break": _objects(W.ties(rec, u, tied))})


def _trace_decisions(r: EngineResult, rec: PassRecord, u: np.ndarray, left: np.ndarray):
    """The decision of the pass at each unit ``u`` (:class:`~reservation.law.decisions.Decision` values) and the
    code it was allotted ("" where none)."""
    dec = np.full(len(u), int(Decision.PASSED_OVER), dtype=np.int64)
    idle = np.zeros(r.codes.shape[0], dtype=bool)
    idle[rec.idle] = True
    dec[idle[u]] = int(Decision.NO_POSTS)
    dec[~rec.eligible[u] & ~idle[u]] = int(Decision.NOT_ELIGIBLE)
    chosen_at = np.full(r.codes.shape[0], -1, dtype=np.int64)
    chosen_at[rec.chosen] = rec.slot_index
    dec[chosen_at[u] >= 0] = int(Decision.ALLOTTED)
    dec[np.isin(u, left)] = int(Decision.LEFT_OUT_DIVISION)
    codes = np.where(dec == int(Decision.ALLOTTED),
                     np.asarray(rec.spec.codes + ("",), dtype=object)[np.where(chosen_at[u] >= 0, chosen_at[u], -1)],
                     "")
    return dec, codes


def _trace_details(W: _Words, rec: PassRecord, dec: np.ndarray, codes: np.ndarray, u: np.ndarray) -> list[str]:
    """The decision of the pass at each unit in words."""
    spec, text, lang = rec.spec, rec.spec.text, W.lang
    dw = DECISION_WORDS[lang]
    details = []
    for d, c, x in zip(dec.tolist(), codes.tolist(), u.tolist()):
        if d == Decision.ALLOTTED:
            details.append(dw[Decision.ALLOTTED].format(code=W.code(c)))
        elif d == Decision.LEFT_OUT_DIVISION:
            div, size, population = rec.barred[x]
            details.append(dw[Decision.LEFT_OUT_DIVISION].format(
                size=size, division=W.divisions.get(div, div), group=W.code(spec.group),
                population=f"{int(population):,}"))
        elif d == Decision.NOT_ELIGIBLE:
            why = text.in_lang("freed_reason" if rec.freed[x] else "eligible_reason", lang)
            details.append(dw[Decision.NOT_ELIGIBLE].format(why=why))
        else:
            details.append(dw[Decision(d)])
    return details


def _trace_clauses(text: PassText, rec: PassRecord, dec: np.ndarray, women: np.ndarray, t: np.ndarray,
                   u: np.ndarray, lang: str = "en") -> np.ndarray:
    """The clause behind the pass's decision at each unit."""
    def c(name):
        return text.in_lang(name, lang)
    clause = np.where(women, c("clause_women"), c("clause")).astype(object)
    clause = np.where(dec == int(Decision.ALLOTTED), clause, c("clause"))
    clause = np.where((dec == int(Decision.ALLOTTED)) & (t > 1), clause + f"; {c('clause_rotation')}", clause)
    clause = np.where(dec == int(Decision.LEFT_OUT_DIVISION), c("clause_saturation"), clause)
    return np.where(dec == int(Decision.NOT_ELIGIBLE),
                    np.where(rec.freed[u], c("clause_freed"), c("clause_eligible")), clause)
