"""The public inference API: request/response schemas and the route table."""
