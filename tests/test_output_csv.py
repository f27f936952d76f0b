"""The fast CSV writer gives exactly pandas' bytes (minimal quoting, empty missing cells, '\\n' line ends)."""
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reservation
from reservation.output.tables import csv_bytes, csv_chunks


def pandas_bytes(df):
    return df.to_csv(index=False, lineterminator="\n").encode("utf-8")


@pytest.fixture(scope="module")
def tables():
    warnings.simplefilter("ignore")
    out = []
    for body, year in (("zp-chair", 2021), ("kp-chair", 2021), ("pp-chair", 2023), ("mayor", 2023)):
        a = reservation.allot(body, year)
        out += [a.table, a.trace, a.counts, a.table_in("hi")] + [v for v in a.extra.values()
                                                                 if isinstance(v, pd.DataFrame)]
    return out


def test_every_table_of_the_workbench_is_written_as_pandas_writes_it(tables):
    for df in tables:
        assert csv_bytes(df) == pandas_bytes(df)
        assert b"".join(csv_chunks(df, 7)) == pandas_bytes(df)


text = st.text(alphabet=st.sampled_from(list('ab ,"\n\r;\'x1-=अआ\t')), max_size=8)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(text, st.one_of(st.none(), st.integers(-10**12, 10**12)), text), min_size=1,
                max_size=12))
def test_random_text_and_numbers(rows):
    df = pd.DataFrame({"a": [r[0] for r in rows], "n": pd.array([r[1] for r in rows], dtype="Int64"),
                       "b": pd.array([r[2] for r in rows], dtype="str")})
    assert csv_bytes(df) == pandas_bytes(df)
    df2 = df.assign(i=np.arange(len(df), dtype=np.int64))
    assert csv_bytes(df2) == pandas_bytes(df2)
    for rows in (1, 2, 5):                      # pieces of a few rows: the boundaries change no byte
        assert b"".join(csv_chunks(df2, rows)) == pandas_bytes(df2)


def test_an_allotment_written_a_block_at_a_time_is_the_table_written_whole(tmp_path, monkeypatch):
    """write_allotment renders and writes blocks of rows: the same bytes as the whole table written (English and
    Hindi, blocks of a few rows, and from the table already rendered)."""
    from reservation.output import tables as output
    from reservation.output.tables import write_allotment, write_table
    warnings.simplefilter("ignore")
    monkeypatch.setattr(output, "RENDER_BLOCK_ROWS", 7)       # several blocks even for 75 districts
    codes = reservation.allot("zp-chair", 2021).units["unit_code"].tolist()
    pins = tmp_path / "pins.csv"
    pins.write_text(f"unit,category\n{codes[3]},SC\n{codes[8]},OBC_W\n{codes[40]},UR\n")
    for body, year, kw in (("zp-chair", 2021, {}), ("zp-chair", 2021, {"pins": str(pins)}), ("kp-chair", 2021, {}),
                           ("mayor", 2023, {})):
        a = reservation.allot(body, year, **kw)
        for lang in ("en", "hi"):
            whole = a.table_in(lang)
            for rows in (1, 7, 100, 10**6):
                blocks = list(a.table_blocks(lang, rows))         # rendered a block at a time, answer included
                assert all(len(b) <= rows for b in blocks)
                pd.testing.assert_frame_equal(pd.concat(blocks, ignore_index=True), whole)
            write_table(whole, tmp_path / f"w-{lang}.csv", {**a.meta, **({"lang": lang} if lang == "hi" else {})})
            fresh = reservation.allot(body, year, **kw)
            write_allotment(fresh, tmp_path / f"b-{lang}.csv", lang=lang)
            assert "table" not in vars(fresh)                 # the whole table of words was never held
            for suffix in (".csv", ".meta.json"):
                assert (tmp_path / f"b-{lang}{suffix}").read_bytes() == (tmp_path / f"w-{lang}{suffix}").read_bytes()
        assert not kw or len(a.engine.pins) == 3
        a.table
        write_allotment(a, tmp_path / "c-en.csv")             # the table already rendered: its blocks
        assert (tmp_path / "c-en.csv").read_bytes() == (tmp_path / "w-en.csv").read_bytes()


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(text, text), min_size=1, max_size=12))
def test_a_column_of_few_texts_quoted_once_per_text_gives_the_same_bytes(rows_):
    """The path for a column of few distinct texts (dictionary-encoded, each text quoted once, taken back), forced
    on small random tables by lowering its thresholds: the same bytes as pandas."""
    from reservation.output import tables as output
    old = output._SAMPLE, output._FEW
    output._SAMPLE, output._FEW = 0, 10**6
    try:
        df = pd.DataFrame({"a": [r[0] for r in rows_],
                           "b": pd.array([r[1] or None for r in rows_], dtype="str")})
        assert csv_bytes(df) == pandas_bytes(df)
        for rows in (1, 3):
            assert b"".join(csv_chunks(df, rows)) == pandas_bytes(df)
    finally:
        output._SAMPLE, output._FEW = old


def test_long_columns_of_few_and_of_many_texts():
    """Columns longer than the sample: few texts throughout (quoted once per text), few in the sample then many
    (the guess is wrong, the bytes are not), and hostile texts with quotes, commas, line ends and formulas."""
    from reservation.output.tables import neutralise
    n = 5000
    few = np.array(['a, "b"', "plain", "", "line\nend", "=1+1", "-3", "अ,आ", "\r", "'q'"], dtype=object)
    rng = np.random.default_rng(0)
    df = pd.DataFrame({
        "few": pd.array(few[rng.integers(0, len(few), n)], dtype="str"),
        "late": pd.array(["same"] * 2000 + [f'x{i}, "{i}"' if i % 3 else f"@{i}" for i in range(n - 2000)],
                         dtype="str"),
        "n": np.arange(n, dtype=np.int64),
        "obj": [None if i % 7 == 0 else few[i % len(few)] for i in range(n)],
    })
    df.loc[5, "few"] = None
    for piece in (df, df.iloc[1234:4321]):                    # a slice: arrays with an offset
        assert csv_bytes(piece) == pandas_bytes(piece)
        assert b"".join(csv_chunks(piece, 999)) == pandas_bytes(piece)
        out = neutralise(piece)
        from reservation.inputs.units import formula_like
        for c in ("few", "late", "obj"):
            want = [("'" + v if formula_like(v) else v) if isinstance(v, str) else None for v in piece[c].tolist()]
            got = [v if isinstance(v, str) else None for v in out[c].tolist()]
            assert got == want, c
