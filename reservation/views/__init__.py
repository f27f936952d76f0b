"""Views: what the notebooks and the HTML reports show, computed here so that tests can reach it.

The engine decides; this package only selects, groups, labels and draws. Every number a notebook shows comes
from a function here (or from the engine), and tests/test_views.py and tests/test_maps.py test each function.
Every word shown in English and Hindi comes from :mod:`reservation.law.words`.

Modules
-------
- :mod:`.figures`: how a notebook shows figures and tables so that they survive export to HTML and PDF
  (:func:`figure_renderer`: the plotly renderer of every notebook; :func:`notebook_display`: whole tables).
- :mod:`.notebook_params`: every notebook's parameter cell checked by one function (:func:`check_notebook`,
  the bounds of :mod:`reservation.inputs.limits`).
- :mod:`.params`: parameters checked once (:func:`check_parameters`) and the one call that computes an allotment
  (:func:`run_allotment`); :func:`body_choices`, :func:`body_title`.
- :mod:`.places`: divisions in any spelling (:func:`resolve_division`, :func:`resolve_divisions`), names in English
  or Hindi.
- :mod:`.answers`: the answer beside every category (issue 20): the count that opens every output
  (:func:`count_line`, :func:`count_lines`, :func:`status_table`), the answer's columns of a unit table, one
  unit's answer (:func:`unit_answer`).
- :mod:`.tables`: State counts of every body, counts per category, summaries, the units with their reasons, units
  not drawn, assumptions; :func:`style_categories`.
- :mod:`.styled`: the Styler of every table (:class:`~.styled.StyledTable`: a uuid from the content, no memory
  address in its text form), so that a page has the same bytes on every run.
- :mod:`.maps`: every map (boundaries, district maps, points, district aggregates, :func:`division_map`,
  :func:`write_static_maps`, GeoJSON).
- :mod:`.rotation`: rotation history with the verdict of the rotation rule.
- :mod:`.toy`: the hand-checked toy states (rotation; the division rule), step by step, in English or Hindi
  (docs/teaching.md); made-up units drawn as boxes, and the titles that say when data are made up or partial.
- :mod:`.dpc`: District Planning Committees.
- :mod:`.explorer`: the ipywidgets explorer of notebook 04 (:class:`Explorer`).
"""

from __future__ import annotations

from ..law.words import BODY_TITLES_HI, LANGS
from .answers import (count_line, count_lines, has_answer, has_published, status_counts, status_table,
                      unit_answer)
from .dpc import dpc_composition, dpc_reserved_seats, dpc_sample_ballots, dpc_sample_count
from .explorer import Explorer, ExplorerState
from .maps import (published_figure, published_static_figure, write_published_maps)
from .maps import (MapView, aggregate_figure, aggregate_static_figure, district_aggregate, division_map, fit_zoom,
                   map_geojson, map_mode, points_figure, points_static_figure, unit_points, write_geojson,
                   write_static_maps)
from .figures import figure_renderer, notebook_display
from .notebook_params import NOTEBOOK_PARAMETERS, check_notebook
from .params import body_choices, body_title, check_parameters, option_rows, run_allotment
from .places import division_label, divisions, resolve_division, resolve_divisions, slug
from .rotation import (VERDICTS, rotation_heatmap, rotation_matrix, rotation_summary, rotation_view,
                       rotation_wide)
from .tables import (assumptions_table, category_counts_table, category_summary, division_tables, flag_notes,
                     flags_table, heading,
                     html_heading, html_table, not_drawn_table, past_categories, reason_note, report_heading, safe_cell,
                     state_counts_all, state_counts_wide, style_categories, table_in, unit_list, write_csv)
from .toy import (TOY_DISTRICTS, TOY_HISTORY, TOY_STATES, TOY_UNITS, allotment_title, data_kind, toy_allotment,
                  toy_figure, toy_state, toy_steps, toy_table, toy_title, toy_units_figure)

__all__ = [
    "LANGS", "TOY_DISTRICTS", "TOY_HISTORY", "TOY_UNITS", "BODY_TITLES_HI", "divisions", "resolve_division",
    "resolve_divisions", "check_parameters", "check_notebook", "NOTEBOOK_PARAMETERS", "run_allotment", "body_choices", "body_title", "option_rows",
    "state_counts_all", "state_counts_wide", "category_counts_table", "category_summary", "unit_list",
    "not_drawn_table", "style_categories", "html_table", "html_heading", "heading", "division_label", "reason_note",
    "safe_cell", "write_csv", "division_tables", "table_in", "past_categories", "report_heading", "assumptions_table", "map_mode",
    "flags_table", "flag_notes",
    "district_aggregate", "aggregate_figure", "aggregate_static_figure", "unit_points", "points_figure",
    "points_static_figure", "division_map", "MapView", "write_static_maps", "fit_zoom", "map_geojson",
    "write_geojson", "published_figure", "published_static_figure", "write_published_maps",
    "rotation_matrix", "rotation_summary", "rotation_wide", "rotation_heatmap", "rotation_view", "VERDICTS",
    "toy_allotment", "toy_steps", "toy_state", "toy_figure", "toy_table", "toy_title", "toy_units_figure", "TOY_STATES",
    "allotment_title", "data_kind", "dpc_composition", "dpc_reserved_seats",
    "dpc_sample_ballots", "dpc_sample_count", "Explorer", "ExplorerState", "slug", "figure_renderer",
    "notebook_display",
    "count_line", "count_lines", "has_answer", "has_published", "status_counts", "status_table", "unit_answer",
]
