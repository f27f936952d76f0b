"""`reservation dpc ...` end to end: output, exit status, and nothing on stdout for bad input."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from reservation.cli.commands import main

FIX = Path(__file__).parent / "fixtures" / "dpc"


def run(capsys, *argv):
    code = main(["dpc", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def test_schedule_csv_and_report(capsys):
    code, out, err = run(capsys, "schedule")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 76
    assert lines[0].startswith("serial,name_in_schedule,district_lgd_code,district,s4_2,s4_4_abd,s4_4_e,s4_4,total")
    assert lines[40].startswith("40,Mirzapur,170,Mirzapur,24,3,3,6,30,")
    assert "serial 1 (Prayagraj) does not add up" in err


def test_schedule_json(capsys):
    code, out, _ = run(capsys, "schedule", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["rows_not_adding_up"] == 1 and len(data["rows"]) == 75
    assert data["rows"][68]["s4_4_e"] is None       # Chitrakoot: clause (e) blank


def test_seats_csv(capsys):
    code, out, _ = run(capsys, "seats", "--district", "Mirzapur", "--year", "2021")
    assert code == 0
    assert "170,Mirzapur,2021,rural,category,SC_W,2," in out
    assert "170,Mirzapur,2021,rural,split,,21," in out


def test_seats_json_records_options(capsys):
    code, out, _ = run(capsys, "seats", "--district", "Mirzapur", "--option", "women_rounding=floor",
                       "--format", "json")
    data = json.loads(out)
    assert data["options"]["women_rounding"]["value"] == "floor"
    assert data["options"]["women"]["value"] == "third_of_each"


def test_count_with_lot(capsys):
    code, out, err = run(capsys, "count", "--district", "Mirzapur", "--ballots", FIX / "rural_tie_ballots.csv",
                         "--seats", 2, "--lots", FIX / "rural_tie_lots.csv")
    assert code == 0
    assert "Candidate C,,,,,3,2,elected,,2,won lot first draw" in out
    assert "complete; 2 of 2 seat(s) filled" in err


def test_count_stops_for_a_lot(capsys):
    code, out, err = run(capsys, "count", "--district", "Mirzapur", "--ballots", FIX / "rural_tie_ballots.csv",
                         "--seats", 2)
    assert code == 3
    assert "between Candidate B, Candidate C" in err
    assert "Candidate B,,,,,3,2,tie: lot needed" in out


def test_count_urban_default_seats_and_rule(capsys):
    """Mirzapur urban 2021: 3 seats (OBC 1, W 1, UR 1, filled in the one poll), 4 municipalities -> r.3(4)
    proviso. Votes A 6 (Chunar, GEN M), B 5 (Chunar, OBC F), E 4 (GEN F), C 3 (GEN M), D 2 (OBC M).
    By votes: A (UR); B is out (Chunar has A); E (the W seat); C cannot be seated (UR taken, not OBC, not a
    woman); D takes the OBC seat. C is passed over for the reserved seat."""
    code, out, err = run(capsys, "count", "--district", "Mirzapur", "--ballots", FIX / "mirzapur_urban_ballots.csv",
                         "--candidates", FIX / "mirzapur_urban_candidates_classes.csv", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["meta"]["part"] == "urban" and data["meta"]["seats"] == 3
    assert data["meta"]["municipality_rule"] == "at_most_one"
    assert data["meta"]["seat_categories"] == {"OBC": 1, "W": 1, "UR": 1}
    assert data["meta"]["options"]["fill_order"]["value"] == "highest_votes"
    assert data["elected"] == ["Candidate A", "Candidate E", "Candidate D"]
    seat = {r["candidate"]: r["seat"] for r in data["table"]}
    assert (seat["Candidate A"], seat["Candidate E"], seat["Candidate D"]) == ("UR", "W", "OBC")
    result = {r["candidate"]: r["result"] for r in data["table"]}
    assert result["Candidate B"] == "not elected (municipality has its member)"
    assert result["Candidate C"] == "not elected (seats reserved)"
    assert "(2 reserved, fill_order=highest_votes)" in err
    # without classes the reserved seats cannot be filled: refused, naming what to give
    code, out, err = run(capsys, "count", "--district", "Mirzapur", "--ballots", FIX / "mirzapur_urban_ballots.csv",
                         "--candidates", FIX / "mirzapur_urban_candidates.csv")
    assert code == 2 and out == "" and "--candidates: Mirzapur urban: the poll fills 2 reserved seat(s)" in err
    # a poll of 3 seats none of them reserved (the count before r.6 was applied): the old result
    code, out, err = run(capsys, "count", "--district", "Mirzapur", "--ballots", FIX / "mirzapur_urban_ballots.csv",
                         "--candidates", FIX / "mirzapur_urban_candidates.csv", "--seats", 3, "--format", "json")
    assert code == 0 and json.loads(out)["elected"] == ["Candidate A", "Candidate E", "Candidate C"]


@pytest.mark.parametrize("args, where", [
    (["count", "--district", "Mirzapur", "--ballots", FIX / "missing.csv", "--seats", 1],
     "missing.csv: ballots file not found"),
    (["count", "--district", "Mirzapur", "--ballots", FIX / "bad_cell_ballots.csv", "--seats", 1],
     "bad_cell_ballots.csv, row 3, column 'Candidate A'"),
    (["count", "--district", "Mirzapur", "--ballots", FIX / "mirzapur_urban_ballots.csv",
      "--candidates", FIX / "candidates_missing_column.csv"],
     "candidates_missing_column.csv, row 1, column 'candidate'"),
    (["count", "--district", "Mirzapur", "--ballots", FIX / "mirzapur_urban_ballots.csv",
      "--candidates", FIX / "candidates_unknown_municipality.csv"],
     "candidates_unknown_municipality.csv, row 4, column 'municipality'"),
    (["count", "--district", "Mirzapur", "--ballots", FIX / "rural_tie_ballots.csv", "--seats", 2,
      "--lots", FIX / "lots_unknown_candidate.csv"], "lots_unknown_candidate.csv, row 2, column 'winner'"),
    (["count", "--district", "Gondwana", "--ballots", FIX / "rural_tie_ballots.csv"], "unknown district 'Gondwana'"),
    (["seats", "--district", "Gondwana"], "unknown district"),
    (["seats", "--district", "Mirzapur", "--option", "women=half"], "option women"),
    (["timeline", "--notification", "yesterday"], "not a date"),
])
def test_bad_input_exits_2_and_writes_nothing(capsys, args, where):
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert err.startswith("reservation: error: ") and where in err and err.count("\n") == 1


def test_timeline_exit_status(capsys):
    code, out, _ = run(capsys, "timeline", "--notification", "2021-08-10")
    assert code == 0 and "nomination and scrutiny,,2021-08-20" in out
    code, _, err = run(capsys, "timeline", "--notification", "2021-08-10", "--nomination", "2021-08-15")
    assert code == 1 and "breach of DPC Rules 2008 r.7(a)" in err


def test_console_script_runs():
    exe = Path(sys.executable).with_name("reservation")
    p = subprocess.run([str(exe), "dpc", "schedule"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and p.stdout.count("\n") == 76


def test_count_one_reserved_category_takes_its_seats_from_dpc_seats(capsys):
    # Mirzapur rural W (unreserved women) has 3 seats; ballot 9 (3 marks) is now valid, ballot 8 is not.
    code, out, err = run(capsys, "count", "--district", "Mirzapur", "--ballots", FIX / "rural_tie_ballots.csv",
                         "--category", "W", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["meta"]["seats"] == 3 and data["meta"]["rejected"] == 1
    assert data["elected"] == ["Candidate A", "Candidate B", "Candidate C"]
    code, out, err = run(capsys, "count", "--district", "Mirzapur", "--ballots", FIX / "rural_tie_ballots.csv",
                         "--category", "ST")
    assert code == 2 and out == "" and "no seat to fill" in err
