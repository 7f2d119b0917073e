"""Retention jobs: one module per system, each with its retention period."""
