# shellcheck shell=bash disable=SC2154,SC2034
# (Sourced by tests/reliability/run: it reads variables set there and sets some read
# there, such as $detail for check(); checked alone, shellcheck sees neither.)
# The faults and privilege tests: faults-guest.sh in a hybrid-layout guest
# with the demo tree (a v1 hierarchy to unmount, and groups at their memory
# limits), judged by check_faults.py.

test_faults() {
	local out=$art/faults rc
	rm -rf "$out"
	"$top/vm/guest" --kernel "$kernel" --layout hybrid --smp 2 --disk 256 --hugepages 8 \
		--timeout 900 --console "$art/faults.console" \
		--add "$guest_bin/workload" --add "$top/vm/demo/demo-tree.sh" --add "$bin" \
		--add /usr/bin/strace --out "$out" --script "$here/faults-guest.sh" \
		>"$art/faults.log" 2>&1
	rc=$?
	cat "$art/faults.log"
	detail="exit $rc, see $art/faults.log and $art/faults.console"
	check faults/guest-passes test "$rc" = 0
	/usr/bin/python3 "$here/check_faults.py" "$out" >"$art/faults.checks" 2>&1
	grep -v '^\(pass\|fail\|skip\) ' "$art/faults.checks"
	report_lines <"$art/faults.checks"
	grep -q '^pass ' "$art/faults.checks" || result fail faults/checker "see $art/faults.checks"
}
