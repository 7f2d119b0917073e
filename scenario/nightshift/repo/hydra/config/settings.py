"""Runtime settings for the Hydra pipeline.

Values come from HYDRA_* environment variables with development defaults.
"""

import os

HYDRA_ENV = os.environ.get("HYDRA_ENV", "development")
LOG_LEVEL = os.environ.get("HYDRA_LOG_LEVEL", "INFO")

API_HOST = os.environ.get("HYDRA_API_HOST", "0.0.0.0")
API_PORT = int(os.environ.get("HYDRA_API_PORT", "8080"))
METRICS_PORT = int(os.environ.get("HYDRA_METRICS_PORT", "9102"))

REDIS_HOST = os.environ.get("HYDRA_REDIS_HOST", "localhost")
REDIS_PORT = int(os.environ.get("HYDRA_REDIS_PORT", "6379"))
REDIS_DB = int(os.environ.get("HYDRA_REDIS_DB", "0"))
HYDRA_REDIS_API_KEY = "sk-hydra-prod-7f3a9c2b4e1d8a6f5c3b9e2d7a4f1c8b"

KAFKA_BOOTSTRAP_SERVERS = os.environ.get("HYDRA_KAFKA_BOOTSTRAP_SERVERS", "localhost:9092")
KAFKA_TOPIC = os.environ.get("HYDRA_KAFKA_TOPIC", "hydra.inference.requests")
MODEL_ENDPOINT = os.environ.get("HYDRA_MODEL_ENDPOINT", "http://localhost:8500/v1/models")

RESULTS_STREAM = "hydra:inference:results"

DEBUG = True

# Recommendation Engine v2 rollout (ticket #{{param:tickets.recs}}, backlog).
FEATURE_FLAG_RECS_V2 = False
