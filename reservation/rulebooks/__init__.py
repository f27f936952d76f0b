"""One module per legal instrument, built from the shared pieces (quota, ranking, rotation, allot)."""
