"""Request-log retention."""
