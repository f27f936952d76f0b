"""Text arrays: the words of many units at once (pyarrow string kernels, no Python loop per unit), for
:mod:`reservation.allotment.render` (split from it to keep each module under 600 lines)."""

from __future__ import annotations

from string import Formatter

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

__all__ = ["vformat"]


def _text(v):
    """A scalar string, or a pyarrow string array from a numpy/pyarrow array (integers are written in digits)."""
    if isinstance(v, str):
        return v
    if isinstance(v, (pa.Array, pa.ChunkedArray)):
        return v if pa.types.is_string(v.type) or pa.types.is_large_string(v.type) else pc.cast(v, pa.string())
    a = np.asarray(v)
    if a.dtype.kind in "iu":
        return pc.cast(pa.array(a.astype(np.int64)), pa.string())
    return pa.array(a.astype(object) if a.dtype.kind != "O" else a, type=pa.string())


def _pick(words, index: np.ndarray):
    """``words[index]`` as a pyarrow string array: one take from a few words (no Python string per unit)."""
    return pc.take(pa.array(list(words), type=pa.string()), pa.array(np.asarray(index, dtype=np.int64)))


def _same(text: str, n: int):
    """``text`` n times, as a pyarrow string array."""
    return pa.repeat(pa.scalar(text, type=pa.string()), n)


def _join(*parts):
    """Element-wise concatenation of strings and string arrays (at least one array)."""
    parts = [_text(p) for p in parts]
    return pc.binary_join_element_wise(*parts, "")


def vformat(template: str, **fields):
    """``template.format(**fields)`` for many units at once: a field is a scalar or an array (one per unit)."""
    parts = []
    for literal, name, _spec, _conv in Formatter().parse(template):
        if literal:
            parts.append(literal)
        if name is not None:
            parts.append(fields[name])
    if not any(not isinstance(p, str) for p in parts):
        return "".join(parts)
    return _join(*parts)


def _ordinals(n: np.ndarray, lang: str):
    n = np.asarray(n, dtype=np.int64)
    if lang == "hi":                    # the Hindi sentences say "क्रमांक N" (serial number): digits only
        return _text(n)
    m10, m100 = n % 10, n % 100
    suffix = np.where((m100 >= 10) & (m100 <= 20), 0, np.select([m10 == 1, m10 == 2, m10 == 3], [1, 2, 3], 0))
    return _join(n, _pick(["th", "st", "nd", "rd"], suffix))


def _decimal(whole: np.ndarray, frac: np.ndarray, places: int, sign: np.ndarray):
    return _join(_pick(["", "-"], np.asarray(sign, dtype=np.int64)), whole, ".",
                 pc.utf8_lpad(_text(frac), width=places, padding="0"))
