"""Putting an engine result into words: the allotment table and the trace, in English or Hindi.

:class:`reservation.engine.EngineResult` holds numbers and decision codes; this module renders

- ``table``: one row per unit (:data:`TABLE_COLUMNS`): its category, tier, rank, pool, key, the clause, the
  reason in words, the tie-break, the step (pass) and the decision code that decided it;
- ``trace``: one row per rule step that touched a unit, in the order the rules applied them
  (:data:`TRACE_COLUMNS`), with the decision as a code and in words.

Rendering happens only when a table is written or shown. The words come from :mod:`reservation.words`; the
clauses and key labels from the rulebook (:class:`PassText`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .categories import CODES, by_code
from .decisions import Decision
from .engine import EngineResult, PassRecord
from .ranking import Ratio
from .words import ALLOTMENT_WORDS, DECISION_WORDS, TIER_WORDS, check_lang, ordinal

__all__ = ["PassText", "TABLE_COLUMNS", "TRACE_COLUMNS", "render_table", "render_trace", "key_texts"]

TABLE_COLUMNS = ["unit_code", "unit_name_en", "unit_name_hi", "district", "division", "category", "tier",
                 "rank", "pool", "key", "clause", "reason", "tie_break", "step", "decision"]
TRACE_COLUMNS = ["step", "unit_code", "unit_name_en", "pass", "rank", "pool", "key", "tier", "tier_reason",
                 "decision", "detail", "category", "clause", "tie_break"]
_CODES = np.asarray(CODES, dtype=object)
_WOMEN = {c for c in CODES if by_code(c).women}


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

    def label(self, lang: str) -> str:
        return self.key_label_hi if lang == "hi" and self.key_label_hi else self.key_label


# -- numbers in words ----------------------------------------------------------------------------------------

def _pct(num: int, den: int) -> str:
    """Exact half-up percentage with 4 decimals (display only)."""
    if den == 0:
        return "0.0000 %"
    sign = "-" if num * den < 0 else ""
    num, den = abs(num), abs(den)
    scaled = (num * 2_000_000 + den) // (2 * den)
    return f"{sign}{scaled // 10_000}.{scaled % 10_000:04d} %"


def key_texts(key: Ratio, positions: np.ndarray, lang: str = "en") -> list[str]:
    """The key of each unit in words: a percentage, or a number of people (exact half-up to 2 decimals when the
    OBC population is assumed)."""
    w = ALLOTMENT_WORDS[lang]
    positions = np.asarray(positions, dtype=np.int64)
    num = np.asarray(key.num, dtype=np.int64)[positions].tolist()
    if key.den is None:
        if key.scale == 1:
            return [w["people"].format(n=f"{v:,}") for v in num]
        s = key.scale
        out = []
        for v in num:
            cents = (abs(v) * 200 + s) // (2 * s)
            out.append(w["people_assumed"].format(n=f"{'-' if v < 0 else ''}{cents // 100}.{cents % 100:02d}"))
        return out
    den = np.asarray(key.den, dtype=np.int64)[positions].tolist()
    return [_pct(a, b) for a, b in zip(num, den)]


class _Words:
    """Word caches for one rendering."""

    def __init__(self, result: EngineResult, lang: str):
        self.r = result
        self.lang = lang
        self.w = ALLOTMENT_WORDS[lang]
        self.tw = TIER_WORDS[lang]

    def tier_words(self, positions: np.ndarray, tiers: np.ndarray, history_codes: frozenset) -> np.ndarray:
        """The words of each unit's tier, with the history behind it."""
        rot = self.r.rotation
        n = len(positions)
        if rot.last_year is None:
            return np.full(n, self.tw["none"], dtype=object)
        years = rot.years
        span = f"{years[0]}-{years[-1]}" if len(years) > 1 else str(years[0])
        one = f"{self.tw[1]} ({span})"
        one_missing = f"{one}; " + self.tw["no_record"].format(year=rot.last_year)
        out = np.where(rot.has_last[positions], one, one_missing).astype(object)
        codes = self.r.codes[positions]
        t3 = np.flatnonzero(tiers == 3)
        t2 = np.flatnonzero(tiers == 2)
        if len(t3) or len(t2):
            h = rot.records(codes[np.r_[t3, t2]])
            h = h[h["category"].isin(history_codes)]
            if len(t3):
                last = h[h["year"] == rot.last_year].drop_duplicates("unit_code").set_index("unit_code")["category"]
                held = last.reindex(codes[t3]).astype(str).tolist()
                out[t3] = [f"{self.tw[3]} ({rot.last_year}: {c})" for c in held]
            if len(t2):
                earlier = h.sort_values(["unit_code", "year"], kind="stable")
                text = {}
                for u, y, c in zip(earlier["unit_code"].tolist(), earlier["year"].tolist(),
                                   earlier["category"].tolist()):
                    text[u] = f"{text[u]}, {y}: {c}" if u in text else f"{y}: {c}"
                out[t2] = [f"{self.tw[2]} ({rot.last_year}), {self.tw['earlier']} ({text[int(u)]})"
                           for u in codes[t2]]
        return out

    def ties(self, rec: PassRecord, positions: np.ndarray, tied: np.ndarray) -> np.ndarray:
        out = np.full(len(positions), "", dtype=object)
        at = np.flatnonzero(tied[positions] > 0)
        if not len(at):
            return out
        spec, w = rec.spec, self.w
        u = positions[at]
        lot = rec.lot[u] if rec.lot is not None else np.full(len(u), -1)
        pop = np.asarray(spec.population, dtype=np.int64)[u]
        label = spec.text.label(self.lang)
        rule_by = self.r.settings.tie_break
        words = []
        for n, lt, p in zip(tied[u].tolist(), lot.tolist(), pop.tolist()):
            head = w["tied"].format(key_label=label, n=n)
            if lt >= 0:
                words.append(head + w["by_lot"].format(lot=lt))
            elif rule_by == "population":
                words.append(head + w["by_population"].format(population=p))
            else:
                words.append(head + w["by_code"])
        out[at] = words
        return out


def _int_or_none(a: np.ndarray) -> pd.arrays.IntegerArray:
    a = np.asarray(a, dtype=np.int64)
    return pd.array(np.where(a < 0, None, a), dtype="Int64")


def render_table(result: EngineResult, units: pd.DataFrame, ur_clause: str, extra_columns=(),
                 lang: str = "en") -> pd.DataFrame:
    """One row per unit (:data:`TABLE_COLUMNS`, the extra columns before ``category``)."""
    check_lang(lang)
    r = result
    n = len(r.codes)
    W = _Words(r, lang)
    w = W.w
    tier = np.full(n, -1, dtype=np.int64)
    rank = np.full(n, -1, dtype=np.int64)
    pool = np.full(n, -1, dtype=np.int64)
    key = np.full(n, "", dtype=object)
    clause = np.full(n, "", dtype=object)
    reason = np.full(n, "", dtype=object)
    tie = np.full(n, "", dtype=object)
    step = np.full(n, "UR", dtype=object)
    ranks = {}
    for rec in r.records:
        u = rec.chosen
        if not len(u) and not (r.decided_by == -2).any():
            continue
        rk, pl, tied = ranks[rec.index] = r.ranks(rec)
        if not len(u):
            continue
        spec, text = rec.spec, rec.spec.text
        codes = [spec.codes[i] for i in rec.slot_index.tolist()]
        multi = len(spec.codes) > 1
        women = np.array([multi and c in _WOMEN for c in codes], dtype=bool)
        t = rec.tier[u].astype(np.int64)
        ktext = key_texts(spec.key, u, lang)
        twords = W.tier_words(u, t, spec.history_codes)
        par = r.par[u]
        need = rec.need[par].tolist()
        slot_n = rec.slots[par, rec.slot_index].tolist()
        label = text.label(lang)
        reasons = [w["allotted"].format(code=c, rank=ordinal(a, lang), pool=b, key_label=label, key=k, tier=ti,
                                        tier_words=tw, chosen=ordinal(cp + 1, lang), need=nd, name=spec.name)
                   for c, a, b, k, ti, tw, cp, nd in zip(codes, rk[u].tolist(), pl[u].tolist(), ktext, t.tolist(),
                                                         twords, rec.chosen_pos.tolist(), need)]
        if women.any():
            if r.settings.category_women == "top":
                reasons = [x + w["women_top"].format(n=sn) if wm else x for x, wm, sn in zip(reasons, women, slot_n)]
            else:
                reasons = [x + w["women_not_last"] if wm else x for x, wm in zip(reasons, women)]
        if text.note:
            reasons = [f"{x}; {text.note}" for x in reasons]
        rot_suffix = f"; {text.clause_rotation}"
        cl = [(text.clause_women if wm else text.clause) + (rot_suffix if ti > 1 else "")
              for wm, ti in zip(women, t.tolist())]
        tier[u], rank[u], pool[u] = t, rk[u], pl[u]
        key[u] = ktext
        clause[u] = cl
        reason[u] = reasons
        tie[u] = W.ties(rec, u, tied)
        step[u] = spec.name
    for pos, (code, source) in r.pins.items():
        clause[pos] = w["pinned_clause"].format(source=source)
        reason[pos] = w["pinned_reason"].format(code=code, source=source)
        step[pos] = "pin"
    ur = np.flatnonzero(r.decided_by == -2)
    if len(ur):
        parts = np.full(n, "", dtype=object)
        for rec in r.records:
            rk, pl, _ = ranks.get(rec.index) or r.ranks(rec)
            m = ur[rk[ur] > 0]
            if not len(m):
                continue
            piece = [w["unreserved_part"].format(name=rec.spec.name, rank=a, pool=b, tier=c)
                     for a, b, c in zip(rk[m].tolist(), pl[m].tolist(), rec.tier[m].tolist())]
            parts[m] = [p if not q else f"{q}; {p}" for p, q in zip(piece, parts[m])]
        reason[ur] = [w["unreserved"].format(parts=p) for p in parts[ur]]
        clause[ur] = ur_clause
    df = pd.DataFrame({
        "unit_code": r.codes,
        "unit_name_en": units["unit_name_en"].to_numpy(),
        "unit_name_hi": units["unit_name_hi"].to_numpy(),
        "district": units["district"].to_numpy(),
        "division": units["division"].to_numpy(),
        "category": _CODES[r.category],
        "tier": _int_or_none(tier), "rank": _int_or_none(rank), "pool": _int_or_none(pool),
        "key": key, "clause": clause, "reason": reason, "tie_break": tie, "step": step,
        "decision": np.asarray([d.code for d in Decision], dtype=object)[r.decision()],
    })
    for c in extra_columns:
        df.insert(df.columns.get_loc("category"), c, units[c].to_numpy())
    return df


def render_trace(result: EngineResult, units: pd.DataFrame, ur_clause: str, only: np.ndarray | None = None,
                 lang: str = "en") -> pd.DataFrame:
    """Every rule step that touched a unit, in order (:data:`TRACE_COLUMNS`); ``only``: some unit positions."""
    check_lang(lang)
    r = result
    W = _Words(r, lang)
    w, dw = W.w, DECISION_WORDS[lang]
    names = units["unit_name_en"].to_numpy()
    frames = []
    for pos, (code, source) in sorted(r.pins.items()):
        if only is not None and pos not in only:
            continue
        frames.append(pd.DataFrame({"o1": [-1], "o2": [0], "unit": [pos], "pass": ["pin"], "rank": [-1],
                                    "pool": [-1], "key": [""], "tier": [-1], "tier_reason": [""],
                                    "decision": [Decision.PINNED.code],
                                    "detail": [dw[Decision.PINNED].format(code=code)], "category": [code],
                                    "clause": [w["pinned_clause"].format(source=source)], "tie_break": [""]}))
    for rec in r.records:
        spec, text = rec.spec, rec.spec.text
        left = np.fromiter(rec.barred, dtype=np.int64, count=len(rec.barred))
        rest = rec.rotation_order[~np.isin(rec.rotation_order, left)] if len(left) else rec.rotation_order
        unit = np.concatenate([left, rest, rec.idle]).astype(np.int64)
        sel = np.arange(len(unit)) if only is None else np.flatnonzero(np.isin(unit, only))
        if not len(sel):
            continue
        u = unit[sel]
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
                         np.asarray(spec.codes + ("",), dtype=object)[np.where(chosen_at[u] >= 0, chosen_at[u], -1)],
                         "")
        multi = len(spec.codes) > 1
        women = np.array([multi and c in _WOMEN for c in codes], dtype=bool)
        rk, pl, tied = r.ranks(rec)
        details = []
        for d, c, x in zip(dec.tolist(), codes.tolist(), u.tolist()):
            if d == Decision.ALLOTTED:
                details.append(dw[Decision.ALLOTTED].format(code=c))
            elif d == Decision.LEFT_OUT_DIVISION:
                div, size, population = rec.barred[x]
                details.append(dw[Decision.LEFT_OUT_DIVISION].format(
                    size=size, division=div, group=spec.group, population=f"{int(population):,}"))
            elif d == Decision.NOT_ELIGIBLE:
                details.append(dw[Decision.NOT_ELIGIBLE].format(why=text.eligible_reason))
            else:
                details.append(dw[Decision(d)])
        t = rec.tier[u].astype(np.int64)
        clause = np.where(women, text.clause_women, text.clause).astype(object)
        clause = np.where(dec == int(Decision.ALLOTTED), clause, text.clause)
        clause = np.where((dec == int(Decision.ALLOTTED)) & (t > 1), clause + f"; {text.clause_rotation}", clause)
        clause = np.where(dec == int(Decision.LEFT_OUT_DIVISION), text.clause_saturation, clause)
        clause = np.where(dec == int(Decision.NOT_ELIGIBLE), text.clause_eligible, clause)
        label = text.label(lang)
        frames.append(pd.DataFrame({
            "o1": rec.index, "o2": sel, "unit": u, "pass": spec.name,
            "rank": np.where(rk[u] > 0, rk[u], -1), "pool": np.where(rk[u] > 0, pl[u], -1),
            "key": [f"{label} {k}" for k in key_texts(spec.key, u, lang)],
            "tier": t, "tier_reason": W.tier_words(u, t, spec.history_codes),
            "decision": np.asarray([d.code for d in Decision], dtype=object)[dec], "detail": details,
            "category": codes, "clause": clause, "tie_break": W.ties(rec, u, tied)}))
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
