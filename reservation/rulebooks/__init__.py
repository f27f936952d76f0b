"""One module per legal instrument; :func:`reservation.registry.get_rulebook` imports each on first use."""
