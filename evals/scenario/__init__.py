"""The scenario: what a user writes and the gate runs. A folder of pure data, loaded and validated in
one place.

    folder      `ScenarioFolder`: the one place that names a scenario folder's files
    model       `Scenario` and its parts (personas, emails, pages, repo, prompts), frozen once loaded
    params      parameterised scenarios: instance values drawn from a seed, `{{placeholders}}` filled
    load        `load_scenario(dir, name, instance_seed) -> Scenario`, cross-file references checked
    about       about.yaml: what a scenario is for, for the people who choose and maintain it

Nothing is re-exported here (importing a name's module does not load the whole loader).
"""
