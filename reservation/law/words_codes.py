"""The Hindi that stands for codes inside Hindi sentences (issue 22; docs/glossary.md): a category code, a pass's
codes ("SC_W+SC") or a group as Hindi words, each value of option ``tie_break`` in words, and the frame of
``reservation explain``. Part of the words of :mod:`reservation.law.words` (kept beside it: that module is at its
size limit); ``tests/test_hindi.py`` checks both for Latin codes inside Hindi strings.
"""

from __future__ import annotations

from .words import CATEGORY_LABELS

__all__ = ["TIE_BREAK_HI", "GROUP_LABELS_HI", "category_words_hi", "EXPLAIN_WORDS", "EXPLAIN_PLACE"]


#: option tie_break's values, as a Hindi sentence says them (the value itself is for the command line only)
TIE_BREAK_HI = {"population": "अधिक जनसंख्या पहले, फिर छोटा कोड",
                "assumed_by_code": "जहाँ जनसंख्या मानी गई वहाँ छोटा कोड पहले, अन्यत्र अधिक जनसंख्या पहले",
                "code": "छोटा कोड पहले"}

#: the category groups of the passes (ST, SC, OBC; GEN: the women's pass outside them), in Hindi
GROUP_LABELS_HI = {"ST": "अनुसूचित जनजाति", "SC": "अनुसूचित जाति", "OBC": "अन्य पिछड़ा वर्ग", "GEN": "महिला"}


#: the frame of ``reservation explain`` around the rendered reason, clause and steps (reservation.allotment.explain)
EXPLAIN_WORDS = {
    "en": {"header": "{body} {year}: {category}", "reason": "  reason: {text}", "clause": "  clause: {text}",
           "history": "  history: {held} (base year {base})", "no_record": "no record",
           "rank": "rank {rank} of {pool} by {key}", "tier": "tier {tier}: {words}", "decision": "decision: {text}",
           "tie": "tie: {text}", "step_clause": "clause: {text}", "step": "  {i}. pass {name}: "},
    "hi": {"header": "{body}, {year}: {category}", "reason": "  कारण: {text}", "clause": "  प्रावधान: {text}",
           "history": "  इतिहास: {held} (आधार वर्ष {base})", "no_record": "कोई अभिलेख नहीं",
           "rank": "{key} के अवरोही क्रम में {pool} में से क्रमांक {rank}", "tier": "स्तर {tier}: {words}",
           "decision": "निर्णय: {text}", "tie": "बराबरी: {text}", "step_clause": "प्रावधान: {text}",
           "step": "  {i}. {name} का चरण: "},
}

#: the first line of ``reservation explain``: the unit's names, its code and where it lies (the names as the data
#: hold them; Hindi: the Hindi name first, the district and division by their Hindi names, मण्डल as in the order)
EXPLAIN_PLACE = {
    "en": {"unit": "{name} ({other}), LGD {code}, {where}", "no_other": "no Hindi name",
           "division": "{division} division", "district": "{district} district, {division} division",
           "source": "{file} row {row}"},
    "hi": {"unit": "{name} ({other}), LGD कोड {code}, {where}", "no_other": "अंग्रेज़ी नाम नहीं",
           "division": "{division} मण्डल", "district": "{district} जिला, {division} मण्डल",
           "source": "{file} पंक्ति {row}"},
}


def category_words_hi(code: str) -> str:
    """A category code, a pass's codes joined by ``+`` ("SC_W+SC") or a group (GEN) as Hindi words; a code the
    tables do not hold (a history file's own spelling) is shown as it is."""
    parts = [CATEGORY_LABELS[c]["hi"] if c in CATEGORY_LABELS else GROUP_LABELS_HI.get(c, c)
             for c in str(code).split("+")]
    return " और ".join(parts)
