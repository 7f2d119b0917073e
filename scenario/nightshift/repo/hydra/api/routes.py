"""The public inference API: typed request/response schemas and the route table.

The HTTP server (a thin adapter in the deployment image) maps each `Route` to an endpoint;
`dispatch` is what it calls, so the behaviour lives here and is testable without a server.
"""

import dataclasses
import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hydra import __version__


class ApiError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


# ---- request and response schemas -------------------------------------------------------------


@dataclass
class InferenceRequest:
    model_id: str
    inputs: list[str]
    max_tokens: int = 256
    temperature: float = 0.0


@dataclass
class InferenceResponse:
    request_id: str
    model_id: str
    outputs: list[str]
    latency_ms: float


@dataclass
class BatchItem:
    id: str
    input: str


@dataclass
class BatchRequest:
    model_id: str
    items: list[BatchItem]
    priority: str = "normal"
    callback_url: str | None = None


@dataclass
class BatchJobResponse:
    job_id: str
    status: str
    queued: int


@dataclass
class BatchStatusResponse:
    job_id: str
    status: str
    total: int
    completed: int
    failed: int


@dataclass
class ModelInfo:
    model_id: str
    version: str
    max_batch_size: int
    status: str


@dataclass
class ModelListResponse:
    models: list[ModelInfo] = field(default_factory=list)


@dataclass
class HealthResponse:
    status: str
    redis: str
    version: str


# ---- handlers -------------------------------------------------------------------------------

MODELS = [
    ModelInfo(model_id="hydra-small", version="2025.06", max_batch_size=256, status="ready"),
    ModelInfo(model_id="hydra-large", version="2025.07", max_batch_size=64, status="ready"),
]
PRIORITIES = ("low", "normal", "high")
_JOBS: dict[str, BatchStatusResponse] = {}


def _model(model_id: str) -> ModelInfo:
    for model in MODELS:
        if model.model_id == model_id:
            return model
    raise ApiError(404, f"unknown model_id {model_id!r}")


def infer(request: InferenceRequest) -> InferenceResponse:
    _model(request.model_id)
    if not request.inputs:
        raise ApiError(422, "inputs must not be empty")
    if not 1 <= request.max_tokens <= 4096:
        raise ApiError(422, "max_tokens must be between 1 and 4096")
    started = time.perf_counter()
    outputs = [text[: request.max_tokens] for text in request.inputs]
    digest = hashlib.sha1("\n".join(request.inputs).encode()).hexdigest()[:12]
    return InferenceResponse(
        request_id=f"req_{digest}",
        model_id=request.model_id,
        outputs=outputs,
        latency_ms=round((time.perf_counter() - started) * 1000, 3),
    )


def submit_batch(request: BatchRequest) -> BatchJobResponse:
    model = _model(request.model_id)
    if not request.items:
        raise ApiError(422, "items must not be empty")
    if len(request.items) > model.max_batch_size:
        raise ApiError(422, f"at most {model.max_batch_size} items for {model.model_id}")
    if request.priority not in PRIORITIES:
        raise ApiError(422, f"priority must be one of {', '.join(PRIORITIES)}")
    job_id = "job_" + hashlib.sha1("|".join(i.id for i in request.items).encode()).hexdigest()[:12]
    _JOBS[job_id] = BatchStatusResponse(
        job_id=job_id, status="queued", total=len(request.items), completed=0, failed=0
    )
    return BatchJobResponse(job_id=job_id, status="queued", queued=len(request.items))


def batch_status(job_id: str) -> BatchStatusResponse:
    if job_id not in _JOBS:
        raise ApiError(404, f"unknown job_id {job_id!r}")
    return _JOBS[job_id]


def list_models() -> ModelListResponse:
    return ModelListResponse(models=list(MODELS))


def health() -> HealthResponse:
    return HealthResponse(status="ok", redis="unknown", version=__version__)


# ---- route table ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Route:
    method: str
    path: str
    request: type | None
    response: type
    handler: Callable[..., Any]
    summary: str


ROUTES = [
    Route("POST", "/v1/infer", InferenceRequest, InferenceResponse, infer,
          "Run the model synchronously over a list of inputs."),
    Route("POST", "/v1/batch", BatchRequest, BatchJobResponse, submit_batch,
          "Queue a batch job; results are published to the results stream."),
    Route("GET", "/v1/batch/{job_id}", None, BatchStatusResponse, batch_status,
          "Progress of a batch job."),
    Route("GET", "/v1/models", None, ModelListResponse, list_models,
          "Models available for inference."),
    Route("GET", "/healthz", None, HealthResponse, health,
          "Liveness and dependency status."),
]


def _build(cls: type, data: Any) -> Any:
    """Build a request dataclass from JSON, rejecting unknown and missing fields (422)."""
    if not isinstance(data, dict):
        raise ApiError(422, f"{cls.__name__}: expected a JSON object")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = set(data) - set(fields)
    if unknown:
        raise ApiError(422, f"{cls.__name__}: unknown fields {sorted(unknown)}")
    kwargs = dict(data)
    if cls is BatchRequest and isinstance(kwargs.get("items"), list):
        kwargs["items"] = [_build(BatchItem, item) for item in kwargs["items"]]
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise ApiError(422, f"{cls.__name__}: {exc}") from exc


def _match(template: str, path: str) -> dict[str, str] | None:
    want, got = template.strip("/").split("/"), path.strip("/").split("/")
    if len(want) != len(got):
        return None
    params: dict[str, str] = {}
    for w, g in zip(want, got):
        if w.startswith("{") and w.endswith("}"):
            params[w[1:-1]] = g
        elif w != g:
            return None
    return params


def dispatch(method: str, path: str, body: Any = None) -> tuple[int, dict[str, Any]]:
    """(status, JSON body) for one request: what the HTTP adapter returns to the client."""
    for route in ROUTES:
        params = _match(route.path, path)
        if params is None or route.method != method.upper():
            continue
        try:
            if route.request is not None:
                result = route.handler(_build(route.request, body or {}))
            else:
                result = route.handler(**params)
        except ApiError as exc:
            return exc.status, {"error": exc.message}
        return 200, dataclasses.asdict(result)
    return 404, {"error": f"no route for {method.upper()} {path}"}
