"""Settings, all from the environment."""

import os

DB_URL = os.environ["NOTIFIER_DB_URL"]
REDIS_URL = os.environ["NOTIFIER_REDIS_URL"]
SMTP_HOST = os.environ.get("NOTIFIER_SMTP_HOST", "localhost")
SLACK_TOKEN = os.environ["NOTIFIER_SLACK_TOKEN"]
