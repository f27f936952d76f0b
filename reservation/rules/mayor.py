"""Mayors (Nagar Nigam chairs) under s.7 of the UP Municipal Corporations Act 1959 with the OBC proviso.

State counts for the 17 Nagar Nigams (SC and ST half-up from their share of the Nagar Nigams' population; OBC from
the Dedicated Commission's statewide share for Nagar Nigams, rules/params/law.toml ``mayor.obc_share``, at most
27 %; women one-third of all offices with the category women), then descending order of share among the 17 (the
State is the only unit). What the rules leave open, held against the published lists of 2017 and 2023
(``data/published/mayor_2017.csv``, ``mayor_2023.csv``; notes/mayor.md):

- The order of the general women's offices (option ``women_order``): the 2023 text we hold, s.9-A(5)(d)(iv) of
  the Municipalities Act, ranks *Palika Parishads* by their share of women; the Mayors' section of the
  Corporations Act is another instrument, whose 2023 text we do not hold. Both published lists give the three
  general women's offices to the three largest of the Nagar Nigams left after SC and OBC.
- Rotation against 2017 or afresh (the base year): ``data/history/mayor.csv`` holds both lists; the default base
  year 2023 (the 2023 Act) counts no earlier election for 2023, ``--base-year 2017`` rotates against 2017.

What the urban bodies share is in :mod:`.urban`.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from .catalogue import option, with_default
from ..inputs.options import Option
from ..inputs.units import DATA_DIR
from ..law.ranking import Ratio
from .parameters import value
from .rulebook import Group
from .urban import URBAN_OPTIONS, category_groups, urban_rulebook

__all__ = ["RULEBOOK", "WOMEN_ORDER", "TIE_BREAK", "women_key", "MAYOR_HISTORY", "MAYOR_BASE_YEAR",
           "MAYOR_BASE_YEAR_READINGS", "MAYOR_OPTIONS"]

#: The shipped Mayors' history: the published lists of 2017 (16 Nagar Nigams) and 2023 (17).
MAYOR_HISTORY = "mayor.csv"
#: The first election that counts as a previous one for a Mayors' allotment: the 2023 Act's (fresh start;
#: rules/params/law.toml mayor.base_year).
MAYOR_BASE_YEAR = value("mayor.base_year", 2023)

#: The order of the general women's offices (A16; the evidence: evidence.toml mayor.women_order).
WOMEN_ORDER = option("mayor", "women_order", "population", {
    "population": "general women's offices to the most populous Nagar Nigams left after SC, ST and OBC",
    "women_population": "general women's offices to the Nagar Nigams with the most women",
    "women_share": "general women's offices in descending share of women in the population (s.9-A(5)(d)(iv), "
                   "written for Palika Parishads)"})

#: The Mayors' tie rule: the catalogue's, with the evidence of the published lists (evidence.toml mayor.tie_break).
TIE_BREAK = with_default("mayor", "tie_break", "assumed_by_code")

MAYOR_BASE_YEAR_READINGS = {
    2023: "base year 2023: the rotation starts with the 2023 Act and no Mayors' list before 2023 counts, so the "
          "2023 allotment is made afresh and a later one rotates against 2023 onwards (the published 2023 list "
          "repeats 2017's women's offices at Lucknow, Kanpur and Ghaziabad and its OBC offices at Firozabad and "
          "Saharanpur, which rotation against 2017 forbids: notes/mayor.md)",
    2017: "base year 2017: the 2017 list counts as a previous election (for 2023: rotation against 2017, which "
          "the published 2023 list contradicts at 5 of its 9 reserved offices: notes/mayor.md)",
}


def women_key(how: str):
    """The key of the Mayors' general women's pass for option ``women_order`` (``women_share`` is
    :func:`reservation.rules.keys.women_share`, the key the caller uses for it)."""
    def population(ctx) -> Ratio:
        return Ratio(ctx.units["pop"].to_numpy(dtype=np.int64), None, "people")

    def women_population(ctx) -> Ratio:
        """The number of women; a unit without a female figure at the share of women of those that have one
        (exact: a fraction of a person, said in the result like the share)."""
        pop = ctx.units["pop"].to_numpy(dtype=np.int64)
        women = ctx.units["women"]
        known = women.notna().to_numpy()
        w = women.fillna(0).to_numpy(dtype=np.int64)
        if known.all():
            return Ratio(w, None, "people")
        fill = Fraction(int(w[known].sum()), int(pop[known].sum())) if known.any() else Fraction(1, 2)
        s = fill.denominator
        return Ratio(np.where(known, w * s, fill.numerator * pop), None, "people", scale=s)

    from .keys import KeyKind, KeySpec
    return {"population": KeySpec(KeyKind.PEOPLE, population),
            "women_population": KeySpec(KeyKind.PEOPLE, women_population)}[how]


#: The Mayors' options: the urban ones, the order of their general women's offices and their tie rule.
MAYOR_OPTIONS: dict[str, Option] = {**URBAN_OPTIONS, TIE_BREAK.name: TIE_BREAK, WOMEN_ORDER.name: WOMEN_ORDER}


def counting_unit(opts) -> None:
    """The State is the Mayors' only counting unit."""
    return None


def _groups():
    """The urban passes with the Mayors' clauses; the general women by option ``women_order``."""
    fixed = category_groups("mayor")
    others = {"population": Group(women_key("population"), "population", "mayor_w", label_hi="जनसंख्या"),
              "women_population": Group(women_key("women_population"), "number of women", "mayor_w",
                                        label_hi="महिलाओं की संख्या"), "women_share": fixed["GEN"]}
    return lambda opts: {**fixed, "GEN": others[opts["women_order"]]}


RULEBOOK = urban_rulebook(
    "mayor", parent_for=counting_unit, groups=_groups(), options=MAYOR_OPTIONS, parent_table="",
    default_base_year=MAYOR_BASE_YEAR, default_history=str(DATA_DIR / "history" / MAYOR_HISTORY),
    base_year_readings=MAYOR_BASE_YEAR_READINGS)
