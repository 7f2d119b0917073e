"""API gateway."""
