"""Benchmarks of the harness itself (not timed tests): run with `python -m bench.<name>`."""
