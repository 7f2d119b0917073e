"""Hydra: the streaming inference pipeline behind Acme's public inference API."""

__version__ = "1.8.2"
