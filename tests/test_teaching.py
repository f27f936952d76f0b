"""The teaching views (docs/teaching.md): the toy states' boxes say what explains each step, the steps read in
Hindi, the division-rule toy state gives its hand-worked answer, the worksheet is built from the rules, and toy
or partial data say so wherever the explorer shows them.

The golden values are the hand-worked ones of docs/teaching.md (the same as tests/fixtures/toy/README.md): five.csv
with the 2015 history, and saturation.csv (the division rule) under the default options."""

import importlib.util
import re
from pathlib import Path

import pandas as pd
import pytest

from reservation import views
from reservation.law.categories import CODES
from reservation.views import toy

ROOT = Path(__file__).resolve().parent.parent
FIX = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="module")
def five():
    r = views.toy_allotment()
    return r, views.toy_steps(r)


@pytest.fixture(scope="module")
def division():
    r = views.toy_allotment(state="division")
    return r, views.toy_steps(r)


def _step_of(steps, unit: str, pass_: str) -> int:
    rows = steps[(steps["pass"] == pass_) & (steps["units"] == unit)]
    assert len(rows) == 1
    return int(rows["step"].iat[0])


def test_division_toy_data_are_the_fixture():
    assert toy.TOY_STATES["division"][0].read_bytes() == (FIX / "toy" / "saturation.csv").read_bytes()


def test_boxes_carry_the_share_ranked_and_the_earlier_category(five):
    r, steps = five
    at = _step_of(steps, "Alpha", "SC_W+SC")            # Alpha passed over: tier 3, it held SC_W in 2015
    st = views.toy_state(r, steps, at).set_index("unit_name_en")
    # hand-worked: SC shares 40, 30, 20, 10, 0 %; 2015 categories SC_W, UR, OBC, W, UR
    assert st["share"].to_dict() == {"Alpha": "40.0000 %", "Beta": "30.0000 %", "Gamma": "20.0000 %",
                                     "Delta": "10.0000 %", "Epsilon": "0.0000 %"}
    assert st["earlier"].to_dict() == {"Alpha": "2015: SC_W", "Beta": "2015: UR", "Gamma": "2015: OBC",
                                       "Delta": "2015: W", "Epsilon": "2015: UR"}
    assert st.at["Alpha", "tier"] == 3 and st.at["Beta", "tier"] == 1 and st.at["Alpha", "current"]
    assert st.at["Beta", "category"] == "SC_W" and st.at["Alpha", "category"] == ""
    assert "SC share" in st.at["Alpha", "key_label"]
    # the OBC pass: every district at the assumed State share, Beta (already SC_W) not ranked
    obc = views.toy_state(r, steps, _step_of(steps, "Alpha", "OBC_W+OBC")).set_index("unit_name_en")
    assert obc.at["Alpha", "share"] == "53.3300 %" and obc.at["Beta", "share"] == ""
    assert obc.at["Gamma", "tier"] == 3 and pd.isna(obc.at["Beta", "tier"])
    shown = views.toy_table(st.reset_index(), "hi")
    assert list(shown.columns) == ["इकाई", "मंडल", "अनुपात", "पिछला निर्वाचन", "इस चरण में स्तर", "श्रेणी"]
    assert shown.iloc[0].tolist() == ["अल्फ़ा", "पूर्व", "40.0000 %", "2015: SC_W", "3", ""]
    assert "<NA>" not in views.toy_table(views.toy_state(r, steps, 1), "en", final=True).to_html()
    # the counts step ranks nobody
    first = views.toy_state(r, steps, 1)
    assert (first["share"] == "").all() and first["tier"].isna().all() and (first["earlier"] != "").all()


def test_the_figure_shows_in_each_box_what_explains_the_step(five):
    r, steps = five
    at = _step_of(steps, "Alpha", "SC_W+SC")
    fig = views.toy_figure(views.toy_state(r, steps, at))
    texts = [a["text"] for a in fig.to_plotly_json()["layout"]["annotations"]]
    alpha = [t for t in texts if t.startswith("<b>Alpha</b>")]
    assert alpha == ["<b>Alpha</b><br>40.0000 %<br>2015: SC_W<br>tier 3<br>?"]
    beta = [t for t in texts if t.startswith("<b>Beta</b>")]
    assert beta == ["<b>Beta</b><br>30.0000 %<br>2015: UR<br>tier 1<br>SC_W"]
    assert any("Ranked in this pass: SC share" in t for t in texts)
    hi = views.toy_figure(views.toy_state(r, steps, at, "hi"), "hi")
    texts = [a["text"] for a in hi.to_plotly_json()["layout"]["annotations"]]
    assert "<b>अल्फ़ा</b><br>40.0000 %<br>2015: SC_W<br>स्तर 3<br>?" in texts
    assert "<b>पूर्व</b>" in texts                          # the divisions in Hindi


#: Latin words a Hindi step may carry: category codes and pass names (they name a category), the option and
#: value the division rule's reason quotes.
_NAMES = set(CODES) | {"saturation_effect", "unreserved"}


def _latin_words(text: str) -> list[str]:
    return [w for w in re.findall(r"[A-Za-z][A-Za-z_]*", text) if w not in _NAMES]


@pytest.mark.parametrize("state", list(toy.TOY_STATES))
def test_hindi_steps_have_no_english_sentence(state):
    r = views.toy_allotment(state=state)
    hi, en = views.toy_steps(r, "hi"), views.toy_steps(r, "en")
    assert len(hi) == len(en) and list(hi["decision"]) == list(en["decision"])    # the same typed steps
    assert list(hi["category"]) == list(en["category"])
    for t in hi["text"]:
        assert _latin_words(t) == [], t
        assert re.search("[\u0900-\u097f]", t), t
    assert any(_latin_words(t) for t in en["text"])                                  # the check can fail


def test_explorer_renders_the_step_in_hindi_and_names_the_clause_apart():
    ex = views.Explorer(render=False)
    ex.toy.value = True
    ex.lang.value = "hi"
    ex.step.value = 3
    s = ex.state
    assert s.step_text.startswith("13 में से कदम 3:") and _latin_words(s.step_text) == []
    # the clause: a citation, in the order's own Hindi (the rulebook's clauses_hi)
    assert s.step_clause.startswith("प्रावधान: ") and "शासनादेश 2021" in s.step_clause
    assert s.title.startswith("अभ्यास के लिए काल्पनिक राज्य")
    assert "बीटा" in s.step_text and "अनुसूचित जाति का अनुपात 30.0000 %" in s.step_text


def test_division_toy_state_frees_elm_by_hand(division):
    """Hand-worked (docs/teaching.md): SC share 2050/6500 = 31.54 %: 5 x 0.3154 = 1.58 -> 2 (SC_W 1, SC 1); OBC 1
    (OBC_W). SC order Dogwood 45, Elm 40, Ash 30, Birch 25, Cedar 0: Dogwood and Elm are all of South, so the
    less populous Elm (1,500) is left out and Ash takes SC. Elm is then unreserved (saturation_effect=unreserved);
    OBC over Birch and Cedar (tied, equal populations): lower code, Birch."""
    r, steps = division
    got = dict(zip(r.table["unit_name_en"], r.table["category"]))
    assert got == {"Ash": "SC", "Birch": "OBC_W", "Cedar": "UR", "Dogwood": "SC_W", "Elm": "UR"}
    sc = steps[steps["pass"] == "SC_W+SC"]
    assert list(sc["units"]) == ["Elm", "Dogwood", "Ash", "Birch", "Cedar"]
    assert list(sc["decision"]) == ["left_out_division", "allotted", "allotted", "passed_over", "passed_over"]
    assert "South" in sc["text"].iat[0] and "1,500" in sc["text"].iat[0]
    elm_obc = steps[(steps["pass"] == "OBC_W+OBC") & (steps["units"] == "Elm")]
    assert elm_obc["decision"].tolist() == ["not_eligible"]
    hi = views.toy_steps(r, "hi")
    assert "दक्षिण मण्डल" in hi["text"].iat[2] and "अनुसूचित जाति के लिए" in hi["text"].iat[2]
    st = views.toy_state(r, steps, 3).set_index("unit_name_en")
    assert st.at["Elm", "current"] and st.at["Elm", "share"] == "40.0000 %" and st.at["Elm", "earlier"] == ""
    assert views.toy_title(st.reset_index(), "en").endswith("North (Ash, Birch, Cedar); South (Dogwood, Elm)")


def test_explorer_offers_the_division_toy_state():
    ex = views.Explorer(render=False)
    ex.toy.value = True
    assert [v for _, v in ex.toy_name.options] == ["five", "division"]
    ex.toy_name.value = "division"
    s = ex.state
    assert s.error == "" and s.toy == "division" and len(s.steps) == 12 and ex.step.max == 12
    ex.step.value = 12
    final = s.table.set_index("unit_name_en")
    assert (final["category"] == final["final"]).all() and final.at["Elm", "category"] == "UR"
    with pytest.raises(Exception):
        views.toy_allotment(state="nope")


@pytest.mark.parametrize("body", ["gp-ward", "kp-ward", "zp-ward"])
def test_toy_units_look_like_toy_units(body):
    ex = views.Explorer(body=body, render=False)
    s = ex.state
    assert s.error == "" and s.data == "toy"
    assert "MADE-UP TOY UNITS" in s.title and "MADE-UP TOY UNITS" in ex.status.value
    fig = s.figure.to_plotly_json()
    assert not any(t["type"].endswith("map") for t in fig["data"])        # no real district is drawn
    assert fig["layout"]["title"]["text"].startswith(views.body_title(body))
    assert len(fig["layout"]["shapes"]) == len(s.table) == 12            # one box per made-up unit
    ex.lang.value = "hi"
    assert "काल्पनिक" in ex.state.title


def test_toy_units_given_for_gram_pradhans_look_like_toy_units():
    ex = views.Explorer(body="gp-pradhan", units=str(toy.TOY_UNITS["gp-pradhan"]), render=False)
    assert ex.state.error == "" and ex.state.data == "toy" and "MADE-UP" in ex.state.title


def test_gram_pradhans_on_partial_figures_say_so():
    r = views.run_allotment("gp-pradhan", 2021)
    assert toy.data_kind(r, "") == "partial"
    t = r.table                     # the answer's own status (the maps draw it as it is)
    fig = dict(zip(r.units["unit_code"], r.units["figures"]))
    # every shipped gram panchayat rests on partial or no figures: its status says so, unless a status that comes
    # first in the answer's precedence (a missing list) says more
    assert all(v in ("partial", "none") for v in fig.values())
    assert set(t["status"]) <= {"partial_figures", "depends_list", "differs_published"}
    assert (t["status"] == "partial_figures").sum() > 0.9 * len(t)
    assert toy.allotment_title("Gram pradhans", 2021, "partial").startswith("Gram pradhans 2021: partial Census")
    assert "अधूरे" in toy.allotment_title("ग्राम प्रधान", 2021, "partial", "hi")
    # a real body's own figures: no such words
    zp = views.run_allotment("zp-chair", 2021)
    assert toy.data_kind(zp, "") == "real" and toy.allotment_title("x", 2021, "real") == "x 2021"
    assert "partial_figures" not in set(zp.table["status"])


def _worksheet():
    spec = importlib.util.spec_from_file_location("worksheet", ROOT / "docs" / "worksheet.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_worksheet_answers_are_the_hand_worked_ones():
    a = _worksheet().answers("en")
    assert a["final"] == "Alpha OBC_W, Beta SC_W, Gamma UR, Delta UR, Epsilon UR"
    assert (a["sc_state"], a["sc_product"], a["sc_posts"], a["sc_women"]) == ("20.00 %", "1.00", "1", "1")
    assert a["sc_order"] == "Alpha 40.0000 %, Beta 30.0000 %, Gamma 20.0000 %, Delta 10.0000 %, Epsilon 0.0000 %"
    assert (a["top"], a["top_last"], a["sc_winner"], a["sc_winner_code"]) == ("Alpha", "SC_W", "Beta", "SC_W")
    assert (a["obc_product"], a["obc_rounded"], a["obc_posts"]) == ("2.67", "3", "1")
    assert (a["obc_winner"], a["obc_last"], a["obc_last_last"]) == ("Alpha", "Gamma", "OBC")
    assert a["div_sc"] == "Dogwood SC_W, Ash SC" and a["div_freed"] == "Elm" and a["div_freed_pop"] == "1,500"
    assert a["div_division"] == "South" and a["div_obc"] == "Birch OBC_W"
    assert a["div_final"] == "Ash SC, Birch OBC_W, Cedar UR, Dogwood SC_W, Elm UR"
    hi = _worksheet().answers("hi")
    assert hi["final"] == "अल्फ़ा OBC_W, बीटा SC_W, गामा UR, डेल्टा UR, एप्सिलॉन UR" and hi["div_division"] == "दक्षिण"


def test_worksheet_builds_the_same_bytes_and_the_shipped_copies_are_current(tmp_path):
    ws = _worksheet()
    assert ws.main(["--out", str(tmp_path)]) == 0
    first = {p.name: p.read_bytes() for p in tmp_path.glob("*.pdf")}
    assert sorted(first) == ["worksheet-en.pdf", "worksheet-hi.pdf"]
    for data in first.values():                         # three pages: part 1, part 2, the answers
        assert data.startswith(b"%PDF") and len(re.findall(rb"/Type\s*/Page(?!s)", data)) == 3
    assert ws.main(["--out", str(tmp_path)]) == 0
    assert {p.name: p.read_bytes() for p in tmp_path.glob("*.pdf")} == first      # deterministic
    for name, data in first.items():                    # the copies in docs/ were built from the current rules
        assert (ROOT / "docs" / name).read_bytes() == data, f"docs/{name} is stale: run docs/worksheet.py"
