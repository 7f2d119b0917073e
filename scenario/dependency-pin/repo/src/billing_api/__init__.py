"""The billing HTTP API."""
