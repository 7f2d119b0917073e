"""The sticky PR comment, through real PyGithub against a local fake of GitHub's issue comments."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from evals.cli import main
from evals.github.comment import comment_key
from evals.report.markdown import MARKER
from tests.support.fakes.github_issues import FakeGitHubIssues

TOKEN = "ghs_fake_token_for_tests"
REPO = "acme-ai-labs/agent"
OURS = f"{MARKER}\n{comment_key(REPO)}"  # how a comment of ours starts: marker, then this repository's key


@pytest.fixture
def github(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeGitHubIssues]:
    with FakeGitHubIssues("acme-ai-labs", "agent", {7, 8}, TOKEN) as fake:
        monkeypatch.setenv("GITHUB_API_URL", fake.url)
        monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
        yield fake


def write_report(run: Path, text: str) -> Path:
    run.mkdir(parents=True, exist_ok=True)
    (run / "report.md").write_text(f"{MARKER}\n## ✅ Agent evals: **pass**\n\n{text}\n", encoding="utf-8")
    return run


def comment(run: Path, pr: int = 7) -> int:
    return main(["comment", "--run", str(run), "--repo", "acme-ai-labs/agent", "--pr", str(pr)])


def test_two_runs_on_one_pr_leave_one_comment_holding_the_second_report(
    github: FakeGitHubIssues, tmp_path: Path
) -> None:
    github.add_comment(7, "LGTM, but let's see the evals", user="sam")
    assert comment(write_report(tmp_path / "first", "first report")) == 0
    assert comment(write_report(tmp_path / "second", "second report")) == 0
    ours = [c for c in github.comments_on(7) if MARKER in c.body]
    assert len(ours) == 1
    assert "second report" in ours[0].body and "first report" not in ours[0].body
    assert [c.body for c in github.comments_on(7) if c.user == "sam"] == ["LGTM, but let's see the evals"]
    assert ("PATCH", f"/repos/acme-ai-labs/agent/issues/comments/{ours[0].id}") in github.state.requests


def test_the_comment_on_another_pr_is_left_alone(github: FakeGitHubIssues, tmp_path: Path) -> None:
    assert comment(write_report(tmp_path / "a", "report for 8"), pr=8) == 0
    assert comment(write_report(tmp_path / "b", "report for 7"), pr=7) == 0
    assert [c.body.count("report for 8") for c in github.comments_on(8)] == [1]
    assert [c.body.count("report for 7") for c in github.comments_on(7)] == [1]


def test_the_marker_is_found_beyond_the_first_page_and_duplicates_are_removed(
    github: FakeGitHubIssues, tmp_path: Path
) -> None:
    for n in range(35):  # PyGithub's default page is 30 comments
        github.add_comment(7, f"discussion {n}")
    github.add_comment(7, f"{OURS}\nold report", user="github-actions[bot]")
    github.add_comment(7, f"{OURS}\nracing duplicate", user="github-actions[bot]")
    assert comment(write_report(tmp_path / "run", "fresh report")) == 0
    ours = [c for c in github.comments_on(7) if MARKER in c.body]
    assert len(ours) == 1 and "fresh report" in ours[0].body
    assert len(github.comments_on(7)) == 36


def test_a_read_only_token_is_a_warning_that_points_to_the_job_summary(
    github: FakeGitHubIssues,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    github.state.read_only = True
    monkeypatch.setenv("GITHUB_SERVER_URL", "https://github.com")
    monkeypatch.setenv("GITHUB_REPOSITORY", "acme-ai-labs/agent")
    monkeypatch.setenv("GITHUB_RUN_ID", "4242")
    assert comment(write_report(tmp_path / "run", "report")) == 0
    out = capsys.readouterr().out
    assert out.startswith("::warning ")
    assert "403" in out and "https://github.com/acme-ai-labs/agent/actions/runs/4242" in out
    assert github.comments_on(7) == []


def test_a_wrong_token_is_bad_input(
    github: FakeGitHubIssues, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "not-the-token")
    assert comment(write_report(tmp_path / "run", "report")) == 2
    assert github.comments_on(7) == []


def test_an_unknown_pr_is_bad_input(github: FakeGitHubIssues, tmp_path: Path) -> None:
    assert comment(write_report(tmp_path / "run", "report"), pr=99) == 2


def test_without_a_token_or_a_report_nothing_is_posted(
    github: FakeGitHubIssues, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert comment(tmp_path / "no-run") == 2
    monkeypatch.delenv("GITHUB_TOKEN")
    assert comment(write_report(tmp_path / "run", "report")) == 2
    assert github.state.requests == []


def test_a_github_server_error_is_infrastructure_and_not_called_unreachable(
    github: FakeGitHubIssues, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    github.state.server_error = 502
    assert comment(write_report(tmp_path / "run", "report")) == 3
    err = capsys.readouterr().err
    assert "server errors (5xx)" in err and "unreachable" not in err
    assert github.comments_on(7) == []


def test_a_person_quoting_or_copying_the_marker_is_never_edited_or_deleted(
    github: FakeGitHubIssues, tmp_path: Path
) -> None:
    quoted = github.add_comment(
        7, f"> {MARKER}\n> ## ✅ Agent evals: **pass**\nwhy did this pass?", user="sam"
    )
    copied = github.add_comment(7, f"{MARKER}\n## ✅ Agent evals: **pass**\n(forged)", user="mallory")
    other_bot = github.add_comment(7, f"{MARKER}\nanother app's note", user="renovate[bot]")
    assert comment(write_report(tmp_path / "first", "first report")) == 0
    assert comment(write_report(tmp_path / "second", "second report")) == 0
    after = {c.id: c for c in github.comments_on(7)}
    for foreign in (quoted, copied, other_bot):
        assert after[foreign.id].body == foreign.body
        assert not any(path.endswith(f"/comments/{foreign.id}") for _, path in github.state.requests)
    ours = [c for c in after.values() if c.user == "github-actions[bot]"]
    assert len(ours) == 1 and "second report" in ours[0].body and ours[0].user_type == "Bot"
    assert ("GET", "/user") in github.state.requests  # asked who the token is (403: an Actions token)


def test_with_a_personal_token_its_own_comment_is_the_sticky_one(
    github: FakeGitHubIssues, tmp_path: Path
) -> None:
    github.state.token_is_user = True
    github.state.login = "evals-bot-account"
    mine = github.add_comment(7, f"{OURS}\nold report", user="evals-bot-account")
    actions = github.add_comment(7, f"{OURS}\nreport from the Actions token", user="github-actions[bot]")
    person = github.add_comment(7, f"{OURS}\nnot theirs", user="sam")
    assert comment(write_report(tmp_path / "run", "fresh report")) == 0
    after = {c.id: c for c in github.comments_on(7)}
    assert "fresh report" in after[mine.id].body
    assert actions.id not in after  # a duplicate of ours, removed
    assert after[person.id].body == f"{OURS}\nnot theirs"


def test_a_bot_comment_with_the_marker_but_not_this_repositorys_key_is_not_ours(
    github: FakeGitHubIssues, tmp_path: Path
) -> None:
    """Any workflow of the repository can post as github-actions[bot]: a comment that starts with
    the marker but carries another repository's key (or none) is never edited or deleted."""
    elsewhere = f"{MARKER}\n{comment_key('someone/else')}\n## ✅ Agent evals: **pass**"
    foreign = github.add_comment(7, elsewhere, user="github-actions[bot]")
    bare = github.add_comment(7, f"{MARKER}\n## ✅ Agent evals: **pass**", user="github-actions[bot]")
    assert comment(write_report(tmp_path / "run", "fresh report")) == 0
    after = {c.id: c for c in github.comments_on(7)}
    assert after[foreign.id].body == elsewhere and after[bare.id].body == bare.body
    (ours,) = [c for c in after.values() if c.body.startswith(OURS)]
    assert "fresh report" in ours.body


def test_an_app_posts_as_its_own_bot_and_only_its_comment_is_ours(
    github: FakeGitHubIssues, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a GitHub App token the expected author is the App's bot (EVALS_COMMENT_AUTHOR): a
    github-actions[bot] comment with the right marker and key is then someone else's."""
    monkeypatch.setenv("EVALS_COMMENT_AUTHOR", "agent-evals-gate[bot]")
    app = github.add_comment(7, f"{OURS}\nold report", user="agent-evals-gate[bot]")
    impostor = github.add_comment(7, f"{OURS}\n(forged by another workflow)", user="github-actions[bot]")
    assert comment(write_report(tmp_path / "run", "fresh report")) == 0
    after = {c.id: c for c in github.comments_on(7)}
    assert "fresh report" in after[app.id].body
    assert after[impostor.id].body == impostor.body


def test_a_secret_comment_key_changes_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = comment_key(REPO)
    monkeypatch.setenv("EVALS_COMMENT_KEY", "a-secret-of-this-repository")
    assert comment_key(REPO) != plain and comment_key(REPO.upper()) == comment_key(REPO)


def test_no_report_is_posted_as_an_error_when_the_workflow_says_so(
    github: FakeGitHubIssues, tmp_path: Path
) -> None:
    run = tmp_path / "no-report"
    run.mkdir()
    args = ["github", "comment", "--run", str(run), "--repo", REPO, "--pr", "7"]
    assert main(args) == 2  # without the flag a missing report is bad input
    assert main([*args, "--missing-is-error"]) == 0
    (posted,) = github.comments_on(7)
    assert posted.body.startswith(OURS) and "Agent evals: **error**" in posted.body
