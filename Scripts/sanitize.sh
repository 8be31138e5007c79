#!/usr/bin/env bash
# The sanitizer pass (issue 54): an AddressSanitizer build of the command (without jemalloc,
# whose allocator would hide ASan's), run over what real sites serve, every path that reads it:
#
#   - lint over every file under ../shared/corpus (all kinds; with and without expectations),
#     the fuzz seeds and the fuzz regressions;
#   - audit and check of every corpus file and of hostile answers, served on loopback over TLS;
#   - serve answering checks of them (passkeys included), and MCP calls at /mcp, then stopped.
#
# Any AddressSanitizer report, or a process ended by a signal, fails the pass. First, a planted
# use-after-free (Scripts/sanitize/planted.swift, the bug of issue 54) built the same way must
# fail it: proof that the sanitizer is on and that its reports are read. UndefinedBehaviorSanitizer
# is not offered by Swift on Linux (swiftc: "unsupported option '-sanitize=undefined'").
#
#   Scripts/sanitize.sh            (CI runs it; about 5 minutes on 2 cores, most of it the build)
#
# Without ../shared (a user's clone), the lint and audit parts use the fuzz seeds alone.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
scratch=.build-asan
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  [ -n "${SANITIZE_KEEP:-}" ] && echo "sanitize: kept $work" || rm -rf "$work"
}
trap cleanup EXIT

export ASAN_OPTIONS=halt_on_error=1:exitcode=86:detect_leaks=0:abort_on_error=0
failures=0

# Runs a command (its output to a log); fails the pass on an ASan report or a signal. Exit
# codes 0 to 3 are verdicts (pass, fail, usage, auditor problems), not faults.
judge() {
  local name=$1
  shift
  local log="$work/$name.log" status=0
  "$@" >"$log" 2>&1 </dev/null || status=$?
  if grep -q "ERROR: AddressSanitizer\|runtime error:" "$log" || [ "$status" -gt 3 ]; then
    echo "sanitize: FAULT in $name (exit $status):" >&2
    grep -A30 "ERROR: AddressSanitizer" "$log" >&2 || tail -n 30 "$log" >&2
    return 1
  fi
  echo "sanitize: $name: clean (exit $status)"
}

# The planted fault first: a pass that cannot see it proves nothing.
swiftc -sanitize=address -I Sources/CPSL -lpsl Scripts/sanitize/planted.swift -o "$work/planted" 2>/dev/null
if judge planted "$work/planted" >/dev/null 2>&1; then
  echo "sanitize: the planted use-after-free was not caught: the pass is blind" >&2
  exit 1
fi
echo "sanitize: the planted use-after-free was caught"

AASA_AUDIT_NO_JEMALLOC=1 swift build --product aasa-audit --sanitize=address --scratch-path "$scratch" 2>&1 | tail -n 1
bin=$root/$scratch/debug/aasa-audit
nm "$bin" >"$work/symbols"
grep -q __asan_init "$work/symbols" || {
  echo "sanitize: $bin is not instrumented" >&2
  exit 1
}

# The files, by kind: the corpus's folders name their kind (aasa/, assetlinks/, webauthn/, ...).
# What each kind's file is expected to say, once: `lint`'s options (--WORD VALUE) and the
# domains.txt tokens (WORD:VALUE; an app ID bare; ios:none for a kind beside the AASA) are made
# from it.
declare -A wants=(
  [aasa]="app-id=ABCDE12346.com.example.app passkeys"
  [assetlinks]="android=com.example.app passkeys"
  [webauthn]="origin=https://login.an-ordinary-shop-name.com"
  [passkey-endpoints]="passkeys"
  [windows]="windows=Contoso.ExampleApp_8wekyb3d8bbwe"
  [harmony]="harmony=5765880207854649689"
)
declare -A expect=() token=()
for kind in "${!wants[@]}"; do
  options="" tokens=""
  [ "$kind" = aasa ] || tokens="ios:none"
  for want in ${wants[$kind]}; do
    word=${want%%=*}
    value=${want#*=}
    [ "$value" = "$want" ] && value=""
    options+=" --$word${value:+ $value}"
    if [ "$word" = app-id ]; then tokens+=" $value"; else tokens+=" $word${value:+:$value}"; fi
  done
  expect[$kind]=$options
  token[$kind]=$tokens
done
shared=${AASA_AUDIT_SHARED:-../shared}
: >"$work/files"
for kind in "${!expect[@]}"; do
  : >"$work/files-$kind"
  if [ -d "$shared/corpus" ]; then
    find "$shared/corpus" -type f -path "*/$kind/*" ! -name '*.md' ! -name '*.tsv' | sort >>"$work/files-$kind"
  fi
  if [ "$kind" = aasa ]; then
    find Fuzz/Seeds -maxdepth 1 -name '*.json' | sort >>"$work/files-$kind"
    [ -d Tests/Fixtures/fuzz-regressions ] && find Tests/Fixtures/fuzz-regressions -type f | sort >>"$work/files-$kind"
  fi
  cat "$work/files-$kind" >>"$work/files"
done
echo "sanitize: $(wc -l <"$work/files") files"

for kind in "${!expect[@]}"; do
  [ -s "$work/files-$kind" ] || continue
  mapfile -t files <"$work/files-$kind"
  # shellcheck disable=SC2086
  judge "lint-$kind" "$bin" lint --kind "$kind" "${files[@]}" || failures=$((failures + 1))
  # shellcheck disable=SC2086
  judge "lint-$kind-expecting" "$bin" lint --kind "$kind" ${expect[$kind]} --format sarif "${files[@]}" ||
    failures=$((failures + 1))
done
mapfile -t every <"$work/files"
judge lint-by-content "$bin" lint --json "${every[@]}" || failures=$((failures + 1))
judge lint-signed "$bin" lint Fuzz/Seeds/signed/* || failures=$((failures + 1))
# The host sweep through libpsl: webauthn origins of every label length 1-64 under public and
# private suffixes, internationalised and in punycode (a file of 5 labels at most each).
python3 - "$work/sweep" <<'PY'
import json, os, sys
os.makedirs(sys.argv[1])
for length in range(1, 65):
    label = "a" * (length - 1) + "z"
    origins = [f"https://{label}.{suffix}" for suffix in ["com", "co.uk", "vercel.app", "github.io", "xn--p1ai", "рф"]]
    origins += [f"https://shop.{label}.bücher.de.", f"{label}.netlify.app"]
    with open(f"{sys.argv[1]}/{length}.json", "w", encoding="utf-8") as f:
        json.dump({"origins": origins}, f, ensure_ascii=False)
PY
judge lint-host-sweep "$bin" lint --kind webauthn --origin https://login.an-ordinary-shop-name.com "$work"/sweep/*.json ||
  failures=$((failures + 1))

# Loopback: a test CA and a certificate for *.sanitize.test, a server for every file.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=sanitize-ca \
  -addext basicConstraints=critical,CA:TRUE -keyout "$work/ca.key" -out "$work/ca.pem" 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=sanitize.test \
  -keyout "$work/site.key" -out "$work/site.csr" 2>/dev/null
printf 'subjectAltName=DNS:*.sanitize.test,DNS:sanitize.test\n' >"$work/ext"
openssl x509 -req -in "$work/site.csr" -CA "$work/ca.pem" -CAkey "$work/ca.key" -CAcreateserial -days 2 \
  -extfile "$work/ext" -out "$work/site.pem" 2>/dev/null
python3 Scripts/sanitize/corpus_server.py "$work/files" "$work/site.pem" "$work/site.key" >"$work/port" &
pids+=($!)
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
port=$(head -n 1 "$work/port")
network=(--connect-to "::127.0.0.1:$port" --allow-network 127.0.0.0/8 --cacert "$work/ca.pem"
  --cdn-url https://cdn.sanitize.test/a/v1/)

index=0
: >"$work/domains.txt"
for kind in aasa assetlinks webauthn passkey-endpoints windows harmony; do
  while IFS= read -r _; do
    echo "h$index.sanitize.test ${token[$kind]}" >>"$work/domains.txt"
    index=$((index + 1))
  done <"$work/files-$kind"
done
for label in nul-body huge deep html empty binary; do echo "$label.sanitize.test ABCDE12346.com.example.app applepay webapp:https://app.example.com/app" >>"$work/domains.txt"; done
echo "bom.sanitize.test ios:none origin:https://login.an-ordinary-shop-name.com passkeys" >>"$work/domains.txt"
judge audit "$bin" audit "$work/domains.txt" --out "$work/reports" --timeout 20 "${network[@]}" ||
  failures=$((failures + 1))
judge check "$bin" check --json h0.sanitize.test bom.sanitize.test nul-body.sanitize.test --passkeys \
  --origin https://login.an-ordinary-shop-name.com --applepay on --webapp https://app.example.com/app "${network[@]}" || failures=$((failures + 1))

# serve, answering checks, then stopped as systemd stops it.
serve_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$bin" serve --out "$work/reports" --listen "127.0.0.1:$serve_port" --max-checks 4 --checks-per-minute 1000 \
  "${network[@]}" >"$work/serve.log" 2>&1 &
serve_pid=$!
pids+=("$serve_pid")
for _ in $(seq 100); do curl -fsS "http://127.0.0.1:$serve_port/healthz" >/dev/null 2>&1 && break; sleep 0.2; done
for query in "domain=bom.sanitize.test&ios=none&passkeys=on&origin=https://login.an-ordinary-shop-name.com" \
  "domain=h0.sanitize.test&app-id=ABCDE12346.com.example.app&passkeys=on" "domain=huge.sanitize.test" \
  "domain=nul-body.sanitize.test" "domain=deep.sanitize.test&android=com.example.app"; do
  curl -sS -o /dev/null "http://127.0.0.1:$serve_port/api/v1/check?$query" || true
  curl -sS -o /dev/null "http://127.0.0.1:$serve_port/check?$query" || true
done
# /mcp: a session, a check and a batch of the hostile hosts (progress as events), a file with a
# NUL linted, garbage and an oversized body; one session left open when SIGTERM comes.
mcp=(-sS -o /dev/null -H "Content-Type: application/json" -H "Accept: application/json, text/event-stream")
mcp_session() {
  curl -sS -D - -o /dev/null -H "Content-Type: application/json" -H "Accept: application/json" \
    --data '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"sanitize","version":"1"}}}' \
    "http://127.0.0.1:$serve_port/mcp" | tr -d '\r' | sed -n 's/^[Mm]cp-[Ss]ession-[Ii]d: //p'
}
session=$(mcp_session)
for call in '{"name":"check_domain","arguments":{"domain":"nul-body.sanitize.test","passkeys":true}}' \
  '{"name":"audit_domains","arguments":{"domains":["h0.sanitize.test","huge.sanitize.test","deep.sanitize.test android:com.example.app","html.sanitize.test","binary.sanitize.test","not a host\u0000"]}}' \
  '{"name":"lint_file","arguments":{"text":"{\"applinks\":{\"details\":[{\"appIDs\":[\"\u0000\"]}]}}"}}'; do
  curl "${mcp[@]}" -H "Mcp-Session-Id: $session" \
    --data "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"_meta\":{\"progressToken\":7},$(printf '%s' "$call" | cut -c2-)}" \
    "http://127.0.0.1:$serve_port/mcp" || true
done
curl "${mcp[@]}" -H "Mcp-Session-Id: $session" --data '{"jsonrpc":' "http://127.0.0.1:$serve_port/mcp" || true
head -c 1100000 /dev/zero | tr '\0' ' ' | curl "${mcp[@]}" -H "Mcp-Session-Id: $session" --data-binary @- \
  "http://127.0.0.1:$serve_port/mcp" || true
curl -sS -o /dev/null -X DELETE -H "Mcp-Session-Id: $session" "http://127.0.0.1:$serve_port/mcp" || true
session=$(mcp_session)
kill -TERM "$serve_pid" 2>/dev/null || true
serve_status=0
wait "$serve_pid" || serve_status=$?
if grep -q "ERROR: AddressSanitizer" "$work/serve.log" || [ "$serve_status" -gt 3 ]; then
  echo "sanitize: FAULT in serve (exit $serve_status):" >&2
  grep -A30 "ERROR: AddressSanitizer" "$work/serve.log" >&2 || tail -n 30 "$work/serve.log" >&2
  failures=$((failures + 1))
else
  echo "sanitize: serve: clean (exit $serve_status)"
fi

if [ "$failures" -gt 0 ]; then
  echo "sanitize: $failures part(s) found a fault" >&2
  exit 1
fi
echo "sanitize: every part clean"
