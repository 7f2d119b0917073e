"""Test settings: the payments key comes from a test value, never a live one."""

import os

os.environ.setdefault("{{param:setting}}", "test-only-not-a-key")
