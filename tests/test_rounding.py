from fractions import Fraction

import pytest

from reservation.law.rounding import ceil, floor, half_up


@pytest.mark.parametrize("x, expected", [
    (Fraction(3, 2), 2), (Fraction(5, 2), 3), (Fraction(1, 2), 1),       # exactly half rounds up
    (Fraction(14999, 10000), 1), (Fraction(15, 10), 2), (0, 0), (7, 7),
    ("15.5237", 16), ("0.4258", 0), ("20.25", 20),
])
def test_half_up_rounds_a_remainder_of_half_or_more_up(x, expected):
    assert half_up(x) == expected


def test_floor_and_ceil_are_exact_on_fractions():
    assert floor(Fraction(2025, 100)) == 20 and ceil(Fraction(2025, 100)) == 21
    assert ceil(Fraction(16, 3)) == 6 and ceil(Fraction(18, 3)) == 6 and floor(Fraction(-1, 2)) == -1


def test_floats_are_refused_so_no_float_decides_a_seat():
    with pytest.raises(TypeError):
        half_up(0.5)
