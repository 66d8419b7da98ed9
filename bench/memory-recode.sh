#!/bin/sh
# Benchmark of recode within -S whatever the input (issue 17): a table
# of BENCH_ROWS rows (default 3 million) and a third as many classes
# (gendata uniform -d 3 -c 10^9 on BENCH_ROWS/3 rows, the first half of
# them 5 times over: half the classes of one row, suppressed by -k 2),
# partitioned by partition -k 1 -r (one region per class).  recode -r in
# one pass and with -k 2 (two passes), and recode -n at level 0 with
# -k 2, at -S 16M and at -S 4G: wall, CPU, peak RSS (GNU time), the
# outputs of the two budgets compared; beside them one LC_ALL=C sort
# -S 16M of the partitioned table.  Goal: every peak RSS at -S 16M
# within 16 MiB plus 8 MiB.
# Environment: BENCH_DIR (default ${TMPDIR:-/tmp}/kanon-bench) keeps the
# generated tables, BENCH_ROWS (default 3000000, at least 30000).
# Exit status: 0 when every run completed and the outputs match (a
# missed goal is shown as FAIL), 1 on a mismatch, 2 on an error.

# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

bench_root
bench_need gendata partition recode
bench_need_gnu_time '%U %S %e %M'
rows=${BENCH_ROWS:-3000000}
bench_number BENCH_ROWS "$rows" 30000
bench_dir
bench_tmpdir memory-recode
bench_copy gendata partition recode
bin=$tmp/bin

base=$((rows / 3))
half=$((base / 2))
t=$dir/recode-n$rows.tsv
if [ ! -f "$t" ]; then
	echo "generating $t ..."
	"$bin/gendata" -n "$((rows - 4 * half))" --seed 3 uniform -d 3 \
	    -c 1000000000 | awk -v h="$half" 'NR == 1 { print; next }
	    { print } NR <= h + 1 { d[NR] = $0 }
	    END { for (k = 0; k < 4; k++) for (i = 2; i <= h + 1; i++) print d[i] }' \
	    > "$t.tmp" || bench_die "cannot write $t.tmp"
	mv "$t.tmp" "$t" || bench_die "cannot write $t"
fi
p=$dir/recode-n$rows.part.tsv
r=$dir/recode-n$rows.regions.tsv
if [ ! -f "$p" ]; then
	echo "partitioning $t ..."
	"$bin/partition" -q a1,a2,a3 -k 1 -r "$r" -o "$p.tmp" "$t" ||
		bench_die "partition failed"
	mv "$p.tmp" "$p" || bench_die "cannot write $p"
fi
cat "$t" "$p" "$r" > /dev/null
H="-H a1=interval:10 -H a2=interval:10 -H a3=interval:10"

printf '%s rows, %s classes, %s regions\n' "$rows" \
    "$((rows - 4 * half))" "$(($(wc -l < "$r") - 1))"
printf '%-22s %6s %8s %8s %8s  %s\n' case budget wall cpu 'RSS MiB' result
# row NAME CASE BUDGET RESULT: a line of the table from $tmp/NAME.time.
row() {
	# The figures "user sys wall rss", split on purpose.
	# shellcheck disable=SC2046
	set -- $(cat "$tmp/$1.time") "$2" "$3" "$4"
	printf '%-22s %6s %8s %8.2f %8.1f  %s\n' "$5" "$6" "$3" \
	    "$(awk -v u="$1" -v s="$2" 'BEGIN { print u + s }')" \
	    "$(awk -v m="$4" 'BEGIN { print m / 1024 }')" "$7"
}
bench_timed sort sh -c "LC_ALL=C sort -S 16M -T '$tmp' '$p' > /dev/null"
row sort "sort (partitioned)" 16M ""
# shellcheck disable=SC2086
for c in "r1|-r $r $p" "r2|-r $r -k 2 $p" "n2|$H -n a1=0,a2=0,a3=0 -k 2 $t"; do
	name=${c%%|*}
	args=${c#*|}
	bench_timed "$name-4G" "$bin/recode" -S 4G -T "$tmp" $args
	bench_timed "$name-16M" "$bin/recode" -S 16M -T "$tmp" $args
	if cmp -s "$tmp/$name-4G.out" "$tmp/$name-16M.out"; then
		res=same
	else
		res=MISMATCH
		status=1
	fi
	rss=$(cut -d ' ' -f 4 "$tmp/$name-16M.time")
	[ "$rss" -le $(((16 + 8) * 1024)) ] || res="$res, FAIL: RSS"
	row "$name-4G" "recode $name" 4G ""
	row "$name-16M" "recode $name" 16M "$res"
	rm -f "$tmp/$name-4G.out" "$tmp/$name-16M.out"
done
exit "$status"
