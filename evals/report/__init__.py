"""What people read: the Markdown report, the job summary, and the run viewer.

    markdown     `render(summary) -> str`: report.md, the PR comment and the job summary's text
    job_summary  the report and the verdict's annotations in a GitHub Actions job summary
    viewer/      one self-contained viewer.html per run: transcripts, tool calls, rubric parts

Nothing is re-exported here: import from the module that defines a name.
"""
