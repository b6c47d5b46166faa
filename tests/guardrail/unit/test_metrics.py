"""The Prometheus counters: what each event adds, the in-flight gauge and reload results fed by
their owners, and nothing at all without prometheus_client."""

from __future__ import annotations

import prometheus_client
from prometheus_client import CollectorRegistry, generate_latest

from reversible_mask.dictionary import load_dictionary
from reversible_mask.errors import ScopeForbiddenError, UnmaskableFieldError
from reversible_mask.inflight import InFlight
from reversible_mask.metrics import Metrics, process_metrics
from reversible_mask.reload import DictionaryWatch


def fresh() -> tuple[Metrics, CollectorRegistry]:
    registry = CollectorRegistry()
    return Metrics(prometheus_client, registry), registry


def value(registry: CollectorRegistry, name: str, **labels: str) -> float | None:
    return registry.get_sample_value(name, labels)


def test_masked_counts_add_up_by_category() -> None:
    metrics, registry = fresh()
    metrics.masked({"CLIENTS": 2, "PEOPLE": 1})
    metrics.masked({"CLIENTS": 1})
    metrics.masked({})
    assert value(registry, "reversible_mask_requests_masked_total") == 3
    assert value(registry, "reversible_mask_terms_masked_total", category="clients") == 3
    assert value(registry, "reversible_mask_terms_masked_total", category="people") == 1


def test_refusals_are_counted_by_reason() -> None:
    metrics, registry = fresh()
    for reason in ("route_not_guarded", "route_not_guarded", ScopeForbiddenError.reason):
        metrics.refused(reason)
    metrics.refused(UnmaskableFieldError("name").reason)
    name = "reversible_mask_requests_refused_total"
    assert value(registry, name, reason="route_not_guarded") == 2
    assert value(registry, name, reason="scope_forbidden") == 1
    assert value(registry, name, reason="field_not_maskable") == 1


def test_the_in_flight_gauge_follows_the_registry() -> None:
    metrics, registry = fresh()
    in_flight = InFlight(observe=metrics.in_flight)
    first, second = {"metadata": {}}, {"metadata": {}}
    in_flight.open(first)
    in_flight.open(second)
    assert value(registry, "reversible_mask_in_flight") == 2
    in_flight.close(first)
    in_flight.close(first)  # a second close changes nothing
    assert value(registry, "reversible_mask_in_flight") == 1
    in_flight.close(second)
    assert value(registry, "reversible_mask_in_flight") == 0


def test_reloads_say_whether_the_new_file_loaded(tmp_path) -> None:  # noqa: ANN001
    metrics, registry = fresh()
    path = tmp_path / "dictionary.yaml"
    path.write_text("categories:\n  clients: [Acme Corporation]\n", encoding="utf-8")
    now = [0.0]
    watch = DictionaryWatch(path, load_dictionary, clock=lambda: now[0], reloaded=metrics.reloaded)
    path.write_text("categories:\n  clients: [Acme Corporation, Globex]\n", encoding="utf-8")
    now[0] += 2
    assert watch.changed() is not None
    path.write_text("categories:\n  clients: [Acme\n", encoding="utf-8")
    now[0] += 2
    assert watch.changed() is None
    name = "reversible_mask_dictionary_reloads_total"
    assert value(registry, name, result="loaded") == 1
    assert value(registry, name, result="kept_last_good") == 1


def test_no_text_reaches_the_exposition() -> None:
    metrics, registry = fresh()
    metrics.masked({"CLIENTS": 1})
    metrics.refused("route_not_guarded")
    text = generate_latest(registry).decode("utf-8")
    assert "Acme" not in text
    assert 'category="clients"' in text


def test_without_prometheus_client_every_method_is_a_no_op() -> None:
    metrics = Metrics(None)
    metrics.masked({"CLIENTS": 1})
    metrics.refused("route_not_guarded")
    metrics.reloaded(True)
    metrics.in_flight(3)


def test_one_set_per_process_in_the_default_registry() -> None:
    assert process_metrics() is process_metrics()
    process_metrics().masked({"CLIENTS": 1})
    total = prometheus_client.REGISTRY.get_sample_value("reversible_mask_requests_masked_total")
    assert total is not None and total >= 1
