#!/usr/bin/env bash
# Builds the libFuzzer targets of Fuzz/ and runs each for a given time.
#
#   Scripts/fuzz.sh [SECONDS] [TARGET...]     default: 60 seconds, FuzzChecks, FuzzMatcher, FuzzSignedFiles
#
# FuzzChecks feeds bytes through the whole file pipeline (size, JSON, validation, rules);
# FuzzMatcher feeds "URL\nFILE" to the matcher; FuzzSignedFiles feeds bytes to the signed-file
# opener (OpenSSL's CMS) and the content to the checks, its seeds signed here with a
# throwaway key, plus the hostile shapes in Fuzz/Seeds/signed. Seeds come from ../shared/corpus/aasa when it
# is there, else from Fuzz/Seeds. Crashes land in Fuzz/crashes/; each one found becomes a
# file in Tests/Fixtures/fuzz-regressions/, which the test suite replays.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(FuzzChecks FuzzMatcher FuzzSignedFiles)

mkdir -p .build-fuzz Fuzz/crashes
ln -sfn "$root" .build-fuzz/aasa-audit
(cd Fuzz && swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
seeds=()
if [ -d ../shared/corpus/aasa ]; then
  seeds=(../shared/corpus/aasa/*.json)
else
  seeds=(Fuzz/Seeds/*.json)
fi
for target in "${targets[@]}"; do
  corpus="$work/$target"
  mkdir -p "$corpus"
  for seed in "${seeds[@]}"; do
    if [ "$target" = FuzzMatcher ]; then
      { echo "/path/to/x?q=1&lang=en#top"; cat "$seed"; } > "$corpus/$(basename "$seed")"
    elif [ "$target" = FuzzSignedFiles ]; then
      if [ ! -f "$work/signer.pem" ]; then
        openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=example.com \
          -keyout "$work/signer.key" -out "$work/signer.pem" 2>/dev/null
      fi
      openssl smime -sign -nodetach -outform DER -signer "$work/signer.pem" -inkey "$work/signer.key" \
        -in "$seed" -out "$corpus/$(basename "$seed").p7"
    else
      cp "$seed" "$corpus/"
    fi
  done
  # Hostile signed shapes made once by hand (issue 25): a repeated digest-algorithm list, an
  # encrypted PEM block, a plain PEM block, nesting 300 deep, a good file.
  [ "$target" = FuzzSignedFiles ] && cp Fuzz/Seeds/signed/* "$corpus/"
  echo "== $target for $seconds s (${#seeds[@]} seeds)" >&2
  Fuzz/.build/release/"$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="Fuzz/crashes/$target-" -print_final_stats=1 "$corpus" 2>&1 | tail -n 12
done
