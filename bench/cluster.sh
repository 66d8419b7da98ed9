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
# 4. The root's cuts job on 2 million rows (BENCH_CUTS_ROWS) whose first
#    column has a value per row: its groups held (-S 4G) against spooled
#    and streamed (the default -S): wall and peak RSS, outputs compared.
# Per step: CPU seconds (user + sys of every process, GNU time), wall
# seconds, the ratio mapred / single, and the bytes of map output and
# shuffled; every output is compared byte for byte with cmp.
# Environment: BENCH_ROWS (default 10000000), BENCH_SPLITS (default 8),
# BENCH_REDUCERS (default 2), BENCH_DIR (default ${TMPDIR:-/tmp}/kanon-bench)
# keeps the generated table across runs (the same one as bench/run),
# BENCH_CLEAN=1 removes it at the end.
# Exit status: 0 when every run completed and every output matched, 1 on
# a mismatch, 2 on an error.

# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

bench_root
bench_need freqset lattice-search recode partition gendata
[ -f "$root/mapred" ] || bench_die "$root/mapred is missing"
"$root/recode" --help 2>&1 | grep -q -- --classes ||
	bench_die "recode has no --classes option (needed for the map-only recode)"

rows=${BENCH_ROWS:-10000000}
bench_number BENCH_ROWS "$rows" 1
splits=${BENCH_SPLITS:-8}
bench_number BENCH_SPLITS "$splits" 1
reducers=${BENCH_REDUCERS:-2}
bench_number BENCH_REDUCERS "$reducers" 1

# "user sys wall" of every command: GNU time's CPU figures cover every
# process it waits for, so every task of mapred.
bench_need_gnu_time '%U %S %e'
bench_dir
bench_tmpdir cluster

# The tasks find the copied programs first on PATH.
bench_copy freqset lattice-search recode partition mapred
PATH=$tmp/bin:$PATH
export PATH

bench_uniform "$rows"
bench_machine

# shuffle NAME: "map-output-bytes shuffled-bytes" from mapred -v's
# report in $tmp/NAME.err.
shuffle() {
	sed -n 's/^mapred: map output \([0-9]*\) bytes.*/\1/p' "$tmp/$1.err" |
		tr '\n' ' '
	sed -n 's/^mapred: shuffled \([0-9]*\) bytes$/\1/p' "$tmp/$1.err"
}

# Equal outputs are "identical" in the list of checks.
bench_ok=identical

Q=a1,a2,a3
cols=$tmp/cols
printf 'a1\na2\na3\na4\na5\na6\na7\na8\na9\n' > "$cols"
hdr=$(head -n 1 "$input") || bench_die "cannot read $input"
[ "$hdr" = "$(tr '\n' '\t' < "$cols" | sed 's/\t$//')" ] ||
	bench_die "$input: unexpected header '$hdr'"
keys=$Q,count
H="-H a1=interval:10,50 -H a2=interval:10,50 -H a3=interval:10,50"
K="-k 20 --max-suppress 1%"
mr="mapred -v -n $splits -r $reducers -T $tmp"

echo "running (rows: $rows, splits: $splits, reducers: $reducers) ..."

# ---- 1. the freqset job --------------------------------------------------
bench_timed fs1 freqset -q "$Q" "$input"
# shellcheck disable=SC2086 # $mr is a command line
bench_timed fsmr $mr \
	-m "freqset --columns-file $cols --skip-header -q $Q --no-header" \
	-c "freqset --merge --sorted --columns $keys --no-header" \
	-R "freqset --merge --sorted --columns $keys --no-header" "$input"
# The merge of the reducers' outputs: each is sorted, the concatenation
# is not (a cluster would sort -m its part files).
# shellcheck disable=SC2016
bench_timed merge sh -c 'printf "a1\ta2\ta3\tcount\n"; sort -T "$2" "$1"' sh \
	"$tmp/fsmr.out" "$tmp"
bench_check "freqset job = freqset -q $Q" "$tmp/merge.out" "$tmp/fs1.out"
rm -f "$tmp/fsmr.out"

# The same job with a mapper that aggregates nothing: one line per row,
# so that the combiner has work.
# shellcheck disable=SC2016
naive='awk -F "\t" -v "OFS=\t" '\''$1 != "a1" { print $1, $2, $3, 1 }'\'
# shellcheck disable=SC2086
bench_timed naive $mr -m "$naive" \
	-c "freqset --merge --sorted --columns $keys --no-header" \
	-R "freqset --merge --sorted --columns $keys --no-header" "$input"
{ head -n 1 "$tmp/fs1.out"; sort -T "$tmp" "$tmp/naive.out"; } > "$tmp/naive.cmp" ||
	bench_die "cannot sort the output of the naive job"
bench_check "freqset job, awk mapper = freqset -q $Q" "$tmp/naive.cmp" \
	"$tmp/fs1.out"
rm -f "$tmp/naive.out" "$tmp/naive.cmp"

# ---- 2. the full-domain pipeline -----------------------------------------
# shellcheck disable=SC2086 # $H and $K are lists of options
bench_timed ls1 lattice-search $H $K --best "$tmp/fs1.out"
# shellcheck disable=SC2086
bench_timed lsmr lattice-search $H $K --best "$tmp/merge.out"
bench_check "lattice-search on the merged frequency set" "$tmp/lsmr.out" \
	"$tmp/ls1.out"
node=$(sed -n 2p "$tmp/ls1.out" | cut -f1-3 | tr '\t' ,)
# shellcheck disable=SC2086
bench_timed rc1 recode -n "$tmp/ls1.out" $H $K "$input"
# shellcheck disable=SC2086
bench_timed rcmr $mr \
	-m "recode -n $tmp/lsmr.out $H $K --classes $tmp/merge.out --part \
--columns-file $cols --skip-header" "$input"
tail -n +2 "$tmp/rc1.out" > "$tmp/rc1.cmp" ||
	bench_die "cannot read the release"
bench_check "recode map-only job = recode, less its header" "$tmp/rcmr.out" \
	"$tmp/rc1.cmp"
rm -f "$tmp/rc1.out" "$tmp/rc1.cmp" "$tmp/rcmr.out"

# ---- 3. Mondrian ---------------------------------------------------------
MQ=a1,a2,a3,a4,a5
bench_timed mo1 partition -q "$MQ" -k 10 -r "$tmp/mo1.regions" "$input"
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
bench_timed momr sh "$tmp/mondrian.sh"
tail -n +2 "$tmp/mo1.out" > "$tmp/mo1.cmp" ||
	bench_die "cannot read partition's table"
bench_check "Mondrian cluster jobs = partition, less its header" \
	"$tmp/momr.out" "$tmp/mo1.cmp"
bench_check "Mondrian cluster regions = partition -r" "$tmp/momr.regions" \
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
}' || bench_die "cannot print the table"

# ---- 4. The root's cuts job of a column with a value per row ------------
# Its groups held (-S 4G) and spooled and streamed (the default -S, 64M):
# wall seconds and peak RSS, the outputs compared.
n4=${BENCH_CUTS_ROWS:-2000000}
bench_number BENCH_CUTS_ROWS "$n4" 1
o4="-q a,b -k 10 --columns a,b,s"
awk -v n="$n4" 'BEGIN { srand(3); print "a\tb\ts"
    for (i = 0; i < n; i++)
	printf "%d\t%d\t%d\n", i * 7, int(rand() * 50), int(rand() * 1000) }' \
    > "$tmp/v.tsv" || bench_die "cannot write $tmp/v.tsv"
: > "$tmp/v.tree"
# shellcheck disable=SC2086
tail -n +2 "$tmp/v.tsv" | partition $o4 --job groups --tree "$tmp/v.tree" |
    LC_ALL=C sort -S 256M -T "$tmp" |
    freqset --merge --sorted --columns node,q,v,s,y,count --no-header \
    > "$tmp/v.groups" || bench_die "cannot count the root's groups"
for s4 in 4G 64M; do
	# shellcheck disable=SC2086
	"$TIME" -f '%e %M' -o "$tmp/v.$s4.time" partition $o4 -S "$s4" \
	    -T "$tmp" --job cuts --tree "$tmp/v.tree" < "$tmp/v.groups" \
	    > "$tmp/v.$s4.out" || bench_die "the cuts job failed at -S $s4"
done
bench_check "cuts job, groups streamed (-S 64M) = held (-S 4G)" \
    "$tmp/v.64M.out" "$tmp/v.4G.out"
printf '\n4. the root'"'"'s cuts job, %d rows, a column with a value per row (%d groups)\n' \
    "$n4" "$(wc -l < "$tmp/v.groups")"
for s4 in 4G 64M; do
	tail -n 1 "$tmp/v.$s4.time" | awk -v s="$s4" '{ printf "   -S %-4s %s: %6.2f s wall, %7.1f MiB peak RSS\n", s,
	    s == "4G" ? "(held)    " : "(streamed)", $1, $2 / 1024 }'
done
rm -f "$tmp/v.tsv" "$tmp/v.groups"

echo
printf '%s' "$checks"

bench_clean "$input"
exit "$status"
