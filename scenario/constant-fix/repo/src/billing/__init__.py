"""Invoice arithmetic."""
