"""The projection's stated defaults, light enough for the command line to read without numpy.

``DEFAULT_OBC_SD``: the standard deviation of the prior of a unit's OBC share, in percentage points (an assumption:
see :mod:`reservation.projection.priors`); ``CONSTRAINTS``: how the published past lists bind the samples
(:mod:`reservation.projection.project`).
"""

DEFAULT_OBC_SD = "7.5"
CONSTRAINTS = ("past_lists", "none")
