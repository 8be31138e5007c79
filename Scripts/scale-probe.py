#!/usr/bin/env python3
"""Measures `audit` at scale on loopback, for docs/robustness.md (1M unique domains):

    Scripts/scale-probe.py BINARY DOMAINS OUT [--term-after SECONDS] [-- EXTRA AUDIT OPTIONS]

Runs `BINARY audit DOMAINS --out OUT --no-cdn` with every host sent to a TCP listener on
127.0.0.1 (`--connect-to` and `--allow-network`) that accepts and closes at once: each domain
is audited quickly, with real connections. Prints, as JSON: seconds from the start to the
first connection (the first request), wall seconds, peak RSS (KiB, from wait4), the exit
status, and with --term-after (SIGTERM that many seconds after the start) the seconds from
SIGTERM to the exit.
"""
import json
import os
import resource
import select
import signal
import socket
import subprocess
import sys
import threading
import time

args = sys.argv[1:]
extra = []
if "--" in args:
    extra = args[args.index("--") + 1:]
    args = args[:args.index("--")]
binary, domains, out = args[:3]
term_after = float(args[args.index("--term-after") + 1]) if "--term-after" in args else None

listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", 0))
listener.listen(4096)
port = listener.getsockname()[1]
first = {}


def accept():
    while True:
        try:
            connection, _ = listener.accept()
        except OSError:
            return
        first.setdefault("at", time.monotonic())
        connection.close()


threading.Thread(target=accept, daemon=True).start()
command = [binary, "audit", domains, "--out", out, "--no-cdn", "--connect-to", f"::127.0.0.1:{port}",
           "--allow-network", "127.0.0.1"] + extra
start = time.monotonic()
process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
termed = None
streams = [process.stdout, process.stderr]
while streams:
    timeout = None if term_after is None or termed else max(0, start + term_after - time.monotonic())
    ready, _, _ = select.select(streams, [], [], timeout)
    if not ready and term_after is not None and termed is None:
        process.send_signal(signal.SIGTERM)
        termed = time.monotonic()
        continue
    for stream in ready:
        chunk = os.read(stream.fileno(), 65536)
        if not chunk:
            streams.remove(stream)
_, status, usage = os.wait4(process.pid, 0)
end = time.monotonic()
print(json.dumps({
    "command": " ".join(command),
    "first_request_s": round(first["at"] - start, 3) if "at" in first else None,
    "wall_s": round(end - start, 2),
    "peak_rss_kib": usage.ru_maxrss,
    "exit": os.waitstatus_to_exitcode(status),
    "sigterm_to_exit_s": round(end - termed, 2) if termed else None,
}))
