"""The back half: from trial records to a verdict, with the statistics and the baseline under it.

    aggregate         `aggregate(records, rubric) -> ScenarioAggregate`: means, pass@k, pass^k, usage
    passrate          pass@k and pass^k, one definition for the run and the baseline
    stats / tdist     Δ total with a confidence interval (Welch, clustered), Student's t quantile
    guards            guard parts: Fisher's exact test per part, Holm across parts
    quiet             tasks whose baseline never varied, tested like guards: a lost point is a regression
    sequential        when the adaptive loop looks and what each look may decide
    compare           `compare(aggregates, baseline) -> Comparison`: every Δ and interval, computed once
    verdict           `verdict(comparison) -> Verdict`: pass, regression, inconclusive, not-comparable, error
    summary           `Summary` (summary.json): the verdict with everything that led to it
    baseline_file     the blessed baseline's format (baseline/baseline.json): read, write, update
    fingerprint       what moves a score (scenario data, rubric, judge, grader code), and what changed
    part_fingerprint  comparability part by part
    allocate          trials where the noise is: starting trials and top-ups follow each task's spread
    operating         the gate's measured error rates (baseline/operating.jsonl)
    agreement         the judge against people: raw beside a constant judge, κ and AC1 with intervals
    judge_record      the judge's measured agreement over time (baseline/judge.jsonl), its drift alarm
    simulate / simulate_suite  the gate's rule simulated: false alarms, detection, trials per verdict

Nothing is re-exported here: `compare` and the other post-run commands load only what they use.
"""
