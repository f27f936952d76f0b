"""The engine's words (:mod:`reservation.allotment.render`, explain, the count line): the rotation tiers, the
decisions of the trace, the pieces of a unit's reason, the answer's status codes and lines, the unit kinds and their
counted forms, the OBC note in Hindi and the ordinals. Split from :mod:`reservation.law.words` (its size limit),
which re-exports every name here: :func:`reservation.law.words.word` and the rest of the words stay there."""

from __future__ import annotations

from .decisions import Decision
from .langs import check_lang

__all__ = ["TIER_WORDS", "DECISION_WORDS", "ALLOTMENT_WORDS", "STATUS_WORDS", "ANSWER_WORDS", "status_counts_line",
           "UNIT_KINDS_HI", "UNIT_COUNT_WORDS", "units_word", "OBC_NOTE_HI", "ordinal"]


# ================================================================ the engine's words (reservation.allotment.render)

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
           "no_record": "इतिहास में {year} का कोई अभिलेख नहीं, इसलिए आरक्षित नहीं माना गया",
           "earlier": "पर पहले था"},
}

#: decisions of the trace (the typed codes of reservation.law.decisions)
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
                                       "सबसे कम आबादी वाला जिला ({population}) {group} के लिए आरक्षित नहीं किया गया",
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
           "tied_one": "{key_label} tied with 1 other unit(s); placed by ",
           "by_lot": "lot number {lot}",
           "by_population": "the tie-break rule (larger population {population} first, then lower code)",
           "by_code": "the tie-break rule (lower code first)",
           "people": "{n} people", "people_assumed": "about {n} people (OBC assumed)"},
    "hi": {"allotted": "{code}: {key_label} ({key}) के अवरोही क्रम में {pool} में से क्रमांक {rank}; स्तर {tier}: "
                       "{tier_words}; चक्रानुक्रम में {name} के {need} पदों में क्रमांक {chosen} पर चयन",
           "women_top": "; ऊपर से पहले {n} में होने से महिला के लिए आरक्षित",
           "women_not_last": "; महिला पद (जो पिछले निर्वाचन में महिला पद नहीं थे, वे पहले)",
           "pinned_reason": "{code}: पिन फ़ाइल ({source}) द्वारा नियत; शेष का आवंटन इसे छोड़कर संगणित",
           "pinned_clause": "इनपुट द्वारा नियत ({source})",
           "unreserved": "अनारक्षित: किसी श्रेणी के चरण में पद तक नहीं पहुँचा ({parts})",
           "unreserved_part": "{name} के क्रम में {pool} में से क्रमांक {rank} (स्तर {tier})",
           "tied": "{key_label} {n} अन्य इकाइयों के बराबर; क्रम का निर्धारण: ",
           "tied_one": "{key_label} 1 अन्य इकाई के बराबर; क्रम का निर्धारण: ",
           "by_lot": "लॉटरी संख्या {lot}",
           "by_population": "बराबरी का नियम (अधिक जनसंख्या ({population}) पहले, फिर छोटा कोड)",
           "by_code": "बराबरी का नियम (छोटा कोड पहले)",
           "people": "{n} व्यक्ति", "people_assumed": "लगभग {n} व्यक्ति, अन्य पिछड़ा वर्ग की जनसंख्या मानी गई"},
}


#: the answer's status codes (reservation.law.decisions.Status): a short phrase (the count line) and a sentence
STATUS_WORDS = {
    "en": {"determined": ("determined by public data", "the public data decide it: the same category for every "
                          "admissible value of the unknowns"),
           "depends_obc": ("depend on OBC figures", "it depends on figures that are not published: the OBC "
                           "population"),
           "depends_list": ("depend on a list we do not hold", "it depends on a past list the project does not hold"),
           "partial_figures": ("have partial population figures", "the unit's population figures are partial"),
           "differs_published": ("differ from the published list", "the State published a different category")},
    "hi": {"determined": ("सार्वजनिक आँकड़ों से निर्धारित", "सार्वजनिक आँकड़े इसे तय करते हैं: अज्ञात आँकड़ों के हर "
                          "स्वीकार्य मान पर एक ही वर्ग"),
           "depends_obc": ("अन्य पिछड़ा वर्ग के आँकड़ों पर निर्भर", "यह अप्रकाशित आँकड़ों पर निर्भर है: अन्य पिछड़ा "
                           "वर्ग की जनसंख्या"),
           "depends_list": ("ऐसी सूची पर निर्भर जो हमारे पास नहीं", "यह ऐसी पिछली सूची पर निर्भर है जो परियोजना के पास "
                            "नहीं है"),
           "partial_figures": ("जनसंख्या के आँकड़े अधूरे", "इकाई के जनसंख्या आँकड़े अधूरे हैं"),
           "differs_published": ("प्रकाशित सूची से भिन्न", "राज्य ने भिन्न वर्ग प्रकाशित किया")},
}

#: the short phrase of a status for one unit, where English needs its own verb form ("1 differs", "2 differ")
STATUS_ONE_EN = {"determined": "determined by public data", "depends_obc": "depends on OBC figures",
                 "depends_list": "depends on a list we do not hold",
                 "partial_figures": "has partial population figures",
                 "differs_published": "differs from the published list"}

#: the lines of an answer (reservation explain, the count line of allot)
ANSWER_WORDS = {
    "en": {"count": "{n} {kind}: {parts}",
           "differs": "The State's published list says {published}; this computation says {category}. Do not "
                      "publish the computed category as the State's list.",
           "differs_user": "The published list you gave says {published}; this computation says {category}.",
           "published": "published: {published} ({label}), {source}",
           "published_none": "published: no published list of this election is held",
           "published_absent": "published: the list ({source}) does not name this unit",
           "source_date": "list of {date}",
           "user_list": "the list given with --published",
           "shipped_list": "the list the project ships ({file})",
           "possible": "what the law allows with public data: {codes}",
           "outside": "the published category is not among them: public data and the law as read here cannot give it",
           "status": "status: {status}: {sentence}",
           "decides_obc": "what decides between them: the OBC population by {kind}, which is not published",
           "decides_list": "what decides between them: the list of {years}, which the project does not hold "
                           "(give it with --history)",
           "decides_list_other": "what decides between them: records missing from a list the rotation counts, of "
                                 "{units}; they can move this unit's pass (its order or the division rule); give "
                                 "them with --history",
           "decides_none": "nothing unknown decides it",
           "stand_in": "the stand-in chose {category} ({label}): {why}",
           "stand_in_obc": "the OBC population of every {kind} taken at the State share",
           "stand_in_list": "a missing record taken as not reserved",
           "stand_in_given": "the figures given",
           "probabilities": "probabilities ({samples} samples, seed {seed}, as `reservation project`): {probs}",
           "probabilities_refused": "probabilities: the projection cannot be made here ({why})",
           "probabilities_list": "these probabilities sample the OBC figures only: they read the missing list of "
                                 "{years} as the stand-in does (not reserved), so they are surer than the data",
           "trace": "steps, in the order the rules applied them:"},
    "hi": {"count": "{n} {kind} में से: {parts}",
           "differs": "राज्य की प्रकाशित सूची में {published} है; यह संगणना {category} देती है। संगणित वर्ग को राज्य की "
                      "सूची के रूप में प्रकाशित न करें।",
           "differs_user": "आपकी दी गई प्रकाशित सूची में {published} है; यह संगणना {category} देती है।",
           "published": "प्रकाशित: {published} ({label}), {source}",
           "published_none": "प्रकाशित: इस निर्वाचन की कोई प्रकाशित सूची उपलब्ध नहीं",
           "published_absent": "प्रकाशित: सूची ({source}) में यह इकाई नहीं है",
           "source_date": "{date} की सूची",
           "user_list": "`--published` से दी गई सूची",
           "shipped_list": "परियोजना के साथ दी गई सूची ({file})",
           "possible": "सार्वजनिक आँकड़ों के साथ विधि जो अनुमति देती है: {codes}",
           "outside": "प्रकाशित वर्ग इनमें नहीं है: सार्वजनिक आँकड़े और यहाँ पढ़ी गई विधि इसे नहीं दे सकते",
           "status": "स्थिति: {status}: {sentence}",
           "decides_obc": "इनमें से क्या होगा यह तय करता है: हर {kind} की अन्य पिछड़ा वर्ग जनसंख्या, जो प्रकाशित नहीं",
           "decides_list": "इनमें से क्या होगा यह तय करती है: {years} की सूची, जो परियोजना के पास नहीं "
                           "(`--history` से दें)",
           "decides_list_other": "इनमें से क्या होगा यह तय करते हैं: उस सूची के अभिलेख जो परियोजना के पास नहीं, "
                                 "इनके: {units}; वे इस इकाई के चरण (क्रम या मण्डल का नियम) को बदल सकते हैं; "
                                 "`--history` से दें",
           "decides_none": "कोई अज्ञात इसे तय नहीं करता",
           "stand_in": "अनुमान ने {category} ({label}) चुना: {why}",
           "stand_in_obc": "हर {kind} की अन्य पिछड़ा वर्ग जनसंख्या राज्य के अनुपात पर मानी गई",
           "stand_in_list": "अनुपलब्ध अभिलेख को अनारक्षित माना गया",
           "stand_in_given": "दिए गए आँकड़े",
           "probabilities": "संभावनाएँ ({samples} नमूने, बीज {seed}, `reservation project` जैसी): {probs}",
           "probabilities_refused": "संभावनाएँ: यहाँ प्रक्षेपण नहीं हो सकता ({why})",
           "probabilities_list": "ये संभावनाएँ केवल अन्य पिछड़ा वर्ग के आँकड़ों का नमूना लेती हैं: {years} की अनुपलब्ध "
                                 "सूची को अनुमान की तरह (अनारक्षित) पढ़ती हैं, इसलिए आँकड़ों से अधिक निश्चित दिखती हैं",
           "trace": "संगणना, चरण दर चरण:"},
}


def status_counts_line(counts: dict, n: int, kind: str, lang: str = "en") -> str:
    """"75 districts: 12 determined by public data, 27 depend on OBC figures, ...": the units per status code
    (``counts``, in the order given; codes with no unit are left out), ``kind`` the unit kind (English; its Hindi
    is :data:`UNIT_KINDS_HI`'s)."""
    lang = check_lang(lang)

    def phrase(code, k):
        return STATUS_ONE_EN[code] if lang == "en" and k == 1 else STATUS_WORDS[lang][code][0]
    parts = ", ".join(f"{k} {phrase(code, k)}" for code, k in counts.items() if k)
    return ANSWER_WORDS[lang]["count"].format(n=n, kind=units_word(kind, n, lang), parts=parts)


#: what one row is, in Hindi (the rulebooks' unit kinds)
UNIT_KINDS_HI = {"district": "जिला", "block": "विकास खण्ड", "urban body": "नगरीय निकाय", "gram panchayat": "ग्राम पंचायत",
                 "ward": "वार्ड"}

#: a unit kind with a count, as a sentence needs it: kind -> lang -> (one, many); in Hindi the oblique forms, since
#: a count is always followed by a postposition there ("75 में से 69 जिलों में", "हर जिले में")
UNIT_COUNT_WORDS = {
    "district": {"en": ("district", "districts"), "hi": ("जिले", "जिलों")},
    "block": {"en": ("block", "blocks"), "hi": ("विकास खण्ड", "विकास खण्डों")},
    "urban body": {"en": ("urban body", "urban bodies"), "hi": ("नगरीय निकाय", "नगरीय निकायों")},
    "gram panchayat": {"en": ("gram panchayat", "gram panchayats"), "hi": ("ग्राम पंचायत", "ग्राम पंचायतों")},
    "ward": {"en": ("ward", "wards"), "hi": ("वार्ड", "वार्डों")},
}


def units_word(kind: str, n: int, lang: str = "en") -> str:
    """``kind`` (a rulebook's unit kind) for ``n`` units in ``lang`` (Hindi: the oblique form)."""
    one, many = UNIT_COUNT_WORDS.get(kind, {"en": ("unit", "units"), "hi": ("इकाई", "इकाइयों")})[check_lang(lang)]
    return one if n == 1 else many


#: the OBC assumption repeated in each row it decides, in Hindi (the English text is the rulebook's); {unit}: the
#: oblique singular (units_word(kind, 1, "hi"): "हर जिले में"), ``{tie_break}`` the words of :data:`TIE_BREAK_HI`
OBC_NOTE_HI = ("अन्य पिछड़ा वर्ग की जनसंख्या सार्वजनिक नहीं है और दी नहीं गई: हर {unit} में राज्य का अनुपात {share} % "
               "माना गया, इसलिए अन्य पिछड़ा वर्ग का क्रम बराबरी के नियम ({tie_break}) और चक्रानुक्रम से तय हुआ")

def ordinal(n: int, lang: str = "en") -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st ... (Hindi: पहला, दूसरा, तीसरा, चौथा, 5वाँ, छठा, 7वाँ ...)."""
    if lang == "hi":
        return _ORDINAL_HI.get(n, f"{n}वाँ")
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{_SUFFIX.get(n % 10, 'th')}"


_SUFFIX = {1: "st", 2: "nd", 3: "rd"}
_ORDINAL_HI = {1: "पहला", 2: "दूसरा", 3: "तीसरा", 4: "चौथा", 6: "छठा"}
