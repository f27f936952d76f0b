"""The eight categories of a reserved office or seat, in the order of the GO 2021 ("आरक्षण की क्रमावली").

Codes are stable identifiers used in every file: ``ST_W ST SC_W SC OBC_W OBC W UR``.
``group`` is the social category a code belongs to (for rotation: an SC-women office *is* an SC office);
``women`` says whether it is reserved for women.
"""

from __future__ import annotations

from dataclasses import dataclass

from .words import CATEGORY_LABELS

__all__ = ["Category", "CATEGORIES", "CODES", "GROUPS", "by_code", "check_code", "women_code",
           "COLOURS", "label", "category_colourscale"]


@dataclass(frozen=True)
class Category:
    code: str
    group: str          # ST, SC, OBC, GEN (general: W and UR)
    women: bool
    label_en: str
    label_hi: str


_GROUPS = (("ST_W", "ST", True), ("ST", "ST", False), ("SC_W", "SC", True), ("SC", "SC", False),
           ("OBC_W", "OBC", True), ("OBC", "OBC", False), ("W", "GEN", True), ("UR", "GEN", False))
#: The labels come from reservation.law.words, where every bilingual string of the workbench is kept.
CATEGORIES: tuple[Category, ...] = tuple(
    Category(code, group, women, CATEGORY_LABELS[code]["en"], CATEGORY_LABELS[code]["hi"])
    for code, group, women in _GROUPS)
CODES: tuple[str, ...] = tuple(c.code for c in CATEGORIES)
GROUPS: tuple[str, ...] = ("ST", "SC", "OBC")   # the reserved social groups, in the order of the GO
_BY_CODE = {c.code: c for c in CATEGORIES}

# One colour per category, the same in every map and legend (issue 6). Colour-blind-safe pairs:
# a group keeps its hue, the women's office is the darker shade.
COLOURS: dict[str, str] = {
    "ST_W": "#1b7837", "ST": "#7fbf7b",
    "SC_W": "#2166ac", "SC": "#92c5de",
    "OBC_W": "#b35806", "OBC": "#fdb863",
    "W": "#762a83", "UR": "#e0e0e0",
}


def category_colourscale() -> list:
    """A plotly colour scale with one flat step per category, in :data:`CODES` order: a heatmap whose cells are
    category indices (``zmin=-0.5``, ``zmax=len(CODES) - 0.5``) shows each in its map colour."""
    n = len(CODES)
    scale = []
    for i, c in enumerate(CODES):
        scale += [[i / n, COLOURS[c]], [(i + 1) / n, COLOURS[c]]]
    return scale


def by_code(code: str) -> Category:
    return _BY_CODE[code]


def check_code(code: str) -> bool:
    return code in _BY_CODE


def women_code(group: str) -> str:
    """The women's code of a group: ``SC`` -> ``SC_W``; ``GEN`` -> ``W``."""
    return "W" if group == "GEN" else f"{group}_W"


def label(code: str, lang: str = "en") -> str:
    c = _BY_CODE[code]
    return c.label_hi if lang == "hi" else c.label_en
