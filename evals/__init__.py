"""A regression gate for Claude agents that work across Gmail, GitHub and Notion.

The pipeline has one module per stage, each reading and writing files a person can open:
scenario -> world -> tools -> agent -> grade -> aggregate -> gate -> report.
"""

__version__ = "0.1.0"
