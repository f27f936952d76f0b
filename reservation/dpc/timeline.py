"""The DPC election calendar: rule 7 (nomination, withdrawal, poll) and the six-week limits of rules 28 and 29.

U.P. DPC Rules 2008:

- **r.7(a)**: the date for filing and scrutiny of nominations is "a date at-least ten days after the date of
  the said notification".
- **r.7(b)**: the withdrawal date "shall ordinarily be the third day after the date fixed for filing and
  scrutiny" - *ordinarily*, so another day is a warning, not a breach (but it must come after the nominations).
- **r.7(c)**: the poll is "a date not earlier than the third day after the date fixed under clause (b)".
- **r.29** (substituted 14.03.2008): the election "shall be completed within a period of six weeks from the
  date of completion of the election of elected members of the Zila Panchayat or the Municipalities".
- **r.28(2)**: a casual vacancy is filled within six weeks from the intimation of the vacancy to the SEC.
- r.27 lets the State Election Commission alter notified dates in a grave emergency; not modelled.

Day arithmetic follows s.9 of the General Clauses Act (the first day is excluded): "the third day after D"
is D + 3; "six weeks from D" ends on D + 42. "At least ten days after" is the option ``ten_days``: ``calendar``
(default, D + 10) or ``clear`` (ten clear days between, D + 11). Holidays are not modelled.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date, datetime, timedelta

import pandas as pd

from .files import FlagError

__all__ = ["parse_date", "timeline", "TEN_DAYS", "TIMELINE_COLUMNS", "FIRST_DATE", "LAST_DATE"]

TEN_DAYS = {"calendar": "nomination >= notification + 10 days (the first day excluded, s.9 General Clauses Act)",
            "clear": "ten clear days between notification and nomination: nomination >= notification + 11"}
TIMELINE_COLUMNS = ["step", "date", "earliest", "latest", "check", "clause", "note"]

R7A, R7B, R7C = "DPC Rules 2008 r.7(a)", "DPC Rules 2008 r.7(b)", "DPC Rules 2008 r.7(c)"
R28, R29 = "DPC Rules 2008 r.28(2)", "DPC Rules 2008 r.29"


#: The Rules were notified on 7 January 2008; no DPC election under them is earlier. Later than 2099 is not a
#: plausible date either (and date arithmetic near 9999-12-31 would overflow).
FIRST_DATE, LAST_DATE = date(2008, 1, 7), date(2099, 12, 31)
_DEVANAGARI = str.maketrans("०१२३४५६७८९", "0123456789")


def parse_date(value, what: str = "date") -> date | None:
    """``YYYY-MM-DD`` or ``DD.MM.YYYY`` / ``DD/MM/YYYY`` (as printed in the Gazette) -> date; None/'' -> None.

    Devanagari and full-width digits are read as digits. A date before the Rules (:data:`FIRST_DATE`) or after
    :data:`LAST_DATE` is refused, as is any other format; the error names the flag (``--what``)."""
    flag = "--" + what.replace("_", "-")
    if value is None or (isinstance(value, str) and value.strip() == ""):
        return None
    if isinstance(value, datetime):
        value = value.date()
    if isinstance(value, date):
        d = value
    else:
        raw = str(value)
        s = unicodedata.normalize("NFKC", raw).strip().translate(_DEVANAGARI)
        shown = raw.strip()[:30]
        m = re.fullmatch(r"([0-9]{4})-([0-9]{2})-([0-9]{2})", s)
        if m:
            y, mo, dd = int(m.group(1)), int(m.group(2)), int(m.group(3))
        else:
            m = re.fullmatch(r"([0-9]{1,2})([./])([0-9]{1,2})\2([0-9]{4})", s)
            if not m:
                raise FlagError(f"{shown!r} is not a date (YYYY-MM-DD or DD.MM.YYYY)", option=flag)
            y, mo, dd = int(m.group(4)), int(m.group(3)), int(m.group(1))
        try:
            d = date(y, mo, dd)
        except ValueError:
            raise FlagError(f"{shown!r} is not a date: there is no such day", option=flag) from None
    if d < FIRST_DATE:
        raise FlagError(f"{d.isoformat()} is before the DPC Rules 2008 (notified {FIRST_DATE:%d.%m.%Y})",
                        option=flag)
    if d > LAST_DATE:
        raise FlagError(f"{d.isoformat()} is not a plausible date for a DPC election (after {LAST_DATE:%d.%m.%Y})",
                        option=flag)
    return d


def timeline(notification, *, nomination=None, withdrawal=None, poll=None, completed=None,
             vacancy_intimated=None, ten_days: str = "calendar") -> pd.DataFrame:
    """The earliest dates rule 7 allows after ``notification``, and a check of any dates given.

    One row per step (see :data:`TIMELINE_COLUMNS`); ``check`` is ``ok``, ``breach``, ``warning`` or ''
    (no date given). A given date is the base of the next step's earliest date; otherwise the earliest
    date is. ``attrs['breaches']`` counts the breaches; ``attrs['options']`` records ``ten_days``."""
    if ten_days not in TEN_DAYS:
        raise FlagError(f"ten_days {ten_days!r} is not one of {', '.join(TEN_DAYS)}", option="--ten-days")
    n0 = parse_date(notification, "notification")
    if n0 is None:
        raise FlagError("a notification date is needed", option="--notification")
    nom, wd, pl = (parse_date(nomination, "nomination"), parse_date(withdrawal, "withdrawal"),
                   parse_date(poll, "poll"))
    done, vac = parse_date(completed, "completed"), parse_date(vacancy_intimated, "vacancy_intimated")
    rows = [{"step": "notification", "date": n0, "earliest": n0, "latest": None, "check": "ok", "clause": "DPC Rules "
             "2008 r.7", "note": "State Election Commission notification in the Gazette"}]

    def check(given, earliest, latest=None):
        if given is None:
            return ""
        if given < earliest or (latest is not None and given > latest):
            return "breach"
        return "ok"

    gap = 10 if ten_days == "calendar" else 11
    e_nom = n0 + timedelta(days=gap)
    rows.append({"step": "nomination and scrutiny", "date": nom, "earliest": e_nom, "latest": None,
                 "check": check(nom, e_nom), "clause": R7A,
                 "note": f"at least ten days after the notification ({ten_days}: +{gap} days)"})
    base = nom or e_nom
    e_wd = base + timedelta(days=3)
    c = ""
    note = "ordinarily the third day after the nominations"
    if wd is not None:
        if wd <= base:
            c = "breach"
            note = "withdrawal must come after the date of nominations"
        elif wd != e_wd:
            c = "warning"
            note = f"not the third day after the nominations ({e_wd.isoformat()}); r.7(b) says 'ordinarily'"
        else:
            c = "ok"
    rows.append({"step": "withdrawal", "date": wd, "earliest": e_wd, "latest": None, "check": c, "clause": R7B,
                 "note": note})
    e_poll = (wd or e_wd) + timedelta(days=3)
    latest = done + timedelta(days=42) if done else None
    note = "not earlier than the third day after the withdrawal" + (
        "; the election completed within six weeks of the Zila Panchayat / municipal election" if done else "")
    if pl is not None and pl < e_poll:
        note = f"before the third day after the withdrawal ({e_poll.isoformat()})"
    elif pl is not None and latest is not None and pl > latest:
        note = f"after the end of the six weeks ({latest.isoformat()})"
    rows.append({"step": "poll", "date": pl, "earliest": e_poll, "latest": latest,
                 "check": check(pl, e_poll, latest), "clause": R7C + (f"; {R29}" if done else ""), "note": note})
    if done is not None:
        feasible = e_poll <= latest
        rows.append({"step": "completion limit", "date": done, "earliest": None, "latest": latest,
                     "check": "ok" if feasible else "breach", "clause": R29,
                     "note": "six weeks from the completion of the Zila Panchayat / municipal election"
                     + ("" if feasible else f"; even the earliest poll ({e_poll.isoformat()}) is too late")})
    if vac is not None:
        lim = vac + timedelta(days=42)
        rows.append({"step": "casual vacancy limit", "date": vac, "earliest": None, "latest": lim,
                     "check": check(pl, date.min, lim) if pl else ("ok" if e_poll <= lim else "breach"),
                     "clause": R28, "note": "a casual vacancy is filled within six weeks of its intimation"})
    df = pd.DataFrame(rows, columns=TIMELINE_COLUMNS)
    for col in ("date", "earliest", "latest"):
        df[col] = [d.isoformat() if isinstance(d, date) else "" for d in df[col]]
    df.attrs["breaches"] = int((df["check"] == "breach").sum())
    df.attrs["options"] = {"ten_days": {"value": ten_days, "default": "calendar", "reading": TEN_DAYS[ten_days]}}
    return df
