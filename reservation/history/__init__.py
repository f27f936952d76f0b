"""Past elections: the rules tested on the lists of 2005-2015, timelines, rotation as a fact, and one unit's history
with its next rotation (:func:`timeline`, the ``reservation history`` command: :mod:`reservation.history.unit_history`).
"""

from .unit_history import UnitHistory, timeline

__all__ = ["timeline", "UnitHistory"]
