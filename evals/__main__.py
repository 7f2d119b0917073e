"""`python -m evals ...` entry point."""

import sys

from evals.cli import main

sys.exit(main())
