"""Authentication."""
