"""The words of the audit's ``detail`` column (``reservation audit``, :mod:`reservation.auditing`), in English and
Hindi, rendered from typed details. Part of the words of :mod:`reservation.law.words` (kept beside it: that module
is at its size limit); docs/glossary.md gives the Hindi terms.

The audit's walk says what it found as a :class:`Detail`: a key of :data:`DETAIL` (or of
:data:`reservation.law.words.TEXT`) and its values. A value is a number or a string the same in both languages (a
count, a key as the allotment's words give it), a :class:`~reservation.law.words_counts.Said` pair, a category
code or a pass's codes (:class:`Cat`: the code in English, the category's words in Hindi), a group (:class:`Group`),
unit names (:class:`Names`), a percentage (:class:`Pct`), options (:class:`Options`), another :class:`Detail`, or
details joined (:class:`Join`). :func:`render` is the one place they become words; the English templates give the
audit's old text exactly. No code reads a rendered detail back.
"""

from __future__ import annotations

from typing import NamedTuple

from .langs import check_lang
from .words import TEXT, UNIT_KINDS_HI
from .words_codes import GROUP_LABELS_HI, category_words_hi
from .words_counts import Said

__all__ = ["Detail", "detail", "Cat", "Group", "Names", "Kind", "Pct", "Options", "Join", "DETAIL", "KINDS_HI",
           "render"]


class Detail(NamedTuple):
    """One sentence of the audit: a key of :data:`DETAIL` (or of the words' ``TEXT``) and its values, as
    ``((name, value), ...)``."""

    key: str
    values: tuple = ()


def detail(key: str, /, **values) -> Detail:
    """``Detail(key, values)`` from keyword arguments."""
    return Detail(key, tuple(values.items()))


class Cat(NamedTuple):
    """A category code ("SC_W") or a pass's codes ("SC_W+SC"): the code in English, its words in Hindi."""

    code: str


class Group(NamedTuple):
    """A pass's group ("SC", "GEN" for the women's pass) as a sentence names it: ``form`` "name" ("women" in
    English) or "posts" ("women's"); in Hindi the group's words (महिला for GEN)."""

    group: str
    form: str = "name"


class Names(NamedTuple):
    """Units by name, at most ``limit`` of them ("and 3 more"): ``names`` as ``((English, Hindi), ...)`` (Hindi:
    the Hindi name where the data give it)."""

    names: tuple
    limit: int = 6


class Kind(NamedTuple):
    """A rulebook's unit kind or counting unit ("district", "division"): as the rulebook says it in English, its
    Hindi word in Hindi."""

    kind: str


class Pct(NamedTuple):
    """A percentage, its number as text ("53.33"): "53.33 %" in English, "53.33 प्रतिशत" in Hindi."""

    number: str


class Options(NamedTuple):
    """Named options ``((name, value), ...)`` as the audit names them: in English ``name=value`` with the reading in
    brackets (``readings``: the rulebook's English, or a detail) where given, joined by " and "; in Hindi an option
    in code style, a reading that is a detail (another base year) in words."""

    pairs: tuple
    readings: tuple = ()


class Join(NamedTuple):
    """Details joined by ``sep`` (the same in both languages: "; ", ", ")."""

    parts: tuple
    sep: str = "; "


_WORDS = {
    "en": {"women": "women", "women_posts": "women's", "more": "{names} and {n} more", "and": " and ",
           "pct": "{n} %"},
    "hi": {"women": "महिला", "women_posts": "महिला", "more": "{names} और {n} अन्य", "and": " और ",
           "pct": "{n} प्रतिशत"},
}

#: the unit kinds and counting units in Hindi (the words' unit kinds, and a division, a parent)
KINDS_HI = {**UNIT_KINDS_HI, "division": "मण्डल", "parent": "इकाई", "State": "प्रदेश"}

#: the audit's sentences, by key: ``{key: {"en": ..., "hi": ...}}`` (``{name}``: a value of the detail)
DETAIL: dict[str, dict[str, str]] = {
    # a match; a unit whose order is not public (reservation.auditing.audit)
    "audit.match": {"en": "as computed{note}", "hi": "संगणना के अनुसार{note}"},
    "audit.match_obc": {"en": "; the OBC order is not public: {text}",
                        "hi": "; अन्य पिछड़ा वर्ग का क्रम सार्वजनिक नहीं है: {text}"},
    "audit.depends": {"en": "the {key} order is not public; {text}", "hi": "{key} का क्रम सार्वजनिक नहीं है; {text}"},
    "audit.stmt": {
        "en": "{step} pass, tier {tier} ({what}): lawful if its {key} is {than} that of {names}{assumed}",
        "hi": "{step} का चरण, स्तर {tier} ({what}): विधिसम्मत, यदि {key} में यह इनसे {than} हो: {names}{assumed}"},
    "audit.stmt.what_women": {"en": "women's posts", "hi": "महिला पद"},
    "audit.stmt.what": {"en": "{group} posts", "hi": "{group} के पद"},
    "audit.stmt.above": {"en": "at least", "hi": "पीछे न"},
    "audit.stmt.below": {"en": "at most", "hi": "आगे न"},
    "audit.stmt.assumed": {
        "en": " (with theirs at the assumed {share}: its rural OBC share {bound} {pct})",
        "hi": " (उनका अनुपात माने गए {share} पर: इसका ग्रामीण अन्य पिछड़ा वर्ग अनुपात {bound} {pct})"},
    "audit.bound.at_most": {"en": "at most", "hi": "अधिकतम"},
    "audit.bound.at_least": {"en": "at least", "hi": "न्यूनतम"},
    "audit.bounds.short": {"en": "the list needs its rural OBC share between {lo} and {hi}",
                           "hi": "सूची के लिए इसका ग्रामीण अन्य पिछड़ा वर्ग अनुपात {lo} और {hi} के बीच होना चाहिए"},
    "audit.bounds.all": {
        "en": "with all the list’s OBC statements at once: its rural OBC share between {lo} and {hi}",
        "hi": "सूची के अन्य पिछड़ा वर्ग संबंधी सभी कथन एक साथ: इसका ग्रामीण अन्य पिछड़ा वर्ग अनुपात {lo} और {hi} "
              "के बीच"},
    "audit.key.obc_share": {"en": "rural OBC share", "hi": "ग्रामीण अन्य पिछड़ा वर्ग अनुपात"},
    "audit.key.outside_people": {"en": "population outside SC/ST/OBC",
                                 "hi": "अनुसूचित जाति, अनुसूचित जनजाति और अन्य पिछड़ा वर्ग से बाहर की जनसंख्या"},
    "audit.key.outside_share": {
        "en": "share of the population outside SC/ST/OBC",
        "hi": "जनसंख्या में अनुसूचित जाति, अनुसूचित जनजाति और अन्य पिछड़ा वर्ग से बाहर का अनुपात"},
    "audit.infeasible": {
        "en": "no OBC figures satisfy all the list's statements at once{total}; {text}",
        "hi": "अन्य पिछड़ा वर्ग के कोई भी आँकड़े सूची के सभी कथनों को एक साथ पूरा नहीं करते{total}; {text}"},
    "audit.infeasible.total": {
        "en": " with the State's rural OBC share ({share}) as their total",
        "hi": ", जब उनका योग प्रदेश का ग्रामीण अन्य पिछड़ा वर्ग अनुपात ({share}) हो"},
    # a knock-on; a unit with more than one violation; the option search
    "audit.knock_on": {
        "en": "lawful given the list's earlier passes as published (the list gives {pub}); our computation gives "
              "{computed} because the earlier passes differ ({names}){dep}",
        "hi": "सूची के पिछले चरणों को प्रकाशित रूप में लेकर विधिसम्मत (सूची इसे {pub} श्रेणी देती है); हमारी संगणना "
              "{computed} श्रेणी देती है, क्योंकि पिछले चरण भिन्न हैं ({names}){dep}"},
    "audit.knock_on.dep": {
        "en": "; the earlier OBC differences depend on OBC figures that are not public",
        "hi": "; पिछले चरणों के अन्य पिछड़ा वर्ग संबंधी अंतर उन आँकड़ों पर निर्भर हैं जो सार्वजनिक नहीं हैं"},
    "audit.also": {"en": "{first}; also: {more}", "hi": "{first}; साथ ही: {more}"},
    "audit.no_option": {
        "en": "{text}; no single option ({n} tried) or pair of options removes the difference without breaking "
              "another unit",
        "hi": "{text}; कोई एक विकल्प ({n} आज़माए गए) या विकल्पों की कोई जोड़ी किसी दूसरी इकाई पर नियम तोड़े बिना "
              "यह अंतर नहीं मिटाती"},
    "audit.explained": {
        "en": "under {options} the rules give the published {code}{unknown}{also}. With the options as given: {text}",
        "hi": "{options} के अनुसार नियम प्रकाशित श्रेणी ({code}) देते हैं{unknown}{also}। दिए गए विकल्पों के साथ: {text}"},
    "audit.explained.unknown": {"en": " (with OBC figures that are not public)",
                                "hi": " (अन्य पिछड़ा वर्ग के उन आँकड़ों के साथ जो सार्वजनिक नहीं हैं)"},
    "audit.explained.also": {"en": "; also under {options}", "hi": "; इनके अनुसार भी: {options}"},
    "audit.base_year": {"en": "previous elections counted from {year}", "hi": "पिछले निर्वाचन {year} से गिने गए"},
    "audit.absent_where": {"en": " of {parent} {label}{uncovered}", "hi": " ({parent} {label}{uncovered})"},
    "audit.absent_uncovered": {"en": " (the list gives no {unit_kind} of it)",
                               "hi": "; सूची में वहाँ की कोई इकाई ({unit_kind}) नहीं"},
    # the checks of a pass (reservation.auditing.checks, walk, findings)
    "audit.tier.none": {"en": "tier {tier} (no previous election in the history)",
                        "hi": "स्तर {tier} (इतिहास में कोई पिछला निर्वाचन नहीं)"},
    "audit.tier.1": {"en": "tier 1: never held {group} in {span}",
                     "hi": "स्तर 1: {span} में कभी {group} के लिए आरक्षित नहीं"},
    "audit.tier.2": {"en": "tier 2: not {group} in {last}", "hi": "स्तर 2: {last} में {group} के लिए आरक्षित नहीं"},
    "audit.tier.3": {"en": "tier 3: held {group} in {last}", "hi": "स्तर 3: {last} में {group} के लिए आरक्षित"},
    "audit.tier.women": {"en": "a women's office", "hi": "महिला"},
    "audit.where": {"en": " in {parent}", "hi": " {parent} में"},
    "audit.cannot_check": {
        "en": "the {step} pass cannot be checked with the list's earlier passes as published: {why}",
        "hi": "सूची के पिछले चरणों को प्रकाशित रूप में लेकर {step} का चरण जाँचा नहीं जा सकता (कारण, अंग्रेज़ी में: "
              "'{why}')"},
    "audit.count": {"en": "the list gives {listed} {posts} offices{where} where the law's arithmetic gives {need}",
                    "hi": "सूची{where} {posts} के {listed} पद देती है, जबकि विधि की गणना {need} देती है"},
    "audit.count_checked": {"en": "{count}{why}{unknown}", "hi": "{count}{why}{unknown}"},
    "audit.count.last": {"en": "; this unit is the last of them in {group} order",
                         "hi": "; {group} के क्रम में यह इकाई उनमें अंतिम है"},
    "audit.count.rules_give": {"en": ": the rules give this unit {code}", "hi": ": नियम इस इकाई को {code} श्रेणी देते हैं"},
    "audit.count.unknown": {"en": " (the count depends on OBC figures that are not public)",
                            "hi": " (यह संख्या अन्य पिछड़ा वर्ग के उन आँकड़ों पर निर्भर है जो सार्वजनिक नहीं हैं)"},
    "audit.count_women": {"en": "the list gives {listed} {code} offices{where} where the law gives {need}",
                          "hi": "सूची{where} {code} के {listed} पद देती है, जबकि विधि {need} देती है"},
    "audit.freed_earlier": {
        "en": "made unreserved by the division rule in the {step} pass ({division} division), yet the list gives "
              "it {code}",
        "hi": "{step} के चरण में मण्डल के नियम से अनारक्षित की गई ({division} मण्डल), फिर भी सूची इसे {code} श्रेणी देती है"},
    "audit.saturated": {
        "en": "all {n} units of {division} division hold {group} in the list; the rule makes the least populous of "
              "those chosen ({name}, {pop}) unreserved",
        "hi": "सूची में {division} मण्डल की सभी {n} इकाइयों को {group} का पद मिला है; नियम चुनी गई इकाइयों में सबसे "
              "कम जनसंख्या वाली ({name}, {pop}) को अनारक्षित करता है"},
    "audit.not_eligible": {"en": "not eligible for {group}: {reason}", "hi": "{group} के लिए पात्र नहीं: {reason}"},
    "audit.swap_took": {
        "en": "took {code}, while {other} was left without {group} as if the division rule had freed it in "
              "{division} division; the rule frees the least populous of the division's units chosen, which is "
              "{name} ({pop} against {other_pop})",
        "hi": "इसे {code} श्रेणी मिली, जबकि {other} को {group} के बिना छोड़ा गया, मानो मण्डल के नियम ने उसे {division} "
              "मण्डल में मुक्त किया हो; नियम मण्डल की चुनी गई इकाइयों में सबसे कम जनसंख्या वाली को मुक्त करता है, "
              "जो {name} है ({pop} बनाम {other_pop})"},
    "audit.swap_left": {
        "en": "left without {group} as if the division rule had freed it in {division} division; the rule frees "
              "the least populous of the division's units chosen, which is {name} ({pop} against {other_pop}), "
              "and {name} took {code}",
        "hi": "{group} के बिना छोड़ी गई, मानो मण्डल के नियम ने इसे {division} मण्डल में मुक्त किया हो; नियम मण्डल "
              "की चुनी गई इकाइयों में सबसे कम जनसंख्या वाली को मुक्त करता है, जो {name} है ({pop} बनाम "
              "{other_pop}), और {name} को {code} श्रेणी मिली"},
    "audit.rotation": {
        "en": "took {code} though it is in {tier}, while {other} ({other_tier}) was left without {group}",
        "hi": "इसे {code} श्रेणी मिली, यद्यपि यह पीछे के स्तर में है ({tier}), जबकि {other} ({other_tier}) को {group} के "
              "बिना छोड़ा गया"},
    "audit.order": {
        "en": "took {code} with {label} {key} ({tier}), while {other} with {other_key} in the same tier was left "
              "without {group}{more}",
        "hi": "इसे {code} श्रेणी मिली ({label} {key}; {tier}), जबकि उसी स्तर की {other} ({other_key}) को {group} के बिना "
              "छोड़ा गया{more}"},
    "audit.order.more": {"en": " ({n} such units)", "hi": " (ऐसी {n} इकाइयाँ)"},
    "audit.women_took": {"en": "took {code} ({why}), though {rest}", "hi": "इसे {code} श्रेणी मिली ({why}), यद्यपि {rest}"},
    "audit.women_before": {"en": "{other} ({other_why}) comes before it in {group} order and took {other_code}",
                           "hi": "{group} के क्रम में {other} ({other_why}) इससे पहले है और उसे {other_code} श्रेणी मिली"},
    "audit.women_not_first": {"en": "it is not among the first {k} of the group in {group} order",
                              "hi": "यह {group} के क्रम में वर्ग की पहली {k} इकाइयों में नहीं है"},
    "audit.women_not_taken": {
        "en": "took {code}, not {women_code}, though it is among the first {k} of the group in {group} order "
              "({why}){instead}",
        "hi": "इसे {code} श्रेणी मिली, {women_code} नहीं, यद्यपि यह {group} के क्रम में वर्ग की पहली {k} इकाइयों में है "
              "({why}){instead}"},
    "audit.women_instead": {"en": "; {other} took {women_code} instead",
                            "hi": "; इसके बदले {other} को {women_code} श्रेणी मिली"},
    "audit.left_without": {
        "en": "left without {group}: the rules give it {code} ({why}) ahead of {other}, which took {other_code}",
        "hi": "{group} के बिना छोड़ी गई: नियम इसे {code} श्रेणी देते हैं ({why}), {other} से पहले, जिसे {other_code} श्रेणी मिली"},
    "audit.tie": {
        "en": "{a} and {b} have equal {label} ({key}) in the same tier: the tie-break rule (option tie_break) or a "
              "lot decides which takes {group}",
        "hi": "उसी स्तर में {a} और {b} का {label} बराबर है ({key}): बराबरी का नियम (विकल्प `tie_break`) या लॉटरी "
              "तय करती है कि {group} किसे मिले"},
}


def _group(g: Group, lang: str) -> str:
    if g.group == "GEN":
        return _WORDS[lang]["women_posts" if g.form == "posts" else "women"]
    return GROUP_LABELS_HI.get(g.group, g.group) if lang == "hi" else g.group


def _names(n: Names, lang: str) -> str:
    ps = [(hi or en) if lang == "hi" else en for en, hi in n.names]
    if len(ps) <= n.limit:
        return ", ".join(ps)
    return _WORDS[lang]["more"].format(names=", ".join(ps[:n.limit]), n=len(ps) - n.limit)


def _options(o: Options, lang: str) -> str:
    if lang == "hi":               # a reading in both languages (a base year) in words, an option as typed
        rs = o.readings or ("",) * len(o.pairs)
        return _WORDS["hi"]["and"].join(render(r, "hi") if isinstance(r, Detail) else f"`{a}={b}`"
                                        for (a, b), r in zip(o.pairs, rs))
    if o.readings:
        return " and ".join(f"{a}={b} ({render(r, lang)})" for (a, b), r in zip(o.pairs, o.readings))
    return " and ".join(f"{a}={b}" for a, b in o.pairs)


def render(value, lang: str = "en") -> str:
    """``value`` (a :class:`Detail` or one of its values) in words in ``lang``."""
    if isinstance(value, Detail):
        entry = DETAIL.get(value.key) or TEXT[value.key]
        text = entry[check_lang(lang)]
        return text.format(**{k: render(v, lang) for k, v in value.values}) if value.values else text
    if isinstance(value, Said):
        return value.hi if lang == "hi" else value.en
    if isinstance(value, Cat):
        return category_words_hi(value.code) if lang == "hi" else value.code
    if isinstance(value, Group):
        return _group(value, lang)
    if isinstance(value, Names):
        return _names(value, lang)
    if isinstance(value, Kind):
        return KINDS_HI.get(value.kind, value.kind) if lang == "hi" else value.kind
    if isinstance(value, Pct):
        return _WORDS[lang]["pct"].format(n=value.number)
    if isinstance(value, Options):
        return _options(value, lang)
    if isinstance(value, Join):
        return value.sep.join(render(p, lang) for p in value.parts)
    return str(value)
