#!/usr/bin/env bash
# Installs the Debian packages aasa-audit needs, when they are missing:
#
#   Scripts/install-deps.sh           to build and run it: libcurl (OpenSSL flavour), libssl,
#                                     libidn2, libpsl, jemalloc and SQLite headers, pkg-config, CA
#                                     certificates (about 20 MB)
#   Scripts/install-deps.sh test      also what the test suite drives as real programs (about
#                                     450 MB): Python's jsonschema and prometheus_client (reports
#                                     held to docs/report.schema.json, metrics read by the real
#                                     parser), Chromium (serve's form submitted in a browser),
#                                     Alertmanager, Prometheus' promtool, node_exporter (the
#                                     shipped rules, dashboard and --metrics file), pre-commit,
#                                     openssl and curl (Scripts/sanitize.sh's loopback world), and
#                                     nginx (an HTTP/2 server as sites run it, for the fetcher);
#                                     and PyPI's mcp 2.3.0, the reference MCP client (`mcp`'s
#                                     tests), in a virtual environment of its own:
#                                     ~/.cache/aasa-audit/mcp-client
#   Scripts/install-deps.sh release   also what Scripts/release.sh and test-release.sh use
#
# Uses apt-get as root, or through sudo. Does nothing when everything is there.
set -euo pipefail

packages=(libcurl4-openssl-dev libssl-dev libidn2-dev libpsl-dev libjemalloc-dev libsqlite3-dev pkg-config ca-certificates)
tests=(python3 python3-jsonschema python3-prometheus-client chromium prometheus-alertmanager prometheus prometheus-node-exporter pre-commit openssl curl nginx-light python3-venv)
case "${1:-}" in
  "") ;;
  test) packages+=("${tests[@]}") ;;
  release) packages+=("${tests[@]}" dpkg-dev fakeroot patchelf lintian mmdebstrap openssl) ;;
  *) echo "install-deps: say nothing (build), test or release, not '$1'" >&2; exit 2 ;;
esac
# PyPI's reference MCP client, beside Debian's Python (its jsonschema seen through
# --system-site-packages), once apt has installed python3-venv.
mcp_client() {
  [ "${1:-}" = test ] || [ "${1:-}" = release ] || return 0
  local venv="${XDG_CACHE_HOME:-$HOME/.cache}/aasa-audit/mcp-client"
  [ -x "$venv/bin/python" ] && "$venv/bin/python" -c 'import mcp' 2>/dev/null && return 0
  /usr/bin/python3 -m venv --system-site-packages "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "mcp==2.3.0"
}
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then mcp_client "${1:-}"; exit 0; fi

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
mcp_client "${1:-}"
