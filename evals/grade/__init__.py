"""Two-layer grading: deterministic checks on the outcome, then an LLM judge per part where they passed.

    grader      `grade(outcome, task, judge) -> TrialGrade`: layer 1 for every part, the judge where it passed
    task        `Task`: a loaded task (scenario, rubric and its folder), the one object the grader takes
    rubric      a task's rubric.yaml, validated against the check registry
    artefact    `AgentArtefactError`: what the agent wrote cannot be read, written or run: its failure
    registry    named checks and evidence extractors, the package's and a task's own
    checks/     the check vocabulary, and the one face a task's own checks import
    evidence    what the judge sees of one part, normalised so equal content hashes equally
    judge/      layer 2: the model judge, the label judge, the cache, the prompt format
    labels      human labels: a person's verdict on one part for one piece of evidence
    labelled    the labelled set the judge is measured by: labels.yaml and labels/*.jsonl, with provenance
    passrule    the one rule for whether a trial passed
    result      what grading a trial produces: `TrialGrade`, `PartGrade`, `CheckOutcome`
    probes/     behaviour probes: a task's probe module run on a head, measured from outside
    confine/    the confinement every execution of agent-written code goes through

Import from the submodule that defines a name (`evals.grade.grader.grade`, `evals.grade.result.
TrialGrade`, `evals.grade.rubric.load_rubric`, ...): this package re-exports nothing, so reading a
stored grade or validating a rubric never imports the grader and everything it needs (`compare`
and the other post-run commands never grade).
"""
