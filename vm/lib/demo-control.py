#!/usr/bin/python3
"""The Debian demo guest's control port (vm/lib/demo-debian.sh):

    demo-control.py PORT DIR

GET /NAME serves DIR/NAME (the workloads' state, e.g. disk.written);
POST /cgi-bin/stop?NAME stops the unit demo-NAME.service, as a job that ends would,
so that its alerts resolve.  Anything else gets 404, 405 or 400.
"""
import http.server
import os
import re
import subprocess
import sys
import urllib.parse


class Control(http.server.BaseHTTPRequestHandler):
    def reply(self, code, body):
        data = body.encode()
        self.send_response(code)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        name = urllib.parse.urlsplit(self.path).path.lstrip("/")
        if name == "cgi-bin/stop":
            self.reply(405, "POST /cgi-bin/stop?NAME\n")
            return
        path = os.path.join(self.server.dir, name)
        if not re.fullmatch(r"[a-z][a-z.]*", name) or not os.path.isfile(path):
            self.reply(404, "no such file\n")
            return
        self.reply(200, open(path).read())

    def do_POST(self):
        url = urllib.parse.urlsplit(self.path)
        if url.path != "/cgi-bin/stop":
            self.reply(404, "POST /cgi-bin/stop?NAME\n")
        elif not re.fullmatch(r"[a-z_]+", url.query):
            self.reply(400, "NAME: lower-case letters and _\n")
        elif subprocess.run(["systemctl", "stop", f"demo-{url.query}.service"]).returncode:
            self.reply(404, f"cannot stop demo-{url.query}.service\n")
        else:
            self.reply(202, f"stopped demo-{url.query}.service\n")


server = http.server.ThreadingHTTPServer(("0.0.0.0", int(sys.argv[1])), Control)
server.dir = sys.argv[2]
server.serve_forever()
