#!/usr/bin/env bash
# Benchmark: aasa-audit against the fastest probers, on a local world, in one session.
#
#   Scripts/bench.sh [N...]          default: 1000 10000 100000
#
# Starts nginx on loopback serving N virtual domains (d000001.bench.test ...) with a valid
# file at both locations over HTTPS (a local CA made here), plus a few broken ones; then runs,
# alternating, with the same concurrency:
#   1. aasa-audit audit over the N domains, both reports written: with its default options
#      (row aasa-audit-Nt; --no-cdn only, as this machine has no internet) and, when VARIANTS
#      says so, with --no-ua-check as well (row aasa-audit-origin-Nt),
#   2. curl --parallel fetching the 2N URLs,
#   3. an async Python prober on aiohttp + uvloop (installed from PyPI into a venv here), lean
#      (Scripts/bench_probe.py: Connection: close on a domain's last request, no decompression);
#      CLIENTS may add aiohttp-uvloop-pool, the same keeping its connections in the pool,
# and prints a table: wall time, URLs/s, user and system CPU, CPU per domain, peak RSS, TLS
# handshakes per domain (nginx's accepted connections / N), and the CPU nginx's worker spent
# per domain meanwhile (from /proc), and the requests nginx served per domain. Needs root for
# apt and :443.
# SCENARIO=loopback (default): every answer at once. SCENARIO=latency: every host is
# lag-NNNNNN.bench.test, whose every response nginx sends LAG_MS (100) ms late (echo_sleep), as
# a far-away server; the bound a client is measured against is
# N / in-flight x round trips per domain x LAG_MS (printed). SCENARIO=dead: N domains of which
# 10% are dead, half silent-N.bench.test (127.0.0.78:443 accepts the connection and never
# answers) and half refused-N.bench.test (nothing listens on 127.0.0.79:443); each client also
# runs over the same list without them (N x 0.9, its own row), and the bound for the dead ones
# is printed (--connect-timeout, 5 s, per dead domain per slot). SCENARIO=stress: the stress loop
# of issue 46 (run it with REPEAT=30): the loopback list plus 1% late-N.bench.test (nginx answers
# .well-known 50 ms after the root, so over HTTP/2 it ends last on the connection) and 1%
# rootonly-N.bench.test (.well-known 404, root 200), at aasa-audit's default options, the other
# clients running between its rounds as in a bench; after each aasa-audit round the report's
# audit.unchecked and net.timeout findings are counted, and the script fails when any round had
# one or took over twice the median round's wall time (Scripts/bench_stress.py).
# Environment: BENCH_DIR (default /tmp/aasa-bench), BENCH_ADDR (127.0.0.77, a loopback address
# of its own), CONCURRENCY (64), REPEAT (2), WORKERS (1 nginx worker: the other core is the client's),
# VARIANTS ("default": aasa-audit's default options; "default origin-only" adds --no-ua-check),
# THREADS ("1 2": aasa-audit's --fetch-threads values, a row each), CLIENTS (all three by default:
# "aasa-audit curl-parallel aiohttp-uvloop"; aiohttp-uvloop-pool on request), TRUST ("local": every client trusts the local CA
# alone; "system": Debian's whole CA bundle plus the local CA, as a production run verifies).
# BASELINE_BINARY: another build of aasa-audit (say the previous commit's, built with
# `swift build -c release --product aasa-audit` in a git worktree) run with the same options in
# every round, as row aasa-audit-baseline-Nt: "no worse than before" measured in one session.
# After the rounds it prints the medians per client and size, and aasa-audit's ratios to the
# best baseline, its CPU ratio also less the SSL_CTX that libcurl 7.88 makes per connection
# (measured first by Scripts/ssl_ctx_floor.c; gcc and libssl-dev are installed for it).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
dir=${BENCH_DIR:-/tmp/aasa-bench}
concurrency=${CONCURRENCY:-64}
repeat=${REPEAT:-2}
workers=${WORKERS:-1}
threads=${THREADS:-1 2}
clients=${CLIENTS:-aasa-audit curl-parallel aiohttp-uvloop}
trust=${TRUST:-local}
addr=${BENCH_ADDR:-127.0.0.77}
variants=${VARIANTS:-default}
scenario=${SCENARIO:-loopback}
lag_ms=${LAG_MS:-100}
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000 10000 100000)
max=$(printf '%s\n' "${sizes[@]}" | sort -n | tail -1)

log() { printf '[bench] %s\n' "$*" >&2; }

install() {
  local missing=()
  for package in nginx-light libnginx-mod-http-echo openssl curl time python3-venv gcc libssl-dev; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing ${missing[*]}"
    # Keep Debian's post-install from starting a system nginx on :80.
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    rm -f /usr/sbin/policy-rc.d
  fi
  if [ ! -x "$dir/venv/bin/python" ]; then
    log "installing aiohttp and uvloop into $dir/venv"
    python3 -m venv "$dir/venv"
    "$dir/venv/bin/pip" install -q aiohttp uvloop
  fi
}

make_world() {
  mkdir -p "$dir"/{pki,www/.well-known,logs,run,lists}
  if [ ! -f "$dir/pki/server.pem" ]; then
    log "making a local CA and a certificate for *.bench.test"
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 30 -subj "/CN=aasa-audit bench CA" \
      -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign" \
      -keyout "$dir/pki/ca.key" -out "$dir/pki/ca.pem" 2>/dev/null
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=*.bench.test" \
      -keyout "$dir/pki/server.key" -out "$dir/pki/server.csr" 2>/dev/null
    printf 'subjectAltName=DNS:*.bench.test\nextendedKeyUsage=serverAuth\n' > "$dir/pki/ext"
    openssl x509 -req -in "$dir/pki/server.csr" -CA "$dir/pki/ca.pem" -CAkey "$dir/pki/ca.key" -CAcreateserial \
      -days 30 -extfile "$dir/pki/ext" -out "$dir/pki/server.pem" 2>/dev/null
  fi
  cat > "$dir/www/aasa.json" <<'JSON'
{"applinks":{"details":[{"appIDs":["ABCDE12346.com.example.app"],"components":[{"/":"/help/*","exclude":true},{"/":"*"}]}]},"webcredentials":{"apps":["ABCDE12346.com.example.app"]}}
JSON
  local lag_s
  lag_s=$(awk -v ms="$lag_ms" 'BEGIN { printf "%.3f", ms / 1000 }')
  local file
  file=$(cat "$dir/www/aasa.json")
  cat > "$dir/nginx.conf" <<NGINX
load_module /usr/lib/nginx/modules/ngx_http_echo_module.so;
worker_processes $workers;
pid $dir/run/nginx.pid;
error_log $dir/logs/error.log warn;
events { worker_connections 16384; }
http {
  access_log off;
  keepalive_requests 1000;
  map \$host \$kind { ~^redirect- redirect; ~^missing- missing; ~^lag- lag; ~^late- late; ~^rootonly- rootonly; default ok; }
  server {
    listen $addr:443 ssl http2;
    server_name *.bench.test;
    ssl_certificate $dir/pki/server.pem;
    ssl_certificate_key $dir/pki/server.key;
    root $dir/www;
    location = /_lag { internal; default_type application/json; echo_sleep $lag_s; echo '$file'; }
    location = /_late { internal; default_type application/json; echo_sleep 0.05; echo '$file'; }
    location = /.well-known/apple-app-site-association {
      if (\$kind = lag) { rewrite ^ /_lag last; }
      if (\$kind = late) { rewrite ^ /_late last; }
      if (\$kind = rootonly) { return 404; }
      if (\$kind = redirect) { return 301 https://www.\$host\$request_uri; }
      if (\$kind = missing) { return 404; }
      default_type application/json; alias $dir/www/aasa.json;
    }
    location = /apple-app-site-association {
      if (\$kind = lag) { rewrite ^ /_lag last; }
      if (\$kind = missing) { return 404; }
      default_type application/json; alias $dir/www/aasa.json;
    }
  }
  server { listen $addr:8080; location = /status { stub_status; } }
}
NGINX
  cat /etc/ssl/certs/ca-certificates.crt "$dir/pki/ca.pem" > "$dir/pki/system-and-local.pem"
  for n in "${sizes[@]}"; do
    local list="$dir/lists/$scenario-$n.txt"
    [ -f "$list" ] && continue
    if [ "$scenario" = latency ]; then
      seq -f "lag-%06g.bench.test" 1 "$n" > "$list"
    elif [ "$scenario" = dead ]; then
      local dead=$((n / 10))
      seq -f "d%06g.bench.test" 1 $((n - dead)) > "$dir/lists/dead-$((n - dead))-alive.txt"
      { seq -f "d%06g.bench.test" 1 $((n - dead)); seq -f "silent-%g.bench.test" 1 $((dead / 2)); seq -f "refused-%g.bench.test" 1 $((dead - dead / 2)); } \
        | awk 'BEGIN { srand(7) } { print rand() "\t" $0 }' | sort -n | cut -f2 > "$list"
    elif [ "$scenario" = stress ]; then
      local odd=$(((n + 99) / 100))
      { seq -f "d%06g.bench.test" 1 $((n - 2 * odd)); seq -f "late-%g.bench.test" 1 "$odd"; seq -f "rootonly-%g.bench.test" 1 "$odd"; } \
        | awk 'BEGIN { srand(7) } { print rand() "\t" $0 }' | sort -n | cut -f2 > "$list"
    else
      { seq -f "d%06g.bench.test" 1 $((n - 10)); seq -f "redirect-%g.bench.test" 1 5; seq -f "missing-%g.bench.test" 1 5; } > "$list"
    fi
    sed -e 's|^|https://|' -e 's|$|/.well-known/apple-app-site-association|' "$list" > "$dir/lists/$scenario-$n.urls"
    sed -e 's|^|https://|' -e 's|$|/apple-app-site-association|' "$list" >> "$dir/lists/$scenario-$n.urls"
    sed 's|.*|url = "&"\noutput = "/dev/null"|' "$dir/lists/$scenario-$n.urls" > "$dir/lists/$scenario-$n.curl"
  done
}

# A listener that accepts connections and never answers (dead hosts that cost a connect timeout).
start_silent() {
  [ "$scenario" = dead ] || return 0
  python3 -c 'import socket, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("127.0.0.78", 443)); s.listen(4096)
held = []
while True:
    connection, _ = s.accept(); held.append(connection)' &
  echo $! > "$dir/run/silent.pid"
}

start_nginx() {
  [ -f "$dir/run/nginx.pid" ] && kill "$(cat "$dir/run/nginx.pid")" 2>/dev/null && sleep 0.5
  nginx -c "$dir/nginx.conf" -p "$dir" || { log "nginx did not start: see $dir/logs/error.log"; exit 1; }
  sleep 0.3
}

accepted() { curl -s http://$addr:8080/status | awk 'NR==3 {print $1}'; }
requests() { curl -s http://$addr:8080/status | awk 'NR==3 {print $3}'; }
# CPU time of nginx's workers so far, in clock ticks (utime + stime).
server_ticks() {
  local total=0 pid
  for pid in $(pgrep -P "$(cat "$dir/run/nginx.pid")"); do
    total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat")))
  done
  echo "$total"
}

# run NAME N COMMAND...: runs COMMAND under GNU time; prints a result line.
run() {
  local name=$1 n=$2
  shift 2
  local before after ticks_before ticks_after requests_before requests_after
  before=$(accepted)
  requests_before=$(requests)
  ticks_before=$(server_ticks)
  /usr/bin/time -f '%e %U %S %M' -o "$dir/time.txt" "$@" > "$dir/logs/$name-$n.out" 2>&1 || true
  ticks_after=$(server_ticks)
  after=$(accepted)
  # The status request itself is one of nginx's requests.
  requests_after=$(($(requests) - 1))
  read -r wall user sys rss < <(tail -n 1 "$dir/time.txt")
  awk -v name="$name" -v n="$n" -v wall="$wall" -v user="$user" -v sys="$sys" -v rss="$rss" -v conns=$((after - before)) \
    -v server=$((ticks_after - ticks_before)) -v hz="$(getconf CLK_TCK)" -v requests=$((requests_after - requests_before)) 'BEGIN {
    urls = 2 * n
    printf "| %-12s | %7d | %7.2f | %8.0f | %6.2f | %6.2f | %8.3f | %7.1f | %5.2f | %8.3f | %5.2f |\n",
      name, n, wall, urls / wall, user, sys, (user + sys) * 1000 / n, rss / 1024, conns / n, server * 1000 / hz / n, requests / n
  }' | tee -a "$dir/results.md"
}

wanted() { [[ " $clients " == *" $1 "* ]]; }

install
make_world
start_nginx
start_silent
# AUDIT_BINARY: another build to measure as the rows named aasa-audit (the stress loop run with
# the previous commit's build shows what it catches).
if [ -n "${AUDIT_BINARY:-}" ]; then
  audit=$AUDIT_BINARY
else
  swift build -c release --product aasa-audit >/dev/null
  audit="$root/.build/release/aasa-audit"
fi
# libcurl 7.88's floor: it makes an SSL_CTX for every connection, which a prober holding one
# context never pays (Scripts/ssl_ctx_floor.c). Measured here, the summary subtracts it.
cc -O2 "$root/Scripts/ssl_ctx_floor.c" -o "$dir/ssl_ctx_floor" -lssl -lcrypto
floor_us=$("$dir/ssl_ctx_floor" 5000)
log "SSL_CTX_new + SSL_CTX_free: $floor_us µs of CPU a pair on this machine (Scripts/ssl_ctx_floor.c, mean of 5000)"

case $trust in
  local) ca="$dir/pki/ca.pem" ;;
  system) ca="$dir/pki/system-and-local.pem" ;;
  *) log "TRUST must be local or system"; exit 2 ;;
esac
log "trust store: $ca ($(grep -c 'BEGIN CERTIFICATE' "$ca") certificates)"
: > "$dir/results.md"
: > "$dir/stress.tsv"
log "scenario: $scenario$([ "$scenario" = latency ] && echo ", every response $lag_ms ms late"), $concurrency in flight"
echo "| client       |       N |  wall s |    URL/s | user s |  sys s | CPU ms/domain | peak RSS MB | handshakes/domain | server CPU ms/domain | requests/domain |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
lists_of() {
  local n=$1
  echo "$dir/lists/$scenario-$n.txt"
  [ "$scenario" = dead ] && echo "$dir/lists/dead-$((n - n / 10))-alive.txt"
  return 0
}

for n in "${sizes[@]}"; do
  if [ "$scenario" = dead ]; then
    log "bound for the $((n / 10)) dead domains of N=$n: $((n / 10)) / $concurrency in flight x 5 s connect timeout = $(awk -v d=$((n / 10)) -v c="$concurrency" 'BEGIN { printf "%.1f", (d < c ? 1 : d / c) * 5 }') s (the refused half costs nothing)"
  fi
  for list in $(lists_of "$n"); do
  size=$(wc -l < "$list")
  # Dead hosts' own addresses; every other name goes to nginx.
  dead_resolve=()
  for host in $(grep -E '^(silent|refused)-' "$list" || true); do
    case $host in silent-*) dead_resolve+=(--resolve "$host:443:127.0.0.78") ;; refused-*) dead_resolve+=(--resolve "$host:443:127.0.0.79") ;; esac
  done
  if [ "$scenario" = latency ]; then
    # Two requests per domain, each LAG_MS late; a client that sends both at once (HTTP/2) needs one.
    log "bound for N=$n: $n / $concurrency in flight x 2 round trips x $lag_ms ms = $(awk -v n="$n" -v c="$concurrency" -v ms="$lag_ms" 'BEGIN { printf "%.2f", n / c * 2 * ms / 1000 }') s sequentially, half that multiplexed"
  fi
  for round in $(seq 1 "$repeat"); do
    if wanted aasa-audit; then
      for t in $threads; do
        for variant in $variants; do
          rm -rf "$dir/out"
          case $variant in
            default) name="aasa-audit-${t}t"; extra=() ;;
            origin-only) name="aasa-audit-origin-${t}t"; extra=(--no-ua-check) ;;
            *) log "VARIANTS: default or origin-only"; exit 2 ;;
          esac
          # --no-cdn: this machine has no internet, so Apple's CDN cannot be reached.
          run "$name" "$size" "$audit" audit "$list" --out "$dir/out" --concurrency "$concurrency" --fetch-threads "$t" \
            --no-cdn "${extra[@]}" "${dead_resolve[@]}" --resolve "*:443:$addr" --cacert "$ca" --allow-network 127.0.0.0/8
          [ "$scenario" = stress ] && python3 "$root/Scripts/bench_stress.py" round "$dir/out" "$name" "$size" "$dir/stress.tsv" \
            "$(tail -n 1 "$dir/time.txt" | cut -d' ' -f1)"
          if [ -n "${BASELINE_BINARY:-}" ]; then
            rm -rf "$dir/out"
            run "${name/aasa-audit-/aasa-audit-baseline-}" "$size" "$BASELINE_BINARY" audit "$list" --out "$dir/out" \
              --concurrency "$concurrency" --fetch-threads "$t" --no-cdn "${extra[@]}" "${dead_resolve[@]}" \
              --resolve "*:443:$addr" --cacert "$ca" --allow-network 127.0.0.0/8
          fi
        done
      done
    fi
    if [ "$scenario" != dead ] && wanted curl-parallel; then
      run curl-parallel "$n" curl --parallel --parallel-max "$concurrency" --http2 -s --cacert "$ca" \
        --resolve "*:443:$addr" --config "$dir/lists/$scenario-$n.curl"
    fi
    wanted aiohttp-uvloop && run aiohttp-uvloop "$size" "$dir/venv/bin/python" "$root/Scripts/bench_probe.py" "$list" "$ca" "$concurrency" "$addr"
    wanted aiohttp-uvloop-pool && run aiohttp-uvloop-pool "$size" "$dir/venv/bin/python" "$root/Scripts/bench_probe.py" "$list" "$ca" "$concurrency" "$addr" pool
  done
  done
done
kill "$(cat "$dir/run/nginx.pid")" 2>/dev/null || true
[ -f "$dir/run/silent.pid" ] && kill "$(cat "$dir/run/silent.pid")" 2>/dev/null || true
echo
python3 "$root/Scripts/bench_summary.py" "$dir/results.md" "$floor_us"
[ "$scenario" = stress ] && exec python3 "$root/Scripts/bench_stress.py" verdict "$dir/stress.tsv"
exit 0
