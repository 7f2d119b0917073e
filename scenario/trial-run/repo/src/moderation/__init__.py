"""Content moderation."""
