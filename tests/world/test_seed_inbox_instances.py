"""`seed-inbox` with parameterised tasks, against the fake Gmail/Composio: seeding a new instance
trashes (never deletes) the mail the harness seeded for the task's earlier instance, the agent then
reads only the new instance's mail, and mail the harness did not seed is never touched.

reply-facts is the parameterised task with mail: its subjects name the release, its bodies the
freeze day and time, so two instances can differ in their bodies alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from evals.cli import main
from evals.core.errors import BadInputError
from evals.scenario.load import load_scenario
from evals.scenario.model import Scenario
from evals.world.live import gmail
from evals.world.live.composio_api import ComposioApi
from evals.world.live.config import load_live_config
from evals.world.sandbox.model import Message
from tests.support.fakes import PERSONAS, FakeServices
from tests.support.paths import ROOT
from tests.support.project import read_summary

TASK = "reply-facts"


def instance(seed: int | None) -> Scenario:
    return load_scenario(ROOT / "scenario", TASK, seed)


def subjects(scenario: Scenario) -> list[str]:
    return [e.subject for e in scenario.emails]


def bodies(scenario: Scenario) -> list[str]:
    return [e.body for e in scenario.emails]


def first_seed(wanted: Any) -> int:
    """The first instance seed whose instance satisfies `wanted` (deterministic: seeds are fixed)."""
    return next(seed for seed in range(1, 500) if wanted(instance(seed)))


@pytest.fixture
def slept(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    waits: list[float] = []
    monkeypatch.setattr("evals.world.live.polling.sleep", waits.append)
    return waits


def plant(services: FakeServices, sender: str, subject: str, body: str) -> Message:
    """A mail that reaches the agent's inbox without the harness (a person wrote it)."""
    world = services.universe.world
    message = Message(
        id=world.make_id("planted", subject, body),
        thread_id=world.make_id("planted-thread", subject, body),
        sender=sender,
        to=[world.agent_address],
        subject=subject,
        body=body,
        labels=["INBOX", "UNREAD"],
        timestamp=world.tick(),
    )
    world.mailbox.messages.append(message)
    return message


def received(services: FakeServices) -> list[Message]:
    return [m for m in services.universe.world.mailbox.messages if "SENT" not in m.labels]


def labelled(services: FakeServices, prefix: str) -> dict[str, list[Message]]:
    """Label name -> the messages carrying it, for the fake's labels whose name starts with `prefix`."""
    names = {i: str(label["name"]) for i, label in services.composio.gmail.labels.items()}
    out: dict[str, list[Message]] = {}
    for message in services.universe.world.mailbox.messages:
        for label in message.labels:
            if names.get(label, "").startswith(prefix):
                out.setdefault(names[label], []).append(message)
    return out


def inbox_bodies(api: ComposioApi) -> list[str]:
    """What the agent reads: every message in the inbox, as GMAIL_FETCH_EMAILS returns it."""
    found = api.execute("GMAIL_FETCH_EMAILS", {"query": "in:inbox", "max_results": 50})
    return [str(m["messageText"]) for m in found["data"]["messages"]]


def test_seeding_a_new_instance_trashes_the_earlier_instances_seeded_mail_and_nothing_else(
    project: Path, services: FakeServices, capsys: pytest.CaptureFixture[str]
) -> None:
    first = instance(None)
    # Same release (so the same subjects), another freeze: the instances differ in their bodies only.
    later_seed = first_seed(lambda s: subjects(s) == subjects(first) and bodies(s) != bodies(first))
    later = instance(later_seed)
    dana = PERSONAS["dana"][0]
    by_hand = plant(services, dana, first.emails[0].subject, "Dana here, writing by hand: lunch on Friday?")
    stranger = plant(services, "someone@elsewhere.example", "Newsletter", "Nothing to do with the evals.")
    api = ComposioApi(load_live_config())

    assert main(["seed-inbox", "--scenario", TASK]) == 0
    assert "2 sent, 0 already there, 0 of earlier instances moved to the trash" in capsys.readouterr().out
    [(first_label, first_mail)] = labelled(services, f"evals-seeded/{TASK}/").items()
    assert sorted(m.body for m in first_mail) == sorted(bodies(first))

    assert main(["seed-inbox", "--scenario", TASK, "--instance-seed", str(later_seed)]) == 0
    out = capsys.readouterr().out
    assert f"{TASK}: moved 2 message(s) of an earlier instance to the trash" in out
    assert "2 sent, 0 already there, 2 of earlier instances moved to the trash" in out
    [(later_label, later_mail)] = labelled(services, f"evals-seeded/{TASK}/").items()
    assert later_label != first_label, "the earlier instance's label is gone"
    assert sorted(m.body for m in later_mail) == sorted(bodies(later))
    assert all("INBOX" in m.labels and "TRASH" not in m.labels for m in later_mail)
    assert all("TRASH" in m.labels and "INBOX" not in m.labels for m in first_mail), "trashed"
    assert {m.id for m in first_mail} <= {m.id for m in received(services)}, "trashed, not deleted"
    for planted in (by_hand, stranger):
        assert planted.labels == ["INBOX", "UNREAD"], "mail the harness did not seed is untouched"
    assert sorted(inbox_bodies(api)) == sorted([*bodies(later), by_hand.body, stranger.body])

    assert main(["seed-inbox", "--scenario", TASK, "--instance-seed", str(later_seed)]) == 0
    assert "0 sent, 2 already there, 0 of earlier instances moved to the trash" in capsys.readouterr().out
    assert len(received(services)) == 6, "a rerun sends nothing"
    assert services.composio.problems == [], "every answer fits Composio's output schemas"


def test_a_trial_restores_only_its_own_instance_and_refuses_an_inbox_seeded_for_another(
    project: Path, services: FakeServices
) -> None:
    first = instance(None)
    later_seed = first_seed(lambda s: subjects(s) == subjects(first) and bodies(s) != bodies(first))
    assert main(["seed-inbox", "--scenario", TASK]) == 0
    assert main(["seed-inbox", "--scenario", TASK, "--instance-seed", str(later_seed)]) == 0
    api, config = ComposioApi(load_live_config()), load_live_config()
    for message in received(services):  # an earlier trial's agent read and trashed everything
        message.labels = [label for label in message.labels if label not in ("INBOX", "UNREAD")] + ["TRASH"]
    threads = gmail.restore_seeded(api, config, instance(later_seed))
    restored = [m for m in received(services) if "INBOX" in m.labels]
    assert sorted(m.body for m in restored) == sorted(bodies(instance(later_seed)))
    assert all("UNREAD" in m.labels and "TRASH" not in m.labels for m in restored)
    assert sum("TRASH" in m.labels for m in received(services)) == 2, "the earlier instance stays trashed"
    assert sorted(i for ids in threads.values() for i in ids) == ["e1", "e2"]
    assert {m.thread_id for m in restored} == set(threads)
    with pytest.raises(BadInputError, match=f"another instance of {TASK}.*seed-inbox --scenario {TASK}`"):
        gmail.restore_seeded(api, config, first)

    out = project / "runs" / "later"
    run = ["run", "--world", "live", "--scenario", TASK, "--agent", "replay:reference"]
    assert main([*run, "--instance-seed", str(later_seed), "--out", str(out)]) == 0
    assert read_summary(out)["total"]["mean"] == read_summary(out)["total"]["max"]
    assert main([*run, "--out", str(project / "runs" / "stale")]) == 2, "instance 0 is not seeded"


def test_mail_seeded_before_labels_existed_is_adopted_not_sent_again(
    project: Path, services: FakeServices, capsys: pytest.CaptureFixture[str]
) -> None:
    first = instance(None)
    for email in first.emails:  # what seed-inbox used to do: send, and mark nothing
        plant(services, PERSONAS[email.sender][0], email.subject, email.body.replace("\n", "\r\n"))
    assert main(["seed-inbox", "--scenario", TASK]) == 0
    assert "0 sent, 2 already there" in capsys.readouterr().out
    assert len(received(services)) == 2
    [(_, adopted)] = labelled(services, f"evals-seeded/{TASK}/").items()
    assert len(adopted) == 2


def test_mail_gmail_delivers_late_is_waited_for_then_labelled(
    project: Path, services: FakeServices, slept: list[float], capsys: pytest.CaptureFixture[str]
) -> None:
    services.composio.delivery_lag = 3
    assert main(["seed-inbox", "--scenario", TASK]) == 0
    assert slept, "it waited for the delivery"
    [(_, seeded)] = labelled(services, f"evals-seeded/{TASK}/").items()
    assert sorted(m.body for m in seeded) == sorted(bodies(instance(None)))


def test_mail_that_never_arrives_is_an_infrastructure_error_and_a_rerun_labels_it_on_arrival(
    project: Path, services: FakeServices, slept: list[float], capsys: pytest.CaptureFixture[str]
) -> None:
    services.composio.delivery_lag = 10**6
    assert main(["seed-inbox", "--scenario", TASK]) == 3
    err = capsys.readouterr().err
    assert "gave up waiting for Gmail to deliver the seeded mail" in err and "not arrived: e1, e2" in err
    assert sum(slept) == 31.5, "a bounded wait"
    services.composio.delivery_lag = 0
    services.composio.deliver_now()
    assert main(["seed-inbox", "--scenario", TASK]) == 0
    assert "0 sent, 2 already there" in capsys.readouterr().out, "adopted, not sent twice"
    assert len(received(services)) == 2
