from hydra.config import settings
from hydra.pipeline.stream_processor import BatchConfig, StreamProcessor
from tests.conftest import STORE


def events(n: int) -> list[dict]:
    return [{"id": f"evt-{i}", "input": f"hello {i}"} for i in range(n)]


def test_each_event_gets_one_result_on_the_results_stream():
    processor = StreamProcessor(BatchConfig(batch_size=4))
    stats = processor.run(events(10))
    assert stats.events == 10
    assert stats.batches == 3
    published = STORE[settings.RESULTS_STREAM]
    assert [fields["id"] for _, fields in published] == [f"evt-{i}" for i in range(10)]


def test_results_carry_the_model_output():
    processor = StreamProcessor(model=lambda text: text[::-1])
    results = processor._process_batch([{"id": "a", "input": "abc"}])
    assert results == [{"id": "a", "output": "cba"}]


def test_a_failing_event_is_counted_and_skipped():
    def model(text: str) -> str:
        if text == "boom":
            raise ValueError(text)
        return text

    processor = StreamProcessor(model=model)
    results = processor._process_batch([{"id": "1", "input": "ok"}, {"id": "2", "input": "boom"}])
    assert [r["id"] for r in results] == ["1"]
    assert processor.stats.errors == 1
    assert processor.stats.error_ids == ["2"]


def test_payloads_larger_than_the_buffer_are_still_published():
    processor = StreamProcessor(BatchConfig(buffer_size=8))
    results = processor._process_batch([{"id": "big", "input": "x" * 100}])
    assert results[0]["output"] == "X" * 100


def test_default_batch_config_is_usable():
    config = BatchConfig()
    assert config.batch_size > 0
    assert config.buffer_size > 0
    assert config.stream_key == settings.RESULTS_STREAM
