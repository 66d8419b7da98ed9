#!/bin/sh
# Benchmark of extsort against GNU sort on the table of bench/run.
# Usage: sh bench/extsort.sh
# Environment: BENCH_ROWS (default 10000000), BENCH_DIR (default
# ${TMPDIR:-/tmp}/kanon-bench), BENCH_CLEAN=1 removes the generated input.
#
# Cases, each with a 256 MiB budget (-S 256M) and temp files in a fresh
# directory under BENCH_DIR:
#   n2  two numeric keys:  extsort -k a1:n,a2:n
#       against  sort -s -t TAB -k1,1n -k2,2n  (default threads and
#       --parallel=1); goal: at most half GNU sort's CPU time.
#   b3  one byte-wise key: extsort -k a3
#       against  sort -s -t TAB -k3,3  (the same two ways); goal: no more
#       CPU time than GNU sort.
# A CPU goal is met when it holds against both GNU sort runs.  Memory goal
# for extsort: peak RSS at most the budget plus 16 MiB.  GNU sort reads the
# input without its header line (tail -n +2, prepared before timing);
# extsort reads the input as it is and its output, header dropped, must be
# byte for byte GNU sort's.
#
# Exit status: 0 when every run completed, the outputs matched and
# extsort left its temp directory empty (a missed goal is shown as FAIL
# but does not change it), 1 on a mismatch or a leftover temp file, 2 on
# an error.

# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

bench_root
bench_need extsort gendata

rows=${BENCH_ROWS:-10000000}
bench_number BENCH_ROWS "$rows" 1

bench_need_gnu_time '%U %S %e %M'
sort --parallel=1 -s -S 1M -t x -k1,1n < /dev/null > /dev/null 2>&1 ||
	bench_die "GNU sort is needed (sort --parallel, -S, -s)"

budget=256M
budget_mib=256
rss_slack_mib=16

bench_dir
bench_tmpdir extsort

# The input, the same file as bench/run's.
bench_uniform "$rows"
hdr=$(head -n 1 "$input") || bench_die "cannot read $input"
# GNU sort's input: the rows without the header.
tail -n +2 "$input" > "$tmp/body" || bench_die "cannot write $tmp/body"
cat "$tmp/body" > /dev/null	# warm the page cache

bench_machine
sortver=$(sort --version 2>/dev/null | sed 1q)

# check_empty LABEL DIR: DIR must hold nothing.
check_empty() {
	if [ -z "$(ls -A "$2")" ]; then
		bench_pass "$1"
	else
		# shellcheck disable=SC2012
		bench_fail "$1" "LEFTOVER $(ls -A "$2" | wc -l) file(s)"
	fi
}

tab=$(printf '\t')
notes=

# run_case CASE EXTKEYS GNUKEYS...: times GNU sort (default threads, then
# --parallel=1) and extsort, and checks their outputs.
run_case() {
	c=$1 ext=$2
	shift 2
	mkdir "$tmp/T-$c-gnu" "$tmp/T-$c-gnu1" "$tmp/T-$c-ext" ||
		bench_die "cannot create temp directories in $tmp"
	bench_timed "$c-gnu" sort -S "$budget" -s -t "$tab" "$@" \
	    -T "$tmp/T-$c-gnu" "$tmp/body"
	bench_timed "$c-gnu1" sort --parallel=1 -S "$budget" -s -t "$tab" "$@" \
	    -T "$tmp/T-$c-gnu1" "$tmp/body"
	bench_check "$c: sort --parallel=1 = sort" "$tmp/$c-gnu1.out" \
	    "$tmp/$c-gnu.out"
	rm -f "$tmp/$c-gnu1.out"
	bench_timed "$c-ext" "$root/extsort" -v -S "$budget" -T "$tmp/T-$c-ext" \
	    -k "$ext" "$input"
	check_empty "$c: extsort's temp directory empty afterwards" \
	    "$tmp/T-$c-ext"
	if [ "$(head -n 1 "$tmp/$c-ext.out")" = "$hdr" ]; then
		bench_pass "$c: extsort keeps the header on top"
	else
		bench_fail "$c: extsort keeps the header on top" MISMATCH
	fi
	tail -n +2 "$tmp/$c-ext.out" > "$tmp/$c-ext.body" ||
		bench_die "cannot write $tmp/$c-ext.body"
	rm -f "$tmp/$c-ext.out"
	bench_check "$c: extsort -k $ext = sort -s $*" "$tmp/$c-ext.body" \
	    "$tmp/$c-gnu.out"
	rm -f "$tmp/$c-ext.body" "$tmp/$c-gnu.out"
	notes="$notes$c: $(sed -n 's/^extsort: //p' "$tmp/$c-ext.err")
"
}

echo "running (rows: $rows, budget: $budget) ..."
run_case n2 a1:n,a2:n -k1,1n -k2,2n
run_case b3 a3 -k3,3

# The table.  MB are 10^6 bytes; RSS MiB are 2^20 bytes.
{
	echo "input $bytes"
	for r in n2-gnu n2-gnu1 n2-ext b3-gnu b3-gnu1 b3-ext; do
		echo "$r $(cat "$tmp/$r.time")"
	done
} | awk -v rows="$rows" -v ncpu="$ncpu" -v model="$model" \
	-v path="$input" -v sortver="$sortver" -v budget="$budget" \
	-v rssmax="$((budget_mib + rss_slack_mib))" '
$1 == "input" { mb = $2 / 1e6; next }
{ cpu[$1] = $2 + $3; wall[$1] = $4; rss[$1] = $5 / 1024 }
function ratio(r, ref) {
	return cpu[ref] > 0 ? sprintf("%.2f", cpu[r] / cpu[ref]) : "-"
}
# The ratios are compared with the goal as printed, to two decimals.
function line(c, r, tool, goal,   g, g1, res, rres, gs, rs) {
	g = c "-gnu"; g1 = c "-gnu1"
	if (goal == "") {
		gs = "-"; res = "-"; rs = "-"; rres = "-"
	} else {
		gs = "<= " goal
		if (cpu[g] > 0 && cpu[g1] > 0) {
			res = "PASS"
			if (ratio(r, g) + 0 > goal + 0 ||
			    ratio(r, g1) + 0 > goal + 0)
				res = "FAIL"
		} else
			res = "?"
		rs = "<= " rssmax
		rres = rss[r] <= rssmax + 0 ? "PASS" : "FAIL"
	}
	printf "%-4s %-32s %6.2f %6.2f %7.1f %6s %6s  %-8s %-6s  %-8s %s\n",
	    c, tool, cpu[r], wall[r], rss[r], ratio(r, g), ratio(r, g1),
	    gs, res, rs, rres
}
END {
	printf "kanon extsort bench: %d rows x 9 columns (uniform, card 100, seed 1), -S %s\n", rows, budget
	printf "input: %.1f MB (%s)\n", mb, path
	printf "nproc: %s   CPU: %s\n", ncpu, model
	printf "GNU sort: %s\n\n", sortver
	printf "%-4s %-32s %6s %6s %7s %6s %6s  %-8s %-6s  %-8s %s\n",
	    "case", "tool", "CPU s", "wall s", "RSS MiB", "/sort", "/sort1",
	    "CPU goal", "result", "RSS goal", "result"
	line("n2", "n2-gnu", "sort -k1,1n -k2,2n")
	line("n2", "n2-gnu1", "sort --parallel=1 -k1,1n -k2,2n")
	line("n2", "n2-ext", "extsort -k a1:n,a2:n", "0.50")
	line("b3", "b3-gnu", "sort -k3,3")
	line("b3", "b3-gnu1", "sort --parallel=1 -k3,3")
	line("b3", "b3-ext", "extsort -k a3", "1.00")
	printf "\n/sort, /sort1: CPU time over that of sort (default threads) and of\n"
	printf "sort --parallel=1; every run has -S %s, every sort -s -t TAB.\n", budget
}' || bench_die "cannot print the table"
echo
printf 'extsort -v:\n%s\n' "$notes"
printf '%s' "$checks"

bench_clean "$input"
exit "$status"
