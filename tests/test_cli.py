"""The command line and the Python API give the same results."""
import json

import pandas as pd

import reservation
from reservation.cli.commands import main

ORDER = ["ST_W", "ST", "SC_W", "SC", "OBC_W", "OBC", "W", "UR", "TOTAL"]


def test_counts_csv_has_the_eight_categories_in_order_then_total(capsys):
    assert main(["counts", "--body", "zp-chair", "--year", "2021"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "category,count"
    assert [line.split(",")[0] for line in lines[1:]] == ORDER
    assert lines[3] == "SC_W,6" and lines[-1] == "TOTAL,75"


def test_counts_json_is_the_same_object(capsys):
    assert main(["counts", "--body", "zp-chair", "--year", "2021", "--format", "json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert list(got) == ORDER and got["OBC_W"] == 7 and got["W"] == 12


def test_allot_writes_csv_and_meta_and_prints_a_division_summary(tmp_path, capsys):
    out = tmp_path / "zp.csv"
    assert main(["allot", "--body", "zp-chair", "--year", "2021", "--out", str(out),
                 "--option", "tie_break=code"]) == 0
    printed = capsys.readouterr().out
    assert "Lucknow" in printed and "TOTAL" in printed and "assumed" in printed
    t = pd.read_csv(out)
    assert len(t) == 75 and t["division"].nunique() == 18
    meta = json.loads((tmp_path / "zp.meta.json").read_text())
    assert meta["options"]["tie_break"]["value"] == "code" and meta["options"]["tie_break"]["default"] == "assumed_by_code"
    assert meta["inputs"]["history"][0]["path"] == "data/history/zp-chair.csv"
    assert len(meta["inputs"]["history"][0]["sha256"]) == 64 and meta["history_years"] == [2015]


def test_allot_lang_hi_gives_hindi_reasons_with_the_same_categories(tmp_path, capsys):
    en, hi = tmp_path / "en.csv", tmp_path / "hi.csv"
    assert main(["allot", "--body", "zp-chair", "--year", "2021", "--out", str(en)]) == 0
    assert main(["allot", "--body", "zp-chair", "--year", "2021", "--out", str(hi), "--lang", "hi"]) == 0
    capsys.readouterr()
    a, b = pd.read_csv(en), pd.read_csv(hi)
    assert list(a.columns) == list(b.columns) and a["category"].tolist() == b["category"].tolist()
    lucknow = b.set_index("unit_name_en").at["Lucknow", "reason"]
    assert "जनसंख्या" in lucknow and "population" not in lucknow          # the reason in Hindi, not English
    assert json.loads((tmp_path / "hi.meta.json").read_text())["lang"] == "hi"
    assert "lang" not in json.loads((tmp_path / "en.meta.json").read_text())
    assert main(["allot", "--body", "zp-chair", "--year", "2021", "--lang", "hi"]) == 0
    assert capsys.readouterr().out.encode() == hi.read_bytes()


def test_allot_without_out_prints_the_csv(capsys):
    assert main(["allot", "--body", "zp-chair", "--year", "2021"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("unit_code,unit_name_en,unit_name_hi,district,division,category,published,status,"
                             "possible,tier,rank")
    assert len(out) == 76


def test_history_replaces_the_shipped_history_and_base_year_filters_it(tmp_path, capsys):
    h = tmp_path / "h.csv"
    h.write_text("unit,year,category\nLucknow,2015,SC_W\nLucknow,2010,SC\n", encoding="utf-8")
    a = reservation.allot("zp-chair", 2021, history=[h])
    assert a.table.set_index("unit_name_en").loc["Lucknow", "category"] != "SC_W"
    assert a.meta["history_years"] == [2015]
    b = reservation.allot("zp-chair", 2021, history=[h], base_year=2010)
    assert b.meta["history_years"] == [2010, 2015]


def test_explain_prints_each_pass_for_lucknow(capsys):
    assert main(["explain", "--body", "zp-chair", "--year", "2021", "--unit", "Lucknow"]) == 0
    text = capsys.readouterr().out
    assert "Lucknow (लखनऊ), LGD 162" in text and "zp-chair 2021: SC_W" in text
    assert "pass ST_W+ST" in text and "pass SC_W+SC" in text and "rank 1 of 75" in text and "tier 1" in text
    assert "2015: OBC_W" in text


def test_explaining_a_unit_of_another_body_names_the_body_that_holds_it(capsys):
    """Nawabganj in Bareilly is a Nagar Palika Parishad (and a block), not a Nagar Panchayat: asked of np-chair, the
    refusal (exit 2) names the bodies that hold it, not the nearest Nagar Panchayat names; Agra asked of the
    blocks is a district and a Nagar Nigam."""
    assert main(["explain", "--body", "np-chair", "--year", "2023", "--unit", "Nawabganj, Bareilly"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith("'Nawabganj, Bareilly' is a block (Kshetra Panchayat pramukhs (block chairs): --body "
                        "kp-chair) and an urban body (Nagar Palika Parishad chairs: --body pp-chair)")
    assert "did you mean" not in err and err.count("\n") == 0
    assert main(["explain", "--body", "kp-chair", "--year", "2021", "--unit", "Agra"]) == 2
    err = capsys.readouterr().err
    assert "--body zp-chair" in err and "--body mayor" in err
    assert main(["explain", "--body", "mayor", "--year", "2023", "--unit", "Kanpr"]) == 2   # a typo: the nearest
    assert "did you mean 'Kanpur (Kanpur Nagar)'?" in capsys.readouterr().err


def test_options_lists_every_required_ambiguity(capsys):
    assert main(["options", "--body", "zp-chair"]) == 0
    df = pd.read_csv(__import__("io").StringIO(capsys.readouterr().out))
    assert {"A2", "A3", "A5", "A6", "A7", "A8", "A10", "A12", "A14"} <= set(df["ambiguity"].dropna())
    assert df["evidence"].str.len().min() > 20


def test_python_api_matches_the_cli(tmp_path, capsys):
    out = tmp_path / "zp.csv"
    main(["allot", "--body", "zp-chair", "--year", "2021", "--out", str(out)])
    api = reservation.allot("zp-chair", 2021).table
    assert out.read_text(encoding="utf-8") == api.to_csv(index=False, lineterminator="\n")
    assert list(reservation.counts("zp-chair", 2021)["count"]) == [0, 0, 6, 10, 7, 13, 12, 27, 75]


def test_option_table_is_reachable_from_the_package_even_after_the_options_module_is_imported():
    import reservation.inputs.options  # noqa: F401  (the submodule of the same stem must not shadow the function)
    t = reservation.option_table("zp-chair")
    assert "tie_break" in set(t["option"])


def test_allot_out_prints_at_most_shown_rows_of_summary_and_flags(tmp_path, capsys, monkeypatch):
    # 732,000 ward seats have 59,019 gram panchayats and ~15,700 flags: the screen gets the State total and the
    # first flags, the files get everything
    import reservation.cli.commands as cli
    monkeypatch.setattr(cli, "SHOWN_ROWS", 1)
    assert main(["allot", "--body", "kp-chair", "--year", "2021", "--out", str(tmp_path / "kp.csv")]) == 0
    out = capsys.readouterr().out
    assert "18 divisions (each in the table); in all:" in out
    total = [line for line in out.splitlines() if line.startswith("all ")][0].split()
    assert total[-1] == "826"
    flags = json.loads((tmp_path / "kp.meta.json").read_text())["flags"]
    assert len(flags) > 1 and sum(line.startswith("flag: ") for line in out.splitlines()) == 1
    assert f"... and {len(flags) - 1} more flags ({len(flags)} in all" in out
