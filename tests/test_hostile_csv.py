"""The one reader of CSV files (reservation.inputs.units.read_csv) against hostile and careless files.

Every refusal is an InputError naming the file, the spreadsheet row (header = row 1) and, where there is one,
the column. The fast reader (pyarrow) and the exact one (Python's csv module, used for anything unusual) must
read every well-formed file the same way: checked on generated tables.
"""
import csv
import io
import os
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reservation.base.errors import InputError
from reservation.inputs.units import (_parse_exact, _parse_fast, ascii_digits, formula_like, int_column, read_csv,
                               read_input_bytes)

HYP = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def write(tmp_path, text, name="t.csv"):
    p = tmp_path / name
    p.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return p


def refused(p, required=("unit", "year", "category"), what="history"):
    with pytest.raises(InputError) as e:
        read_csv(p, required, what=what)
    msg = str(e.value)
    assert "\n" not in msg and str(p) in msg, msg
    return e.value


# ----------------------------------------------------------------------------------------------- shape

def test_a_row_with_more_fields_than_the_header_is_refused_not_shifted(tmp_path):
    """The issue's case: `junk,junk2,Agra,2015,SC` under `unit,year,category` became an Agra record."""
    p = write(tmp_path, "unit,year,category\nMau,2015,UR\njunk,junk2,Agra,2015,SC\n")
    e = refused(p)
    assert e.row == 3 and "5 fields where the header has 3" in e.message and "D-E" in e.message


def test_trailing_commas_on_one_row_are_refused(tmp_path):
    e = refused(write(tmp_path, "unit,year,category\nAgra,2015,SC,,\n"))
    assert e.row == 2 and "5 fields" in e.message


def test_a_short_row_names_the_first_missing_column(tmp_path):
    e = refused(write(tmp_path, "unit,year,category\nAgra,2015,SC\nMau,2015\n"))
    assert (e.row, e.column) == (3, "category")


def test_rows_are_numbered_as_a_spreadsheet_shows_them_across_empty_lines_and_quoted_line_breaks(tmp_path):
    df = read_csv(write(tmp_path, "unit,year,category\r\nAgra,2015,SC\r\n\r\n  \r\nMau,2015,UR\r\n"))
    assert list(df["_row"]) == [2, 5] and list(df["unit"]) == ["Agra", "Mau"]
    e = refused(write(tmp_path, 'unit,year,category\n"Agra, the ""city""",2015,SC\n\nMau,2015\n'))
    assert e.row == 4


def test_quoted_commas_and_a_bom_are_fine(tmp_path):
    df = read_csv(write(tmp_path, '\ufeffunit,year,category\n"Agra, city",2015,SC\n'), ["unit"])
    assert list(df.columns) == ["unit", "year", "category", "_row"] and df["unit"].iat[0] == "Agra, city"


def test_a_duplicate_column_name_is_refused_instead_of_renamed(tmp_path):
    """pandas would silently rename the second 'unit' to 'unit.1'."""
    e = refused(write(tmp_path, "unit,year,category,unit\nAgra,2015,SC,Mau\n"))
    assert e.row == 1 and e.column == "unit" and "twice" in e.message
    e = refused(write(tmp_path, "unit,year,category, unit\nAgra,2015,SC,Mau\n"))   # equal once stripped
    assert e.column == "unit" and "twice" in e.message


def test_a_column_without_a_name_is_ignored_when_empty_and_refused_when_it_holds_data(tmp_path):
    df = read_csv(write(tmp_path, "unit,year,category,\nAgra,2015,SC,\n"), ["unit"])
    assert list(df.columns) == ["unit", "year", "category", "_row"]
    e = refused(write(tmp_path, "unit,year,category,\nAgra,2015,SC,\nMau,2015,UR,x\n"))
    assert e.row == 3 and e.column == "D"


@pytest.mark.parametrize("content, words", [
    (b"", "empty"), (b"\n\n  \n", "empty"), (b"\nunit,year,category\n", "row 1 is empty"),
    (b"unit,year,category\nAgr\xe0,2015,SC\n", "not UTF-8"),
    (b"\xff\xfeu\x00n\x00i\x00t\x00", "not UTF-8"),                   # UTF-16, as some spreadsheets save
    (b"unit,year,category\nAgra\x00,2015,SC\n", "NUL"),
])
def test_empty_binary_and_non_utf8_files(tmp_path, content, words):
    e = refused(write(tmp_path, content))
    assert words in e.message


def test_paths_that_are_not_files_say_what_they_are(tmp_path):
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    (tmp_path / "file.csv").write_text("x\n")
    cases = [(tmp_path, "is a folder"), ("/dev/null", "character device"), (fifo, "named pipe"),
             (tmp_path / "nope.csv", "not found"), (tmp_path / "file.csv" / "x.csv", "is a file, not a folder")]
    for path, words in cases:
        with pytest.raises(InputError) as e:
            read_input_bytes(path, "history")
        assert words in str(e.value) and str(path) in str(e.value), (path, str(e.value))
        if words in ("is a folder", "character device", "named pipe"):
            assert "not found" not in str(e.value)
    with pytest.raises(InputError, match="empty"):
        read_input_bytes("", "history")


# ----------------------------------------------------------------------------------------------- cells

@pytest.mark.parametrize("cell", ["=HYPERLINK(\"http://x\",\"y\")", "+cmd", "-2+3", "@SUM(A1)", "=1", "-", "+",
                                  "\tAgra", "'=still", "-Agra", "=आगरा"])
def test_formula_like_cells_are_refused_with_row_and_column(tmp_path, cell):
    text = f'unit,year,category\nMau,2015,UR\n"{cell}",2015,SC\n' if "\"" not in cell else \
        "unit,year,category\nMau,2015,UR\n" + '"' + cell.replace('"', '""') + '",2015,SC\n'
    if cell.startswith("'"):
        read_csv(write(tmp_path, text))                     # a leading quote is harmless text
        return
    e = refused(write(tmp_path, text))
    assert (e.row, e.column) == (3, "unit") and ("formula" in e.message), e.message


@pytest.mark.parametrize("cell", ["-5", "+5", "-0.5", "1e3", "-१२"])
def test_signed_numbers_are_not_formulas(cell):
    assert not formula_like(cell)


def test_a_formula_in_the_header_is_refused(tmp_path):
    e = refused(write(tmp_path, "unit,year,=category\nAgra,2015,SC\n"))
    assert e.row == 1 and e.column == "C"


@pytest.mark.parametrize("cell, words", [('"Ag\nra"', "line break"), ('"Ag\rra"', "line break"),
                                         ("Ag\x07ra", "U+0007"), ("Agra\u202e", "U+202E"),
                                         ("A" * 5000, "5,000 characters")])
def test_control_characters_line_breaks_and_huge_cells_are_refused(tmp_path, cell, words):
    e = refused(write(tmp_path, f"unit,year,category\nMau,2015,UR\n{cell},2015,SC\n"))
    assert e.row == 3 and e.column == "unit" and words in e.message


def test_an_unclosed_quote_is_named(tmp_path):
    e = refused(write(tmp_path, 'unit,year,category\nMau,2015,UR\n"Agra,2015,SC\nEtah,2015,UR\n'))
    assert e.row == 3 and ("quote" in e.message or "line break" in e.message)


# ----------------------------------------------------------------------------------------------- numbers

def frame(col, values):
    import pandas as pd
    return pd.DataFrame({col: pd.Series(values, dtype="str"), "_row": range(2, len(values) + 2)})


@pytest.mark.parametrize("col, value, words", [
    ("pop", "1" * 25, "population"), ("pop", "9223372036854775807", "too large"), ("pop", "-5", "negative population"),
    ("year", "-2015", "negative year"), ("year", "1" * 30, "year"), ("year", "1800", "before 1950"),
    ("year", "2200", "after 2100"), ("lot", "-1", "negative lot"), ("lot", "10000000000", "lot"),
    ("unit", "-3", "negative code"), ("unit", "1" * 20, "code"), ("pop", "1.5", "not a whole number"),
    ("pop", "1,000", "not a whole number"), ("pop", "", "empty cell"), ("seats", "-1", "negative count"),
])
def test_int_column_bounds_and_names_the_kind(col, value, words):
    with pytest.raises(InputError) as e:
        int_column(frame(col, ["10", value] if col != "year" else ["2015", value]), col, "f.csv")
    assert words in str(e.value) and "row 3" in str(e.value) and f"column {col!r}" in str(e.value)
    assert "population" not in str(e.value) or col == "pop"


def test_devanagari_and_full_width_digits_are_read_as_ascii():
    got = int_column(frame("year", ["२०१५", "２０１５", "2015", "+2015"]), "year", "f.csv")
    assert list(got) == [2015] * 4
    assert ascii_digits("पिन ०१२३४५६७८९") == "पिन 0123456789"


# ----------------------------------------------------------------------------------------------- the two readers

cell_text = st.text(alphabet=st.sampled_from(list("abc XYZ,\"'01234.;") + ["आ", "ग", "र", "ा", "\u093c", "é"]),
                    max_size=12).filter(lambda s: not formula_like(s.strip()) and not formula_like(s))


@HYP
@given(st.integers(2, 5).flatmap(lambda n: st.tuples(
    st.lists(st.text(alphabet="abcdefgh_", min_size=1, max_size=6), min_size=n, max_size=n, unique=True),
    st.lists(st.lists(cell_text, min_size=n, max_size=n), max_size=8))),
    st.sampled_from(["\n", "\r\n"]), st.booleans())
def test_the_fast_and_the_exact_reader_agree_on_every_well_formed_file(tmp_path, table, newline, bom):
    header, rows = table
    buf = io.StringIO()
    csv.writer(buf, lineterminator=newline).writerows([header] + rows)
    data = (b"\xef\xbb\xbf" if bom else b"") + buf.getvalue().encode("utf-8")
    exact = _parse_exact(data.removeprefix(b"\xef\xbb\xbf"), "x")
    fast = _parse_fast(data.removeprefix(b"\xef\xbb\xbf"))
    if fast is not None:
        assert list(fast[0]) == list(exact[0])
        assert [list(c) for c in fast[1]] == [list(c) for c in exact[1]]
        assert list(fast[2]) == list(exact[2])
    df = read_csv(write(tmp_path, data))
    assert list(df.columns) == header + ["_row"]
    expect = [[unicodedata.normalize("NFC", v).strip() for v in r] for r in rows]
    assert [list(r) for r in df[header].itertuples(index=False)] == expect
    assert list(df["_row"]) == list(range(2, len(rows) + 2))


@HYP
@given(st.lists(st.sampled_from(["Agra,2015,SC", "Mau,2015,UR", "Etah,2015,OBC_W"]), min_size=1, max_size=6),
       st.data())
def test_any_ragged_row_is_found_with_its_row_number(tmp_path, rows, data):
    i = data.draw(st.integers(0, len(rows) - 1))
    how = data.draw(st.sampled_from(["junk before", "commas after", "last field dropped", "one comma after"]))
    bad = rows[:]
    bad[i] = {"junk before": "junk,junk2," + rows[i], "commas after": rows[i] + ",,",
              "one comma after": rows[i] + ",", "last field dropped": rows[i].rsplit(",", 1)[0]}[how]
    e = refused(write(tmp_path, "unit,year,category\n" + "\n".join(bad) + "\n"))
    assert e.row == i + 2, (bad, e.row)
    if how == "last field dropped":
        assert e.column == "category"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=400))
def test_random_bytes_give_a_dataframe_or_one_input_error(tmp_path, data):
    p = write(tmp_path, data)
    try:
        df = read_csv(p)
    except InputError as e:
        assert "\n" not in str(e) and str(p) in str(e)
    else:
        assert "_row" in df.columns


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["", "+", "-"]), st.text("0123456789", min_size=1, max_size=18)),
                min_size=1, max_size=20), st.booleans())
def test_whole_numbers_parsed_by_pyarrow_as_pandas_parses_them(cells, blank):
    """int_column reads checked whole numbers with pyarrow (no Python object per cell): the same values, index and
    name as pandas' to_numeric (signs, leading zeros, 18 digits; blanks missing)."""
    import numpy as np
    import pandas as pd

    from reservation.inputs.units import _whole_numbers
    values = [s + d for s, d in cells] + ([""] if blank else [])
    raw = pd.Series(values, dtype="str", name="pop", index=range(7, 7 + len(values)))
    empty = (raw == "").to_numpy(dtype=bool)
    pd.testing.assert_series_equal(_whole_numbers(raw, empty),
                                   pd.to_numeric(raw.where(~empty, None), errors="raise").astype("Int64"))
    if not blank:
        within = [str(abs(int(v)) % 10**10) for v in values]        # populations: 0 to 10**10
        got = int_column(frame("pop", within), "pop", "f.csv")
        assert got.dtype == np.int64 and got.tolist() == [int(v) for v in within]
