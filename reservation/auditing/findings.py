"""What the audit's walk finds, as typed data: one :class:`Issue` per thing found about a unit, gathered in a
:class:`Walk` (:mod:`reservation.auditing.walk` walks the passes; :mod:`reservation.auditing.checks` holds the
checks of one pass). The sentence of an issue is typed where it is found (a
:class:`~reservation.law.words_audit.Detail`, put into words by :func:`reservation.law.words_audit.render`);
:mod:`reservation.auditing.audit` classifies them."""

from __future__ import annotations

from dataclasses import dataclass, field

from .unknowns import Statement
from ..law.words_audit import Detail, detail

__all__ = ["Issue", "Walk", "PRIORITY", "CHECK_WORDS", "state", "unchecked"]

#: precedence of a unit's issues inside one pass (lower first)
PRIORITY = {"violation_count": 0, "violation_division": 1, "eligibility": 2, "violation_rotation": 3,
            "violation_order": 4, "violation_women": 5, "tie": 6, "cannot_check": 7}
_BIG = 1 << 60
#: the checks of a pass (typed: an issue's ``check``, a row's and a rule's) and the words of the rule step they
#: make ("SC_W+SC pass: order"); ``pass``: the pass as a whole (it could not be run), ``knock_on``: a unit lawful
#: given the earlier passes as published that takes an earlier difference's finding
CHECK_WORDS = {"counts": "counts", "division": "division rule", "eligibility": "eligibility", "rotation": "rotation",
               "order": "order", "women": "women from the top", "tie": "tie", "pass": "the pass",
               "knock_on": "knock-on", "unchecked": "counts where the list lacks units"}


@dataclass
class Issue:
    """One thing the walk found about a unit: ``finding`` (a finding code, or ``tie``/``cannot_check``), the
    rule step in words, the clause, a sentence (a :class:`~reservation.law.words_audit.Detail`, rendered at the
    edge), the pass index (-1 before the passes) and whether the count it concerns depends on data that is not
    public."""

    finding: str
    rule: str
    clause: str
    detail: Detail
    pass_index: int
    unknown: bool = False
    partner: int | None = None      # the unit on the other side of the finding (who took it / who was left out)
    code: str = ""                  # why a check could not be made (``not_in_list``), for ``cannot_check``
    check: str = ""                 # the check that found it (a key of CHECK_WORDS)
    clause_hi: str = ""             # the clause in Hindi (the rulebook's Hindi of the same clause field)

    @property
    def order(self) -> tuple:
        return (self.pass_index, PRIORITY.get(self.finding, 9))


@dataclass
class Walk:
    """What the walk found: ``issues`` (position -> [Issue]); ``statements`` about unknown orders with their
    words (``stmt_info``: statement index -> dict); ``roles`` (position -> [(statement index, "above"/"below")]);
    ``freed`` (positions the division rule freed, by pass); ``passes`` (one dict per pass: name, group, codes,
    clauses, whether its key is public); ``checked`` (pass index -> {check: [positions violating]}),
    ``walk_cat``: what the
    rules give each unit with the list's earlier passes as published (the first pass that chose it, with the OBC
    figures assumed; "UR" if none)."""

    issues: dict = field(default_factory=dict)
    statements: list = field(default_factory=list)
    stmt_info: list = field(default_factory=list)
    roles: dict = field(default_factory=dict)
    freed: dict = field(default_factory=dict)
    passes: list = field(default_factory=list)
    checked: dict = field(default_factory=dict)
    walk_cat: dict = field(default_factory=dict)

    def add(self, pos: int, issue: Issue) -> None:
        self.issues.setdefault(int(pos), []).append(issue)

    def first(self, pos: int) -> Issue | None:
        got = self.issues.get(int(pos))
        return min(got, key=lambda x: x.order) if got else None


def unchecked(ctx, w: Walk, i: int, q: int, v: int, listed: int, need: int, gposts, where) -> bool:
    """A post of the group the list leaves without a unit in counting unit ``q`` where the list lacks units: one of
    them may hold it, so the count is not checked (typed ``not_in_list`` in ``checked[i]["unchecked"]``) and ``v``,
    which the rules would give it, is not judged on the count. Each unit the list lacks fills one such post."""
    if ctx.gaps.get(q, 0) <= 0:
        return False
    ctx.gaps[q] -= 1
    w.add(v, Issue("cannot_check", f"{ctx.eng.records[i].spec.name} pass: counts", ctx.eng.records[i].spec.text.clause,
                   detail("audit.count_unchecked", listed=listed, posts=gposts, where=where, need=need), i,
                   code="not_in_list", check="unchecked", clause_hi=ctx.eng.records[i].spec.text.in_lang("clause", "hi")))
    w.checked[i]["unchecked"].append(v)
    return True


def state(w: Walk, s: Statement, info: dict) -> None:
    k = len(w.statements)
    w.statements.append(s)
    w.stmt_info.append(info)
    w.checked[info["pass"]]["statements"].append(k)
    for p in s.above:
        w.roles.setdefault(int(p), []).append((k, "above"))
    for p in s.below:
        w.roles.setdefault(int(p), []).append((k, "below"))

