"""A unit's history in words (English or Hindi, every word from :mod:`reservation.law.words`) and as a table.

- :func:`render_text`: what ``reservation history`` prints: the unit, its category at every election with the
  source of each record, and the rotation verdicts for the next election under each base year, with the clauses;
- :func:`history_table`: one row per election (``year, category, source``, then the status, the note and one
  verdict column per base year and group: ``base_2015_SC`` ...), the next election last; the verdicts of an
  earlier row are what the same rule gives at that election. Columns and codes stay English in either
  language; the labels and verdict cells are in ``lang`` (as ``reservation allot --lang``).
"""

from __future__ import annotations

import pandas as pd

from ..law.words import BODY_TITLES_HI, TEXT, UNPLACED_REASONS, category_label, word
from .unit_history import GROUPS, UnitHistory, Verdict, verdicts_at

__all__ = ["render_text", "history_table", "verdict_words", "verdict_short", "note_text"]


def _years(ys, lang: str) -> str:
    return ", ".join(map(str, ys)) if ys else word("history.none_counted", lang)


def _tiers(v: Verdict, lang: str) -> str:
    t = [str(x) for x in v.tiers]
    return t[0] if len(t) == 1 else f"{', '.join(t[:-1])} {word('history.or', lang)} {t[-1]}"


def verdict_words(v: Verdict, year: int, lang: str = "en") -> str:
    """The verdict of one group in words."""
    if v.tiers == (0,):
        return word("history.tier.0", lang, year=year)
    if v.decided:
        return word(f"history.tier.{v.tiers[0]}", lang, base=v.base_year, last=v.last, held=_years(v.held, lang))
    key = "history.range_held" if v.held else "history.range"
    return word(key, lang, tiers=_tiers(v, lang), missing=_years(v.missing, lang), held=_years(v.held, lang))


def verdict_short(v: Verdict, lang: str = "en") -> str:
    """The verdict as a table cell: the tier and a few words, or the possible tiers and the missing lists."""
    if v.decided:
        return word(f"history.short.{v.tiers[0]}", lang)
    return word("history.short.range", lang, tiers="/".join(map(str, v.tiers)), missing=_years(v.missing, lang))


def reason_text(reason: str, lang: str = "en") -> str:
    """The crosswalk's reason for an unplaced row in ``lang`` (a part it does not know stays as written)."""
    return "; ".join(UNPLACED_REASONS[p][lang] if p in UNPLACED_REASONS else p
                     for p in (x.strip() for x in reason.split(";")) if p)


def note_text(note: tuple, lang: str = "en") -> str:
    """A record's provenance (typed parts, :mod:`reservation.history.places`) in words."""
    out = []
    for key, fields in note:
        f = dict(fields)
        if "reason" in f:
            f["reason"] = reason_text(f["reason"], lang)
        if key == "caveat":
            f["caveat"] = "; ".join(word(f"history.caveat.{c}", lang) if f"history.caveat.{c}" in TEXT else c
                                    for c in f["caveat"].split(";") if c)
        if key == "confidence" and f"history.confidence.{f['confidence']}" in TEXT:   # the list's own grade in words
            f["confidence"] = word(f"history.confidence.{f['confidence']}", lang)
        out.append(word(f"history.note.{key}", lang, **f))
    return "; ".join(out)


def _title(h: UnitHistory, lang: str) -> str:
    from ..rules.registry import get_rulebook
    body = BODY_TITLES_HI.get(h.body, h.body) if lang == "hi" else get_rulebook(h.body).title
    n = h.names
    other = n["name_en"] if lang == "hi" else n["name_hi"]
    name = n["name"] + (f" ({other})" if other and other != n["name"] else "")
    where = "".join(f", {w}" for w in n["where"] if w not in (n["name_en"], n["name_hi"]))
    if h.unplaced:
        return word("history.title_unplaced", lang, body=body, name=name, where=where,
                    reason=reason_text(h.unplaced, lang))
    return word("history.title", lang, body=body, name=name, where=where, code=h.unit)


def _status(h: UnitHistory, e, lang: str) -> str:
    if e.category:
        return category_label(e.category, lang)
    if e.year == max(x.year for x in h.elections) and e.status == "no_list":
        return word("history.give_list", lang, year=e.year)
    return word(f"history.status.{e.status}", lang, year=e.year)


def render_text(h: UnitHistory, lang: str = "en") -> str:
    """The history and the verdicts as lines of text (see the module's doc)."""
    out = [_title(h, lang), word("history.elections", lang)]
    for e in h.elections:
        code = e.category or "—"
        note = note_text(e.note, lang)
        src = f"  [{e.source}" + (f"; {note}" if note else "") + "]" if e.source else ""
        out.append(f"  {e.year}  {code:<6} {_status(h, e, lang)}{src}")
    out.append("")
    held = any(e.year == h.year for e in h.elections)
    out.append(word("history.at" if held else "history.next", lang, year=h.year))
    for b in h.base_years:
        vs = [h.verdict(b, g) for g in GROUPS]
        default = word("history.default", lang) if b == h.default_base_year else ""
        out.append("  " + word("history.base", lang, base=b, default=default, counted=_years(vs[0].counted, lang),
                                clause=h.clauses.get(b, "")))
        for v in vs:
            out.append(f"    {word(f'history.group.{v.group}', lang)}: {verdict_words(v, h.year, lang)}")
    # the group by its code in English ("SC GO 2021 ..."), by its words in Hindi ("अनुसूचित जाति: शासनादेश 2021 ...")
    name = (lambda g: g) if lang == "en" else (lambda g: word(f"history.group.{g}", lang) + ":")
    clauses = "; ".join(f"{name(g)} {h.clauses[g]}" for g in GROUPS if h.clauses.get(g))
    if clauses:
        out.append(word("history.tier_rule", lang, clause=clauses))
    out.append(word("history.unknown_note", lang))
    return "\n".join(out) + "\n"


def history_table(h: UnitHistory, lang: str = "en") -> pd.DataFrame:
    """One row per election and one for the next election (see the module's doc)."""
    rows = []
    at = {e.year: e for e in h.elections}
    for e in [e for e in h.elections if e.year < h.year] + [at.get(h.year)]:
        last = e is None or e.year == h.year
        vs = h.verdicts if last else verdicts_at(h, e.year)
        year = h.year if last else e.year
        row = {"year": year, "category": "" if e is None else e.category, "source": "" if e is None else e.source,
               "category_label": category_label(e.category, lang) if e is not None and e.category else "",
               "status": "next" if e is None else e.status, "note": "" if e is None else note_text(e.note, lang)}
        for v in vs:
            row[f"base_{v.base_year}_{v.group}"] = verdict_short(v, lang) if v.base_year <= year else ""
        rows.append(row)
    return pd.DataFrame(rows)
