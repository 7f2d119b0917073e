from hydra.api.routes import ROUTES, dispatch


def test_every_route_is_unique():
    keys = [(r.method, r.path) for r in ROUTES]
    assert len(keys) == len(set(keys))


def test_infer_returns_one_output_per_input():
    status, body = dispatch("POST", "/v1/infer", {"model_id": "hydra-small", "inputs": ["a", "b"]})
    assert status == 200
    assert body["outputs"] == ["a", "b"]
    assert body["model_id"] == "hydra-small"
    assert body["request_id"].startswith("req_")


def test_infer_rejects_unknown_fields_and_models():
    assert dispatch("POST", "/v1/infer", {"model_id": "hydra-small", "inputs": ["a"], "x": 1})[0] == 422
    assert dispatch("POST", "/v1/infer", {"model_id": "nope", "inputs": ["a"]})[0] == 404


def test_a_batch_job_can_be_submitted_and_polled():
    status, job = dispatch(
        "POST",
        "/v1/batch",
        {"model_id": "hydra-large", "items": [{"id": "1", "input": "a"}, {"id": "2", "input": "b"}]},
    )
    assert status == 200
    assert job["queued"] == 2
    status, progress = dispatch("GET", f"/v1/batch/{job['job_id']}")
    assert status == 200
    assert progress["total"] == 2


def test_models_and_health():
    status, body = dispatch("GET", "/v1/models")
    assert status == 200 and {m["model_id"] for m in body["models"]} == {"hydra-small", "hydra-large"}
    status, body = dispatch("GET", "/healthz")
    assert status == 200 and body["status"] == "ok"


def test_unknown_route_is_404():
    assert dispatch("DELETE", "/v1/models")[0] == 404
