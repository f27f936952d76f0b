"""Rotation as a fact for the block pramukhs: each block's category at every election, and how often a block held
the same group in consecutive elections.

- :func:`timeline`: one row per block and election: the published lists of 2005, 2010 and 2015 (the crosswalked
  SEC lists, :func:`reservation.inputs.published.pramukh_history`) and any computed allotments (e.g. the 2015 backtest and
  the next election, 2021), each cell marked when the block holds the same reserved group (ST, SC, OBC) as at
  the election before;
- :func:`timeline_wide` (one row per block, one column per election) and :func:`timeline_heatmap` (plotly, the
  category colours of every map);
- :func:`repeat_figures`: the State-wide (or per-district) repeat rates of :mod:`reservation.history.rotation_facts` with
  the number expected by chance; :func:`transitions_table`: groups at one election x groups at the next.
"""

from __future__ import annotations

import pandas as pd

from ..law.categories import CODES, COLOURS, by_code, category_colourscale, label
from ..base.errors import InputError
from ..base.paths import DATA_DIR

__all__ = ["TIMELINE_COLUMNS", "all_blocks", "select_blocks", "timeline", "timeline_wide", "timeline_heatmap",
           "repeat_figures", "transitions_table", "computed_columns"]

TIMELINE_COLUMNS = ["unit_code", "block", "block_hi", "district", "election", "year", "source", "category",
                    "group", "repeat"]
REPEAT_MARK = "="          # the cell's block held the same reserved group at the election before


def all_blocks() -> pd.DataFrame:
    """Every LGD block of the shipped block table (828: also those that were no Kshetra Panchayat at some
    election), with its names, district and division."""
    from ..rules.kp_chair import load_blocks
    blocks, _ = load_blocks(2015, DATA_DIR / "blocks_census2011.csv")
    return blocks


def select_blocks(units=None, district=None) -> list[int]:
    """LGD codes of the blocks asked for: ``units`` (codes or names, ``"Block, District"`` in English or Hindi) or
    every block of ``district`` (a name in English or Hindi, or its LGD code); an unknown one is an InputError."""
    from ..rules.kp_chair import block_index
    from ..inputs.names import crosswalk
    blocks = all_blocks()
    if units not in (None, "", [], ()):
        items = [units] if isinstance(units, (str, int)) else list(units)
        index = block_index(blocks)
        out = []
        for u in items:
            try:
                out.append(index.resolve(u))
            except KeyError as e:
                raise InputError(str(e.args[0]), column="unit") from None
        return out
    if district not in (None, "", "all"):
        try:
            code = crosswalk().resolve(district)
        except KeyError as e:
            raise InputError(str(e.args[0]), column="district") from None
        return blocks.loc[blocks["district_lgd_code"] == code, "unit_code"].astype(int).tolist()
    return blocks["unit_code"].astype(int).tolist()


def timeline(results: dict | None = None, *, units=None, district=None, history: pd.DataFrame | None = None
             ) -> pd.DataFrame:
    """Each block's category at every election of the shipped lists and of ``results`` (label -> Allotment, e.g.
    ``{"2015 computed": backtest, "2021 computed": allot("kp-chair", 2021)}``), for the blocks of ``units`` or
    ``district`` (default: all).

    Columns :data:`TIMELINE_COLUMNS`: ``election`` ("2005" ... or the label), ``source`` (``published`` or
    ``computed``), ``category`` ('' where the block has no record: not listed, or no Kshetra Panchayat then),
    ``group`` (ST, SC, OBC, GEN), ``repeat`` (True when the block holds the same reserved group as at the
    published election before: the rotation did not move it).
    """
    from ..inputs.published import pramukh_history as history_table
    h = history_table() if history is None else history
    codes = select_blocks(units, district)
    info = all_blocks().set_index("unit_code").loc[codes]
    pub_years = sorted(int(y) for y in h["year"].unique())
    cols = [(str(y), y, "published", h[h["year"] == y].set_index("unit_code")["category"]) for y in pub_years]
    for name, res in (results or {}).items():
        cols.append((str(name), int(res.year), "computed", res.categories))
    frames = []
    for name, year, source, cats in cols:
        cat = pd.Series(codes).map(cats).astype(object).fillna("").astype(str).to_numpy()
        before = [y for y in pub_years if y < year]
        prev = (h[h["year"] == before[-1]].set_index("unit_code")["category"] if before else pd.Series(dtype=str))
        pcat = pd.Series(codes).map(prev).astype(object).fillna("").astype(str).to_numpy()
        group = [by_code(c).group if c else "" for c in cat]
        pgroup = [by_code(c).group if c else "" for c in pcat]
        frames.append(pd.DataFrame({
            "unit_code": codes, "block": info["unit_name_en"].to_numpy(), "block_hi": info["unit_name_hi"].to_numpy(),
            "district": info["district"].to_numpy(), "election": name, "year": year, "source": source,
            "category": cat, "group": group,
            "repeat": [g == p and g not in ("", "GEN") for g, p in zip(group, pgroup)]}))
    out = pd.concat(frames, ignore_index=True)
    return out[TIMELINE_COLUMNS]


def computed_columns(backtest=None) -> dict:
    """The computed elections for :func:`timeline`: ``"YEAR computed"`` for a backtest allotment (when given) and
    the next election after the last published list, ``"2021 computed"`` (the shipped history and the default
    base year, as ``reservation allot --body kp-chair --year 2021`` computes it)."""
    from ..allotment.pipeline import allot
    out = {}
    if backtest is not None:
        out[f"{backtest.year} computed (base {backtest.meta['base_year']})"] = backtest
    out["2021 computed"] = allot("kp-chair", 2021)
    return out


def _order(t: pd.DataFrame) -> tuple[list, pd.DataFrame]:
    elections = list(dict.fromkeys(t["election"]))
    units = t.drop_duplicates("unit_code").sort_values(["district", "block"], kind="stable")
    return elections, units


def timeline_wide(t: pd.DataFrame) -> pd.DataFrame:
    """One row per block (district, block), one column per election: the category code, followed by ``=`` when
    the block holds the same reserved group as at the election before; ``repeats``: how many such cells among
    the published elections."""
    elections, units = _order(t)
    cell = t["category"].where(t["category"] != "", "—") + t["repeat"].map({True: f" {REPEAT_MARK}", False: ""})
    w = t.assign(_cell=cell).pivot(index="unit_code", columns="election", values="_cell")
    out = pd.DataFrame({"district": units["district"].to_numpy(), "block": units["block"].to_numpy()})
    for e in elections:
        out[e] = w.loc[units["unit_code"], e].to_numpy()
    pub = t[t["source"] == "published"].groupby("unit_code")["repeat"].sum()
    out["repeats"] = pub.reindex(units["unit_code"]).fillna(0).astype(int).to_numpy()
    return out


def timeline_heatmap(t: pd.DataFrame, title: str | None = None, lang: str = "en", max_units: int = 120):
    """Blocks (rows) x elections (columns), each cell in its category's colour (:data:`COLOURS`) with the code
    and ``=`` for a repeat; hover: the category in words. More than ``max_units`` blocks: an InputError."""
    import plotly.graph_objects as go
    elections, units = _order(t)
    if len(units) > max_units:
        raise InputError(f"{len(units)} blocks are too many for one heat map (at most {max_units}): choose a "
                         f"district or some blocks", column="district")
    idx = {c: i for i, c in enumerate(CODES)}
    m = t.set_index(["unit_code", "election"])
    names = [(hi or en) if lang == "hi" else en for en, hi in zip(units["block"], units["block_hi"])]
    y = [f"{n} ({d})" for n, d in zip(names, units["district"])]
    z, text, hover = [], [], []
    for code in units["unit_code"]:
        zr, tr, hr = [], [], []
        for e in elections:
            r = m.loc[(code, e)]
            c = r["category"]
            zr.append(idx[c] if c else None)
            tr.append((c + (f" {REPEAT_MARK}" if r["repeat"] else "")) if c else "")
            hr.append(label(c, lang) if c else "—")
        z.append(zr)
        text.append(tr)
        hover.append(hr)
    n = len(CODES)
    scale = category_colourscale()
    fig = go.Figure(go.Heatmap(z=z, x=elections, y=y, text=text, texttemplate="%{text}", customdata=hover,
                               colorscale=scale, zmin=-0.5, zmax=n - 0.5, showscale=False, xgap=2, ygap=1,
                               hovertemplate="<b>%{y}</b><br>%{x}: %{customdata}<extra></extra>"))
    for c in CODES:
        if c in set(t["category"]):
            fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=label(c, lang), showlegend=True,
                                     marker={"size": 12, "color": COLOURS[c], "symbol": "square"}))
    fig.update_layout(title={"text": title} if title else None, height=max(260, 120 + 22 * len(units)),
                      yaxis={"autorange": "reversed", "type": "category"}, xaxis={"side": "top", "type": "category"},
                      plot_bgcolor="#ffffff", margin={"l": 10, "r": 10, "t": 90 if title else 60, "b": 10})
    return fig


def repeat_figures(per_district: bool = False, history: pd.DataFrame | None = None) -> pd.DataFrame:
    """How often a block held the same group in consecutive elections (2005 -> 2010, 2010 -> 2015), by the group
    it held first, with the number expected if each district's categories were dealt at random
    (:func:`reservation.history.rotation_facts.repeat_rates`, districts of today)."""
    from ..inputs.published import pramukh_history as history_table
    from .rotation_facts import repeat_rates
    h = history_table() if history is None else history
    districts = all_blocks().set_index("unit_code")["district"]
    return repeat_rates(h, districts, per_district=per_district)


def transitions_table(year_from: int, year_to: int, history: pd.DataFrame | None = None) -> pd.DataFrame:
    """Blocks by their group at ``year_from`` (rows) and at ``year_to`` (columns), blocks listed in both."""
    from ..inputs.published import pramukh_history as history_table
    from .rotation_facts import transitions
    h = history_table() if history is None else history
    t = transitions(h)
    t = t[(t["year_from"] == year_from) & (t["year_to"] == year_to)]
    if not len(t):
        raise InputError(f"no blocks listed in both {year_from} and {year_to}", column="year")
    order = ["ST", "SC", "OBC", "GEN"]
    x = pd.crosstab(t["group_from"], t["group_to"]).reindex(index=order, columns=order, fill_value=0)
    x.index.name = f"group {year_from}"
    x.columns.name = f"group {year_to}"
    x["blocks"] = x.sum(axis=1)
    return x
