#!/usr/bin/env bats
# partition -j N (issue 18): the in-memory Mondrian cuts the parts of
# its tree on N threads (mpar.c), and the output must be the same bytes
# for every N: the table, the regions (-r), stderr and the exit status,
# on random tables (the partition tests' cases, the larger ones, with
# every requirement and split), on a generated Agrawal table, and on
# tables of many blocks, whose rows the threads read and code (mload.c),
# with bad rows late in them.

load common
load gen-mondrian

setup() {
	T=$BATS_TEST_TMPDIR
}

# jobscase SEED: the case (a larger table) with -j 1, 2, 3 and 7; with
# --closeness or two sensitive columns for some seeds.  Prints what
# differs and returns 1.
jobscase() {
	local seed=$1 dir="$T/j$1" q hl hm nl k rel dv l c vr sp j
	local -a opt chk
	mkdir -p "$dir"
	IFS=$'\t' read -r q hl hm nl k rel dv l c vr sp < \
	    <(gencase "$seed" "$dir" big)
	caseopts
	case $((seed % 4)) in
	1)	[ "$dv" != - ] || [ "$vr" != - ] || opt+=(-s s)
		opt+=(--closeness "0.$((seed % 7 + 2))" --distance \
		    "$( ((seed % 8 < 4)) && echo ordered || echo equal)") ;;
	2)	[ "$dv" != - ] || [ "$vr" != - ] || opt+=(-s s,y -l 2) ;;
	esac
	for j in 1 2 3 7; do
		partition -j "$j" "${opt[@]}" -r "$dir/r$j" "$dir/t" \
		    > "$dir/o$j" 2> "$dir/e$j"
		echo $? > "$dir/s$j"
		[ "$j" = 1 ] && continue
		for f in s o e r; do
			[ -e "$dir/${f}1" ] || [ ! -e "$dir/$f$j" ] || {
				echo "seed $seed: -j $j: $f made: partition ${opt[*]}"
				return 1
			}
			[ ! -e "$dir/${f}1" ] || cmp -s "$dir/${f}1" "$dir/$f$j" || {
				echo "seed $seed: -j 1 and -j $j: $f differ: partition ${opt[*]}"
				return 1
			}
		done
	done
	[ "$(cat "$dir/s1")" -ne 0 ] || echo ok > "$dir/ran"
}

@test "-j 1, 2, 3 and 7 give the same table, regions, messages and status on random tables" {
	local seed bad=0 ran
	export -f gencase caseopts jobscase
	for ((seed = 1; seed <= 60; seed++)); do
		jobscase "$seed" || bad=$((bad + 1))
		[ "$bad" -le 5 ] || break
	done
	[ "$bad" -eq 0 ]
	# Most cases partition (exit 0), not only refuse.
	ran=$(ls "$T"/j*/ran | wc -l)
	[ "$ran" -ge 30 ] || { echo "only $ran cases partitioned"; false; }
}

@test "a node's cut on threads (from 8 rows a thread, tests/partition-cut8) gives the bytes of -j 1 on random tables and on Agrawal rows" {
	# While the parts are fewer than the threads, each is cut on
	# threads of its own (mondrian.c, cut_par); partition takes that
	# way from 4,096 rows a thread, the test build from 8.
	local seed dir q hl hm nl k rel dv l c vr sp j rc bad=0 cut=0
	local -a opt chk
	make -s -C "$ROOT" tests/partition-cut8
	for ((seed = 1; seed <= 30; seed++)); do
		dir="$T/c$seed"
		mkdir -p "$dir"
		IFS=$'\t' read -r q hl hm nl k rel dv l c vr sp < \
		    <(gencase "$seed" "$dir" big)
		caseopts
		((seed % 3 != 1)) || [ "$dv" != - ] || [ "$vr" != - ] ||
		    opt+=(-s s --closeness 0.5)
		rc=0
		partition -j 1 "${opt[@]}" -r "$dir/r1" "$dir/t" > "$dir/o1" \
		    2> "$dir/e1" || rc=$?
		echo "$rc" > "$dir/s1"
		for j in 2 3 7; do
			rc=0
			"$ROOT/tests/partition-cut8" -j "$j" "${opt[@]}" \
			    -r "$dir/r$j" "$dir/t" > "$dir/o$j" 2> "$dir/e$j" ||
			    rc=$?
			echo "$rc" > "$dir/s$j"
			sed -i 's/^partition-cut8:/partition:/' "$dir/e$j"
			for f in s o e r; do
				[ ! -e "$dir/${f}1" ] && [ ! -e "$dir/$f$j" ] ||
				    cmp -s "$dir/${f}1" "$dir/$f$j" || {
					echo "seed $seed -j $j: $f differ: ${opt[*]}"
					bad=$((bad + 1))
				}
			done
		done
		[ "$(cat "$dir/s1")" -ne 0 ] || cut=$((cut + 1))
	done
	[ "$bad" -eq 0 ]
	[ "$cut" -ge 15 ]
	gendata -n 5000 --seed 5 agrawal > "$T/a"
	for req in "-k 5" "-k 20 -s elevel -l 3" "-k 10 -s car --closeness 0.4" \
	    "-k 5 -t car --split infogain" "-k 3 --relaxed" \
	    "-k 4 -H zipcode=interval:3,9"; do
		# shellcheck disable=SC2086
		partition -j 1 -q salary,age,hvalue,loan,zipcode $req \
		    -r "$T/r1" "$T/a" > "$T/o1"
		for j in 2 5; do
			# shellcheck disable=SC2086
			"$ROOT/tests/partition-cut8" -j "$j" \
			    -q salary,age,hvalue,loan,zipcode $req -r "$T/r$j" \
			    "$T/a" > "$T/o$j"
			cmp "$T/o1" "$T/o$j" || { echo "$req -j $j: table"; false; }
			cmp "$T/r1" "$T/r$j" || { echo "$req -j $j: regions"; false; }
		done
	done
}

@test "-j on 20,000 Agrawal rows: the same bytes with -l, --variance, --closeness, --split and --relaxed" {
	gendata -n 20000 --seed 7 agrawal > "$T/a"
	for req in "-k 5" "-k 20 -s elevel -l 3" "-k 10 -s car --closeness 0.4" \
	    "-k 8 -s commission --variance 100" "-k 5 -t car --split infogain" \
	    "-k 5 -t hyears --split regression" "-k 3 --relaxed" \
	    "-k 4 -H zipcode=interval:3,9"; do
		# shellcheck disable=SC2086
		partition -j 1 -q salary,age,hvalue,loan,zipcode $req \
		    -r "$T/r1" "$T/a" > "$T/o1"
		[ "$(wc -l < "$T/r1")" -gt 100 ]
		for j in 2 3 7; do
			# shellcheck disable=SC2086
			partition -j "$j" -q salary,age,hvalue,loan,zipcode \
			    $req -r "$T/r$j" "$T/a" > "$T/o$j"
			cmp "$T/o1" "$T/o$j" || { echo "$req -j $j: table"; false; }
			cmp "$T/r1" "$T/r$j" || { echo "$req -j $j: regions"; false; }
		done
	done
}

@test "in memory, the rows' room taken at once from the file's size at the rate of its first rows, or doubled (a pipe, first rows longer than the rest): the same bytes for -j 1 and 2, the peak within 8 MB of a pipe's" {
	[ -x "$ROOT/tests/peak-rss" ] || make -s -C "$ROOT" tests/peak-rss
	gendata -n 300000 --seed 9 agrawal > "$T/a"
	# The first 70,000 rows with a long commission: the rate of the
	# first block foretells a third of the rows.
	awk -F '\t' -v OFS='\t' 'NR > 1 && NR <= 70001 {
		$2 = $2 sprintf("%0200d", 0) } { print }' "$T/a" > "$T/m"
	q="-q salary,age,hvalue,loan -k 20"
	for j in 1 2; do
		# shellcheck disable=SC2086
		cat "$T/a" | "$ROOT/tests/peak-rss" "$T/rss.p$j" partition \
		    -j $j $q -r "$T/rp$j" > "$T/op$j"
		# shellcheck disable=SC2086
		"$ROOT/tests/peak-rss" "$T/rss.f$j" partition -j $j $q \
		    -r "$T/rf$j" "$T/a" > "$T/of$j"
		echo "-j $j: peak $(cat "$T/rss.f$j") KB from the file, $(cat "$T/rss.p$j") from a pipe"
		cmp "$T/op$j" "$T/of$j"
		cmp "$T/rp$j" "$T/rf$j"
		cmp "$T/op1" "$T/op$j"
		cmp "$T/rp1" "$T/rp$j"
		[ -n "${ASAN_OPTIONS:-}" ] || [ "$(cat "$T/rss.f$j")" -le \
		    $(($(cat "$T/rss.p$j") + 8192)) ]
		# shellcheck disable=SC2086
		partition -j $j $q -r "$T/rm$j" "$T/m" > "$T/om$j"
		# shellcheck disable=SC2086
		cat "$T/m" | partition -j $j $q -r "$T/rmp$j" > "$T/omp$j"
		cmp "$T/om$j" "$T/omp$j"
		cmp "$T/rm$j" "$T/rmp$j"
		cmp "$T/rm$j" "$T/rp1"
	done
}

@test "-j: the same errors and exit status; -j outside 1 to 64 is refused" {
	gendata -n 2000 --seed 3 agrawal > "$T/a"
	for j in 1 2 7; do
		run --separate-stderr partition -j "$j" -q age -k 10 -s elevel \
		    -l 9 "$T/a"
		[ "$status" -eq 1 ]
		[ -z "$output" ]
		[[ "$stderr" == *"no partitioning"* ]]
	done
	# Two columns whose numbers do not fit 64 bits at their scale: the
	# first of -q is named, as on one thread.
	{ printf 'a\tb\tc\n'; seq 100 | awk '{ print $1 "\t" $1 * 3 "\t" $1 % 7 }'
	  printf '9223372036854775807\t9223372036854775000\t1\n0.5\t0.25\t2\n'; } > "$T/o"
	for qc in c,b,a=b a,b=a b,a=b; do
		q=${qc%=*}
		run --separate-stderr partition -j 1 -q "$q" -k 5 "$T/o"
		[ "$status" -eq 2 ]
		[[ "$stderr" == *"column '${qc#*=}': the values do not fit"* ]]
		for j in 2 3 7; do
			want=$stderr
			run --separate-stderr partition -j "$j" -q "$q" -k 5 "$T/o"
			[ "$status" -eq 2 ]
			[ "$stderr" = "$want" ]
		done
	done
	for j in 0 65 x; do
		run --separate-stderr partition -j "$j" -q age -k 10 "$T/a"
		[ "$status" -eq 2 ]
		[[ "$stderr" == *"-j"* ]]
	done
}

@test "-j on Adult with its hierarchies: the same bytes, strict and relaxed, with -l, CSV out, --progress, and missing values" {
	local q=sex,age,race,marital-status,education,native-country,workclass,occupation
	# Some ages missing (kanon(7), MISSING VALUES): rank 0 of the column.
	awk -F '\t' 'BEGIN { OFS = "\t" } NR > 1 && NR % 37 == 0 { $2 = "?" } 1' \
	    "$ADULT" > "$T/am"
	for opts in "-k 10 --numeric age" "-k 5 --relaxed" \
	    "-k 8 --numeric age -s salary-class -l 2" "-k 20 --ocsv" \
	    "-k 10 --numeric age --missing ? --progress"; do
		in=$ADULT
		[[ $opts != *--missing* ]] || in=$T/am
		# shellcheck disable=SC2086
		partition -j 1 -q "$q" -H "$AH" $opts -r "$T/r1" "$in" \
		    > "$T/o1" 2> "$T/e1"
		[ "$(wc -l < "$T/r1")" -gt 50 ]
		for j in 2 3; do
			# shellcheck disable=SC2086
			partition -j "$j" -q "$q" -H "$AH" $opts -r "$T/r$j" \
			    "$in" > "$T/o$j" 2> "$T/e$j"
			cmp "$T/o1" "$T/o$j" || { echo "$opts -j $j: table"; false; }
			cmp "$T/r1" "$T/r$j" || { echo "$opts -j $j: regions"; false; }
			cmp "$T/e1" "$T/e$j" || { echo "$opts -j $j: stderr"; false; }
		done
	done
}

@test "-j: the table's lines copied with their classes on threads give the bytes of one thread: lines longer than a block, CRLF lines, -o, a full disk" {
	# Rows of a few bytes and, every 700 rows, one of 1.5 MB.
	awk 'BEGIN { print "a\tb"; x = "xxxxxxxxxxxxxxxx"
		while (length(x) < 1500000) x = x x
		for (i = 0; i < 2500; i++)
			print i % 97 "\t" (i % 700 == 3 ? x : "") "y" }' > "$T/l"
	partition -j 1 -q a -k 5 "$T/l" > "$T/o1"
	[ "$(wc -c < "$T/o1")" -gt 4000000 ]
	for j in 2 3; do
		partition -j "$j" -q a -k 5 "$T/l" > "$T/o$j"
		cmp "$T/o1" "$T/o$j"
		partition -j "$j" -q a -k 5 -o "$T/oo$j" "$T/l"
		cmp "$T/o1" "$T/oo$j"
	done
	# 100,000 rows (3.7 MB: 7 blocks of lines), ended by CR LF.
	gendata -n 100000 --seed 3 agrawal | sed 's/$/\r/' > "$T/crlf"
	partition -j 1 -q age,salary -k 5 "$T/crlf" > "$T/c1"
	for j in 2 3; do
		partition -j "$j" -q age,salary -k 5 "$T/crlf" | cmp - "$T/c1"
	done
	for j in 1 2; do
		run --separate-stderr sh -c "partition -j $j -q a -k 5 '$T/l' > /dev/full"
		[ "$status" -eq 2 ]
		[ "$stderr" = "partition: standard output: write error: No space left on device" ]
	done
}

@test "-j out of core: the table written on threads when the rows' classes fit one bucket of the pairs file (-S 64M), bucket by bucket on one thread when not (-S 768K): the in-memory bytes, CR LF lines included; the node files packed" {
	# 100,000 rows ended by CR LF, three numbers: records of 7 words
	# (28 bytes) unpacked.  A bucket holds the rows of half of what
	# -S leaves the nodes (-v: "for nodes"), 4 bytes a row: 8 million
	# at -S 64M, 66,710 at -S 768K (533,682 for nodes), two buckets.
	gendata -n 100000 --seed 3 agrawal | sed 's/$/\r/' > "$T/crlf"
	partition -q age,salary,zipcode -k 50 -r "$T/rm" "$T/crlf" > "$T/m"
	for S in 64M 768K; do
		for j in 1 2 3; do
			partition -j "$j" -a rothko-t -S "$S" -T "$T" -v \
			    -q age,salary,zipcode -k 50 -r "$T/r" "$T/crlf" \
			    > "$T/o" 2> "$T/e"
			cmp "$T/m" "$T/o" || { echo "-S $S -j $j: table"; false; }
			cmp "$T/rm" "$T/r" || { echo "-S $S -j $j: regions"; false; }
			spool=$(sed -n 's/.* bytes written (\([0-9]*\) of them the spool).*/\1/p' "$T/e")
			# age, zipcode and the rows' numbers in a block take a
			# byte or two, salary three, the keys' high halves none.
			[ "$spool" -gt 0 ] && [ "$spool" -lt $((100000 * 10)) ]
			# Two buckets at -S 768K, one at -S 64M.
			nodes=$(sed -n 's/.*, \([0-9]*\) for nodes;.*/\1/p' "$T/e")
			if [ "$S" = 768K ]; then
				[ $((nodes / 8)) -lt 100000 ]
			else
				[ $((nodes / 8)) -ge 100000 ]
			fi
		done
	done
}

@test "Rothko-T under k alone counts a leaf's groups of the two columns its parent's widths put first and the extents of the others; a wrong guess counts the scan's leaves again: the in-memory bytes, strict and relaxed, for -j 1 and 3" {
	# a, b and c move together, d does not (and has missing values):
	# after the cut on a, b and c look widest by a's widths but are
	# as narrow as a, and d is the widest.  100,000 numbers in a
	# column's range: their counts are not cheap (rgroups.c), so a
	# leaf's scan counts d's extents alone, and must count it again.
	awk 'BEGIN { srand(7); print "a\tb\tc\td\te"
		for (i = 0; i < 300000; i++) {
			x = int(rand() * 100000)
			printf "%d\t%d\t%d\t%s\t%d\n", x, x + int(rand() * 100),
			    x + int(rand() * 300),
			    i % 997 == 0 ? "" : int(rand() * 100000),
			    int(rand() * 50) } }' > "$T/c.tsv"
	for rel in "" --relaxed; do
		partition ${rel:+"$rel"} -q a,b,c,d,e -k 20 -r "$T/rm" "$T/c.tsv" > "$T/m"
		for j in 1 3; do
			partition ${rel:+"$rel"} -j "$j" -a rothko-t -S 20M -T "$T" -v \
			    -q a,b,c,d,e -k 20 -r "$T/r" "$T/c.tsv" > "$T/o" \
			    2> "$T/e"
			cmp "$T/m" "$T/o" || { echo "$rel -j $j: table"; false; }
			cmp "$T/rm" "$T/r" || { echo "$rel -j $j: regions"; false; }
			# The scan of the two leaves again, whole: 9 scans
			# where a right guess makes 8 (the root's, the
			# leaves', the repartition's, the 4 parts' and the
			# pairs').
			grep -q "; 9 scans of node files" "$T/e" ||
			    { cat "$T/e"; false; }
		done
	done
}

@test "Rothko-S's exact steps count 8 leaves a scan by default (Rothko-T 16): the output is that of --fcache 8, which a larger batch changes" {
	# A flat hierarchy of 10 leaves, the last rare: a node whose cut
	# makes 9 or 10 leaves, cut exactly in one batch of 16 and
	# repartitioned and sampled in batches of 8.  The samples' random
	# numbers are drawn in the order of the batches; with seed 4 the
	# batches of 16 draw other samples (with seeds 1 to 3 the same).
	awk 'BEGIN { srand(11); print "c\tx\ty"
		for (i = 0; i < 200000; i++) {
			c = i % 10000 == 0 ? "v9" : "v" int(rand() * 9)
			printf "%s\t%d\t%d\n", c, int(rand() * 200),
			    int(rand() * 150) } }' > "$T/h.tsv"
	awk 'BEGIN { for (k = 0; k < 10; k++) print "v" k ";*" }' > "$T/h.csv"
	for f in "" 8 16; do
		partition -a rothko-s --seed 4 ${f:+--fcache "$f"} \
		    --fit-rows 3000 \
		    --sample 2000 -S 32M -T "$T" -q c,x,y -H c="$T/h.csv" \
		    -k 10 -r "$T/r$f" "$T/h.tsv" > "$T/o$f"
	done
	cmp "$T/o" "$T/o8"
	cmp "$T/r" "$T/r8"
	! cmp -s "$T/o" "$T/o16" || false
}

@test "-j out of core with -r: a node in memory cut into thousands of parts keeps a temp file a thread for their regions, not one a part: -j 3 under ulimit -n 64 gives the in-memory bytes" {
	# A flat hierarchy of 3000 leaves: one cut makes a part a leaf.
	awk 'BEGIN { srand(5); print "id\tcat\tnum"
		for (i = 0; i < 100000; i++)
			printf "%d\tv%d\t%d\n", i, int(rand() * 3000),
			    int(rand() * 100000) }' > "$T/c.tsv"
	awk 'BEGIN { for (k = 0; k < 3000; k++) print "v" k ";*" }' > "$T/c.csv"
	partition -q cat,num -H cat="$T/c.csv" -k 5 -r "$T/rm" "$T/c.tsv" > "$T/m"
	for j in 1 3; do
		(ulimit -n 64 && partition -j "$j" -a rothko-t -S 64M -T "$T" \
		    -q cat,num -H cat="$T/c.csv" -k 5 -r "$T/r$j" "$T/c.tsv" \
		    > "$T/o$j")
		cmp "$T/m" "$T/o$j"
		cmp "$T/rm" "$T/r$j"
	done
}

# bigtable FILE HIER: 60,000 rows (2.9 MB, 6 of the blocks of 512 KB the
# threads of -j code, mload.c: MLOAD_BLOCK) with a date, a date-time, a number and a
# categorical column (HIER: its hierarchy) with missing values, and a
# sensitive column.
bigtable() {
	awk 'BEGIN { print "id\td\tt\tx\tc\ts"
		for (i = 0; i < 60000; i++) {
			d = sprintf("20%02d-%02d-%02d", i % 30, i % 12 + 1, i % 28 + 1)
			if (i % 101 == 0) d = "?"
			printf "%d\t%s\t2020-01-01T%02d:%02d:00\t%s\tv%d\t%d\n", i, d,
			    i % 24, i % 60, i % 53 == 0 ? "NA" : i % 1000 / 10,
			    i * 7919 % 997, i % 13
		} }' > "$1"
	awk 'BEGIN { for (k = 0; k < 997; k++) print "v" k ";g" k % 10 ";*" }' > "$2"
}

@test "-j on tables of many blocks: dates, numbers, a hierarchy, missing values and sensitive columns give the bytes of -j 1, in memory and spooled out of core (-S)" {
	bigtable "$T/b" "$T/c.csv"
	for opts in "-q d,x,c --date d -k 20 -s s -l 3" \
	    "-q d,t,x,c --date d,t -k 20 -s s --closeness 0.5" \
	    "-q d,x -H d=date:year,decade -k 20 -t s --split regression" \
	    "-q d,x -H d=date:year -k 20 -t c --split infogain" \
	    "-q x,c -k 20 -s d,s -l 2" "-q x,c,d --date d -k 30 -s s --variance 2" \
	    "-q d,x,c --date d -k 20 -s s -l 3 -S 4M" \
	    "-q d,t,x,c --date d,t -k 20 -s s --closeness 0.5 -a rothko-s -S 4M" \
	    "-q x,c,d --date d -k 30 -s s --variance 2 -S 4M"; do
		# shellcheck disable=SC2086
		partition -j 1 --missing '?,NA' -H c="$T/c.csv" $opts \
		    -r "$T/r1" "$T/b" > "$T/o1" 2> "$T/e1"
		[ "$(wc -l < "$T/r1")" -gt 500 ]
		for j in 2 3; do
			# shellcheck disable=SC2086
			partition -j "$j" --missing '?,NA' -H c="$T/c.csv" \
			    $opts -r "$T/r$j" "$T/b" > "$T/o$j" 2> "$T/e$j"
			cmp "$T/o1" "$T/o$j" || { echo "$opts -j $j: table"; false; }
			cmp "$T/r1" "$T/r$j" || { echo "$opts -j $j: regions"; false; }
			cmp "$T/e1" "$T/e$j" || { echo "$opts -j $j: stderr"; false; }
		done
	done
}

@test "-j out of core: a budget too small is refused at the same row, with the same message, for every -j; one that fits gives the bytes of -j 1" {
	bigtable "$T/b" "$T/c.csv"
	local S j seen=
	for S in 300K 600K 1M 2M 3M; do
		for j in 1 3; do
			partition -j "$j" --missing '?,NA' -H c="$T/c.csv" \
			    -q d,x,c --date d -k 20 -s s -l 2 -S "$S" -T "$T" \
			    "$T/b" > "$T/o$j" 2> "$T/e$j" && echo 0 > "$T/s$j" ||
				echo $? > "$T/s$j"
		done
		cat "$T/s1" "$T/e1"
		cmp "$T/s1" "$T/s3"
		cmp "$T/e1" "$T/e3"
		cmp "$T/o1" "$T/o3"
		seen="$seen $(cat "$T/s1")"
	done
	# Both cases met: refused (2) and run (0).
	[[ "$seen" == *2* ]] && [[ "$seen" == *0* ]]
}

@test "-j out of core: the budget checked with the values of the rows before each chunk only: the same refusal, or the bad row before it, for every -j" {
	# A block's values were all given ids before its rows went to the
	# chunks, so a chunk was checked with values of rows after it:
	# -j 2 refused at row 16384 where -j 1 and 3 did at 20480, and
	# reported that refusal instead of a bad row at line 18001.
	# t-closeness under the hierarchical distance keeps its dictionary
	# out of core (l-diversity alone and the equal and ordered
	# distances key the values by hash, and are not refused).
	gendata -n 30000 --seed 7 agrawal | awk -F '\t' -v OFS='\t' '
	    NR == 1 { print $1, $3, "s"; next }
	    { print $1, $3, "1234567890" NR }' > "$T/r"
	awk -F '\t' -v OFS='\t' 'NR == 18001 { $1 = "oops" } 1' "$T/r" > "$T/rb"
	for f in r rb; do
		for j in 1 2 3 5; do
			run --separate-stderr partition -q salary,age -k 5 -s s \
			    --closeness 1 --distance hierarchical -H s=mask:1 \
			    -S 2500K -j "$j" \
			    "$T/$f"
			[ "$status" -eq 2 ]
			echo "$stderr" > "$T/e$j"
			[ "$j" = 1 ] || cmp "$T/e1" "$T/e$j" ||
			    { cat "$T/e1" "$T/e$j"; false; }
		done
		cat "$T/e1"
	done
	grep -q 'rb:18001: column .salary.' "$T/e1"
}

@test "-j out of core on a wide table: the blocks' lines counted in the reading's share of -S, for any -j" {
	# 200 columns, one of them a quasi-identifier: the blocks were sized
	# by their rows' records only, and -j 64 peaked at 29,364 KB at
	# -S 16M.
	awk 'BEGIN { OFS = "\t"; srand(3); h = "q"
	    for (i = 2; i <= 200; i++) h = h "\tc" i; print h
	    for (r = 0; r < 60000; r++) { s = int(rand() * 1000000)
		for (i = 2; i <= 200; i++) s = s "\t" (i % 10); print s } }' \
	    > "$T/w"
	partition -j 1 -q q -k 10 -S 16M "$T/w" > "$T/o1"
	[ -x "$ROOT/tests/peak-rss" ] || make -s -C "$ROOT" tests/peak-rss
	"$ROOT/tests/peak-rss" "$T/rss" partition -j 64 -q q -k 10 -S 16M \
	    "$T/w" > "$T/o64"
	cmp "$T/o1" "$T/o64"
	echo "peak $(cat "$T/rss") KB"
	[ -n "${ASAN_OPTIONS:-}" ] || [ "$(cat "$T/rss")" -le $((16384 + 8192)) ]
}

@test "-j: a bad row late in a table of many blocks is reported as -j 1 reports it, exit 2" {
	local edit opts
	bigtable "$T/b" "$T/c.csv"
	# Each case: the awk edit of the table (a row a thread stops at, a
	# value refused only when the block's values are merged, two bad
	# rows in one block, dates of two forms in two blocks), the options.
	while IFS='|' read -r edit opts; do
		awk -F '\t' -v OFS='\t' "$edit" "$T/b" > "$T/bad"
		# shellcheck disable=SC2086
		run --separate-stderr partition -j 1 --missing '?,NA' \
		    -H c="$T/c.csv" $opts "$T/bad"
		[ "$status" -eq 2 ] || { echo "$edit: -j 1: $status"; false; }
		[[ "$stderr" == "partition: $T/bad:"[0-9]* ]]
		want=$stderr
		for j in 2 3; do
			# shellcheck disable=SC2086
			run --separate-stderr partition -j "$j" --missing '?,NA' \
			    -H c="$T/c.csv" $opts "$T/bad"
			[ "$status" -eq 2 ] && [ "$stderr" = "$want" ] && [ -z "$output" ] || {
				echo "$edit -j $j: $status $stderr, not $want"; false; }
		done
	done <<'CASES'
NR == 50001 { $4 = "abc" } 1|-q d,x,c --date d -k 20
NR == 50001 { $4 = $4 "\t1" } 1|-q d,x,c --date d -k 20
NR == 59001 { $1 = $1 "\0" } 1|-q d,x,c --date d -k 20
NR == 50001 { $5 = "zzz" } 1|-q d,x,c --date d -k 20
NR == 50001 { $5 = "zzz" } NR == 50011 { $4 = "abc" } 1|-q d,x,c --date d -k 20
NR == 50011 { $5 = "zzz" } NR == 50001 { $4 = "abc" } 1|-q c,d,x --date d -k 20
NR == 45001 { $2 = "2001-01-01T00:00:00" } 1|-q d,x,c --date d -k 20
NR >= 45001 { $2 = "2001-01-01T00:00:00" } 1|-q d,x,c --date d -k 20
NR >= 45001 { $2 = "2001-01-01T00:00:00" } 1|-q x,d -H d=date:year -k 20
NR == 55001 { $6 = "x" } 1|-q d,x,c --date d -k 20 -s s --variance 1
NR == 55001 { $6 = "?" } 1|-q d,x,c --date d -k 20 -s s --variance 1
NR == 55001 { $6 = "x" } 1|-q d,c --date d -k 20 -s s,x --variance 1
NR == 55001 { $6 = "" } 1|-q d,x,c --date d -k 20 -t s --split regression
NR == 55001 { $6 = "1e5" } 1|-q d,c,s -H s=interval:5,10 --date d -k 20
NR == 50001 { $4 = "abc" } 1|-q d,x,c --date d -k 20 -S 4M
NR == 50001 { $5 = "zzz" } NR == 50011 { $4 = "abc" } 1|-q d,x,c --date d -k 20 -S 4M
NR >= 45001 { $2 = "2001-01-01T00:00:00" } 1|-q d,x,c --date d -k 20 -a rothko-s -S 4M
NR == 55001 { $6 = "x" } 1|-q d,x,c --date d -k 20 -s s --variance 1 -S 4M
CASES
}

@test "-j out of core in a large budget: the spool's chunks packed on the threads (numkey.c's ring) give the bytes of memory and of -j 1: scales that rise late, missing and negative numbers, a sensitive column" {
	# 60,000 rows, 15 chunks of the spool (MOND_CHUNK, 4,096 rows): b's
	# scale rises at rows 20,000 and 48,000, so chunks already packed
	# hold the scales before; m misses a value in 7.
	awk 'BEGIN { srand(3); print "id\ta\tb\tm\tn\ts"
		for (i = 0; i < 60000; i++) {
			if (i < 20000)
				b = int(rand() * 900)
			else if (i < 48000)
				b = sprintf("%.2f", rand() * 900)
			else
				b = sprintf("%.5f", rand() * 900)
			printf "%d\t%d\t%s\t%s\t%d\tv%d\n", i, int(rand() * 5000),
			    b, i % 7 == 0 ? "" : int(rand() * 300),
			    int(rand() * 2000) - 1000, int(rand() * 40) } }' \
	    > "$T/w.tsv"
	for opts in "-q a,b,m,n -k 10" "-q b,m,n -k 10 -s s -l 4" \
	    "-q a,b,n -k 20 -s s --closeness 0.4"; do
		# shellcheck disable=SC2086
		partition $opts -r "$T/rm" "$T/w.tsv" > "$T/om"
		for j in 1 2 3; do
			# shellcheck disable=SC2086
			partition -j "$j" -a rothko-t -S 256M --fit-rows 3000 \
			    -T "$T" $opts -r "$T/r$j" "$T/w.tsv" > "$T/o$j"
			cmp "$T/om" "$T/o$j" || { echo "$opts -j $j"; false; }
			cmp "$T/rm" "$T/r$j"
			# shellcheck disable=SC2086
			partition -j "$j" -a rothko-s -S 256M --fit-rows 3000 \
			    --sample 2000 -T "$T" $opts -r "$T/s$j" "$T/w.tsv" \
			    > "$T/p$j"
			cmp "$T/p1" "$T/p$j" || { echo "$opts -j $j: S"; false; }
			cmp "$T/s1" "$T/s$j"
		done
		[ "$(wc -l < "$T/rm")" -gt 1000 ]
	done
}

@test "-j with CSV (--csv: quoted fields, a record of two lines, CRLF): the rows read and coded on threads give the bytes of -j 1 in memory and out of core, and a value refused in the middle is named at its line" {
	gendata -n 60000 --seed 11 agrawal > "$T/t"
	awk -v n=45001 'NR == n { $0 = "1\t2\txx\t4\t5\t6\t7\t8\t9" } { print }' \
	    "$T/t" > "$T/bad"
	for f in t bad; do
		awk -F'\t' -v OFS=, 'NR > 1 && NR % 5 == 0 { $3 = "\"" $3 "\"" }
		    NR == 10 { $9 = "\"" $9 "\nx\"" }
		    { $1 = $1; printf "%s\r\n", $0 }' "$T/$f" > "$T/$f.csv"
	done
	for S in "" "-S 4M"; do
		for j in 1 3; do
			# shellcheck disable=SC2086
			partition --csv -j $j $S -q age,zipcode,car,salary -k 20 \
			    -r "$T/r.$j" "$T/t.csv" > "$T/p.$j"
		done
		cmp "$T/p.1" "$T/p.3"
		cmp "$T/r.1" "$T/r.3"
		[ "$(wc -l < "$T/r.1")" -gt 100 ]
		for j in 1 3; do
			# shellcheck disable=SC2086
			run partition --csv -j $j $S -q age,zipcode -k 20 \
			    -r "$T/rb" - < "$T/bad.csv"
			[ "$status" -eq 2 ]
			[[ $output == "partition: stdin:45002: column 'age': 'xx' "* ]]
		done
	done
}
