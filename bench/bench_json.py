"""Reads a Google Benchmark JSON output (--benchmark_out_format=json) into
{benchmark name: items per second}, keeping the median aggregate when the
run had repetitions (the machines are shared and noisy; the median is the
figure the docs report)."""
import json


def median_rates(path):
    with open(path) as f:
        data = json.load(f)
    rates = {}
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        if "items_per_second" in b:
            rates[b.get("run_name", b["name"])] = b["items_per_second"]
    return rates
