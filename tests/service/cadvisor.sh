# shellcheck shell=bash disable=SC2154,SC2034
# (Sourced by tests/service/run: it reads variables set there and sets some read
# there, such as $detail for check(); checked alone, shellcheck sees neither.)
# naming: cadvisor. One daemon serves native names, is reloaded with
# naming: cadvisor and then serves cAdvisor's names and labels (id = the
# cgroup path, name and image empty, cpu="total") with the same values,
# cAdvisor's conversions, and the families, types and labels of
# tests/fixtures/cadvisor-definitions, promtool-clean in text and strictly
# parseable as OpenMetrics.

# cadvisor_same NAME CADVISOR-SERIES NATIVE-SERIES: the cAdvisor series exists
# and has the native series' value.
cadvisor_same() {
	local got want
	got=$(metric_value "$dir/cadvisor" "$2")
	want=$(metric_value "$dir/native" "$3")
	detail="$2 = '$got', $3 = '$want'"
	check "cadvisor/$1" test -n "$got" -a "$got" = "$want"
}

test_cadvisor() {
	local dir port daemon url log=$logs/cadvisor.log lint rc
	serve cadvisor || return
	url=http://127.0.0.1:$port/metrics
	curl -s -o "$dir/native" "$url"

	printf 'listen: ["127.0.0.1:%s"]\nnaming: cadvisor\n' "$port" >"$dir/cgacctd.yml"
	hup_and_wait "$daemon" "$log" 'configuration reloaded'
	curl -s -o "$dir/cadvisor" "$url"
	curl -s -H "Accept: $prom_accept" -o "$dir/cadvisor-om" "$url"

	local id='id="/a",image="",name=""'
	cadvisor_same cpu-usage-total "container_cpu_usage_seconds_total{cpu=\"total\",$id}" \
		'cgroup_cpu_usage_seconds_total{cgroup="/a"}'
	cadvisor_same memory-usage "container_memory_usage_bytes{$id}" \
		'cgroup_memory_usage_bytes{cgroup="/a"}'
	cadvisor_same memory-usage-of-another-cgroup \
		'container_memory_usage_bytes{id="/b",image="",name=""}' \
		'cgroup_memory_usage_bytes{cgroup="/b"}'
	cadvisor_same memory-failcnt "container_memory_failcnt{$id}" \
		'cgroup_memory_limit_failures_total{cgroup="/a"}'
	cadvisor_same cfs-throttled-periods "container_cpu_cfs_throttled_periods_total{$id}" \
		'cgroup_cpu_throttled_periods_total{cgroup="/a"}'
	# cAdvisor's units: the spec values are raw microseconds
	detail=$(grep '^container_spec_cpu_' "$dir/cadvisor")
	check cadvisor/spec-cpu-quota-in-microseconds grep -qx "container_spec_cpu_quota{$id} 50000" "$dir/cadvisor"
	# usage minus inactive_file (tests/fixtures/v2: 33509376 - 31469568)
	check cadvisor/working-set grep -qx "container_memory_working_set_bytes{$id} 2039808" "$dir/cadvisor"
	# /b has no quota, so, as in cAdvisor, no CFS statistics
	check cadvisor/cfs-only-with-quota bash -c "! grep -q '^container_cpu_cfs_.*id=\"/b\"' '$dir/cadvisor'"

	# cAdvisor's shares for a v2 weight of 50: 2 + (50 - 1) * 262142 / 9999
	check cadvisor/v2-weight-as-cadvisor-shares grep -qx "container_spec_cpu_shares{$id} 1286" "$dir/cadvisor"
	# swap.max is "max": cAdvisor's 0; memory.max is set and stays
	check cadvisor/unlimited-limit-is-0 grep -qx "container_spec_memory_swap_limit_bytes{$id} 0" "$dir/cadvisor"
	check cadvisor/set-limit-stays grep -qx "container_spec_memory_limit_bytes{$id} 33554432" "$dir/cadvisor"
	detail=$(grep '^container_memory_failures_total{failure_type="pgfault",id="/a"' "$dir/cadvisor")
	check cadvisor/failures-in-both-scopes test "$(printf '%s\n' "$detail" | awk '{ print $2 }' | sort -u | wc -l)" = 1 \
		-a "$(printf '%s\n' "$detail" | grep -c -e 'scope="container"' -e 'scope="hierarchy"')" = 2
	# io.stat's 254:0, by name or number, with its numbers
	check cadvisor/blkio-device-usage-read grep -q \
		'^container_blkio_device_usage_total{.*id="/a",.*major="254",minor="0",name="",operation="Read"} 213905408$' \
		"$dir/cadvisor"
	check cadvisor/blkio-device-usage-write grep -q \
		'^container_blkio_device_usage_total{.*id="/a",.*major="254",minor="0",name="",operation="Write"} 16777216$' \
		"$dir/cadvisor"
	detail=$(/usr/bin/python3 "$here/cadvisor-definitions.py" "$top/tests/fixtures/cadvisor-definitions" <"$dir/cadvisor" 2>&1)
	check cadvisor/matches-cadvisor-definitions test $? = 0

	detail=$(grep -v '^#' "$dir/cadvisor" | grep -v -e '^container_' -e '^cgacct_')
	check cadvisor/only-container-and-self-families test -z "$detail"
	check cadvisor/self-metrics-kept grep -q '^cgacct_build_info{' "$dir/cadvisor"
	detail=$(grep -v '^#' "$dir/cadvisor" | grep '^container_' | awk '!/image=""/ || !/name=""/')
	check cadvisor/every-series-has-empty-image-and-name test -z "$detail"

	lint=$(promtool check metrics <"$dir/cadvisor" 2>&1)
	rc=$?
	detail="exit $rc: $lint"
	check cadvisor/promtool-reports-nothing test "$rc" = 0 -a -z "$lint"
	detail=$(/usr/bin/python3 "$here/om-parse.py" <"$dir/cadvisor-om" 2>&1)
	check cadvisor/openmetrics-parses-strictly test $? = 0
	check cadvisor/openmetrics-failcnt-unknown grep -qx '# TYPE container_memory_failcnt unknown' "$dir/cadvisor-om"
	check cadvisor/no-not-implemented-warning bash -c "! grep -q 'not implemented' '$log'"
	stop "$daemon"
}
