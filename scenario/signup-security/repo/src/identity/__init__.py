"""Acme identity service."""
