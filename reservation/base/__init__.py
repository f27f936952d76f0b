"""What every module may use: the errors a user sees, where the shipped data is, the version.
"""
