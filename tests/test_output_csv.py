"""The fast CSV writer gives exactly pandas' bytes (minimal quoting, empty missing cells, '\\n' line ends)."""
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reservation
from reservation.output import csv_bytes, csv_chunks


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
