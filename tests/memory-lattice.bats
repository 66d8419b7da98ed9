#!/usr/bin/env bats
# lattice-search within -S (issue 17): what the search holds (the
# input's frequency set, the hierarchies' labels, the level maps, the
# roll-ups' work space) is counted against the budget; when it does not
# fit, the frequency set goes to disk (latdisk.c: the leaves of a
# generated hierarchy ranked by a sort, a node's set one pass over the
# file, sorted when it passes its share), and only what is still held
# then (the labels above the leaves, their maps, the sensitive values)
# may be refused (exit 2), with what takes the memory.  On a table with a
# numeric quasi-identifier distinct in every row (a generated interval
# hierarchy, a leaf per row): the output at a small -S is the bytes of
# -S 16G for every algorithm, with suppression, --best, --all and
# l-diversity, and the peak RSS (tests/peak-rss) stays within the budget
# plus the allowance.  The same at 1 million rows and -S 8M is the last
# test; bench/memory.sh's lattice step takes 3 million rows at -S 16M
# (its cut) and 50 million at -S 256M.

load common

# What a run may take besides -S, in KB: what the dictionaries grow by
# between two checks of the reading (every 4096 groups), the heap's
# holes, the pieces of a sorted set (latdisk.c), the program, the C
# library, the reader's and stdio's buffers; half the 32 MiB of
# bench/memory.sh's goal.
ALLOW_KB=16384
# Under make sanitize (ASAN_OPTIONS set) the peak RSS is ASan's shadow
# and quarantine, not the program's: only the bytes are checked there.

Q=w,age,salary,zipcode,car
H="-H w=interval:1000,100000,10000000 -H age=interval:5,10,20,40
-H salary=interval:10000,50000 -H zipcode=interval:3 -H car=interval:5,10"

# table N SEED: Agrawal's table of N rows and w, distinct in every row
# (the row's number times 100000007 modulo 2^27, a permutation).
table() {
	gendata -n "$1" --seed "$2" agrawal | awk -F '\t' 'BEGIN { OFS = "\t" }
	    NR == 1 { print $0, "w"; next }
	    { print $0, ((NR - 1) * 100000007) % 134217728 }'
}

setup_file() {
	[ -x "$ROOT/tests/peak-rss" ] || make -s -C "$ROOT" tests/peak-rss
	table 20000 4 > "$BATS_FILE_TMPDIR/small.tsv"
	table 50000 2 > "$BATS_FILE_TMPDIR/mid.tsv"
}

setup() {
	T=$BATS_TEST_TMPDIR
	B=$BATS_FILE_TMPDIR
	mkdir "$T/tmp"
}

# same BUDGET FILE ARGS...: lattice-search ARGS on FILE at -S BUDGET
# (stderr of -v in $T/err) gives the bytes of -S 16G, its peak RSS
# within BUDGET (in KB) plus the allowance, its temp files gone.
same() {
	local kb=$1 f=$2
	shift 2
	# $H is split into words on purpose.
	# shellcheck disable=SC2086
	"$ROOT/tests/peak-rss" "$T/rss" lattice-search -v -S "${kb}K" \
	    -T "$T/tmp" $H -q $Q "$@" "$f" > "$T/small" 2> "$T/err" ||
		{ cat "$T/err"; false; }
	# shellcheck disable=SC2086
	lattice-search -S 16G $H -q $Q "$@" "$f" > "$T/big"
	cmp "$T/small" "$T/big"
	[ "$(wc -l < "$T/big")" -ge 2 ]
	echo "lattice-search -S ${kb}K $*: peak $(cat "$T/rss") KB"
	# cube keeps the ungeneralized set of every subset of the
	# quasi-identifiers, not counted (lattice-search(1), -S).
	[ -n "${ASAN_OPTIONS:-}" ] || [[ " $* " == *" cube "* ]] ||
	    [ "$(cat "$T/rss")" -le $((kb + ALLOW_KB)) ]
	[ -z "$(ls "$T/tmp")" ]
}

@test "tests/peak-rss is built (make tests/peak-rss)" {
	[ -x "$ROOT/tests/peak-rss" ]
}

@test "-S 1M, 20,000 distinct values: every algorithm gives the bytes of -S 16G, with suppression" {
	for a in flash bfs bfs-scan incognito super-roots cube samarati; do
		same 1024 "$B/small.tsv" -a $a -k 20 --max-suppress 1%
	done
	# The flash run keeps no set: the budget is the fixed part's.
	same 1024 "$B/small.tsv" -k 20 --max-suppress 1%
	grep -q 'sets not kept within -S (0 MiB of it left for them' "$T/err"
}

@test "-S 1M: --best by each metric, --all, -j 2 and no suppression give the bytes of -S 16G" {
	for m in cdm cavg height prec loss; do
		same 1024 "$B/small.tsv" -k 50 --max-suppress 2% --best --metric $m
	done
	same 1024 "$B/small.tsv" -k 50 --max-suppress 2% --all
	same 1024 "$B/small.tsv" -a incognito -j 2 -k 10 --max-suppress 1
	same 1024 "$B/small.tsv" -k 5
}

@test "-S 1M: l-diversity (distinct, and entropy with suppression: not monotone) gives the bytes of -S 16G" {
	same 1024 "$B/small.tsv" -k 5 -s elevel -l 2 --max-suppress 1%
	same 1024 "$B/small.tsv" -a bfs -k 5 -s elevel -l 2 --max-suppress 1%
	same 1024 "$B/small.tsv" -k 5 -s elevel -l 2 --diversity entropy \
	    --max-suppress 1%
	grep -q 'not monotone' "$T/err"
}

@test "-S 12M, 50,000 distinct values: the sets kept within what is left, the bytes of -S 16G" {
	same 12288 "$B/mid.tsv" -k 50 --max-suppress 1%
	same 12288 "$B/mid.tsv" -k 50 --max-suppress 1% --best
	same 12288 "$B/mid.tsv" -a bfs -k 50 --max-suppress 1%
	grep -q 'sets not kept within -S ([0-9]* MiB of it left for them: the input, the labels, the level maps and the roll-ups. work space hold [0-9]* MiB)' "$T/err"
}

@test "-S 1M, 50,000 distinct values: the frequency set on disk, the bytes of -S 16G within the budget" {
	same 1024 "$B/mid.tsv" -k 50 --max-suppress 1%
	grep -q 'frequency set on disk' "$T/err"
	same 1024 "$B/mid.tsv" -k 50 --max-suppress 1% --best --metric loss
	same 1024 "$B/mid.tsv" -k 50 -s elevel -l 2 --max-suppress 1%
	same 1024 "$B/mid.tsv" -a super-roots -k 50 --max-suppress 1% --all
}

@test "-S 64K, 1M and 4M, 150,000 distinct values read into a generated hierarchy: the frequency set goes to disk before the dictionaries' next growth passes the slack, the peak within -S plus 12 MiB (found by the -j/-S pass: 15.7 to 17.0 MB)" {
	awk 'BEGIN { print "n"; for (i = 0; i < 150000; i++)
	    print (i * 7919) % 150000 }' > "$T/n.tsv"
	lattice-search -S 16G -H n=interval:10,100,1000 -q n -k 4 \
	    "$T/n.tsv" > "$T/big"
	for kb in 64 1024 4096; do
		"$ROOT/tests/peak-rss" "$T/rss" lattice-search -v -S "${kb}K" \
		    -T "$T/tmp" -H n=interval:10,100,1000 -q n -k 4 \
		    "$T/n.tsv" > "$T/small" 2> "$T/err"
		cmp "$T/small" "$T/big"
		grep -q 'frequency set on disk' "$T/err"
		echo "-S ${kb}K: peak $(cat "$T/rss") KB"
		[ -n "${ASAN_OPTIONS:-}" ] ||
		    [ "$(cat "$T/rss")" -le $((kb + 12288)) ]
	done
	[ -z "$(ls "$T/tmp")" ]
}

@test "-S 16M and 32M, -j 2, from a pipe (the rows counted on the threads, each value checked against its hierarchy, the leaves made after): the bytes of -S 16G, the peak within the budget" {
	table 300000 5 > "$T/big.tsv"
	# shellcheck disable=SC2086
	lattice-search -j 1 -S 16G $H -q $Q -k 50 "$T/big.tsv" > "$T/want"
	[ "$(wc -l < "$T/want")" -ge 2 ]
	for kb in 16384 32768; do
		# shellcheck disable=SC2086
		"$ROOT/tests/peak-rss" "$T/rss" lattice-search -j 2 -S "${kb}K" \
		    -T "$T/tmp" $H -q $Q -k 50 - < <(cat "$T/big.tsv") \
		    > "$T/got"
		cmp "$T/want" "$T/got"
		echo "-S ${kb}K: peak $(cat "$T/rss") KB"
		[ -n "${ASAN_OPTIONS:-}" ] ||
		    [ "$(cat "$T/rss")" -le $((kb + ALLOW_KB)) ]
	done
	[ -z "$(ls "$T/tmp")" ]
}

@test "-S 1M, classes of more groups than a set made in memory holds (their sensitive values): from sorts, or with t-closeness counted whole, the bytes of -S 16G" {
	# s takes 5,000 values: a class near the top of the lattice holds
	# thousands of groups, sets of 1,024 are made in memory; t-closeness
	# holds the values, and a class's groups are counted in memory.
	awk -F '\t' 'BEGIN { OFS = "\t" } NR == 1 { print $0, "s"; next }
	    { print $0, ((NR - 1) * 7919) % 5000 }' "$B/mid.tsv" > "$T/s.tsv"
	local a=(-H w=interval:1000,100000,10000000 -H age=interval:5,10,20,40
	    -q w,age -s s -k 5 --max-suppress 1%)
	for l in "-l 2" "-l 3 --diversity entropy" "-l 2 --all" \
	    "--closeness 0.9"; do
		# shellcheck disable=SC2086 # the options, split on purpose
		lattice-search -v -S 1M -T "$T/tmp" "${a[@]}" $l "$T/s.tsv" \
		    > "$T/small" 2> "$T/err" || { cat "$T/err"; false; }
		grep -q 'sets of up to 1024 groups made in memory, larger ones counted in parts on disk ([1-9]' "$T/err"
		# shellcheck disable=SC2086
		lattice-search -S 16G "${a[@]}" $l "$T/s.tsv" > "$T/big"
		cmp "$T/small" "$T/big"
		[ "$(wc -l < "$T/big")" -ge 3 ]
	done
	# Few open files: parts of two at a time, each closed once read.
	# shellcheck disable=SC2086
	(ulimit -Sn 16 && lattice-search -S 1M -T "$T/tmp" "${a[@]}" $l \
	    "$T/s.tsv") > "$T/small"
	cmp "$T/small" "$T/big"
	[ -z "$(ls "$T/tmp")" ]
}

@test "-S 1M, sensitive columns distinct in every row (l-diversity of each kind, two columns): numbered on disk, classes larger than a set from sorts, the bytes of -S 16G" {
	local a=(-H age=interval:5,10,20,40 -H zipcode=interval:3 -q age,zipcode
	    -k 5 --max-suppress 1%)
	for l in "-s w -l 2" "-s w -l 3 --diversity entropy --all" \
	    "-s w -l 3 --diversity recursive -c 2" "-s w,hvalue -l 2 --best"; do
		# (100,000 rows: classes larger than a set made in memory.)
		[ -e "$T/t100k" ] || table 100000 2 > "$T/t100k"
		# shellcheck disable=SC2086 # the options, split on purpose
		lattice-search -v -S 1M -T "$T/tmp" "${a[@]}" $l "$T/t100k" \
		    > "$T/small" 2> "$T/err" || { cat "$T/err"; false; }
		grep -q 'classes larger still from sorts of their sensitive values' "$T/err"
		# shellcheck disable=SC2086
		lattice-search -S 16G "${a[@]}" $l "$T/t100k" > "$T/big"
		cmp "$T/small" "$T/big"
		[ "$(wc -l < "$T/big")" -ge 2 ]
	done
	[ -z "$(ls "$T/tmp")" ]
}

@test "-S 1M, t-closeness with the set on disk (equal and ordered; numbers with missing values, text; distributions past their share measured on disk, others held; two columns, l, suppression, classes larger than a set): the bytes of -S 16G, the release true to t by release-check.awk" {
	# s1: some 30,000 numbers (decimals, negatives) and missing values,
	# following a; s2: 24,000 texts; their distributions pass their
	# share of -S, each node's classes are measured on disk.  s3 (100
	# numbers and missing values), s4 (21 texts) and s5 (5,000 numbers):
	# held, from the set on disk; near the top of the lattice a class
	# of s5, or of s3 and s4, has more groups than a set made in memory.
	# (40,000 rows: at 30,000 the set is not on disk at -S 1M.)
	awk -v n=40000 'BEGIN { srand(5); OFS = "\t"
	    print "x", "w", "a", "b", "s1", "s2", "s3", "s4", "s5"
	    for (i = 0; i < n; i++) {
		a = int(rand() * 5000); b = int(rand() * 40); r = rand()
		if (r < 0.03) { s1 = "?"; s3 = "" }
		else if (r < 0.05) { s1 = ""; s3 = "NA" }
		else if (r < 0.07) { s1 = "NA"; s3 = "?" }
		else {
			s1 = a * 10 + int(rand() * 300)
			s3 = int(a / 250) + int(rand() * 6)
			if (rand() < 0.2) { s1 = s1 ".5"; s3 = s3 ".5" }
			if (rand() < 0.1) { s1 = -s1; s3 = -s3 }
		}
		s2 = sprintf("v%d", int(a * 7 + rand() * 3000))
		if (rand() < 0.5)
			s4 = sprintf("v%02d", int(b / 4) + int(rand() * 3))
		else
			s4 = sprintf("x%c", 65 + int(rand() * 4 + a / 1000))
		print i, (i * 100000007) % 134217728, a, b, s1, s2, s3, s4,
		    int(a + rand() * 300)
	    } }' > "$T/t.tsv"
	local h=(-H w=interval:1000,100000,10000000 -H a=interval:10,100,1000
	    -H b=interval:4,20 -k 5 --missing '?,NA')
	local c d t s q how
	while IFS='|' read -r q s t d how c; do
		# shellcheck disable=SC2086 # the options, split on purpose
		set -- -s "$s" --closeness "$t" --distance "$d" $c
		lattice-search -v -S 1M -T "$T/tmp" -q "$q" "${h[@]}" "$@" \
		    "$T/t.tsv" > "$T/small" 2> "$T/err" ||
			{ cat "$T/err"; false; }
		grep -q 'frequency set on disk' "$T/err"
		grep -q "t-closeness: $how" "$T/err"
		[ "$s" = s1 ] || grep -q 'classes larger still from sorts' "$T/err"
		lattice-search -S 16G -q "$q" "${h[@]}" "$@" "$T/t.tsv" > "$T/big"
		cmp "$T/small" "$T/big"
		[ "$(wc -l < "$T/big")" -ge 2 ]
		echo "-q $q $*: $(wc -l < "$T/big") lines, $(sed -n 2p "$T/big")"
	done <<-'EOF'
	w,a,b|s1|0.05|ordered|each node's classes measured on disk|
	w,a|s1|0.8|equal|each node's classes measured on disk|--max-suppress 2%
	w,a,b|s2|0.1|ordered|each node's classes measured on disk|--best --metric loss
	w,a,b|s3,s4|0.2|ordered|the distributions held|--max-suppress 2% --all
	w,a,b|s5|0.7|equal|the distributions held|-l 3
	EOF
	# The first node of s1 (ordered, measured on disk), recoded, checked
	# apart from the programs.
	lattice-search -S 1M -T "$T/tmp" -q w,a,b "${h[@]}" -s s1 \
	    --closeness 0.05 --distance ordered "$T/t.tsv" > "$T/nodes"
	recode -n "$T/nodes" -S 1M -T "$T/tmp" "${h[@]}" -s s1 \
	    --closeness 0.05 --distance ordered "$T/t.tsv" > "$T/rel"
	awk -f "$BATS_TEST_DIRNAME/release-check.awk" -v id=x -v qi=w,a,b \
	    -v gen=w,a,b -v k=5 -v scol=s1 -v t=0.05 -v dist=ordered \
	    -v missing='?,NA' "$T/t.tsv" "$T/rel"
	[ -z "$(ls "$T/tmp")" ]
}

@test "-S 1M, t-closeness measured on disk, ordered, with --missing tokens that read as numbers (0, 999): the bytes of -S 16G (review: the ids of the values, given as numbers, were taken for the tokens)" {
	awk 'BEGIN { srand(1); OFS = "\t"; print "x", "w", "a", "s"
	    for (i = 0; i < 60000; i++)
		print i, (i * 100000007) % 134217728, int(rand() * 500),
		    sprintf("%.4f", rand() * 1000) }' > "$T/t.tsv"
	local a=(-q w,a -H w=interval:1000,100000,10000000 -H a=interval:10,100
	    -k 5 -s s --closeness 0.05 --distance ordered --missing 0,999
	    --max-suppress 100% --all)
	lattice-search -v -S 1M -T "$T/tmp" "${a[@]}" "$T/t.tsv" > "$T/small" \
	    2> "$T/err"
	grep -q "t-closeness: each node's classes measured on disk" "$T/err"
	lattice-search -S 16G "${a[@]}" "$T/t.tsv" > "$T/big"
	cmp "$T/small" "$T/big"
	[ "$(wc -l < "$T/big")" -ge 10 ]
	[ -z "$(ls "$T/tmp")" ]
}

@test "-S 4M, long sensitive values (4,000 of 16 KB, distinct): numbered on disk within the budget, checked by their bytes, the bytes of -S 16G" {
	# The reading checks the budget every 4096 groups, or sooner when
	# their values are long; so does the numbering on disk.
	gendata -n 4000 --seed 3 agrawal | awk -F '\t' 'BEGIN { OFS = "\t"
	    for (i = 0; i < 16000; i++) p = p "y" }
	    NR == 1 { print $0, "L"; next } { print $0, p NR }' > "$T/l.tsv"
	local a=(-H age=interval:5,10,20,40 -H zipcode=interval:3 -q age,zipcode
	    -k 5 --max-suppress 1% -s L -l 3 --all)
	"$ROOT/tests/peak-rss" "$T/rss" lattice-search -v -S 4M -T "$T/tmp" \
	    "${a[@]}" "$T/l.tsv" > "$T/small" 2> "$T/err" ||
		{ cat "$T/err"; false; }
	grep -q 'frequency set on disk' "$T/err"
	lattice-search -S 16G "${a[@]}" "$T/l.tsv" > "$T/big"
	cmp "$T/small" "$T/big"
	[ "$(wc -l < "$T/big")" -ge 2 ]
	echo "peak $(cat "$T/rss") KB"
	[ -n "${ASAN_OPTIONS:-}" ] || [ "$(cat "$T/rss")" -le $((4096 + ALLOW_KB)) ]
	[ -z "$(ls "$T/tmp")" ]
}

@test "-S 4M, long quasi-identifier values (1,500 of 64 KB, distinct, a generated hierarchy): their leaves ranked on disk once their bytes pass the share, the bytes of -S 16G" {
	# The leaves' labels were checked every 1024 lines only: 67,800 KB.
	gendata -n 1500 --seed 3 agrawal | awk -F '\t' 'BEGIN { OFS = "\t"
	    for (i = 0; i < 64000; i++) p = p "7" }
	    NR == 1 { print "age", "z"; next }
	    { print $3, p sprintf("%06d", NR) }' > "$T/lq.tsv"
	local a=(-H age=interval:5,10,20,40 -H z=mask:6 -q age,z -k 5
	    --max-suppress 1% --all)
	"$ROOT/tests/peak-rss" "$T/rss" lattice-search -S 4M -T "$T/tmp" \
	    "${a[@]}" "$T/lq.tsv" > "$T/small"
	lattice-search -S 16G "${a[@]}" "$T/lq.tsv" > "$T/big"
	cmp "$T/small" "$T/big"
	echo "peak $(cat "$T/rss") KB"
	[ -n "${ASAN_OPTIONS:-}" ] || [ "$(cat "$T/rss")" -le $((4096 + ALLOW_KB)) ]
	[ -z "$(ls "$T/tmp")" ]
}

@test "-S 4M, 400,000 rows, a sensitive column distinct in every row: its values numbered on disk, a class of them all from sorts, within the budget, the bytes of -S 16G; with t-closeness too" {
	# One quasi-identifier: at the top of the lattice one class holds
	# all the groups, whose counts are sorted on disk, not held.
	# (400,000 rows: the -S 16G runs peak at 88 to 100 MB.)
	table 400000 3 > "$T/s.tsv"
	local a=(-H age=interval:5,10,20,40 -q age -s w -k 5 --max-suppress 1%
	    -l 3 --diversity entropy --all)
	"$ROOT/tests/peak-rss" "$T/rss" lattice-search -v -S 4M -T "$T/tmp" \
	    "${a[@]}" "$T/s.tsv" > "$T/small" 2> "$T/err" ||
		{ cat "$T/err"; false; }
	grep -q 'classes larger still from sorts of their sensitive values' "$T/err"
	lattice-search -S 16G "${a[@]}" "$T/s.tsv" > "$T/big"
	cmp "$T/small" "$T/big"
	echo "peak $(cat "$T/rss") KB"
	[ -n "${ASAN_OPTIONS:-}" ] || [ "$(cat "$T/rss")" -le $((4096 + ALLOW_KB)) ]
	[ -z "$(ls "$T/tmp")" ]
	# t-closeness, equal and ordered: measured on disk (issue 17; it
	# was refused: the column's distribution held in memory).
	for d in equal ordered; do
		a=(-H age=interval:5,10,20,40 -q age -s w --closeness 0.5 -k 5
		    --distance "$d")
		"$ROOT/tests/peak-rss" "$T/rss" lattice-search -v -S 4M \
		    -T "$T/tmp" "${a[@]}" "$T/s.tsv" > "$T/small" 2> "$T/err" ||
			{ cat "$T/err"; false; }
		grep -q "t-closeness: each node's classes measured on disk" "$T/err"
		lattice-search -S 16G "${a[@]}" "$T/s.tsv" > "$T/big"
		cmp "$T/small" "$T/big"
		[ "$(wc -l < "$T/big")" -eq 2 ]
		echo "$d: peak $(cat "$T/rss") KB"
		[ -n "${ASAN_OPTIONS:-}" ] ||
		    [ "$(cat "$T/rss")" -le $((4096 + ALLOW_KB)) ]
	done
	[ -z "$(ls "$T/tmp")" ]
}

@test "-S 2M, Incognito on 8 threads from a frequency set: on disk (one thread), the bytes of -S 16G" {
	# A frequency set as input, its count column read.
	freqset -q "$Q" "$B/mid.tsv" > "$T/f.tsv"
	same 2048 "$T/f.tsv" -a incognito -j 8 -k 5
	grep -q 'frequency set on disk' "$T/err"
}

@test "-S 2M, labels above the leaves that pass it: refused (exit 2), naming the parts and the -S that would do, which does" {
	# An interval of width 1: a label above each leaf, which the
	# search holds (lattice-search(1), -S); within -S and its slack
	# while they are made, past it with their level maps.
	run --separate-stderr lattice-search -S 2M -T "$T/tmp" \
	    -H w=interval:1,10,100 -H age=interval:5,10 -q w,age -k 5 \
	    "$B/mid.tsv"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	echo "$stderr"
	[[ "$stderr" == "lattice-search: -S 2M: too small for this input: with its frequency set of 50000 groups on disk, the labels of the hierarchies above their leaves take "*" MiB, their level maps "*" MiB, "*" MiB in all, held in memory whatever the budget (lattice-search(1), -S): give -S "*"M or more" ]]
	[ -z "$(ls "$T/tmp")" ]
	need=${stderr##*give -S }
	need=${need%% or more}
	lattice-search -S "$need" -H w=interval:1,10,100 -H age=interval:5,10 \
	    -q w,age -k 5 "$B/mid.tsv" > "$T/out"
	[ "$(wc -l < "$T/out")" -ge 2 ]
}

@test "-S 1M, labels above the leaves that pass it while the leaves are ranked: refused as soon as they do, the peak RSS within the budget and its slack (review: 31 MB held at 300,000 values, 259 MB at 3 million, before the refusal)" {
	awk 'BEGIN { print "n\tb"; for (i = 0; i < 300000; i++) printf "%d\t%d\n", i * 13, i % 7 }' > "$T/dn.tsv"
	run --separate-stderr "$ROOT/tests/peak-rss" "$T/rss" lattice-search \
	    -S 1M -T "$T/tmp" -H n=interval:1,10,100 -H b=interval:2 \
	    -q n,b -k 2 "$T/dn.tsv"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[[ "$stderr" == "lattice-search: -S 1M: too small for this input: with its frequency set of 300000 groups on disk, the labels of the hierarchies above their leaves take "*" MiB already, with more to come as the leaves are ranked, held in memory whatever the budget (lattice-search(1), -S): give -S more than "*"M" ]]
	[ -z "$(ls "$T/tmp")" ]
	echo "peak $(cat "$T/rss") KB"
	[ -n "${ASAN_OPTIONS:-}" ] || [ "$(cat "$T/rss")" -le $((1024 + 8192 + ALLOW_KB)) ]
	# The -S it names is one that fails too (it named 16M where 8M did,
	# on a million rows: the slack was not counted).
	more=${stderr##*give -S more than }
	run --separate-stderr lattice-search -S "$more" -T "$T/tmp" \
	    -H n=interval:1,10,100 -H b=interval:2 -q n,b -k 2 "$T/dn.tsv"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"too small for this input"* ]]
}

# The last test's rows and budget (KB): under make sanitize, whose
# runs take four times as long and check no peak, 300,000 rows at half
# the budget, the same paths.  (At 1 million rows -S 4M is refused:
# the labels above the leaves pass it.)
if [ -n "${ASAN_OPTIONS:-}" ]; then
	BIG_ROWS=300000 BIG_KB=4096
else
	BIG_ROWS=1000000 BIG_KB=8192
fi

@test "-S $((BIG_KB / 1024))M, $BIG_ROWS rows (issue 17; bench/memory.sh: 3 million at 16M): the bytes of -S 16G, the peak RSS within the budget" {
	# bench/memory.sh's lattice step (50 million rows at -S 256M, where
	# scale is proven) on a cut: a pass over the set on disk for each
	# set made, 13 sets counted in parts at 1 million rows and -S 8M
	# (8 on 300,000 rows at -S 4M; 18 on 3 million at -S 16M), the
	# -S 16G run peaking at 370 MB.
	table "$BIG_ROWS" 1 > "$T/big.tsv"
	same "$BIG_KB" "$T/big.tsv" -k 1000 --max-suppress 1% --best
	grep -q 'frequency set on disk' "$T/err"
	grep -q 'counted in parts on disk' "$T/err"
}

@test "a lattice whose bookkeeping the system cannot hold is refused with what holds it and what to try, not 'out of memory' (found by the misuse pass: 6.4 GB asked at once)" {
	[ -z "${ASAN_OPTIONS:-}" ] || skip "ulimit -v under ASan"
	cd "$BATS_TEST_TMPDIR"
	awk 'BEGIN { print "a\tb\tc\td"; for (i = 0; i < 50; i++)
	    printf "%d\t%d\t%d\t%d\n", i, 2 * i, 3 * i, 5 * i }' > t.tsv
	for c in a b c d; do
		awk 'BEGIN { for (v = 0; v < 1000; v++) { line = v
		    for (l = 1; l < 99; l++) line = line "\t" int(v / (2 ^ l)) "_" l
		    print line "\t*" } }' > "$c.h"
	done
	run --separate-stderr bash -c 'ulimit -v 2000000; lattice-search -a samarati --best -q a,b,c,d -H a=a.h -H b=b.h -H c=c.h -H d=d.h -k 2 t.tsv'
	[ "$status" -eq 2 ]
	[[ "$stderr" == "lattice-search: a lattice of 100000000 nodes: "*" MiB, more than the system gives, and grow with the lattice, not within -S (lattice-search(1), -S): try -a flash, or hierarchies of fewer levels" ]]
	# flash: no -a flash to try, and its own order by height said so
	# too (found by review: "out of memory (400000004 bytes)").
	for v in 60000 150000; do
		run --separate-stderr bash -c "ulimit -v $v; lattice-search -a flash --best -q a,b,c,d -H a=a.h -H b=b.h -H c=c.h -H d=d.h -k 2 t.tsv"
		[ "$status" -eq 2 ]
		[[ "$stderr" == "lattice-search: a lattice of 100000000 nodes: "*" MiB, more than the system gives, and grow with the lattice, not within -S (lattice-search(1), -S): try hierarchies of fewer levels" ]]
	done
}
