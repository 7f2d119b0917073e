"""What people read: the Markdown report, the job summary, and the run viewer.

    markdown     `render(summary) -> str`: report.md, the PR comment and the job summary's text
    job_summary  the report and the verdict's annotations in a GitHub Actions job summary
    story        what broke, told the way a reviewer reads it, before any number
    operating_line  the one line every report carries about the gate's own measured error rates
    judge_line      the one line every report carries about the judge's agreement with people, and drift
    viewer/      one self-contained viewer.html per run: transcripts, tool calls, rubric parts

Nothing is re-exported here: import from the module that defines a name.
"""
