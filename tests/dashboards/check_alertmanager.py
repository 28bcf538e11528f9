#!/usr/bin/python3
"""The example Alertmanager configuration against the alert rules, with
Debian's amtool: the file loads; every alert of the rules is routed to the
receiver its severity names (critical pages, warning opens a ticket, info
goes to chat), so a new alert with a new severity cannot fall through to a
default nobody reads; and every alert name an inhibit rule matches exists,
so renaming an alert cannot silently disable an inhibition.

    check_alertmanager.py ALERTMANAGER.YML RULES.YML

Prints "status<TAB>name<TAB>detail" lines for tests/dashboards/run.
"""
import re
import subprocess
import sys

import yaml

RECEIVER_OF_SEVERITY = {
    'critical': 'cgacct-page',
    'warning': 'cgacct-ticket',
    'info': 'cgacct-chat',
}


def report(ok, name, detail=''):
    print(f"{'pass' if ok else 'fail'}\t{name}\t{detail}")


def amtool(*args):
    return subprocess.run(['amtool', *args], capture_output=True, text=True)


def main():
    config, rules = sys.argv[1], sys.argv[2]
    r = amtool('check-config', config)
    report(r.returncode == 0, 'alertmanager/check-config',
           (r.stdout + r.stderr).strip().splitlines()[-1] if r.returncode else 'amtool: SUCCESS')

    alerts = [rule for group in yaml.safe_load(open(rules))['groups']
              for rule in group['rules'] if 'alert' in rule]
    for rule in alerts:
        severity = rule.get('labels', {}).get('severity', '')
        want = RECEIVER_OF_SEVERITY.get(severity)
        name = f"alertmanager/route/{rule['alert']}"
        if not want:
            report(False, name, f'severity {severity!r} has no receiver')
            continue
        r = amtool('config', 'routes', 'test', f'--config.file={config}',
                   f'--verify.receivers={want}', f"alertname={rule['alert']}",
                   f'severity={severity}', 'instance=host:19753', 'cgroup=/a')
        report(r.returncode == 0, name, f'{severity} -> {r.stdout.strip()} (want {want})')

    names = [rule['alert'] for rule in alerts]
    for i, inhibit in enumerate(yaml.safe_load(open(config)).get('inhibit_rules', [])):
        for side in ('source_matchers', 'target_matchers'):
            for matcher in inhibit.get(side, []):
                m = re.fullmatch(r'alertname(=~|=)"(.*)"', matcher)
                if not m:
                    continue
                pattern = m.group(2) if m.group(1) == '=~' else re.escape(m.group(2))
                hits = [n for n in names if re.fullmatch(pattern, n)]
                report(bool(hits), f'alertmanager/inhibit-{i}/{side}',
                       f"{matcher} matches {', '.join(hits) or 'no alert of the rules'}")


if __name__ == '__main__':
    main()
