"""DPC calendar: rule 7 (nomination, withdrawal, poll), rule 29 and rule 28(2) (six weeks)."""

import pytest

from reservation.base.errors import InputError
from reservation.dpc.timeline import parse_date, timeline


def by_step(df):
    return {r.step: r for r in df.itertuples()}


def test_earliest_dates_after_a_notification():
    t = by_step(timeline("2021-08-10"))
    assert t["nomination and scrutiny"].earliest == "2021-08-20"     # at least ten days after
    assert t["withdrawal"].earliest == "2021-08-23"                  # ordinarily the third day after
    assert t["poll"].earliest == "2021-08-26"                        # not earlier than the third day after (b)
    assert t["poll"].clause == "DPC Rules 2008 r.7(c)"


def test_clear_days_reading_adds_one_day():
    df = timeline("2021-08-10", ten_days="clear")
    t = by_step(df)
    assert t["nomination and scrutiny"].earliest == "2021-08-21" and t["poll"].earliest == "2021-08-27"
    assert df.attrs["options"]["ten_days"]["value"] == "clear"


def test_dates_that_keep_the_rules():
    df = timeline("10.08.2021", nomination="2021-08-20", withdrawal="2021-08-23", poll="2021-08-26",
                  completed="2021-07-20")
    assert df.attrs["breaches"] == 0
    t = by_step(df)
    assert t["poll"].latest == "2021-08-31" and t["poll"].check == "ok"       # 20 July + 42 days


def test_each_breach_is_found():
    df = timeline("2021-08-10", nomination="2021-08-19", withdrawal="2021-08-19", poll="2021-08-21",
                  completed="2021-07-01")
    t = by_step(df)
    assert t["nomination and scrutiny"].check == "breach"      # 9 days
    assert t["withdrawal"].check == "breach"                   # not after the nominations
    assert t["poll"].check == "breach"                         # 2 days after the withdrawal
    assert t["completion limit"].check == "breach"             # 1 July + 42 = 12 August < earliest poll
    assert df.attrs["breaches"] == 4


def test_poll_after_six_weeks():
    t = by_step(timeline("2021-08-10", poll="2021-09-20", completed="2021-07-20"))
    assert t["poll"].check == "breach" and "six weeks (2021-08-31)" in t["poll"].note


def test_withdrawal_on_another_day_is_only_a_warning():
    t = by_step(timeline("2021-08-10", nomination="2021-08-20", withdrawal="2021-08-24", poll="2021-08-27"))
    assert t["withdrawal"].check == "warning" and t["poll"].check == "ok"


def test_casual_vacancy_six_weeks():
    t = by_step(timeline("2021-08-10", poll="2021-09-30", vacancy_intimated="2021-08-01"))
    assert t["casual vacancy limit"].latest == "2021-09-12" and t["casual vacancy limit"].check == "breach"


def test_bad_dates():
    with pytest.raises(InputError, match="not a date"):
        parse_date("31.02.2021", "poll")
    with pytest.raises(InputError) as e:
        timeline("2021-08-10", poll="soon")
    assert e.value.flag == "--poll"
