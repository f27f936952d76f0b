"""The words of the counts table (``reservation counts --arithmetic``, the ``districts`` and ``divisions`` tables):
each row's arithmetic, rendered from its typed parts (:mod:`reservation.law.arithmetic`, the rulebooks' restated
rows), in English or Hindi (issue 22; docs/glossary.md). The clause texts are the rulebooks' (their clause tables);
a clause here is a :class:`Said` pair of the two. Part of the words of :mod:`reservation.law.words`.

A part is a frozen dataclass; its class name picks the template of :data:`ARITHMETIC`, its fields fill it
(the fractions of :data:`FRACTION_PLACES` as decimals; a field named ``rounding`` or ending in ``_rounding`` by
:data:`ROUNDING_WORDS`; ``women_where`` and ``parent`` by :data:`PLACE_WORDS`). The English
templates give the table's old text exactly.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from fractions import Fraction
from typing import NamedTuple

from .rounding import fmt_fraction

__all__ = ["Said", "said", "ARITHMETIC", "ROUNDING_WORDS", "PLACE_WORDS", "arithmetic_words", "render_rows",
           "DEFAULT_CLAUSES_HI"]


class Said(NamedTuple):
    """One text in both languages (a clause from a rulebook's tables: ``en`` and ``hi``)."""

    en: str
    hi: str


def said(text, lang: str = "en") -> str:
    """``text`` in ``lang``: a :class:`Said` gives its language, a plain string is the same in both."""
    if isinstance(text, Said):
        return text.hi if lang == "hi" else text.en
    return text


#: a rounding's name inside the arithmetic: English as the option's value reads, Hindi in the order's words
ROUNDING_WORDS = {
    "en": {"half_up": "half-up", "floor": "floor", "ceil": "ceil"},
    "hi": {"half_up": "शेष भाजक के आधे से कम न हो तो एक बढ़ाकर", "floor": "केवल पूर्णांक भाग",
           "ceil": "ऊपर की ओर पूर्णांकित"},
}

#: where a restated count was counted, and the parent a sum runs over
PLACE_WORDS = {
    "en": {"": "", "districts": " in the districts", "district": "district", "block": "block",
           "gram panchayat": "gram panchayat", "parent": "parent"},
    "hi": {"": "", "districts": " (जिलों में गिने गए)", "district": "जिलों", "block": "विकास खण्डों",
           "gram panchayat": "ग्राम पंचायतों", "parent": "इकाइयों"},
}

#: the arithmetic of a counts row, by the class name of its part
ARITHMETIC = {
    "en": {
        "Proportion": "{posts} x {share} % = {product} -> {rounding} {count}",
        "ObcProportion": ("min({posts} x {share} % = {product} -> {prop}; cap {cap_pct2} % of {posts} = {cap_raw} -> "
                          "{cap_rounding} {cap}) = {count}"),
        "GroupArithmetic": "{proportion}; of these {women} women{women_where} -> {others} others",
        "WomenOfGroup": "{rounding}({group_posts}/3) = {count}",
        "WomenInAll": "{rounding}({posts}/3) = {total} in all, minus category women {category_women} = {count}",
        "WomenOfRest": "{rounding}(({posts} - {reserved} reserved)/3) = {count}",
        "LeftOver": "{posts} - {reserved} reserved - {women} women = {count}",
        "RowSum": "sum of the rows",
        "DistrictWomen": ("State ceil({group_posts}/3) = {state}; in the districts (women_level=district) the sum "
                          "of ceil(k/3) = {count}"),
        "DistrictGeneralWomen": "State: {state}; in the districts: sum of ceil(blocks/3) minus category women = {count}",
        "DistrictLeft": "the posts left in the districts: {count}",
        "DivisionRestated": ("State (b): {state}; in the divisions (women counted per division, option women_level): "
                             "{count}"),
        "ParentSum": "sum over {n} {parent}s",
        "Sum": "sum",
    },
    "hi": {
        "Proportion": "{posts} × {share} प्रतिशत = {product} → {rounding}: {count}",
        "ObcProportion": ("न्यूनतम({posts} × {share} प्रतिशत = {product} → {prop}; अधिकतम सीमा {posts} का {cap_pct2} "
                          "प्रतिशत = {cap_raw} → {cap_rounding}: {cap}) = {count}"),
        "GroupArithmetic": "{proportion}; इनमें से {women} महिला पद{women_where} → {others} अन्य",
        "WomenOfGroup": "{group_posts} का एक-तिहाई, {rounding}: {count}",
        "WomenInAll": ("{posts} का एक-तिहाई, {rounding}: कुल {total}, श्रेणियों के महिला पद {category_women} घटाकर "
                       "= {count}"),
        "WomenOfRest": "({posts} - {reserved} आरक्षित) का एक-तिहाई, {rounding}: {count}",
        "LeftOver": "{posts} - {reserved} आरक्षित - {women} महिला = {count}",
        "RowSum": "पंक्तियों का योग",
        "DistrictWomen": ("प्रदेश: {group_posts} का एक-तिहाई, ऊपर की ओर पूर्णांकित: {state}; जिलों में (विकल्प "
                          "`women_level=district`) हर जिले के पदों के एक-तिहाई (ऊपर की ओर पूर्णांकित) का योग = {count}"),
        "DistrictGeneralWomen": ("प्रदेश: {state}; जिलों में: हर जिले के विकास खण्डों के एक-तिहाई (ऊपर की ओर पूर्णांकित) "
                                 "का योग, श्रेणियों के महिला पद घटाकर = {count}"),
        "DistrictLeft": "जिलों में शेष पद: {count}",
        "DivisionRestated": ("प्रदेश (ख): {state}; मण्डलों में (महिला पद हर मण्डल में गिने गए, विकल्प "
                             "`women_level`): {count}"),
        "ParentSum": "{n} {parent} का योग",
        "Sum": "योग",
    },
}

#: the Hindi of :class:`reservation.law.arithmetic.QuotaRules`'s default clauses (GO 2021, ZP chair counts)
DEFAULT_CLAUSES_HI = {
    "sc_st": ("शासनादेश 2021, जिला पंचायत अध्यक्षों के पदों की संगणना, प्रस्तर 1 (क्षेत्र पंचायत तथा जिला पंचायत अधिनियम "
              "1961 की धारा 19-क): शेष भाजक के आधे से कम न हो तो एक बढ़ाया गया"),
    "obc": ("शासनादेश 2021, जिला पंचायत अध्यक्षों के पदों की संगणना, प्रस्तर 1, परन्तुक: पिछड़े वर्ग अधिकतम 27 प्रतिशत, "
            "केवल पूर्णांक"),
    "women": ("शासनादेश 2021, जिला पंचायत अध्यक्षों के पदों की संगणना, प्रस्तर 1 (दूसरा अनुच्छेद): स्त्रियाँ एक-तिहाई से "
              "अन्यून, ऊपर की ओर पूर्णांकित"),
    "ur": "आरक्षित श्रेणियों के बाद शेष पद",
}


#: the fields shown as decimals, with their places (display only: the decisions took the Fractions)
FRACTION_PLACES = {"share": 4, "product": 4, "cap_raw": 4, "cap_pct2": 2}


def _value(name: str, v, lang: str):
    if name == "rounding" or name.endswith("_rounding"):
        return ROUNDING_WORDS[lang][v]
    if name in ("women_where", "parent"):
        return PLACE_WORDS[lang][v]
    if name in FRACTION_PLACES:
        return fmt_fraction(Fraction(v), FRACTION_PLACES[name])
    if is_dataclass(v):
        return arithmetic_words(v, lang)
    return v


def arithmetic_words(part, lang: str = "en") -> str:
    """The arithmetic of one counts row in ``lang``: a typed part rendered by :data:`ARITHMETIC`, a plain string
    (text a caller composed itself) as it is."""
    if not is_dataclass(part):
        return part
    values = {f.name: _value(f.name, getattr(part, f.name), lang) for f in fields(part)}
    return ARITHMETIC[lang][type(part).__name__].format(**values)


def render_rows(parts: list[tuple], lang: str = "en") -> list[tuple]:
    """Rows (category, count, arithmetic, clause) with the arithmetic and the clause in ``lang``."""
    return [(code, count, arithmetic_words(arithmetic, lang), said(clause, lang))
            for code, count, arithmetic, clause in parts]
