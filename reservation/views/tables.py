"""Tables of the notebooks and reports, in English and Hindi: State counts of every body, counts per category,
summaries per division or district, the units with their reasons, units not drawn, assumptions, the
constitutional flags with what they mean."""

from __future__ import annotations

import pandas as pd

from ..law.categories import CODES, COLOURS, label
from ..base.errors import InputError
from ..law.words import STATUS_WORDS, check_lang, flag_meanings, word
from .answers import answer_columns, status_table
from .params import _is_int, body_title
from .places import division_order, in_division, is_all, place_names, unit_names

__all__ = ["state_counts_all", "state_counts_wide", "category_counts_table", "category_summary", "unit_list",
           "not_drawn_table", "html_table", "style_categories", "html_heading", "heading", "report_heading",
           "assumptions_table", "text_colour", "reason_note", "safe_cell", "write_csv", "division_tables", "table_in",
           "past_categories", "flags_table", "flag_notes", "FLAG_COLUMNS_SHOWN"]

#: the columns of a flags table as the report and the notebooks show it (codes, as the CLI prints them)
FLAG_COLUMNS_SHOWN = ["flag", "counting_unit", "unit_name_en", "measured", "limit"]


def state_counts_all(year: int) -> tuple[pd.DataFrame, dict[str, pd.DataFrame]]:
    """The State counts of every registered body for ``year``.

    Returns ``(overview, counts)``: ``overview`` has one row per body (``body, title, unit, status, posts``,
    status ``ok``, ``no rules for YEAR`` or ``counted per PARENT: needs a units file``); ``counts`` maps each
    body with status ok to its counts table (``category, count, arithmetic, clause``; rows ST_W ... UR, TOTAL).
    """
    from ..allotment.pipeline import counts
    from ..rules.registry import all_rulebooks
    if not _is_int(year):
        raise InputError(f"year must be an integer, not {year!r}", column="year")
    rows, out = [], {}
    for k, b in all_rulebooks().items():
        posts = None
        if int(year) not in b.offered_years:
            status = f"no rules for {year} (years: {', '.join(map(str, b.offered_years))})"
        elif b.needs_units:
            status = f"counted inside each {b.unit_kind}'s parent: needs a units file"
        else:
            c = counts(k, int(year))
            out[k] = c.reset_index(drop=True)
            posts = int(c.loc[c["category"] == "TOTAL", "count"].iat[0])
            status = "ok"
        rows.append({"body": k, "title": b.title, "unit": b.unit_kind, "status": status,
                     "posts": pd.NA if posts is None else posts})
    ov = pd.DataFrame(rows, columns=["body", "title", "unit", "status", "posts"])
    ov["posts"] = ov["posts"].astype("Int64")
    return ov, out


def state_counts_wide(counts: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Bodies x categories (ST_W ... UR, TOTAL) from :func:`state_counts_all`'s ``counts``."""
    cols = list(CODES) + ["TOTAL"]
    rows = []
    for k, c in counts.items():
        m = dict(zip(c["category"], c["count"]))
        rows.append({"body": k, **{col: int(m.get(col, 0)) for col in cols}})
    return pd.DataFrame(rows, columns=["body"] + cols).set_index("body")


def category_counts_table(table: pd.DataFrame, division=None, lang: str = "en") -> pd.DataFrame:
    """One row per category (GO order) and a total: the code, its label in ``lang``, the number of units of the
    division(s) with it, and the number in the whole table (the State). ``division=None``/"all": the State only."""
    check_lang(lang)
    sub = in_division(table, division)
    n_sub = sub["category"].value_counts()
    n_all = table["category"].value_counts()
    code_col, cat_col = word("table.category_code", lang), word("table.category", lang)
    rows = [{code_col: c, cat_col: label(c, lang), "_d": int(n_sub.get(c, 0)), "_s": int(n_all.get(c, 0))}
            for c in CODES]
    rows.append({code_col: "TOTAL", cat_col: word("table.total", lang), "_d": int(len(sub)), "_s": int(len(table))})
    out = pd.DataFrame(rows)
    count = word("table.count", lang)
    in_state = f"{count} ({word('table.in_state', lang)})"
    if is_all(division):
        return out.drop(columns="_d").rename(columns={"_s": in_state})
    return out.rename(columns={"_d": f"{count} ({word('table.in_division', lang)})", "_s": in_state})


def category_summary(table: pd.DataFrame, by: str = "division", lang: str = "en", division=None) -> pd.DataFrame:
    """Rows = divisions (or districts), columns = the eight category labels in ``lang`` and the total; a total row.
    ``division`` limits the rows to that division (or list)."""
    check_lang(lang)
    if by not in ("division", "district"):
        raise InputError(f"by must be 'division' or 'district', not {by!r}", column="by")
    total = word("table.total", lang)
    sub = in_division(table, division)
    keys = sub[by].astype(object).where(sub[by].notna(), "").astype(str)
    t = pd.crosstab(keys, sub["category"])
    for c in CODES:
        if c not in t.columns:
            t[c] = 0
    t = t[list(CODES)]
    if by == "division":
        order = division_order()
        t = t.loc[sorted(t.index, key=lambda n: (order.get(n, len(order)), n))]
    t[total] = t.sum(axis=1)
    t.loc[total] = t.sum(axis=0)
    t.index = list(place_names(pd.Series(t.index[:-1]), by, lang)) + [total]
    t.index.name = word(f"table.{by}", lang)
    t.columns = [label(c, lang) for c in CODES] + [total]
    t.columns.name = None
    return t.astype(int)


def _sorted_units(table: pd.DataFrame, division) -> pd.DataFrame:
    sub = in_division(table, division)
    order = division_order()
    return sub.assign(_o=sub["division"].map(order).fillna(len(order)),
                      _n=sub["unit_name_en"].astype(str)).sort_values(["_o", "division", "district", "_n", "unit_code"],
                                                                       kind="stable")


def table_in(result, lang: str = "en") -> pd.DataFrame:
    """The allotment table with its reasons and tie-breaks in ``lang``: the engine renders them from its decision
    codes (:meth:`reservation.allotment.result.Allotment.table_in`). The frame says so in ``attrs["reasons_lang"]``
    (an allotment without that method gives its English table)."""
    check_lang(lang)
    if hasattr(result, "table_in"):
        t = result.table_in(lang).copy(deep=False)
        t.attrs["reasons_lang"] = lang
    else:
        t = result.table.copy(deep=False)
        t.attrs["reasons_lang"] = "en"
    return t


def past_categories(result, n: int = 2) -> pd.DataFrame:
    """The category each unit held at the last ``n`` elections of the allotment's history before its year (the
    published lists it was given, whether or not the base year counts them for rotation): one column per year,
    oldest first, indexed by unit code; codes, empty where the history has no record of the unit."""
    h = getattr(result, "history", None)
    year = int(result.meta["year"])
    if h is None or not len(h):
        return pd.DataFrame(index=pd.Index([], name="unit_code"))
    h = h[h["year"].astype(int) < year]
    years = sorted(set(h["year"].astype(int)))[-n:]
    h = h[h["year"].astype(int).isin(years)].drop_duplicates(["unit_code", "year"], keep="last")
    wide = h.pivot(index="unit_code", columns="year", values="category")
    wide.columns = [int(c) for c in wide.columns]
    return wide[years]


def _past_columns(out: pd.DataFrame, codes, past: pd.DataFrame | None, lang: str) -> None:
    """Add the categories of :func:`past_categories` beside the computed one (in ``lang``'s words)."""
    if past is None or not len(past.columns):
        return
    for y in past.columns:
        held = past[y].reindex(codes).to_numpy()
        out[word("table.category_in", lang, year=y)] = [label(c, lang) if isinstance(c, str) and c else
                                                        word("table.no_record", lang) for c in held]


def _reasons_in(table: pd.DataFrame) -> str:
    return str(table.attrs.get("reasons_lang", "en"))


def unit_list(table: pd.DataFrame, division=None, lang: str = "en", reasons: bool = True,
              past: pd.DataFrame | None = None) -> pd.DataFrame:
    """The units of the division(s) with their category, its answer (the published category, the status in
    words, the possible categories, the probabilities of an election not yet held:
    :func:`reservation.views.answers.answer_columns`) and, with ``reasons``, the reason and clause of each
    decision, sorted by division, district and name; column headers, names and category labels in ``lang``.
    ``past`` (:func:`past_categories`): the categories of the last elections beside the computed one.

    Reasons are shown in the language the table was rendered in (:func:`table_in`); a Hindi list of an English
    table says so in its header (``कारण (अंग्रेज़ी में)``). The district column is left out when every unit is a
    district."""
    check_lang(lang)
    sub = _sorted_units(table, division)
    is_district = bool(len(sub)) and bool((sub["district"].astype(str) == sub["unit_name_en"].astype(str)).all())
    out = pd.DataFrame({word("table.unit", lang): unit_names(sub, lang).to_numpy(),
                        word("table.code", lang): sub["unit_code"].to_numpy()})
    if not is_district:
        out[word("table.district", lang)] = place_names(sub["district"], "district", lang).to_numpy()
    out[word("table.division", lang)] = place_names(sub["division"], "division", lang).to_numpy()
    out[word("table.category", lang)] = [label(c, lang) for c in sub["category"]]
    out[word("table.category_code", lang)] = sub["category"].to_numpy()
    for name, values in answer_columns(sub, lang).items():      # published, status, possible (P_* to come)
        out[name] = values
    _past_columns(out, sub["unit_code"].to_numpy(), past, lang)
    if reasons:
        header = "table.reason" if _reasons_in(table) == lang else "table.reason_english"
        out[word(header, lang)] = sub["reason"].astype(str).to_numpy()
        out[word("table.clause", lang)] = sub["clause"].astype(str).to_numpy()
    return out.reset_index(drop=True)


def not_drawn_table(not_drawn: pd.DataFrame, lang: str = "en") -> pd.DataFrame:
    """The units that have no shape on a map (from :func:`reservation.views.division_map` or
    :func:`reservation.views.maps.join_allotment`), with name, code, district, category and why; headers in
    ``lang``."""
    check_lang(lang)
    cols = [word(k, lang) for k in ("table.unit", "table.code", "table.district", "table.category", "table.why")]
    if not len(not_drawn):
        return pd.DataFrame(columns=cols)
    dist = not_drawn["district"] if "district" in not_drawn else pd.Series("", index=not_drawn.index)
    return pd.DataFrame(dict(zip(cols, [unit_names(not_drawn, lang).to_numpy(), not_drawn["unit_code"].to_numpy(),
                                        place_names(dist, "district", lang).to_numpy(),
                                        [label(c, lang) for c in not_drawn["category"]],
                                        not_drawn["why"].to_numpy()])))


def text_colour(hex_colour: str) -> str:
    """Black or white, whichever reads better on ``hex_colour``."""
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def html_table(df: pd.DataFrame, index: bool = False):
    """A pandas Styler for showing a table in a notebook or a report page: every cell, row label and column header
    HTML-escaped (``format(escape="html")``: a unit named ``<script>...`` from an input file shows as text), no
    truncation of long text, the row index hidden unless ``index``. Display only. A
    :class:`~reservation.views.styled.StyledTable`: the same table gives the same bytes on every run."""
    from .styled import styled
    st = styled(df, "html_table", index).format(escape="html", na_rep="").format_index(escape="html", axis=0)
    st = st.format_index(escape="html", axis=1)
    if not index:
        st = st.hide(axis="index")
    return st.set_properties(**{"text-align": "left", "vertical-align": "top"}).set_table_styles(
        [{"selector": "th", "props": [("text-align", "left")]}])


def style_categories(df: pd.DataFrame, lang: str = "en", index: bool = False):
    """:func:`html_table` with the category column of :func:`unit_list` (or of :func:`category_counts_table`)
    painted in the category's map colour (the same colours as every map and legend:
    :data:`reservation.law.categories.COLOURS`). Display only."""
    check_lang(lang)
    code_col, cat_col = word("table.category_code", lang), word("table.category", lang)
    codes = df[code_col] if code_col in df.columns else None

    def paint(col):
        if codes is None:
            return [""] * len(col)
        return [f"background-color: {COLOURS[c]}; color: {text_colour(COLOURS[c])}" if c in COLOURS else ""
                for c in codes]
    from .styled import content_uuid
    st = html_table(df, index=index).set_uuid(content_uuid(df, "style_categories", lang, index))
    if cat_col in df.columns:
        st = st.apply(paint, subset=[cat_col])
    return st


def html_heading(text: str, level: int = 2):
    """A heading for a notebook or a report page, as HTML with the text escaped (not Markdown: Markdown passes
    raw HTML through)."""
    import html

    from IPython.display import HTML
    level = min(max(int(level), 1), 6)
    return HTML(f"<h{level}>{html.escape(str(text))}</h{level}>")


def heading(result, division=None, lang: str = "en"):
    """:func:`report_heading` as escaped HTML (the body, year and division as a heading, then the line on units
    and history): what the division notebook displays."""
    import html

    from IPython.display import HTML
    title, line = _heading_parts(result, division, lang)
    return HTML(f"<h2>{html.escape(title)}</h2><p>{html.escape(line)}</p>")


def report_heading(result, division=None, lang: str = "en") -> str:
    """The page heading in Markdown: body, year, division, number of units, the history used."""
    title, line = _heading_parts(result, division, lang)
    return f"## {title}\n\n{line}"


def _heading_parts(result, division, lang: str) -> tuple[str, str]:
    """The heading's title (body, year, division) and its line (number of units, the history used)."""
    check_lang(lang)
    meta = result.meta
    body = meta.get("body", "")
    years = ", ".join(map(str, meta.get("history_years", []))) or word("heading.no_history", lang)
    sub = in_division(result.table, division)
    if is_all(division):
        where = word("table.all", lang)
    else:
        names = [division] if isinstance(division, str) else list(division)
        where = ", ".join(place_names(pd.Series(names), "division", lang))
    return (f"{body_title(body, lang)} {meta.get('year', '')}: {where}",
            word("heading.units", lang, n=len(sub), years=years, base=meta.get("base_year", "")))


def assumptions_table(result) -> pd.DataFrame:
    """What the run assumed and which options differ from their defaults: ``kind, item, value``."""
    rows = [{"kind": word("assume.assumption"), "item": "", "value": a} for a in result.meta.get("assumptions", [])]
    for name, o in result.meta.get("options", {}).items():
        if str(o.get("value")) != str(o.get("default")):
            rows.append({"kind": word("assume.option"), "item": name,
                         "value": f"{o.get('value')} (default {o.get('default')}): {o.get('reading', '')}"})
    for item in result.meta.get("inputs", {}).get("history", []):
        rows.append({"kind": word("assume.history"), "item": item.get("path", ""),
                     "value": item.get("sha256", "")[:16]})
    return pd.DataFrame(rows, columns=["kind", "item", "value"])


def flags_table(flags, table: pd.DataFrame | None = None, division=None) -> pd.DataFrame:
    """The constitutional flags (an allotment's ``meta["flags"]`` records, or an audit's flags table) as shown
    (:data:`FLAG_COLUMNS_SHOWN`); with ``table`` (the allotment table) and ``division`` (one, several, or all),
    only the flags of the counting units of those divisions (a State-wide flag always)."""
    df = pd.DataFrame(list(flags) if not isinstance(flags, pd.DataFrame) else flags, columns=None)
    if not len(df):
        return pd.DataFrame(columns=FLAG_COLUMNS_SHOWN)
    df = df.reindex(columns=FLAG_COLUMNS_SHOWN).fillna("")
    if table is not None and division is not None and not is_all(division) and "division" in table.columns:
        divs = [division] if isinstance(division, str) else list(division)
        sub = table[table["division"].isin(divs)]
        here = {str(v) for c in ("district", "division") if c in sub.columns for v in sub[c].unique()}
        df = df[df["counting_unit"].isin(here | {"*", "State", ""})]
    return df.reset_index(drop=True)


def flag_notes(flags, lang: str = "en"):
    """What each kind of flag in ``flags`` (a :func:`flags_table`) means, and that a flag is a question to ask,
    not a finding that the list is unlawful (:func:`reservation.law.words.flag_meanings`, the words ``allot``
    prints): escaped HTML, empty without flags."""
    import html

    from IPython.display import HTML
    lines = flag_meanings(flags["flag"] if len(flags) else (), check_lang(lang))
    return HTML("".join(f"<p><small>{html.escape(t)}</small></p>" for t in lines))


def reason_note(table: pd.DataFrame, lang: str = "en"):
    """The note under a Hindi unit table whose reasons are English (a table not rendered in Hindi, see
    :func:`table_in`): escaped HTML, empty otherwise."""
    import html

    from IPython.display import HTML
    check_lang(lang)
    text = "" if lang == "en" or _reasons_in(table) == lang else word("table.reason_note", lang)
    return HTML(f"<p><small>{html.escape(text)}</small></p>" if text else "")


#: Characters that make a spreadsheet read a cell as a formula (OWASP "CSV injection").
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value):
    """A CSV cell that no spreadsheet runs as a formula: text starting with ``= + - @``, a tab or a carriage return
    gets a leading apostrophe (``'=HYPERLINK(...)``), which spreadsheets show but do not evaluate. Numbers are left
    alone."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def write_csv(df: pd.DataFrame, path, index: bool = False, *, force: bool = False):
    """Write a table as CSV for spreadsheets: UTF-8 with a byte-order mark (Excel then reads Hindi correctly),
    every text cell and header protected by :func:`safe_cell`, the same bytes for the same table. The target is
    checked first (:func:`reservation.output.guard.check_new_file`: never the package's own folders or a symbolic link;
    an existing file only with ``force``) and published atomically (:func:`reservation.output.tables.publish`)."""
    from ..output.guard import check_new_file
    from ..output.tables import publish
    path = check_new_file(path, flag="path", force=force)
    out = df.copy()
    for c in out.columns:
        if out[c].dtype == object or pd.api.types.is_string_dtype(out[c]):
            out[c] = out[c].map(safe_cell)
    out.columns = [safe_cell(str(c)) for c in out.columns]
    if index:
        out.index = out.index.map(lambda v: safe_cell(str(v)))
    publish({path: ("\ufeff" + out.to_csv(index=index, lineterminator="\n")).encode("utf-8")})
    return path


def division_tables(result, division) -> dict[str, pd.DataFrame]:
    """The tables of a division page as data, for the CSV files beside it: ``counts`` (per category, both
    languages, division and State), ``units`` (every row of the allotment in the division with the category, the
    categories of the last two elections of the history (``category_YEAR``, codes), and the reason, tie-break and
    clause, in both languages; the answer's ``published``, ``status`` (with ``status_en``, ``status_hi``),
    ``possible`` and, for an election not yet held, ``P_ST_W ... P_UR``), ``assumptions``, and ``status`` (the
    count: units per status code in the division and the State, :func:`reservation.views.answers.status_table`)."""
    en = category_counts_table(result.table, division, "en")
    hi = category_counts_table(result.table, division, "hi")
    counts = pd.DataFrame({"category": en.iloc[:, 0], "label_en": en.iloc[:, 1], "label_hi": hi.iloc[:, 1],
                           "in_division": en.iloc[:, 2], "in_state": en.iloc[:, 3]})
    units = _sorted_units(result.table, division).drop(columns=["_o", "_n"])
    pos = list(units.columns).index("category") + 1
    units.insert(pos, "category_hi", [label(c, "hi") for c in units["category"]])
    units.insert(pos, "category_en", [label(c, "en") for c in units["category"]])
    past = past_categories(result)
    for k, y in enumerate(past.columns):               # the last elections' categories (codes), after the labels
        units.insert(pos + 2 + k, f"category_{y}", past[y].reindex(units["unit_code"]).fillna("").to_numpy())
    if "status" in units.columns:                    # the status in words beside its code
        at = list(units.columns).index("status") + 1
        units.insert(at, "status_hi", [STATUS_WORDS["hi"].get(c, ("",))[0] for c in units["status"]])
        units.insert(at, "status_en", [STATUS_WORDS["en"].get(c, ("",))[0] for c in units["status"]])
    hi = table_in(result, "hi")
    if _reasons_in(hi) == "hi":                      # the reasons, tie-breaks and clauses in Hindi too
        hi = hi.set_index("unit_code")
        for col in ("reason", "tie_break", "clause"):
            if col in units.columns and col in hi.columns:
                units.insert(list(units.columns).index(col) + 1, f"{col}_hi",
                             hi.loc[units["unit_code"], col].to_numpy())
    out = {"counts": counts, "units": units.reset_index(drop=True), "assumptions": assumptions_table(result)}
    if "status" in result.table.columns:             # the count: units per status, division and State
        out["status"] = status_table(result.table, division)
    return out
