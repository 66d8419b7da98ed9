#!/bin/sh
# Benchmark of partition -j (issue 18, "every core"): the in-memory
# Mondrian on 1 and on 2 threads side by side, in the same run, on
# gendata agrawal rows.  See bench/README.md.
# Usage: sh bench/parallel.sh
# Environment: BENCH_ROWS (default 10000000), BENCH_RUNS (default 3: the
# runs of each -j, alternated, the best wall kept), BENCH_DIR (default
# ${TMPDIR:-/tmp}/kanon-bench) keeps the generated table, BENCH_CLEAN=1
# removes it at the end.
# Exit status: 0 when every run completed and -j 2 gave the bytes of
# -j 1 (a missed goal is shown as MISSED but does not change it), 1 on
# a mismatch, 2 on an error.

# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

bench_root
bench_need partition gendata
bench_need_gnu_time '%U %S %e %M'

rows=${BENCH_ROWS:-10000000}
bench_number BENCH_ROWS "$rows" 1
runs=${BENCH_RUNS:-3}
bench_number BENCH_RUNS "$runs" 1 100

bench_dir
bench_tmpdir parallel
bench_copy partition
bench_machine
input=$dir/agrawal-n$rows-seed2.tsv
bench_gendata "$input" -n "$rows" --seed 2 agrawal
cat "$input" > /dev/null

# The cases: a name, then partition's options.  The first is the
# issue's: 4 numeric QIs, k = 50.
cases='q4k50 -q salary,age,hvalue,loan -k 50
q9k10 -q salary,commission,age,elevel,car,zipcode,hvalue,hyears,loan -k 10
l3 -q salary,age,hvalue,loan -k 20 -s elevel -l 3'

echo "running (rows: $rows, $runs runs of each -j) ..."
printf '%s\n' "$cases" > "$tmp/cases"
while read -r name opts; do
	r=0
	while [ "$r" -lt "$runs" ]; do
		for j in 1 2; do
			# The last runs' tables (423 MB each on 10M rows)
			# written out first: their writeback is not this
			# run's time.
			sync
			# shellcheck disable=SC2086
			bench_timed "$name.j$j.$r" "$tmp/bin/partition" -j "$j" \
			    $opts -r "$tmp/$name.j$j.r" "$input"
			if [ "$r" -eq 0 ]; then
				mv "$tmp/$name.j$j.$r.out" "$tmp/$name.j$j.out"
			else
				rm -f "$tmp/$name.j$j.$r.out"
			fi
		done
		r=$((r + 1))
	done
	bench_check "$name: -j 2 table = -j 1 table" "$tmp/$name.j1.out" \
	    "$tmp/$name.j2.out"
	bench_check "$name: -j 2 regions = -j 1 regions" "$tmp/$name.j1.r" \
	    "$tmp/$name.j2.r"
	rm -f "$tmp/$name".j*.out "$tmp/$name".j*.r
	for j in 1 2; do
		# The run of the best wall: "user sys wall maxrssKB".
		cat "$tmp/$name.j$j".*.time | sort -k3,3g | sed 1q \
		    > "$tmp/$name.j$j.best"
	done
	echo "$name $(cat "$tmp/$name.j1.best") $(cat "$tmp/$name.j2.best")"
done < "$tmp/cases" > "$tmp/table" || bench_die "cannot run the cases"

awk -v rows="$rows" -v runs="$runs" -v ncpu="$ncpu" -v model="$model" '
BEGIN {
	printf "partition -j: %d Agrawal rows (gendata --seed 2), best wall of %d runs each\n", rows, runs
	printf "nproc: %s   CPU: %s\n\n", ncpu, model
	printf "%-6s %8s %8s %8s  %8s %8s %8s  %6s  %-7s %s\n", "case",
	    "j1 wall", "j1 CPU", "j1 MiB", "j2 wall", "j2 CPU", "j2 MiB",
	    "ratio", "goal", "result"
}
{
	ratio = $4 > 0 ? $8 / $4 : 0
	res = "-"
	goal = "-"
	if (NR == 1) {
		goal = "<= 0.6"
		res = ratio <= 0.6 ? "met" : "MISSED"
	}
	printf "%-6s %8.2f %8.2f %8.1f  %8.2f %8.2f %8.1f  %6.2f  %-7s %s\n",
	    $1, $4, $2 + $3, $5 / 1024, $8, $6 + $7, $9 / 1024, ratio,
	    goal, res
}' "$tmp/table" || bench_die "cannot print the table"
echo
printf '%s' "$checks"
bench_clean "$input"
exit "$status"
