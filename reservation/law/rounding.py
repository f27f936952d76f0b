"""Exact rounding on integers and Fractions. A float never decides a seat.

- :func:`half_up`: "if the remainder is not less than half the divisor, the quotient is increased by one"
  (GO 2021, ZP chair computation para 1: "यदि शेष, भाजक के आधे से कम न हो तो भागफल में एक बढ़ाया
  जायेगा"); on integers: ``2*remainder >= divisor``.
- :func:`floor`: "only the integer part of the quotient" (same para, OBC 27 % proviso: "मात्र भागफल के पूर्णांक").
- :func:`ceil`: "if the dividend is not wholly divisible, the quotient is increased by 1" (same para, women).
"""

from __future__ import annotations

from fractions import Fraction
from numbers import Rational

__all__ = ["to_fraction", "half_up", "floor", "ceil", "ROUNDINGS", "round_with", "fmt_fraction"]


def to_fraction(x) -> Fraction:
    """Exact Fraction from an int, a Fraction or a decimal *string* ("20.6982"). Floats are refused."""
    if isinstance(x, bool):
        raise TypeError("a bool is not a quantity")
    if type(x) is Fraction:             # immutable: the value itself (the commonest case, and the fastest)
        return x
    if isinstance(x, (int, Fraction)):
        return Fraction(x)
    if isinstance(x, Rational):
        return Fraction(x.numerator, x.denominator)
    if isinstance(x, str):
        return Fraction(x.strip())
    raise TypeError(f"exact arithmetic needs an int, Fraction or decimal string, not {type(x).__name__}")


def half_up(x) -> int:
    """Round half up: quotient + 1 when ``2*remainder >= divisor`` (x >= 0 in every use here)."""
    f = to_fraction(x)
    q, r = divmod(f.numerator, f.denominator)
    return q + (1 if 2 * r >= f.denominator else 0)


def floor(x) -> int:
    """The integer part (towards minus infinity)."""
    f = to_fraction(x)
    return f.numerator // f.denominator


def ceil(x) -> int:
    """Smallest integer not less than x."""
    f = to_fraction(x)
    return -((-f.numerator) // f.denominator)


ROUNDINGS = {"half_up": half_up, "floor": floor, "ceil": ceil}


def round_with(name: str, x) -> int:
    """Apply the rounding called ``name`` (one of :data:`ROUNDINGS`)."""
    return ROUNDINGS[name](x)


def fmt_fraction(x: Fraction, places: int = 4) -> str:
    """A Fraction shown as a decimal with ``places`` digits (display only; decisions use the Fraction)."""
    if not isinstance(x, (Fraction, int)):
        x = Fraction(x)
    num, den = x.numerator, x.denominator       # a Fraction's are in lowest terms, den > 0; an int's den is 1
    sign = "-" if num < 0 else ""
    # half-up of |x| x 10**places: the same quotient and test as on the reduced fraction (both scale by the gcd)
    q, r = divmod(abs(num) * 10 ** places, den)
    if 2 * r >= den:
        q += 1
    s = str(q).rjust(places + 1, "0")
    return f"{sign}{s[:-places]}.{s[-places:]}" if places else f"{sign}{s}"
