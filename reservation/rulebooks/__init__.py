"""One module per legal instrument; importing this package registers every rulebook."""

from . import kp_chair, municipal, panchayat, panchayat_units  # noqa: F401
