#!/usr/bin/python3
"""Sends stdin as it is to 127.0.0.1:PORT in one write, then prints what
comes back until the server closes the connection; exits 124 if it keeps
it open for 10 s. For requests curl will not send: pipelined ones,
HTTP/1.0, bad versions, garbage, smuggling shapes. With CA, over TLS,
the server's certificate checked against CA.

    raw-http.py PORT [CA] <REQUEST
"""
import socket
import ssl
import sys

s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
if len(sys.argv) > 2:
    s = ssl.create_default_context(cafile=sys.argv[2]).wrap_socket(s, server_hostname="127.0.0.1")
s.sendall(sys.stdin.buffer.read())
try:
    while True:
        data = s.recv(65536)
        if not data:
            break
        sys.stdout.buffer.write(data)
except socket.timeout:
    sys.exit(124)
except (ConnectionResetError, ssl.SSLEOFError):
    pass
