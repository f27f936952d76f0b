"""The answer beside every category in the views (issue 20 items 1 and 3): the count that opens the notebooks,
the explorer and the report pages; the published category, the status and the possible categories in the unit
tables (Hindi words on Hindi tables) and the division CSVs; one unit's answer in notebook 03; the probabilities of
an election not yet held. The published categories are checked against the shipped list read here with pandas
(data/published/zp_adhyaksh_2021_final.csv), not through the code that reads it."""

from __future__ import annotations

import pandas as pd
import pytest

from conftest import ROOT
from reservation import views
from reservation.law.categories import CODES, label
from reservation.law.words_allotment import STATUS_ONE_EN
from reservation.law.words import STATUS_WORDS

FINAL_2021 = ROOT / "data" / "published" / "zp_adhyaksh_2021_final.csv"
LUCKNOW = ["Hardoi", "Lakhimpur Kheri", "Lucknow", "Rae Bareli", "Sitapur", "Unnao"]


@pytest.fixture(scope="module")
def zp():
    return views.run_allotment("zp-chair", 2021)


@pytest.fixture(scope="module")
def shipped():
    df = pd.read_csv(FINAL_2021)
    return dict(zip(df["district_en"], df["category"]))


def test_the_count_names_every_unit_of_the_division_once(zp):
    counts = views.status_counts(zp.table, "Lucknow")
    assert sum(counts.values()) == 6 and list(counts)[0] == "determined"
    table = zp.table[zp.table["division"] == "Lucknow"]
    assert counts == {s: int((table["status"] == s).sum()) for s in counts}
    en, hi = views.count_line(zp, "Lucknow", "en"), views.count_line(zp, "Lucknow", "hi")
    assert en.startswith("6 districts: ") and hi.startswith("6 ")
    for s, n in counts.items():
        if n:
            one = STATUS_ONE_EN[s] if n == 1 else STATUS_WORDS['en'][s][0]      # "1 differs", "2 differ"
            assert f"{n} {one}" in en and f"{n} {STATUS_WORDS['hi'][s][0]}" in hi
    assert views.count_line(zp, None, "en").startswith("75 districts: ")
    page = views.count_lines(zp, ["Lucknow"]).data
    assert page.count('class="reservation-count"') == 2 and "6 districts: " in page


def test_unit_lists_carry_the_published_category_status_and_possible(zp, shipped):
    en = views.unit_list(zp.table, "Varanasi", "en").set_index("Unit")
    assert list(en.columns[4:7]) == ["Published", "Status", "Possible"]
    # the example: computed W, the State's final list OBC_W
    assert en.at["Varanasi", "Code"] == "W" and shipped["Varanasi"] == "OBC_W"
    assert en.at["Varanasi", "Published"] == label("OBC_W")
    assert en.at["Varanasi", "Status"] == STATUS_WORDS["en"]["differs_published"][0]
    for name, row in en.iterrows():
        assert row["Published"] == label(shipped[name])
        assert set(row["Possible"].split("|")) <= set(CODES)
        if row["Status"] == STATUS_WORDS["en"]["determined"][0]:
            assert row["Possible"] == row["Code"]
    hi = views.unit_list(views.table_in(zp, "hi"), "Varanasi", "hi")
    assert {"प्रकाशित", "स्थिति", "संभावित"} <= set(hi.columns)
    assert set(hi["स्थिति"]) <= {w for w, _ in STATUS_WORDS["hi"].values()}
    assert label(shipped["Varanasi"], "hi") in set(hi["प्रकाशित"])


def test_division_tables_give_the_csv_its_answer_and_count(zp, shipped):
    t = views.division_tables(zp, "Lucknow")
    units = t["units"]
    cols = list(units.columns)
    assert cols.index("published") > cols.index("category") and {"status", "status_en", "status_hi",
                                                                    "possible"} <= set(cols)
    assert sorted(units["unit_name_en"]) == LUCKNOW
    assert all(p == shipped[n] for n, p in zip(units["unit_name_en"], units["published"]))
    status = t["status"].set_index("status")
    assert status.at["TOTAL", "in_division"] == 6 and status.at["TOTAL", "in_state"] == 75
    assert status.drop("TOTAL")["in_division"].to_dict() == views.status_counts(zp.table, "Lucknow")


def test_one_units_answer_leads_notebook_03(zp, shipped):
    rot = views.rotation_view(zp, unit="Varanasi")
    en = rot["answer"]["en"].set_index("Item")["Value"]
    assert en["Published"] == f"{label('OBC_W')} (OBC_W)" and en["Category"].endswith("(W)")
    assert en["Status"].startswith(STATUS_WORDS["en"]["differs_published"][0])
    hi = rot["answer"]["hi"]
    assert "स्थिति" in set(hi.iloc[:, 0])
    assert views.rotation_view(zp)["answer"] == {}
    assert not len(views.unit_answer(zp, "Gotham"))


def test_the_explorer_shows_the_status_and_the_count():
    ex = views.Explorer(render=False)
    s = ex.state
    assert s.count.startswith("75 districts: ") and "Status" in s.table.columns and "Possible" in s.table.columns
    ex.division.value = "Lucknow"
    assert ex.state.count.startswith("6 districts: ") and len(ex.state.table) == 6
    ex.lang.value = "hi"
    assert "स्थिति" in ex.state.table.columns and ex.state.count.startswith("6 ")
    ex.toy.value = True
    assert ex.state.count == ""


def test_a_future_election_shows_its_probabilities():
    from reservation.answers.future import allot_answered
    a = allot_answered("zp-chair", 2026, samples=20, seed=0)
    shown = views.unit_list(a.table, "Lucknow", "en")
    probs = [f"P_{c}" for c in CODES]
    assert probs == [c for c in shown.columns if c.startswith("P_")]
    total = shown[probs].astype(float).sum(axis=1)
    assert ((total - 1).abs() < 0.002).all()                    # three decimals each
    units = views.division_tables(a, "Lucknow")["units"]
    assert set(probs) <= set(units.columns) and ((units[probs].sum(axis=1) - 1).abs() < 1e-9).all()
    answer = views.unit_answer(a, "Lucknow")
    assert "Probabilities" in set(answer["Item"]) and not views.has_published(a.table)


def test_maps_of_the_views_read_the_status(zp):
    """Notebook 02's map and the explorer's are drawn from the allotment table, which carries the status: every
    status that is not ``determined`` gets its key entry with its count."""
    from reservation.law.words import word
    view = views.division_map(zp.table, ["Lucknow"], "en", body="zp-chair")
    names = {str(t.name) for t in view.figure.data}
    counts = views.status_counts(zp.table, "Lucknow")
    shown = {s: n for s, n in counts.items() if n and s != "determined"}
    assert shown and all(f"{word(f'map.status.{s}')} ({n})" in names for s, n in shown.items())


def test_a_report_of_an_election_not_yet_held_takes_its_samples(tmp_path):
    """`reservation report --samples N` (0: none): the probabilities of the pages, as `allot --samples`."""
    from reservation.report import report_allotment, validate
    p = validate("zp-chair", 2026, "Lucknow", out=str(tmp_path / "r"))
    none = report_allotment(p, seed=0, samples=0)
    assert not [c for c in none.table.columns if c.startswith("P_")]
    few = report_allotment(p, seed=0, samples=3)
    probs = few.table[[c for c in few.table.columns if c.startswith("P_")]]
    assert len(probs.columns) == 8 and ((probs * 3).round(9) % 1 == 0).all().all()     # thirds: 3 samples
