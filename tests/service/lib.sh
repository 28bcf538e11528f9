# shellcheck shell=bash disable=SC2154,SC2034
# (Sourced by tests/service/run: it reads variables set there and sets some read
# there, such as $detail for check(); checked alone, shellcheck sees neither.)
# Helpers for the service suite (sourced): fake cgroup trees, free ports,
# starting and stopping daemons with bounded waits, HTTP checks with curl.
# Every address is 127.0.0.1; every wait has a limit.

# Pids of everything started here, stopped by stop_all on exit.
started=()

# A fake v2 tree under $1: / with /a (fixture files), /a/c, /a.slice (which
# sorts between /a and /a/c byte-wise), /b and a cgroup whose name needs
# HTML and label escaping; $1/mountinfo describes it.
make_tree() {
	local root=$1 cg=$1/sys/fs/cgroup d
	mkdir -p "$cg/a/c" "$cg/a.slice" "$cg/b" "$cg/<b>&x"
	cp "$top/tests/fixtures/v2/"* "$cg/a/"
	for d in "$cg" "$cg/a" "$cg/a/c" "$cg/a.slice" "$cg/b" "$cg/<b>&x"; do
		: >"$d/cgroup.procs"
	done
	echo 5000000 >"$cg/b/memory.current"
	echo "18 17 0:24 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw" >"$root/mountinfo"
}

# start_daemon LOG TREE ARGS...: cgacctd on TREE; sets $pid.
start_daemon() {
	local log=$1 tree=$2
	shift 2
	"$bin" --mountinfo "$tree/mountinfo" --root "$tree" "$@" >"$log" 2>&1 &
	pid=$!
	started+=("$pid")
}

# wait_listening PORT: until something accepts on 127.0.0.1:PORT (5 s).
wait_listening() {
	for _ in $(seq 50); do
		(exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# serve NAME [YAML]: cgacctd with $work/NAME/cgacctd.yml, which listens on a
# free port and holds YAML besides (relative paths in it are relative to
# that folder); sets dir, port, daemon. Records a failure if it does not start.
serve() {
	dir=$work/$1
	mkdir -p "$dir"
	port=$(free_port)
	printf 'listen: ["127.0.0.1:%s"]\n%s' "$port" "${2:-}" >"$dir/cgacctd.yml"
	start_daemon "$logs/$1.log" "$tree" --config "$dir/cgacctd.yml"
	daemon=$pid
	wait_listening "$port" || { result fail "$1/start" "$(cat "$logs/$1.log")"; return 1; }
}

# start_prometheus NAME TARGET [JOB-YAML]: Prometheus 2.42 scraping TARGET
# (HOST:PORT) every second with a 1 s timeout, JOB-YAML (lines indented for
# the job) added to its job; sets prom_url and prom_pid. Records a failure
# if it does not get ready within 60 s.
start_prometheus() {
	local d=$work/$1-prometheus port
	port=$(free_port)
	prom_url=http://127.0.0.1:$port
	mkdir -p "$d/data"
	cat >"$d/prometheus.yml" <<EOC
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: cgacct
${3:-}
    static_configs:
      - targets: ["$2"]
EOC
	# debug: Prometheus logs why each failed scrape failed only at that level
	prometheus --config.file="$d/prometheus.yml" --storage.tsdb.path="$d/data" \
		--web.listen-address="127.0.0.1:$port" --log.level=debug \
		>"$logs/$1-prometheus.log" 2>&1 &
	prom_pid=$!
	started+=("$prom_pid")
	for _ in $(seq 120); do
		curl -sf -o /dev/null --max-time 2 "$prom_url/-/ready" && return 0
		sleep 0.5
	done
	result fail "$1/prometheus-start" "see $logs/$1-prometheus.log"
	return 1
}

# logged LOG TEXT: until TEXT is in LOG (3 s). A daemon may answer a
# request before its own log line about serving reaches the file.
logged() {
	for _ in $(seq 30); do
		grep -q "$2" "$1" && return 0
		sleep 0.1
	done
	return 1
}

# hup_and_wait PID LOG TEXT: SIGHUP, then wait up to 3 s for TEXT in LOG.
hup_and_wait() {
	kill -HUP "$1"
	logged "$2" "$3"
}

# stop PID: SIGTERM, then wait up to 5 s; returns the exit status (124 if it hung).
stop() {
	kill -TERM "$1" 2>/dev/null
	for _ in $(seq 50); do
		kill -0 "$1" 2>/dev/null || { wait "$1"; return; }
		sleep 0.1
	done
	kill -KILL "$1" 2>/dev/null
	wait "$1" 2>/dev/null
	return 124
}

stop_all() {
	local p
	for p in "${started[@]}"; do
		kill -0 "$p" 2>/dev/null && stop "$p"
	done
}

# status URL [CURL ARGS...]: prints the HTTP status code (000 when none came).
status() {
	local url=$1
	shift
	curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$@" "$url"
}

# metric_value FILE NAME: the value of an unlabelled sample.
metric_value() {
	awk -v n="$2" '$1 == n { print $2 }' "$1"
}
