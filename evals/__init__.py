"""A regression gate for Claude agents that work across Gmail, GitHub and Notion.

The package is the pipeline, one stage package each, in the order a run goes through them; each
imports only from the stages before it (tests/test_architecture.py holds that):

    core -> scenario -> world -> agents -> grade -> records -> gate -> definition
         -> report -> run -> baseline -> authoring -> github -> commands -> cli

docs/layout.md says what each holds, and README "Where does it go?" where a new check, tool, scenario,
report section or command goes.
"""

__version__ = "0.1.0"
