"""The Gmail labels that mark the mail `seed-inbox` delivered, one label per task instance.

A real inbox outlives every run, and a parameterised task delivers different mail per instance (its
subjects and bodies vary with `--instance-seed`). So each delivered message is labelled
`evals-seeded/<task>/<digest>`, the digest covering exactly what the instance delivers (each mail's
sender, subject and body, in order). The label tells the harness, and a person looking at the
inbox, which mail the harness put there and for which instance: seeding another instance trashes
the mail under the task's other labels and leaves every message without one alone, and a trial
restores only its own instance's mail. Two instances that deliver the same mail share a label.

Labels are made with GMAIL_CREATE_LABEL and found by name with GMAIL_LIST_LABELS (Gmail's label
resources: `id`, `name`, `type`); a label whose mail is all in the trash is deleted
(GMAIL_DELETE_LABEL), so a nightly draw of fresh instances does not pile labels up.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from evals.core.errors import InfrastructureError
from evals.world.live.composio_api import ComposioApi

ROOT = "evals-seeded"  # every harness label starts with this and a slash


def instance_label(task: str, delivered: list[tuple[str, str, str]]) -> str:
    """The label for one instance of `task`: `delivered` is (sender address, subject, body) per
    mail in delivery order. The digest is short (labels are read by people) but 48 bits."""
    digest = hashlib.sha256(json.dumps(delivered, ensure_ascii=False).encode()).hexdigest()[:12]
    return f"{task_prefix(task)}{digest}"


def task_prefix(task: str) -> str:
    return f"{ROOT}/{task}/"


def is_harness(name: str) -> bool:
    return name.startswith(f"{ROOT}/")


def _run(api: ComposioApi, slug: str, args: dict[str, Any], doing: str) -> dict[str, Any]:
    result = api.execute(slug, args)
    if not result["successful"]:
        raise InfrastructureError(f"Gmail could not {doing}: {result['error']}")
    data: dict[str, Any] = result["data"] or {}
    return data


def user_labels(api: ComposioApi) -> dict[str, str]:
    """The mailbox's own labels (not Gmail's system ones): name -> id."""
    labels = _run(api, "GMAIL_LIST_LABELS", {}, "list its labels").get("labels") or []
    return {str(label["name"]): str(label["id"]) for label in labels if label.get("type") == "user"}


def label_id(made: dict[str, Any]) -> str | None:
    """A created label's id from the fields Composio documents for GMAIL_CREATE_LABEL: the label
    resource under `response_data` (the 0_1 output schema), or the `labelId` the 20260721_00 docs
    page says it returns."""
    resource = made.get("response_data")
    for value in (resource.get("id") if isinstance(resource, dict) else None, made.get("labelId")):
        if isinstance(value, str) and value:
            return value
    return None


def create(api: ComposioApi, name: str) -> str:
    """Make the label `name`; its id (read back by name when the result names none)."""
    made = _run(api, "GMAIL_CREATE_LABEL", {"label_name": name}, f"create the label {name}")
    found = label_id(made) or user_labels(api).get(name)
    if not found:
        raise InfrastructureError(f"Gmail created the label {name} but neither it nor the list names its id")
    return found


def delete(api: ComposioApi, label_id: str, name: str) -> None:
    """Delete a label (its messages stay where they are, without it): GMAIL_DELETE_LABEL, which
    replaces the deprecated GMAIL_REMOVE_LABEL."""
    _run(api, "GMAIL_DELETE_LABEL", {"label_id": label_id}, f"delete the label {name}")


def add(api: ComposioApi, message_id: str, label_id: str) -> None:
    _run(
        api,
        "GMAIL_ADD_LABEL_TO_EMAIL",
        {"message_id": message_id, "add_label_ids": [label_id]},
        f"label the seeded message {message_id}",
    )
