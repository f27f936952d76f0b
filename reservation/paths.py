"""Where the shipped tables are (the repository's ``data/`` folder)."""

from pathlib import Path

__all__ = ["DATA_DIR"]

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
