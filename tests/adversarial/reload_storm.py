#!/usr/bin/python3
"""A reload storm under scrapes: RELOADS times, the daemon's configuration
swaps between A (plain HTTP on one port) and B (TLS on another) and gets a
SIGHUP, each reload awaited in its log and followed by a short PAUSE, while
LOOPS threads scrape without pause, alternating the two ports as Prometheus
would OpenMetrics with gzip.
Every scrape must be complete (200, the whole body, which ends in "# EOF")
or refused cleanly (nobody listens there then); anything else - a reset,
an empty reply, a cut body, a failed handshake - is broken. Prints the
figures and exits 1 if a scrape broke or the daemon died.

    reload_storm.py PID CONFIG A.yml B.yml LOG PLAIN_PORT TLS_PORT CA RELOADS LOOPS
"""
import collections
import gzip
import http.client
import os
import signal
import socket
import ssl
import sys
import threading
import time

# Between reloads. A SYN that comes while a dropped socket closes is dropped
# and sent again a second later, and then finds the port closed or open; a
# port that closed again at each resend would time its client out, which
# only reloads within milliseconds of each other for seconds on end do.
PAUSE = 0.02
ACCEPT = ("application/openmetrics-text;version=1.0.0,"
          "text/plain;version=0.0.4;q=0.5,*/*;q=0.1")


def scrape(port, context, retried):
    """'complete', 'refused' or 'broken: why' (which port, at which step).
    Appends to retried when the connection took a SYN retransmission (1 s):
    the listener had dropped the first SYN."""
    conn = (http.client.HTTPSConnection("127.0.0.1", port, timeout=10, context=context)
            if context else http.client.HTTPConnection("127.0.0.1", port, timeout=10))
    step = "connect"
    try:
        start = time.monotonic()
        try:
            conn.sock = socket.create_connection(("127.0.0.1", port), 10)
        finally:
            if time.monotonic() - start >= 0.9:
                retried.append(port)
        conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # as connect() does
        if context:
            step = "handshake"
            conn.sock = context.wrap_socket(conn.sock, server_hostname="127.0.0.1")
        step = "request"
        conn.request("GET", "/metrics", headers={"Accept": ACCEPT, "Accept-Encoding": "gzip"})
        step = "response"
        resp = conn.getresponse()
        body = resp.read()
        if resp.status != 200:
            return "broken: status %d" % resp.status
        if resp.getheader("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        return "complete" if body.endswith(b"# EOF\n") else "broken: body without # EOF"
    except ConnectionRefusedError:
        return "refused"
    except Exception as e:  # every other way a scrape can fail is a failure here
        return "broken: %s %s at %s on %s" % (type(e).__name__, e, step,
                                              "tls" if context else "plain")
    finally:
        conn.close()


def main(pid, config, a, b, log, plain, tls, ca, reloads, loops):
    context = ssl.create_default_context(cafile=ca)
    results = collections.Counter()
    lock = threading.Lock()
    stop = threading.Event()
    retried = []

    def loop(i):
        n = 0
        while not stop.is_set():
            r = scrape(tls, context, retried) if (i + n) % 2 else scrape(plain, None, retried)
            n += 1
            with lock:
                results[r] += 1

    threads = [threading.Thread(target=loop, args=(i,)) for i in range(loops)]
    for t in threads:
        t.start()
    texts = [open(a).read(), open(b).read()]
    start = time.monotonic()
    done = 0
    try:
        for n in range(reloads):
            with open(config + ".next", "w") as f:
                f.write(texts[(n + 1) % 2])
            os.rename(config + ".next", config)
            os.kill(pid, signal.SIGHUP)
            # the reload is in when the log says so: signals would merge otherwise
            deadline = time.monotonic() + 20
            while open(log, errors="replace").read().count("configuration reloaded") <= n:
                if time.monotonic() > deadline:
                    raise TimeoutError("reload %d not in the log after 20 s" % (n + 1))
                time.sleep(0.002)
            done += 1
            time.sleep(PAUSE)
    except (ProcessLookupError, TimeoutError) as e:
        print("reload-storm: stopped after %d reloads: %s" % (done, e))
    stop.set()
    for t in threads:
        t.join()
    seconds = time.monotonic() - start
    broken = {k: v for k, v in results.items() if k.startswith("broken")}
    print("figure reload-storm: %d reloads in %.1f s under %d scrape loops: %d scrapes, "
          "%d complete, %d refused cleanly, %d broken"
          % (done, seconds, loops, sum(results.values()), results["complete"],
             results["refused"], sum(broken.values())))
    print("figure reload-storm: %d connections waited for a SYN retransmission"
          % len(retried))
    for k, v in sorted(broken.items(), key=lambda kv: -kv[1])[:10]:
        print("  %d x %s" % (v, k))
    try:
        os.kill(pid, 0)
        alive = True
    except ProcessLookupError:
        alive = False
    print("reload-storm: daemon %s" % ("alive" if alive else "DEAD"))
    return 0 if alive and done == reloads and not broken and results["complete"] else 1


if __name__ == "__main__":
    args = sys.argv[1:]
    sys.exit(main(int(args[0]), args[1], args[2], args[3], args[4], int(args[5]), int(args[6]),
                  args[7], int(args[8]), int(args[9])))
