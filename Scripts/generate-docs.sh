#!/usr/bin/env bash
# Regenerates what the docs derive from the code: docs/findings.md (the table of finding codes)
# and the findingCode enum of docs/report.schema.json. The tests fail when either is stale.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product aasa-audit >/dev/null
bin=$(swift build --show-bin-path)/aasa-audit
"$bin" explain --markdown > docs/findings.md
"$bin" explain --codes | python3 -c '
import json, sys
codes = [line.strip() for line in sys.stdin if line.strip()]
path = "docs/report.schema.json"
text = open(path).read()
start = text.index("\"findingCode\": {")
end = text.index("]", text.index("\"enum\": [", start)) + 1
quoted = [json.dumps(code) for code in codes]
body = ",\n        ".join(quoted)
text = text[:start] + "\"findingCode\": {\n      \"enum\": [\n        " + body + "\n      ]" + text[end:]
json.loads(text)
open(path, "w").write(text)
'
echo "updated docs/findings.md and docs/report.schema.json" >&2
