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

LC_ALL=C
export LC_ALL

die() {
	echo "bench: $*" >&2
	exit 2
}

root=$(cd "$(dirname "$0")/.." && pwd -P) || die "cannot find the repository"
for p in extsort gendata; do
	[ -x "$root/$p" ] || die "$root/$p not built: run make first"
done

rows=${BENCH_ROWS:-10000000}
case $rows in
'' | *[!0-9]*) die "BENCH_ROWS must be a number of rows: '$rows'" ;;
esac
[ "$rows" -gt 0 ] || die "BENCH_ROWS must be at least 1"

TIME=/usr/bin/time
[ -x "$TIME" ] || die "GNU time is needed at $TIME (package 'time'); it is not there"
"$TIME" -f '%U %S %e %M' -o /dev/null true 2>/dev/null ||
	die "$TIME is not GNU time (no -f/-o options)"
sort --parallel=1 -s -S 1M -t x -k1,1n < /dev/null > /dev/null 2>&1 ||
	die "GNU sort is needed (sort --parallel, -S, -s)"

budget=256M
budget_mib=256
rss_slack_mib=16

# inside_repo PATH: true when the absolute PATH lies in the repository.
inside_repo() {
	case $1/ in
	"$root"/* | "$rootl"/*) return 0 ;;
	esac
	return 1
}
rootl=$(cd "$(dirname "$0")/.." && pwd -L)
dir=${BENCH_DIR:-${TMPDIR:-/tmp}/kanon-bench}
case $dir in
/*) ;;
*) dir=$(pwd -L)/$dir ;;
esac
! inside_repo "$dir" ||
	die "BENCH_DIR $dir is inside the repository; choose another"
mkdir -p "$dir" || die "cannot create $dir"
dir=$(cd "$dir" && pwd -P) || die "cannot enter $dir"
! inside_repo "$dir" ||
	die "BENCH_DIR $dir is inside the repository; choose another"

tmp=$(mktemp -d "$dir/extsort.XXXXXX") || die "cannot create a directory in $dir"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

# The input, the same file as bench/run's, generated once per parameter
# set (gendata -o is atomic, so a file that exists is complete).
input=$dir/uniform-n$rows-d9-c100-seed1.tsv
if [ -f "$input" ]; then
	echo "reusing $input"
else
	echo "generating $input ..."
	"$root/gendata" -o "$input" -n "$rows" --seed 1 uniform -d 9 -c 100 ||
		die "gendata failed"
fi
bytes=$(wc -c < "$input") || die "cannot read $input"
bytes=$((bytes + 0))
hdr=$(head -n 1 "$input") || die "cannot read $input"
# GNU sort's input: the rows without the header.
tail -n +2 "$input" > "$tmp/body" || die "cannot write $tmp/body"
cat "$input" "$tmp/body" > /dev/null	# warm the page cache

ncpu=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null) ||
	ncpu=unknown
model=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo 2>/dev/null |
	sed 1q)
[ -n "$model" ] || model=unknown
sortver=$(sort --version 2>/dev/null | sed 1q)

# timed NAME COMMAND...: runs COMMAND under GNU time; stdout goes to
# $tmp/NAME.out, stderr to $tmp/NAME.err, the figures "user sys wall
# maxrssKB" to $tmp/NAME.time.
timed() {
	name=$1
	shift
	"$TIME" -f '%U %S %e %M' -o "$tmp/$name.time" "$@" \
	    > "$tmp/$name.out" 2> "$tmp/$name.err" || {
		cat "$tmp/$name.err" >&2
		die "$name failed: $*"
	}
	tail -n 1 "$tmp/$name.time" > "$tmp/$name.t" &&
		mv "$tmp/$name.t" "$tmp/$name.time"
}

status=0
checks=

# check LABEL A B: compares two files byte for byte.
check() {
	if cmp -s "$2" "$3"; then
		checks="$checks$1: OK
"
	else
		checks="$checks$1: MISMATCH
"
		status=1
	fi
}

# check_empty LABEL DIR: DIR must hold nothing.
check_empty() {
	if [ -z "$(ls -A "$2")" ]; then
		checks="$checks$1: OK
"
	else
		# shellcheck disable=SC2012
		checks="$checks$1: LEFTOVER $(ls -A "$2" | wc -l) file(s)
"
		status=1
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
		die "cannot create temp directories in $tmp"
	timed "$c-gnu" sort -S "$budget" -s -t "$tab" "$@" \
	    -T "$tmp/T-$c-gnu" "$tmp/body"
	timed "$c-gnu1" sort --parallel=1 -S "$budget" -s -t "$tab" "$@" \
	    -T "$tmp/T-$c-gnu1" "$tmp/body"
	check "$c: sort --parallel=1 = sort" "$tmp/$c-gnu1.out" \
	    "$tmp/$c-gnu.out"
	rm -f "$tmp/$c-gnu1.out"
	timed "$c-ext" "$root/extsort" -v -S "$budget" -T "$tmp/T-$c-ext" \
	    -k "$ext" "$input"
	check_empty "$c: extsort's temp directory empty afterwards" \
	    "$tmp/T-$c-ext"
	if [ "$(head -n 1 "$tmp/$c-ext.out")" = "$hdr" ]; then
		checks="$checks$c: extsort keeps the header on top: OK
"
	else
		checks="$checks$c: extsort keeps the header on top: MISMATCH
"
		status=1
	fi
	tail -n +2 "$tmp/$c-ext.out" > "$tmp/$c-ext.body" ||
		die "cannot write $tmp/$c-ext.body"
	rm -f "$tmp/$c-ext.out"
	check "$c: extsort -k $ext = sort -s $*" "$tmp/$c-ext.body" \
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
}' || die "cannot print the table"
echo
printf 'extsort -v:\n%s\n' "$notes"
printf '%s' "$checks"

if [ "${BENCH_CLEAN:-0}" = 1 ]; then
	rm -rf "$tmp"
	rm -f "$input"
	rmdir "$dir" 2>/dev/null
fi
exit "$status"
