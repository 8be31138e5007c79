#!/usr/bin/env bash
# Renders an HTML report in headless Chromium and writes a PNG, to look at a report the way a
# browser shows it (the report is self-contained: it works from file://).
#
#   Scripts/screenshot-report.sh REPORT.html OUT.png [FRAGMENT] [WIDTHxHEIGHT]
#
# FRAGMENT selects the filter as the page keeps it in its address: verdict=pass, verdict=all&q=cdn.
# Needs Debian's chromium (apt-get install --no-install-recommends chromium).
set -euo pipefail
report=$(realpath "$1")
out=$2
fragment=${3:+#$3}
size=${4:-1280x1600}
command -v chromium >/dev/null || { echo "chromium is not installed: apt-get install --no-install-recommends chromium" >&2; exit 2; }
chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars --window-size="${size/x/,}" \
  --screenshot="$out" "file://$report$fragment" 2>/dev/null
echo "$out"
