"""The commands of ``reservation``.

``main`` is :func:`reservation.cli.commands.main` (the console script ``reservation.cli:main``).
"""

from .commands import main

__all__ = ["main"]
