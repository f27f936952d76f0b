"""The ipywidgets explorer of notebook 04: any registered body, year, base year, division, language and every
ambiguity option; and the toy state, step by step."""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..base.errors import InputError
from ..law.words import LANG_NAMES, LANGS, word
from .answers import count_line
from .maps import division_map
from .params import body_choices, body_needs_units, body_title, check_parameters, option_rows, run_allotment
from .places import divisions
from .tables import category_counts_table, not_drawn_table, style_categories, table_in, unit_list
from .toy import (TOY_STATES, TOY_UNITS, allotment_title, data_kind, toy_allotment, toy_figure, toy_state,
                  toy_steps, toy_table, toy_title, toy_units_figure)

__all__ = ["Explorer", "ExplorerState"]


@dataclass
class ExplorerState:
    """What the explorer shows (and what tests check)."""
    mode: str = "real"                 # real | toy
    body: str = ""
    year: int = 0
    base_year: int = 2015
    options: list = field(default_factory=list)
    division: str = "all"
    units: str = ""
    lang: str = "en"
    error: str = ""
    table: pd.DataFrame | None = None  # the rows shown
    counts: pd.DataFrame | None = None
    figure: object = None
    not_drawn: pd.DataFrame | None = None
    step: int = 0
    steps: pd.DataFrame | None = None
    step_text: str = ""
    step_clause: str = ""
    toy: str = "five"                  # which toy state (views.toy.TOY_STATES)
    title: str = ""                    # the map's title: says "made-up toy units" or "partial figures" when so
    data: str = "real"                 # real | toy | partial (views.toy.data_kind)
    count: str = ""                    # the count that opens the view: units per status (views.count_line)


class Explorer:
    """The ipywidgets explorer of notebook 04: pick any registered body, year, base year, division, language and
    the ambiguity options; the map and the table update. The view opens with the count (units determined by public
    data, units that depend on what); the table carries each unit's published category, status and possible
    categories, and the map draws the units not determined pale (as every map). Bodies counted inside a parent (gram pradhans, wards)
    need a units file: the explorer starts with the made-up :data:`reservation.views.toy.TOY_UNITS` and says so;
    the urban bodies may take one instead of the shipped list. Made-up units are drawn as boxes under a title
    that says so, never as shaded real districts; the shipped gram panchayats (partial Census figures) are marked
    so in the title and on the map. ``Toy state`` switches to a hand-checked toy state (five districts with
    rotation, or the division rule: docs/teaching.md) and a step slider that shows each rule step in turn, in the
    chosen language, each box showing the share ranked, the earlier category and tier, and the category. Every number comes from the views; the widgets only
    pass parameters. ``render=False`` (tests) computes without displaying."""

    def __init__(self, body: str = "zp-chair", year: int | None = None, render: bool = True, units: str = ""):
        import ipywidgets as W
        from ..rules.registry import get_rulebook
        get_rulebook(body)                                 # an unknown body is an InputError naming the known ones
        self.W = W
        self.render_enabled = render
        self.state = ExplorerState()
        bodies = body_choices(include_needs_units=True)
        self.body = W.Dropdown(options=[(f"{b} — {t}", b) for b, t in zip(bodies["body"], bodies["title"])],
                               value=body, description="Body", layout=W.Layout(width="420px"))
        self.units = W.Text(value=str(units or ""), description="Units file", continuous_update=False,
                            placeholder="path of a units CSV", layout=W.Layout(width="560px"))
        self.units_note = W.HTML()
        self.units_box = W.VBox([self.units, self.units_note])
        self.year = W.Dropdown(description="Year", layout=W.Layout(width="180px"))
        self.base_year = W.BoundedIntText(value=2015, min=1990, max=2100, description="Base year",
                                          layout=W.Layout(width="180px"))
        self.division = W.Dropdown(options=[(word("explorer.all_divisions"), "all")]
                                   + [(d, d) for d in divisions()["division"]],
                                   value="all", description="Division", layout=W.Layout(width="320px"))
        self.lang = W.ToggleButtons(options=[(LANG_NAMES[k], k) for k in LANGS], value="en", description="Language")
        self.toy = W.Checkbox(value=False, description="Toy state (made up, for teaching: step by step)",
                              indent=False)
        self.toy_name = W.Dropdown(options=[(word(f"toy.name.{k}"), k) for k in TOY_STATES], value="five",
                                   description="Toy", layout=W.Layout(width="360px"))
        self.step = W.IntSlider(value=1, min=1, max=1, description="Step", continuous_update=False,
                                layout=W.Layout(width="520px"))
        self.prev_button = W.Button(description="◀ previous", layout=W.Layout(width="110px"))
        self.next_button = W.Button(description="next ▶", layout=W.Layout(width="110px"))
        self.options_box = W.VBox()
        self.option_widgets: dict[str, object] = {}
        self.status = W.HTML()
        self.step_html = W.HTML()
        self.map_out = W.Output()
        self.table_out = W.Output()
        self.counts_out = W.Output()
        self._busy = False
        self._set_years(year)
        self._build_options()
        self._set_units(units)
        for w in (self.year, self.base_year, self.division, self.lang, self.units):
            w.observe(self._changed, names="value")
        self.body.observe(self._body_changed, names="value")
        self.toy.observe(self._toy_changed, names="value")
        self.toy_name.observe(self._changed, names="value")
        self.step.observe(self._step_changed, names="value")
        self.prev_button.on_click(lambda _: self._move(-1))
        self.next_button.on_click(lambda _: self._move(1))
        self.toy_box = W.VBox([self.toy_name, W.HBox([self.prev_button, self.step, self.next_button])])
        self.toy_box.layout.display = "none"
        self.widget = W.VBox([
            W.HBox([self.body, self.year, self.base_year]), W.HBox([self.division, self.lang]),
            self.units_box,
            W.Accordion(children=[self.options_box], titles=("Ambiguity options (reservation options --body BODY)",)),
            self.toy, self.toy_box, self.status, self.step_html, self.counts_out, self.map_out, self.table_out])
        self.widget.add_class("reservation-explorer")
        self.refresh()

    # -- widgets -----------------------------------------------------------------------------------------------
    def _set_years(self, year=None):
        from ..rules.registry import get_rulebook
        years = list(get_rulebook(self.body.value).offered_years)
        self._busy = True
        self.year.options = years
        self.year.value = year if year in years else years[0]
        self.base_year.max = self.year.value
        self._busy = False

    def _set_units(self, units=""):
        """The units file: the toy file for a body that needs one (unless one was given), empty for the others;
        shown only for the bodies that need or accept one."""
        needs, accepts = body_needs_units(self.body.value)
        self._busy = True
        current = self.units.value.strip()
        toys = {str(p) for p in TOY_UNITS.values()}
        toy = TOY_UNITS.get(self.body.value)
        if needs:
            self.units.value = str(units or (current if current and current not in toys else toy))
        elif not accepts or current in toys:
            self.units.value = str(units or "")
        self._busy = False
        self.units_box.layout.display = "" if accepts else "none"
        if needs and self.units.value in toys:
            self.units_note.value = ("<small>Gram panchayat and ward populations are not public: these are "
                                     f"<b>made-up toy units</b> (data/toy/{html.escape(Path(self.units.value).name)}). "
                                     "Give your own file: columns unit, parent, pop, sc, st [, obc, name_en, name_hi, "
                                     "district, division].</small>")
        elif accepts and not needs:
            self.units_note.value = "<small>Empty: the shipped list of bodies. A units file replaces it.</small>"
        else:
            self.units_note.value = ""

    def _build_options(self):
        W = self.W
        rows = option_rows(self.body.value)
        widgets = {}
        for _, r in rows.iterrows():
            choices = [c.strip() for c in str(r["choices"]).split("|")]
            if r["choices"] == "path":
                continue
            if len(choices) < 2:                       # a number, or a number or empty: typed in
                w = W.Text(value=str(r["default"]), description=r["option"], continuous_update=False)
            else:
                if str(r["default"]) not in choices:
                    choices.insert(0, str(r["default"]))
                w = W.Dropdown(options=choices, value=str(r["default"]), description=r["option"])
            w.style = {"description_width": "170px"}
            w.layout = W.Layout(width="460px")
            w.tooltip = f"{r['ambiguity']}: {r['reading_of_default']}"
            w.observe(self._changed, names="value")
            widgets[r["option"]] = w
        self.option_widgets = widgets
        self.options_box.children = list(widgets.values())

    def _body_changed(self, _):
        self._set_years()
        self._build_options()
        self._set_units()
        self.refresh()

    def _toy_changed(self, _):
        on = self.toy.value
        for w in (self.body, self.year, self.base_year, self.division):
            w.disabled = on
        self.toy_box.layout.display = "" if on else "none"
        self.refresh()

    def _changed(self, _):
        if not self._busy:
            self.refresh()

    def _step_changed(self, _):
        if self.toy.value and not self._busy:
            self._show_step()

    def _move(self, delta: int):
        self.step.value = min(max(self.step.value + delta, self.step.min), self.step.max)

    def option_assignments(self) -> list[str]:
        """The options that differ from their defaults, as ``name=value``."""
        rows = option_rows(self.body.value)
        defaults = dict(zip(rows["option"], rows["default"]))
        return [f"{k}={w.value}" for k, w in self.option_widgets.items() if str(w.value) != str(defaults.get(k))]

    # -- computing ---------------------------------------------------------------------------------------------
    def refresh(self):
        """Recompute for the current widget values (and display, when rendering)."""
        s = self.state
        s.error, s.count = "", ""
        s.lang = self.lang.value
        s.options = self.option_assignments()
        try:
            if self.toy.value:
                s.mode, s.toy, s.data = "toy", self.toy_name.value, "toy"
                self._toy_result = toy_allotment(s.options if self.body.value == "zp-chair" else (), state=s.toy)
                s.steps = toy_steps(self._toy_result, s.lang)
                self._busy = True
                self.step.max = len(s.steps)
                self.step.value = min(max(self.step.value, 1), len(s.steps))
                self._busy = False
                self._show_step()
                return
            s.mode = "real"
            s.body, s.year, s.base_year = self.body.value, int(self.year.value), int(self.base_year.value)
            s.division = self.division.value
            s.units = self.units.value.strip() if self.units_box.layout.display != "none" else ""
            check_parameters(s.body, s.year, division=s.division, base_year=s.base_year, options=s.options,
                             units=s.units)
            result = run_allotment(s.body, s.year, base_year=s.base_year, options=s.options, units=s.units)
            s.table = unit_list(table_in(result, s.lang), s.division, s.lang)   # with published, status, possible
            s.count = count_line(result, s.division, s.lang)
            s.counts = category_counts_table(result.table, s.division, s.lang)
            s.data = data_kind(result, s.units)
            s.title = allotment_title(body_title(s.body, s.lang), s.year, s.data, s.lang)
            self._draw(result)
            s.step_text = s.step_clause = ""
        except InputError as e:
            s.error = str(e)
        except Exception as e:  # noqa: BLE001 - a widget callback must not raise; the reader sees the error
            s.error = f"{type(e).__name__}: {e}"
        self._render()

    def _draw(self, result):
        """The figure of a real-mode allotment: made-up units as boxes (never shading real districts), units on
        partial figures marked so on the map, the rest on the map of Uttar Pradesh."""
        s = self.state
        if s.data == "toy":
            t = result.table_in(s.lang)
            s.figure = toy_units_figure(t, result.parent_column or "district", s.lang, title=s.title)
            s.not_drawn = None
            return
        # the allotment's own ``status`` says ``partial_figures`` (one place decides a status)
        mv = division_map(result.table, s.division, s.lang, title=s.title, height=600, body=s.body)
        s.figure, s.not_drawn = mv.figure, not_drawn_table(mv.not_drawn, s.lang)

    def _show_step(self):
        s = self.state
        s.step = int(self.step.value)
        st = toy_state(self._toy_result, s.steps, s.step, s.lang)
        row = s.steps.iloc[s.step - 1]
        s.step_text = word("toy.step", s.lang, step=s.step, n=len(s.steps), text=row["text"])
        s.step_clause = word("toy.clause", s.lang, clause=row["clause"])
        s.table = st
        s.counts = self._toy_result.counts[["category", "count", "arithmetic"]]
        s.title = toy_title(st, s.lang)
        s.figure = toy_figure(st, s.lang, title=s.title)
        s.not_drawn = None
        self._render()

    # -- display -----------------------------------------------------------------------------------------------
    def _render(self):
        import html
        s = self.state
        warn = " style='color:#8c510a;font-weight:bold'" if s.data != "real" else ""
        self.status.value = (f"<p style='color:#b00020'><b>Error:</b> {html.escape(s.error)}</p>" if s.error else
                             f"<p{warn}>{html.escape(s.title)}; options changed: "
                             f"{html.escape(', '.join(s.options) or 'none')}</p>"
                             + (f"<p><b>{html.escape(s.count)}</b></p>" if s.count else ""))
        self.step_html.value = (f"<div class='reservation-step' style='padding:6px;border-left:4px solid #2166ac'>"
                                f"{html.escape(s.step_text)}<br><small>{html.escape(s.step_clause)}</small></div>"
                                if s.mode == "toy" else "")
        if not self.render_enabled or s.error:
            return
        # The outputs are set as the Output widgets' state (not captured with `with out: display(...)`): the same
        # in JupyterLab, and nbclient (papermill, nbval) does not have to echo a large map back to the kernel,
        # which stalls it.
        from IPython.core.interactiveshell import InteractiveShell
        from IPython.display import HTML
        fmt = InteractiveShell.instance().display_formatter.format

        def bundle(obj):
            if hasattr(obj, "to_plotly_json"):          # JSON only (plotly keeps numpy arrays in its own bundle)
                import json
                return {"output_type": "display_data", "metadata": {},
                        "data": {"application/vnd.plotly.v1+json": json.loads(obj.to_json()),
                                 "text/plain": f"<plotly figure: {len(obj.data)} traces>"}}
            data, metadata = fmt(obj)
            return {"output_type": "display_data", "data": data, "metadata": metadata}
        self.counts_out.outputs = (bundle(HTML(s.counts.to_html(index=False, classes="reservation-counts"))),)
        self.map_out.outputs = (bundle(s.figure),)
        t = s.table
        rows = []
        if s.mode == "toy":
            shown = toy_table(t, s.lang, final=s.step == len(s.steps))
            rows.append(bundle(HTML(shown.to_html(index=False, classes="reservation-table"))))
        else:
            rows.append(bundle(HTML(style_categories(t.head(300), s.lang).to_html(
                table_attributes='class="reservation-table"'))))
            if len(t) > 300:
                rows.append(bundle(HTML(f"<p>… {len(t) - 300} more rows: choose a division.</p>")))
        if s.not_drawn is not None and len(s.not_drawn):
            rows.append(bundle(HTML("<h4>Not drawn</h4>" + s.not_drawn.to_html(index=False))))
        self.table_out.outputs = tuple(rows)
