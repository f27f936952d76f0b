"""The workbench's version (every meta file records it): here, so that any module can read it without importing
the package's public API (reservation/__init__.py, which sits above every layer). The one place the number is
written: pyproject.toml reads it (``dynamic = ["version"]``), so the installed package, the meta files, the report
pages and ``reservation --version`` say the same."""

__version__ = "0.2.0"
