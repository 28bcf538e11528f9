#!/usr/bin/python3
"""The demo's notification receiver: what a pager, ticket queue or chat
would get from Alertmanager's webhooks (dashboards/alertmanager/).

    webhook.py PORT LOG

Listens on 127.0.0.1:PORT and appends every notification POSTed to it to
LOG as one JSON line: {"path": the receiver's URL path, "received": Unix
time, "notification": Alertmanager's webhook payload}.  GET of any path
returns LOG, so that a browser shows what arrived.
"""
import http.server
import json
import sys
import time


class Receiver(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        try:
            payload = json.loads(self.rfile.read(length))
        except ValueError:
            self.send_error(400, "not JSON")
            return
        line = {"path": self.path, "received": time.time(), "notification": payload}
        with open(self.server.log, "a") as out:
            out.write(json.dumps(line, sort_keys=True) + "\n")
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self):
        with open(self.server.log, "rb") as f:
            body = f.read()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, fmt, *args):
        sys.stderr.write("webhook: %s %s\n" % (self.address_string(), fmt % args))


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Receiver)
    server.log = sys.argv[2]
    open(server.log, "a").close()
    server.serve_forever()


if __name__ == "__main__":
    main()
