#!/usr/bin/env python3
"""Checks that a `bench run --json` file says how it was made and carries honest figures: per row a
confidence interval for the mean, single-event percentiles on 1-thread unpublished rows, matcher bytes
that differ between strategies; at the top level the run metadata and one jemalloc block. With a CSV
path, checks it has one line per row.
   scripts/check-results-file.py RESULTS.json [RESULTS.csv]"""
import csv
import json
import sys

doc = json.load(open(sys.argv[1]))
problems = []
if doc.get("schema") != "trigger-bench-results/2":
    problems.append(f"schema is {doc.get('schema')!r}")
run = doc.get("run") or {}
for key in ("timestamp", "host", "command", "settings", "noise"):
    if key not in run:
        problems.append(f"run.{key} missing")
if not {"after_generation", "after_build", "end"} <= set(doc.get("jemalloc", {})):
    problems.append("the top-level jemalloc block lacks after_generation, after_build or end")
matcher_bytes = set()
for r in doc["results"]:
    row = f"{r['strategy']} {r['publication']} x{r['threads']}"
    if "jemalloc" in r:
        problems.append(f"{row}: a per-row jemalloc block (the gauges are process-wide)")
    ci = r.get("mean_ci95")
    if not ci or not ci[0] <= ci[1]:
        problems.append(f"{row}: no confidence interval for the mean")
    if r["threads"] == 1 and r["publication"] == "none":
        lat = r.get("latency_ns") or {}
        if not (lat.get("samples", 0) > 0 and lat["p50"] <= lat["p99"] <= lat["p999"] <= lat["max"]):
            problems.append(f"{row}: no ordered single-event percentiles: {lat}")
        matcher_bytes.add(r.get("matcher_bytes"))
if len(matcher_bytes) < 2:
    problems.append(f"matcher bytes do not differ between strategies: {matcher_bytes}")
if len(sys.argv) > 2:
    rows = list(csv.DictReader(open(sys.argv[2], newline="")))
    if len(rows) != len(doc["results"]):
        problems.append(f"the CSV has {len(rows)} rows for {len(doc['results'])} results")
if problems:
    print("results file check failed:\n  " + "\n  ".join(problems))
    sys.exit(1)
print(f"ok: {len(doc['results'])} rows with intervals, single-event percentiles and matcher bytes; run metadata present")
