#!/usr/bin/env python3
"""A container runtime's API on a unix socket, as dockerd and podman answer
GET /containers/json: every request gets the JSON list in LIST (a file).

    fake-runtime.py SOCKET LIST
"""
import os
import socketserver
import sys


class Handler(socketserver.StreamRequestHandler):
    def handle(self):
        while self.rfile.readline() not in (b'\r\n', b'\n', b''):
            pass
        body = open(sys.argv[2], 'rb').read()
        self.wfile.write(b'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n'
                         b'Content-Length: %d\r\nConnection: close\r\n\r\n' % len(body) + body)


if os.path.exists(sys.argv[1]):
    os.unlink(sys.argv[1])
with socketserver.ThreadingUnixStreamServer(sys.argv[1], Handler) as server:
    server.serve_forever()
