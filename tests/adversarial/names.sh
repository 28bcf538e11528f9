# shellcheck shell=bash disable=SC2154,SC2034
# (Sourced by tests/adversarial/run: it reads variables set there and sets some read
# there, such as $detail for check(); checked alone, shellcheck sees neither.)
# Names that are not UTF-8: a cgroup's is whatever bytes its creator gave
# mkdir(), a container's whatever its runtime answers. The exposition must
# stay valid for Prometheus (one invalid label value and it drops the whole
# scrape), and no two names may come out the same.

test_names() {
	local d=$work/names t=$work/names-tree port daemon cg id=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
	local runtime
	mkdir -p "$d"
	make_tree "$t"
	cg=$t/sys/fs/cgroup
	# a stray byte, Latin-1, and the escape's own spelling as a real name
	for name in $'x\xffy' $'caf\xe9' $'x\xef\xbf\xbdffy' "machine.slice/libpod-$id.scope"; do
		mkdir -p "$cg/$name"
		: >"$cg/$name/cgroup.procs"
		echo 4096 >"$cg/$name/memory.current"
	done
	# the runtime names the container with stray bytes too, and a megabyte long
	/usr/bin/python3 - "$d/list.json" "$id" <<'PY'
import sys
name = b"web\xff" + b"n" * (1 << 20)
open(sys.argv[1], "wb").write(b'[{"Id":"' + sys.argv[2].encode() + b'","Names":["/' + name +
                               b'"],"Image":"img\xfe:1"}]')
PY
	/usr/bin/python3 "$top/tests/service/fake-runtime.py" "$d/runtime.sock" "$d/list.json" &
	runtime=$!
	started+=("$runtime")
	for _ in $(seq 50); do [ -S "$d/runtime.sock" ] && break; sleep 0.1; done
	port=$(free_port)
	printf 'listen: ["127.0.0.1:%s"]\ncontainer_runtime_sockets: ["%s"]\n' "$port" "$d/runtime.sock" \
		>"$d/native.yml"
	start_daemon "$logs/names.log" "$t" --config "$d/native.yml"
	daemon=$pid
	wait_listening "$port" || { result fail names/start "$(cat "$logs/names.log")"; return; }
	for _ in $(seq 50); do
		curl -s -o "$d/text" "http://127.0.0.1:$port/metrics"
		grep -q 'container_name=' "$d/text" && break
		sleep 0.2
	done
	curl -s -H 'Accept: application/openmetrics-text;version=1.0.0' -o "$d/om" \
		"http://127.0.0.1:$port/metrics"
	detail=$(promtool check metrics <"$d/text" 2>&1 | head -3)
	check names/text-passes-promtool bash -c "promtool check metrics <'$d/text' >/dev/null 2>&1"
	detail=$(/usr/bin/python3 "$top/tests/service/om-parse.py" <"$d/om" 2>&1 | head -3)
	check names/openmetrics-parses-strictly bash -c "/usr/bin/python3 '$top/tests/service/om-parse.py' <'$d/om' >/dev/null"
	# each cgroup is there, under its own label value
	detail=$(grep '^cgroup_memory_usage_bytes' "$d/text")
	check names/stray-byte-escaped grep -qF $'cgroup_memory_usage_bytes{cgroup="/x\xef\xbf\xbdffy"} 4096' "$d/text"
	check names/latin1-escaped grep -qF $'cgroup_memory_usage_bytes{cgroup="/caf\xef\xbf\xbde9"} 4096' "$d/text"
	check names/replacement-character-escaped-apart grep -qF \
		$'cgroup_memory_usage_bytes{cgroup="/x\xef\xbf\xbdef\xef\xbf\xbdbf\xef\xbf\xbdbdffy"} 4096' "$d/text"
	check names/every-cgroup-its-own-series test "$(grep -c '^cgroup_memory_usage_bytes{' "$d/text")" = 6
	# and each label value, the escape undone, is its cgroup's name byte for byte
	check names/every-name-undone-byte-for-byte /usr/bin/python3 - "$d/text" <<'PY'
import re, sys
text = open(sys.argv[1], "rb").read().decode("utf-8")
values = re.findall(r'^cgroup_memory_usage_bytes\{cgroup="([^"]*)"\}', text, re.M)
undone = set()
for v in values:
    raw, i = bytearray(), 0
    while i < len(v):
        if v[i] == "\ufffd":
            raw.append(int(v[i + 1:i + 3], 16))
            i += 3
        else:
            raw += v[i].encode()
            i += 1
    undone.add(bytes(raw))
sys.exit(0 if len(undone) == len(values) and
         {b"/x\xffy", b"/caf\xe9", b"/x\xef\xbf\xbdffy"} <= undone else 1)
PY
	# the runtime's name: escaped and cut to its bound
	detail=$(grep -o 'container_name="[^"]*"' "$d/text" | head -c 300)
	check names/runtime-name-escaped-and-bounded /usr/bin/python3 - "$d/text" <<'PY'
import re, sys
text = open(sys.argv[1], "rb").read()
m = re.search(rb'container_name="([^"]*)",image="([^"]*)"', text)
sys.exit(0 if m and m.group(1).startswith(b"web\xef\xbf\xbdff") and len(m.group(1)) <= 255 + 5 and
         m.group(1).endswith("\u2026".encode()) and m.group(2) == b"img\xef\xbf\xbdfe:1" and
         len(text) < 1 << 20 else 1)
PY
	stop "$daemon"
	# and under cAdvisor's names
	printf 'listen: ["127.0.0.1:%s"]\nnaming: cadvisor\n' "$port" >"$d/cadvisor.yml"
	start_daemon "$logs/names-cadvisor.log" "$t" --config "$d/cadvisor.yml"
	daemon=$pid
	wait_listening "$port" || { result fail names/cadvisor-start; return; }
	curl -s -o "$d/cadvisor" "http://127.0.0.1:$port/metrics"
	check names/cadvisor-passes-promtool bash -c "promtool check metrics <'$d/cadvisor' >/dev/null 2>&1"
	stop "$daemon"
	stop "$runtime"
	check names/no-sanitizer-report sanitizer_clean "$logs/names.log"
}
