#!/usr/bin/env bash
# The Action's first step: downloads release AASA_AUDIT_VERSION from AASA_AUDIT_RELEASE_URL,
# checks the tarball against the release's SHA256SUMS (a mismatch stops the job), unpacks it
# under RUNNER_TEMP, installs the shared libraries it links when the runner lacks them, and puts
# its bin/ on GITHUB_PATH for the next steps.
set -euo pipefail
fail() { echo "::error::$*"; exit 1; }
version="${AASA_AUDIT_VERSION:-}"
[ -n "$version" ] || fail "the version input is empty: give a release, e.g. 0.2.0"
[ -n "${AASA_AUDIT_RELEASE_URL:-}" ] || fail "the release-url input is empty"
base="$AASA_AUDIT_RELEASE_URL/v$version"
name="aasa-audit-$version-linux-x86_64"
[ -n "${RUNNER_TEMP:-}" ] || fail "not on a runner: RUNNER_TEMP is unset"
work="$RUNNER_TEMP/aasa-audit-$version"
mkdir -p "$work"
cd "$work"
curl -fsSL --retry 3 --proto '=https,file' -o "$name.tar.gz" "$base/$name.tar.gz" \
  || fail "no release $version at $base ($name.tar.gz could not be downloaded): check the version input"
curl -fsSL --retry 3 --proto '=https,file' -o SHA256SUMS "$base/SHA256SUMS" \
  || fail "release $version at $base has no SHA256SUMS"
expected=$(awk -v file="$name.tar.gz" '$2 == file || $2 == "*" file { print $1 }' SHA256SUMS)
[ -n "$expected" ] || { echo "::error::SHA256SUMS of $version names no $name.tar.gz"; exit 1; }
echo "$expected  $name.tar.gz" | sha256sum -c --quiet - || {
  echo "::error::$name.tar.gz does not match the release's SHA256SUMS: not installed"
  exit 1
}
tar -xzf "$name.tar.gz"
binary="$work/$name/bin/aasa-audit"
# The libraries it links: libcurl (OpenSSL), libidn2, jemalloc, SQLite. Ubuntu 24.04 names libcurl libcurl4t64.
if ldd "$binary" | grep -q 'not found'; then
  # A runner's package lists may be days old: read them first, or a moved package is not found.
  sudo apt-get update -qq || fail "apt-get update failed: the libraries aasa-audit links cannot be installed"
  sudo apt-get install -y -qq libidn2-0 libpsl5 libjemalloc2 libsqlite3-0 ca-certificates >/dev/null
  sudo apt-get install -y -qq libcurl4t64 >/dev/null 2>&1 || sudo apt-get install -y -qq libcurl4 >/dev/null
fi
"$binary" --version
echo "$work/$name/bin" >> "${GITHUB_PATH:?not on a runner: GITHUB_PATH is unset}"
