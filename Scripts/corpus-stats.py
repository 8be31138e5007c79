#!/usr/bin/env python3
"""What teams get wrong, in numbers: lints every file of the real corpora
(../shared/corpus/wild/aasa, ../shared/corpus/aasa, ../shared/corpus/wild/assetlinks) with the
built aasa-audit and prints docs/real-files.md: verdicts and the commonest error and warning
codes (a file counted once per code).

    swift build --product aasa-audit && Scripts/corpus-stats.py > docs/real-files.md
"""
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.path.join(ROOT, ".build", "debug", "aasa-audit")
# (title, folder, the name each file is linted under: its own, or the one that says its kind)
CORPORA = [
    ("AASA files teams deployed (`corpus/wild/aasa`)", "../shared/corpus/wild/aasa", None),
    ("AASA files of the first corpus (`corpus/aasa`)", "../shared/corpus/aasa", None),
    ("`assetlinks.json` files teams deployed (`corpus/wild/assetlinks`)", "../shared/corpus/wild/assetlinks",
     "assetlinks.json"),
]


def lint(path, name=None):
    with tempfile.TemporaryDirectory() as scratch:
        if name:
            # Under the name that says what it is, as it is served.
            shutil.copyfile(os.path.join(ROOT, path), os.path.join(scratch, name))
            path = os.path.join(scratch, name)
        result = subprocess.run([BINARY, "lint", path, "--json"], capture_output=True, text=True, cwd=ROOT)
    return json.loads(result.stdout)[0]


def main():
    if not os.path.exists(BINARY):
        sys.exit("build first: swift build --product aasa-audit")
    lines = [
        "# What teams get wrong, in numbers",
        "",
        "Every file of the real corpora in `../shared/corpus` linted by `aasa-audit lint FILE --json`, as a",
        "website's CI would (an `assetlinks.json` under that name), with no `--app-id` (so nothing expects a",
        "particular app). Made by",
        "`Scripts/corpus-stats.py > docs/real-files.md` after `swift build --product aasa-audit`; a",
        "file counts once per code.",
    ]
    for title, folder, served_as in CORPORA:
        directory = os.path.join(ROOT, folder)
        if not os.path.isdir(directory):
            continue
        names = sorted(n for n in os.listdir(directory) if not n.endswith((".tsv", ".md")))
        verdicts = collections.Counter()
        codes = collections.Counter()
        for name in names:
            record = lint(os.path.join(folder, name), served_as)
            verdicts[record["verdict"]] += 1
            for code in {(f["code"], f["severity"]) for f in record["findings"] if f["severity"] != "info"}:
                codes[code] += 1
        total = len(names)
        lines += ["", f"## {title}", "", f"{total} files: " + ", ".join(
            f"{verdicts[v]} {v} ({100 * verdicts[v] / total:.0f}%)" for v in ("pass", "warn", "fail")) + ".", "",
            "| code | severity | files |", "| --- | --- | --- |"]
        for (code, severity), count in sorted(codes.items(), key=lambda item: (-item[1], item[0]))[:15]:
            lines.append(f"| [`{code}`](findings.md#{code}) | {severity} | {count} |")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
