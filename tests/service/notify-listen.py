#!/usr/bin/python3
# A stand-in for systemd's notification socket: binds a datagram socket at
# argv[1] and appends every message received to argv[2], one per line
# ("READY=1\nSTATUS=..." becomes "READY=1 | STATUS=..."), until killed.
import socket
import sys

s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
with open(sys.argv[2], "a", buffering=1) as out:
    while True:
        msg = s.recv(4096).decode("utf-8", "replace")
        out.write(msg.strip().replace("\n", " | ") + "\n")
