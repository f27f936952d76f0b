"""What the rules make of an unknown OBC order: the order a published list reveals, and the units it cannot move.

Two questions of a projection (:mod:`reservation.projection.project`) are answered here, both from the engine's own passes
(:class:`reservation.engine.passes.PassRecord`: tiers, eligibility, posts per parent, keys, tie order):

1. :func:`past_list_constraints` - what a published past list says about the unknown OBC population. Recompute
   that election with its own previous elections; the units of the groups ranked by public shares (ST, SC) are
   pinned to the published list (their order does not depend on OBC; the final 2021 Zila Panchayat SC list is not
   even reproducible on its stated base year, notes/readings_panchayat.md), and so are the units the division
   rule freed in those passes when the list has them unreserved (option ``saturation_effect=unreserved``). In
   every pass that ranks by the OBC share or by the population outside SC/ST/OBC, the published outcome is the
   engine's outcome exactly when, in each counting unit,

   - the pass takes every eligible unit of the tiers before the last tier it reaches, and in that tier its units
     come before the ones it leaves (one :class:`~reservation.projection.priors.OrderConstraint`);
   - its women's posts are the first of the units it takes (a second constraint at the women's boundary);
   - no division ends up wholly reserved for the group (else the division rule would have changed the outcome).

   Anything else (a published list the rules cannot give for any OBC figures) is a :class:`RuleError` that names
   the units. Those constraints describe the OBC orders that give the list *without* the division rule firing in
   an OBC-dependent pass. The rule can give the same list a second way: a unit left out, whose division is
   otherwise wholly reserved for the group and which is its least populous unit, may have come before the last
   unit taken and been freed (the next unit then takes the post). Each such unit is an
   :class:`~reservation.projection.priors.Alternative`, sampled as part of the admissible set (orders in which the rule frees
   two units of one pass are not).

2. :func:`reservation.allotment.certainty.certain_units` (imported here; the allotment's answer uses the same
   proof) - a proof that a unit's category does not depend on the unknown OBC population, by
   following every pass with what is known for sure: a unit's place in a pass that ranks by an OBC-dependent key
   is known only up to its tier (any order within a tier is possible), so its place lies between the number of
   units surely before it and the number possibly before it; it surely takes a post if even the latter is below the
   posts, surely not if the former reaches them, and surely a women's post if it is surely among the first
   ``women`` (the division rule widens the range by one place per division it could fire in, and makes every unit
   it could free uncertain). Counting units whose posts depend on OBC (a district's OBC and women's posts of block
   pramukhs) make the whole OBC-dependent pass uncertain there. The proof ignores what past lists reveal (it is
   conservative): a unit it cannot prove certain may still have the same category in every sample.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..law.categories import CODES
from ..engine import steps
from ..engine.passes import CODE_INDEX, RuleError
from ..allotment.certainty import UNKNOWN_KEY, PassKind, certain_units, pass_kinds, tie_positions
from ..allotment.certainty import eligible_in_run as _eligible
from .priors import Alternative, OrderConstraint

__all__ = ["PassKind", "pass_kinds", "UNKNOWN_KEY", "tie_positions", "past_list_constraints", "PastList",
           "certain_units", "check_past_counts"]

_UR = CODE_INDEX["UR"]


def _names(units, pos) -> str:
    names = units["unit_name_en"].to_numpy(dtype=object)
    shown = [str(names[i]) for i in list(pos)[:6]]
    return ", ".join(shown) + (f" and {len(pos) - 6} more" if len(pos) > 6 else "")


@dataclass
class PastList:
    """What one published past list reveals: its ``year``, the ``pins`` of the recomputation (position ->
    code), the ``constraints`` on the OBC order, the ``alternatives`` ((position, text) of the units the division
    rule could have freed to give the same list) and ``notes``."""

    year: int
    published: np.ndarray
    pins: dict
    constraints: list = field(default_factory=list)
    alternatives: list = field(default_factory=list)
    notes: list = field(default_factory=list)


#: The groups whose offices in a counting unit never depend on the OBC population (checked first, as groups).
_GROUPS = (("ST", ("ST", "ST_W")), ("SC", ("SC", "SC_W")), ("OBC", ("OBC", "OBC_W")))


def check_past_counts(prepared, result, published: np.ndarray, year: int) -> None:
    """A published past list must have the law's number of offices of each category (``result``: the engine's run
    of that election, whose counts are the law's under these options): else no OBC figures can give it, a
    :class:`RuleError` saying which count and by how much (the first that differs, groups before categories).
    With the State as the only counting unit every count is checked (the State counts never read OBC figures);
    where the posts of a counting unit depend on its OBC figures (a district's OBC and women's block pramukhs),
    only the ST and SC counts of each counting unit, which do not."""
    k = len(CODES)
    par = np.asarray(result.par, dtype=np.int64)
    places = len(result.parent_labels)
    law = np.bincount(par * k + result.category, minlength=places * k).reshape(places, k)
    listed = np.bincount(par * k + published, minlength=places * k).reshape(places, k)
    known = CODES if prepared.parent is None else ("ST_W", "ST", "SC_W", "SC")
    checks = [(g, codes) for g, codes in _GROUPS if set(codes) <= set(known)] + [(c, (c,)) for c in known]
    wrong = []
    for q in range(places):
        for name, codes in checks:
            cols = [CODE_INDEX[c] for c in codes]
            a, b = int(listed[q, cols].sum()), int(law[q, cols].sum())
            if a != b:
                wrong.append((q, name, codes, a, b))
    if not wrong:
        return
    q, name, codes, a, b = wrong[0]
    where = "" if prepared.parent is None else f" in {prepared.rb.parent_word} {result.parent_labels[q]}"
    what = f"{name} offices" + (f" ({' and '.join(codes)})" if len(codes) > 1 else "")
    more = len({(x[0], x[2][0]) for x in wrong if len(x[2]) == 1} - {(q, c) for c in codes})
    raise RuleError(f"the {year} list has {a} {what}{where}; the law's count is {b}: "
                    f"{abs(a - b)} too {'many' if a > b else 'few'}"
                    + (f" ({more} other count(s) differ too)" if more > 0 else ""))


def past_list_constraints(prepared, result, kinds: list[PassKind], published: np.ndarray, year: int,
                          pins: dict) -> PastList:
    """The constraints a published list (``published``: CODES index per unit, in the order of
    ``prepared.frame``) puts on the OBC order, from a run ``result`` of the recomputation with ``pins``
    (position -> CODES index) whatever its OBC figures were (only the public parts of its passes are read)."""
    units = prepared.frame
    n = len(units)
    if prepared.parent is not None:
        raise RuleError(f"a published {year} list cannot constrain a {prepared.rb.id} projection: its posts per "
                        f"{prepared.rb.parent_word} are counted from the unknown OBC population too (use "
                        f"constraint=none: the list then counts as rotation history only)")
    division = units["division"].to_numpy(dtype=object) if "division" in units else None
    out = PastList(year, published, pins)
    assigned = np.zeros(n, dtype=bool)
    cat = np.full(n, -1, dtype=np.int64)
    for p, c in pins.items():
        assigned[p] = True
        cat[p] = c
    by_run = np.zeros(n, dtype=bool)         # freed by the division rule in an OBC-dependent pass of that run
    for rec, kind in zip(result.records, kinds):
        eligible = _eligible(rec, by_run)
        if kind.key is not None and rec.barred:
            by_run[np.fromiter(rec.barred, dtype=np.int64, count=len(rec.barred))] = True
        chosen = _published_pass(units, result, rec, kind, published, assigned, eligible, year)
        if kind.key is not None:
            active = ~assigned & (rec.need[result.par] > 0)
            posts = _pass_constraints(out, units, result, rec, kind, published, active & eligible, chosen, year)
            rule = result.settings.division
            if rule is not None and rec.spec.saturation_population is not None and division is not None:
                _division_alternatives(out, units, division, result.par, rec, rule, cat, chosen, active & eligible,
                                       published, year, posts)
        assigned |= chosen
        cat[chosen] = published[chosen]
    rule = result.settings.division
    if rule is not None and rule.effect is steps.Effect.UNRESERVED:
        # a freed unit leaves the later passes: its pairs there do not bind on the second way either
        out.alternatives = [Alternative(a.victim, a.post, a.division, a.drop + tuple(
            i for i, c in enumerate(out.constraints) if i > a.post and (a.victim in set(c.upper.tolist())
                                                                     or a.victim in set(c.lower.tolist()))), a.what)
            for a in out.alternatives]
    left = ~assigned & (published != _UR)
    if left.any():
        raise RuleError(f"the published {year} list reserves {_names(units, np.flatnonzero(left))}, which no pass "
                        f"of the rules reaches")
    return out


def _published_pass(units, result, rec, kind: PassKind, published, assigned, eligible, year: int) -> np.ndarray:
    """The units the published list gives pass ``rec`` (a bool array), checked against what the pass can give
    whatever the OBC figures: only units it ranks, the law's posts per code, eligible units (the two-person rule
    on OBC cannot be checked: refused)."""
    par = result.par
    codes_idx = np.array([CODE_INDEX[c] for c in rec.spec.codes])
    active = ~assigned & (rec.need[par] > 0)
    chosen = ~assigned & np.isin(published, codes_idx)
    if (chosen & ~active).any():
        bad = np.flatnonzero(chosen & ~active)
        raise RuleError(f"the published {year} list gives {rec.spec.name} to {_names(units, bad)}, which "
                        f"the rules leave without {rec.spec.name} posts")
    for j, ci in enumerate(codes_idx):
        got = np.bincount(par[chosen & (published == ci)], minlength=len(rec.need))
        if not np.array_equal(got, rec.slots[:, j]):
            q = int(np.flatnonzero(got != rec.slots[:, j])[0])
            raise RuleError(f"the published {year} list has {int(got[q])} {CODES[ci]} in "
                            f"{result.parent_labels[q]} where the rules give {int(rec.slots[q, j])}")
    if kind.eligible_obc:
        raise RuleError(f"{year} {rec.spec.name} pass: its eligibility (two-person rule) reads the unknown OBC "
                        f"population; a past list cannot constrain such a pass (use constraint=none)")
    if (chosen & ~eligible).any():
        bad = np.flatnonzero(chosen & ~eligible)
        raise RuleError(f"the published {year} list gives {rec.spec.name} to {_names(units, bad)}, not "
                        f"eligible for it under the rules")
    return chosen


def _pass_constraints(out: PastList, units, result, rec, kind: PassKind, published, cand_all, chosen,
                      year: int) -> dict:
    """The order constraints of an OBC-dependent pass, per counting unit: the posts (by tier, then the key) and
    the women's posts among the chosen (by :func:`reservation.engine.steps.women_level`, then the key). Returns
    counting unit -> the index of its posts constraint."""
    par = result.par
    where = f"{year} {rec.spec.name} pass"
    codes_idx = np.array([CODE_INDEX[c] for c in rec.spec.codes])
    tie = tie_positions(result, rec)
    flag = steps.women_flag(result.settings.category_women, result.rotation, np.arange(len(units)), len(codes_idx))
    level_w = steps.women_level(rec.tier, flag)
    posts = {}
    for q in np.flatnonzero(rec.need > 0):
        cand = cand_all & (par == q)
        C = chosen & (par == q)
        got = _boundary(units, rec.tier, cand, C, kind.key, tie, f"{where}, posts", year)
        if got:
            posts[int(q)] = len(out.constraints)
        out.constraints += got
        if len(codes_idx) > 1 and rec.slots[q, 0] > 0:
            women = C & (published == codes_idx[0])
            out.constraints += _boundary(units, level_w, C, women, kind.key, tie, f"{where}, women's posts", year)
    return posts


def _division_alternatives(out: PastList, units, division, par, rec, rule, cat, chosen, cand, published,
                           year: int, posts: dict) -> None:
    """The units whose freeing by the division rule could have given the same list (the second way), as
    :class:`~reservation.projection.priors.Alternative` of the posts constraint that has them below."""
    for v, d, mem in _division_check(units, division, par, rec, rule, cat, chosen, cand, published, year):
        i = posts.get(int(par[v]))
        if i is None or v not in set(out.constraints[i].lower.tolist()):
            continue
        out.alternatives.append(Alternative(int(v), i, mem, (i,), f"{year} {rec.spec.name} pass: the division rule "
                                            f"could have freed {units['unit_name_en'].iat[v]} ({d}) and given the "
                                            f"same list"))


def _boundary(units, level, cand, chosen, kind, tie, what, year) -> list:
    """The constraint that ``chosen`` are the first of ``cand`` in a pass ordered by ``level`` (ascending), then
    the OBC-dependent key: every candidate of an earlier level must be chosen, and in the last level reached the
    chosen come first. An impossible pattern is a RuleError."""
    if not chosen.any():
        top = None
    else:
        top = int(level[chosen].max())
    if top is None:
        return []
    skipped = cand & ~chosen & (level < top)
    if skipped.any():
        late = np.flatnonzero(chosen & (level == top))
        raise RuleError(f"the published {year} list cannot come from the rules for any OBC figures ({what}): "
                        f"{_names(units, np.flatnonzero(skipped))} (rotation tier "
                        f"{int(level[np.flatnonzero(skipped)[0]]) % 4}) passed over while {_names(units, late)} "
                        f"(tier {top % 4}) took a post")
    upper = np.flatnonzero(chosen & (level == top))
    lower = np.flatnonzero(cand & ~chosen & (level == top))
    if not len(lower):
        return []
    return [OrderConstraint(kind, upper, lower, tie, f"{what}: {_names(units, upper)} before "
                                                       f"{_names(units, lower)}")]


def _division_check(units, division, par, rec, rule: steps.DivisionRule, cat, chosen, cand, published,
                    year: int) -> list:
    """The published outcome of an OBC-dependent pass must leave no division wholly reserved for the group (else
    the division rule would have fired: :meth:`~reservation.engine.steps.DivisionRule.saturated`). Returns the
    units whose freeing could have given the same list (``(position, division, its members)``): a candidate left
    out whose division is otherwise wholly reserved, the one the rule frees among it and the division's units
    taken (:meth:`~reservation.engine.steps.DivisionRule.freed_unit`), and whose published category fits the
    rule's effect."""
    group = rec.spec.group
    held = rule.holds(cat, group)
    reserved = held | chosen
    hit = rule.saturated(division, par, reserved, chosen, np.flatnonzero(np.isin(par, par[chosen])))
    if hit:
        raise RuleError(f"the published {year} list makes every district of {hit[0][1]} {group}: the "
                        f"division rule would have freed one ({rec.spec.name} pass)")
    codes = units["unit_code"].to_numpy(dtype=np.int64)
    gcodes = steps.group_holding_codes(group, rule.scope)
    found = []
    for q in np.unique(par[chosen]) if chosen.any() else []:
        in_q = par == q
        for d in np.unique(division[in_q]):
            mem = np.flatnonzero(in_q & (division == d))
            rest = mem[~reserved[mem]]
            if len(mem) < 2 or len(rest) != 1 or not cand[rest[0]] or not chosen[mem].any():
                continue
            v = int(rest[0])
            fits = (published[v] == _UR if rule.effect is steps.Effect.UNRESERVED
                    else not np.isin(published[v], gcodes))
            if fits and rule.freed_unit([int(i) for i in mem if chosen[i]] + [v], rec.spec.saturation_population,
                                        codes) == v:
                found.append((v, d, mem))
    return found
