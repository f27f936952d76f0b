"""One module per legal instrument; :func:`reservation.rulebook.get_rulebook` imports each on first use."""
