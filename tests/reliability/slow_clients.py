#!/usr/bin/python3
"""Holds COUNT connections to 127.0.0.1:PORT open until SIGTERM: half idle
(connected, silent), half slow (a request whose headers never end, sent a
byte a second), the clients that would take every connection slot of a
server that lets them. Prints "ready N" once all are connected, and at the
end how many the server closed meanwhile.

    slow_clients.py PORT COUNT
"""
import signal
import socket
import sys
import time

REQUEST = b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"X-Slow: " + b"a" * 10000


def main(port, count):
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    idle, slow = [], []
    for i in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        s.setblocking(False)
        (slow if i % 2 else idle).append(s)
    print("ready %d" % count, flush=True)
    sent = closed = 0
    while not stop:
        for s in list(slow):
            try:
                s.send(REQUEST[sent:sent + 1])
            except OSError:
                slow.remove(s)
                closed += 1
        for s in list(idle):
            try:
                if s.recv(1, socket.MSG_PEEK) == b"":
                    idle.remove(s)
                    closed += 1
            except BlockingIOError:
                pass
            except OSError:
                idle.remove(s)
                closed += 1
        sent = min(sent + 1, len(REQUEST) - 1)
        time.sleep(1)
    print("figure load/slow-clients %d connections (%d idle, %d sending a byte a second), "
          "%d closed by the server, %d still open" % (count, count - count // 2, count // 2,
                                                      closed, len(idle) + len(slow)))


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
