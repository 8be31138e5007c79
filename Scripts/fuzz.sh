#!/usr/bin/env bash
# Builds the libFuzzer targets of Fuzz/ and runs each for a given time.
#
#   Scripts/fuzz.sh [SECONDS] [TARGET...]     default: 60 seconds, every target
#
# CI runs each for a bounded time (Scripts/fuzz.sh 20). FuzzChecks feeds bytes through the whole
# AASA pipeline (size, JSON, validation, rules); FuzzKinds every other kind's parser and checks
# (assetlinks, webauthn, passkey-endpoints, Windows, HarmonyOS; a selector byte first, its seeds
# the corpus's files of each kind); FuzzHostNames the host-name path through libidn2, inet_aton
# and libpsl (its seeds host names of every label length 1-64 under public and private suffixes,
# internationalised, in punycode, with a trailing dot);
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
[ ${#targets[@]} -gt 0 ] || targets=(FuzzChecks FuzzKinds FuzzHostNames FuzzMatcher FuzzSignedFiles)
shared=${AASA_AUDIT_SHARED:-../shared}

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
# FuzzKinds: each kind's files, behind the byte that selects their kind (AssociationFileLint's
# order: aasa, then the registry's), with the wants (0x80) and without.
kind_seeds() {
  local index=0
  for kind in aasa assetlinks webauthn passkey-endpoints windows harmony; do
    if [ -d "$shared/corpus" ]; then
      mapfile -t files < <(find "$shared/corpus" -type f -path "*/$kind/*" ! -name '*.md' ! -name '*.tsv' | sort)
      for file in "${files[@]:0:60}"; do
        name=$(echo "$file" | tr '/' '_')
        { printf "\\x$(printf %02x $index)"; cat "$file"; } >"$1/$name"
        { printf "\\x$(printf %02x $((index + 128)))"; cat "$file"; } >"$1/w-$name"
      done
    fi
    index=$((index + 1))
  done
  for seed in Fuzz/Seeds/*.json; do cp "$seed" "$1/"; done
}
# FuzzHostNames: host names of every label length under public and private suffixes.
host_seeds() {
  for length in $(seq 1 64); do
    label=$(printf 'a%.0s' $(seq 2 "$length"))z
    for suffix in com co.uk vercel.app github.io xn--p1ai рф bücher.de; do
      printf '%s' "$label.$suffix" >"$1/h$length-$suffix"
      printf '%s.' "shop.$label.$suffix" >"$1/d$length-$suffix"
      printf 'https://%s/path' "$label.$suffix" >"$1/u$length-$suffix"
    done
  done
}
for target in "${targets[@]}"; do
  corpus="$work/$target"
  mkdir -p "$corpus"
  if [ "$target" = FuzzKinds ]; then
    kind_seeds "$corpus"
  elif [ "$target" = FuzzHostNames ]; then
    host_seeds "$corpus"
  fi
  for seed in "${seeds[@]}"; do
    [ "$target" = FuzzKinds ] || [ "$target" = FuzzHostNames ] && break
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
  echo "== $target for $seconds s ($(find "$corpus" -type f | wc -l) seeds)" >&2
  Fuzz/.build/release/"$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="Fuzz/crashes/$target-" -print_final_stats=1 "$corpus" 2>&1 | tail -n 12
done
