"""How sure a map's categories are: the allotment's ``status`` column, drawn so that a category that is not
determined by public data never looks like one that is.

The allotment table may carry, beside ``category``, a ``status`` (a typed code: :data:`STATUSES`). A map reads it
when the frame has it and draws every unit whose status is not ``determined`` **pale and hatched** over its
category's colour (static maps: :func:`pale` fill and the status's :data:`HATCHES`; interactive maps, where
MapLibre cannot hatch: :data:`PALE_OPACITY` and a small dot in the status's :data:`DOT_COLOURS` at the unit), with
a key entry per status in the words of :mod:`reservation.law.words` (``map.status.*``). Without the column a map
draws as before. No rule is decided here: the status is computed where the allotment is (the certainty proof of
:func:`reservation.projection.orders.certain_units`, the published lists, the audit).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...law.words import word
from .draw import shapes

__all__ = ["STATUSES", "UNDETERMINED", "HATCHES", "DOT_COLOURS", "PALE_OPACITY", "PALE_SHARE", "HATCH_COLOUR",
           "HATCH_WIDTH",
           "status_of", "undetermined", "undetermined_counts", "status_label", "pale", "shade", "status_handles",
           "overlay_hatches", "status_traces", "status_note"]

#: The status codes of the allotment's ``status`` column, in the order of every key.
STATUSES = ("determined", "depends_obc", "depends_list", "partial_figures", "differs_published")
#: The statuses drawn as not determined.
UNDETERMINED = STATUSES[1:]
#: Hatch of each undetermined status in static maps (over the pale category colour). "Not in this allotment" is
#: white with ``////`` and "not in the published list" white with ``\\\\``: neither is used here.
HATCHES = {"depends_obc": "xx", "depends_list": "..", "partial_figures": "--", "differs_published": "||"}
#: Width of the hatch lines (points; matplotlib's default 1.0 hides the colour beneath).
HATCH_WIDTH = 0.6
#: Colour of the hatch lines (and of the key's edge).
HATCH_COLOUR = "#303030"
#: Dot drawn at an undetermined unit in interactive maps (MapLibre fills cannot be hatched), one colour per status.
DOT_COLOURS = {"depends_obc": "#202020", "depends_list": "#6a6a6a", "partial_figures": "#8c510a",
               "differs_published": "#b2182b"}
#: Opacity of an undetermined unit's fill in interactive maps (determined: 1).
PALE_OPACITY = 0.4
#: Share of the category's colour kept in the pale fill of static maps (the rest is white).
PALE_SHARE = 0.45


def status_of(df: pd.DataFrame) -> pd.Series | None:
    """The frame's ``status`` as text (None when the frame has no ``status`` column: the map draws as before). A
    blank status counts as ``determined`` (nothing claimed); a value outside :data:`STATUSES` is a ValueError (the
    column's contract)."""
    if "status" not in df.columns:
        return None
    s = df["status"].astype(object).where(df["status"].notna(), "").astype(str).str.strip()
    s = s.where(s != "", "determined")
    bad = sorted(set(s) - set(STATUSES))
    if bad:
        raise ValueError(f"status column: {bad[0]!r} is not one of {', '.join(STATUSES)}")
    return s


def undetermined(df: pd.DataFrame) -> np.ndarray:
    """Whether each row's category is not determined (all False without a ``status`` column)."""
    s = status_of(df)
    return np.zeros(len(df), dtype=bool) if s is None else (s != "determined").to_numpy()


def undetermined_counts(df: pd.DataFrame) -> dict[str, int]:
    """``{status: rows}`` of the undetermined statuses present, in :data:`STATUSES` order ({} without a column)."""
    s = status_of(df)
    if s is None:
        return {}
    vc = s.value_counts()
    return {k: int(vc[k]) for k in UNDETERMINED if k in vc.index}


def status_note(df: pd.DataFrame, lang: str) -> str:
    """"12 of 75 units: category not determined. Pale and hatched: ..." when some are; else ""."""
    n = sum(undetermined_counts(df).values())
    if not n:
        return ""
    return word("map.status.units_undetermined", lang, n=n, total=len(df)) + ". " + word("map.status.note", lang)


def status_label(status: str, lang: str) -> str:
    return word(f"map.status.{status}", lang)


def pale(colour: str, share: float = PALE_SHARE) -> str:
    """``colour`` mixed with white, ``share`` of it kept (hex). A colour that is light already (the grey of
    "unreserved") is kept as it is: paled it would turn white, the fill of "not in this allotment"."""
    from matplotlib.colors import to_rgb
    if sum(to_rgb(colour)) / 3 > 0.8:
        return shade(colour, 1.0)
    return shade(colour, share)


def shade(colour: str, q: float) -> str:
    """``colour`` mixed with white: ``q`` = 1 the colour, 0 white (hex, rounded: the same bytes every time)."""
    from matplotlib.colors import to_hex, to_rgb
    r, g, b = to_rgb(colour)
    q = float(q)
    return to_hex((1 - q * (1 - r), 1 - q * (1 - g), 1 - q * (1 - b)))


def status_handles(counts: dict[str, int], lang: str, unit_word: bool = True) -> list:
    """Static legend entries, one per undetermined status present (pale grey with the status's hatch), labelled
    with the status's words and its count."""
    from matplotlib.patches import Patch
    return [Patch(facecolor=pale("#808080"), edgecolor=HATCH_COLOUR, linewidth=0.5, hatch=HATCHES[k],
                  hatch_linewidth=HATCH_WIDTH,
                  label=f"{status_label(k, lang)} ({n})" if unit_word else status_label(k, lang))
            for k, n in counts.items()]


def overlay_hatches(ax, gdf, statuses: pd.Series) -> None:
    """Hatch, on ``ax``, the shapes of ``gdf`` whose status (aligned ``statuses``) is undetermined: one pass per
    status, no fill (the pale category colour is drawn beneath)."""
    for k in UNDETERMINED:
        sel = (statuses == k).to_numpy()
        if sel.any():
            shapes(ax, gdf[sel], facecolor="none", edgecolor=HATCH_COLOUR, linewidth=0.0, hatch=HATCHES[k],
                   hatch_linewidth=HATCH_WIDTH)


def status_traces(fig, df: pd.DataFrame, lon, lat, names, lang: str) -> None:
    """Add to the plotly ``fig`` one trace per undetermined status present in ``df``: a small dot at each such
    unit (``lon``/``lat`` aligned with ``df``: a point inside its polygon, or the point itself) in the status's
    colour, keyed with the status's words and count; ``names``: the units' names, HTML-escaped. MapLibre cannot
    hatch a fill: the dot and the pale fill say it instead."""
    import html

    import plotly.graph_objects as go

    st = status_of(df)
    if st is None:
        return
    lon, lat, names = list(lon), list(lat), list(names)
    for k, n in undetermined_counts(df).items():
        idx = np.flatnonzero((st == k).to_numpy())
        text = html.escape(status_label(k, lang))
        fig.add_trace(go.Scattermap(
            lon=[round(float(lon[i]), 5) for i in idx], lat=[round(float(lat[i]), 5) for i in idx], mode="markers",
            marker={"color": DOT_COLOURS[k], "size": 6}, name=f"{text} ({n})", legendgroup=f"status-{k}",
            customdata=[[names[i]] for i in idx],
            hovertemplate=f"<b>%{{customdata[0]}}</b><br>{text}<extra></extra>"))
