"""What the Mayors' rules (s.7 of the UP Municipal Corporations Act 1959) leave open, held against the published
lists of 2017 and 2023 (``data/published/mayor_2017.csv``, ``mayor_2023.csv``; notes/mayor.md).

- The order of the general women's offices (option ``women_order``): the 2023 text we hold, s.9-A(5)(d)(iv) of
  the Municipalities Act, ranks *Palika Parishads* by their share of women; the Mayors' section of the
  Corporations Act is another instrument, whose 2023 text we do not hold. Both published lists give the three
  general women's offices to the three largest of the Nagar Nigams left after SC and OBC.
- Rotation against 2017 or afresh (the base year): ``data/history/mayor.csv`` holds both lists; the default base
  year 2023 (the 2023 Act) counts no earlier election for 2023, ``--base-year 2017`` rotates against 2017.

Used by :mod:`reservation.rules.municipal` (which registers the body).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from .catalogue import with_default
from ..inputs.options import Option
from ..law.ranking import Ratio

__all__ = ["WOMEN_ORDER", "TIE_BREAK", "women_key", "MAYOR_HISTORY", "MAYOR_BASE_YEAR", "MAYOR_BASE_YEAR_READINGS"]

#: The shipped Mayors' history: the published lists of 2017 (16 Nagar Nigams) and 2023 (17).
MAYOR_HISTORY = "mayor.csv"
#: The first election that counts as a previous one for a Mayors' allotment: the 2023 Act's (fresh start).
MAYOR_BASE_YEAR = 2023

WOMEN_ORDER = Option(
    "women_order", "A16", "population",
    {"population": "general women's offices to the most populous Nagar Nigams left after SC, ST and OBC",
     "women_population": "general women's offices to the Nagar Nigams with the most women",
     "women_share": "general women's offices in descending share of women in the population (s.9-A(5)(d)(iv), "
                    "written for Palika Parishads)"},
    "The published lists (data/published/mayor_2023.csv, mayor_2017.csv; data/published/README.md): both give "
    "the 3 general women's offices to Lucknow, Kanpur and Ghaziabad, the three most populous Nagar Nigams left "
    "after the SC and OBC offices (2023: Lucknow 2,817,105, Kanpur 2,765,348, Ghaziabad 1,648,643, next Varanasi "
    "1,198,491; 2017: next Agra 1,585,704). 'women_share', the order s.9-A(5)(d)(iv) (2023) gives the Palika "
    "Parishads, would give Lucknow, Moradabad and Gorakhpur in 2023 and Lucknow, Moradabad and Jhansi in 2017: "
    "contradicted by both lists (the Mayors' s.7 of the Corporations Act is another instrument, its 2023 text "
    "not held). 'women_population' (the number of women) gives the same three as 'population' on both lists: "
    "the record cannot tell the two apart; 'population' is the plainer reading (notes/mayor.md).")

TIE_BREAK = with_default(
    "tie_break", "assumed_by_code",
    "The OBC shares of the Nagar Nigams are not public: every one stands at the Commission's 25.58 %, so the tie "
    "rule alone chooses the 4 OBC offices. By population it takes the largest left after SC (Lucknow OBC_W, "
    "Kanpur OBC_W, Ghaziabad, Meerut), and the women's pass, which ranks by population (women_order), can then "
    "never reach the three the published lists give the general women's offices, Lucknow, Kanpur and Ghaziabad: "
    "0 of 3 in 2023 and in 2017, and 8 of 17 (2023) and 3 of 16 (2017, the 2023 rules on its 16 Nagar Nigams) "
    "units with the published category. By the LGD code (independent of the women's key) 2 of 3 women's "
    "offices and 11 of 17 and 6 of 16 units match (benchmarks/tie_rule_published.py; notes/mayor.md). Which "
    "bodies are OBC stays undetermined without OBC figures: the audit says so (depends_on_unpublished_data), and "
    "lots drawn by the authority (option lots) or an obc column (--population) replace the rule.")

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

    return {"population": population, "women_population": women_population}[how]
