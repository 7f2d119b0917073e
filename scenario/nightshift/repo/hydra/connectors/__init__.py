"""Clients for the services Hydra talks to."""
