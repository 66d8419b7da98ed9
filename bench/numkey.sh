#!/bin/sh
# Benchmark of partition out of core on a numeric quasi-identifier with
# a distinct value in every row (issue 17): the numbers carried as
# 64-bit keys without a dictionary (numkey.c), and Rothko-T's nodes
# whose groups do not fit cut from their rows sorted on disk.
# Usage: sh bench/numkey.sh
#
# The table: gendata agrawal (--seed 1), BENCH_ROWS rows (default
# 3,000,000, about 144 MB), and 'inc', a number with one decimal,
# distinct in every row.  -q age,inc -k 10 at -S BENCH_S (default 16M):
# Rothko-T, Rothko-S, the in-memory run and one LC_ALL=C sort -S of the
# same file (-k1,1n): wall seconds and peak RSS (tests/peak-rss).
# Checks: Rothko-T's table and regions are the in-memory run's; every
# class of Rothko-S has 10 rows or more and the table's columns are
# intact; the peak RSS of both is within -S plus 32 MiB (the issue's
# goal).  A miss prints MISMATCH or FAIL and makes the exit status 1;
# 2 on an error.
# Environment: BENCH_DIR (default ${TMPDIR:-/tmp}/kanon-bench) keeps
# the table across runs, BENCH_ROWS, BENCH_S, BENCH_CLEAN=1 removes the
# table at the end.

# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

bench_root
bench_need partition gendata tests/peak-rss
bench_need_gnu_date
rows=${BENCH_ROWS:-3000000}
bench_number BENCH_ROWS "$rows" 1000
budget=${BENCH_S:-16M}
case $budget in
*[0-9]M) mib=${budget%M} ;;
*) bench_die "BENCH_S must be a number of MiB, such as 16M: '$budget'" ;;
esac
bench_number BENCH_S "$mib" 1

bench_dir
bench_tmpdir numkey
mkdir "$tmp/T" || bench_die "cannot create $tmp/T"
table=$dir/numkey-$rows.tsv
if [ ! -s "$table" ]; then
	"$root/gendata" -n "$rows" agrawal | awk -F '\t' '
	    BEGIN { OFS = "\t" }
	    NR == 1 { print $0, "inc"; next }
	    { print $0, ((NR * 7919) % 10000019) * 100 + NR % 97 "." NR % 10 }' \
	    > "$table.tmp" || bench_die "cannot write $table.tmp"
	mv "$table.tmp" "$table" || bench_die "cannot write $table"
fi
cat "$table" > /dev/null

# run NAME COMMAND...: runs COMMAND, prints its wall seconds and peak
# RSS in KiB, and keeps them in $NAME.wall and $NAME.rss.
run() {
	bench_name=$1
	shift
	bench_t0=$(date +%s%N)
	"$root/tests/peak-rss" "$tmp/$bench_name.rss" "$@" ||
		bench_die "$bench_name: exit $?: $*"
	bench_t1=$(date +%s%N)
	awk -v a="$bench_t0" -v b="$bench_t1" \
	    'BEGIN { printf "%.2f\n", (b - a) / 1e9 }' > "$tmp/$bench_name.wall"
	printf '%-10s %8s s %10s KiB\n' "$bench_name" \
	    "$(cat "$tmp/$bench_name.wall")" "$(cat "$tmp/$bench_name.rss")"
}

echo "partition -q age,inc -k 10 on $rows rows, -S $budget"
run memory "$root/partition" -q age,inc -k 10 -r "$tmp/mem.r" \
    -o "$tmp/mem.out" "$table"
run rothko-t "$root/partition" -a rothko-t -S "$budget" -T "$tmp/T" \
    -q age,inc -k 10 -r "$tmp/t.r" -o "$tmp/t.out" "$table"
run rothko-s "$root/partition" -a rothko-s -S "$budget" -T "$tmp/T" \
    -q age,inc -k 10 -r "$tmp/s.r" -o "$tmp/s.out" "$table"
# shellcheck disable=SC2016
run sort sh -c 'LC_ALL=C sort -S "$1" -T "$2" -k1,1n "$3" > /dev/null' \
    sh "$budget" "$tmp/T" "$table"

limit=$(((mib + 32) * 1024))
for a in rothko-t rothko-s; do
	if [ "$(cat "$tmp/$a.rss")" -le "$limit" ]; then
		echo "$a: peak RSS within -S plus 32 MiB: OK"
	else
		echo "$a: peak RSS over -S plus 32 MiB: FAIL"
		status=1
	fi
done
if cmp -s "$tmp/mem.out" "$tmp/t.out" && cmp -s "$tmp/mem.r" "$tmp/t.r"; then
	echo "rothko-t: the in-memory table and regions: OK"
else
	echo "rothko-t: not the in-memory output: MISMATCH"
	status=1
fi
if cut -f 1-10 "$tmp/s.out" | cmp -s - "$table" &&
    awk -F '\t' 'NR > 1 { c[$NF]++ }
	END { for (x in c) if (c[x] < 10) exit 1 }' "$tmp/s.out"; then
	echo "rothko-s: every class has 10 rows or more: OK"
else
	echo "rothko-s: a class below k or a changed column: MISMATCH"
	status=1
fi
[ "${BENCH_CLEAN:-0}" != 1 ] || rm -f "$table"
exit "$status"
