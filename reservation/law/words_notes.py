"""The words of the assumptions a run states (``meta["assumptions"]``, the "assumed:" lines), in English and Hindi.

An assumption is a :class:`Note`: the English sentence itself (a ``str``, as the meta, its JSON file, the English
lines and every caller have always had it) that also carries its key of :data:`NOTES` and its values, so that
:meth:`Note.in_lang` renders the Hindi from them; no code reads the English back. Values are numbers, text the
same in both languages, :class:`~reservation.law.words_counts.Said` pairs, unit kinds
(:class:`~reservation.law.words_audit.Kind`) or other notes. Part of the words of :mod:`reservation.law.words`;
docs/glossary.md gives the Hindi terms.
"""

from __future__ import annotations

from .langs import check_lang
from .words_audit import render

__all__ = ["Note", "NOTES", "note_in"]

#: The assumptions' sentences, by key: ``{key: {"en": ..., "hi": ...}}`` (``{name}``: a value of the note).
NOTES: dict[str, dict[str, str]] = {
    # the election year (rules.rulebook.YearRules.check)
    "year.next": {
        "en": "{year} is taken as the next election: none has been held since {top}, and the year only labels it; "
              "the elections held up to {top} are its history",
        "hi": "{year} को अगला चुनाव माना गया: {top} के बाद कोई चुनाव नहीं हुआ, और वर्ष केवल उसका नाम है; {top} तक हुए "
              "चुनाव उसका इतिहास हैं"},
    "year.rules_assumed": {
        "en": "no reservation rules for {year} are in the sources: the {instrument} rules of {rules_year} are "
              "assumed to apply unchanged",
        "hi": "{year} के आरक्षण के नियम स्रोतों में नहीं हैं: {rules_year} के {instrument} के नियम बिना बदलाव के लागू "
              "माने गए"},
    # the base year (rules.rulebook.base_year_assumption, allotment.pipeline)
    "base.missing": {
        "en": "base year {base}: the {body} history holds no record for the general election(s) of {missing}; "
              "{counted}{then}",
        "hi": "आधार वर्ष {base}: {body} के इतिहास में {missing} के आम चुनाव का कोई अभिलेख नहीं; {counted}{then}"},
    "base.counts_only": {"en": "rotation counts only {used}", "hi": "चक्रानुक्रम में केवल {used} गिना गया"},
    "base.counts_none": {"en": "rotation counts only no election", "hi": "चक्रानुक्रम में कोई चुनाव नहीं गिना गया"},
    "base.as_later": {
        "en": ", so 'never reserved in the previous elections since {base}' is computed as 'not reserved in "
              "{same}' and the result is the one of base year {first}; supply the missing lists with --history to "
              "compute the {base} reading",
        "hi": ", इसलिए '{base} से पिछले चुनावों में कभी आरक्षित नहीं' की गणना '{same} में आरक्षित नहीं' के रूप में हुई "
              "और परिणाम आधार वर्ष {first} वाला है; {base} वाला पाठ पाने के लिए छूटी सूचियाँ --history से दें"},
    "base.not_reserved": {
        "en": "; units are taken as not reserved in the missing elections",
        "hi": "; छूटे चुनावों में इकाइयाँ आरक्षित नहीं मानी गईं"},
    "base.record": {
        "en": "base year {base}: the base year the published {body} lists of {year} support (the evidence of "
              "option rotation_history, `reservation options --body {code}`); --base-year gives another",
        "hi": "आधार वर्ष {base}: {year} की प्रकाशित {body} सूचियाँ इसी आधार वर्ष का समर्थन करती हैं (विकल्प "
              "`rotation_history` का साक्ष्य, `reservation options --body {code}`); --base-year से दूसरा दिया जा "
              "सकता है"},
    # the inputs (allotment.pipeline, rules.kp_chair)
    "history.none": {
        "en": "no history given (--history): every {kind} counts as never reserved",
        "hi": "कोई इतिहास नहीं दिया गया (--history): हर इकाई ({kind}) कभी आरक्षित नहीं गिनी गई"},
    "kp.left_out": {
        "en": "left out (no gram panchayat in the LGD block-panchayat table, so not a Kshetra Panchayat in "
              "{year}): {names}",
        "hi": "छोड़े गए (एलजीडी की विकास खण्ड-ग्राम पंचायत तालिका में कोई ग्राम पंचायत नहीं, इसलिए {year} में "
              "क्षेत्र पंचायत नहीं): {names}"},
}


def _render(key: str, values: dict, lang: str) -> str:
    return NOTES[key][check_lang(lang)].format(**{k: note_in(v, lang) for k, v in values.items()})


def note_in(value, lang: str) -> str:
    """A note's value (or any assumption) in words in ``lang``: a :class:`Note` rendered in ``lang``, a typed
    value through :func:`reservation.law.words_audit.render`."""
    if isinstance(value, Note):
        return value.in_lang(lang)
    return render(value, lang)


class Note(str):
    """An assumption: its English sentence (this ``str``), made from ``key`` (of :data:`NOTES`) and ``values``,
    which :meth:`in_lang` renders in another language."""

    def __new__(cls, key: str, /, **values):
        self = super().__new__(cls, _render(key, values, "en"))
        self.key = key
        self.values = tuple(values.items())
        return self

    def __reduce__(self):            # a pickle (a report's saved allotment) keeps the key and values
        return (_note, (self.key, self.values))

    def in_lang(self, lang: str) -> str:
        """The sentence in ``lang`` ("en": this one)."""
        return str(self) if check_lang(lang) == "en" else _render(self.key, dict(self.values), lang)


def _note(key: str, values: tuple) -> Note:
    return Note(key, **dict(values))
