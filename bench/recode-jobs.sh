#!/bin/sh
# Benchmark of recode -j (issue 18): -j 1 beside -j 2 on a table of
# BENCH_ROWS rows (default 10 million) of gendata agrawal (--seed 2),
# for a node (age, salary, car and zipcode generalized by intervals)
# in one pass (-k 1) and in two (-k 10), and for partition's regions
# (partition -q age,zipcode,car -k 10 -r) in one pass and in two
# (-k 12): wall, CPU, peak RSS (GNU time), the ratio of the walls, and
# the outputs of -j 1 and -j 2 compared.  Goal: -j 2's wall at most 0.6
# of -j 1's (on a machine with 2 cores free).
# Environment: BENCH_DIR (default ${TMPDIR:-/tmp}/kanon-bench) keeps the
# generated tables, BENCH_ROWS (default 10000000, at least 10000).
# Exit status: 0 when every run completed and the outputs match (a
# missed goal is shown as FAIL), 1 on a mismatch, 2 on an error.

# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

bench_root
bench_need gendata partition recode
bench_need_gnu_time '%U %S %e %M'
rows=${BENCH_ROWS:-10000000}
bench_number BENCH_ROWS "$rows" 10000
bench_dir
bench_tmpdir recode-jobs
bench_copy gendata partition recode
bench_machine
bin=$tmp/bin

t=$dir/agrawal-n$rows-seed2.tsv
[ -f "$t" ] || echo "generating $t ..."
bench_gendata "$t" -n "$rows" --seed 2 agrawal
p=$dir/agrawal-n$rows-seed2.part.tsv
r=$dir/agrawal-n$rows-seed2.regions.tsv
if [ ! -f "$p" ]; then
	echo "partitioning $t ..."
	"$bin/partition" -q age,zipcode,car -k 10 -r "$r" -T "$tmp" \
	    -o "$p.tmp" "$t" || bench_die "partition failed"
	mv "$p.tmp" "$p" || bench_die "cannot write $p"
fi
cat "$t" "$p" "$r" > /dev/null
H="-H age=interval:5,10,20 -H salary=interval:10000,50000"
H="$H -H car=interval:5,10 -H zipcode=interval:3"
N=age=1,salary=1,car=1,zipcode=0

printf '%s rows, %s CPUs (%s)\n' "$rows" "$ncpu" "$model"
printf '%-18s %8s %8s %8s %8s %8s  %s\n' case 'wall -j1' 'cpu -j1' \
    'wall -j2' 'cpu -j2' ratio result
# The figures of $tmp/NAME.time: "cpu wall rssKB".
figs() {
	awk '{ printf "%.2f %.2f %d", $1 + $2, $3, $4 }' "$tmp/$1.time"
}
# shellcheck disable=SC2086
for c in "node -k 1|$H -n $N -k 1 $t" "node -k 10|$H -n $N -k 10 $t" \
    "regions|-r $r $p" "regions -k 12|-r $r -k 12 $p"; do
	name=${c%%|*}
	args=${c#*|}
	bench_timed j1 "$bin/recode" -j 1 -T "$tmp" $args
	bench_timed j2 "$bin/recode" -j 2 -T "$tmp" $args
	if cmp -s "$tmp/j1.out" "$tmp/j2.out"; then
		res=same
	else
		res=MISMATCH
		status=1
	fi
	# shellcheck disable=SC2046
	set -- $(figs j1) $(figs j2)
	ratio=$(awk -v a="$2" -v b="$5" 'BEGIN { printf "%.2f", (a > 0 ? b / a : 0) }')
	goal=$(awk -v r="$ratio" 'BEGIN { print r <= 0.6 ? "PASS" : "FAIL" }')
	printf '%-18s %8s %8s %8s %8s %8s  %s, %s\n' "$name" "$2" "$1" "$5" \
	    "$4" "$ratio" "$res" "$goal"
	rm -f "$tmp/j1.out" "$tmp/j2.out"
done
exit "$status"
