"""Acme billing service."""

__version__ = "2.3.4"
