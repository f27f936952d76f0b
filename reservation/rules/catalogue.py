"""The shared catalogue of options: one named switch per open reading of the law, used by several rulebooks.

A rulebook picks the options it needs from here by name (:func:`pick`) and declares its own beside them. Each
option has a stable name, the ambiguity it settles, its choices with the reading each implements, a default and
the evidence for the default (:class:`reservation.inputs.options.Option`). The ambiguity and the evidence are
data, in ``rules/params/evidence.toml`` (under ``catalogue.NAME``, or the scope of the rulebook that declares its
own reading): :func:`option` puts them together with the choices declared here. Texts cite the instruments: the GO 2021 is the
2021 panchayat reservation Government Order, s.9-A(5) (2023) the 2023 substitution of s.9-A(5) of the UP
Municipalities Act; the ambiguities are described in docs/ambiguities.md.
"""

from __future__ import annotations

from ..inputs.options import Option
from .parameters import evidence, written

__all__ = ["CATALOGUE", "pick", "with_default", "option"]


def option(scope: str, name: str, default: str, readings: dict[str, str], kind: str = "choice") -> Option:
    """The option ``name`` with its choices and default, its ambiguity and evidence read from evidence.toml
    (``scope.name``)."""
    ev = evidence(scope, name)
    return Option(name, ev.ambiguity, default, readings, ev.text, kind)


def _O(name: str, default: str, readings: dict[str, str], kind: str = "choice") -> Option:
    return option("catalogue", name, default, readings, kind)


CATALOGUE: dict[str, Option] = {o.name: o for o in [
    _O("sc_st_rounding", "half_up",
       {"half_up": "SC/ST counts: remainder of half or more counts as one",
        "floor": "SC/ST counts: integer part", "ceil": "SC/ST counts: any remainder counts as one"}),
    _O("obc_cap_rounding", "floor",
       {"floor": "27 % cap: integer part only", "half_up": "27 % cap: half-up"}),
    _O("obc_state_share", written("panchayat.obc_state_share", 2021), {}, kind="decimal"),
    _O("general_women", "total_minus_category",
       {"total_minus_category": "women in all = ceil(N/3); general women = that minus the category women",
        "third_of_rest": "general women = ceil(unreserved remainder / 3)"}),
    _O("category_order", "b",
       {"b": "ST-W, ST, SC-W, SC, OBC-W, OBC, W (each group filled in one pass, women from the top)",
        "a": "ST-W, ST, SC-W, OBC-W, SC, OBC, W (each code in its own pass, as the ACS was reported)"}),
    _O("category_women", "top",
       {"top": "a group's women's posts go to its first districts in rotation order",
        "not_women_last": "among the group's districts, those without a women's office at the last "
                          "election take the women's posts first"}),
    _O("rotation_history", "since_base",
       {"since_base": "tier 1 = never reserved for the group in any election since the base year",
        "last_only": "only the last election counts (tier 1 = tier 2)"}),
    _O("women_history", "general_only",
       {"general_only": "for the women's pass only a W (general women) office counts as 'reserved for women'",
        "any_women": "ST_W, SC_W and OBC_W offices count as 'reserved for women' too"}),
    _O("rotation_fallback", "rank",
       {"rank": "when tiers 1-2 cannot fill the posts, the rest follow in descending order ('as far as "
                "possible')", "error": "stop with an error instead"}),
    _O("count_base", "state_total",
       {"state_total": "SC/ST counts from the share of the whole State population",
        "state_rural": "SC/ST counts from the share of the State's rural population"}),
    _O("rank_base", "rural",
       {"rural": "rank by shares of the rural population (the ZP's territorial area)",
        "total": "rank by shares of the whole district population"}),
    _O("women_rank", "general_population",
       {"general_population": "women's pass ranks by the number of people outside SC/ST/OBC",
        "general_share": "women's pass ranks by the share of people outside SC/ST/OBC"}),
    _O("division_saturation", "on",
       {"on": "apply the division rule", "off": "ignore it"}),
    _O("saturation_population", "total",
       {"total": "least populous by total population", "category": "least populous by the category's population"}),
    _O("saturation_table", "census2011_published",
       {"census2011_published": "least populous by the Census 2011 district totals as published (71 districts; a "
                                "district that lost a tehsil after 2011 keeps its whole published figure; Amethi, "
                                "Hapur, Sambhal, Shamli, created later, take their rebuilt totals): data/districts.csv "
                                "tot_p_census2011_published",
        "rebuilt": "least populous by today's districts rebuilt from Census 2011 tehsils (data/districts.csv tot_p)"}),
    _O("saturation_effect", "unreserved",
       {"unreserved": "the freed district is unreserved: it takes part in no later pass (OBC, women)",
        "barred": "the freed district is only barred from that category; later passes may still reserve it"}),
    _O("saturation_scope", "per_category",
       {"per_category": "a division is saturated when all its districts hold the same group (SC incl. SC-W)",
        "all_reserved": "a division is saturated when all its districts hold any reserved office"}),
    _O("tie_break", "assumed_by_code",
       {"population": "equal shares: larger population of the ranking base first, then lower LGD code",
        "code": "equal shares: lower LGD code first",
        "assumed_by_code": "equal shares: larger population first, then lower LGD code; but where the shares are a "
                           "stand-in (OBC assumed at the State share in every unit, no OBC figures given), lower "
                           "LGD code first"}),
    _O("lots", "", {}, kind="path"),
]}


def pick(*names: str, **replace: Option) -> dict[str, Option]:
    """Options of the catalogue by name (in the order given), some replaced by a rulebook's own reading."""
    out = {n: CATALOGUE[n] for n in names}
    out.update(replace)
    return out


def with_default(scope: str, name: str, default: str) -> Option:
    """The catalogue's option ``name`` with another default and its own evidence (``scope.name`` in evidence.toml:
    a body whose record decides it)."""
    o = CATALOGUE[name]
    if default not in o.readings:
        raise ValueError(f"{default!r} is not a reading of {name}")
    return Option(o.name, evidence(scope, name).ambiguity, default, o.readings, evidence(scope, name).text, o.kind)
