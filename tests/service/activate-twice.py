#!/usr/bin/python3
# What systemd does with a socket unit, twice over: hold a listening socket
# on 127.0.0.1:argv[1], activate the command argv[2:] with it (LISTEN_FDS),
# stop it with SIGTERM once it served a scrape, and activate it again on
# the same socket.  Prints the HTTP status of each activation's scrape
# ("first 200", "second 200"); a daemon that breaks the shared socket on
# its way out leaves the second without one.
import os
import signal
import socket
import sys
import time
import urllib.request

listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", int(sys.argv[1])))
listener.listen(16)


def activate():
    pid = os.fork()
    if pid == 0:
        if listener.fileno() != 3:
            os.dup2(listener.fileno(), 3)
        os.set_inheritable(3, True)
        os.environ["LISTEN_FDS"] = "1"
        os.environ["LISTEN_PID"] = str(os.getpid())
        os.execv(sys.argv[2], sys.argv[2:])
    return pid


def scrape():
    url = "http://127.0.0.1:%s/metrics" % sys.argv[1]
    for _ in range(50):
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                return r.status
        except OSError as e:
            status = getattr(e, "code", "none (%s)" % e)
            time.sleep(0.1)
    return status


for name in ("first", "second"):
    pid = activate()
    print(name, scrape(), flush=True)
    os.kill(pid, signal.SIGTERM)
    os.waitpid(pid, 0)
