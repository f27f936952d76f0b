"""What a user types and the files a run reads: normalised text, options, names, the strict table reader and the
shipped districts, the user's files, the published lists.
"""
