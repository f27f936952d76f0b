"""Past elections: the rules tested on the lists of 2005-2015, timelines, rotation as a fact.
"""
