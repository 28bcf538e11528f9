#!/usr/bin/python3
"""Can attackers keep Prometheus out? For SECONDS, SLOW connections send a
request head one byte every 5 s (each reconnecting when the server closes
it) and FLOOD connections send requests with wrong passwords, a new one
each time, as fast as the server answers, from many addresses
(127.0.1.0/24 and 127.0.2.0/24, as from many hosts, so that only the total
limit holds them). All the while two scrapers ask /metrics once a second
with the right credentials and Prometheus's 10 s timeout, from 127.0.0.1:
one over a kept-alive connection made before the attack, as a Prometheus
that was there does; one over a new connection each time, as a Prometheus
that restarts, or the second of a pair, must.
With CA, the port is TLS: the slow connections dribble a ClientHello that
never ends, the flood and the scraper speak TLS, the scraper checking the
server's certificate against CA.
Prints the figures; exits 1 if fewer than 99% of either scraper's scrapes
succeeded.

    lockout.py PORT USER PASSWORD SECONDS SLOW FLOOD [CA]
"""
import asyncio
import base64
import collections
import http.client
import os
import random
import resource
import ssl
import statistics
import sys
import threading
import time

HEAD = (b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow\r\n"
        b"X-Padding: " + b"a" * 200 + b"\r\n\r\n")
# a TLS handshake record of 512 bytes announced, a ClientHello's start, then filler
HELLO = b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 300


def tls_context(ca):
    """For clients of a TLS port: the server's certificate checked against ca."""
    return ssl.create_default_context(cafile=ca) if ca else None


def source(net, i):
    """The i-th attacker's address in 127.0.NET.0/24."""
    return ("127.0.%d.%d" % (net, 1 + i % 250), 0)


async def slow_client(port, stop, stats, tls, i):
    head = HELLO if tls else HEAD
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                           local_addr=source(1, i))
        except OSError:
            stats["slow connect failed"] += 1
            await asyncio.sleep(1)
            continue
        stats["slow connections"] += 1
        try:
            for i in range(len(head)):
                writer.write(head[i:i + 1])
                await writer.drain()
                try:
                    data = await asyncio.wait_for(reader.read(4096), 5)
                    if not data:
                        break  # closed by the server
                    stats["slow answered"] += 1  # a 408 or 400, then the close
                    break
                except asyncio.TimeoutError:
                    pass
                if stop.is_set():
                    break
        except OSError:
            pass
        stats["slow closed by the server"] += not stop.is_set()
        writer.close()


async def flooder(port, user, stop, stats, context, i):
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, ssl=context,
                                                           local_addr=source(2, i))
        except OSError:
            await asyncio.sleep(0.1)
            continue
        try:
            while not stop.is_set():
                guess = "%s:%08x" % (user, random.getrandbits(32))
                auth = base64.b64encode(guess.encode()).decode()
                writer.write(("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                              "Authorization: Basic %s\r\n\r\n" % auth).encode())
                await writer.drain()
                status = await reader.readline()
                if not status:
                    break
                length = 0
                while True:
                    line = await reader.readline()
                    if line in (b"\r\n", b""):
                        break
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":")[1])
                await reader.readexactly(length)
                stats["flood answered " + status.split()[1].decode()] += 1
        except (OSError, asyncio.IncompleteReadError, ValueError, IndexError):
            pass
        writer.close()


def scraper(port, user, password, stop, results, context, fresh):
    """Scrapes once a second; with fresh, over a new connection each time."""
    auth = "Basic " + base64.b64encode(("%s:%s" % (user, password)).encode()).decode()
    conn = None
    next_at = time.monotonic()
    while not stop.is_set():
        start = time.monotonic()
        ok = False
        try:
            if conn is None:
                conn = (http.client.HTTPSConnection("127.0.0.1", port, timeout=10,
                                                    context=context)
                        if context else http.client.HTTPConnection("127.0.0.1", port, timeout=10))
            conn.request("GET", "/metrics", headers={"Authorization": auth,
                                                     "Accept-Encoding": "gzip"})
            resp = conn.getresponse()
            body = resp.read()
            ok = resp.status == 200 and len(body) > 0
        except Exception:  # every failure counts as one
            pass
        if conn is not None and (fresh or not ok):
            conn.close()
            conn = None
        took = time.monotonic() - start
        results.append((ok and took <= 10, took))
        next_at += 1
        time.sleep(max(0, next_at - time.monotonic()))


async def attack(port, user, seconds, slow, flood, stats, context):
    stop = asyncio.Event()
    tasks = [asyncio.create_task(slow_client(port, stop, stats, context is not None, i))
             for i in range(slow)]
    tasks += [asyncio.create_task(flooder(port, user, stop, stats, context, i))
              for i in range(flood)]
    await asyncio.sleep(seconds)
    stop.set()
    await asyncio.wait(tasks, timeout=15)


def report(what, results, seconds, slow, flood):
    """Prints a scraper's figures; whether 99% of its scrapes succeeded."""
    ok = sum(1 for good, _ in results if good)
    times = sorted(took for _, took in results)
    share = 100.0 * ok / len(results) if results else 0
    print("figure lockout: %d s of %d slow and %d wrong-password connections: %s scraper %d "
          "of %d within 10 s (%.1f%%), latency median %.3f s, p99 %.3f s, max %.3f s"
          % (seconds, slow, flood, what, ok, len(results), share, statistics.median(times),
             times[int(len(times) * 0.99) - 1], times[-1]))
    return bool(results) and share >= 99


def main(port, user, password, seconds, slow, flood, ca):
    context = tls_context(ca)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    stats = collections.Counter()
    stop = threading.Event()
    scrapers = {}
    for what in ("kept-alive", "new-connection"):
        scrapers[what] = []
        threading.Thread(target=scraper, args=(port, user, password, stop, scrapers[what],
                                               context, what == "new-connection")).start()
    time.sleep(3)  # Prometheus was there before the attack
    before = {what: len(results) for what, results in scrapers.items()}
    asyncio.run(attack(port, user, seconds, slow, flood, stats, context))
    stop.set()
    for t in threading.enumerate():
        if t is not threading.current_thread():
            t.join()
    good = [report(what + (" (TLS)" if ca else ""), results[before[what]:], seconds, slow,
                   flood) for what, results in scrapers.items()]
    print("figure lockout: " + ", ".join("%s %d" % kv for kv in sorted(stats.items())))
    return 0 if all(good) else 1


if __name__ == "__main__":
    a = sys.argv[1:]
    sys.exit(main(int(a[0]), a[1], a[2], int(a[3]), int(a[4]), int(a[5]), a[6] if len(a) > 6 else None))
