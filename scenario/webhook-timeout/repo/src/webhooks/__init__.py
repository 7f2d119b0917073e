"""Webhook delivery."""
