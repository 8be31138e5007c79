#!/usr/bin/env bash
# Installs the Debian packages aasa-audit needs to build and test, when they are missing
# (with the argument `release`, also those that make and test the release packages):
# libcurl (OpenSSL flavour), libidn2 and jemalloc headers, pkg-config, CA certificates, and Python's
# jsonschema and prometheus_client (the tests validate reports against
# docs/report.schema.json and metrics with the real Prometheus parser), Chromium (a test
# submits serve's check form in a real browser), Alertmanager (a test sends it --alertmanager's
# alerts on loopback), Prometheus' promtool (the shipped alert rules and dashboard are checked and
# unit-tested with it) and pre-commit (the shipped hook is run through `pre-commit try-repo`).
# Uses apt-get as root, or through sudo. Does nothing when everything is there.
set -euo pipefail

packages=(libcurl4-openssl-dev libssl-dev libidn2-dev libjemalloc-dev libsqlite3-dev pkg-config ca-certificates python3 python3-jsonschema python3-prometheus-client chromium prometheus-alertmanager prometheus pre-commit)
# `install-deps.sh release`: also what Scripts/release.sh and Scripts/test-release.sh use.
if [ "${1:-}" = "release" ]; then
  packages+=(dpkg-dev fakeroot patchelf lintian mmdebstrap openssl)
fi
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "install-deps: need root to install: ${missing[*]}" >&2
  exit 1
fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
