#!/usr/bin/env python3
"""A loopback HTTPS server for Scripts/sanitize.sh: every host hN.sanitize.test serves file N of
a list (one path a line) at every path, Apple's CDN path included; a few hosts serve hostile
answers. Listens on 127.0.0.1 only, on a port the system picks, which it prints first."""
import http.server
import socketserver
import ssl
import sys

files = [line.rstrip("\n") for line in open(sys.argv[1], encoding="utf-8") if line.strip()]
cert, key = sys.argv[2], sys.argv[3]

HOSTILE = {
    "nul-body": (200, "application/json", b'{"applinks":{"details":[{"appIDs":["ABCDE12346.com.example.app"],"components":[{"/":"/a\x00b"}]}]}}'),
    "huge": (200, "application/json", b"[" + b"1," * 400_000 + b"1]"),
    "deep": (200, "application/json", b"[" * 100_000),
    "html": (200, "text/html", b"<!doctype html><title>app</title>" * 50),
    "empty": (200, "application/json", b""),
    "binary": (200, "application/octet-stream", bytes(range(256)) * 64),
    "bom": (200, "application/json", b'\xef\xbb\xbf{"origins":["https://a-very-long-registrable-name.com"]}'),
}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        host = (self.headers.get("Host") or "").split(":")[0]
        if self.path.startswith("/a/v1/"):
            host = self.path[len("/a/v1/"):]
        label = host.split(".")[0]
        status, kind, body = 404, "text/plain", b"not here"
        if label in HOSTILE:
            status, kind, body = HOSTILE[label]
        elif label.startswith("h") and label[1:].isdigit() and int(label[1:]) < len(files):
            status, kind = 200, "application/json"
            with open(files[int(label[1:])], "rb") as f:
                body = f.read()
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


server = Server(("127.0.0.1", 0), Handler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_address[1], flush=True)
server.serve_forever()
