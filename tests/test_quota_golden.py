"""Golden counts from the law's arithmetic (docs/panchayat.md-3.2, §4.1, §4.3, §4.5): published figures."""
from fractions import Fraction

import pytest

from reservation.law.quota import QuotaRules, category_counts
import reservation

SC = Fraction(41357608, 199812341)     # Census 2011, whole State (docs/panchayat.md: 20.6982 %)
ST = Fraction(1134273, 199812341)      # 0.5677 %
OBC = Fraction(5333, 10000)            # 53.33 % (rapid survey 2015, as quoted by the GO)


def counts(posts, rules=QuotaRules()):
    df = category_counts(posts, {"SC": SC, "ST": ST, "OBC": OBC}, rules)
    return dict(zip(df["category"], df["count"]))


def test_zp_chairs_2021_are_sc16_sc_women6_st0_obc20_obc_women7_women25_from_the_shipped_census():
    c = dict(zip(*reservation.counts("zp-chair", 2021).loc[:, ["category", "count"]].T.values))
    assert c == {"ST_W": 0, "ST": 0, "SC_W": 6, "SC": 10, "OBC_W": 7, "OBC": 13, "W": 12, "UR": 27, "TOTAL": 75}
    assert c["SC_W"] + c["OBC_W"] + c["W"] == 25


@pytest.mark.parametrize("posts, sc, st, obc", [(826, 171, 5, 223), (58194, 12045, 330, 15712)])
def test_published_state_counts_for_pramukhs_and_pradhans(posts, sc, st, obc):
    c = counts(posts)
    assert (c["SC"] + c["SC_W"], c["ST"] + c["ST_W"], c["OBC"] + c["OBC_W"]) == (sc, st, obc)


def test_general_women_third_of_rest_reading_gives_13_for_zp_chairs():
    # docs/ambiguities.md A5 reading b: ceil((75 - 36)/3) = 13, the figure one report gave.
    assert counts(75, QuotaRules(general_women="third_of_rest"))["W"] == 13


def test_obc_cap_half_up_reading_changes_chinhat_18_from_4_to_5():
    # docs/panchayat.md: 27 % of 18 = 4.86 -> floor 4, half-up 5 (the published Chinhat split has 5).
    assert counts(18)["OBC"] + counts(18)["OBC_W"] == 4
    c = counts(18, QuotaRules(obc_cap_rounding="half_up"))
    assert c["OBC"] + c["OBC_W"] == 5


def test_rows_are_disjoint_and_add_up_to_the_posts():
    for posts in (1, 2, 5, 17, 75, 826):
        c = counts(posts)
        assert sum(v for k, v in c.items() if k != "TOTAL") == posts == c["TOTAL"]


def test_state_rural_count_base_gives_a_different_sc_count():
    # A10: rural SC share 22.9757 % x 75 = 17.23 -> 17 (published: 16, so the default is the State total).
    c = dict(zip(*reservation.counts("zp-chair", 2021, options=["count_base=state_rural"]).loc[:, ["category", "count"]].T.values))
    assert c["SC"] + c["SC_W"] == 17


@pytest.mark.parametrize("options", [[], ["count_base=state_rural"], ["sc_st_rounding=floor", "obc_state_share=20"],
                                     ["general_women=third_of_rest", "obc_cap_rounding=half_up"]])
def test_the_light_counts_of_the_cli_equal_the_pipeline_counts(options):
    """`reservation counts --body zp-chair` reads the district table without pandas: same rows, same words."""
    from reservation.rules.registry import get_rulebook
    rb = get_rulebook("zp-chair")
    light = rb.light_counts(rb.option_set([tuple(o.split("=")) for o in options]))
    full = reservation.counts("zp-chair", 2021, options=options)
    assert [tuple(r) for r in full.itertuples(index=False)] == [tuple(r) for r in light]
