#!/usr/bin/env bash
# Looks at the history page the way a browser shows it: makes a 90-run, 1,000-domain history
# (Scripts/make-sample-history.py), writes its index.html with the built aasa-audit
# (`history --write-index`), and renders it in headless Chromium: the default view, the
# flapping filter and the stale-CDN filter.
#
#   Scripts/screenshot-index.sh [OUT_DIR] [DOMAINS] [RUNS]      (default: /tmp/aasa-index 1000 90)
#
# Prints the PNGs' paths, the page's size and the time writing it took. Needs chromium (apt).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-/tmp/aasa-index}
domains=${2:-1000}
runs=${3:-90}
rm -rf "$out/reports" && mkdir -p "$out"
python3 Scripts/make-sample-history.py "$domains" "$runs" "$out/reports"
swift build -c release --product aasa-audit >/dev/null
/usr/bin/time -f "index.html written in %e s (%M KB peak)" .build/release/aasa-audit history --out "$out/reports" --write-index >/dev/null
echo "index.html: $(wc -c < "$out/reports/index.html") bytes, history.json: $(wc -c < "$out/reports/history.json") bytes"
Scripts/screenshot-report.sh "$out/reports/index.html" "$out/index.png" "" 1280x1400
Scripts/screenshot-report.sh "$out/reports/index.html" "$out/index-flapping.png" "verdict=flapping" 1280x1000
Scripts/screenshot-report.sh "$out/reports/index.html" "$out/index-stale.png" "verdict=stale" 1280x1000
