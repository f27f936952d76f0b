"""The assumptions a run states are typed notes (reservation/law/words_notes.py): the English sentence as before,
and the Hindi rendered from the note's key and values. Golden texts are written by hand here."""

from __future__ import annotations

import copy
import json
import pickle
import subprocess
import sys

import pandas as pd
import pytest

from reservation.law.words_notes import NOTES, Note
from reservation.rules.registry import get_rulebook
from reservation.rules.rulebook import base_year_assumption


def test_the_next_election_and_the_assumed_rules_in_both_languages():
    notes = get_rulebook("zp-chair").years.check("zp-chair", 2026)
    assert notes == [
        "2026 is taken as the next election: none has been held since 2021, and the year only labels it; the "
        "elections held up to 2021 are its history",
        "no reservation rules for 2026 are in the sources: the GO 2021 (panchayat reservation order) rules of 2021 "
        "are assumed to apply unchanged"]
    assert [n.in_lang("hi") for n in notes] == [
        "2026 को अगला चुनाव माना गया: 2021 के बाद कोई चुनाव नहीं हुआ, और वर्ष केवल उसका नाम है; 2021 तक हुए चुनाव "
        "उसका इतिहास हैं",
        "2026 के आरक्षण के नियम स्रोतों में नहीं हैं: 2021 के शासनादेश 2021 (पंचायत आरक्षण आदेश) के नियम बिना बदलाव "
        "के लागू माने गए"]
    urban = get_rulebook("mayor").years.check("mayor", 2028)[1]
    assert urban.in_lang("hi") == ("2028 के आरक्षण के नियम स्रोतों में नहीं हैं: 2023 के धारा 9-क(5) (2023) के नियम "
                                   "बिना बदलाव के लागू माने गए")


def test_the_base_year_notes_both_ways():
    h = pd.DataFrame({"unit_code": [1, 2], "year": [2015, 2015], "category": ["SC", "UR"]})
    later = base_year_assumption(h, 2026, 2015, "kp-chair", (2005, 2010, 2015, 2021))
    assert later == ("base year 2015: the kp-chair history holds no record for the general election(s) of 2021; "
                     "rotation counts only 2015; units are taken as not reserved in the missing elections")
    assert later.in_lang("hi") == ("आधार वर्ष 2015: क्षेत्र पंचायत प्रमुख के इतिहास में 2021 के आम चुनाव का कोई अभिलेख "
                                   "नहीं; चक्रानुक्रम में केवल 2015 गिना गया; छूटे चुनावों में इकाइयाँ आरक्षित नहीं मानी "
                                   "गईं")
    h2 = pd.DataFrame({"unit_code": [1], "year": [2015], "category": ["SC"]})
    first = base_year_assumption(h2, 2021, 2010, "zp-chair", (2005, 2010, 2015))
    assert first == ("base year 2010: the zp-chair history holds no record for the general election(s) of 2010; "
                     "rotation counts only 2015, so 'never reserved in the previous elections since 2010' is "
                     "computed as 'not reserved in 2015' and the result is the one of base year 2015; supply the "
                     "missing lists with --history to compute the 2010 reading")
    assert "'2015 में आरक्षित नहीं'" in first.in_lang("hi") and "आधार वर्ष 2015 वाला है" in first.in_lang("hi")
    gap = base_year_assumption(pd.DataFrame({"unit_code": [1, 1], "year": [2005, 2015], "category": ["SC", "UR"]}),
                               2021, 2005, "zp-chair", (2005, 2010, 2015))
    assert gap.endswith("of 2010; rotation counts only 2005, 2015; units are taken as not reserved in the missing "
                        "elections")
    old = base_year_assumption(pd.DataFrame({"unit_code": [1], "year": [2000], "category": ["SC"]}), 2021, 2005,
                               "zp-chair", (2000, 2005, 2010, 2015))
    assert "; rotation counts only no election; units are taken" in old
    assert old.in_lang("hi").startswith("आधार वर्ष 2005: जिला पंचायत अध्यक्ष के इतिहास में 2005, 2010, 2015 के आम "
                                        "चुनाव का कोई अभिलेख नहीं; चक्रानुक्रम में कोई चुनाव नहीं गिना गया; ")


def test_a_note_is_its_english_text_everywhere_a_text_goes():
    n = Note("year.next", year=2026, top=2021)
    assert isinstance(n, str) and json.loads(json.dumps([n])) == [str(n)]
    for again in (pickle.loads(pickle.dumps(n)), copy.deepcopy(n)):      # a report's saved allotment
        assert again == n and again.in_lang("hi") == n.in_lang("hi") and isinstance(again, Note)
    assert set(NOTES) >= {"year.next", "year.rules_assumed", "base.missing", "history.none", "kp.left_out"}
    for key, text in NOTES.items():
        assert set(text) == {"en", "hi"}, key


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "reservation.cli", *args], capture_output=True, text=True)


@pytest.mark.parametrize("lang, first", [
    ("en", "assumed: 2026 is taken as the next election"),
    ("hi", "मान्यता: 2026 को अगला चुनाव माना गया")])
def test_the_commands_say_the_notes_in_the_language_asked(lang, first):
    r = _cli("counts", "--body", "kp-chair", "--year", "2026", "--lang", lang)
    assert r.returncode == 0, r.stderr
    assert r.stderr.splitlines()[0].startswith(first)
    a = _cli("allot", "--body", "kp-chair", "--year", "2026", "--lang", lang)
    assert a.returncode == 0, a.stderr
    left = [x for x in a.stderr.splitlines() if "Dankaur" in x]
    assert len(left) == 1
    if lang == "hi":
        assert left[0].startswith("मान्यता: छोड़े गए") and "(गौतमबुद्ध नगर)" in left[0]
        assert "अंग्रेज़ी में" not in a.stderr.split("अन्य पिछड़ा वर्ग की जनसंख्या")[0]
