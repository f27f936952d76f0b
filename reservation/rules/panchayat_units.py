"""What the four panchayat-unit bodies share: many units, each counted inside its parent.

The bodies, one module each: :mod:`.gp_pradhan` (gram pradhans, counted in the block), :mod:`.gp_ward` (gram
panchayat wards, in the gram panchayat), :mod:`.kp_ward` (Kshetra Panchayat wards, in the block) and
:mod:`.zp_ward` (Zila Panchayat wards, in the district). Each declares a :class:`UnitBody` (its unit, its parent,
its law) and makes its rulebook with :func:`unit_rulebook`.

Inside each parent: posts = the number of its units; SC and ST posts half-up from the parent's shares, OBC
at most 27 % (integer part by default, A3); women one-third rounded up of each category and of all posts
(per parent, docs/panchayat.md and the Lucknow examples); then the same passes as the chairs (ST, SC, OBC leaving
out ST/SC units, women leaving out all three), descending share of the unit's population, never reserved
first, then not reserved at the last election.

Populations of gram panchayats and wards are not public: the units come from a user file (``--units``):
UTF-8 CSV with ``unit`` (an integer code), ``parent`` (the counting unit), ``pop``, ``sc``, ``st`` and optionally
``obc``, ``name_en``, ``name_hi``, ``district``, ``division``. The gram pradhans alone have shipped units (LGD's
gram panchayats with partial Census figures, :mod:`.gp_units`): without ``--units`` they are used, each block
counted from its own Census figures, with the shipped history; ``--population`` replaces a gram panchayat's figures.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd

from . import gp_units
from .catalogue import CATALOGUE, option, with_default
from .parameters import record_base_years, value
from ..law.categories import CODES
from ..base.errors import InputError, RuleError
from ..inputs.user_files import describe_input
from .keys import outside_people, share, two_persons
from ..inputs.options import Option, OptionSet, _shown
from ..law.quota import OverReserved, QuotaRules, counts_by_parent
from .rulebook import Counts, Group, Rulebook, UnitSet
from ..inputs.units import int_column, read_csv, require_rows
from ..law.arithmetic import ParentSum, Sum
from ..law.quota import counts_table
from ..law.words import UNIT_KINDS_HI, units_word
from ..law.words_counts import Said
from .zp_chair import PANCHAYAT_ORDERS, PANCHAYAT_YEARS, panchayat_obc_share

__all__ = ["UnitBody", "unit_rulebook", "load_units", "unit_counts", "UNIT_OPTIONS"]

@dataclass(frozen=True)
class UnitBody:
    """One panchayat-unit body: its id, titles, what one unit is, the parent it is counted in, and its law
    (``section``: where docs/ explain it)."""

    id: str
    title: str
    title_hi: str
    unit: str
    parent: str
    law: str
    section: str = "docs/panchayat.md"
    shipped: bool = False       # its units are shipped (gram pradhans: LGD's gram panchayats, :mod:`.gp_units`)
    record: str = ""        # the evidence.toml scope of the body's own published record (rotation_history), if any
    law_hi: str = ""        # ``law`` in Hindi (the clause column of ``allot --lang hi``)


_KEEP = ("sc_st_rounding", "obc_cap_rounding", "obc_state_share", "general_women", "category_order",
         "category_women", "rotation_history", "women_history", "rotation_fallback", "tie_break", "lots")
#: The options of every panchayat-unit body: the catalogue's, the OBC cap's evidence of the pradhan lists, and the
#: two-person rule.
UNIT_OPTIONS: dict[str, Option] = {k: CATALOGUE[k] for k in _KEEP}
UNIT_OPTIONS["obc_cap_rounding"] = option("panchayat_units", "obc_cap_rounding", "floor",
                                          dict(CATALOGUE["obc_cap_rounding"].readings))
UNIT_OPTIONS["two_person_rule"] = option("panchayat_units", "two_person_rule", "off",
                                         {"off": "every unit may take any category",
                                   "on": "a unit with fewer than two persons of a category may not take it"})


def load_units(path, parent_column: str = "parent") -> pd.DataFrame:
    """The ``--units`` file -> DataFrame ``unit_code, parent, pop, sc, st[, obc], unit_name_en, unit_name_hi,
    district, division`` sorted by parent and code (validated: integer codes, unique units, pop >= 1,
    sc + st (+ obc) <= pop)."""
    raw = read_csv(path, ["unit", "parent", "pop", "sc", "st"], what="units")
    require_rows(raw, path, "units", "no unit; one row per unit (unit, parent, pop, sc, st) is needed")
    df = pd.DataFrame({"unit_code": int_column(raw, "unit", path), "parent": raw["parent"]})
    for c in ("pop", "sc", "st") + (("obc",) if "obc" in raw.columns else ()):
        df[c] = int_column(raw, c, path)
    df["_row"] = raw["_row"].to_numpy()
    dup = df["unit_code"].duplicated()
    if dup.any():
        i = int(np.flatnonzero(dup.to_numpy())[0])
        raise InputError(f"duplicate unit {df['unit_code'].iat[i]}", file=str(path), row=int(df["_row"].iat[i]),
                         column="unit")
    empty = (df["parent"] == "").to_numpy()
    if empty.any():
        i = int(np.flatnonzero(empty)[0])
        raise InputError("empty parent", file=str(path), row=int(df["_row"].iat[i]), column="parent")
    zero = (df["pop"] < 1).to_numpy()
    if zero.any():
        i = int(np.flatnonzero(zero)[0])
        raise InputError("a unit needs a population of at least 1 to be ranked", file=str(path),
                         row=int(df["_row"].iat[i]), column="pop")
    parts = df["sc"] + df["st"] + (df["obc"] if "obc" in df else 0)
    over = (parts > df["pop"]).to_numpy()
    if over.any():
        i = int(np.flatnonzero(over)[0])
        raise InputError(f"sc + st{' + obc' if 'obc' in df else ''} = {parts.iat[i]} exceeds pop = "
                         f"{df['pop'].iat[i]}", file=str(path), row=int(df["_row"].iat[i]), column="sc")
    for c, src in (("unit_name_en", "name_en"), ("unit_name_hi", "name_hi"), ("district", "district"),
                   ("division", "division")):
        df[c] = raw[src].to_numpy() if src in raw.columns else ""
    if parent_column != "parent":
        if parent_column in raw.columns:
            differ = (raw[parent_column] != "") & (raw[parent_column] != raw["parent"])
            if differ.any():
                i = int(np.flatnonzero(differ.to_numpy())[0])
                raise InputError(f"the {parent_column} column disagrees with the parent ({raw['parent'].iat[i]!r}), "
                                 f"which is the {parent_column} for this body", file=str(path),
                                 row=int(raw["_row"].iat[i]), column=parent_column)
        df = df.drop(columns=[parent_column], errors="ignore").rename(columns={"parent": parent_column})
    df.attrs["path"] = str(path)
    return df.sort_values([parent_column, "unit_code"], kind="stable").reset_index(drop=True)



def _rules(opts: OptionSet) -> QuotaRules:
    """The counting arithmetic of every parent: the GO 2021's roundings, OBC cap and women's fraction."""
    rules_year = PANCHAYAT_YEARS.law[-1]
    return QuotaRules(obc_cap_percent=value("panchayat.obc_cap", rules_year),
                      women_fraction=value("panchayat.women", rules_year),
                      sc_st_rounding=opts["sc_st_rounding"], obc_cap_rounding=opts["obc_cap_rounding"],
                      general_women=opts["general_women"])


def unit_counts(units: pd.DataFrame, opts: OptionSet, parent: str = "parent", obc=None, ids=None,
                labels=None, parent_word: str = "parent", parent_figures: pd.DataFrame | None = None) -> pd.DataFrame:
    """Posts per parent and category (one row per parent; columns ``parent, posts, pop, sc, st, ST_W ... UR``).
    ``obc``: the run's OBC figures (given per unit, or the assumed State share); ``ids``/``labels``: the parent
    number of each unit and the parents' labels, when known. A parent whose ST, SC and OBC offices come to more
    than its posts (e.g. one ward, half its people SC and half ST): RuleError naming it (``parent_word``) and by
    how many. ``parent_figures``: each parent's own ``pop, sc, st`` (index: the labels), counted instead of the sums
    of its units' (the shipped gram panchayats, whose figures are partial: :mod:`.gp_units`)."""
    if ids is None:
        ids, labels = pd.factorize(units[parent], sort=True)
    n = len(labels)
    agg = {"posts": np.bincount(ids, minlength=n)}
    for c in ("pop", "sc", "st"):
        agg[c] = _sum_by(ids, units[c].to_numpy(dtype=np.int64), n)
    index = pd.Index(labels, name="parent")     # once: 58,000 text labels converted once, not per column
    agg = {k: pd.Series(v, index=index) for k, v in agg.items()}
    units_pop = agg["pop"].to_numpy()
    if parent_figures is not None:
        for c in ("pop", "sc", "st"):
            agg[c] = pd.Series(parent_figures[c].to_numpy(dtype=np.int64), index=index)
    if obc is not None and obc.given:
        agg["obc"] = pd.Series(_sum_by(ids, np.asarray(obc.num, dtype=np.int64), n), index=agg["pop"].index)
        obc_num, obc_den = agg["obc"].to_numpy(), units_pop
    else:
        share = opts.fraction("obc_state_share") / 100
        obc_num = np.full(len(agg["posts"]), share.numerator)
        obc_den = np.full(len(agg["posts"]), share.denominator)
    t = pd.DataFrame(agg)
    try:
        c = counts_by_parent(t["posts"].to_numpy(), t["sc"].to_numpy(), t["pop"].to_numpy(), t["st"].to_numpy(),
                             t["pop"].to_numpy(), obc_num, obc_den, _rules(opts))
    except OverReserved as e:
        raise RuleError(f"{parent_word} {_shown(labels[e.index])}: {e.reserved} offices reserved for ST, SC and OBC "
                        f"but {e.posts} post(s) in all: {e.reserved - e.posts} too many") from None
    except ValueError as e:
        raise InputError(f"counts cannot be formed: {e}", file=units.attrs.get("path"), column="pop") from None
    for code in CODES:
        t[code] = c[code]
    t.index.name = "parent"
    return t.reset_index()


def _sum_by(ids: np.ndarray, values: np.ndarray, n: int) -> np.ndarray:
    """Exact integer sums per parent number (contiguous runs: one reduceat)."""
    ids = np.asarray(ids, dtype=np.int64)
    if len(ids) and (ids[1:] >= ids[:-1]).all() and len(np.unique(ids[[0, -1]])) and ids[-1] - ids[0] + 1 == n \
            and ids[0] == 0:
        starts = np.flatnonzero(np.r_[True, ids[1:] != ids[:-1]])
        if len(starts) == n:
            return np.add.reduceat(values, starts)
    out = np.zeros(n, dtype=np.int64)
    np.add.at(out, ids, values)
    return out


def _column(spec: UnitBody) -> str:
    return spec.parent.replace(" ", "_")


def _units_loader(spec: UnitBody):
    def load(units, year, opts) -> UnitSet:
        col = _column(spec)
        described, notes = {}, []
        if units is None and spec.shipped:
            frame = gp_units.shipped_units()
            described["units"] = describe_input(gp_units.FIGURES)
            notes = gp_units.notes(frame)
        elif isinstance(units, pd.DataFrame):
            frame = units.rename(columns={"parent": col}) if "parent" in units and col not in units else units
        else:
            frame = load_units(units, col)
            described["units"] = describe_input(units)
        if units is not None and spec.shipped:
            frame = frame.assign(**{c: frame[c] if c in frame else ("supplied" if c == "figures" else "")
                                    for c in gp_units.SHIPPED_COLUMNS})
        from ..inputs.names import NameIndex
        index = NameIndex.from_frame(frame, kind=spec.unit, en="unit_name_en" if "unit_name_en" in frame else None,
                                     hi="unit_name_hi" if "unit_name_hi" in frame else None)
        return UnitSet(frame, index, notes, described)
    return load


def _supplied(frame: pd.DataFrame, codes) -> pd.DataFrame:
    """The shipped gram panchayats whose figures a user's ``--population`` replaced: ``figures=supplied``."""
    if "figures" not in frame:
        return frame
    hit = frame["unit_code"].isin(list(codes)).to_numpy()
    return frame.assign(figures=np.where(hit, "supplied", frame["figures"]),
                        figures_rule=np.where(hit, "", frame["figures_rule"]))


def _counts(spec: UnitBody):
    law = f"{spec.law} ({spec.section})"

    def counts(ctx) -> Counts:
        col = _column(spec)
        own = gp_units.block_figures(ctx.parent_labels) if spec.shipped and ctx.source is None else None
        t = unit_counts(ctx.units, ctx.opts, col, ctx.obc, ctx.parent_ids, ctx.parent_labels,
                        parent_word=spec.parent, parent_figures=own)
        law_said = Said(law, f"{spec.law_hi or spec.law} ({spec.section})")
        parts = [(c, int(t[c].sum()), ParentSum(len(t), spec.parent), law_said) for c in CODES]
        parts.append(("TOTAL", len(ctx.units), Sum(), ""))
        return Counts(counts_table(parts), t.set_index("parent")[list(CODES)], {"parents": t},
                      state_hi=partial(counts_table, parts, "hi"))
    return counts


def _rotation_clause(base_year: int) -> str:
    """The clause that makes an election a previous one: the 12th Amendment Rules' base year 2015, or another
    base year (given, or the one the published lists of an election held support: docs/ambiguities.md A8)."""
    if base_year == 2015:
        return "12th Amendment Rules 2021 r.2(d): previous election = 2015 and later"
    return f"base year {base_year}: previous elections = {base_year} and later (docs/ambiguities.md A8)"


def _rotation_clause_hi(base_year: int) -> str:
    """:func:`_rotation_clause` in Hindi."""
    if base_year == 2015:
        return "बारहवाँ संशोधन नियमावली 2021, नियम 2(घ): पूर्ववर्ती निर्वाचन = 2015 और उसके बाद के"
    return f"आधार वर्ष {base_year}: पूर्ववर्ती निर्वाचन = {base_year} और उसके बाद के (docs/ambiguities.md A8)"


def _clauses_hi(spec: UnitBody) -> dict:
    """The clause table of a panchayat-unit body in Hindi (the same keys as its English one)."""
    law = f"{spec.law_hi or spec.law} ({spec.section})"
    parent = units_word(spec.parent, 1, "hi")
    clauses = {"ST": f"{law}: अनुसूचित जनजाति अवरोही क्रम में", "SC": f"{law}: अनुसूचित जाति अवरोही क्रम में",
               "OBC": f"{law}: पिछड़े वर्ग अवरोही क्रम में, अनुसूचित जनजाति और अनुसूचित जाति की इकाइयों को छोड़कर",
               "GEN": f"{law}: स्त्रियाँ, अनुसूचित जनजाति, अनुसूचित जाति और पिछड़े वर्ग की इकाइयों को छोड़कर",
               "two_persons": "दो व्यक्तियों का नियम (विकल्प `two_person_rule=on`)",
               "rotation": _rotation_clause_hi,
               "unreserved": f"{law}: {parent} में शेष पद अनारक्षित"}
    for g in ("ST", "SC", "OBC"):
        clauses[f"{g}.women"] = clauses[g] + "; स्त्रियाँ ऊपर से"
    return clauses


def _options(spec: UnitBody) -> dict[str, Option]:
    """The options of a body: :data:`UNIT_OPTIONS`, with the evidence of its own record for rotation_history."""
    if not spec.record:
        return UNIT_OPTIONS
    return {**UNIT_OPTIONS, "rotation_history": with_default(spec.record, "rotation_history", "since_base")}


def unit_rulebook(spec: UnitBody) -> Rulebook:
    """The rulebook of one panchayat-unit body: posts counted inside each parent, then the chairs' passes."""
    law = f"{spec.law} ({spec.section})"
    where = f"the {spec.unit}'s population"
    where_hi = f"{UNIT_KINDS_HI[spec.unit]} की जनसंख्या"
    two = "fewer than two persons of the category"
    two_hi = "उस श्रेणी के दो से कम व्यक्ति"
    clauses = {"ST": f"{law}: ST in descending order", "SC": f"{law}: SC in descending order",
               "OBC": f"{law}: OBC in descending order, leaving out ST and SC units",
               "GEN": f"{law}: women, leaving out ST/SC/OBC units",
               "two_persons": "two-person rule (option two_person_rule=on)",
               "rotation": _rotation_clause,
               "unreserved": f"{law}: the posts left in the {spec.parent} are unreserved"}
    for g in ("ST", "SC", "OBC"):
        clauses[f"{g}.women"] = clauses[g] + "; women from the top"
    groups = {
        "ST": Group(share("st"), f"ST share of {where}", "ST", "ST.women",
                    label_hi=f"{where_hi} में अनुसूचित जनजाति का अनुपात", eligible=two_persons("st"),
                    clause_eligible="two_persons", eligible_reason=two, eligible_reason_hi=two_hi),
        "SC": Group(share("sc"), f"SC share of {where}", "SC", "SC.women",
                    label_hi=f"{where_hi} में अनुसूचित जाति का अनुपात", eligible=two_persons("sc"),
                    clause_eligible="two_persons", eligible_reason=two, eligible_reason_hi=two_hi),
        "OBC": Group(share("obc"), f"OBC share of {where}", "OBC", "OBC.women",
                    label_hi=f"{where_hi} में अन्य पिछड़ा वर्ग का अनुपात", eligible=two_persons("obc"),
                     clause_eligible="two_persons", eligible_reason=two, note="obc", eligible_reason_hi=two_hi),
        "GEN": Group(outside_people, f"{where} outside SC/ST/OBC", "GEN", note="obc",
                     label_hi=f"अनुसूचित जाति/जनजाति/अन्य पिछड़ा वर्ग से बाहर की {where_hi}"),
    }
    col = _column(spec)
    return Rulebook(
        id=spec.id, title=spec.title, title_hi=spec.title_hi, unit_kind=spec.unit, parent=col,
        parent_word=spec.parent, years=PANCHAYAT_YEARS, options=_options(spec), load_units=_units_loader(spec),
        counts=_counts(spec), groups=groups, pass_order=lambda opts: PANCHAYAT_ORDERS[opts["category_order"]],
        clauses=clauses, clauses_hi=_clauses_hi(spec), units_file="optional" if spec.shipped else "required", accepts_population=spec.shipped,
        history_with_units=not spec.shipped, default_history=str(gp_units.HISTORY) if spec.shipped else "",
        history_table=gp_units.shipped_history if spec.shipped else None,
        population_applied=_supplied if spec.shipped else None,
        default_base_year=value("panchayat.base_year", PANCHAYAT_YEARS.law[-1]),
        record_base_years=record_base_years(spec.record, "rotation_history") if spec.record else {},
        obc_note=("OBC population not supplied (no 'obc' column in the units file): every parent and unit is "
                  "assumed at the State share {share} %, so OBC posts are capped at 27 % and the OBC order falls "
                  "to the tie-break rule ({tie_break}) and rotation"),
        obc_share=panchayat_obc_share, eligibility=lambda opts: opts["two_person_rule"] == "on",
        columns=((col,) if col not in ("district", "division") else ()) + (gp_units.SHIPPED_COLUMNS if spec.shipped
                                                                         else ()))
