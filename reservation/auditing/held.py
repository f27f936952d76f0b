"""Whether each rule of each pass held on a published list: the audit's rules table (:data:`RULE_COLUMNS`).

:func:`rules_held` reads what the walk (:mod:`reservation.auditing.walk`) checked in each pass and the bounds on
the unknown OBC figures of the audit's run (:mod:`reservation.auditing.audit`); one row per rule and pass.
"""

from __future__ import annotations

import pandas as pd

from ..law.words import word

__all__ = ["RULE_COLUMNS", "rules_held"]

RULE_COLUMNS = ["step", "rule", "clause", "held", "units", "detail"]


def rules_held(run) -> pd.DataFrame:
    """Whether each rule of each pass held on the published list."""
    w, ctx = run.walk, run.ctx
    out = []

    def names(ps):
        return ctx.names_of(sorted(set(ps)), 8)

    for info in w.passes:
        i = info["index"]
        chk = w.checked[i]
        rec = ctx.eng.records[i]
        if not rec.need.any() and not chk["counts"]:
            continue
        step = f"{info['name']} pass"
        gname = "women" if info["group"] == "GEN" else info["group"]
        if chk["cannot_check"]:          # the counts alone (audit_walk._counts_only); the order rules not checked
            out.append((step, "the pass, with the list's earlier passes as published", info["clause"],
                        "cannot_check", "", chk["cannot_check"]))
        unknown_counts = [p for p in chk["counts"] if any(x.unknown for x in w.issues.get(p, []))]
        posts = "women's" if gname == "women" else gname
        out.append((step, f"{posts} posts as the law's arithmetic gives them", info["clause"],
                    "yes" if not chk["counts"] else ("not public" if len(unknown_counts) == len(chk["counts"])
                                                     else "no"), names(chk["counts"]), ""))
        if chk["unchecked"]:             # posts the list leaves short where it lacks units: typed, not judged
            out.append((step, f"{posts} posts where the list lacks units", info["clause"], "not_in_list",
                        names(chk["unchecked"]), word("audit.rule_unchecked", "en", units=names(chk["unchecked"]))))
        if chk["cannot_check"]:
            continue
        if chk["eligibility"]:
            out.append((step, "eligibility (two-person rule)", info["clause_eligible"], "no",
                        names(chk["eligibility"]), ""))
        out.append((step, "rotation: better tiers first", info["clause_rotation"],
                    "no" if chk["rotation"] else "yes", names(chk["rotation"]), ""))
        if info["unknown"] is None:
            out.append((step, f"descending {info['key_label']}", info["clause"], "no" if chk["order"] else "yes",
                        names(chk["order"]), ""))
        else:
            ks = chk["statements"]
            order_ks = [k for k in ks if w.stmt_info[k]["what"] == "order"]
            held = _unknown_held(run, order_ks)
            out.append((step, f"descending {info['key_label']}", info["clause"], held,
                        "", f"{len(order_ks)} statement(s) about the order, which is not public"))
        if len(info["codes"]) > 1:
            wk = [k for k in chk["statements"] if w.stmt_info[k]["what"] == "women"]
            held = "no" if chk["women"] else (_unknown_held(run, wk) if wk else "yes")
            out.append((step, "women's posts from the top", info["clause_women"], held, names(chk["women"]), ""))
        if info["clause_division"]:
            freed = chk["freed"]
            out.append((step, "division rule", info["clause_division"], "no" if chk["division"] else "yes",
                        names(chk["division"]),
                        f"the list leaves unreserved, as the rule frees: {names(freed)}" if freed else ""))
    return pd.DataFrame(out, columns=RULE_COLUMNS)


def _unknown_held(run, ks) -> str:
    if not ks:
        return "yes"
    b = run.bounds
    if b is None:
        return "yes"
    units = {p for k in ks for p in run.walk.statements[k].above + run.walk.statements[k].below}
    if b.feasible:
        return "not public: lawful for some OBC figures"
    if units & set(b.empty) or not b.total_ok or not b.converged:
        return "not public: no OBC figures make it lawful"
    return "not public: lawful for some OBC figures"
