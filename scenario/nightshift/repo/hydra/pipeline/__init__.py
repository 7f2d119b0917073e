"""Batch processing of inference events from the ingest stream."""
