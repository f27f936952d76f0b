"""What a run writes (tables, meta, xlsx, parquet) and the checks before anything is written.
"""
