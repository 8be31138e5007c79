#!/usr/bin/env bash
# Proves the release on a clean system: makes a minimal Debian bookworm root with mmdebstrap
# (no Swift in it), installs dist/aasa-audit_*_amd64.deb there with apt-get, and uses it:
# --version, lint of a good and a broken file (exit 0 and 1), check of an HTTPS host served on
# loopback with a CA made here (--cacert, --connect-to, --allow-network), man aasa-audit,
# systemd-analyze verify of the units, an audit into /var/lib/aasa-audit/reports, the tarball's
# binary; then purges the package and shows that nothing but the reports is left. Prints the
# time the install and the first check took.
#
#   Scripts/release.sh && Scripts/test-release.sh
#
# Needs root (mmdebstrap's root mode, chroot), mmdebstrap, openssl and python3, and Debian's
# package registry (the root and the package's dependencies come from it). About a minute.
set -euo pipefail
cd "$(dirname "$0")/.."

deb=$(ls dist/aasa-audit_*_amd64.deb)
tarball=$(ls dist/aasa-audit-*-linux-x86_64.tar.gz)
work=$(mktemp -d)
server=
cleanup() {
  [ -z "$server" ] || kill "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# A CA of this run's own, and check.aasa.test's certificate signed by it.
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$work/ca.key" -out "$work/ca.pem" -days 2 \
  -subj "/CN=aasa-audit release test CA" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -keyout "$work/server.key" -out "$work/server.csr" -subj "/CN=check.aasa.test" 2>/dev/null
printf 'subjectAltName=DNS:check.aasa.test\n' > "$work/san.ext"
openssl x509 -req -in "$work/server.csr" -CA "$work/ca.pem" -CAkey "$work/ca.key" -CAcreateserial -days 2 \
  -extfile "$work/san.ext" -out "$work/server.pem" 2>/dev/null

# The files: a good one served and linted, a broken one linted.
good='{"applinks":{"details":[{"appIDs":["QX7TM4K2RB.com.example.app"],"components":[{"/":"/products/*"}]}]}}'
printf '%s\n' "$good" > "$work/good.json"
printf '{"applinks":{"details":[{"appIDs":["not an app id"],"components":[{"/":7}]}]}\n' > "$work/broken.json"

# An HTTPS server on loopback: the good file at both locations, as JSON.
port_file="$work/port"
python3 - "$work" "$port_file" <<'PY' &
import http.server, ssl, sys
work, port_file = sys.argv[1], sys.argv[2]
body = open(f"{work}/good.json", "rb").read()
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        found = self.path in ("/.well-known/apple-app-site-association", "/apple-app-site-association")
        self.send_response(200 if found else 404)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body) if found else 0))
        self.end_headers()
        if found:
            self.wfile.write(body)
    def log_message(self, *args):
        pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(f"{work}/server.pem", f"{work}/server.key")
server.socket = context.wrap_socket(server.socket, server_side=True)
open(port_file, "w").write(str(server.server_address[1]))
server.serve_forever()
PY
server=$!
for _ in $(seq 50); do [ -s "$port_file" ] && break; sleep 0.1; done
port=$(cat "$port_file")

# What runs inside the root.
cat > "$work/inside.sh" <<EOF
#!/bin/sh
set -eu
cd /root
say() { printf '\n== %s\n' "\$*"; }
expect() { want=\$1; shift; set +e; "\$@"; got=\$?; set -e; [ "\$got" = "\$want" ] || { echo "FAILED: \$* exited \$got, not \$want"; exit 1; }; }

say "no Swift here"
! command -v swift
! ls /usr/lib/swift 2>/dev/null

say "apt-get install ./$(basename "$deb")"
start=\$(date +%s.%N)
apt-get install -y -q ./$(basename "$deb") >/tmp/install.log 2>&1 || { cat /tmp/install.log; exit 1; }
echo "install: \$(echo "\$(date +%s.%N) - \$start" | bc) s"

say "aasa-audit --version"
aasa-audit --version

say "lint: a good file (exit 0), a broken one (exit 1)"
expect 0 aasa-audit lint good.json
expect 1 aasa-audit lint broken.json

say "check of an HTTPS host on loopback, with this run's CA"
start=\$(date +%s.%N)
expect 0 aasa-audit check check.aasa.test --cacert ca.pem --connect-to check.aasa.test:443:127.0.0.1:$port --allow-network 127.0.0.1 --no-cdn --app-id QX7TM4K2RB.com.example.app
echo "first check: \$(echo "\$(date +%s.%N) - \$start" | bc) s"

say "man aasa-audit"
man -P cat aasa-audit 2>/dev/null | head -4

say "systemd-analyze verify"
systemd-analyze verify /lib/systemd/system/aasa-audit.service /lib/systemd/system/aasa-audit.timer /lib/systemd/system/aasa-audit-serve.service
echo "units verify"
# Every page a unit names is one systemd can show: a man page, a web page, or a file installed as named.
for doc in \$(sed -n 's/^Documentation=//p' /lib/systemd/system/aasa-audit*); do
  case "\$doc" in
    man:*|https://*) ;;
    file://*) test -f "\${doc#file://}" || { echo "a unit's Documentation= names \$doc, which is not installed"; exit 1; } ;;
    *) echo "a unit's Documentation= names \$doc"; exit 1 ;;
  esac
done
page=\$(man -P cat aasa-audit 2>/dev/null)
case "\$page" in
  *"EXIT STATUS"*FILES*EXAMPLES*) ;;
  *) echo "the man page has no EXIT STATUS, FILES or EXAMPLES"; exit 1 ;;
esac
echo "units' documentation and the man page's sections are there"

say "an audit into /var/lib/aasa-audit/reports"
printf 'check.aasa.test QX7TM4K2RB.com.example.app\n' > /root/domains.txt
expect 0 aasa-audit audit /root/domains.txt --out /var/lib/aasa-audit/reports --cacert ca.pem --connect-to check.aasa.test:443:127.0.0.1:$port --allow-network 127.0.0.1 --no-cdn
ls /var/lib/aasa-audit/reports

say "serve: the page and the API of those reports"
aasa-audit serve --out /var/lib/aasa-audit/reports --listen 127.0.0.1:18080 > /root/serve.log 2>&1 &
serve_pid=\$!
# A request with bash's /dev/tcp (this script is sh; the root has no curl).
get() {
  bash -c 'exec 3<>/dev/tcp/127.0.0.1/18080; printf "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n" "\$0" >&3; cat <&3' "\$1"
}
for attempt in \$(seq 50); do (get /healthz | grep -q '^ok') 2>/dev/null && break; sleep 0.1; done
get /healthz | head -1
get /api/v1/latest | grep -q '"check.aasa.test"' || { echo "FAILED: /api/v1/latest"; cat /root/serve.log; exit 1; }
get / | grep -q '<nav class="serve"' || { echo "FAILED: the history page"; exit 1; }
kill -TERM \$serve_pid && wait \$serve_pid || true
grep -c ' GET ' /root/serve.log

say "the drop-ins: systemd reads them; the metrics one, run as the unit runs it, feeds node_exporter"
mkdir -p /etc/systemd/system/aasa-audit.service.d /etc/systemd/system/aasa-audit-serve.service.d
cp /usr/share/aasa-audit/systemd/metrics.conf /etc/systemd/system/aasa-audit.service.d/
cp /usr/share/aasa-audit/systemd/serve-token.conf /etc/systemd/system/aasa-audit-serve.service.d/
systemd-analyze verify aasa-audit.service aasa-audit-serve.service
# The unit's throwaway user (DynamicUser=yes): a uid of no account, owning the state folder and
# reading its credentials' copies; node_exporter's folder is root's, as Debian makes it.
unit_uid=61234
mkdir -p /var/lib/prometheus/node-exporter /run/credentials/aasa-audit.service
chown -R \$unit_uid:\$unit_uid /var/lib/aasa-audit
: > /run/credentials/aasa-audit.service/notify-url
chown \$unit_uid /run/credentials/aasa-audit.service/notify-url
cp ca.pem /tmp/ca.pem && chmod 644 /tmp/ca.pem
printf 'check.aasa.test QX7TM4K2RB.com.example.app\n' >> /etc/aasa-audit/domains.txt
# The recipes compose (issue 56: the docs' own systemctl-edit recipe and this drop-in both
# replaced ExecStart, and the later one silently dropped --metrics): the units alone own
# ExecStart; the drop-ins and the admin's options file only fill its variables.
if grep -l '^ExecStart' /etc/systemd/system/aasa-audit*.service.d/*.conf; then
  echo "FAILED: a shipped drop-in replaces ExecStart (above)"; exit 1
fi
# The admin's options, as install.md says to give them; the test's own (its CA, the loopback
# server) go in the same line, so that the command below is exactly the unit's.
printf 'AASA_AUDIT_OPTIONS=--notify-on changes --junit /var/lib/aasa-audit/junit.xml --cacert /tmp/ca.pem --connect-to check.aasa.test:443:127.0.0.1:$port --allow-network 127.0.0.1 --no-cdn\n' >> /etc/aasa-audit/audit-options
# The command line as systemd makes it: the unit's Environment=, then the drop-ins' in name
# order, then its EnvironmentFile= (which wins); \$VAR in ExecStart split into words, %d the
# credentials' folder. (systemd-analyze verify above has read the same files.)
unit_command() { # UNIT
  (
    for file in /lib/systemd/system/\$1 /etc/systemd/system/\$1.d/*.conf; do
      sed -n 's/^Environment=//p' "\$file" | while read -r line; do
        case "\$line" in \"*) echo "\$line" | sed 's/^"//; s/"\$//' ;; *) echo "\$line" | tr ' ' '\n' ;; esac
      done
    done
    environment_file=\$(sed -n 's/^EnvironmentFile=-\{0,1\}//p' /lib/systemd/system/\$1)
    if [ -f "\$environment_file" ]; then grep -v '^#' "\$environment_file" || true; fi
  ) | sed 's|%d|/run/credentials/'"\$1"'|g' > /tmp/unit.env
  start=\$(sed -n 's/^ExecStart=\(..*\)/\1/p' /lib/systemd/system/\$1 | sed 's|%d|/run/credentials/'"\$1"'|g')
  while IFS= read -r assignment; do
    if [ -n "\$assignment" ]; then export "\$assignment"; fi
  done < /tmp/unit.env
  eval "echo \$start"
}
command=\$(unit_command aasa-audit.service)
echo "the unit runs: \$command"
case "\$command" in *'--metrics /var/lib/aasa-audit/aasa-audit.prom'*'--notify-on changes --junit'*) ;;
  *) echo "FAILED: the unit's command lost the drop-in's or the admin's options"; exit 1 ;; esac
expect 0 setpriv --reuid=\$unit_uid --regid=\$unit_uid --clear-groups sh -c "\$command"
post=\$(sed -n 's/^ExecStopPost=+//p' /etc/systemd/system/aasa-audit.service.d/metrics.conf)
eval "\$post"
grep -q '^aasa_audit_run_sound 1' /var/lib/prometheus/node-exporter/aasa-audit.prom \
  || { echo "FAILED: node_exporter's folder has no metrics from the unit"; exit 1; }
grep -q '<testsuites' /var/lib/aasa-audit/junit.xml || { echo "FAILED: the admin's --junit was not applied"; exit 1; }
ls -l /var/lib/prometheus/node-exporter/
# The recipe the docs gave before: the unit's user cannot write node_exporter's folder, and the
# error names the option, the file and why.
set +e
said=\$(setpriv --reuid=\$unit_uid --regid=\$unit_uid --clear-groups aasa-audit audit /etc/aasa-audit/domains.txt --out /var/lib/aasa-audit/reports --metrics /var/lib/prometheus/node-exporter/direct.prom --no-cdn 2>&1)
status=\$?
set -e
[ \$status = 2 ] && echo "\$said" | grep -q 'cannot write --metrics /var/lib/prometheus/node-exporter/direct.prom: Permission denied' \
  || { echo "FAILED: an unwritable --metrics said (\$status): \$said"; exit 1; }
echo "an unwritable --metrics: \$said"
# serve's token drop-in: the token a credential, the file root's only.
openssl rand -hex 32 2>/dev/null | install -m 600 /dev/stdin /etc/aasa-audit/serve-token || head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' | install -m 600 /dev/stdin /etc/aasa-audit/serve-token
grep -q 'LoadCredential=serve-token:/etc/aasa-audit/serve-token' /etc/systemd/system/aasa-audit-serve.service.d/serve-token.conf
printf 'AASA_AUDIT_SERVE_OPTIONS=--listen 127.0.0.1:9090 --server-name audits.example.com\n' >> /etc/aasa-audit/serve-options
serve_command=\$(unit_command aasa-audit-serve.service)
echo "serve's unit runs: \$serve_command"
case "\$serve_command" in *'--token-file /run/credentials/aasa-audit-serve.service/serve-token --listen 127.0.0.1:9090'*) ;;
  *) echo "FAILED: serve's command lost the token drop-in's or the admin's options"; exit 1 ;; esac

say "the tarball's binary"
mkdir -p /root/tarball && tar -xzf $(basename "$tarball") -C /root/tarball
/root/tarball/*/bin/aasa-audit --version
expect 1 /root/tarball/*/bin/aasa-audit lint broken.json

say "purge: nothing left but the reports"
dpkg -L aasa-audit | sort > /root/files
apt-get purge -y -q aasa-audit >/dev/null 2>&1
left=""
while read -r path; do
  [ -f "\$path" ] && left="\$left \$path"
done < /root/files
[ -z "\$left" ] || { echo "FAILED: left behind:\$left"; exit 1; }
[ ! -e /etc/aasa-audit ] || { echo "FAILED: /etc/aasa-audit left behind"; exit 1; }
ls /var/lib/aasa-audit/reports/latest.json
echo "nothing of the package is left; the reports are"

say "release test passed"
EOF
chmod +x "$work/inside.sh"

time mmdebstrap --variant=minbase --include=ca-certificates,man-db,systemd,bc bookworm /dev/null \
  --customize-hook="copy-in $deb $tarball $work/ca.pem $work/good.json $work/broken.json $work/inside.sh /root" \
  --customize-hook='chroot "$1" /root/inside.sh'
