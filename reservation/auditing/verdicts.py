"""The audit's verdicts: one per rule of the body's passes, before the table, in English or Hindi.

A :class:`Verdict` is typed data: the pass (its codes, as the audit table's ``step``), the check (as its
``check``), whether the rule held (a code of :data:`reservation.auditing.held.HELD`, or ``knock_on``), how many
units the list gives, and the units the audit table gives this rule, counted by finding code. It is built from the
audit's typed records only (:func:`verdicts`: the rules of :func:`reservation.auditing.held.rule_checks` and the
table's ``finding``, ``step`` and ``check`` columns), so its numbers are the table's own counts; no code reads a
sentence back. :func:`verdict_text` words one verdict from the entries ``verdict.*`` and ``audit.finding.*`` of
:mod:`reservation.law.words`, and :func:`verdict_lines` all of them with a heading.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import pandas as pd

from .held import RuleCheck
from ..law.words import category_label, units_word, word
from ..law.words_audit import render

__all__ = ["Verdict", "verdicts", "verdict_text", "verdict_lines", "verdict_records", "rule_words", "table_in",
           "NAMES_SHOWN"]

#: the most units a verdict names in words (the rest: "and N more")
NAMES_SHOWN = 8


@dataclass(frozen=True)
class Verdict:
    """One rule of one pass on a published list.

    ``step`` the pass's codes ("SC_W+SC"; "UR" for a knock-on among the unreserved), ``group`` its group ("SC",
    "GEN" for the women's pass, "UR"), ``check`` the rule (a key of
    :data:`reservation.auditing.findings.CHECK_WORDS`), ``held`` (a key of :data:`reservation.auditing.held.HELD`,
    or ``knock_on``), ``listed`` the units the list gives, ``unit_kind`` the rulebook's, ``counts`` the audit
    table's rows of this rule (``step`` and ``check``) by finding code, ``units`` those rows as (unit code, English
    name, Hindi name, finding) in table order, ``named`` the units the rules table names for this rule whose row
    another rule decided (same form)."""

    step: str
    group: str
    check: str
    held: str
    listed: int
    unit_kind: str
    counts: tuple = ()
    units: tuple = ()
    named: tuple = ()

    @property
    def affected(self) -> int:
        """The units at which the rule did not hold (the table's rows of it and the other units it names)."""
        return len(self.units) + len(self.named)

    @property
    def held_at(self) -> int:
        """The units the list gives at which the rule held."""
        return self.listed - self.affected


def _group_of(step: str, groups: dict) -> str:
    return groups.get(step, "UR" if step == "UR" else step.split("+")[-1].split("_")[0])


def verdicts(table: pd.DataFrame, checks: list[RuleCheck], codes, unit_kind: str) -> list[Verdict]:
    """The verdicts of an audit: one per rule of :func:`~reservation.auditing.held.rule_checks` (in the legal
    order), then one per other (pass, check) that decided a row of ``table`` (a knock-on, a tie). ``codes``: the
    unit code of each engine position (the rules name positions)."""
    listed = int((table["finding"] != "not_in_list").sum())
    rows = table[table["check"] != ""]
    info = {int(c): (int(c), str(e), str(h), str(f)) for c, e, h, f in
            zip(table["unit_code"], table["unit_name_en"], table["unit_name_hi"], table["finding"])}
    groups = {c.step: c.group for c in checks}

    def one(step, group, check, held, positions=()):
        mine = rows[(rows["step"] == step) & (rows["check"] == check)]
        units = tuple(info[int(c)] for c in mine["unit_code"])
        have = {u[0] for u in units}
        named = tuple(info[int(codes[p])] for p in positions if int(codes[p]) not in have and int(codes[p]) in info)
        counts = tuple(sorted(Counter(mine["finding"].astype(str)).items()))
        return Verdict(step, group, check, held, listed, unit_kind, counts, units, named)

    out = [one(c.step, c.group, c.check, c.held, c.positions) for c in checks]
    seen = {(v.step, v.check) for v in out}
    order = {s: i for i, s in enumerate(dict.fromkeys(c.step for c in checks))}      # the legal order of passes
    extra = sorted({k for k in zip(rows["step"], rows["check"]) if k not in seen},
                   key=lambda k: (order.get(k[0], len(order)), k[0], k[1]))
    for step, check in extra:
        out.append(one(step, _group_of(step, groups), check, "knock_on" if check == "knock_on" else "no"))
    return out


def _names(units, lang: str) -> str:
    names = [(u[2] or u[1]) if lang == "hi" else u[1] for u in units]
    if len(names) <= NAMES_SHOWN:
        return ", ".join(names)
    return word("verdict.more", lang, names=", ".join(names[:NAMES_SHOWN]), n=len(names) - NAMES_SHOWN)


def _group_words(group: str, lang: str) -> str:
    if group in ("GEN", "UR"):
        return word(f"verdict.group.{group}", lang)
    return category_label(group, "hi") if lang == "hi" else group


def rule_words(step: str, group: str, check: str, lang: str = "en") -> str:
    """The rule of a row in words, from its typed ``step`` and ``check`` (a match: its pass; "UR": unreserved)."""
    if step == "UR" and check == "":
        return word("verdict.group.UR", lang)
    if step == "pin":
        return word("verdict.rule.pin", lang)
    text = word(f"verdict.rule.{check or 'pass'}", lang, group=_group_words(group, lang))
    return text[0].upper() + text[1:] if lang == "en" else text


def table_in(table: pd.DataFrame, vs: list[Verdict], lang: str = "en", clause_hi=None,
             computed=None, details=None) -> pd.DataFrame:
    """The audit table with its ``rule`` words in ``lang`` (rendered from ``step`` and ``check``; a unit the list
    lacks: the finding's words) and, given ``clause_hi`` (``AuditResult.clause_hi``), its ``clause`` in Hindi (a
    match's, None there, from the ``computed`` allotment's Hindi table); given ``details``
    (``AuditResult.details``, typed), its ``detail`` in ``lang`` (:func:`reservation.law.words_audit.render`).
    Columns and codes as in English."""
    if lang == "en":
        return table
    if details is not None and len(details) == len(table):
        table = table.assign(detail=[render(d, lang) for d in details])
    groups = {v.step: v.group for v in vs}
    rule = [word("audit.finding.not_in_list", lang) if f == "not_in_list" else
            rule_words(s, _group_of(s, groups), c, lang)
            for s, c, f in zip(table["step"], table["check"], table["finding"])]
    if clause_hi is None or len(clause_hi) != len(table):
        return table.assign(rule=rule)
    hi = {}
    if computed is not None and any(c is None for c in clause_hi):
        t = computed.table_in(lang)
        hi = dict(zip(t["unit_code"].astype("int64"), t["clause"]))
    clause = [hi.get(int(u), en) if c is None else (c or en)
              for u, c, en in zip(table["unit_code"], clause_hi, table["clause"])]
    return table.assign(rule=rule, clause=clause)


def verdict_text(v: Verdict, lang: str = "en") -> str:
    """One verdict in words: the rule, whether it held (in how many of the listed units), then the table's
    units of the rule by finding, and the other units it names."""
    rule = rule_words(v.step, v.group, v.check, lang)
    held = "no" if v.held in ("yes", "no") and v.affected else v.held
    text = word(f"verdict.held.{held}", lang, rule=rule, listed=v.listed, held=v.held_at,
                units=units_word(v.unit_kind, v.listed, lang))
    parts = []
    for finding, n in v.counts:
        mine = [u for u in v.units if u[3] == finding]
        parts.append(word("verdict.part", lang, finding=word(f"audit.finding.{finding}", lang), n=n,
                          units=units_word(v.unit_kind, n, lang), names=_names(mine, lang)))
    if v.named:
        parts.append(word("verdict.also", lang, names=_names(v.named, lang)))
    return "; ".join([text] + parts) + ("।" if lang == "hi" else ".")


def verdict_lines(vs: list[Verdict], lang: str = "en") -> list[str]:
    """The heading and one line per verdict."""
    if not vs:
        return []
    n = vs[0].listed
    return [word("verdict.heading", lang, n=n, units=units_word(vs[0].unit_kind, n, lang))] + [
        verdict_text(v, lang) for v in vs]


def verdict_records(vs: list[Verdict]) -> list[dict]:
    """The verdicts as data for a meta file: the typed fields, the unit codes, and the words in both languages."""
    return [{"step": v.step, "group": v.group, "check": v.check, "held": v.held, "listed": v.listed,
             "held_at": v.held_at, "counts": dict(v.counts), "units": [u[0] for u in v.units],
             "named": [u[0] for u in v.named], "en": verdict_text(v, "en"), "hi": verdict_text(v, "hi")}
            for v in vs]
