"""Spreading a total over groups (districts of the State, divisions of the State), exactly.

Two methods the law uses:

- :func:`capped_shortfall` — GO 2021 KP pramukh section and s.9-A(5)(c) as substituted in 2023 (s.9-A(5) (2023)):
  each group first gets ``posts x share`` (rounded), **capped** at ``posts x cap %``; what the State total still
  lacks is handed out **one post at a time** to the groups whose share is **above** the State share, in
  descending order of share, round after round until none is left.
- :func:`largest_remainder` — "as nearly as practicable" in proportion to weights (GO 2021: ST pramukh posts in
  proportion to the district's share of the State's ST population; example: 20 % of 5 posts -> 1).

Both return a DataFrame with one row per group and the arithmetic of every step, so that a table can show how a
group's number came about. All arithmetic is Fraction/int.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

import pandas as pd

from ..base.errors import RuleError
from .quota import fmt_fraction
from .rounding import round_with
from .words_counts import step_words

__all__ = ["capped_shortfall", "largest_remainder", "shortfall_numbers", "largest_remainder_numbers",
           "shortfall_table", "remainder_table", "Apportioned", "APPORTION_COLUMNS", "ApportionError"]


class ApportionError(RuleError, ValueError):
    """The posts cannot be spread over the groups as the rules say (valid input, rules that cannot apply: exit
    status 3). One line saying which count and by how much. Also a ValueError, as these refusals always were."""

APPORTION_COLUMNS = ["group", "posts_base", "share", "formula", "formula_count", "cap", "cap_count", "initial",
                     "shortfall_posts", "shortfall_rounds", "removed", "final", "arithmetic"]


class Apportioned(NamedTuple):
    """One group's numbers in :func:`shortfall_numbers` (read only: a memo keeps them)."""

    group: object
    posts_base: int
    share: Fraction
    formula: Fraction
    formula_count: int
    cap: Fraction
    cap_count: int
    initial: int
    shortfall_posts: int
    shortfall_rounds: tuple
    removed: int
    final: int
    share_above: bool            # where the cap stands (its note in the words)
    number_above: bool


#: Where the cap of :func:`capped_shortfall` applies (GO 2021 KP proviso "यदि ... 20.6982 प्रतिशत से अधिक आती हैं तो
#: उसे 20.6982 प्रतिशत तक सीमित रखा जायेगा": *if* the computed number comes to more than the percentage).
CAP_SCOPES = {
    "every": "every group: initial = min(rounded formula, rounded cap)",
    "share": "only groups whose share is above the cap percentage: those get the rounded cap, the others the "
             "rounded formula",
    "number": "only groups whose rounded formula is above cap x posts (the unrounded cap): those get the rounded "
              "cap, the others the rounded formula",
}


def _cap_note(scope: str, share_above: bool, number_above: bool, cap: Fraction, lang: str = "en") -> str:
    if scope == "share":
        return step_words("cap.share_applies" if share_above else "cap.share_not", lang, pct=_percent(cap))
    if scope == "number":
        return step_words("cap.number_applies" if number_above else "cap.number_not", lang)
    return ""


#: The last results of :func:`capped_shortfall` and :func:`largest_remainder` by their whole input (both are pure:
#: a projection recomputes the same ST and SC shares of the districts for every sample; only OBC changes).
_MEMO: dict = {}
_MEMO_SIZE = 32


def _series_key(x) -> tuple | None:
    if x is None:
        return None
    return (type(x).__name__, str(getattr(x, "dtype", "")), tuple(x.tolist() if hasattr(x, "tolist") else x))


def _column_key(frame: pd.DataFrame, column: str) -> tuple:
    return str(frame[column].dtype), tuple(frame[column].tolist())


def _list_key(x) -> tuple | None:
    """A plain list as a memo key: its values and their types (1 and 1.0 are equal, but not the same input)."""
    if x is None:
        return None
    return tuple(x), tuple(map(type, x))


def _copy(hit):
    """A copy of a memo entry deep enough that a caller may change it (tables, lists, rows and their lists)."""
    if isinstance(hit, (pd.DataFrame, pd.Series)):
        return hit.copy()
    if isinstance(hit, tuple):
        return tuple(_copy(x) for x in hit)
    if isinstance(hit, list):
        return [_copy(x) for x in hit]
    if isinstance(hit, dict):
        return {k: _copy(v) for k, v in hit.items()}
    return hit


def _memo(key, compute, copy: bool = True):
    """``compute()`` once per ``key`` (a copy each time: callers may change what they get; ``copy=False``: the
    value itself, for values that cannot be changed)."""
    try:
        hit = _MEMO.pop(key, None)  # a hit goes back to the end: the least recently used entry leaves first
    except TypeError:               # an input that cannot be hashed: no memo
        hit, key = None, None
    if hit is not None:
        _MEMO[key] = hit
    if hit is None:
        hit = compute()
        if key is not None:
            if len(_MEMO) >= _MEMO_SIZE:
                _MEMO.pop(next(iter(_MEMO)))
            _MEMO[key] = hit
    return _copy(hit) if copy else hit


@lru_cache(maxsize=64)
def _percent(cap: Fraction) -> str:
    return fmt_fraction(Fraction(cap) * 100)


def capped_shortfall(total: int, groups: pd.DataFrame, *, cap: Fraction, state_share: Fraction,
                     formula_rounding: str = "half_up", cap_rounding: str = "floor",
                     upper: pd.Series | None = None, fallback: str = "all_groups",
                     excess: str = "lowest_share", tie_key: pd.Series | None = None,
                     cap_scope: str = "every", eligible_order: list | None = None,
                     eligible_source: str = "", what: str = "posts",
                     group_word: str = "group", lang: str = "en") -> tuple[pd.DataFrame, list[str]]:
    """Apportion ``total`` posts over ``groups`` (columns ``group``, ``posts_base``, ``share`` as Fraction).

    - formula: ``posts_base x share`` rounded by ``formula_rounding``;
    - cap: ``posts_base x cap`` rounded by ``cap_rounding`` ("limited to": floor by default);
    - initial: ``cap_scope`` (:data:`CAP_SCOPES`): ``"every"`` = min(formula, cap) for every group; ``"share"`` =
      the cap only where ``share > cap``; ``"number"`` = the cap only where the rounded formula exceeds
      ``posts_base x cap``. (With a half-up cap the three coincide: for a share at or below the cap the rounded
      formula never exceeds the rounded cap.)
    - shortfall: ``total - sum(initial)`` posts, one per group per round, to groups with ``share > state_share`` in
      descending order of share (``tie_key`` descending, then group, breaks equal shares), never beyond
      ``upper`` (default: ``posts_base``). ``eligible_order`` (group labels) replaces that set and its order when
      the shares themselves are not known (e.g. the districts above the State OBC share, as an input named by
      ``eligible_source``); labels not among the groups are an error. If no group is above the State share,
      ``fallback="all_groups"`` hands the posts to every group in the same order (recorded as a note);
      ``"error"`` raises :class:`ApportionError`.
    - excess (sum of initial above total, not covered by the text): ``excess="lowest_share"`` takes one post at a
      time from the groups with the lowest share that have one (noted); ``"error"`` raises ApportionError.
    - posts that no group taking the shortfall has room for (every one at ``upper``): ApportionError saying how
      many. ``what`` ("OBC posts") and ``group_word`` ("district") are the words of these errors.

    Returns ``(table, notes)``; ``table`` has :data:`APPORTION_COLUMNS`, ``shortfall_rounds`` lists the round
    numbers in which the group received a post. The numbers are :func:`shortfall_numbers`'s; this adds the words
    (the arithmetic column in ``lang``; the notes are English).
    """
    key = ("capped", total, _column_key(groups, "group"), _column_key(groups, "posts_base"),
           _column_key(groups, "share"), Fraction(cap), Fraction(state_share), formula_rounding, cap_rounding,
           _series_key(upper), fallback, excess, _series_key(tie_key), cap_scope,
           None if eligible_order is None else tuple(map(str, eligible_order)), eligible_source, what, group_word,
           lang)

    def compute():
        g = groups.reset_index(drop=True)
        rows, notes = shortfall_numbers(
            total, g["group"].tolist(), g["posts_base"].tolist(), g["share"].tolist(), cap=cap,
            state_share=state_share, formula_rounding=formula_rounding, cap_rounding=cap_rounding,
            upper=None if upper is None else upper.reset_index(drop=True).astype(int).tolist(), fallback=fallback,
            excess=excess, tie=None if tie_key is None else tie_key.tolist(), cap_scope=cap_scope,
            eligible_order=eligible_order, eligible_source=eligible_source, what=what, group_word=group_word)
        return shortfall_table(rows, cap, cap_scope, lang), list(notes)
    return _memo(key, compute)


def shortfall_numbers(total: int, names: list, bases: list, shares: list, *, cap: Fraction, state_share: Fraction,
                      formula_rounding: str = "half_up", cap_rounding: str = "floor", upper: list | None = None,
                      fallback: str = "all_groups", excess: str = "lowest_share", tie: list | None = None,
                      cap_scope: str = "every", eligible_order: list | None = None, eligible_source: str = "",
                      what: str = "posts", group_word: str = "group") -> tuple[tuple, tuple]:
    """The numbers of :func:`capped_shortfall` (the one place they are computed), on plain lists: one
    :class:`Apportioned` per group (``shortfall_rounds``: the round numbers in which it got a post) and the
    notes, both tuples (read only). A projection's samples read only the
    finals; :func:`capped_shortfall` renders the words from these rows. Kept by the whole input as the tables
    are (a projection gives the same SC shares for every sample)."""
    key = ("capped_numbers", total, _list_key(names), _list_key(bases), _list_key(shares), Fraction(cap),
           Fraction(state_share), formula_rounding, cap_rounding, _list_key(upper), fallback, excess, _list_key(tie),
           cap_scope, None if eligible_order is None else tuple(map(str, eligible_order)), eligible_source, what,
           group_word)
    return _memo(key, lambda: _shortfall_numbers(total, names, bases, shares, cap, state_share, formula_rounding,
                                                 cap_rounding, upper, fallback, excess, tie, cap_scope,
                                                 eligible_order, eligible_source, what, group_word), copy=False)


def _shortfall_numbers(total, names, bases, shares, cap, state_share, formula_rounding, cap_rounding, upper,
                       fallback, excess, tie, cap_scope, eligible_order, eligible_source, what,
                       group_word) -> tuple[tuple, tuple]:
    upper = [int(x) for x in (upper if upper is not None else bases)]
    tie = tie if tie is not None else [0] * len(names)
    notes: list[str] = []
    rows = _initial(names, bases, shares, upper, cap, formula_rounding, cap_rounding, cap_scope)
    given = sum(r["initial"] for r in rows)
    remaining = total - given
    ties = [t if type(t) is int else Fraction(t) for t in tie]       # whole persons as they are: same order
    order = sorted(range(len(rows)), key=lambda i: (-rows[i]["share"], -ties[i], str(rows[i]["group"])))
    final = {i: rows[i]["initial"] for i in order}
    words = (what, group_word)
    if remaining > 0:
        eligible = _shortfall_groups(rows, order, remaining, total, state_share, eligible_order, eligible_source,
                                     fallback, words, notes)
        _give(rows, final, eligible, upper, remaining, total, words, eligible_source,
              listed=eligible_order is not None)
    elif remaining < 0:
        if excess == "error":
            raise ApportionError(f"the capped formula gives {given} {what}, {-remaining} more than the State "
                                 f"total {total} (shortfall_excess=error)")
        notes.append(f"the capped formula gave {-remaining} post(s) more than the State total {total}; one post at a "
                     f"time was taken back from the groups with the lowest share (not covered by the text)")
        _take_back(rows, final, order, remaining, total, words)
    return tuple(Apportioned(**{**r, "shortfall_rounds": tuple(r["shortfall_rounds"]), "final": final[i]})
                 for i, r in enumerate(rows)), tuple(notes)


def shortfall_table(rows: tuple, cap, cap_scope: str, lang: str = "en") -> pd.DataFrame:
    """The table of :func:`capped_shortfall`: the rows of :func:`shortfall_numbers` with their arithmetic, in
    ``lang`` (:data:`reservation.law.words_counts.STEP_WORDS`)."""
    cap_shown = fmt_fraction(Fraction(cap) * 100)
    out = []
    for n in rows:
        r = {**n._asdict(), "shortfall_rounds": ",".join(map(str, n.shortfall_rounds))}
        note = _cap_note(cap_scope, r.pop("share_above"), r.pop("number_above"), Fraction(cap), lang)
        r["arithmetic"] = (step_words("capped", lang, posts_base=r["posts_base"], share=fmt_fraction(r["share"] * 100),
                                      formula=fmt_fraction(r["formula"]), formula_count=r["formula_count"],
                                      cap_pct=cap_shown, cap=fmt_fraction(r["cap"]), cap_count=r["cap_count"],
                                      note=note, initial=r["initial"])
                           + (step_words("capped.rounds", lang, posts=r["shortfall_posts"],
                                         rounds=r["shortfall_rounds"]) if r["shortfall_posts"] else "")
                           + (step_words("capped.excess", lang, removed=r["removed"]) if r["removed"] else "")
                           + step_words("capped.final", lang, final=r["final"]))
        out.append(r)
    return pd.DataFrame(out, columns=APPORTION_COLUMNS)


def _initial(names: list, bases: list, shares: list, upper: list, cap, formula_rounding: str, cap_rounding: str,
             cap_scope: str) -> list[dict]:
    """One row per group: the formula, the cap and the initial posts (see :func:`capped_shortfall`)."""
    rows = []
    cap = Fraction(cap)
    for i, (group, base, share) in enumerate(zip(names, bases, shares)):
        share = share if type(share) is Fraction else Fraction(share)
        formula = int(base) * share
        f_count = round_with(formula_rounding, formula)
        cap_raw = int(base) * cap
        c_count = round_with(cap_rounding, cap_raw)
        if cap_scope == "every":
            capped = min(f_count, c_count)
        elif cap_scope == "share":
            capped = c_count if share > cap else f_count
        elif cap_scope == "number":
            capped = c_count if f_count > cap_raw else f_count
        else:
            raise ValueError(f"unknown cap_scope {cap_scope!r}")
        rows.append({"group": group, "posts_base": int(base), "share": share, "formula": formula,
                     "formula_count": f_count, "cap": cap_raw, "cap_count": c_count,
                     "initial": min(capped, int(upper[i])), "shortfall_posts": 0, "shortfall_rounds": [],
                     "removed": 0, "share_above": share > cap, "number_above": f_count > cap_raw})
    return rows


def _shortfall_groups(rows, order, remaining, total, state_share, eligible_order, eligible_source, fallback,
                      words, notes) -> list[int]:
    """The groups that take the shortfall, in their order (see :func:`capped_shortfall`)."""
    what, group_word = words
    if eligible_order is not None:
        index = {str(rows[i]["group"]): i for i in range(len(rows))}
        unknown = [g for g in eligible_order if str(g) not in index]
        if unknown:
            raise ValueError(f"{unknown[0]!r} ({eligible_source or 'eligible_order'}) is not one of the groups")
        eligible = [index[str(g)] for g in eligible_order]
        notes.append(f"the {remaining} remaining post(s) went one at a time, round after round, to the "
                     f"{len(eligible)} group(s) listed as above the State share "
                     f"{fmt_fraction(state_share * 100)} % ({eligible_source or 'given'}), in the order given")
    else:
        eligible = [i for i in order if rows[i]["share"] > state_share]
    if not eligible:
        if fallback == "error":
            raise ApportionError(f"{remaining} of the {total} {what} are left after the capped formula, and no "
                                 f"{group_word} has a share above the State share "
                                 f"{fmt_fraction(state_share * 100)} % to take them (shortfall_fallback=error)")
        eligible = list(order)
        notes.append(f"no group has a share above the State share {fmt_fraction(state_share * 100)} %: the "
                     f"{remaining} remaining post(s) went to all groups in descending order of share")
    return eligible


def _give(rows, final, eligible, upper, remaining, total, words, source, listed) -> None:
    """The shortfall, one post per group per round, never beyond ``upper``."""
    rnd = 0
    while remaining > 0:
        rnd += 1
        progressed = False
        for i in eligible:
            if remaining == 0:
                break
            if final[i] < int(upper[i]):
                final[i] += 1
                rows[i]["shortfall_posts"] += 1
                rows[i]["shortfall_rounds"].append(rnd)
                remaining -= 1
                progressed = True
        if not progressed:
            raise ApportionError(_full(total, remaining, len(eligible), *words, source, listed=listed))


def _take_back(rows, final, order, remaining, total, words) -> None:
    """An excess, one post at a time from the groups with the lowest share that have one."""
    while remaining < 0:
        progressed = False
        for i in reversed(order):
            if remaining == 0:
                break
            if final[i] > 0:
                final[i] -= 1
                rows[i]["removed"] += 1
                remaining += 1
                progressed = True
        if not progressed:
            raise ApportionError(f"{-remaining} of the {words[0]} above the State total {total} cannot be taken "
                                 f"back: no {words[1]} has one left")


def _full(total: int, remaining: int, k: int, what: str, group_word: str, source: str, listed: bool) -> str:
    """The words of a shortfall that the groups taking it have no room for."""
    who = (f"the {k} {group_word}(s) listed as above the State share ({source or 'given'})" if listed
           else f"the {k} {group_word}(s) that take the shortfall")
    return (f"{total} {what} to place but only {total - remaining} fit: {who} have no place left after the "
            f"categories before them; {remaining} {what} too many")


def largest_remainder(total: int, groups: pd.Series, weights: pd.Series, *, upper: pd.Series | None = None,
                      tie_key: pd.Series | None = None, what: str = "posts",
                      group_word: str = "group") -> pd.DataFrame:
    """Hamilton's method: ``total x weight / sum(weights)``, integer parts, then the largest remainders get one.

    Equal remainders: larger weight first, then ``tie_key`` descending, then group. Returns columns ``group``,
    ``quota`` (Fraction), ``floor``, ``remainder_post`` (0/1), ``final``, ``arithmetic``. Posts left over (every
    weight zero, or every group at ``upper``): :class:`ApportionError` saying how many (``what``, ``group_word``:
    its words).
    """
    key = ("largest", total, _series_key(groups), _series_key(weights), _series_key(upper), _series_key(tie_key),
           what, group_word)
    return _memo(key, lambda: _largest_remainder(total, groups, weights, upper, tie_key, what, group_word))


def _largest_remainder(total, groups, weights, upper, tie_key, what, group_word) -> pd.DataFrame:
    groups = groups.reset_index(drop=True)
    numbers = largest_remainder_numbers(
        total, groups.tolist(), weights.tolist(), upper=None if upper is None else upper.tolist(),
        tie=None if tie_key is None else tie_key.tolist(), what=what, group_word=group_word)
    return remainder_table(total, groups, numbers)


def remainder_table(total: int, groups, numbers: tuple, lang: str = "en") -> pd.DataFrame:
    """The table of :func:`largest_remainder`: the numbers of :func:`largest_remainder_numbers` with their
    arithmetic, in ``lang``."""
    w, quotas, floors, extra = numbers
    s = sum(w)
    return pd.DataFrame({"group": groups, "quota": quotas, "floor": floors, "remainder_post": extra,
                         "final": [f + e for f, e in zip(floors, extra)],
                         "arithmetic": [step_words("remainder", lang, total=total,
                                                   pct=fmt_fraction(x * 100 / s if s else 0), quota=fmt_fraction(q),
                                                   floor=f) + (step_words("remainder.extra", lang) if e else "")
                                        for x, q, f, e in zip(w, quotas, floors, extra)]})


def largest_remainder_numbers(total: int, names: list, weights: list, *, upper: list | None = None,
                              tie: list | None = None, what: str = "posts",
                              group_word: str = "group") -> tuple[list, list, list, list]:
    """The numbers of :func:`largest_remainder` (the one place they are computed), on plain lists: the weights
    (Fractions), the quotas, their integer parts (within ``upper``) and the remainder posts (0/1), as tuples (read
    only: a memo keeps them); the final count of a group is its integer part plus its remainder post."""
    key = ("largest_numbers", total, _list_key(names), _list_key(weights), _list_key(upper), _list_key(tie), what,
           group_word)
    return _memo(key, lambda: _largest_remainder_numbers(total, names, weights, upper, tie, what, group_word),
                 copy=False)


def _largest_remainder_numbers(total, names, weights, upper, tie, what, group_word) -> tuple[list, list, list, list]:
    w = [Fraction(x) for x in weights]
    tie = tie if tie is not None else [0] * len(w)
    up = upper if upper is not None else [total] * len(w)
    s = sum(w)
    quotas = [total * x / s if s else Fraction(0) for x in w]
    floors = [min(q.numerator // q.denominator, int(up[i])) for i, q in enumerate(quotas)]
    left = total - sum(floors)
    order = sorted(range(len(w)), key=lambda i: (-(quotas[i] - floors[i]), -w[i], -Fraction(tie[i]), str(names[i])))
    extra = [0] * len(w)
    for i in order:
        if left <= 0:
            break
        if floors[i] + 1 <= int(up[i]) and quotas[i] > floors[i]:
            extra[i] = 1
            left -= 1
    if left > 0:
        why = (f"every {group_word} has a weight of 0" if not s else
               f"the {group_word}s with a share have no room left")
        raise ApportionError(f"{left} of the {total} {what} cannot be placed in proportion: {why}; "
                             f"{left} {what} too many")
    return tuple(w), tuple(quotas), tuple(floors), tuple(extra)
