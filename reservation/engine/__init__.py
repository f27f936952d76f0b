"""The engine: the passes of a rulebook in the legal order, over arrays of units (numbers and codes).
"""
