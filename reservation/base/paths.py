"""Where the shipped tables are: the package's ``data`` folder (a link to the repository's ``data/`` in a
checkout; the files themselves in an installed wheel), found through :mod:`importlib.resources`."""

from importlib.resources import files
from pathlib import Path

__all__ = ["DATA_DIR"]

DATA_DIR = Path(str(files("reservation") / "data"))
