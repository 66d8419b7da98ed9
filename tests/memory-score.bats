#!/usr/bin/env bats
# score within -S whatever the input (issue 17): the target column -t
# and the population of --risk on a table whose targets and QI
# combinations are nearly all distinct, at -S 1M, against the peak RSS
# (tests/peak-rss) and the bytes of the run with -S 1G.  The allowance
# beyond the budget is 6 MB: the program and libc (about 2 MB), the
# reader's and the sort's fixed buffers.  The same at 3M rows and
# -S 16M is bench/memory-score.sh.

load common

# The budget and the allowance, in KB.
BUDGET=1024
ALLOW=6144
# Under make sanitize (ASAN_OPTIONS set) the peak RSS is ASan's shadow
# and quarantine, not the program's: only the bytes are checked there.

setup_file() {
	D=$BATS_FILE_TMPDIR
	export D
	# 150,000 rows: a nearly distinct, b small, c always the mark (all
	# rows one suppressed class), t a distinct decimal, u a distinct
	# text; an LCG mod 2^32, exact in awk's doubles.  (Held whole, at
	# -S 1G, each test's runs peak at 17,900 to 54,500 KB, at least
	# twice the budget and allowance; 300,000 rows took twice the CPU.)
	awk -v n=150000 'BEGIN {
		OFS = "\t"; x = 12345; y = 777
		print "a", "b", "c", "t", "u"
		for (i = 0; i < n; i++) {
			x = (x * 69069 + 1) % 4294967296
			y = (y * 69069 + 12345) % 4294967296
			printf "%d\t%d\t*\t%d.%02d\tv%x\n", x % 1000000000, i % 7,
			    int(y / 100), y % 100, x
		}
	}' > "$D/t.tsv"
	freqset -q a,b "$D/t.tsv" > "$D/pop.tsv"
	mkdir "$D/tmp"
}

# bounded NAME ARGS...: score ARGS at -S 1M within the budget plus the
# allowance, its temp files gone, and its stdout that of -S 1G, whose
# peak RSS is above: the out-of-core path ran.
bounded() {
	local name=$1 big
	shift
	"$ROOT/tests/peak-rss" "$D/$name.rss" score -S 1M -T "$D/tmp" "$@" \
	    "$D/t.tsv" > "$D/$name.small"
	"$ROOT/tests/peak-rss" "$D/$name.bigrss" score -S 1G "$@" "$D/t.tsv" \
	    > "$D/$name.big"
	cmp "$D/$name.small" "$D/$name.big"
	rss=$(cat "$D/$name.rss")
	big=$(cat "$D/$name.bigrss")
	[ -n "${ASAN_OPTIONS:-}" ] || [ "$rss" -le $((BUDGET + ALLOW)) ] ||
		{ echo "score $*: peak RSS $rss KB"; false; }
	[ -n "${ASAN_OPTIONS:-}" ] || [ "$big" -gt $((BUDGET + ALLOW)) ] ||
		{ echo "score $* -S 1G: peak RSS $big KB, no larger"; false; }
	[ -z "$(ls "$D/tmp")" ]
}

# value FILE NAME: the value of line NAME in FILE.
value() {
	awk -F'\t' -v n="$2" '$1 == n {print $2}' "$1"
}

@test "tests/peak-rss is built (make tests/peak-rss)" {
	[ -x "$ROOT/tests/peak-rss" ]
}

@test "-t with a numeric target, nearly every value distinct: within -S 1M, the bytes of -S 1G" {
	bounded tnum -q a,b -t t
	[ "$(value "$D/tnum.big" classes)" -gt 149000 ]
	[ -n "$(value "$D/tnum.big" target_rmse)" ]
}

@test "-t with a text target: within -S 1M, the bytes of -S 1G" {
	bounded ttext -q a,b -t u
	[ -z "$(value "$D/ttext.big" target_rmse)" ]
}

@test "-t over one class of every row (all suppressed): within -S 1M, entropy log2 150000" {
	bounded supp -q c -t u
	[ "$(value "$D/supp.big" suppressed)" = 150000 ]
	# 150,000 distinct values in one class: log2(150000) bits.
	[ "$(value "$D/supp.big" label_entropy)" = 17.19460298 ]
	bounded suppnum -q c -t t
}

@test "-t with the sensitive column before it: the class's targets sorted within -S 1M" {
	bounded sens -q c -s b -t u
	[ "$(value "$D/sens.big" label_entropy)" = 17.19460298 ]
	[ "$(value "$D/sens.big" l_distinct_min)" = 0 ]
	bounded sens2 -q b -s c -t t
	# Without -s the same target figures.
	score -q b -t t "$D/t.tsv" | grep -e label_entropy -e target_rmse \
	    > "$D/nos"
	grep -e label_entropy -e target_rmse "$D/sens2.big" | cmp - "$D/nos"
}

@test "-s, the sensitive column distinct in nearly every row: distinct, entropy and recursive l within -S 1M, the bytes of -S 1G" {
	# Every value went to a dictionary of the whole table: -l 2 -q b
	# peaked at 25,908 KB at -S 1M on 300,000 rows (3,924 KB now).
	bounded ld -q b -s u -l 2 --check
	bounded le -q b -s u -l 2 --diversity entropy --check
	bounded lr -q b -s u -l 3 --diversity recursive -c 2 --check
	bounded la -q a,b -s u -l 2
	[ "$(value "$D/ld.big" l_distinct_min)" -ge 21428 ]
	[ "$(value "$D/la.big" l_distinct_min)" -eq 1 ]
	[ "$(value "$D/la.big" check_l_distinct)" = fail ]
}

@test "-s a,u,t: sensitive columns after the first distinct in nearly every row, their values of a class sorted within -S 1M, the bytes of -S 1G" {
	# The columns after the first went to dictionaries of the whole
	# table: -q b -s a,u -l 2 peaked at 26,428 KB at -S 1M on 300,000
	# rows, with
	# -s a,u,t and recursive l at 45,100 KB (3,772 and 4,136 KB now).
	bounded s2 -q b -s a,u -l 2 --check
	bounded s3 -q b -s a,u,t -l 3 --diversity recursive -c 2 --check
	bounded st -q b -s a,u -l 2 --diversity entropy -t t
	bounded sa -q a,b -s u,t -l 2
	[ "$(value "$D/s2.big" l_distinct_min)" -ge 21400 ]
	[ "$(value "$D/s2.big" check_l_distinct)" = pass ]
	# The classes of a,b are nearly all of one row.
	[ "$(value "$D/sa.big" l_distinct_min)" -eq 1 ]
	[ "$(value "$D/sa.big" check_l_distinct)" = fail ]
	# The same figures as each column alone (the least of them).
	score -q b -s u -l 2 "$D/t.tsv" > "$D/u.big"
	score -q b -s a -l 2 "$D/t.tsv" > "$D/a.big"
	m=$(value "$D/u.big" l_distinct_min)
	[ "$(value "$D/a.big" l_distinct_min)" -ge "$m" ] ||
		m=$(value "$D/a.big" l_distinct_min)
	[ "$(value "$D/s2.big" l_distinct_min)" -eq "$m" ]
}

@test "--closeness, sensitive columns distinct in nearly every row: equal and ordered distances measured out of core within -S 1M, the bytes of -S 1G" {
	# Each column's values went to a dictionary and every class's
	# values were kept to the end: -q b -s u --closeness 0.01 peaked at
	# 32,004 KB at -S 1M on 300,000 rows, -s t --distance ordered at
	# 40,928 KB (4,044 and 4,020 KB now).
	bounded te -q b -s u --closeness 0.01
	bounded to -q b -s t --closeness 0.01 --distance ordered --check
	bounded tm -q a -s u,t --closeness 0.5 -l 1
	bounded tl -q b -s t,u --closeness 0.9 --distance ordered -l 2 \
	    --diversity entropy
	# Seven classes of about 21,428 distinct values each: against
	# 150,000 of one row each, the equal distance is 1 - 1/7.
	[ "$(value "$D/te.big" closeness_max)" = 0.8571466667 ]
	[ "$(value "$D/te.big" check_closeness)" = fail ]
	[ "$(value "$D/to.big" check_closeness)" = pass ]
	# A class of one row is far from the table; seven classes of the
	# whole range are near it.
	[ "$(value "$D/tm.big" check_closeness)" = fail ]
	[ "$(value "$D/tl.big" check_closeness)" = pass ]
}

@test "--population of 150,000 groups: within -S 1M, the bytes of -S 1G" {
	bounded pop -q a,b --risk --population "$D/pop.tsv"
	# The release as its own population: journalist = prosecutor.
	[ "$(value "$D/pop.big" population_rows)" = 150000 ]
	[ "$(value "$D/pop.big" population_uniques)" = \
	    "$(value "$D/pop.big" sample_uniques)" ]
	[ "$(value "$D/pop.big" journalist_risk_max)" = \
	    "$(value "$D/pop.big" risk_max)" ]
}

@test "-t: the squared error exact across scales and past 128 bits" {
	T=$BATS_TEST_TMPDIR
	# Class a: 1.5, 2, 0.25 (mean 1.25, SSE 0.0625 + 0.5625 + 1 =
	# 1.625); class b: 10^30 and 10^30 + 2 (SSE 2), whose squares pass
	# 128 bits and whose difference long doubles lose; 5 rows:
	# sqrt(3.625 / 5) = 0.8514693183.
	printf 'q\ts\tt\na\tx\t1.5\na\tx\t2\na\ty\t0.25\nb\tx\t1%030d\nb\ty\t1%029d2\n' \
	    0 0 > "$T/x"
	run --separate-stderr score -q q -t t "$T/x"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep target_rmse)" = \
	    "$(printf 'target_rmse\t0.8514693183')" ]
	# With S between and a tiny budget: the same.
	score -S 64K -T "$T" -q q -s s -t t "$T/x" | grep target_rmse |
	    cmp - <(printf 'target_rmse\t0.8514693183\n')
}

@test "-s s1,s2 and -t: an empty value first in a column sorted by class (cvals.c) counts as a value (score, recode)" {
	T=$BATS_TEST_TMPDIR
	# The arena of the values held was made at the first value longer
	# than nothing: an empty first value was copied to no arena (an
	# error of make sanitize's UBSan).
	printf 'q\ts1\ts2\tt\n1\tx\t\t1\n1\ty\tb\t\n1\tz\tb\t2\n' > "$T/z"
	score -q q -s s1,s2 -l 2 -t t "$T/z" > "$T/out"
	[ "$(value "$T/out" l_distinct_min)" -eq 2 ]
	[ "$(value "$T/out" check_l_distinct)" = pass ]
	score -q q -s s1,s2 -l 3 "$T/z" > "$T/out3"
	[ "$(value "$T/out3" check_l_distinct)" = fail ]
	run --separate-stderr recode -H q=interval:5 -n q=1 -k 1 \
	    -s s1,s2 -l 2 "$T/z"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'q\ts1\ts2\tt\n[0,5)\tx\t\t1\n[0,5)\ty\tb\t\n[0,5)\tz\tb\t2')" ]
}
