"""Whether each rule of each pass held on a published list: the audit's rules table (:data:`RULE_COLUMNS`).

:func:`rule_checks` reads what the walk (:mod:`reservation.auditing.walk`) checked in each pass and the bounds on
the unknown OBC figures of the audit's run (:mod:`reservation.auditing.audit`): one typed :class:`RuleCheck` per
rule and pass (the pass's codes, the check, whether it held as a code of :data:`HELD`, the units it names).
:func:`rules_held` words them as the rules table; :mod:`reservation.auditing.verdicts` counts them with the
audit table's findings.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ..law.words import word

__all__ = ["RULE_COLUMNS", "HELD", "RuleCheck", "rule_checks", "rules_held"]

RULE_COLUMNS = ["step", "rule", "clause", "held", "units", "detail"]

#: whether a rule held, as a code -> the word the rules table's ``held`` column shows
HELD = {"yes": "yes", "no": "no", "not_public": "not public",
        "lawful_for_some": "not public: lawful for some OBC figures",
        "unlawful_for_all": "not public: no OBC figures make it lawful",
        "cannot_check": "cannot_check", "not_in_list": "not_in_list"}


@dataclass(frozen=True)
class RuleCheck:
    """One rule of one pass on the published list: ``step`` the pass's codes ("SC_W+SC"), ``group`` ("SC", "GEN"
    for the women's pass), ``check`` (a key of :data:`reservation.auditing.findings.CHECK_WORDS`), ``held`` (a key
    of :data:`HELD`), ``positions`` the units it names (positions in the engine's order), ``freed`` the units the
    list leaves unreserved as the division rule frees them, ``clause`` and ``key_label`` words of the rulebook,
    ``statements`` how many statements about an order that is not public it made, ``why`` (cannot_check: the
    reason in words), ``public`` whether the pass's key is public (else the order is stated, not checked)."""

    step: str
    group: str
    check: str
    held: str
    positions: tuple = ()
    clause: str = ""
    key_label: str = ""
    freed: tuple = ()
    statements: int = 0
    why: str = ""
    public: bool = True


def rule_checks(run) -> list[RuleCheck]:
    """What the walk checked of each rule of each pass, in the legal order."""
    w, ctx = run.walk, run.ctx
    out = []
    for info in w.passes:
        i = info["index"]
        chk = w.checked[i]
        if not ctx.eng.records[i].need.any() and not chk["counts"]:
            continue

        def rc(check, held, positions=(), clause=info["clause"], **kw):
            out.append(RuleCheck(info["name"], info["group"], check, held, tuple(sorted(set(positions))), clause,
                                 info["key_label"], **kw))

        if chk["cannot_check"]:          # the counts alone (audit_walk._counts_only); the order rules not checked
            rc("pass", "cannot_check", why=chk["cannot_check"])
        unknown_counts = [p for p in chk["counts"] if any(x.unknown for x in w.issues.get(p, []))]
        rc("counts", "yes" if not chk["counts"] else
           ("not_public" if len(unknown_counts) == len(chk["counts"]) else "no"), chk["counts"])
        if chk["unchecked"]:             # posts the list leaves short where it lacks units: typed, not judged
            rc("unchecked", "not_in_list", chk["unchecked"])
        if chk["cannot_check"]:
            continue
        if chk["eligibility"]:
            rc("eligibility", "no", chk["eligibility"], clause=info["clause_eligible"])
        rc("rotation", "no" if chk["rotation"] else "yes", chk["rotation"], clause=info["clause_rotation"])
        if info["unknown"] is None:
            rc("order", "no" if chk["order"] else "yes", chk["order"])
        else:
            order_ks = [k for k in chk["statements"] if w.stmt_info[k]["what"] == "order"]
            rc("order", _unknown_held(run, order_ks), statements=len(order_ks), public=False)
        if len(info["codes"]) > 1:
            wk = [k for k in chk["statements"] if w.stmt_info[k]["what"] == "women"]
            rc("women", "no" if chk["women"] else (_unknown_held(run, wk) if wk else "yes"), chk["women"],
               clause=info["clause_women"], statements=len(wk))
        if info["clause_division"]:
            rc("division", "no" if chk["division"] else "yes", chk["division"], clause=info["clause_division"],
               freed=tuple(chk["freed"]))
    return out


def rules_held(run, checks: list[RuleCheck] | None = None) -> pd.DataFrame:
    """Whether each rule of each pass held on the published list (the rules table, in words)."""
    ctx = run.ctx
    out = []

    def names(ps):
        return ctx.names_of(sorted(set(ps)), 8)

    for r in rule_checks(run) if checks is None else checks:
        step = f"{r.step} pass"
        posts = "women's" if r.group == "GEN" else r.group
        units, detail = names(r.positions), ""
        rule = {"pass": "the pass, with the list's earlier passes as published",
                "counts": f"{posts} posts as the law's arithmetic gives them",
                "unchecked": f"{posts} posts where the list lacks units",
                "eligibility": "eligibility (two-person rule)", "rotation": "rotation: better tiers first",
                "order": f"descending {r.key_label}", "women": "women's posts from the top",
                "division": "division rule"}[r.check]
        if r.check == "pass":
            units, detail = "", r.why
        elif r.check == "unchecked":
            detail = word("audit.rule_unchecked", "en", units=units)
        elif r.check == "order" and not r.public:
            detail = f"{r.statements} statement(s) about the order, which is not public"
        elif r.check == "division" and r.freed:
            detail = f"the list leaves unreserved, as the rule frees: {names(r.freed)}"
        out.append((step, rule, r.clause, HELD[r.held], units, detail))
    return pd.DataFrame(out, columns=RULE_COLUMNS)


def _unknown_held(run, ks) -> str:
    if not ks:
        return "yes"
    b = run.bounds
    if b is None:
        return "yes"
    units = {p for k in ks for p in run.walk.statements[k].above + run.walk.statements[k].below}
    if b.feasible:
        return "lawful_for_some"
    if units & set(b.empty) or not b.total_ok or not b.converged:
        return "unlawful_for_all"
    return "lawful_for_some"
