"""The audit's ``detail`` column in English and Hindi (reservation.law.words_audit): English exactly as before the
details were typed, Hindi as written by hand here.

The English values were recorded from main at 9fcfb61, before this change: the whole table of
``reservation audit --body zp-chair --year 2021 --published data/published/zp_adhyaksh_2021_final.csv`` (stdout, in
tests/fixtures/audit/zp_2021_final_audit_en.csv) and the details below. The Hindi strings are written out by hand
from docs/glossary.md (अनुसूचित जाति महिला, स्तर, चरण, मण्डल, अनारक्षित, संगणना, प्रतिशत), not produced by the code.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from conftest import PUBLISHED, run_cli
from reservation.auditing.audit import audit
from reservation.auditing.verdicts import table_in
from reservation.law.words_audit import Cat, Detail, Group, Join, Names, Options, Pct, detail, render

FIXTURES = Path(__file__).resolve().parent / "fixtures"
AUDIT, TOY = FIXTURES / "audit", FIXTURES / "toy"
NINE = dict(units=AUDIT / "nine.csv", history=[AUDIT / "nine_history_2015.csv"])
FINAL = ["audit", "--body", "zp-chair", "--year", "2021", "--published", PUBLISHED / "zp_adhyaksh_2021_final.csv"]

#: `audit --lang hi` of the final 2021 Zila Panchayat chair list: four districts' detail, by hand
FINAL_HI = {
    "Jhansi": "इसे अनुसूचित जाति श्रेणी मिली, अनुसूचित जाति महिला नहीं, यद्यपि यह अनुसूचित जाति के क्रम में वर्ग की "
              "पहली 6 इकाइयों में है (स्तर 1: 2015 में कभी अनुसूचित जाति के लिए आरक्षित नहीं, 32.1208 %); इसके बदले "
              "बागपत को अनुसूचित जाति महिला श्रेणी मिली",
    "Etawah": "अनुसूचित जाति के बिना छोड़ी गई: नियम इसे अनुसूचित जाति श्रेणी देते हैं (स्तर 1: 2015 में कभी अनुसूचित "
              "जाति के लिए आरक्षित नहीं, 27.0388 %), बागपत से पहले, जिसे अनुसूचित जाति महिला श्रेणी मिली",
    "Banda": "संगणना के अनुसार; अन्य पिछड़ा वर्ग का क्रम सार्वजनिक नहीं है: सूची के लिए इसका ग्रामीण अन्य पिछड़ा वर्ग "
             "अनुपात 14.68 प्रतिशत और 77.41 प्रतिशत के बीच होना चाहिए",
    "Gautam Buddh Nagar": "सूची के पिछले चरणों को प्रकाशित रूप में लेकर विधिसम्मत (सूची इसे अनारक्षित श्रेणी देती है); "
                          "हमारी संगणना अन्य पिछड़ा वर्ग श्रेणी देती है, क्योंकि पिछले चरण भिन्न हैं (बागपत, इटावा, "
                          "झांसी, कानपुर देहात, रायबरेली और 1 अन्य)",
}


def _rows(out: str) -> dict:
    return {r["unit_name_en"]: r for r in csv.DictReader(io.StringIO(out))}


def test_the_english_audit_of_the_final_2021_list_is_as_before():
    """The whole English table, byte for byte, as main printed it before the details were typed."""
    code, out, err = run_cli(FINAL)
    assert code == 0, err
    assert out == (AUDIT / "zp_2021_final_audit_en.csv").read_text(encoding="utf-8")


def test_the_hindi_detail_of_the_final_2021_list():
    """Four kinds of sentence (women from the top, left without the group, a match whose OBC order is not public, a
    knock-on) in Hindi; every other column but rule and clause as in English."""
    code, out, err = run_cli([*FINAL, "--lang", "hi"])
    assert code == 0, err
    hi = _rows(out)
    for name, text in FINAL_HI.items():
        assert hi[name]["detail"] == text, name
    en = _rows(run_cli(FINAL)[1])
    for name in en:
        assert {k: v for k, v in hi[name].items() if k not in ("rule", "clause", "detail")} == \
            {k: v for k, v in en[name].items() if k not in ("rule", "clause", "detail")}


#: (case, unit) -> the English detail main gave, and the Hindi one written by hand
CASES = {
    ("nine_order", "Elm"): (
        "took SC with SC share of the rural population 30.0000 % (tier 1: never held SC in 2015), while Dogwood with "
        "33.0000 % in the same tier was left without SC",
        "इसे अनुसूचित जाति श्रेणी मिली (ग्रामीण जनसंख्या में अनुसूचित जाति का अनुपात 30.0000 %; स्तर 1: 2015 में कभी "
        "अनुसूचित जाति के लिए आरक्षित नहीं), जबकि उसी स्तर की डॉगवुड (33.0000 %) को अनुसूचित जाति के बिना छोड़ा गया"),
    ("nine_order", "Fir"): (
        "lawful given the list's earlier passes as published (the list gives UR); our computation gives OBC because "
        "the earlier passes differ (Dogwood, Elm)",
        "सूची के पिछले चरणों को प्रकाशित रूप में लेकर विधिसम्मत (सूची इसे अनारक्षित श्रेणी देती है); हमारी संगणना "
        "अन्य पिछड़ा वर्ग श्रेणी देती है, क्योंकि पिछले चरण भिन्न हैं (डॉगवुड, एल्म)"),
    ("saturation", "Elm"): (
        "under division_saturation=off (ignore it) the rules give the published SC. With the options as given: all 2 "
        "units of South division hold SC in the list; the rule makes the least populous of those chosen (Elm, 1,500) "
        "unreserved",
        "`division_saturation=off` के अनुसार नियम प्रकाशित श्रेणी (अनुसूचित जाति) देते हैं। दिए गए विकल्पों के साथ: "
        "सूची में दक्षिण मण्डल की सभी 2 इकाइयों को अनुसूचित जाति का पद मिला है; नियम चुनी गई इकाइयों में सबसे कम "
        "जनसंख्या वाली (एल्म, 1,500) को अनारक्षित करता है"),
    ("five", "Epsilon"): (
        "under general_women=third_of_rest (general women = ceil(unreserved remainder / 3)) the rules give the "
        "published W. With the options as given: the list gives 1 women's offices where the law's arithmetic gives 0; "
        "this unit is the last of them in women order",
        "`general_women=third_of_rest` के अनुसार नियम प्रकाशित श्रेणी (महिला) देते हैं। दिए गए विकल्पों के साथ: सूची "
        "महिला के 1 पद देती है, जबकि विधि की गणना 0 देती है; महिला के क्रम में यह इकाई उनमें अंतिम है"),
}

_RUNS = {
    "nine_order": lambda: audit("zp-chair", 2021, AUDIT / "nine_order.csv", search_options=False, **NINE),
    "saturation": lambda: audit("zp-chair", 2021, AUDIT / "saturation_ignored.csv", units=TOY / "saturation.csv",
                                history=[]),
    "five": lambda: audit("zp-chair", 2021, AUDIT / "five_third_of_rest.csv", units=TOY / "five.csv",
                          history=[TOY / "five_history_2015.csv"]),
}


@pytest.mark.parametrize("case", sorted(_RUNS))
def test_details_in_both_languages(case):
    """Rotation and order, a knock-on, the division rule and a count under the option search: the English detail
    as main gave it, the Hindi one as written here."""
    r = _RUNS[case]()
    en = dict(zip(r.table["unit_name_en"], r.table["detail"]))
    t = table_in(r.table, r.verdicts, "hi", r.clause_hi, r.computed, r.details)
    hi = dict(zip(t["unit_name_en"], t["detail"]))
    for (c, unit), (english, hindi) in CASES.items():
        if c == case:
            assert en[unit] == english, unit
            assert hi[unit] == hindi, unit


def test_render_of_each_kind_of_value():
    """The values a detail carries, in both languages (a code, a group, names with more, a percentage, options)."""
    names = Names((("Agra", "आगरा"), ("Etah", ""), ("Mau", "मऊ")), 2)
    assert render(names) == "Agra, Etah and 1 more" and render(names, "hi") == "आगरा, Etah और 1 अन्य"
    assert [render(Cat("SC_W+SC"), x) for x in ("en", "hi")] == ["SC_W+SC", "अनुसूचित जाति महिला और अनुसूचित जाति"]
    assert [render(Group("GEN", "posts"), x) for x in ("en", "hi")] == ["women's", "महिला"]
    assert [render(Pct("53.33"), x) for x in ("en", "hi")] == ["53.33 %", "53.33 प्रतिशत"]
    o = Options((("tie_break", "code"), ("base_year", "1995")), ("lower code first", detail("audit.base_year", year=1995)))
    assert render(o) == "tie_break=code (lower code first) and base_year=1995 (previous elections counted from 1995)"
    assert render(o, "hi") == "`tie_break=code` और पिछले निर्वाचन 1995 से गिने गए"
    assert render(Options(o.pairs), "hi") == "`tie_break=code` और `base_year=1995`"
    j = Join((detail("audit.count.unknown"), Detail("audit.order.more", (("n", 3),))), "")
    assert render(j, "hi") == " (यह संख्या अन्य पिछड़ा वर्ग के उन आँकड़ों पर निर्भर है जो सार्वजनिक नहीं हैं) (ऐसी 3 इकाइयाँ)"


def test_every_detail_has_both_languages_with_the_same_placeholders():
    import string

    from reservation.law.words_audit import DETAIL

    def fields(text):
        return {f for _, f, _, _ in string.Formatter().parse(text) if f}

    for key, entry in DETAIL.items():
        assert set(entry) == {"en", "hi"}, key
        assert fields(entry["en"]) == fields(entry["hi"]), key
