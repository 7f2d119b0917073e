"""Scenarios: folders of pure data (prompts, personas, emails, repo files, Notion pages, rubric)."""

from evals.scenario.load import list_scenarios, load_scenario
from evals.scenario.model import Scenario

__all__ = ["Scenario", "list_scenarios", "load_scenario"]
