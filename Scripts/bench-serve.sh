#!/usr/bin/env bash
# Benchmark: `aasa-audit serve` against nginx serving the same files, in one session.
#
#   Scripts/bench-serve.sh
#
# Makes an output folder as a nightly audit leaves it (Scripts/make-sample-history.py: DOMAINS
# domains over RUNS runs, history.json and index.html; a latest.json and latest.html of
# REPORT_DOMAINS made-up records, also as the newest run's report.*), then, alternating,
# REPEAT rounds of:
#   1. aasa-audit serve --out OUT --listen 127.0.0.1:PORT (its default options),
#   2. nginx (worker_processes auto, sendfile on) with OUT as its root,
# each under h2load --h1 -c CLIENTS -n REQUESTS for three paths: the dashboard's JSON
# (/api/v1/latest, nginx: /latest.json), the history page (/, nginx: /index.html) and a run's
# report (/RUN/report.html). Prints per server and path: requests/s, p50 and p99 latency (from
# h2load's per-request log), and the server's peak RSS (VmHWM from /proc; nginx: master and
# workers summed), then the medians and serve's ratios to nginx.
# Environment: BENCH_DIR (/tmp/aasa-serve-bench), DOMAINS (10000), RUNS (30), REPORT_DOMAINS
# (1000), CLIENTS (200), REQUESTS (20000), REPEAT (3). Needs nginx and h2load (nghttp2-client).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
dir=${BENCH_DIR:-/tmp/aasa-serve-bench}
domains=${DOMAINS:-10000}
runs=${RUNS:-30}
report_domains=${REPORT_DOMAINS:-1000}
clients=${CLIENTS:-200}
requests=${REQUESTS:-20000}
repeat=${REPEAT:-3}
serve_port=18480
nginx_port=18481

for tool in nginx h2load python3; do
  command -v "$tool" >/dev/null || { echo "bench-serve: $tool is not installed (apt-get install nginx nghttp2-client)" >&2; exit 2; }
done
swift build -c release --product aasa-audit >/dev/null
binary=$root/.build/release/aasa-audit

rm -rf "$dir" && mkdir -p "$dir"
out=$dir/out
python3 Scripts/make-sample-history.py "$domains" "$runs" "$out" >/dev/null
"$binary" history --out "$out" --write-index >/dev/null
run=$(ls "$out" | grep -E '^[0-9]{4}-' | sort | tail -1)
# A report of made-up records in the report's line format: the size of a real one.
python3 - "$out" "$run" "$report_domains" <<'PY'
import json, sys
out, run, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
record = {"appIDs": {"applinks": ["ABCDE12345.com.example.app"]}, "domain": "", "expectedAppIDs": [],
  "fetches": [{"agent": "bot", "bodyBytes": 596, "bodySHA256": "e9c4" * 16, "bodyTruncated": False,
    "headers": {"cache-control": "max-age=3600", "content-type": "application/json", "server": "nginx"},
    "httpVersion": "2", "location": "well-known", "newConnection": True, "remoteIP": "192.0.2.1", "status": 200,
    "timings": {"connectMs": 12.1, "dnsMs": 3.2, "firstByteMs": 40.5, "tlsMs": 30.2, "totalMs": 41.0},
    "url": "https://x/.well-known/apple-app-site-association"}] * 2, "findings": [], "verdict": "pass"}
lines = []
for number in range(count):
    record["domain"] = "app%05d.example.com" % number
    lines.append(json.dumps(record, sort_keys=True))
run_info = {"complete": True, "durationSeconds": 60.0, "finishedAt": "2026-11-24T03:16:00Z", "startedAt": "2026-11-24T03:15:00Z",
  "options": {"concurrency": 64, "connectTo": [], "failOn": "error", "inputFiles": ["domains.txt"], "resolve": [], "timeoutSeconds": 10, "userAgent": "aasa-audit"}}
summary = {"domains": count, "verdicts": {"pass": count, "warn": 0, "fail": 0}, "findingsBySeverity": {"error": 0, "warning": 0, "info": 0}, "findingsByCode": {}, "inputProblems": 0}
text = '{"domains":[\n' + ",\n".join(lines) + "\n]," + json.dumps({"run": run_info, "summary": summary})[1:] + "\n"
for name in ["latest.json", run + "/report.json"]:
    open(out + "/" + name, "w").write(text)
html = "<!DOCTYPE html><html><body>" + "".join("<section>%s</section>" % json.dumps(json.loads(l)["domain"]) for l in lines) + "</body></html>\n"
for name in ["latest.html", run + "/report.html"]:
    open(out + "/" + name, "w").write(html)
PY

cat > "$dir/nginx.conf" <<EOF
worker_processes auto;
pid $dir/nginx.pid;
error_log $dir/nginx-error.log;
events { worker_connections 1024; }
http {
    access_log off;
    sendfile on;
    keepalive_requests 100000;
    types { application/json json; text/html html; }
    server {
        listen 127.0.0.1:$nginx_port;
        root $out;
    }
}
EOF

# The server's peak RSS in KB: VmHWM of the process and its children.
peak_rss() {
  local total=0 pid
  for pid in "$@" $(pgrep -P "$1" || true); do
    total=$((total + $(awk '/VmHWM/ {print $2}' /proc/"$pid"/status)))
  done
  echo "$total"
}

# h2load on one URL: requests/s, p50 and p99 in ms (from its per-request log).
load() {
  local url=$1 log=$dir/h2load.log
  rm -f "$log"
  local summary
  summary=$(h2load --h1 -c "$clients" -n "$requests" -t 1 --log-file="$log" "$url" 2>&1)
  echo "$summary" | grep -q "$requests succeeded" || { echo "bench-serve: not every request succeeded: $summary" >&2; exit 1; }
  local rps
  rps=$(echo "$summary" | awk '/^finished in/ {gsub(",", "", $4); print $4}')
  python3 - "$log" "$rps" <<'PY'
import sys
durations = sorted(int(line.split("\t")[2]) for line in open(sys.argv[1]) if line.strip())
def pick(q): return durations[min(len(durations) - 1, int(q * len(durations)))] / 1000
print("%s %.2f %.2f" % (sys.argv[2], pick(0.50), pick(0.99)))
PY
}

results=$dir/results.txt
: > "$results"
# The path on serve, and the same file on nginx.
paths=("/api/v1/latest /latest.json" "/ /index.html" "/$run/report.html /$run/report.html")
for round in $(seq "$repeat"); do
  "$binary" serve --out "$out" --listen 127.0.0.1:$serve_port > "$dir/serve.log" 2>&1 &
  serve_pid=$!
  for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/$serve_port) 2>/dev/null && break; sleep 0.05; done
  for pair in "${paths[@]}"; do
    read -r own _ <<< "$pair"
    echo "serve $own $(load "http://127.0.0.1:$serve_port$own") $(peak_rss $serve_pid)" >> "$results"
  done
  kill -TERM $serve_pid; wait $serve_pid || true

  nginx -c "$dir/nginx.conf" -p "$dir"
  sleep 0.2
  nginx_pid=$(cat "$dir/nginx.pid")
  for pair in "${paths[@]}"; do
    read -r own file <<< "$pair"
    echo "nginx $own $(load "http://127.0.0.1:$nginx_port$file") $(peak_rss "$nginx_pid")" >> "$results"
  done
  nginx -c "$dir/nginx.conf" -p "$dir" -s stop
  sleep 0.3
done

python3 - "$results" "$clients" "$requests" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1]) if line.strip()]
print("h2load --h1 -c %s -n %s, medians of %d rounds" % (sys.argv[2], sys.argv[3], len(rows) // 6))
print("%-7s %-30s %10s %9s %9s %10s" % ("server", "path", "req/s", "p50 ms", "p99 ms", "peak RSS"))
medians = {}
for server in ["serve", "nginx"]:
    for path in sorted({r[1] for r in rows}):
        mine = [r for r in rows if r[0] == server and r[1] == path]
        m = [statistics.median(float(r[i]) for r in mine) for i in (2, 3, 4, 5)]
        medians[(server, path)] = m
        print("%-7s %-30s %10.0f %9.2f %9.2f %7.1f MB" % (server, path, m[0], m[1], m[2], m[3] / 1024))
print("serve / nginx:")
for path in sorted({r[1] for r in rows}):
    s, n = medians[("serve", path)], medians[("nginx", path)]
    print("  %-30s req/s %.2f, p50 %.2f, p99 %.2f, RSS %.2f" % (path, s[0] / n[0], s[1] / n[1], s[2] / n[2], s[3] / n[3]))
PY
