"""Scripts/bench.sh's stress loop (SCENARIO=stress): what each aasa-audit round reported, and the
verdict over all rounds (issue 46: no stalled round, no domain left unchecked).

    bench_stress.py round OUT NAME N TSV WALL   appends the round of OUT/latest.json to TSV
    bench_stress.py verdict TSV                  prints every round; exits 1 if any round stalled
                                                 (over twice its client's median wall time) or
                                                 reported audit.unchecked or net.timeout

Every host of the stress world answers, so a timeout or an unchecked domain there is the
audit's own doing, never a site's.
"""
import collections
import json
import os
import statistics
import sys

WATCHED = ("audit.unchecked", "net.timeout")


def record_round(out, name, n, tsv, wall):
    path = os.path.join(out, "latest.json")
    counts = collections.Counter()
    examples = []
    try:
        with open(path, encoding="utf-8") as file:
            report = json.load(file)
        for domain in report.get("domains", []):
            for finding in domain.get("findings", []):
                if finding.get("code") in WATCHED:
                    counts[finding["code"]] += 1
                    if len(examples) < 3:
                        examples.append(f"{domain.get('domain')}: {finding.get('message', '')[:160]}")
        complete = "yes"
    except (OSError, ValueError) as error:
        complete = f"no report ({error.__class__.__name__})"
    with open(tsv, "a", encoding="utf-8") as file:
        file.write("\t".join([name, n, wall, str(counts["audit.unchecked"]), str(counts["net.timeout"]), complete,
                              " | ".join(examples).replace("\t", " ")]) + "\n")


def verdict(tsv):
    rounds = [line.rstrip("\n").split("\t") for line in open(tsv, encoding="utf-8") if line.strip()]
    walls = collections.defaultdict(list)
    for name, n, wall, *_ in rounds:
        walls[(name, n)].append(float(wall))
    bad = 0
    print()
    print("Stress rounds (aasa-audit):")
    print()
    print("| client | N | round | wall s | stalled | audit.unchecked | net.timeout | report | examples |")
    print("| --- | ---: | ---: | ---: | --- | ---: | ---: | --- | --- |")
    index = collections.Counter()
    for name, n, wall, unchecked, timeouts, complete, examples in rounds:
        index[(name, n)] += 1
        median = statistics.median(walls[(name, n)])
        stalled = float(wall) > 2 * median
        failed = stalled or int(unchecked) > 0 or int(timeouts) > 0 or complete != "yes"
        bad += failed
        print(f"| {name} | {n} | {index[(name, n)]} | {float(wall):.2f} | {'STALLED' if stalled else 'no'} "
              f"| {unchecked} | {timeouts} | {complete} | {examples} |")
    print()
    print(f"{len(rounds)} rounds, {bad} with a stall, an unchecked domain or a timeout.")
    return 1 if bad or not rounds else 0


if __name__ == "__main__":
    if len(sys.argv) == 7 and sys.argv[1] == "round":
        record_round(*sys.argv[2:])
    elif len(sys.argv) == 3 and sys.argv[1] == "verdict":
        sys.exit(verdict(sys.argv[2]))
    else:
        sys.exit(__doc__)
