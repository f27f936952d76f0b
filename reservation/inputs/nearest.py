"""The nearest of a short list of valid values (a division, a body, an option's name or value, a parameter), for
the "did you mean" of a refusal: the same key (:func:`~reservation.inputs.text.name_key`) and edit distance
(:func:`~reservation.inputs.text.edit_distance`) as the names of units (:meth:`reservation.inputs.names.NameIndex.suggest`),
at most a third of the query's length::

    unknown division 'Varansi'; did you mean 'Varanasi'?
"""

from __future__ import annotations

import re
from typing import Sequence

from .text import edit_distance, name_key

__all__ = ["nearest", "did_you_mean"]

_PARENTHESIS = re.compile(r"^\s*(?P<name>.+?)\s*\((?P<other>[^()]+)\)\s*$")


def _parts(name: str) -> tuple[str, ...]:
    """A name and, for ``"Ayodhya (Faizabad)"``, each of its two names."""
    m = _PARENTHESIS.match(name)
    return (name, m.group("name"), m.group("other")) if m else (name,)


def nearest(text, choices: Sequence[str], n: int = 3, *, hindi: Sequence[str] | None = None) -> list[str]:
    """The choices nearest to ``text`` (at most ``n``, nearest first; [] when none is near):
    ``nearest("Varansi", divisions)`` -> ``["Varanasi"]``. ``hindi``: the Hindi name of each choice (a query in
    Devanagari is compared with these)."""
    choices = [str(c) for c in choices]
    q = name_key(text) if isinstance(text, str) else ""
    if not q or not choices:
        return []
    limit = max(1, len(q) // 3)           # the edit distance NameIndex.suggest allows (a third of the query)
    best: dict[int, int] = {}
    for i, choice in enumerate(choices):
        names = [choice] + ([str(hindi[i] or "")] if hindi is not None else [])
        keys = {name_key(part) for name in names for part in _parts(name)} - {""}
        d = min((edit_distance(q, k) for k in keys), default=limit + 1)
        if d <= limit:
            best[i] = d
    return [choices[i] for i in sorted(best, key=lambda i: (best[i], i))[:n]]


def did_you_mean(text, choices: Sequence[str], n: int = 3, *, hindi: Sequence[str] | None = None) -> str:
    """``"; did you mean 'A' or 'B'?"`` for the nearest of ``choices`` to ``text``, or ``""`` when none is near:
    the tail of a message that refuses ``text``."""
    near = [repr(x) for x in nearest(text, choices, n, hindi=hindi)]
    if not near:
        return ""
    return f"; did you mean {near[0] if len(near) == 1 else ', '.join(near[:-1]) + ' or ' + near[-1]}?"
