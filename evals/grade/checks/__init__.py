"""The package's check vocabulary: one module per kind of artefact, one namespace per module.

`VOCABULARY` holds every check and evidence extractor marked in these modules, each named
`<module>.<name>` (`python.constant_equals`, `notion.keyed_block_matches`, `mail.to_persona`). A
scenario adds its own checks in its folder (see `evals.grade.registry.load_scenario_checks`);
this list is only what every scenario may use.
"""

from evals.grade.checks import config_files, mail, manifests, notion, python, repo, world
from evals.grade.registry import Registry

MODULES = (config_files, mail, manifests, notion, python, repo, world)
VOCABULARY = Registry.of_modules(MODULES)

__all__ = ["MODULES", "VOCABULARY"]
