"""The workbench's version (every meta file records it): here, so that any module can read it without importing
the package's public API (reservation/__init__.py, which sits above every layer)."""

__version__ = "0.2.0"
