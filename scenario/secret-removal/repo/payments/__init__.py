"""Checkout payments."""
