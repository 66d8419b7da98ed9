#!/bin/sh
# Benchmark of the kanon filters as map-reduce steps, through mapred (the
# local simulation of Hadoop Streaming), against the single-process run,
# side by side in one run.  See bench/README.md.
# Usage: sh bench/cluster.sh (bench/run, and so make bench, runs it too).
#
# 1. The freqset job: freqset -q a1,a2,a3 over the table, as mapper
#    (headerless, --skip-header), combiner and reducer (freqset --merge
#    --sorted); beside it the same job with a mapper that writes one
#    line per row (awk), to show the bytes before and after the
#    combiner.
# 2. The full-domain pipeline: the freqset job, the merge of the
#    reducers' outputs, lattice-search --best on the merged frequency
#    set, and recode --classes as a map-only job; against freqset,
#    lattice-search and recode on the whole table.
# 3. Mondrian: partition -q a1,...,a5 -k 10 -r on the whole table,
#    against partition's cluster jobs (--job; --fit-rows 1000000): the
#    level jobs (groups, freqset --merge --sorted as combiner, cuts)
#    until no node is open, the rows and solve job, the map-only
#    classes job and the regions; table and regions compared.
# Per step: CPU seconds (user + sys of every process, GNU time), wall
# seconds, the ratio mapred / single, and the bytes of map output and
# shuffled; every output is compared byte for byte with cmp.
# Environment: BENCH_ROWS (default 10000000), BENCH_SPLITS (default 8),
# BENCH_REDUCERS (default 2), BENCH_DIR (default ${TMPDIR:-/tmp}/kanon-bench)
# keeps the generated table across runs (the same one as bench/run),
# BENCH_CLEAN=1 removes it at the end.
# Exit status: 0 when every run completed and every output matched, 1 on
# a mismatch, 2 on an error.

LC_ALL=C
export LC_ALL

die() {
	echo "bench: $*" >&2
	exit 2
}

root=$(cd "$(dirname "$0")/.." && pwd -P) || die "cannot find the repository"
for p in freqset lattice-search recode partition gendata; do
	[ -x "$root/$p" ] || die "$root/$p not built: run make first"
done
[ -f "$root/mapred" ] || die "$root/mapred is missing"
"$root/recode" --help 2>&1 | grep -q -- --classes ||
	die "recode has no --classes option (needed for the map-only recode)"

num() {
	case $2 in
	'' | *[!0-9]*) die "$1 must be a number: '$2'" ;;
	esac
	[ "$2" -gt 0 ] || die "$1 must be at least 1"
}
rows=${BENCH_ROWS:-10000000}
num BENCH_ROWS "$rows"
splits=${BENCH_SPLITS:-8}
num BENCH_SPLITS "$splits"
reducers=${BENCH_REDUCERS:-2}
num BENCH_REDUCERS "$reducers"

TIME=/usr/bin/time
[ -x "$TIME" ] || die "GNU time is needed at $TIME (package 'time'); it is not there"
"$TIME" -f '%U %S %e %M' -o /dev/null true 2>/dev/null ||
	die "$TIME is not GNU time (no -f/-o options)"

# inside_repo PATH: true when the absolute PATH lies in the repository.
rootl=$(cd "$(dirname "$0")/.." && pwd -L)
inside_repo() {
	case $1/ in
	"$root"/* | "$rootl"/*) return 0 ;;
	esac
	return 1
}
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

tmp=$(mktemp -d "$dir/cluster.XXXXXX") || die "cannot create a directory in $dir"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

# The programs are copied, so that a rebuild during the run cannot mix
# two versions; the tasks find them first on PATH.
mkdir "$tmp/bin" || die "cannot create $tmp/bin"
for p in freqset lattice-search recode partition mapred; do
	cp "$root/$p" "$tmp/bin/" || die "cannot copy $p"
done
PATH=$tmp/bin:$PATH
export PATH

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
cat "$input" > /dev/null	# warm the page cache before any timed run

ncpu=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null) ||
	ncpu=unknown
model=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo 2>/dev/null |
	sed 1q)
[ -n "$model" ] || model=unknown

# timed NAME COMMAND...: runs COMMAND under GNU time (the CPU of every
# process it waits for, so of every task of mapred); stdout goes to
# $tmp/NAME.out, stderr to $tmp/NAME.err, "user sys wall" to
# $tmp/NAME.time.
timed() {
	name=$1
	shift
	if ! "$TIME" -f '%U %S %e' -o "$tmp/$name.time" "$@" \
	    > "$tmp/$name.out" 2> "$tmp/$name.err"; then
		cat "$tmp/$name.err" >&2
		die "$name failed: $*"
	fi
	tail -n 1 "$tmp/$name.time" > "$tmp/$name.t" &&
		mv "$tmp/$name.t" "$tmp/$name.time"
}

# shuffle NAME: "map-output-bytes shuffled-bytes" from mapred -v's
# report in $tmp/NAME.err.
shuffle() {
	sed -n 's/^mapred: map output \([0-9]*\) bytes.*/\1/p' "$tmp/$1.err" |
		tr '\n' ' '
	sed -n 's/^mapred: shuffled \([0-9]*\) bytes$/\1/p' "$tmp/$1.err"
}

status=0
checks=

# check LABEL A B: compares two files byte for byte.
check() {
	if cmp -s "$2" "$3"; then
		checks="$checks$1: identical
"
	else
		checks="$checks$1: MISMATCH
"
		status=1
	fi
}

Q=a1,a2,a3
cols=$tmp/cols
printf 'a1\na2\na3\na4\na5\na6\na7\na8\na9\n' > "$cols"
hdr=$(head -n 1 "$input") || die "cannot read $input"
[ "$hdr" = "$(tr '\n' '\t' < "$cols" | sed 's/\t$//')" ] ||
	die "$input: unexpected header '$hdr'"
keys=$Q,count
H="-H a1=interval:10,50 -H a2=interval:10,50 -H a3=interval:10,50"
K="-k 20 --max-suppress 1%"
mr="mapred -v -n $splits -r $reducers -T $tmp"

echo "running (rows: $rows, splits: $splits, reducers: $reducers) ..."

# ---- 1. the freqset job --------------------------------------------------
timed fs1 freqset -q "$Q" "$input"
# shellcheck disable=SC2086 # $mr is a command line
timed fsmr $mr \
	-m "freqset --columns-file $cols --skip-header -q $Q --no-header" \
	-c "freqset --merge --sorted --columns $keys --no-header" \
	-R "freqset --merge --sorted --columns $keys --no-header" "$input"
# The merge of the reducers' outputs: each is sorted, the concatenation
# is not (a cluster would sort -m its part files).
# shellcheck disable=SC2016
timed merge sh -c 'printf "a1\ta2\ta3\tcount\n"; sort -T "$2" "$1"' sh \
	"$tmp/fsmr.out" "$tmp"
check "freqset job = freqset -q $Q" "$tmp/merge.out" "$tmp/fs1.out"
rm -f "$tmp/fsmr.out"

# The same job with a mapper that aggregates nothing: one line per row,
# so that the combiner has work.
# shellcheck disable=SC2016
naive='awk -F "\t" -v "OFS=\t" '\''$1 != "a1" { print $1, $2, $3, 1 }'\'
# shellcheck disable=SC2086
timed naive $mr -m "$naive" \
	-c "freqset --merge --sorted --columns $keys --no-header" \
	-R "freqset --merge --sorted --columns $keys --no-header" "$input"
{ head -n 1 "$tmp/fs1.out"; sort -T "$tmp" "$tmp/naive.out"; } > "$tmp/naive.cmp" ||
	die "cannot sort the output of the naive job"
check "freqset job, awk mapper = freqset -q $Q" "$tmp/naive.cmp" "$tmp/fs1.out"
rm -f "$tmp/naive.out" "$tmp/naive.cmp"

# ---- 2. the full-domain pipeline -----------------------------------------
# shellcheck disable=SC2086 # $H and $K are lists of options
timed ls1 lattice-search $H $K --best "$tmp/fs1.out"
# shellcheck disable=SC2086
timed lsmr lattice-search $H $K --best "$tmp/merge.out"
check "lattice-search on the merged frequency set" "$tmp/lsmr.out" \
	"$tmp/ls1.out"
node=$(sed -n 2p "$tmp/ls1.out" | cut -f1-3 | tr '\t' ,)
# shellcheck disable=SC2086
timed rc1 recode -n "$tmp/ls1.out" $H $K "$input"
# shellcheck disable=SC2086
timed rcmr $mr -m "recode -n $tmp/lsmr.out $H $K --classes $tmp/merge.out \
--columns-file $cols --skip-header" "$input"
tail -n +2 "$tmp/rc1.out" > "$tmp/rc1.cmp" || die "cannot read the release"
check "recode map-only job = recode, less its header" "$tmp/rcmr.out" \
	"$tmp/rc1.cmp"
rm -f "$tmp/rc1.out" "$tmp/rc1.cmp" "$tmp/rcmr.out"

# ---- 3. Mondrian ---------------------------------------------------------
MQ=a1,a2,a3,a4,a5
timed mo1 partition -q "$MQ" -k 10 -r "$tmp/mo1.regions" "$input"
# The driver: the loop of partition(1), On a cluster.
cat > "$tmp/mondrian.sh" <<EOF
o="-q $MQ -k 10 --columns-file $cols --fit-rows 1000000"
t=$tmp/tree
: > \$t
levels=0
while open=\$(partition \$o --job open --tree \$t) && [ -n "\$open" ]; do
	$mr -m "partition \$o --skip-header --job groups --tree \$t" \\
	    -c "freqset --merge --sorted --columns node,q,v,s,y,count --no-header" \\
	    -R "partition \$o --job cuts --tree \$t" "$input" > $tmp/level || exit
	[ -s $tmp/level ] || break
	cat $tmp/level >> \$t
	levels=\$((levels + 1))
done
$mr -m "partition \$o --skip-header --job rows --tree \$t" \\
    -R "partition \$o --job solve --tree \$t" "$input" > $tmp/solved || exit
cat $tmp/solved >> \$t
$mr -m "partition \$o --skip-header --job classes --tree \$t" "$input" || exit
partition \$o --job regions --tree \$t > $tmp/momr.regions || exit
echo "levels \$levels" >&2
EOF
timed momr sh "$tmp/mondrian.sh"
tail -n +2 "$tmp/mo1.out" > "$tmp/mo1.cmp" || die "cannot read partition's table"
check "Mondrian cluster jobs = partition, less its header" "$tmp/momr.out" \
	"$tmp/mo1.cmp"
check "Mondrian cluster regions = partition -r" "$tmp/momr.regions" \
	"$tmp/mo1.regions"
levels=$(sed -n 's/^levels //p' "$tmp/momr.err")
rm -f "$tmp/mo1.out" "$tmp/mo1.cmp" "$tmp/momr.out" "$tmp/solved"

# The table.  MB are 10^6 bytes.
{
	for r in fs1 fsmr merge naive ls1 lsmr rc1 rcmr mo1 momr; do
		echo "$r $(cat "$tmp/$r.time")"
	done
	for r in fsmr naive rcmr; do
		echo "bytes $r $(shuffle $r)"
	done
	# The Mondrian driver runs several jobs: their bytes added.
	sed -n 's/^mapred: map output \([0-9]*\) bytes.*/\1/p' "$tmp/momr.err" |
	    awk '{ s += $1 } END { printf "bytes momr %d ", s }'
	sed -n 's/^mapred: shuffled \([0-9]*\) bytes$/\1/p' "$tmp/momr.err" |
	    awk '{ s += $1 } END { printf "%d\n", s }'
} | awk -v rows="$rows" -v mb="$bytes" -v ncpu="$ncpu" -v model="$model" \
	-v path="$input" -v n="$splits" -v r="$reducers" -v node="$node" \
	-v levels="$levels" '
$1 == "bytes" { mapout[$2] = $3; shuf[$2] = $4; next }
{ cpu[$1] = $2 + $3; wall[$1] = $4; seen[$1] = 1 }
function mbs(x) { return x == "" ? "-" : sprintf("%.1f", x / 1e6) }
function ratio(a, b) { return b > 0 ? sprintf("%.2f", a / b) : "-" }
# row STEP SINGLE MAPRED: one line of the table; an empty name is "-".
function row(step, s, m,   sc, sw, mc, mw) {
	sc = s == "" ? "-" : sprintf("%.2f", cpu[s])
	sw = s == "" ? "-" : sprintf("%.2f", wall[s])
	mc = m == "" ? "-" : sprintf("%.2f", cpu[m])
	mw = m == "" ? "-" : sprintf("%.2f", wall[m])
	printf "%-34s %7s %7s   %7s %7s   %6s %6s   %8s %8s\n", step, sc, sw,
	    mc, mw, (s == "" || m == "") ? "-" : ratio(cpu[m], cpu[s]),
	    (s == "" || m == "") ? "-" : ratio(wall[m], wall[s]),
	    m == "" ? "-" : mbs(mapout[m]), m == "" ? "-" : mbs(shuf[m])
}
END {
	printf "kanon cluster bench: %d rows x 9 columns (uniform, card 100, seed 1)\n", rows
	printf "input: %.1f MB (%s)\n", mb / 1e6, path
	printf "mapred: %d splits, %d reducers, 2 tasks at a time\n", n, r
	printf "nproc: %s   CPU: %s\n\n", ncpu, model
	printf "%-34s %17s   %17s   %13s   %17s\n", "", "single process", "mapred",
	    "mapred/single", "MB"
	printf "%-34s %7s %7s   %7s %7s   %6s %6s   %8s %8s\n", "step", "CPU s",
	    "wall s", "CPU s", "wall s", "CPU", "wall", "map out", "shuffled"
	row("1. freqset -q a1,a2,a3", "fs1", "fsmr")
	row("   (awk mapper, one line a row)", "fs1", "naive")
	print ""
	print "2. full-domain pipeline (k 20, 1% suppressed; node " node ")"
	row("   freqset (the job of 1.)", "fs1", "fsmr")
	row("   merge the reducers (sort)", "", "merge")
	row("   lattice-search --best", "ls1", "lsmr")
	row("   recode (mapred: map-only)", "rc1", "rcmr")
	cpu["t1"] = cpu["fs1"] + cpu["ls1"] + cpu["rc1"]
	wall["t1"] = wall["fs1"] + wall["ls1"] + wall["rc1"]
	cpu["tm"] = cpu["fsmr"] + cpu["merge"] + cpu["lsmr"] + cpu["rcmr"]
	wall["tm"] = wall["fsmr"] + wall["merge"] + wall["lsmr"] + wall["rcmr"]
	mapout["tm"] = ""; shuf["tm"] = ""
	row("   total", "t1", "tm")
	print ""
	print "3. Mondrian (-q a1,...,a5 -k 10; " levels " levels, then nodes of"
	print "   at most 1000000 rows solved in memory)"
	row("   partition (mapred: every job)", "mo1", "momr")
	print ""
	print "CPU: user + sys of every process; map out: the map output before the"
	print "combiner; shuffled: after it, the reducers\047 input (mapred -v)."
}' || die "cannot print the table"
echo
printf '%s' "$checks"

if [ "${BENCH_CLEAN:-0}" = 1 ]; then
	rm -rf "$tmp"
	rm -f "$input"
	rmdir "$dir" 2>/dev/null
fi
exit "$status"
