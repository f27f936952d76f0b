"""The law's vocabulary and arithmetic: categories, typed decisions and their words, rounding, quotas, apportionment,
the order of shares, rotation tiers. Nothing here reads a file.
"""
