"""Typed decisions: what the engine decided about a unit in a pass, as codes (never as words).

The engine returns these codes; :mod:`reservation.law.words` renders them in English and Hindi. Nothing downstream
parses the words: a consumer compares ``trace["decision"] == Decision.NO_POSTS.code`` (the string code is what
tables and files carry).
"""

from __future__ import annotations

from enum import Enum, IntEnum

__all__ = ["Decision", "DECISION_CODES", "Status", "STATUS_PRECEDENCE"]


class Decision(IntEnum):
    PASSED_OVER = 0         # ranked in the pass; the posts went to units earlier in rotation order
    ALLOTTED = 1            # took one of the pass's posts
    LEFT_OUT_DIVISION = 2   # the division rule left it unreserved for the group (ZP items 1-3, last sentence)
    NOT_ELIGIBLE = 3        # may not take the group (two-person rule)
    NO_POSTS = 4            # its parent has no posts in this pass
    PINNED = 5              # fixed by the pin file
    UNRESERVED = 6          # reached by no pass: unreserved

    @property
    def code(self) -> str:
        return _CODES[self]


_CODES = {Decision.PASSED_OVER: "passed_over", Decision.ALLOTTED: "allotted",
          Decision.LEFT_OUT_DIVISION: "left_out_division", Decision.NOT_ELIGIBLE: "not_eligible",
          Decision.NO_POSTS: "no_posts", Decision.PINNED: "pinned", Decision.UNRESERVED: "unreserved"}
#: code string -> Decision
DECISION_CODES = {v: k for k, v in _CODES.items()}


class Status(str, Enum):
    """How sure a computed category is (issue 20): the answer column ``status`` of an allotment table carries the
    value (a code; :data:`reservation.law.words.STATUS_WORDS` says it in English and Hindi).

    ``DETERMINED``: the public data decide it (the category is the same for every admissible value of the
    unknowns). ``DEPENDS_OBC``: it depends on figures that are not published (the OBC population).
    ``DEPENDS_LIST``: it depends on a past list the project does not hold (the unit's rotation tier is unknown).
    ``PARTIAL_FIGURES``: the unit's population figures are partial (its units table says ``figures=partial``).
    ``DIFFERS_PUBLISHED``: the State published a different category for this unit and election."""

    DETERMINED = "determined"
    DEPENDS_OBC = "depends_obc"
    DEPENDS_LIST = "depends_list"
    PARTIAL_FIGURES = "partial_figures"
    DIFFERS_PUBLISHED = "differs_published"

    @property
    def code(self) -> str:
        return self.value


#: Where several hold, the first of these is the unit's status.
STATUS_PRECEDENCE = (Status.DIFFERS_PUBLISHED, Status.DEPENDS_LIST, Status.PARTIAL_FIGURES, Status.DEPENDS_OBC,
                     Status.DETERMINED)
