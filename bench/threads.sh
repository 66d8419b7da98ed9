#!/bin/sh
# Benchmark of -j: the programs on one thread and on two, side by side in
# one run, on the table of bench/run (gendata -n BENCH_ROWS --seed 1
# uniform -d 9 -c 100, default 10 million rows).
# Usage: sh bench/threads.sh (also run by make bench).
# Environment: BENCH_ROWS, BENCH_DIR, BENCH_CLEAN (as bench/run), and
# BENCH_RUNS (default 5): each command's best wall time of that many,
# the runs of -j 1 and -j 2 alternated (the same command's CPU time
# varies by half from run to run on the 2-core virtual machine).
#
# Cases (issue: every core):
#   freqset -q a1,a2,a3 and -q a1..a9, and -q a1,a2,a3 on the table as
#   CSV (--icsv, the tabs made commas); score -q a1,a2,a3 -k 5 and -q
#   a1..a9 -k 5; extsort -S 256M on a byte-wise key (-k a3), two numeric
#   keys (-k a1:n,a2:n) and a reversed numeric key (-k a4:nr);
#   lattice-search -q a1,a2,a3,a4 with interval hierarchies, -k 5, shown
#   for the record, with no goal: its rows are read on the threads, its
#   search without suppression on one.
# Each runs with -j 1 and -j 2; goal: the wall time of -j 2 at most 0.6
# of -j 1's.  extsort -j 2 is also set against GNU sort with its default
# threads on the same key (sort -s -S 256M -t TAB, the input without its
# header); goal: no slower.  The outputs of -j 1 and -j 2 must be the
# same bytes, and extsort's (header dropped) GNU sort's.
# A missed goal shows FAIL but does not change the exit status; a
# mismatch prints MISMATCH and exits 1; an error exits 2.

# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

bench_root
bench_need freqset score extsort gendata lattice-search
bench_need_gnu_date
rows=${BENCH_ROWS:-10000000}
bench_number BENCH_ROWS "$rows" 1
runs=${BENCH_RUNS:-5}
bench_number BENCH_RUNS "$runs" 1
sort --parallel=1 -s -S 1M -t x -k1,1n < /dev/null > /dev/null 2>&1 ||
	bench_die "GNU sort is needed (sort --parallel, -S, -s)"
bench_dir
bench_tmpdir kanon-threads
bench_copy freqset score extsort lattice-search
bench_uniform "$rows"
bench_machine
bin=$tmp/bin
tail -n +2 "$input" > "$tmp/body" || bench_die "cannot write $tmp/body"
tr '\t' , < "$input" > "$tmp/t.csv" || bench_die "cannot write $tmp/t.csv"
tab=$(printf '\t')
Q9=a1,a2,a3,a4,a5,a6,a7,a8,a9

echo "-j 1 against -j 2, $rows rows, $ncpu CPUs ($model)"
echo "best wall of $runs runs; goal: -j 2 at most 0.6 of -j 1"
printf '%-34s %9s %9s %7s %6s\n' case "-j 1 ms" "-j 2 ms" ratio result

# pair NAME COMMAND...: COMMAND with -j 1 and -j 2 (inserted after the
# program), the line of the table, and the check that both wrote the
# same bytes; the result against the goal, or - with nogoal set.  Sets
# ms2 (the wall of -j 2).
pair() {
	pair_name=$1
	shift
	bench_jbest "$runs" "$tmp/$pair_name" "$@"
	bench_check "$pair_name: -j 1 = -j 2" "$tmp/$pair_name.1" \
	    "$tmp/$pair_name.2"
	awk -v n="$pair_name" -v a="$ms1" -v b="$ms2" -v g="${nogoal:-}" \
	    'BEGIN {
		r = a > 0 ? b / a : 0
		printf "%-34s %9d %9d %7.2f %6s\n", n, a, b, r,
		    g != "" ? "-" : r <= 0.6 ? "PASS" : "FAIL" }'
}

pair "freqset -q a1,a2,a3" "$bin/freqset" -q a1,a2,a3 "$input"
pair "freqset -q a1..a9" "$bin/freqset" -q $Q9 "$input"
pair "freqset --icsv -q a1,a2,a3" "$bin/freqset" --icsv -q a1,a2,a3 \
    "$tmp/t.csv"
pair "score -q a1,a2,a3 -k 5" "$bin/score" -q a1,a2,a3 -k 5 "$input"
pair "score -q a1..a9 -k 5" "$bin/score" -q $Q9 -k 5 "$input"
nogoal=1
pair "lattice-search -q a1..a4 -k 5" "$bin/lattice-search" \
    -q a1,a2,a3,a4 -H a1=interval:10,50 -H a2=interval:10,50 \
    -H a3=interval:5,20,100 -H a4=interval:25 -k 5 "$input"
nogoal=

echo
echo "extsort -S 256M against GNU sort -S 256M (default threads)"
printf '%-34s %9s %9s %9s %7s %6s %6s\n' key "-j 1 ms" "-j 2 ms" \
    "sort ms" "j2/j1" "0.6" "sort"
# ekey NAME KEY SORTKEY: extsort -k KEY with -j 1 and 2 against sort
# SORTKEY, outputs compared.
ekey() {
	bench_jbest "$runs" "$tmp/e$1" "$bin/extsort" -S 256M -T "$tmp" -k "$2" "$input"
	# shellcheck disable=SC2086
	mss=$(bench_best "$runs" 0 "$tmp/s$1" sort -s -S 256M -T "$tmp" \
	    -t "$tab" $3 "$tmp/body") || exit 2
	bench_check "extsort -k $2: -j 1 = -j 2" "$tmp/e$1.1" "$tmp/e$1.2"
	tail -n +2 "$tmp/e$1.2" > "$tmp/e$1.body"
	bench_check "extsort -k $2 = sort $3" "$tmp/e$1.body" "$tmp/s$1"
	awk -v n="$2" -v a="$ms1" -v b="$ms2" -v s="$mss" 'BEGIN {
		r = a > 0 ? b / a : 0
		printf "%-34s %9d %9d %9d %7.2f %6s %6s\n", n, a, b, s, r,
		    r <= 0.6 ? "PASS" : "FAIL", b <= s ? "PASS" : "FAIL" }'
	rm -f "$tmp/e$1.1" "$tmp/e$1.2" "$tmp/e$1.body" "$tmp/s$1"
}
ekey b3 a3 "-k3,3"
ekey n2 a1:n,a2:n "-k1,1n -k2,2n"
ekey r4 a4:nr "-k4,4nr"

echo
printf '%s' "$checks"
bench_clean "$input"
exit "$status"
