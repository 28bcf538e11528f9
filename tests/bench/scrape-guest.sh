#!/bin/sh
# Runs inside the guest (tests/bench/scrape prepends the SCRAPE_* settings):
# for each tree size, builds the tree (cgtree), logs which files cgacctd and
# systemd-cgtop open (filespy), then times the floor, cgacctd's scrapes over
# HTTP (cold, warm, and warm as Prometheus asks: OpenMetrics, gzip) and the
# peer, and checks that removing cgroups while cgacctd runs leaves as many
# dying cgroups as without it.  Floor, warm scrapes and peer take turns
# round by round; the Prometheus-style rounds follow, then those of a
# second cgacctd at equal data: configured with only the controllers whose
# files systemd-cgtop reads.  Every figure is one "R KEY VALUE..." line for
# tests/bench/scrape-table.py on the host.
# Not -e: a run that fails is logged and the next one still runs; the host reads the log.
set -u
port=19753
equal_port=19754
rounds=${SCRAPE_ROUNDS:-5}
sizes=${SCRAPE_SIZES:-100 1000 10000}
spy=/usr/local/lib/filespy.so

# The controllers of the files systemd-cgtop (252, src/cgtop/cgtop.c) reads
# per cgroup: on v2 cpu.stat, memory.current, io.stat and pids.current; on
# v1 cpuacct.usage, memory.usage_in_bytes and pids.current.  It also tries
# v1's blkio.io_service_bytes, which went with CFQ in Linux 5.0, and gets
# nothing.  The guest log's "R filekinds" and "R missing" lines show what
# each read and tried.
case "$CGACCT_LAYOUT" in
v2) dirs=$CG_V2 equal_controllers=cpu,memory,io,pids ;;
v1)
	equal_controllers=cpuacct,memory,pids
	# systemd-cgtop finds the tree through systemd's named hierarchy, as
	# on any v1 host that systemd runs; cgacctd skips it (no controller).
	mkdir -p "$CG_V1/systemd"
	mount -t cgroup -o none,name=systemd cgroup "$CG_V1/systemd"
	dirs=
	for d in "$CG_V1"/*; do
		[ -L "$d" ] || dirs="$dirs $d"
	done
	;;
*) echo "unsupported layout $CGACCT_LAYOUT"; exit 1 ;;
esac

step() { echo "step: $(cut -d" " -f1 /proc/uptime) s: $*"; }
meminfo_kib() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }

# Dying cgroups: v2 counts them in cgroup.stat; v1 has no such file, but
# /proc/cgroups counts a cgroup until it is freed, so dying = counted - live.
dying() {
	if [ "$CGACCT_LAYOUT" = v2 ]; then
		awk '$1 == "nr_dying_descendants" { print $2 }' "$CG_V2/cgroup.stat"
		return
	fi
	awk -v live="$1" 'NR > 1 && $4 == 1 && !seen[$2]++ { d += $3 - live } END { print d }' /proc/cgroups
}

# The dying count once the kernel is done freeing (it does so in the
# background, seconds later under TCG): unchanged over three polls a second
# apart, or after a minute.
settled_dying() {
	last=$(dying "$1") same=0 tries=60
	while [ $same -lt 3 ] && [ $tries -gt 0 ]; do
		sleep 1
		now=$(dying "$1")
		if [ "$now" = "$last" ]; then same=$((same + 1)); else same=0; fi
		last=$now tries=$((tries - 1))
	done
	echo "$last"
}

echo "controllers: [$equal_controllers]" >/tmp/equal.yml
echo 'bpf_pins: ""' >/tmp/files.yml
if [ "${SCRAPE_BPF:-0}" = 1 ]; then
	# pinned and bound where cgacctd.service finds them (bpf_pins)
	if ! mount -t bpf bpf /sys/fs/bpf || ! cgacct-bpf load || ! mkdir -p /run/cgacct/bpf ||
		! mount --bind /sys/fs/bpf/cgacct /run/cgacct/bpf; then
		echo "cgacct-bpf load failed"
		exit 1
	fi
fi
echo "R equal_controllers 0 $equal_controllers"

cgacctd_pid=
# The open-file limit cgacctd.service sets (LimitNOFILE=), so that cgacctd
# holds as many files as keep_open_files says by default.
#   start_cgacctd PORT [ARG...]
start_cgacctd() {
	listen=$1
	shift
	# shellcheck disable=SC3045 # (busybox sh has ulimit -n)
	(ulimit -n 65536 && exec cgacctd --listen "127.0.0.1:$listen" "$@") 2>>/tmp/cgacctd.log &
	cgacctd_pid=$!
	tries=300
	# Ready once it answers; a path it does not serve (404) collects
	# nothing, unlike / and /metrics, so the first scrape stays cold.
	until httpget "$listen" /ready 1 >/dev/null 2>&1; do
		tries=$((tries - 1))
		[ $tries -gt 0 ] || { echo "cgacctd did not come up"; cat /tmp/cgacctd.log; exit 1; }
		sleep 0.1
	done
}
stop_cgacctd() {
	kill "$cgacctd_pid"
	wait "$cgacctd_pid"
}

# Files opened per cgroup (the tree's N and its root), by kind, from a
# filespy log of one collection.
files_per_cgroup() {
	awk -v n="$2" -v who="$3" '
		$1 == "F" { f++ } $1 == "D" { d++ } $1 == "M" { m++ }
		END { c = n + 1; printf "R files %s %d %.2f %.2f %.2f\n", who, n, f / c, d / c, m / c }' "$1"
	# Which files, by name: "memory.stat=1001 ..." (the table counts the
	# files a warm scrape reads from these: all but cgroup.serial), and
	# which it tried and found absent.
	awk -v n="$2" -v who="$3" '
		$1 == "F" || $1 == "M" { k = $2; sub(".*/", "", k); count[$1, k]++; names[k] }
		END {
			printf "R filekinds %s %d", who, n
			for (k in names) if (count["F", k]) printf " %s=%d", k, count["F", k]
			printf "\nR missing %s %d", who, n
			for (k in names) if (count["M", k]) printf " %s=%d", k, count["M", k]
			print ""
		}' "$1"
}

for n in $sizes; do
	step "tree of $n cgroups in:$dirs"
	# shellcheck disable=SC2086 # one argument per hierarchy
	cgtree make "$n" $dirs || exit 1
	cgroups=$((n + 1))
	echo "R tree $n $(grep -c . /proc/cgroups) $(cut -d" " -f1 /proc/loadavg)"

	step "file lists"
	rm -f /tmp/cgacctd.files /tmp/equal.files /tmp/cgtop.files
	FILESPY_LOG=/tmp/cgacctd.files LD_PRELOAD=$spy cgacctd --once >/tmp/once.prom
	files_per_cgroup /tmp/cgacctd.files "$n" cgacctd
	# the floor is always that of the files cgacctd reads without records
	if [ "${SCRAPE_BPF:-0}" = 1 ]; then
		grep -qx 'cgacct_collection_source{source="bpf"} 1' /tmp/once.prom ||
			{ echo "cgacctd does not read the records"; exit 1; }
		rm -f /tmp/cgacctd.files
		FILESPY_LOG=/tmp/cgacctd.files LD_PRELOAD=$spy cgacctd --once --config /tmp/files.yml >/dev/null
	fi
	FILESPY_LOG=/tmp/equal.files LD_PRELOAD=$spy cgacctd --once --config /tmp/equal.yml >/dev/null
	files_per_cgroup /tmp/equal.files "$n" equal
	FILESPY_LOG=/tmp/cgtop.files LD_PRELOAD=$spy systemd-cgtop -b -n 1 --depth=64 >/tmp/cgtop.out 2>&1
	peer_rc=$?
	if [ $peer_rc -eq 0 ]; then
		files_per_cgroup /tmp/cgtop.files "$n" cgtop
		echo "R peer_rows $n $(grep -c '^/' /tmp/cgtop.out)"
	else
		echo "R peer_error $n $(head -n 1 /tmp/cgtop.out)"
	fi

	# The rounds interleave floor, warm scrape and peer, so that whatever
	# else the host does weighs on all three alike.
	step "cold scrape"
	slab0=$(meminfo_kib Slab) avail0=$(meminfo_kib MemAvailable)
	start_cgacctd "$port"
	httpget "$port" /metrics 1 | sed "s/^/R cold $n /"
	round=0
	while [ $round -lt "$rounds" ]; do
		step "round $round: floors, cgacctd, systemd-cgtop"
		floor /tmp/cgacctd.files 1 | sed -n "s/^ns /R floor $n /p"
		floor /tmp/cgacctd.files 1 one-piece | sed -n "s/^ns /R floor1 $n /p"
		floor /tmp/cgacctd.files 1 warm | sed -n "s/^ns /R floorw $n /p"
		httpget "$port" /metrics 1 | sed "s/^/R warm $n /"
		if [ $peer_rc -eq 0 ]; then
			timeit 1 systemd-cgtop -b -n 1 --depth=64 | sed "s/^/R peer $n /"
		fi
		round=$((round + 1))
	done
	# Then the scrape as Prometheus 2.42 asks for it (OpenMetrics first in
	# its Accept, Accept-Encoding: gzip), as many rounds, on the same tree
	# and timed the same way; after the plain rounds, so that those run as
	# they always have.
	round=0
	while [ $round -lt "$rounds" ]; do
		step "round $round: cgacctd as Prometheus scrapes (OpenMetrics, gzip)"
		httpget "$port" /metrics 1 prom | sed "s/^/R prom $n /"
		round=$((round + 1))
	done
	# One more, its body kept (so untimed), to check what Prometheus gets:
	# a gzip stream of OpenMetrics, which ends with "# EOF".
	httpget "$port" /metrics 1 prom /tmp/prom.gz >/dev/null
	if zcat /tmp/prom.gz >/tmp/prom.txt; then
		echo "R prom_body $n gz $(wc -c </tmp/prom.gz) bytes $(wc -c </tmp/prom.txt)" \
			"eof $(tail -n 1 /tmp/prom.txt | grep -cx '# EOF')"
	else
		echo "R prom_body $n gz $(wc -c </tmp/prom.gz) bytes 0 eof 0"
	fi
	rm -f /tmp/prom.gz /tmp/prom.txt
	# The collection alone (walk, read, parse), as cgacctd reports it.
	echo "R collect $n $(wget -q -O - "http://127.0.0.1:$port/metrics" |
		awk '$1 == "cgacct_collection_duration_seconds" { print $2 }')"
	echo "R held $n $(wget -q -O - "http://127.0.0.1:$port/metrics" |
		awk '$1 == "cgacct_held_files" { f = $2 } $1 == "cgacct_held_directories" { d = $2 }
			END { print f, d }')"
	echo "R kernel_mem $n $(($(meminfo_kib Slab) - slab0)) $((avail0 - $(meminfo_kib MemAvailable)))"
	echo "R rss $n $(awk '$1 == "VmHWM:" { print $2 }' "/proc/$cgacctd_pid/status")"
	stop_cgacctd

	# At equal data: a second cgacctd reading only the controllers whose
	# files systemd-cgtop reads, its warm scrapes timed as many rounds as
	# the others (set against the peer run of the round of the same number).
	start_cgacctd "$equal_port" --config /tmp/equal.yml
	httpget "$equal_port" /metrics 1 | sed "s/^/R equal_cold $n /"
	round=0
	while [ $round -lt "$rounds" ]; do
		step "round $round: cgacctd at equal data (controllers: $equal_controllers)"
		httpget "$equal_port" /metrics 1 | sed "s/^/R equal $n /"
		round=$((round + 1))
	done
	stop_cgacctd

	# Removing a tenth of the tree, once without and once with cgacctd
	# scraping around the removal: the dying count must not differ.
	prune=$((n / 10))
	step "dying cgroups: prune $prune without cgacctd"
	before=$(settled_dying "$cgroups")
	# shellcheck disable=SC2086
	cgtree prune "$n" "$prune" $dirs
	without=$(($(settled_dying $((cgroups - prune))) - before))
	start_cgacctd "$port"
	httpget "$port" /metrics 2 >/dev/null
	step "dying cgroups: prune $prune while cgacctd runs"
	before=$(settled_dying $((cgroups - prune)))
	# shellcheck disable=SC2086
	cgtree prune "$n" "$prune" $dirs
	httpget "$port" /metrics 1 >/dev/null
	with=$(($(settled_dying $((cgroups - 2 * prune))) - before))
	stop_cgacctd
	echo "R dying $n $prune $without $with"

	step "remove the tree"
	# shellcheck disable=SC2086
	cgtree rm "$n" $dirs || exit 1
done
step "done"
