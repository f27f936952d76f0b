"""The audit's verdicts (reservation.auditing.verdicts): one per rule of the passes, counted from the audit table.

Golden values: the hand-checked findings of the final 2021 Zila Panchayat chair list (README "What it finds": 40
districts as computed, 28 lawful for some OBC figures, 6 that break the SC order or the women's rule on the 2015
base, a seventh knock-on; tests/test_audit.py holds the unit-level checks) and of the Mayors' 2023 list (no
violation); the nine-district state of tests/fixtures/audit (worked out by hand in its README). The numbers of
every verdict are recounted here from the table's own ``finding``, ``step`` and ``check`` columns.
"""
import json
import re
import string
from pathlib import Path

import pandas as pd
import pytest

from reservation.auditing.audit import FINDINGS, VIOLATIONS, audit
from reservation.auditing.verdicts import table_in, verdict_lines, verdict_records, verdict_text
from reservation.cli.commands import main
from reservation.law import words

AUDIT = Path(__file__).resolve().parent / "fixtures" / "audit"
NINE = dict(units=AUDIT / "nine.csv", history=[AUDIT / "nine_history_2015.csv"])
LATIN = re.compile(r"[A-Za-z]")
DEVANAGARI = re.compile("[\u0900-\u097f]")


def recount(table: pd.DataFrame, records: list[dict]) -> None:
    """Every verdict's numbers are the table's: its rows (step and check) by finding, the units at which it held;
    every listed row that is not a match belongs to exactly one verdict."""
    listed = int((table["finding"] != "not_in_list").sum())
    owned = []
    for v in records:
        mine = table[(table["step"] == v["step"]) & (table["check"] == v["check"])]
        assert v["counts"] == {str(k): int(n) for k, n in mine["finding"].value_counts().items()}, v["en"]
        assert sorted(v["units"]) == sorted(int(c) for c in mine["unit_code"]), v["en"]
        assert v["listed"] == listed
        assert v["held_at"] == listed - len(set(v["units"]) | set(v["named"])), v["en"]
        assert not set(v["named"]) & set(v["units"])
        owned += v["units"]
    rest = table[~table["finding"].isin(["match", "not_in_list"])]
    assert sorted(owned) == sorted(int(c) for c in rest["unit_code"])
    assert sum(v["counts"].get(f, 0) for v in records for f in VIOLATIONS) == \
        int(table["finding"].isin(VIOLATIONS).sum())


def by_rule(records):
    return {(v["step"], v["check"]): v for v in records}


# -- the final 2021 Zila Panchayat chair list, as the command line audits it --------------------------------------

@pytest.fixture(scope="module")
def zp2021(tmp_path_factory):
    from tests.conftest import PUBLISHED
    out = tmp_path_factory.mktemp("zp") / "audit.csv"
    assert main(["audit", "--body", "zp-chair", "--year", "2021", "--published",
                 str(PUBLISHED / "zp_adhyaksh_2021_final.csv"), "--out", str(out)]) == 0
    meta = json.loads(out.with_name("audit.meta.json").read_text(encoding="utf-8"))
    return pd.read_csv(out, keep_default_na=False), meta


def test_the_2021_verdicts_are_the_tables_counts(zp2021):
    table, meta = zp2021
    recount(table, meta["audit"]["verdicts"])


def test_the_2021_verdicts_say_what_was_checked_by_hand(zp2021):
    """6 districts break the SC order or the women's rule on the 2015 base (Baghpat and Shamli took SC_W ahead of
    Etawah and Kanpur Dehat; Jhansi and Rae Bareli lost the women's posts they should have had), a seventh (Gautam
    Buddh Nagar) is a knock-on of them; 28 districts are lawful for some OBC figures; every count and every
    rotation rule held; 40 districts are as computed."""
    table, meta = zp2021
    v = by_rule(meta["audit"]["verdicts"])
    names = dict(zip(table["unit_code"], table["unit_name_en"]))
    sc_order = v[("SC_W+SC", "order")]
    assert sc_order["held"] == "no" and sc_order["counts"] == {"violation_order": 4} and sc_order["held_at"] == 71
    assert sorted(names[c] for c in sc_order["units"]) == ["Baghpat", "Etawah", "Kanpur Dehat", "Shamli"]
    sc_women = v[("SC_W+SC", "women")]
    assert sc_women["counts"] == {"violation_women": 2}
    assert sorted(names[c] for c in sc_women["units"]) == ["Jhansi", "Rae Bareli"]
    assert sorted(names[c] for c in sc_women["named"]) == ["Baghpat", "Shamli"]
    knock = v[("OBC_W+OBC", "knock_on")]
    assert knock["held"] == "knock_on" and [names[c] for c in knock["units"]] == ["Gautam Buddh Nagar"]
    assert knock["counts"] == {"violation_order": 1}
    assert v[("OBC_W+OBC", "order")]["held"] == "lawful_for_some"
    assert v[("W", "order")]["held"] == "lawful_for_some"
    depends = sum(x["counts"].get("depends_on_unpublished_data", 0) for x in v.values())
    broken = sum(n for x in v.values() for f, n in x["counts"].items() if f in VIOLATIONS)
    assert (depends, broken, 75 - depends - broken) == (28, 7, 40)
    for key in [k for k in v if k[1] in ("counts", "rotation", "division")]:
        assert v[key]["held"] == "yes" and v[key]["held_at"] == 75, key
    assert sc_order["en"] == ("SC order: held in 71 of 75 districts; a higher public share was left without the "
                              "group in 4 districts: Baghpat, Etawah, Kanpur Dehat, Shamli.")
    assert sc_order["hi"] == ("अनुसूचित जाति का क्रम: 75 में से 71 जिलों में पालन हुआ; 4 जिलों में अधिक सार्वजनिक "
                              "अनुपात वाली इकाई इस वर्ग के बिना छोड़ी गई: बागपत, इटावा, कानपुर देहात, शामली।")
    assert v[("SC_W+SC", "rotation")]["hi"] == "अनुसूचित जाति का चक्रानुक्रम: सभी 75 जिलों में पालन हुआ।"
    for x in v.values():                      # Hindi verdicts read as Hindi: no Latin letter at all here
        assert not LATIN.search(x["hi"]), x["hi"]


def test_the_verdicts_come_first_in_hindi_and_the_table_keeps_its_codes(tmp_path, capsys):
    from tests.conftest import PUBLISHED
    out = tmp_path / "hi.csv"
    assert main(["audit", "--body", "zp-chair", "--year", "2021", "--published",
                 str(PUBLISHED / "zp_adhyaksh_2021_final.csv"), "--no-option-search", "--lang", "hi",
                 "--out", str(out)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith("निष्कर्ष, हर चरण के हर नियम पर एक (सूची के 75 जिलों पर)")
    assert printed[1] == "अनुसूचित जाति के पदों की संख्या: सभी 75 जिलों में पालन हुआ।"
    assert any("हर जिले में राज्य का अनुपात 53.33 %" in line for line in printed)      # the OBC note, in Hindi
    allowed = set(FINDINGS) | {"detail", "rule", "assumed_by_code"}       # codes and an option value it names
    paths = (str(PUBLISHED / "zp_adhyaksh_2021_final.csv"), str(out.with_name("hi.meta.json")), str(out))
    for line in printed:
        for path in paths:
            line = line.replace(path, "")
        latin = set(re.findall(r"[A-Za-z_]+", line)) - allowed
        assert not latin, (line, latin)
    t = pd.read_csv(out, keep_default_na=False)
    assert list(t.columns)[-2:] == ["step", "check"]
    assert set(t["published"]) <= {"SC_W", "SC", "OBC_W", "OBC", "W", "UR"}
    assert not t["rule"].str.contains("[A-Za-z]", regex=True).any()
    assert json.loads(out.with_name("hi.meta.json").read_text(encoding="utf-8"))["lang"] == "hi"


# -- the Mayors' 2023 list: no violation ---------------------------------------------------------------------------

def test_the_mayors_2023_verdicts_find_no_violation():
    from tests.conftest import PUBLISHED
    r = audit("mayor", 2023, PUBLISHED / "mayor_2023.csv")
    recs = verdict_records(r.verdicts)
    recount(r.table, recs)
    assert all(not set(x["counts"]) & set(VIOLATIONS) for x in recs)
    assert {x["held"] for x in recs} <= {"yes", "lawful_for_some", "knock_on"}
    v = by_rule(recs)
    assert v[("SC_W+SC", "order")]["held"] == "yes" and v[("SC_W+SC", "order")]["held_at"] == 17
    obc = v[("OBC_W+OBC", "order")]
    assert obc["held"] == "lawful_for_some" and obc["counts"] == {"depends_on_unpublished_data": 5}
    assert sorted(r.table.set_index("unit_code").loc[obc["units"], "unit_name_en"]) == \
        ["Firozabad", "Ghaziabad", "Moradabad", "Saharanpur", "Shahjahanpur"]
    assert verdict_text(r.verdicts[0]) == "SC count: held in all 17 urban bodies."


# -- the nine-district state (hand-checked) ------------------------------------------------------------------------

@pytest.mark.parametrize("name, rule, finding, n", [
    ("nine_rotation", ("SC_W+SC", "rotation"), "violation_rotation", 2),
    ("nine_women", ("SC_W+SC", "women"), "violation_women", 2),
    ("nine_match", None, None, 0),
])
def test_the_nine_district_verdicts(name, rule, finding, n):
    r = audit("zp-chair", 2021, AUDIT / f"{name}.csv", search_options=False, **NINE)
    recs = verdict_records(r.verdicts)
    recount(r.table, recs)
    if rule is None:
        assert all(x["held"] in ("yes", "lawful_for_some") and x["held_at"] == 9 and not x["counts"] for x in recs)
        assert by_rule(recs)[("OBC_W+OBC", "order")]["held"] == "lawful_for_some"      # the OBC order is not public
        return
    v = by_rule(recs)[rule]
    assert v["held"] == "no" and v["counts"] == {finding: n} and v["held_at"] == 9 - n - len(v["named"])
    assert v["en"].startswith(f"SC {'rotation' if finding == 'violation_rotation' else 'women'}")
    assert table_in(r.table, r.verdicts, "en") is r.table
    hi = table_in(r.table, r.verdicts, "hi")
    assert list(hi.columns) == list(r.table.columns) and (hi["finding"] == r.table["finding"]).all()


# -- the words -------------------------------------------------------------------------------------------------

ADDED = ("verdict.", "audit.finding.", "audit.title", "cli.", "project.", "flag.heading", "flag.none")
#: the Latin a Hindi entry may hold: the codes and option names it names, the columns it names, a formula's terms
NAMED = {"detail", "rule", "a", "b", "pop", "sc", "st", "obc", "sd", "published", "body", "out", "meta"}


def _fields(text):
    return [f for _, f, _, _ in string.Formatter().parse(text) if f]


@pytest.mark.parametrize("key", sorted(k for k in words.TEXT if k.startswith(ADDED)))
def test_the_hindi_words_added_hold_no_english(key):
    hi = words.TEXT[key]["hi"]
    filled = hi.format(**{f: "१" for f in _fields(hi)})
    latin = set(re.findall(r"[A-Za-z]+", filled)) - NAMED
    assert DEVANAGARI.search(filled) and not latin, (key, latin)


def test_hindi_counts_take_the_oblique_form():
    assert words.units_word("district", 1, "hi") == "जिले" and words.units_word("district", 75, "hi") == "जिलों"
    assert words.units_word("urban body", 2, "en") == "urban bodies"
    assert "हर जिले में" in words.OBC_NOTE_HI.format(unit=words.units_word("district", 1, "hi"), share="53.33",
                                                    tie_break="code")


def test_a_flag_is_explained_once_per_kind_then_called_a_question():
    lines = words.flag_meanings(["above_half", "above_half", "women_below_third"], "en")
    assert [x.split(":")[0] for x in lines[:2]] == ["above_half", "women_below_third"] and len(lines) == 3
    assert "question" in lines[-1] and "Art. 243D" in lines[0]
    assert words.flag_meanings([], "hi") == []


def test_verdict_lines_without_verdicts_is_empty():
    assert verdict_lines([], "hi") == []


# -- project --lang hi ------------------------------------------------------------------------------------------

def test_project_prints_its_summary_and_the_prior_in_hindi_and_writes_the_same_table(tmp_path, capsys):
    args = ["project", "--body", "zp-chair", "--year", "2026", "--samples", "4", "--burn-in", "0", "--thin", "1",
            "--quiet", "--force"]
    assert main(args + ["--out", str(tmp_path / "en.csv")]) == 0
    en = capsys.readouterr().out.splitlines()
    assert main(args + ["--lang", "hi", "--out", str(tmp_path / "hi.csv")]) == 0
    hi = capsys.readouterr().out.splitlines()
    assert (tmp_path / "en.csv").read_bytes() == (tmp_path / "hi.csv").read_bytes()
    assert en[0].startswith("zp-chair 2026: 75 units, 4 samples (seed 0)")
    assert hi[0].startswith("जिला पंचायत अध्यक्ष, 2026: 75 इकाइयों में से") and "4 नमूने (बीज 0)" in hi[0]
    assert hi[1].startswith("सबसे संभावित: ") and not LATIN.search(hi[1])
    assert len(en) == len(hi)
    sampled = [line for line in hi if "अज्ञात जनसंख्या के नमूने" in line]
    assert len(sampled) == 1 and sampled[0].startswith("मान्यता: ")
    # the rulebooks' own English notes are said to be English, never passed off as Hindi
    assert all(line.startswith(("मान्यता: ", "मान्यता (अंग्रेज़ी में): ")) for line in hi[2:-1])
    assert all(LATIN.search(line) is None or line.startswith("मान्यता (अंग्रेज़ी में)") or "obc-sd" in line
               or "pop - sc - st" in line for line in hi[2:-1])


def test_the_lang_option_is_checked_like_any_other(capsys):
    from tests.conftest import PUBLISHED
    for cmd in (["audit", "--published", str(PUBLISHED / "mayor_2023.csv"), "--body", "mayor", "--year", "2023"],
                ["project", "--body", "zp-chair", "--year", "2026", "--quiet"]):
        with pytest.raises(SystemExit) as e:
            main(cmd + ["--lang", "fr"])
        assert e.value.code == 2
        assert "--lang" in capsys.readouterr().err
