"""Every word the workbench shows, in English and Hindi, rendered from codes in one place.

The engine and the rulebooks decide with numbers and codes (:mod:`reservation.decisions`, category codes, tier
numbers); this module turns them into words. ``lang`` is ``"en"`` or ``"hi"``.
"""

from __future__ import annotations

from .decisions import Decision

__all__ = ["LANGS", "check_lang", "TIER_WORDS", "DECISION_WORDS", "ordinal", "ALLOTMENT_WORDS", "UNIT_KINDS_HI",
           "OBC_NOTE_HI"]

LANGS = ("en", "hi")


def check_lang(lang: str) -> str:
    if lang not in LANGS:
        raise ValueError(f"language {lang!r}: expected one of {', '.join(LANGS)}")
    return lang


#: rotation tiers (GO 2021 ZP items 1-3, KP items 6-10)
TIER_WORDS = {
    "en": {1: "never reserved for it in the previous elections",
           2: "not reserved for it at the last election",
           3: "reserved for it at the last election",
           "none": "no previous election in the history",
           "no_record": "no record for {year} in the history, taken as not reserved",
           "earlier": "but was earlier"},
    "hi": {1: "पिछले निर्वाचनों में इस वर्ग के लिए कभी आरक्षित नहीं",
           2: "पिछले निर्वाचन में इस वर्ग के लिए आरक्षित नहीं",
           3: "पिछले निर्वाचन में इस वर्ग के लिए आरक्षित",
           "none": "इतिहास में कोई पिछला निर्वाचन नहीं",
           "no_record": "इतिहास में {year} का कोई अभिलेख नहीं, आरक्षित नहीं माना गया",
           "earlier": "पर पहले था"},
}

#: decisions of the trace (the typed codes of reservation.decisions)
DECISION_WORDS = {
    "en": {Decision.PASSED_OVER: "passed over: the posts were filled by units earlier in rotation order",
           Decision.ALLOTTED: "allotted {code}",
           Decision.LEFT_OUT_DIVISION: "left out: all {size} districts of {division} division would be reserved for "
                                       "{group}; the least populous ({population}) is left unreserved for {group}",
           Decision.NOT_ELIGIBLE: "not eligible: {why}",
           Decision.NO_POSTS: "no posts in this pass",
           Decision.PINNED: "pinned to {code}",
           Decision.UNRESERVED: "unreserved"},
    "hi": {Decision.PASSED_OVER: "छोड़ा गया: पद चक्रानुक्रम में पहले की इकाइयों को मिल गए",
           Decision.ALLOTTED: "{code} आवंटित",
           Decision.LEFT_OUT_DIVISION: "छोड़ा गया: {division} मण्डल के सभी {size} जिले {group} के लिए आरक्षित हो जाते; "
                                       "कम आबादी वाला ({population}) {group} के लिए अनारक्षित छोड़ा गया",
           Decision.NOT_ELIGIBLE: "पात्र नहीं: {why}",
           Decision.NO_POSTS: "इस चरण में कोई पद नहीं",
           Decision.PINNED: "{code} पर नियत",
           Decision.UNRESERVED: "अनारक्षित"},
}

#: the pieces of a unit's reason and tie-break words
ALLOTMENT_WORDS = {
    "en": {"allotted": "{code}: {rank} of {pool} by {key_label} ({key}); tier {tier}: {tier_words}; chosen {chosen} "
                       "of the {need} {name} posts in rotation order",
           "women_top": "; among the first {n}, so reserved for women",
           "women_not_last": "; women's post (not a women's office at the last election first)",
           "pinned_reason": "{code} fixed by the pin file ({source}); the rest is computed around it",
           "pinned_clause": "pinned by input ({source})",
           "unreserved": "UR: reached by no category pass ({parts})",
           "unreserved_part": "{name} rank {rank} of {pool} (tier {tier})",
           "tied": "{key_label} tied with {n} other unit(s); placed by ",
           "by_lot": "lot number {lot}",
           "by_population": "the tie-break rule (larger population {population} first, then lower code)",
           "by_code": "the tie-break rule (lower code first)",
           "people": "{n} people", "people_assumed": "about {n} people (OBC assumed)"},
    "hi": {"allotted": "{code}: {key_label} ({key}) के क्रम में {pool} में से {rank}; स्तर {tier}: {tier_words}; "
                       "चक्रानुक्रम में {name} के {need} पदों में से {chosen} चुना गया",
           "women_top": "; पहले {n} में होने से महिला के लिए आरक्षित",
           "women_not_last": "; महिला पद (पिछले निर्वाचन में महिला पद न रहे पहले)",
           "pinned_reason": "{code} पिन फ़ाइल ({source}) द्वारा नियत; शेष इसके आसपास संगणित",
           "pinned_clause": "इनपुट द्वारा नियत ({source})",
           "unreserved": "अनारक्षित: किसी श्रेणी के चरण में नहीं पहुँचा ({parts})",
           "unreserved_part": "{name} क्रम {pool} में से {rank} (स्तर {tier})",
           "tied": "{key_label} में {n} अन्य इकाई/इकाइयों के बराबर; क्रम ",
           "by_lot": "लॉटरी संख्या {lot} से",
           "by_population": "नियम से (अधिक जनसंख्या {population} पहले, फिर कम कोड)",
           "by_code": "नियम से (कम कोड पहले)",
           "people": "{n} व्यक्ति", "people_assumed": "लगभग {n} व्यक्ति (अन्य पिछड़ा वर्ग अनुमानित)"},
}


#: what one row is, in Hindi (the rulebooks' unit kinds)
UNIT_KINDS_HI = {"district": "जिला", "block": "विकास खण्ड", "urban body": "नगरीय निकाय", "gram panchayat": "ग्राम पंचायत",
                 "ward": "वार्ड"}

#: the OBC assumption repeated in each row it decides, in Hindi (the English text is the rulebook's)
OBC_NOTE_HI = ("अन्य पिछड़ा वर्ग की जनसंख्या सार्वजनिक नहीं है और दी नहीं गई: हर {unit} में राज्य का अनुपात {share} % "
               "माना गया, इसलिए अन्य पिछड़ा वर्ग का क्रम बराबरी के नियम ({tie_break}) और चक्रानुक्रम से तय हुआ")


def ordinal(n: int, lang: str = "en") -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st ... (Hindi: 1वाँ ...)."""
    if lang == "hi":
        return f"{n}वाँ"
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{_SUFFIX.get(n % 10, 'th')}"


_SUFFIX = {1: "st", 2: "nd", 3: "rd"}
