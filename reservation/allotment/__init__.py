"""One run: the pipeline every body shares, the Allotment it returns, its words, flags and explanations.
"""
