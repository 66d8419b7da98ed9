#!/bin/sh
# Benchmark of reading CSV (--icsv) against reading TSV, side by side in
# one run (issue 16: "Reading CSV must stay fast: measure it against the
# TSV path in make bench", goal: within 1.5x).  See bench/README.md.
# Usage: sh bench/csv.sh (also run by make bench).
#
# The table: gendata -n ROWS --seed 1 agrawal (9 numeric columns), as TSV
# and in two CSV forms made from it with awk: "plain" (',' between the
# fields, no quotes: what most writers produce for numbers) and "quoted"
# (every seventh field in double quotes, so that every line holds one or
# two quoted fields and the reader cannot take its path without quotes).
# The three files are generated once into BENCH_DIR and reused.
#
# Cases, each run BENCH_RUNS times (default 3) under GNU time, the best
# CPU time (user + sys) kept with its wall time:
#   freqset    freqset -q age,elevel,car FILE   (reading dominates)
#   partition  partition -q age,elevel,car,zipcode,salary -k 100 -r R FILE
# each on the TSV (the reference), then with --icsv on both CSV forms.
# The ratio is CSV CPU / TSV CPU; goal: at most 1.5 (a missed goal is
# shown as FAIL but does not change the exit status).  Every CSV output
# (and partition's regions) must be byte for byte the TSV one's: a
# difference prints MISMATCH and makes the script exit 1.  Exit 2: an
# error.
#
# Environment: BENCH_CSV_ROWS (default 5000000), BENCH_RUNS (default 3),
# BENCH_DIR (default ${TMPDIR:-/tmp}/kanon-bench), BENCH_CLEAN=1 removes
# the generated tables at the end.

# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

bench_root
bench_need freqset partition gendata

rows=${BENCH_CSV_ROWS:-5000000}
bench_number BENCH_CSV_ROWS "$rows" 1
runs=${BENCH_RUNS:-3}
bench_number BENCH_RUNS "$runs" 1 100

bench_need_gnu_time '%U %S %e %M'
bench_dir
bench_tmpdir csv
bench_copy freqset partition
bench_machine

tsv=$dir/agrawal-n$rows-seed1.tsv
plain=$dir/agrawal-n$rows-seed1-plain.csv
quoted=$dir/agrawal-n$rows-seed1-quoted.csv
if [ -f "$tsv" ]; then
	echo "reusing $tsv"
else
	echo "generating $tsv ..."
fi
bench_gendata "$tsv" -n "$rows" --seed 1 agrawal
# The CSV forms, each written to a temp name and renamed, so that a file
# that exists is complete.
if [ ! -f "$plain" ]; then
	echo "generating $plain ..."
	if ! tr '\t' , < "$tsv" > "$plain.tmp" ||
	    ! mv "$plain.tmp" "$plain"; then
		bench_die "cannot write $plain"
	fi
fi
if [ ! -f "$quoted" ]; then
	echo "generating $quoted ..."
	if ! awk 'BEGIN { FS = "\t"; OFS = "," }
	    { for (i = 1; i <= NF; i++) if ((NR + i) % 7 == 0) $i = "\"" $i "\""
	      print }' "$tsv" > "$quoted.tmp" || ! mv "$quoted.tmp" "$quoted"; then
		bench_die "cannot write $quoted"
	fi
fi
cat "$tsv" "$plain" "$quoted" > /dev/null	# into the page cache

# best NAME COMMAND...: runs COMMAND $runs times (bench_timed); the
# figures of the run of least CPU time in $tmp/NAME.time, its output in
# $tmp/NAME.out.
best() {
	best_name=$1
	shift
	best_i=0
	while [ "$best_i" -lt "$runs" ]; do
		bench_timed "$best_name.try" "$@"
		if [ ! -f "$tmp/$best_name.time" ] || awk -v a="$(cat \
		    "$tmp/$best_name.try.time")" -v b="$(cat "$tmp/$best_name.time")" \
		    'BEGIN { split(a, x, " "); split(b, y, " ")
			exit !(x[1] + x[2] < y[1] + y[2]) }'; then
			mv "$tmp/$best_name.try.time" "$tmp/$best_name.time"
		fi
		mv "$tmp/$best_name.try.out" "$tmp/$best_name.out"
		best_i=$((best_i + 1))
	done
}

fq="$tmp/bin/freqset -q age,elevel,car"
pq="$tmp/bin/partition -q age,elevel,car,zipcode,salary -k 100"

echo "running (rows: $rows, best of $runs) ..."
# shellcheck disable=SC2086
{
	best freq-tsv $fq "$tsv"
	best freq-plain $fq --icsv "$plain"
	best freq-quoted $fq --icsv "$quoted"
	bench_check "freqset: --icsv plain = TSV" "$tmp/freq-plain.out" \
	    "$tmp/freq-tsv.out"
	bench_check "freqset: --icsv quoted = TSV" "$tmp/freq-quoted.out" \
	    "$tmp/freq-tsv.out"
	rm -f "$tmp"/freq-*.out
	best part-tsv $pq -r "$tmp/r-tsv" "$tsv"
	best part-plain $pq -r "$tmp/r-plain" --icsv "$plain"
	best part-quoted $pq -r "$tmp/r-quoted" --icsv "$quoted"
	bench_check "partition: --icsv plain = TSV" "$tmp/part-plain.out" \
	    "$tmp/part-tsv.out"
	bench_check "partition: --icsv quoted = TSV" "$tmp/part-quoted.out" \
	    "$tmp/part-tsv.out"
	bench_check "partition: regions of plain = TSV" "$tmp/r-plain" \
	    "$tmp/r-tsv"
	bench_check "partition: regions of quoted = TSV" "$tmp/r-quoted" \
	    "$tmp/r-tsv"
	rm -f "$tmp"/part-*.out
}

{
	for f in "$tsv" "$plain" "$quoted"; do
		echo "size $(wc -c < "$f")"
	done
	for r in freq-tsv freq-plain freq-quoted part-tsv part-plain \
	    part-quoted; do
		echo "$r $(cat "$tmp/$r.time")"
	done
} | awk -v rows="$rows" -v ncpu="$ncpu" -v model="$model" -v runs="$runs" \
    -v path="$tsv" '
$1 == "size" { mb[++nf] = $2 / 1e6; next }
{ cpu[$1] = $2 + $3; wall[$1] = $4; rss[$1] = $5 / 1024 }
function line(r, ref, what, file,   ratio, res) {
	if (r == ref) {
		ratio = "-"; res = ""
	} else if (cpu[ref] > 0) {
		ratio = sprintf("%.2f", cpu[r] / cpu[ref])
		res = ratio + 0 <= 1.5 ? "PASS" : "FAIL"
	} else {
		ratio = "?"; res = "?"
	}
	printf "%-10s %-12s %7.1f %6.2f %6.2f %7.1f %7.1f %6s  %-7s %s\n",
	    what, file, mb[f[file]], cpu[r], wall[r], rss[r],
	    (cpu[r] > 0 ? mb[f[file]] / cpu[r] : 0), ratio,
	    (r == ref ? "" : "<= 1.5"), res
}
END {
	f["TSV"] = 1; f["CSV plain"] = 2; f["CSV quoted"] = 3
	printf "kanon CSV bench: %d rows x 9 columns (gendata agrawal, seed 1), best of %d\n", rows, runs
	printf "input: %s and its CSV forms\n", path
	printf "nproc: %s   CPU: %s\n\n", ncpu, model
	printf "%-10s %-12s %7s %6s %6s %7s %7s %6s  %-7s %s\n", "case",
	    "input", "MB", "CPU s", "wall s", "RSS MiB", "MB/CPUs", "/TSV",
	    "goal", "result"
	line("freq-tsv", "freq-tsv", "freqset", "TSV")
	line("freq-plain", "freq-tsv", "freqset", "CSV plain")
	line("freq-quoted", "freq-tsv", "freqset", "CSV quoted")
	line("part-tsv", "part-tsv", "partition", "TSV")
	line("part-plain", "part-tsv", "partition", "CSV plain")
	line("part-quoted", "part-tsv", "partition", "CSV quoted")
}'
echo
printf '%s' "$checks"
bench_clean "$tsv" "$plain" "$quoted"
exit "$status"
