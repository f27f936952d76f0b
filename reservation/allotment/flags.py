"""Constitutional flags: facts about a result that a reader should see even when every rule was followed.

:func:`flags` takes an :class:`~reservation.allotment.result.Allotment` (or, through :func:`flags_of`, any list of
categories over a body's units, e.g. a published list) and returns one row per flag:

- ``above_half`` - SC + ST + OBC above 50 % of the posts of a counting unit (the State for Zila Panchayat chairs
  and Mayors, the district for block pramukhs, the block for gram pradhans, ...): the aggregate ceiling that
  K. Krishna Murthy v. Union of India (2010) 7 SCC 202 and Vikas Kishanrao Gawali v. State of Maharashtra
  (2021) 6 SCC 73 read into Art. 243D(6)/243T(6);
- ``women_below_third`` - women's posts below one-third of all posts of a counting unit (Art. 243D(3), 243T(3)),
  or women of SC / ST below one-third of that group's posts (Art. 243D(2), 243T(2)); OBC women are checked the
  same way against the statutes' "not less than one-third";
- ``fewer_than_two`` - a category given to a unit with fewer than two persons of it (the two-person rule of the
  GO 2021, KP item 2: a reservation for a group nobody, or one person, of which lives in the unit). Where the
  unit's OBC population is not public and was assumed, the row says so.

All arithmetic is in integers (``2 * reserved > posts``; ``3 * women < posts``). An empty table means no flag.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd

from ..law.categories import CODES

__all__ = ["FLAG_COLUMNS", "FLAG_SOURCES", "flags", "flags_of", "flags_record"]

FLAG_COLUMNS = ["flag", "counting_unit", "unit_code", "unit_name_en", "measured", "limit", "detail", "source"]

FLAG_SOURCES = {
    "above_half": "Art. 243D(6)/243T(6) as read in K. Krishna Murthy (2010) 7 SCC 202 and Vikas Kishanrao Gawali "
                  "(2021) 6 SCC 73: SC + ST + OBC not above 50 % of the posts",
    "women_below_third": "Art. 243D(2)-(4), 243T(2)-(4): not less than one-third for women, of all posts and of "
                         "each reserved group's posts",
    "fewer_than_two": "GO 2021 (panchayat reservation order), KP item 2: a unit with fewer than two persons of a "
                      "category is not given it",
}

_RESERVED = ("ST_W", "ST", "SC_W", "SC", "OBC_W", "OBC")
_WOMEN = ("ST_W", "SC_W", "OBC_W", "W")


def _pct(num: int, den: int) -> str:
    if den == 0:
        return "0 %"
    # 100 x num / den to two places, half-up, in integers: floor(10000 num / den + 1/2) (no Fraction per flag)
    hundredths = (num * 20000 + den) // (2 * den)
    return f"{hundredths // 100}.{hundredths % 100:02d} %"


def flags_of(categories, units: pd.DataFrame, parents=None, *, counting_unit: str = "State",
             obc_share: Fraction | None = None) -> pd.DataFrame:
    """The flags of the ``categories`` (one code per row of ``units``: ``unit_code``, ``unit_name_en``, ``pop``,
    ``sc``, ``st``, optionally ``obc``). ``parents``: the counting unit of each row (None: one counting unit,
    named ``counting_unit``). ``obc_share``: the share assumed for units without an ``obc`` figure."""
    cats = np.asarray(categories, dtype=object)
    n = len(cats)
    par = np.full(n, counting_unit, dtype=object) if parents is None else np.asarray(parents, dtype=object)
    rows = []
    # per counting unit, the posts of each category at once (no loop over units: 732,000 seats in a fraction of a
    # second); only the counting units that raise a flag are turned into rows
    pid, labels = pd.factorize(pd.Series(par), sort=True)
    cid = pd.Categorical(cats, categories=list(CODES)).codes
    tally_all = np.bincount(pid * len(CODES) + cid, minlength=len(labels) * len(CODES)).reshape(-1, len(CODES))
    col = {c: tally_all[:, i] for i, c in enumerate(CODES)}
    posts_all = tally_all.sum(axis=1)
    reserved_all = sum(col[c] for c in _RESERVED)
    women_all = sum(col[c] for c in _WOMEN)
    group_flag = np.zeros(len(labels), dtype=bool)
    for grp in ("SC", "ST", "OBC"):
        k = col[grp] + col[f"{grp}_W"]
        group_flag |= (k > 0) & (3 * col[f"{grp}_W"] < k)
    flagged = np.flatnonzero((2 * reserved_all > posts_all) | (3 * women_all < posts_all) | group_flag)
    for j, label, counts in zip(flagged.tolist(), list(labels[flagged]), tally_all[flagged].tolist()):
        posts = int(posts_all[j])
        tally = dict(zip(CODES, counts))
        reserved = sum(tally[c] for c in _RESERVED)
        if 2 * reserved > posts:
            rows.append({"flag": "above_half", "counting_unit": label, "unit_code": None, "unit_name_en": "",
                         "measured": f"{reserved} of {posts} = {_pct(reserved, posts)}", "limit": "50 %",
                         "detail": f"SC {tally['SC'] + tally['SC_W']}, ST {tally['ST'] + tally['ST_W']}, OBC "
                                   f"{tally['OBC'] + tally['OBC_W']}: {reserved} reserved posts of {posts}",
                         "source": FLAG_SOURCES["above_half"]})
        women = sum(tally[c] for c in _WOMEN)
        if 3 * women < posts:
            rows.append({"flag": "women_below_third", "counting_unit": label, "unit_code": None, "unit_name_en": "",
                         "measured": f"{women} of {posts} = {_pct(women, posts)}", "limit": "one-third",
                         "detail": f"women's posts in all: {women} of {posts}",
                         "source": FLAG_SOURCES["women_below_third"]})
        for grp in ("SC", "ST", "OBC"):
            k, kw = tally[grp] + tally[f"{grp}_W"], tally[f"{grp}_W"]
            if k and 3 * kw < k:
                rows.append({"flag": "women_below_third", "counting_unit": label, "unit_code": None,
                             "unit_name_en": "", "measured": f"{kw} of {k} = {_pct(kw, k)}", "limit": "one-third",
                             "detail": f"{grp} women: {kw} of the {k} {grp} posts",
                             "source": FLAG_SOURCES["women_below_third"]})
    have_obc = "obc" in units.columns
    pop = units["pop"].to_numpy(dtype=np.int64) if "pop" in units.columns else None
    for col_name, grp in (("sc", "SC"), ("st", "ST"), ("obc", "OBC")):
        held = np.isin(cid, [CODES.index(grp), CODES.index(f"{grp}_W")])     # the codes' numbers: no text compare
        if not held.any():
            continue
        if col_name == "obc" and not have_obc:
            if obc_share is None or pop is None:
                continue
            share = Fraction(obc_share)
            few = held & (pop * share.numerator < 2 * share.denominator)      # pop x share < 2, exactly
            assumed = True
        elif col_name not in units.columns:
            continue
        else:
            few = held & (units[col_name].to_numpy(dtype=np.int64) < 2)
            assumed = False
        for i in np.flatnonzero(few):
            persons = Fraction(int(pop[i])) * Fraction(obc_share) if assumed else Fraction(int(units[col_name].iat[i]))
            rows.append({"flag": "fewer_than_two", "counting_unit": par[i],
                         "unit_code": int(units["unit_code"].iat[i]),
                         "unit_name_en": str(units["unit_name_en"].iat[i]),
                         "measured": f"{float(persons):g} {grp} person(s)" + (" (assumed)" if assumed else ""),
                         "limit": "2", "detail": f"given {cats[i]} with fewer than two {grp} persons",
                         "source": FLAG_SOURCES["fewer_than_two"]})
    return pd.DataFrame(rows, columns=FLAG_COLUMNS)


def flags(allotment) -> pd.DataFrame:
    """The flags of an allotment (:data:`FLAG_COLUMNS`); counting units as the rulebook counts them, the OBC
    share assumed as the run's options (``allotment.options``, an OptionSet) say: never rebuilt from the words
    of ``meta["options"]``."""
    eng = allotment.engine
    parents = None
    if allotment.parent_column is not None:
        parents = np.asarray(eng.parent_labels, dtype=object)[eng.par]
    share = None
    if "obc" not in allotment.units.columns:
        from ..rules.registry import get_rulebook
        rb = get_rulebook(allotment.body)
        if rb.obc_share is not None:                # the run's own OptionSet, typed and checked when it ran
            share = Fraction(rb.obc_share(allotment.options)[0])
    return flags_of(eng.category_codes(), allotment.units, parents, obc_share=share)


def flags_record(allotment) -> list[dict]:
    """The flags as a JSON-ready list (for a result's meta)."""
    df = flags(allotment)
    return [{k: (None if v is None or (isinstance(v, float) and v != v) else
                 (int(v) if isinstance(v, (np.integer,)) else v)) for k, v in r.items()}
            for r in df.to_dict(orient="records")]
