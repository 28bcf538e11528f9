"""What Alertmanager delivered to vm/up's webhook receiver
(vm/lib/webhook.py, which logs each notification to the state folder's
notifications.jsonl), for tests/e2e/check.py:

  - firing: CgroupMemoryLimitHit and CgroupCPUThrottlingHigh each arrive
    at the receiver their severity routes to (warning: ticket, info: chat,
    as dashboards/alertmanager/alertmanager.yml says), grouped by alertname,
    guest, instance and cgroup, with the labels and annotations the rules
    give them;
  - resolved: once the workloads stop (POST /cgi-bin/stop?NAME on the demo
    port), a notification with status "resolved" follows for each;
  - silenced: with a silence on one guest's CgroupMemoryLimitHit, the
    other guest's arrives and the silenced one does not, while
    Alertmanager holds it as suppressed by that silence.
"""
import datetime
import json
import os
import time

from check import MUST_FIRE, get, report, wait

# The receiver each alert's severity routes to.
ROUTED_TO = {"CgroupMemoryLimitHit": "/ticket", "CgroupCPUThrottlingHigh": "/chat"}
GROUP_BY = {"alertname", "guest", "instance", "cgroup"}


def received(state):
    path = os.path.join(state, "notifications.jsonl")
    if not os.path.exists(path):
        return []
    return [json.loads(line) for line in open(path) if line.strip()]


def matching(state, status, alertname, cgroup, guest=None):
    """The notifications of `status` holding alertname's alert for cgroup
    (and guest, if given) in that status."""
    out = []
    for n in received(state):
        body = n["notification"]
        if body.get("status") != status:
            continue
        for a in body.get("alerts", []):
            labels = a.get("labels", {})
            if (a.get("status") == status and labels.get("alertname") == alertname and
                    labels.get("cgroup") == cgroup and guest in (None, labels.get("guest"))):
                out.append((n, a))
    return out


def alertmanager(prom_base):
    """Alertmanager's base URL, once the Prometheus under test has found it."""
    def found():
        status, body = get(f"{prom_base}/api/v1/alertmanagers")
        return json.loads(body)["data"]["activeAlertmanagers"] if status == 200 else None
    active, _ = wait("Prometheus's Alertmanager", 60, found, 1)
    return active[0]["url"].split("/api/")[0] if active else None


def check_firing(run, must_fire):
    """must_fire: {alertname: cgroup} of the alerts firing in run's guest."""
    for name, cgroup in must_fire.items():
        got, waited = wait(f"{name} notification", 120, lambda: matching(run.state, "firing", name, cgroup), 2)
        test = run.n(f"notify/{name}/firing")
        if not got:
            report("fail", test, f"no firing notification for {cgroup} in 120 s; got {len(received(run.state))} "
                   f"notification(s) (see notifications.jsonl)")
            continue
        n, alert = got[0]
        body, labels, ann = n["notification"], alert["labels"], alert.get("annotations", {})
        problems = []
        if n["path"] != ROUTED_TO[name]:
            problems.append(f"reached {n['path']}, want {ROUTED_TO[name]}")
        if set(body.get("groupLabels", {})) != GROUP_BY:
            problems.append(f"grouped by {sorted(body.get('groupLabels', {}))}, want {sorted(GROUP_BY)}")
        want = {"instance": run.instance, "guest": "guest-1", "job": "cgacct", "cgroup": cgroup}
        problems += [f"label {k}={labels.get(k)!r}, want {v!r}" for k, v in want.items() if labels.get(k) != v]
        if not labels.get("severity"):
            problems.append("no severity label")
        if cgroup not in ann.get("summary", "") or not ann.get("description"):
            problems.append(f"annotations {ann}")
        report("fail" if problems else "pass", test,
               "; ".join(problems) or f"at {n['path']} {waited:.0f} s after the alert fired, severity "
               f"{labels['severity']}: {ann['summary']}")


def check_resolved(run, must_fire):
    """Stops the workloads of must_fire's cgroups through the demo's stop
    button, which takes the cgroup's last path component less a
    "demo-" prefix and ".service" suffix."""
    for name, cgroup in must_fire.items():
        workload = cgroup.rsplit("/", 1)[1].removeprefix("demo-").removesuffix(".service")
        status, body = get(f"{run.demo_url}/cgi-bin/stop?{workload}", data=b"")
        report("pass" if status == 202 else "fail", run.n(f"notify/{name}/workload-stopped"),
               f"POST /cgi-bin/stop?{workload}: HTTP {status} {body.strip()[:80]}")
    status, _ = get(f"{run.demo_url}/cgi-bin/stop?spin")
    report("pass" if status == 405 else "fail", run.n("notify/stop-needs-post"), f"GET: HTTP {status}")
    status, _ = get(f"{run.demo_url}/cgi-bin/stop?../x", data=b"")
    report("pass" if status == 400 else "fail", run.n("notify/stop-refuses-a-path"), f"HTTP {status}")
    # The rules' 2m windows empty out, then the group's next flush (every
    # 30 s in vm/up) tells the receiver.
    for name, cgroup in must_fire.items():
        got, waited = wait(f"{name} resolved", 300, lambda: matching(run.state, "resolved", name, cgroup), 5)
        report("pass" if got else "fail", run.n(f"notify/{name}/resolved"),
               f"resolved notification at {got[0][0]['path']} {waited:.0f} s after the workloads stopped"
               if got else f"none within 300 s of the workloads' stop")


def check_silence(prefix, prom_base, state, art):
    """Silences guest-2's CgroupMemoryLimitHit; call before it fires."""
    am = alertmanager(prom_base)
    if not am:
        report("fail", f"{prefix}/silence/alertmanager", "Prometheus has no Alertmanager after 60 s")
        return
    now = datetime.datetime.now(datetime.timezone.utc)
    silence = {
        "matchers": [{"name": "alertname", "value": "CgroupMemoryLimitHit", "isRegex": False},
                     {"name": "guest", "value": "guest-2", "isRegex": False}],
        "startsAt": now.isoformat(), "endsAt": (now + datetime.timedelta(hours=1)).isoformat(),
        "createdBy": "tests/e2e", "comment": "guest-2 is under maintenance",
    }
    status, body = get(f"{am}/api/v2/silences", data=json.dumps(silence).encode(),
                       headers={"Content-Type": "application/json"})
    silence_id = json.loads(body).get("silenceID") if status == 200 else None
    report("pass" if silence_id else "fail", f"{prefix}/silence/created", f"HTTP {status} {body.strip()[:120]}")
    cgroup = MUST_FIRE["CgroupMemoryLimitHit"]
    got, waited = wait("guest-1's notification", 180,
                       lambda: matching(state, "firing", "CgroupMemoryLimitHit", cgroup, "guest-1"), 2)
    report("pass" if got else "fail", f"{prefix}/silence/other-guest-notified",
           f"guest-1's CgroupMemoryLimitHit arrived after {waited:.0f} s" if got else "not within 180 s")

    def suppressed():
        status, body = get(f"{am}/api/v2/alerts?filter=alertname%3D%22CgroupMemoryLimitHit%22")
        return [a for a in json.loads(body) if a["labels"].get("guest") == "guest-2" and
                a["status"]["state"] == "suppressed"] if status == 200 else []
    held, _ = wait("guest-2's alert suppressed", 60, suppressed, 2)
    json.dump(held, open(os.path.join(art, "suppressed.json"), "w"), indent=1)
    by = held[0]["status"]["silencedBy"] if held else []
    report("pass" if held and by == [silence_id] else "fail", f"{prefix}/silence/alert-suppressed",
           f"Alertmanager holds guest-2's alert, silenced by {by}" if held else
           "guest-2's CgroupMemoryLimitHit is not in Alertmanager as suppressed")
    # Two of vm/up's 30 s group intervals: time enough for a notification
    # the silence did not stop.
    time.sleep(60)
    leaked = matching(state, "firing", "CgroupMemoryLimitHit", cgroup, "guest-2")
    report("fail" if leaked else "pass", f"{prefix}/silence/no-notification",
           f"guest-2's notification arrived at {leaked[0][0]['path']}" if leaked else
           f"none for guest-2 while guest-1's arrived; {len(received(state))} notification(s) in all")
