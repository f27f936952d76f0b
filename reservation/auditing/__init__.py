"""A published list held against the law (audit), and two scenarios against each other (diff).
"""
