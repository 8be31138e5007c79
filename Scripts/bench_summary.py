"""Summary of Scripts/bench.sh's result rows: the median of each measure per client and size,
then each aasa-audit variant's ratios to the best baseline of the same size (more URLs per
second is better, less CPU per domain is better).

    bench_summary.py RESULTS_FILE
"""
import collections
import statistics
import sys

MEASURES = ["wall", "urls", "user", "sys", "cpu", "rss", "handshakes", "server"]

rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
    if len(cells) != 10:
        continue
    client, n, *values = cells
    rows[(client, int(n))].append(dict(zip(MEASURES, map(float, values))))


def median(client, n, measure):
    return statistics.median(row[measure] for row in rows[(client, n)])


print("Medians:")
print()
print("| client | N | rounds | URL/s | CPU ms/domain | peak RSS MB | handshakes/domain | server CPU ms/domain |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for client, n in sorted(rows, key=lambda key: (key[1], key[0])):
    print(f"| {client} | {n} | {len(rows[(client, n)])} | {median(client, n, 'urls'):.0f} | {median(client, n, 'cpu'):.3f} "
          f"| {median(client, n, 'rss'):.1f} | {median(client, n, 'handshakes'):.2f} | {median(client, n, 'server'):.3f} |")

print()
print("aasa-audit against the best baseline (medians):")
print()
print("| variant | N | URL/s ratio (best baseline) | CPU per domain ratio (least-CPU baseline) |")
print("| --- | ---: | ---: | ---: |")
for n in sorted({n for _, n in rows}):
    baselines = [client for client, size in rows if size == n and not client.startswith("aasa-audit")]
    variants = sorted(client for client, size in rows if size == n and client.startswith("aasa-audit"))
    if not baselines:
        continue
    fastest = max(baselines, key=lambda client: median(client, n, "urls"))
    leanest = min(baselines, key=lambda client: median(client, n, "cpu"))
    for variant in variants:
        speed = median(variant, n, "urls") / median(fastest, n, "urls")
        cpu = median(variant, n, "cpu") / median(leanest, n, "cpu")
        print(f"| {variant} | {n} | {speed:.2f}× ({fastest}) | {cpu:.2f}× ({leanest}) |")
