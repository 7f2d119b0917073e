"""Notifications."""
