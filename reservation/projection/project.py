"""What will my unit be at the next election? A projection with honest uncertainty (issue 11).

``project(body, year, ...)`` computes the election of ``year`` under the current rules with every published
history (for Zila Panchayat chairs in 2026: the 2015 and the final 2021 lists; for other bodies whatever history
is given). The rules decide everything except where they read data that is not public: OBC population by
district, block or body. There the projection does not pretend:

1. **Prior.** Each unit's OBC population is drawn from a stated prior (:class:`reservation.projection.priors.ObcPrior`: a
   Beta share with the State share as mean and ``obc_sd`` percentage points of spread, truncated so that
   ``sc + st + obc <= pop``), written into the result's meta.
2. **Constraint.** Each sample must reproduce the published past lists under the rules: for every history year
   that has an earlier election in the history (2021 for 2026; none for a backtest of 2021 from 2015 alone), that
   election is recomputed with the sampled OBC figures and must give the published list
   (:func:`reservation.projection.orders.past_list_constraints` says how the list's public part is pinned and which
   OBC orders give its OBC and women's lists). The samples come from the prior restricted to those orders, by a
   Gibbs sampler (exact intervals; :class:`reservation.projection.priors.ConstrainedSampler`) after ``burn_in`` sweeps,
   ``thin`` sweeps apart. **Every sample is checked**: it meets the constraints (exact integer comparisons), and
   the first and every ``check_every``-th sample (default 10; 1 in the tests) recompute each past election with
   the engine and must give the published list. The sampled OBC shares forget their starting point within about
   ten sweeps (integrated autocorrelation time at most 9 sweeps on the 2021 Zila Panchayat list): 200 sweeps of
   burn-in and 5 between samples.
3. **Projection.** Each sample's OBC figures are given to the engine for ``year`` (exactly as ``--population``
   with an ``obc`` column would); per unit, the share of samples giving each category is its probability.
   Every sample holds the category counts of the rules, so the probabilities of a category sum to its count.
4. **Certainty.** ``certain`` is a proof, not a vote of the samples:
   :func:`reservation.allotment.certainty.certain_units` shows that the unit's category is the same for *every* OBC
   population (it ignores what the past lists reveal, so it is conservative). The meta also lists the units on
   which all samples agree without such a proof.

Exact arithmetic stays exact in each sampled run (OBC figures are whole persons; shares are compared as
integers). Same inputs and seed, same outputs, byte for byte (numpy ``Generator`` seeded from ``seed``; no global
random state).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import pandas as pd

from ..law.categories import CODES, COLOURS, label
from ..law.words import word
from ..engine.passes import CODE_INDEX
from ..engine.steps import Effect
from ..base.errors import InputError
from ..allotment.pipeline import Prepared, prepare
from .priors import DEFAULT_OBC_SD, ObcPrior
from .draws import sample, start
from .orders import PastList, certain_units, check_past_counts, pass_kinds, past_list_constraints

__all__ = ["project", "Projection", "PROB_COLUMNS", "TABLE_COLUMNS", "score", "projection_map",
           "projection_static_map", "summary", "sums_check", "likely_table", "to_json", "CONSTRAINTS",
           "PUBLIC_CODES"]

PROB_COLUMNS = [f"P_{c}" for c in CODES]
TABLE_COLUMNS = ["unit_code", "unit_name_en", "unit_name_hi", *PROB_COLUMNS, "most_likely", "certain"]
#: ``constraint`` values: reproduce every published past list, or ignore what they reveal (rotation still uses them).
from .defaults import CONSTRAINTS  # noqa: E402
#: Codes of the groups ranked by public shares: pinned to the published list when it is recomputed.
PUBLIC_CODES = ("ST_W", "ST", "SC_W", "SC")
CERTAIN_METHOD = ("proof: the unit's category is the same for every OBC population under these rules, options and "
                  "history (each pass followed with what is known for sure; the past lists are not used, so a unit "
                  "not proved certain may still never vary)")


@dataclass
class Projection:
    """The result of :func:`project`. ``table``: one row per unit (:data:`TABLE_COLUMNS`); ``tallies``: samples
    per unit and category (int, units x 8, CODES order); ``meta``: what was done and assumed; ``units``: the
    units (as the pipeline ordered them); ``categories``: every sample's categories (samples x units, CODES index)
    when asked for (``keep_samples``), else None; ``obc``: the sampled OBC persons likewise."""

    body: str
    year: int
    table: pd.DataFrame
    tallies: np.ndarray
    meta: dict
    units: pd.DataFrame
    certain: np.ndarray
    categories: np.ndarray | None = None
    obc: np.ndarray | None = None
    past_lists: list = field(default_factory=list)
    #: ``meta["assumptions"]`` in Hindi where the run rendered one from codes (the OBC note), else "" (English)
    assumptions_hi: list = field(default_factory=list)

    @property
    def samples(self) -> int:
        return int(self.meta["samples"])

    def probabilities(self) -> pd.DataFrame:
        """The probabilities as exact Fractions (index: unit_code, columns: CODES)."""
        n = self.samples
        return pd.DataFrame([[Fraction(int(k), n) for k in row] for row in self.tallies],
                            index=self.table["unit_code"].to_numpy(), columns=list(CODES))


def _history_table(prepared: Prepared) -> pd.DataFrame:
    h = prepared.history
    return h[["unit_code", "year", "category"]].copy()


def _constraint_years(prepared: Prepared) -> list[int]:
    """History years that can be recomputed from earlier history years (both at or after the base year)."""
    years = sorted(int(y) for y in prepared.history["year"].unique())
    base, year = prepared.base, prepared.year
    usable = [y for y in years if base <= y < year]
    return [y for y in usable if any(base <= x < y for x in usable) and prepared.rb.years.computes(y)]


def _published(prepared: Prepared, year: int) -> np.ndarray:
    h = prepared.history
    rows = h[h["year"] == year]
    at = pd.Series(rows["category"].map(CODE_INDEX).to_numpy(), index=rows["unit_code"].to_numpy())
    return at.reindex(prepared.frame["unit_code"].to_numpy()).fillna(-1).to_numpy(dtype=np.int64)


def _pins_frame(prepared: Prepared, pins: dict, year: int) -> pd.DataFrame:
    pos = np.array(sorted(pins), dtype=np.int64)
    return pd.DataFrame({"unit_code": prepared.frame["unit_code"].to_numpy()[pos],
                         "category": [CODES[pins[int(p)]] for p in pos],
                         "source": f"published {year} list", "_row": np.arange(2, len(pos) + 2)})


def _past_list(kw: dict, target: Prepared, year: int, notes: list) -> tuple[Prepared, PastList] | None:
    """The recomputation of a past election (its published list pinned where its order is public) and what the
    list reveals; None when the list is incomplete (said in ``notes``)."""
    published = _published(target, year)
    if (published < 0).any():
        missing = int((published < 0).sum())
        notes.append(f"the {year} list misses {missing} {target.rb.unit_kind}(s): it is used as rotation history "
                     f"but not as a constraint")
        return None
    plain = prepare(target.body, year, **kw)
    kinds = pass_kinds(plain)
    run0 = plain.run()
    check_past_counts(plain, run0.engine, published, year)    # else the pins below refuse it, less clearly
    pins = {int(p): int(published[p]) for p in np.flatnonzero(np.isin(published, [CODE_INDEX[c] for c in
                                                                                     PUBLIC_CODES]))}
    if run0.engine.settings.division is not None and run0.engine.settings.division.effect is Effect.UNRESERVED:
        for rec, kind in zip(run0.engine.records, kinds):
            if kind.public:
                for v in rec.barred:
                    if published[v] == CODE_INDEX["UR"] and v not in pins:
                        pins[int(v)] = CODE_INDEX["UR"]
                        notes.append(f"{year}: {plain.frame['unit_name_en'].iat[v]} pinned unreserved (freed by the "
                                     f"division rule in the {rec.spec.name} pass, unreserved in the list)")
    pc = prepare(target.body, year, **{**kw, "pins": _pins_frame(plain, pins, year)})
    first = pc.run()
    past = past_list_constraints(pc, first.engine, kinds, published, year, pins)
    return pc, past


def _progress(total: int, progress, desc: str):
    from tqdm.auto import tqdm
    show = sys.stderr.isatty() if progress is None else bool(progress)
    return tqdm(total=total, disable=not show, file=sys.stderr, desc=desc, leave=False)


def project(body: str, year: int, *, units=None, history=None, population=None, pins=None, options=(),
            base_year: int | None = None, samples: int = 1000, seed: int = 0, obc_sd=DEFAULT_OBC_SD,
            constraint: str = "past_lists", burn_in: int = 200, thin: int = 5, check_every: int = 10,
            progress=None, keep_samples: bool = False, jobs: int = 1) -> Projection:
    """Project ``body`` at the election of ``year`` (see the module docstring).

    Inputs and options as :func:`reservation.allotment.pipeline.allot` (``history=None``: the shipped history). ``samples``
    OBC populations are drawn (``seed`` seeds a numpy Generator); ``obc_sd``: the prior's spread in percentage
    points (a decimal string or number); ``constraint``: ``past_lists`` (each sample reproduces every published
    past list) or ``none``; ``burn_in``, ``thin``: Gibbs sweeps before the first sample and between samples (used
    only when a past list constrains); every sample meets the constraints (exact integer check), and the first and
    every ``check_every``-th sample also recompute each past list with the engine (1 = every sample);
    ``progress``: a progress bar on stderr (None: when stderr is a terminal); ``jobs``: processes that run the
    engine on the samples (forked; the same figures whatever their number).
    Bad input raises InputError; rules that cannot apply (including a past list no OBC figures can give)
    RuleError."""
    from ..inputs.limits import check_count
    sd = _checked_arguments(samples, seed, burn_in, thin, check_every, constraint, obc_sd)
    if isinstance(jobs, str):
        raise InputError("--jobs must be a whole number (got text)", option="--jobs")
    check_count("jobs", jobs)
    kw = dict(units=units, history=history, population=population, options=options, base_year=base_year)
    target = prepare(body, year, pins=pins, **kw)
    kw["history"] = _history_table(target)
    kw["options"] = target.opts
    if target.base is not None:
        kw["base_year"] = target.base
    rng = np.random.default_rng(int(seed))
    frame = target.frame
    pop = frame["pop"].to_numpy(dtype=np.int64)
    room = pop - frame["sc"].to_numpy(dtype=np.int64) - frame["st"].to_numpy(dtype=np.int64)
    kinds = pass_kinds(target)
    notes: list[str] = []
    given = "obc" in frame.columns
    share, share_text = target.rb.obc_share(target.opts) if target.rb.obc_share else (None, "")
    prior = None if given else ObcPrior(Fraction(share), sd / 100)
    years = _constraint_years(target)
    pasts = _past_lists(kw, target, years, given, constraint, notes)
    sampler, x, alternatives = start(prior, pasts, pop, room, frame)
    bar = _progress(samples + (burn_in if sampler else 0), progress, f"{body} {year}")
    try:
        draws = sample(target, prior, sampler, x, pasts, rng, pop, room, bar, given=given, samples=samples,
                        burn_in=burn_in, thin=thin, check_every=check_every, keep_samples=keep_samples,
                        jobs=jobs)
    finally:
        bar.close()
    tallies = draws.tallies
    certain, agree = _certainty(target, draws.first_result, kinds, given, tallies, samples)
    table = _table(frame, tallies, samples, certain)
    low, high = draws.low, draws.high
    varies = {c: [int(low[j]), int(high[j])] for j, c in enumerate(CODES) if low[j] != high[j]}
    meta = _meta(target, draws.first_result, prior, share_text, sd, samples, seed, constraint, years, pasts, notes,
                 alternatives, sampler, burn_in, thin, draws.sweeps, draws.checked, certain, agree, given, varies,
                 tallies)
    hi = [t if ok else "" for t, ok in draws.first_result.assumptions_in("hi")]
    hi += [""] * (len(meta["assumptions"]) - len(hi) - (prior is not None))
    hi += [word("project.sampled", "hi", prior=prior.describe("hi"))] if prior is not None else []
    return Projection(body, year, table, tallies, meta, frame, certain, draws.kept, draws.kept_obc,
                      [p for _, p in pasts], hi)


def _checked_arguments(samples, seed, burn_in, thin, check_every, constraint, obc_sd) -> Fraction:
    """Refuse a count out of its bounds (:mod:`reservation.inputs.limits`) or given as text, an unknown
    ``constraint``; returns the prior's spread ``obc_sd`` as an exact Fraction."""
    from ..inputs.limits import check_count, check_sweeps
    for name, v in (("samples", samples), ("seed", seed), ("burn_in", burn_in), ("thin", thin),
                    ("check_every", check_every)):
        if isinstance(v, str):          # the library takes numbers; text is the command line's to parse
            raise InputError(f"--{name.replace('_', '-')} must be a whole number (got text)",
                             option="--" + name.replace("_", "-"))
        check_count(name, v)            # the same bounds as the command line and the notebooks (limits.py)
    check_sweeps(samples, burn_in, thin)
    if constraint not in CONSTRAINTS:
        raise InputError(f"constraint {constraint!r} is not one of {', '.join(CONSTRAINTS)}", option="--constraint")
    try:
        return Fraction(str(obc_sd))
    except (ValueError, ZeroDivisionError):
        raise InputError(f"--obc-sd {obc_sd!r} is not a decimal number", option="--obc-sd") from None


def _past_lists(kw: dict, target: Prepared, years: list[int], given: bool, constraint: str,
                notes: list) -> list[tuple[Prepared, PastList]]:
    """The past elections that constrain the samples, each recomputed with its published list pinned where its
    order is public, and what each list reveals (none when the OBC population is given or ``constraint=none``:
    said in ``notes``)."""
    pasts: list[tuple[Prepared, PastList]] = []
    if given:
        notes.append("the OBC population was given: nothing is unknown, every sample is the same run")
    elif constraint == "none":
        if years:
            notes.append(f"constraint=none: the published {', '.join(map(str, years))} list(s) count as rotation "
                         f"history only; what they reveal about the OBC order is ignored")
    else:
        for y in years:
            got = _past_list(kw, target, y, notes)
            if got is not None:
                pasts.append(got)
    return pasts


def _certainty(target: Prepared, first_result, kinds, given: bool, tallies: np.ndarray, samples: int):
    """The units proved certain (:func:`reservation.allotment.certainty.certain_units`; every unit when the OBC
    population is given) and the units on which all samples agree; a unit proved certain that varies between
    the samples is a bug, and stops."""
    certain, certain_cat = certain_units(target, first_result.engine, kinds)
    if given:
        certain[:] = True
        certain_cat = first_result.engine.category.copy()
    agree = (tallies == samples).any(axis=1)
    lone = tallies.argmax(axis=1)
    if (certain & ((~agree) | (lone != certain_cat))).any():
        bad = np.flatnonzero(certain & ((~agree) | (lone != certain_cat)))
        raise AssertionError(f"units proved certain vary between samples: "
                             f"{target.frame['unit_name_en'].iat[bad[0]]}")
    return certain, agree


def _table(frame: pd.DataFrame, tallies: np.ndarray, samples: int, certain: np.ndarray) -> pd.DataFrame:
    out = pd.DataFrame({"unit_code": frame["unit_code"].to_numpy(dtype=np.int64),
                        "unit_name_en": frame["unit_name_en"].astype(str).to_numpy(),
                        "unit_name_hi": frame["unit_name_hi"].astype(str).to_numpy()})
    for j, c in enumerate(PROB_COLUMNS):
        out[c] = tallies[:, j] / samples
    out["most_likely"] = np.asarray(CODES, dtype=object)[tallies.argmax(axis=1)]
    out["certain"] = certain
    return out[TABLE_COLUMNS]


def _meta(target, res, prior, share_text, sd, samples, seed, constraint, years, pasts, notes, alternatives, sampler,
          burn_in, thin, sweeps, checked, certain, agree, given, varies, tallies) -> dict:
    m = dict(res.meta)
    frame = target.frame
    m["projection"] = {
        "samples": samples, "seed": int(seed),
        "prior": prior.describe() if prior is not None else "none: the OBC population was given",
        "obc_state_share": share_text, "obc_sd": f"{float(sd):g}",
        "obc_sd_basis": ("assumption (option --obc-sd): the sample standard deviation of the 2023 Dedicated "
                         "Commission's regional urban OBC shares (Purvanchal 42.19 %, central 27.55 %, western "
                         "37.53 %) is 7.48 points; no district, block or body OBC share is public"),
        "constraint": constraint,
        "constraint_years": [p.year for _, p in pasts],
        "history_years_that_could_constrain": years,
        "pinned_in_past_lists": {str(p.year): len(p.pins) for _, p in pasts},
        "order_constraints": [c.what for _, p in pasts for c in p.constraints],
        "second_ways": alternatives,
        "sampler": ("independent draws from the prior" if sampler is None else
                    f"Gibbs on the prior restricted to the OBC orders that reproduce the past list(s): "
                    f"{len(sampler.blocks)} blocks of units, {len(sampler.free)} units unconstrained; burn-in "
                    f"{burn_in} sweeps, {thin} sweeps between samples ({sweeps} sweeps); every sample meets the "
                    f"constraints (exact integer check) and {checked} samples recomputed each past list with the "
                    f"engine and reproduced it; "
                    + (f"Metropolis acceptance {sampler.accepted} of {sampler.proposals} block proposals "
                       f"({sampler.accepted / max(sampler.proposals, 1):.3f})" if sampler.proposals else
                       "acceptance 1 (exact Gibbs: no rejection step)")),
        "certain": CERTAIN_METHOD,
        "certain_units": int(certain.sum()),
        "all_samples_agree_not_proved": [str(x) for x in frame["unit_name_en"].to_numpy()[agree & ~certain]],
        "notes": notes,
        "counts_vary": varies,
    }
    if varies:      # counts that read the OBC figures (a district's OBC and women's posts of block pramukhs)
        m["counts"] = {c: str(Fraction(int(tallies[:, j].sum()), samples)) for j, c in enumerate(CODES)}
        notes.append("the counts depend on the OBC figures and vary between samples (" + ", ".join(
            f"{c} {a}-{b}" for c, (a, b) in varies.items()) + "): meta counts are their means, and the "
                     "probabilities of a category add up to its mean count")
    m["samples"] = samples
    m["assumptions"] = list(m["assumptions"]) + notes + (
        [word("project.sampled", "en", prior=prior.describe())] if prior else [])
    return m


# -- what a notebook shows ----------------------------------------------------------------------------------------

def summary(projection: Projection) -> pd.DataFrame:
    """The projection's method in one small table (``item``, ``value``): whether the year's own list is known (a
    backtest), prior, constraint, sampler, certainty."""
    pm = projection.meta["projection"]
    backtest = projection.year in {int(y) for y in projection.meta.get("history_not_counted", [])}
    rows = [("body, year", f"{projection.body}, {projection.year}"),
            (f"the published {projection.year} list",
             "in the history: this is a backtest; the projection does not use that list (score it with "
             "reservation.projection.project.score)" if backtest else "not in the history: a projection"),
            ("history years (rotation)", ", ".join(map(str, projection.meta["history_years"])) or "none"),
            ("samples, seed", f"{pm['samples']}, {pm['seed']}"),
            ("prior", pm["prior"]), ("spread", pm["obc_sd_basis"]),
            ("constrained by the published list(s) of", ", ".join(map(str, pm["constraint_years"])) or "none"),
            ("order constraints", "; ".join(pm["order_constraints"]) or "none"),
            ("second ways (division rule)", "; ".join(pm["second_ways"]) or "none"),
            ("sampler", pm["sampler"]), ("certain", f"{pm['certain_units']} units: {pm['certain']}"),
            ("certain units", ", ".join(projection.table.loc[projection.table["certain"], "unit_name_en"]) or "none"),
            ("all samples agree, not proved", ", ".join(pm["all_samples_agree_not_proved"]) or "none")]
    return pd.DataFrame(rows, columns=["item", "value"])


def sums_check(projection: Projection) -> pd.DataFrame:
    """Per category: the count of the rules (its mean over the samples where the counts read the OBC figures) and
    the sum of the units' probabilities (exact), which must be equal."""
    counts = projection.meta["counts"]
    n = projection.samples
    rows = []
    for j, c in enumerate(CODES):
        total = Fraction(int(projection.tallies[:, j].sum()), n)
        want = Fraction(str(counts[c]))
        rows.append({"category": c, "count": str(want), "sum_of_probabilities": str(total), "equal": total == want})
    return pd.DataFrame(rows)


def likely_table(projection: Projection, lang: str = "en") -> pd.DataFrame:
    """The units by most likely category (in the GO's order), then by its probability (highest first): name, the
    most likely category in words, its probability (%), certain, and the probabilities of every category that
    has one (%)."""
    t = projection.table
    p = t[PROB_COLUMNS].max(axis=1)
    order = np.lexsort((t["unit_code"].to_numpy(), -p.to_numpy(),
                        t["most_likely"].map({c: i for i, c in enumerate(CODES)}).to_numpy()))
    name = "unit_name_hi" if lang == "hi" else "unit_name_en"
    out = pd.DataFrame({"unit": t[name].to_numpy()[order],
                        "most_likely": [label(c, lang) for c in t["most_likely"].to_numpy()[order]],
                        "probability_%": (p.to_numpy()[order] * 100).round(1),
                        "certain": t["certain"].to_numpy()[order]})
    for c in PROB_COLUMNS:
        if t[c].any():
            out[c.replace("P_", "") + "_%"] = (t[c].to_numpy()[order] * 100).round(1)
    return out


# -- scoring ----------------------------------------------------------------------------------------------------

def score(projection: Projection, actual) -> dict:
    """Score a projection against the actual list (``actual``: unit_code -> category code, a dict or Series).

    ``accuracy``: the share of units whose most likely category is the actual one. ``brier``: the multi-class
    Brier score, the mean over units of ``sum over the eight categories of (p_c - o_c)**2`` with ``o_c`` = 1 for
    the actual category and 0 otherwise (0 = certain and right; 2 = certain and wrong; a uniform guess over the
    eight categories scores 0.875). Units missing from ``actual`` are left out (``units`` says how many were
    scored). Exact Fractions, reported as floats too."""
    actual = pd.Series(actual)
    t = projection.table
    idx = [i for i, u in enumerate(t["unit_code"]) if int(u) in actual.index]
    if not idx:
        raise InputError("no unit of the projection is in the actual list")
    n = projection.samples
    right, brier = 0, Fraction(0)
    for i in idx:
        a = CODE_INDEX[str(actual[int(t["unit_code"].iat[i])])]
        row = projection.tallies[i]
        right += int(t["most_likely"].iat[i] == CODES[a])
        brier += sum(Fraction(int(k), n) ** 2 for k in row) - 2 * Fraction(int(row[a]), n) + 1
    acc = Fraction(right, len(idx))
    b = brier / len(idx)
    return {"units": len(idx), "right": right, "accuracy": acc, "brier": b, "accuracy_float": float(acc),
            "brier_float": float(b)}


# -- maps -------------------------------------------------------------------------------------------------------

def _map_table(projection: Projection, lang: str) -> pd.DataFrame:
    if projection.meta.get("body") not in ("zp-chair",) and projection.units["unit_code"].duplicated().any():
        raise InputError("a projection map needs one unit per district")
    t = projection.table.copy()
    p = t[PROB_COLUMNS].max(axis=1)
    t["category"] = t["most_likely"]
    for c in ("district", "division", "division_hi"):
        if c in projection.units:
            t[c] = projection.units[c].to_numpy()
    word = {"en": ("probability", "certain"), "hi": ("संभावना", "निश्चित")}[lang]
    t["reason"] = [f"{label(c, lang)}: {word[0]} {q * 100:.1f} %" + (f" ({word[1]})" if k else "")
                   for c, q, k in zip(t["most_likely"], p, t["certain"])]
    t["_p"] = p
    # the workbench maps' status (views.maps.certainty): a unit not proved certain depends on the OBC figures
    t["status"] = np.where(t["certain"].to_numpy(dtype=bool), "determined", "depends_obc")
    return t


#: The probabilities the projection maps' key shows (a sample of the shading).
SHADE_SAMPLES = (1.0, 0.7, 0.4)
#: The colour of the key's samples (the map itself uses each category's own colour).
SHADE_KEY_COLOUR = "#404040"


def _opacity(q: float, certain: bool) -> float:
    """Fill opacity of a district in the interactive map: 1 when certain, else 0.15 + 0.85 x probability."""
    return 1.0 if certain else 0.15 + 0.85 * float(q)


def projection_map(projection: Projection, lang: str = "en", division=None, title: str | None = None,
                   height: int = 650):
    """Interactive map (plotly, offline): each district in the colour of its most likely category, the more
    opaque the likelier (opacity = 0.15 + 0.85 x probability; certain units fully opaque), with a key of the
    shading (:data:`SHADE_SAMPLES`). Drawn by :func:`reservation.views.division_map` (the workbench's map) from a
    table whose ``status`` is ``determined`` for the units proved certain and ``depends_obc`` for the others, so
    the units that are not certain carry the workbench's mark of an undetermined category (a dot, keyed); the
    hover gives the probability. Units that are not districts (blocks, urban bodies) get the workbench's map of
    their most likely categories as it draws them (counted per district with the share not certain, or as
    points), without the shading."""
    from ..views import division_map
    from ..views.maps.style import hover_text
    t = _map_table(projection, lang)
    view = division_map(t, division=division, lang=lang, title=title, height=height, body=projection.body)
    fig = view.figure
    alpha = {str(int(u)): _opacity(q, k) for u, q, k in zip(t["unit_code"], t["_p"], t["certain"])}
    shaded = False
    for tr in fig.data:
        if tr.type == "choroplethmap" and tr.locations is not None and all(str(x) in alpha for x in tr.locations):
            if len(tr.locations) and tr.name in {label(c, lang) for c in CODES}:
                tr.marker.opacity = [round(alpha[str(x)], 3) for x in tr.locations]
                shaded = True
    if shaded:
        import plotly.graph_objects as go
        head = hover_text([_words("map.shade.title", lang)])[0]
        for q in SHADE_SAMPLES:
            fig.add_trace(go.Scattermap(
                lon=[None], lat=[None], mode="markers", hoverinfo="skip", legendgroup="shade",
                legendgrouptitle={"text": head} if q == SHADE_SAMPLES[0] else None,
                name=hover_text([_words("map.shade.sample", lang, p=f"{q * 100:g}")])[0],
                marker={"color": SHADE_KEY_COLOUR, "size": 12, "opacity": round(_opacity(q, False), 3)}))
    return fig


def _words(key: str, lang: str, **values) -> str:
    from ..law.words import word
    return word(key, lang, **values)


def projection_static_map(projection: Projection, lang: str = "en", title: str | None = None):
    """The static counterpart (matplotlib Figure, no browser): districts in the colour of the most likely
    category, the colour mixed with white as the probability falls (white at probability 0); the units not proved
    certain hatched as every map of the workbench marks a category that depends on unpublished OBC figures;
    division boundaries dark. Two keys: the categories (with the hatch), and the shading with sample
    probabilities (:data:`SHADE_SAMPLES`). Boundaries come from the workbench's map module."""
    import matplotlib
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch
    from ..views import maps as _maps
    from ..views.maps.certainty import HATCH_COLOUR, HATCH_WIDTH, HATCHES, overlay_hatches, shade
    rc = _maps.font_rc(lang)
    t = _map_table(projection, lang)
    b = _maps.district_boundaries().merge(t[["unit_code", "most_likely", "_p", "certain", "status"]],
                                          on="unit_code", how="inner")
    with matplotlib.rc_context(rc):
        fig = Figure(figsize=(10, 8.5), layout="constrained")
        ax = fig.add_subplot()
        ax.set_axis_off()
        ax.set_aspect(1.1)
        b.plot(ax=ax, color=[shade(COLOURS[c], float(q)) for c, q in zip(b["most_likely"], b["_p"])],
               edgecolor="#9e9e9e", linewidth=0.3)
        overlay_hatches(ax, b, b["status"])
        _maps.division_boundaries().boundary.plot(ax=ax, color="#303030", linewidth=1.0)
        present = [c for c in CODES if (b["most_likely"] == c).any()]
        handles = [Patch(facecolor=COLOURS[c], edgecolor="#808080", label=label(c, lang)) for c in present]
        n_unsure = int((~b["certain"]).sum())
        if n_unsure:
            handles.append(Patch(facecolor="#ffffff", edgecolor=HATCH_COLOUR, hatch=HATCHES["depends_obc"],
                                 hatch_linewidth=HATCH_WIDTH,
                                 label=f"{_words('map.shade.uncertain', lang)} ({n_unsure})"))
        cats = ax.legend(handles=handles, loc="upper right", fontsize=8, framealpha=0.95,
                         title=_words("map.category", lang), title_fontsize=8)
        ax.add_artist(cats)
        key = [Patch(facecolor=shade(SHADE_KEY_COLOUR, q), edgecolor="#808080",
                     label=_words("map.shade.sample", lang, p=f"{q * 100:g}")) for q in SHADE_SAMPLES]
        ax.legend(handles=key, loc="lower left", fontsize=8, framealpha=0.95, title_fontsize=8,
                  title=_words("map.shade.title", lang) + "\n" + _words("map.shade.note", lang))
        if title:
            ax.set_title(title, fontsize=13)
    fig._reservation_rc = rc
    return fig


def to_json(projection: Projection) -> str:
    """The table and the meta as one JSON document (sorted keys, no timestamps)."""
    rows = projection.table.to_dict(orient="records")
    for r in rows:
        r["unit_code"] = int(r["unit_code"])
        r["certain"] = bool(r["certain"])
        for c in PROB_COLUMNS:
            r[c] = float(r[c])
    return json.dumps({"meta": projection.meta, "rows": rows}, ensure_ascii=False, indent=2, sort_keys=True,
                      default=str) + "\n"
