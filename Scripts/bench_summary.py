"""Summary of Scripts/bench.sh's result rows: the median of each measure per client and size,
then each aasa-audit variant's ratios to the best baseline of the same size (more URLs per
second is better, less CPU per domain is better).

    bench_summary.py RESULTS_FILE [SSL_CTX_FLOOR_US]

With the floor (the CPU of one SSL_CTX_new + SSL_CTX_free, Scripts/ssl_ctx_floor.c), each
variant's CPU ratio is also given less that floor per handshake: libcurl 7.88 makes a context
for every connection, a prober holding one context for its run does not.
"""
import collections
import statistics
import sys

MEASURES = ["wall", "urls", "user", "sys", "cpu", "rss", "handshakes", "server", "requests"]

floor_ms = float(sys.argv[2]) / 1000 if len(sys.argv) > 2 else None
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
    if len(cells) != 11:
        continue
    client, n, *values = cells
    rows[(client, int(n))].append(dict(zip(MEASURES, map(float, values))))


def median(client, n, measure):
    return statistics.median(row[measure] for row in rows[(client, n)])


print("Medians:")
print()
print("| client | N | rounds | wall s | URL/s | CPU ms/domain | peak RSS MB | handshakes/domain | requests/domain | server CPU ms/domain |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for client, n in sorted(rows, key=lambda key: (key[1], key[0])):
    print(f"| {client} | {n} | {len(rows[(client, n)])} | {median(client, n, 'wall'):.2f} | {median(client, n, 'urls'):.0f} "
          f"| {median(client, n, 'cpu'):.3f} | {median(client, n, 'rss'):.1f} | {median(client, n, 'handshakes'):.2f} "
          f"| {median(client, n, 'requests'):.2f} | {median(client, n, 'server'):.3f} |")

print()
print("aasa-audit against the best baseline (medians):")
print()
floor_header = " CPU ratio less the SSL_CTX floor |" if floor_ms is not None else ""
print("| variant | N | domains/s ratio (best baseline) | wall ratio (best baseline) | CPU per domain ratio (least-CPU baseline) |"
      + floor_header)
print("| --- | ---: | ---: | ---: | ---: |" + (" ---: |" if floor_ms is not None else ""))
for n in sorted({n for _, n in rows}):
    baselines = [client for client, size in rows if size == n and not client.startswith("aasa-audit")]
    variants = sorted(client for client, size in rows if size == n and client.startswith("aasa-audit"))
    if not baselines:
        continue
    fastest = max(baselines, key=lambda client: median(client, n, "urls"))
    leanest = min(baselines, key=lambda client: median(client, n, "cpu"))
    for variant in variants:
        # Domains per second: every client audits the same N domains (URL/s counts 2 per domain).
        speed = median(variant, n, "urls") / median(fastest, n, "urls")
        wall = median(variant, n, "wall") / median(fastest, n, "wall")
        cpu = median(variant, n, "cpu") / median(leanest, n, "cpu")
        less_floor = ""
        if floor_ms is not None:
            own = median(variant, n, "cpu") - floor_ms * median(variant, n, "handshakes")
            less_floor = f" {own / median(leanest, n, 'cpu'):.2f}× ({own:.3f} ms) |"
        print(f"| {variant} | {n} | {speed:.2f}× ({fastest}) | {wall:.2f}× | {cpu:.2f}× ({leanest}) |{less_floor}")
if floor_ms is not None:
    print()
    print(f"SSL_CTX_new + SSL_CTX_free on this machine: {floor_ms * 1000:.1f} µs of CPU (Scripts/ssl_ctx_floor.c)")
