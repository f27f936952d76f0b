"""The exact order of shares: the float path agrees with Fractions, ties are exact."""
import random
from fractions import Fraction

import numpy as np

from reservation.law.ranking import FLOAT_EXACT_DEN, Ratio, dense_rank_desc


def fraction_ranks(num, den):
    vals = [Fraction(int(a), int(b)) for a, b in zip(num, den)]
    order = {v: i for i, v in enumerate(sorted(set(vals), reverse=True))}
    return np.array([order[v] for v in vals])


def near_equal_shares(seed: int, bound: int, pick=None) -> tuple[list, list]:
    """3,000 random shares a/b with b <= bound (``pick(rng)`` draws b), each with its neighbour that differs by
    the smallest possible amount and an equal fraction in other terms."""
    rng = random.Random(seed)
    num, den = [], []
    for _ in range(3000):
        b = pick(rng) if pick else rng.randint(1, bound)
        a = rng.randint(0, b)
        num.append(a), den.append(b)
        if b < bound and a < b:
            num.append(a * (b + 1) // b), den.append(b + 1)
        k = bound // b
        if k > 1:
            num.append(a * k), den.append(b * k)
    return num, den


def test_float_path_equals_fraction_path_on_near_equal_shares():
    num, den = near_equal_shares(1, FLOAT_EXACT_DEN)
    num, den = np.array(num), np.array(den)
    assert (dense_rank_desc(Ratio(num, den)) == fraction_ranks(num, den)).all()


def test_adjacent_fractions_with_the_largest_denominators_are_told_apart():
    b = FLOAT_EXACT_DEN
    # (b-1)/b and (b-2)/(b-1) differ by 1/(b(b-1)), about 2**-48; 1/b and 1/(b-1) likewise near zero
    num = np.array([b - 1, b - 2, 1, 1])
    den = np.array([b, b - 1, b, b - 1])
    assert (dense_rank_desc(Ratio(num, den)) == fraction_ranks(num, den)).all()


def test_equal_shares_get_equal_rank_and_larger_share_rank_zero():
    r = dense_rank_desc(Ratio(np.array([1, 2, 3, 0]), np.array([2, 4, 4, 7])))
    assert list(r) == [1, 1, 0, 2]


def test_fraction_series_beyond_the_float_bound_is_still_exact():
    big = 10 ** 12
    vals = [Fraction(big - 1, big), Fraction(big - 2, big - 1), Fraction(1, 3)]
    assert list(dense_rank_desc(vals)) == list(fraction_ranks([v.numerator for v in vals],
                                                              [v.denominator for v in vals]))


def test_engine_rank_within_parents_matches_a_plain_sort_of_fractions():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from engine_kit import Run, one_pass

    @settings(max_examples=60, deadline=None)
    @given(st.lists(st.tuples(st.integers(0, 3), st.integers(1, 50), st.integers(0, 50)), min_size=1, max_size=40))
    def check(rows):
        rows = sorted({(p, i): (p, pop, min(sc, pop)) for i, (p, pop, sc) in enumerate(rows)}.items())
        par = [f"P{p}" for (p, _), _ in rows]
        code = np.arange(1, len(rows) + 1)
        pop = np.array([v[1] for _, v in rows])
        sc = np.array([v[2] for _, v in rows])
        n_par = len(set(par))
        p = one_pass("SC", ["SC"], np.ones((n_par, 1)), sc, pop, pop)
        r = Run(code, [p], parents=par).result
        rank, _, _ = r.ranks(r.records[0])
        for parent in set(par):
            idx = [i for i in range(len(rows)) if par[i] == parent]
            want = sorted(idx, key=lambda i: (-Fraction(int(sc[i]), int(pop[i])), -int(pop[i]), int(code[i])))
            got = sorted(idx, key=lambda i: rank[i])
            assert got == want
            assert [rank[i] for i in got] == list(range(1, len(idx) + 1))

    check()


def test_whole_number_path_orders_and_ties_like_fractions():
    """Shares with denominators up to INT_EXACT_DEN become whole numbers (floor(num * 2**k / den)): neighbours
    that differ by the least possible amount at the largest denominators stay apart and in order, and equal
    fractions written in other terms stay equal."""
    from reservation.law.ranking import INT_EXACT_DEN, order_key
    num, den = near_equal_shares(2, INT_EXACT_DEN, lambda rng: rng.choice([rng.randint(1, INT_EXACT_DEN),
                                                                          INT_EXACT_DEN - rng.randint(0, 3)]))
    b = INT_EXACT_DEN
    num += [b - 1, b - 2, 1, 1, 0, b]
    den += [b, b - 1, b, b - 1, b, b]
    num, den = np.array(num), np.array(den)
    key = order_key(Ratio(num, den))
    assert key.dtype.kind == "i"
    dense = np.unique(key, return_inverse=True)[1]          # ascending key = descending share
    assert (dense == fraction_ranks(num, den)).all()


def test_a_key_beyond_the_whole_number_bound_takes_the_float_path_and_agrees():
    from reservation.law.ranking import INT_EXACT_DEN, order_key
    b = INT_EXACT_DEN * 4
    num = np.array([b - 1, b - 2, 1, 1, 3, 6])
    den = np.array([b, b - 1, b, b - 1, 7, 14])
    key = order_key(Ratio(num, den))
    assert key.dtype.kind == "f"
    assert (np.unique(key, return_inverse=True)[1] == fraction_ranks(num, den)).all()


def test_checked_float_path_beyond_the_float_bound_agrees_with_fractions():
    """Denominators up to 2**53 (a share of women filled in at the State share: ``pop x`` a large denominator),
    units of no population (``den`` 0: share 0) and negative numerators: the float quotients' dense rank,
    checked in lowest terms, equals the Fractions' ranks; neighbours that differ by the least amount stay apart,
    and equal fractions in other terms stay equal."""
    rng = random.Random(5)
    num, den = [], []
    for _ in range(2000):
        b = rng.choice([rng.randint(1, 1 << 53), rng.randint(FLOAT_EXACT_DEN, 1 << 40), rng.randint(0, 50)])
        a = rng.randint(0, b)
        num.append(a), den.append(b)
        if 1 < b < 1 << 53:
            num.append(a * (b + 1) // b), den.append(b + 1)
            k = (1 << 53) // b
            num.append(a * k), den.append(b * k)
    num += [-3, -6, 5, 0]
    den += [7, 14, 0, 0]
    num, den = np.array(num, dtype=np.int64), np.array(den, dtype=np.int64)
    vals = [Fraction(int(a), int(b)) if b else Fraction(0) for a, b in zip(num, den)]
    order = {v: i for i, v in enumerate(sorted(set(vals), reverse=True))}
    assert (dense_rank_desc(Ratio(num, den)) == np.array([order[v] for v in vals])).all()


def test_floats_that_merge_different_fractions_fall_back_to_fractions():
    """Two different fractions whose float64 quotients are equal (1/3 and 3002399751580330/(2**53 - 1)): the
    check sees it and the order comes from Fractions: 1/3 first, the smaller one after it."""
    from reservation.law.ranking import _checked_float_rank
    n, d = 3002399751580330, (1 << 53) - 1
    assert float(n) / float(d) == 1 / 3 and Fraction(n, d) < Fraction(1, 3)
    num, den = np.array([1, n, 2, 0]), np.array([3, d, 6, 0])
    assert _checked_float_rank(num, den) is None
    assert list(dense_rank_desc(Ratio(num, den))) == [0, 1, 0, 2]
