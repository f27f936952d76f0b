import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
SHARED = Path(os.environ.get("RESERVATION_SHARED", ROOT.parent / "shared"))


@pytest.fixture
def toy():
    return FIXTURES / "toy"


@pytest.fixture(scope="session")
def shared_data():
    d = SHARED / "data"
    if not d.is_dir():
        pytest.skip(f"the shared data folder {d} is absent (set RESERVATION_SHARED to the shared/ folder)")
    return d
