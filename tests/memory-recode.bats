#!/usr/bin/env bats
# recode within -S whatever the input (issue 17): partition's regions
# (-r) and the classes a node suppresses (-n) on a table of 100,000
# classes, at -S 1M, against the peak RSS (tests/peak-rss) and the bytes
# of the run with -S 1G; the checks of the regions against the table
# give the same exit and message out of core as in memory.  The
# allowance beyond the budget is 5 MB: the program and libc (about
# 2 MB), the reader's, the writer's and the sort's fixed buffers.  The
# same at 3M rows and -S 16M is bench/memory-recode.sh.

load common

# The budget and the allowance, in KB.
BUDGET=1024
ALLOW=5120
# Under make sanitize (ASAN_OPTIONS set) the peak RSS is ASan's shadow
# and quarantine, not the program's: only the bytes are checked there.

setup_file() {
	D=$BATS_FILE_TMPDIR
	export D
	# 100,000 distinct rows and 30,000 of them again: 30,000 classes
	# of two rows, 70,000 of one; s a sensitive column.  (Held whole, at
	# -S 1G, each run peaks at 39,700 to 91,500 KB; 200,000 rows took
	# twice the CPU.)
	gendata -n 100000 --seed 7 uniform -d 3 -c 1000000000 |
	    awk -F'\t' 'NR == 1 { print $0 "\ts"; next }
	    { r = $0 "\t" NR % 3; print r } NR <= 30001 { d[NR] = r }
	    END { for (i = 2; i <= 30001; i++) print d[i] }' > "$D/t.tsv"
	partition -q a1,a2,a3 -k 1 -r "$D/r.tsv" "$D/t.tsv" > "$D/p.tsv"
	# A smaller partition for the checks: 9,000 rows, about 3,000
	# classes.
	head -n 9001 "$D/t.tsv" > "$D/small.tsv"
	partition -q a1,a2,a3 -k 2 -r "$D/rs.tsv" "$D/small.tsv" > "$D/ps.tsv"
	mkdir "$D/tmp"
}

# bounded NAME ARGS...: recode ARGS at -S 1M within the budget plus the
# allowance, its temp files gone, and its stdout and stderr those of
# -S 1G (but -v's count of the sort's runs), whose peak RSS is above:
# the out-of-core path ran.
bounded() {
	local name=$1 rss big
	shift
	"$ROOT/tests/peak-rss" "$D/$name.rss" recode -S 1M -T "$D/tmp" "$@" \
	    > "$D/$name.small" 2> "$D/$name.serr"
	"$ROOT/tests/peak-rss" "$D/$name.bigrss" recode -S 1G "$@" \
	    > "$D/$name.big" 2> "$D/$name.berr"
	cmp "$D/$name.small" "$D/$name.big"
	# -v's runs depend on the budget, nothing else does.
	cmp <(sed 's/, [0-9]* runs$//' "$D/$name.serr") \
	    <(sed 's/, [0-9]* runs$//' "$D/$name.berr")
	rss=$(cat "$D/$name.rss")
	big=$(cat "$D/$name.bigrss")
	[ -n "${ASAN_OPTIONS:-}" ] || [ "$rss" -le $((BUDGET + ALLOW)) ] ||
		{ echo "recode $*: peak RSS $rss KB"; false; }
	[ -n "${ASAN_OPTIONS:-}" ] || [ "$big" -gt $((BUDGET + ALLOW)) ] ||
		{ echo "recode $* -S 1G: peak RSS $big KB, no larger"; false; }
	[ -z "$(ls "$D/tmp")" ]
}

@test "tests/peak-rss is built (make tests/peak-rss)" {
	[ -x "$ROOT/tests/peak-rss" ]
}

@test "-n: 70,000 classes suppressed of 100,000, within -S 1M, the bytes of -S 1G" {
	H="-H a1=interval:10 -H a2=interval:10 -H a3=interval:10"
	bounded n $H -n a1=0,a2=0,a3=0 -k 2 -v "$D/t.tsv"
	grep -q '^recode: 130000 rows, 100000 classes, 70000 rows suppressed in 70000 classes, 130000 rows written, ' "$D/n.serr"
	[ "$(grep -c '^\*	\*	\*	' "$D/n.small")" -eq 70000 ]
}

@test "-n: classes kept and suppressed by -k, -l and --closeness on disk past -S, the bytes of -S 1G" {
	H="-H a1=interval:50000000 -H a2=interval:50000000 -H a3=interval:50000000"
	# (Starred, rows suppressed under -l or --closeness would show
	# their values: recode(1), --suppress.)
	for args in "-k 2" "-k 2 -s s -l 2 --suppress drop" \
	    "-k 1 -s s --closeness 0.6 --suppress drop" \
	    "-k 2 --suppress drop"; do
		recode $H -n a1=1,a2=1,a3=1 $args -v -S 128K -T "$D/tmp" \
		    "$D/small.tsv" > "$D/ns.small" 2> "$D/ns.err"
		recode $H -n a1=1,a2=1,a3=1 $args -S 1G "$D/small.tsv" |
		    cmp - "$D/ns.small"
		# Some classes kept, some suppressed.
		grep -q ' rows suppressed in [1-9][0-9]* classes' "$D/ns.err"
		grep -v '^\*	' "$D/ns.small" | grep -q '^\['
		[ -z "$(ls "$D/tmp")" ]
	done
}

@test "-n -s: a sensitive column distinct in nearly every row (a1) within -S 1M, the bytes of -S 1G, classes kept and suppressed by -l" {
	# 95,116 classes, most of them too small for 3 values of a1.
	H="-H a2=interval:1000000 -H a3=interval:1000000"
	bounded nl $H -n a2=1,a3=1 -k 2 -s a1 -l 3 --suppress drop -v "$D/t.tsv"
	bounded ne $H -n a2=1,a3=1 -k 2 -s a1 -l 5 --diversity entropy \
	    --suppress drop "$D/t.tsv"
	grep -q ' rows suppressed in [1-9][0-9]* classes' "$D/nl.serr"
	grep -q '^recode: 130000 rows, [1-9][0-9]* classes' "$D/nl.serr"
}

@test "-n -s s,a1: the second sensitive column distinct in nearly every row, its values of a class sorted within -S 1M, the bytes of -S 1G" {
	# a1 went to a dictionary of the whole table: 14,708 KB at -S 1M
	# on 200,000 rows (3,780 KB now).
	H="-H a2=interval:1000000 -H a3=interval:1000000"
	bounded n2 $H -n a2=1,a3=1 -k 2 -s s,a1 -l 2 --suppress drop -v "$D/t.tsv"
	bounded n2e $H -n a2=1,a3=1 -k 2 -s s,a1 -l 2 --diversity entropy \
	    --suppress drop "$D/t.tsv"
	grep -q ' rows suppressed in [1-9][0-9]* classes' "$D/n2.serr"
	# s alone suppresses no fewer rows, and a1 with it no more than
	# the two alone: a class fails when either column does.
	recode -S 1G $H -n a2=1,a3=1 -k 2 -s s -l 2 --suppress drop "$D/t.tsv" > "$D/n1.big"
	cmp <(recode -S 1G $H -n a2=1,a3=1 -k 2 -s a1,s -l 2 --suppress drop \
	    "$D/t.tsv") "$D/n2.big"
	[ "$(wc -l < "$D/n2.big")" -le "$(wc -l < "$D/n1.big")" ]
}

@test "-n --closeness: a sensitive column distinct in nearly every row (a1) measured out of core within -S 1M, the bytes of -S 1G, classes kept and suppressed" {
	# Each column's values went to a dictionary and every class's
	# values were kept to the end: -s a1 --distance ordered peaked at
	# 31,064 KB at -S 1M on 200,000 rows (3,868 KB now).
	H="-H a2=interval:1000000 -H a3=interval:1000000"
	bounded nt $H -n a2=1,a3=1 -k 2 -s a1 --closeness 0.9 \
	    --distance ordered --suppress drop -v "$D/t.tsv"
	bounded nt2 $H -n a2=1,a3=1 -k 2 -s s,a1 --closeness 0.9 \
	    --distance ordered --suppress drop -v "$D/t.tsv"
	grep -q '^recode: 130000 rows, 95116 classes, 63356 rows suppressed in 63356 classes, ' "$D/nt.serr"
	grep -q '^recode: 130000 rows, 95116 classes, 63356 rows suppressed in 63356 classes, ' "$D/nt2.serr"
	# Under the equal distance a class of one or two distinct values
	# is far from 130,000 of them: every class suppressed.
	bounded nte $H -n a2=1,a3=1 -k 2 -s a1 --closeness 0.9 --suppress drop -v "$D/t.tsv"
	grep -q ' 130000 rows suppressed in 95116 classes, ' "$D/nte.serr"
}

@test "-r: 100,000 regions, within -S 1M, the bytes of -S 1G, in one pass and in two (-k, -l)" {
	bounded r -r "$D/r.tsv" "$D/p.tsv"
	[ "$(wc -l < "$D/r.small")" -eq 130001 ]
	# Every class of two rows has one value of s: -l 2 suppresses all.
	bounded rk -r "$D/r.tsv" -k 2 -s s -l 2 -v --summary both \
	    --suppress drop "$D/p.tsv"
	grep -q '^recode: 130000 rows, 100000 classes, 130000 rows suppressed in 100000 classes, 0 rows written' "$D/rk.serr"
	[ "$(cat "$D/rk.small")" = "$(printf 'a1\ta1_mean\ta2\ta2_mean\ta3\ta3_mean\ts')" ]
}

@test "-r out of core: regions that do not match the table exit 2, with the message of the regions in memory" {
	cd "$D"
	awk -F'\t' -v OFS='\t' 'NR == 400 { $3 = $3 + 1 } { print }' rs.tsv > narrow.tsv
	awk -F'\t' -v OFS='\t' 'NR == 500 { $2 = $2 + 1 } { print }' rs.tsv > fewer.tsv
	awk -F'\t' -v OFS='\t' 'NR == 600 { $2 = $2 - 1 } { print }' rs.tsv > more.tsv
	awk 'NR != 700' rs.tsv > missing.tsv
	awk '{ print } NR == 2000 { print }' rs.tsv > twice.tsv
	{ cat rs.tsv; printf '99999\t2\t1\t1\t1\t1\t1\t1\t1\t1\t1\n'; } > extra.tsv
	# A class with 300 rows more, whose count in the first pass is
	# wider than the counts kept in memory.
	awk '{ print } NR == 2 { for (i = 0; i < 300; i++) print }' ps.tsv \
	    > pover.tsv
	# -S 1M keeps the rows read of each class in memory, -S 64K on disk.
	for r in narrow fewer more missing twice extra rs; do
		for args in "" "-k 2" "-S 64K -v"; do
			p=ps.tsv
			[ $r != rs ] || p=pover.tsv
			run --separate-stderr recode -r $r.tsv $args -S 1G $p
			s=$status e=$stderr
			run --separate-stderr recode -r $r.tsv -S 1M $args \
			    -T tmp $p
			[ "$status" -eq "$s" ] || { echo "$r $args: $status, not $s"; false; }
			[ "$stderr" = "$e" ] || { echo "$r $args: $stderr"; false; }
			[ "$status" -eq 2 ] ||
			    { echo "$r $args: exit $status"; false; }
			[ -z "$(ls tmp)" ]
		done
	done
	# --part allows fewer rows, and a class of none, never more.
	recode -r fewer.tsv --part -S 64K ps.tsv | cmp - <(recode -r rs.tsv ps.tsv)
	recode -r extra.tsv --part -S 64K ps.tsv | cmp - <(recode -r rs.tsv ps.tsv)
	run --separate-stderr recode -r more.tsv --part -S 64K ps.tsv
	[ "$status" -eq 2 ]
	run --separate-stderr recode -r twice.tsv -S 1M ps.tsv
	[ "$stderr" = "recode: twice.tsv:2001: class 1999 appears twice (first on line 2000)" ]
	c=$(sed -n '2s/.*\t//p' ps.tsv)
	run --separate-stderr recode -r rs.tsv -k 2 -S 64K pover.tsv
	[[ "$stderr" == "recode: rs.tsv:"*": class $c has count "*", but pover.tsv has "*" rows of it" ]]
	run --separate-stderr recode -r narrow.tsv -k 2 -S 1M ps.tsv
	[[ "$stderr" == "recode: ps.tsv:"*" lies outside the region of class 399, from "*" (narrow.tsv:400)" ]]
	[ -z "$output" ]
}

# joined SEED: a table of missing values, dates and a categorical
# column partitioned by its regions, as $T/p.tsv and $T/r.tsv.
joined() {
	gendata -n 1500 --seed "$1" uniform -d 3 -c 60 | awk -F'\t' -v OFS='\t' '
	    NR == 1 { print "age", "zip", "day", "sex", "s", "t"; next }
	    { print ($1 % 17 == 0 ? "" : $1), 10000 + $2 * 7,
	        sprintf("2020-%02d-%02d", $3 % 12 + 1, $3 % 28 + 1),
	        ($1 + $2) % 2 ? "M" : "F", "d" $2 % 5, "e" $3 % 3 }' > "$T/t.tsv"
	printf 'M\t*\nF\t*\n' > "$T/sex.tsv"
	partition -q age,zip,day,sex -H sex="$T/sex.tsv" --date day -k 2 \
	    -r "$T/r.tsv" -o "$T/p.tsv" "$T/t.tsv"
}

@test "-r out of core joins the rows with the regions: random tables (missing values, dates, a hierarchy), one pass and two, a file, a redirection and a pipe, good regions and bad, the output and message of -S 1G" {
	T=$BATS_TEST_TMPDIR
	mkdir "$T/tmp"
	local seed c args how n=0
	for seed in 1 2; do
		joined $seed
		for c in good count drop extra class outside missing dup; do
			cp "$T/r.tsv" "$T/rr.tsv"
			cp "$T/p.tsv" "$T/pp.tsv"
			case $c in
			count) awk -F'\t' -v OFS='\t' 'NR == 90 { $2++ } { print }' "$T/r.tsv" > "$T/rr.tsv" ;;
			drop) awk 'NR != 120' "$T/r.tsv" > "$T/rr.tsv" ;;
			extra) { cat "$T/r.tsv"; tail -n 1 "$T/r.tsv" | awk -F'\t' -v OFS='\t' '{ $1 = 99999; print }'; } > "$T/rr.tsv" ;;
			class) awk -F'\t' -v OFS='\t' 'NR == 700 { $NF = 88888 } { print }' "$T/p.tsv" > "$T/pp.tsv" ;;
			outside) awk -F'\t' -v OFS='\t' 'NR == 800 { $2 = 20000 } { print }' "$T/p.tsv" > "$T/pp.tsv" ;;
			missing) awk -F'\t' -v OFS='\t' 'NR == 900 { $1 = "" } { print }' "$T/p.tsv" > "$T/pp.tsv" ;;
			dup) awk '{ print } NR == 1000 { print }' "$T/p.tsv" > "$T/pp.tsv" ;;
			esac
			for args in "" "-k 2" "-k 2 -s s,t -l 2 --summary both" "--part"; do
				for how in file redirect pipe; do
					# $args is split into words on purpose.
					# shellcheck disable=SC2086
					set -- recode -r "$T/rr.tsv" --date day -H sex="$T/sex.tsv" $args
					if [ $how = file ]; then
						"$@" -S 1G "$T/pp.tsv" > "$T/big" 2> "$T/berr" && s=0 || s=$?
						"$@" -S 64K -T "$T/tmp" "$T/pp.tsv" > "$T/small" 2> "$T/serr" && t=0 || t=$?
					elif [ $how = redirect ]; then
						"$@" -S 1G < "$T/pp.tsv" > "$T/big" 2> "$T/berr" && s=0 || s=$?
						"$@" -S 64K -T "$T/tmp" < "$T/pp.tsv" > "$T/small" 2> "$T/serr" && t=0 || t=$?
					else
						# A pipe is copied as it is read.
						cat "$T/pp.tsv" | "$@" -S 1G > "$T/big" 2> "$T/berr" && s=0 || s=$?
						cat "$T/pp.tsv" | "$@" -S 64K -T "$T/tmp" > "$T/small" 2> "$T/serr" && t=0 || t=$?
					fi
					[ "$s" = "$t" ] || { echo "$seed $c '$args' $how: exit $t, not $s"; cat "$T/serr"; false; }
					cmp "$T/big" "$T/small"
					cmp "$T/berr" "$T/serr"
					[ -z "$(ls "$T/tmp")" ]
					[ "$s" = 0 ] || n=$((n + 1))
				done
			done
		done
	done
	# The bad regions and rows were refused (--part takes fewer rows):
	# 81 of a seed's 96 runs (200 of 3 seeds' 243 asked before).
	echo "refused: $n"
	[ "$n" -ge 133 ]
}

@test "-r out of core, CSV from a pipe in one pass and two: the header (a byte-order mark, CRLF, a quoted name with quotes and commas) copied again, the output and message of -S 1G" {
	T=$BATS_TEST_TMPDIR
	mkdir "$T/tmp"
	joined 5
	{ printf '\357\273\277age,zip,day,sex,"s ""1"", and ,",t,class\r\n'
	    tail -n +2 "$T/p.tsv" | tr '\t' ','; } > "$T/p.csv"
	for args in "" "-k 2" "-k 2 --ocsv"; do
		# $args is split into words on purpose.
		# shellcheck disable=SC2086
		set -- recode --icsv -r "$T/r.tsv" --date day -H sex="$T/sex.tsv" $args
		"$@" -S 1G "$T/p.csv" > "$T/big" 2> "$T/berr"
		cat "$T/p.csv" | "$@" -S 64K -T "$T/tmp" > "$T/small" 2> "$T/serr"
		cmp "$T/big" "$T/small"
		cmp "$T/berr" "$T/serr"
		[ -z "$(ls "$T/tmp")" ]
	done
	[ "$(head -n 1 "$T/big")" = "$(printf 'age,zip,day,sex,"s ""1"", and ,",t')" ]
}
