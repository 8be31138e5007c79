#!/usr/bin/env python3
"""Writes a made-up history into an output folder, for measuring and looking at index.html:

    Scripts/make-sample-history.py DOMAINS RUNS OUT

RUNS run folders (one a day, ending yesterday; empty but for the run marker) and OUT/history.json with a line per run in
the format of docs/history.schema.json. The domains behave as a fleet does: most pass every
night; some fail from some night on; some flap; some warn with a stale Apple CDN copy for days;
a few are added or removed along the way. Deterministic (seeded). Then
`aasa-audit history --out OUT --write-index` writes OUT/index.html from it.
"""
import datetime
import json
import os
import random
import sys

domains, runs, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = random.Random(20261123)
os.makedirs(out, exist_ok=True)
names = [f"app{i:05d}.example.com" if i % 7 else f"www.shop{i:05d}.example" for i in range(1, domains + 1)]
kinds = {}
for name in names:
    roll = rng.random()
    kinds[name] = ("breaks", rng.randrange(runs)) if roll < 0.03 else ("flaps", 0) if roll < 0.05 else \
        ("stale", rng.randrange(runs)) if roll < 0.07 else ("warns", 0) if roll < 0.09 else \
        ("added", rng.randrange(runs)) if roll < 0.10 else ("pass", 0)
failures = [["http.status", "location.none"], ["http.redirect"], ["net.timeout"], ["appid.missing"], ["tls.certificate"]]
start = datetime.datetime.now(datetime.timezone.utc).replace(hour=3, minute=15, second=0, microsecond=0) - datetime.timedelta(days=runs)
lines = []
for run in range(runs):
    started = start + datetime.timedelta(days=run)
    folder = started.strftime("%Y-%m-%dT%H%M%SZ")
    os.makedirs(os.path.join(out, folder), exist_ok=True)
    open(os.path.join(out, folder, ".aasa-audit-run"), "w").close()
    entries, counts = [], {"pass": 0, "warn": 0, "fail": 0}
    for name in names:
        kind, at = kinds[name]
        if kind == "added" and run < at:
            continue
        entry = [name, "pass"]
        if kind == "breaks" and run >= at:
            entry = [name, "fail"] + failures[sum(map(ord, name)) % len(failures)]
        elif kind == "flaps" and rng.random() < 0.4:
            entry = [name, "fail", "net.timeout"]
        elif kind == "stale" and run >= at:
            entry = [name, "warn", "cdn.stale"]
        elif kind == "warns":
            entry = [name, "warn", "http.content-type"]
        counts[entry[1]] += 1
        entries.append(entry)
    iso = started.strftime("%Y-%m-%dT%H:%M:%SZ")
    finished = (started + datetime.timedelta(minutes=4)).strftime("%Y-%m-%dT%H:%M:%SZ")
    lines.append(json.dumps({"domains": entries, "finishedAt": finished, "run": folder, "schemaVersion": 1,
                             "startedAt": iso, "verdicts": counts}, separators=(",", ":")))
with open(os.path.join(out, "history.json"), "w") as handle:
    handle.write("\n".join(lines) + "\n")
