"""The answer beside every computed category, as the notebooks, the explorer and the report pages show it
(issue 20): the count that opens every output ("75 districts: 12 determined by public data, 27 depend on OBC
figures, ..."), per division; the answer's columns of a unit table (the published category, the status in words,
the possible categories, the probabilities of an election not yet held); one unit's answer (notebook 03).

The answer itself is the allotment's (:attr:`reservation.allotment.result.Allotment.answer`: the table's columns
``published``, ``status``, ``possible`` and ``P_*``); nothing here decides a status. The words are
:mod:`reservation.law.words`' (``STATUS_WORDS``, :func:`~reservation.law.words.status_counts_line`)."""

from __future__ import annotations

import html

import pandas as pd

from ..law.categories import CODES, label
from ..law.decisions import STATUS_PRECEDENCE
from ..law.words import STATUS_WORDS, check_lang, status_counts_line, word
from .places import in_division

__all__ = ["STATUS_ORDER", "PROBABILITY_COLUMNS", "has_answer", "status_counts", "count_line", "count_lines",
           "status_table", "answer_columns", "unit_answer", "has_published"]

#: The status codes in the order the count names them (determined first; the precedence reversed).
STATUS_ORDER: tuple[str, ...] = tuple(s.value for s in reversed(STATUS_PRECEDENCE))
#: The probability columns of an election not yet held (``P_ST_W ... P_UR``).
PROBABILITY_COLUMNS: tuple[str, ...] = tuple(f"P_{c}" for c in CODES)


def has_answer(table: pd.DataFrame) -> bool:
    """Whether the table carries the answer's columns (an allotment made with its inputs does)."""
    return "status" in table.columns


def has_published(table: pd.DataFrame) -> bool:
    """Whether the table names a published category for some unit (a published list is held)."""
    return "published" in table.columns and bool((table["published"].fillna("").astype(str) != "").any())


def status_counts(table: pd.DataFrame, division=None) -> dict[str, int]:
    """Units per status code in the division(s) (every code, 0 included, in :data:`STATUS_ORDER`); empty when
    the table has no ``status`` column."""
    if not has_answer(table):
        return {}
    got = in_division(table, division)["status"].fillna("").astype(str).value_counts()
    return {s: int(got.get(s, 0)) for s in STATUS_ORDER}


def count_line(result, division=None, lang: str = "en") -> str:
    """The count that opens an output, for the units of the division(s): "N districts: a determined by public
    data, b depend on OBC figures, ..." in ``lang``; "" for an allotment without its answer."""
    check_lang(lang)
    table = result.table
    counts = status_counts(table, division)
    if not counts:
        return ""
    return status_counts_line(counts, sum(counts.values()), str(result.unit_kind), lang)


def count_lines(result, division=None):
    """:func:`count_line` in English and Hindi, as escaped HTML (what a notebook or a page displays first)."""
    from IPython.display import HTML
    lines = [count_line(result, division, lang) for lang in ("en", "hi")]
    return HTML("".join(f'<p class="reservation-count"><b>{html.escape(t)}</b></p>' for t in lines if t))


def status_table(table: pd.DataFrame, division=None) -> pd.DataFrame:
    """The count as data (the CSV beside a division page): ``status, label_en, label_hi, in_division,
    in_state``, one row per status code and a total."""
    here, state = status_counts(table, division), status_counts(table)
    rows = [{"status": s, "label_en": STATUS_WORDS["en"][s][0], "label_hi": STATUS_WORDS["hi"][s][0],
             "in_division": here[s], "in_state": state[s]} for s in here]
    if rows:
        rows.append({"status": "TOTAL", "label_en": word("table.total"), "label_hi": word("table.total", "hi"),
                     "in_division": sum(here.values()), "in_state": sum(state.values())})
    return pd.DataFrame(rows, columns=["status", "label_en", "label_hi", "in_division", "in_state"])


def _published_words(codes, lang: str) -> list[str]:
    return [label(c, lang) if isinstance(c, str) and c else word("table.no_published", lang) for c in codes]


def _status_words(codes, lang: str) -> list[str]:
    return [STATUS_WORDS[lang][c][0] if c in STATUS_WORDS[lang] else "" for c in codes]


def answer_columns(rows: pd.DataFrame, lang: str = "en") -> dict[str, list]:
    """The answer's columns of a unit table for the rows ``rows`` of an allotment table, headers and words in
    ``lang``: the published category, the status (words), the possible categories (codes, ``|``), and for an
    election not yet held the probability of each category (``P_ST_W ... P_UR``, three decimals). Empty when
    the table has no answer."""
    check_lang(lang)
    if not has_answer(rows):
        return {}
    out = {word("table.published", lang): _published_words(rows["published"], lang),
           word("table.status", lang): _status_words(rows["status"].fillna("").astype(str), lang),
           word("table.possible", lang): rows["possible"].fillna("").astype(str).tolist()}
    for c in PROBABILITY_COLUMNS:
        if c in rows.columns:
            out[c] = [f"{float(p):.3f}" for p in rows[c]]
    return out


def unit_answer(result, unit: str, lang: str = "en") -> pd.DataFrame:
    """One unit's answer, what notebook 03 shows first for a unit (``unit``: its code or English name):
    rows ``item, value`` with the computed category, the published one, the status and why, the possible
    categories and (an election not yet held) the probabilities. Empty when the unit is not in the table or the
    allotment has no answer."""
    check_lang(lang)
    table = result.table
    hit = table[(table["unit_code"].astype(str) == str(unit)) | (table["unit_name_en"].astype(str) == str(unit))]
    cols = [word("table.item", lang), word("table.value", lang)]
    if not len(hit) or not has_answer(hit):
        return pd.DataFrame(columns=cols)
    row = hit.iloc[0]
    status = str(row["status"])
    items = [(word("table.category", lang), f"{label(row['category'], lang)} ({row['category']})"),
             (word("table.published", lang), _published_words([row["published"]], lang)[0]
              + (f" ({row['published']})" if row["published"] else "")),
             (word("table.status", lang), ": ".join(STATUS_WORDS[lang].get(status, ("", "")))),
             (word("table.possible", lang), str(row["possible"]))]
    probs = [(c, float(row[c])) for c in PROBABILITY_COLUMNS if c in hit.columns]
    if probs:
        items.append((word("table.probabilities", lang),
                      ", ".join(f"{c[2:]} {p:.3f}" for c, p in probs if p > 0)))
    return pd.DataFrame(items, columns=cols)
