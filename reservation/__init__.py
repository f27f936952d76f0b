"""The reservation workbench: compute, explain and audit UP local-body reservations."""
__version__ = "0.1.0"
