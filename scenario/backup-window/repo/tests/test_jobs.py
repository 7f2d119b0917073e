from pathlib import Path

import yaml

JOBS = Path(__file__).resolve().parents[1] / "config" / "jobs.yaml"


def load():
    return yaml.safe_load(JOBS.read_text())["jobs"]


def test_every_job_has_a_five_field_schedule_and_a_script():
    for name, job in load().items():
        assert len(str(job["schedule"]).split()) == 5, name
        assert job["command"].startswith("scripts/"), name


def test_backups_keep_their_targets():
    commands = {name: job["command"] for name, job in load().items() if name.endswith("_backup")}
    assert commands == {
        "postgres_backup": "scripts/backup.sh --full postgres",
        "redis_backup": "scripts/backup.sh redis",
        "objects_backup": "scripts/backup.sh objects",
    }
