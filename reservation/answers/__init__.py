"""The answers a reader asks of one unit (issue 20): the allotment with, for an election not yet held, the
projection's probabilities beside every category (:mod:`reservation.answers.future`)."""
