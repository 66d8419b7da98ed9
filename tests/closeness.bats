#!/usr/bin/env bats
# t-closeness (kanon(7), T-CLOSENESS) and several sensitive columns:
# lattice-search on Adult against closeness-brute.awk, an independent
# brute force that measures every class of every node from the rows with
# the distances' definitions; every algorithm gives the same bytes;
# score --check agrees with lattice-search; the option errors.

load common

QI=sex,age,race,marital-status,education,native-country,workclass

setup() {
	T=$BATS_TEST_TMPDIR
	HQ=()
	for a in ${QI//,/ }; do
		HQ+=(-H "$a=$AH/adult_hierarchy_$a.csv")
	done
	HS=(-H "occupation=$AH/adult_hierarchy_occupation.csv")
}

# The hierarchies as TSV, in -q order and then occupation's, for the
# brute force.
brute_hier() {
	local a
	for a in ${QI//,/ } occupation; do
		tr ';' '\t' < "$AH/adult_hierarchy_$a.csv" > "$T/$a.tsv"
		printf '%s\n' "$T/$a.tsv"
	done
}

@test "Adult (400 rows, 7 QIs, occupation): lattice-search agrees with the brute force, every distance, k, t and limit" {
	# The brute force measures every class of every node in awk: its
	# time is the rows' times the lattice's, whatever the settings.
	# 400 rows (1,000 until the suite outgrew its 5 minutes): as many
	# kinds of outcome (from 2 to 151 anonymous nodes, 1 to 52 minimal,
	# by the settings), in 40% of the time.
	head -n 401 "$ADULT" > "$T/a.tsv"
	# Each distance at two k and two t without suppression, and at one
	# with a limit, where every node is evaluated (not monotone): 15
	# settings, within the suite's time (the issue's figures came from
	# more, by hand: the closing note).
	configs=""
	for d in equal ordered hierarchical; do
		for k in 2 10; do
			for t in 0.1 0.3; do
				configs="$configs $k:$t:$d:0"
			done
		done
		configs="$configs 5:0.15:$d:40"
	done
	mapfile -t hf < <(brute_hier)
	awk -f "$BATS_TEST_DIRNAME/closeness-brute.awk" -v qi="$QI" \
	    -v scol=occupation -v configs="${configs# }" "${hf[@]}" \
	    "$T/a.tsv" > "$T/brute"
	[ "$(grep -c '^C' "$T/brute")" -eq 15 ]
	for cf in $configs; do
		IFS=: read -r k t d lim <<< "$cf"
		want=$(awk -v c="$cf" '$1 == "C" && $2 == c {
		    print $3, $4, $5 }' "$T/brute")
		awk -v c="$cf" 'BEGIN { FS = OFS = "\t" } $1 == "M" && $2 == c {
		    $1 = $2 = ""; sub(/^\t\t/, ""); print }' "$T/brute" |
		    sort > "$T/wantmin"
		first=
		for a in flash incognito super-roots cube samarati bfs bfs-scan; do
			lattice-search -a $a -q "$QI" -k "$k" -s occupation \
			    --closeness "$t" --distance "$d" --max-suppress "$lim" \
			    "${HQ[@]}" "${HS[@]}" -v "$T/a.tsv" > "$T/out.$a" \
			    2> "$T/err" || [ $? -eq 1 ]
			if [ -z "$first" ]; then
				first=$a
				tail -n +2 "$T/out.$a" | cut -f 1-7 | sort > "$T/gotmin"
				diff "$T/wantmin" "$T/gotmin" ||
				    { echo "$cf: minimal nodes differ"; return 1; }
				got=$(sed -n 's/.*anonymous \([0-9]*\), minimal \([0-9]*\)$/\1 \2/p' "$T/err")
				best=$(lattice-search -q "$QI" -k "$k" -s occupation \
				    --closeness "$t" --distance "$d" \
				    --max-suppress "$lim" "${HQ[@]}" "${HS[@]}" \
				    --best "$T/a.tsv" | awk 'NR == 2 { print $10 }')
				[ "$got ${best:-none}" = "$want" ] ||
				    { echo "$cf: got $got ${best:-none}, want $want"; return 1; }
			else
				cmp "$T/out.$first" "$T/out.$a" ||
				    { echo "$cf: -a $a differs from -a $first"; return 1; }
			fi
		done
	done
}

@test "score --check agrees with lattice-search: the best node's release is within t, and fails just below its closeness_max" {
	for d in equal ordered hierarchical; do
		lattice-search -q "$QI" -k 5 -s occupation --closeness 0.15 \
		    --distance "$d" "${HQ[@]}" "${HS[@]}" --best "$ADULT" > "$T/node"
		recode -n "$T/node" "${HQ[@]}" -k 5 "$ADULT" > "$T/rel"
		x=()
		[ "$d" = hierarchical ] && x=("${HS[@]}")
		run score -q "$QI" -k 5 -s occupation --closeness 0.15 \
		    --distance "$d" "${x[@]}" --check "$T/rel"
		[ "$status" -eq 0 ]
		[[ "$output" == *"check_closeness	pass"* ]]
		max=$(printf '%s\n' "$output" | awk '$1 == "closeness_max" { print $2 }')
		below=$(awk -v m="$max" 'BEGIN { printf "%.6f", m - 0.000001 }')
		run score -q "$QI" -k 5 -s occupation --closeness "$below" \
		    --distance "$d" "${x[@]}" --check "$T/rel"
		[ "$status" -eq 1 ]
		[[ "$output" == *"check_closeness	fail"* ]]
	done
}

@test "t-closeness is exact: a class exactly at t passes, and fails for t a hair below" {
	# The table: a 2, b 2; class x holds a 2, b 1 (equal distance
	# 1/2 |2/3 - 1/2| * 2 = 1/6), class y holds b 1.
	printf 'q\ts\nx\ta\nx\ta\nx\tb\ny\tb\n' > "$T/t.tsv"
	printf 'x\t*\ny\t*\n' > "$T/q.tsv"
	run lattice-search -q q -H q="$T/q.tsv" -k 1 -s s --closeness 0.5 --all "$T/t.tsv"
	[ "$status" -eq 0 ]
	# Class y: |0 - 1/2| + |1 - 1/2| = 1, halved: 1/2.  So the leaves
	# qualify at t = 0.5 and not below.
	[ "$(printf '%s\n' "$output" | sed -n 2p | cut -f 1)" = 0 ]
	run lattice-search -q q -H q="$T/q.tsv" -k 1 -s s --closeness 0.49999999999999999999 --all "$T/t.tsv"
	[ "$(printf '%s\n' "$output" | sed -n 2p | cut -f 1)" = 1 ]
	run score -q q -s s --closeness 0.5 --check "$T/t.tsv"
	[ "$status" -eq 0 ]
	[[ "$output" == *"closeness_max	0.5"* ]]
	run score -q q -s s --closeness 0.49999999999999999999 --check "$T/t.tsv"
	[ "$status" -eq 1 ]
}

@test "the ordered distance orders numbers as numbers, the hierarchical one uses -H" {
	# Values 1, 2, 10: byte order would put 10 before 2.
	printf 'q\ts\nx\t1\nx\t1\ny\t2\ny\t10\n' > "$T/t.tsv"
	# Class x: p = 1, 0, 0 against q = 1/2, 1/4, 1/4: cumulative
	# differences 1/2, 1/4, 0, over m - 1 = 2: 3/8.
	run score -q q -s s --closeness 0.375 --distance ordered --check "$T/t.tsv"
	[ "$status" -eq 0 ]
	[[ "$output" == *"closeness_max	0.375"* ]]
	# A tree: 1 and 2 under A, 10 under B; height 2.  Class x: the
	# extra at A is +1/4 (1: +1/2, 2: -1/4), at B -1/4: A costs
	# 1/2 min(1/2, 1/4) = 1/8, the root 2/2 min(1/4, 1/4) = 1/4.
	printf '1\tA\t*\n2\tA\t*\n10\tB\t*\n' > "$T/s.tsv"
	run score -q q -s s --closeness 0.375 --distance hierarchical \
	    -H s="$T/s.tsv" --check "$T/t.tsv"
	[ "$status" -eq 0 ]
	[[ "$output" == *"closeness_max	0.375"* ]]
}

# ordered_oracle FILE: the largest ordered distance of the classes of
# FILE (lines "class<TAB>value", no header) from the whole column,
# brute force: each value taken as its number (equal numbers written
# differently are one value, kanon(7), Sensitive values), the distinct
# numbers ranked, the empty ones last, and each class's cumulative
# differences summed over all positions.
ordered_oracle() {
	awk -F'\t' '{ printf "%s\t%s\n", $1, $2 == "" ? "" : sprintf("%.17g", $2 + 0) }' \
	    "$1" > "$T/num"
	cut -f 2 "$T/num" | LC_ALL=C sort -u | grep -v '^$' | LC_ALL=C sort -g \
	    > "$T/rank"
	if cut -f 2 "$T/num" | grep -q '^$'; then echo >> "$T/rank"; fi
	awk -F'\t' 'NR == FNR { pos[$0] = FNR - 1; m = FNR; next }
	    { c[$1, pos[$2]]++; n[$1]++; C[pos[$2]]++; N++ }
	    END {
		for (k in n) {
			s = 0; d = 0
			for (i = 0; i < m; i++) {
				s += c[k, i] / n[k] - C[i] / N
				d += s < 0 ? -s : s
			}
			d /= (m > 1 ? m - 1 : 1)
			if (d > max) max = d
		}
		printf "%.12f\n", max
	    }' "$T/rank" "$T/num"
}

@test "the ordered distance out of core: numbers of every form in kn_tclose_ranks's order (the brute force), the same for any -S; a value of no rows is no position" {
	# Negative, signed, equal numbers written differently (one value),
	# leading and trailing zeros and dots, missing values last; three
	# classes.
	awk 'BEGIN {
		split("-2.5 -2.50 -10 0 -0 0.0 3 03 3.000 +4 .5 7. 12 1000000 -0.001", v, " ")
		x = 7
		for (i = 0; i < 400; i++) {
			x = (x * 1103515245 + 12345) % 2147483648
			k = x % 19
			printf "%s\t%s\n", substr("xyz", i % 3 + 1, 1),
			    k < 15 ? v[k + 1] : ""
		}
	}' > "$T/rows"
	{ printf 'q\ts\n'; cat "$T/rows"; } > "$T/t.tsv"
	want=$(ordered_oracle "$T/rows")
	for S in 64K 1G; do
		run score -S "$S" -q q -s s --closeness 0.5 --distance ordered \
		    "$T/t.tsv"
		[ "$status" -eq 0 ]
		got=$(printf '%s\n' "$output" | awk '$1 == "closeness_max" { print $2 }')
		awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; exit !(d < 1e-9 && d > -1e-9 && b > 0.01) }'
	done
	# A frequency set's group of 0 rows: value 2 is not of the table
	# ({1: 5, 3: 1, 5: 1}); class a {1: 2, 3: 1} is then at 2/21
	# (cumulative differences -1/21, 3/21, 0 over m - 1 = 2), not 5/63
	# as with 2 a fourth position.
	printf 'q\ts\tcount\na\t1\t2\na\t2\t0\na\t3\t1\nb\t1\t3\nb\t5\t1\n' > "$T/f.tsv"
	run score --freqset -q q -s s --closeness 0.5 --distance ordered "$T/f.tsv"
	[[ "$output" == *"closeness_max	0.09523809524"* ]]
	grep -v '	0$' "$T/f.tsv" > "$T/f1.tsv"
	cmp <(printf '%s\n' "$output") <(score --freqset -q q -s s --closeness 0.5 --distance ordered "$T/f1.tsv")
}

@test "--closeness on a small table needs no temp file: score and recode run with -T a directory that does not exist, and 16 sensitive columns under ulimit -n 32" {
	printf 'q\ts\n1\t1\n1\t2\n2\t3\n' > "$T/t.tsv"
	run score -T "$T/none" -q q -s s --closeness 0.5 "$T/t.tsv"
	[ "$status" -eq 0 ]
	[[ "$output" == *"closeness_max	0.6666666667"* ]]
	# Starred, the suppressed row would show its value outside every
	# class: refused, then dropped.
	run --separate-stderr recode -T "$T/none" -n q=0 -H q=interval:10 -k 1 -s s \
	    --closeness 0.5 "$T/t.tsv"
	[ "$status" -eq 1 ]
	[ "$stderr" = "recode: 1 suppressed row, starred, would show its sensitive values outside every class that --closeness judges: use --suppress drop" ]
	run --separate-stderr recode -T "$T/none" -n q=0 -H q=interval:10 -k 1 -s s \
	    --closeness 0.5 --suppress drop "$T/t.tsv"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'q\ts\n1\t1\n1\t2')" ]
	# Every column's values, classes and verdicts held in memory.
	awk 'BEGIN { OFS = "\t"; printf "q"; for (c = 0; c < 16; c++)
	    printf "\ts%d", c; print ""; for (i = 0; i < 50; i++) {
	    printf "%d", i % 3; for (c = 0; c < 16; c++)
	    printf "\t%d", (i * (c + 1)) % 7; print "" } }' > "$T/w.tsv"
	cols=$(head -n 1 "$T/w.tsv" | cut -f 2- | tr '\t' ,)
	score -q q -s "$cols" --closeness 0.9 --distance ordered "$T/w.tsv" \
	    > "$T/want"
	(ulimit -n 32 && score -q q -s "$cols" --closeness 0.9 \
	    --distance ordered "$T/w.tsv") > "$T/got"
	cmp "$T/want" "$T/got"
	grep -q '^check_closeness	' "$T/got"
}

@test "several sensitive columns: every requirement holds for each" {
	printf 'q\ts1\ts2\nx\ta\tu\nx\tb\tu\ny\ta\tu\ny\tb\tv\n' > "$T/t.tsv"
	printf 'x\t*\ny\t*\n' > "$T/q.tsv"
	# s1 is 2-diverse in both classes, s2 only in y: the leaves fail.
	run lattice-search -q q -H q="$T/q.tsv" -k 1 -s s1,s2 -l 2 "$T/t.tsv"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | sed -n 2p | cut -f 1)" = 1 ]
	run lattice-search -q q -H q="$T/q.tsv" -k 1 -s s1 -l 2 "$T/t.tsv"
	[ "$(printf '%s\n' "$output" | sed -n 2p | cut -f 1)" = 0 ]
	run score -q q -s s1,s2 -l 2 --check "$T/t.tsv"
	[ "$status" -eq 1 ]
	run score -q q -s s1 -l 2 --check "$T/t.tsv"
	[ "$status" -eq 0 ]
	run score -q q -s s2,s1 --closeness 0.25 --check "$T/t.tsv"
	[ "$status" -eq 0 ]
	[[ "$output" == *"closeness_max	0.25"* ]]
}

@test "option errors: --closeness without -s, t outside [0,1], --distance alone, no hierarchy" {
	printf 'q\ts\nx\ta\n' > "$T/t.tsv"
	printf 'x\t*\n' > "$T/q.tsv"
	for prog in lattice-search score; do
		h=()
		[ $prog = lattice-search ] && h=(-H q="$T/q.tsv")
		run $prog -q q "${h[@]}" --closeness 0.2 "$T/t.tsv"
		[ "$status" -eq 2 ]
		[[ "$output" == *"--closeness needs the sensitive column (-s)"* ]]
		run $prog -q q "${h[@]}" -s s --closeness 1.5 "$T/t.tsv"
		[ "$status" -eq 2 ]
		[[ "$output" == *"--closeness: '1.5' is not a decimal number from 0 to 1"* ]]
		run $prog -q q "${h[@]}" -s s --closeness -0.1 "$T/t.tsv"
		[ "$status" -eq 2 ]
		run $prog -q q "${h[@]}" -s s -l 1 --distance ordered "$T/t.tsv"
		[ "$status" -eq 2 ]
		[[ "$output" == *"--distance applies to --closeness"* ]]
		run $prog -q q "${h[@]}" -s s --closeness 0.2 --distance tree "$T/t.tsv"
		[ "$status" -eq 2 ]
		run $prog -q q "${h[@]}" -s s --closeness 0.2 --distance hierarchical "$T/t.tsv"
		[ "$status" -eq 2 ]
		[[ "$output" == *"the sensitive column 's' has no hierarchy"* ]]
	done
}

@test "release-check.awk catches a class beyond t, in either of two sensitive columns" {
	ck=$BATS_TEST_DIRNAME/release-check.awk
	printf 'x\tq\ts\ts2\n1\ta\tu\tv\n2\ta\tu\tw\n3\tb\tw\tv\n4\tb\tw\tw\n' > "$T/t.tsv"
	# s: each class holds one value of two: distance 1/2; s2: 0.
	awk -f "$ck" -v qi=q -v k=2 -v id=x -v scol=s2 -v t=0 "$T/t.tsv" "$T/t.tsv"
	awk -f "$ck" -v qi=q -v k=2 -v id=x -v scol=s,s2 -v t=0.5 "$T/t.tsv" "$T/t.tsv"
	run awk -f "$ck" -v qi=q -v k=2 -v id=x -v scol=s2,s -v t=0.49 "$T/t.tsv" "$T/t.tsv"
	[ "$status" -eq 1 ]
	[[ "$output" == *"s not within 0.49 (equal)"* ]]
	run awk -f "$ck" -v qi=q -v k=2 -v id=x -v scol=s -v t=0.4 -v dist=ordered "$T/t.tsv" "$T/t.tsv"
	[ "$status" -eq 1 ]
	run awk -f "$ck" -v qi=q -v k=2 -v id=x -v scol=s,s2 -v l=2 "$T/t.tsv" "$T/t.tsv"
	[ "$status" -eq 1 ]
	[[ "$output" == *"not distinct 2-diverse in s"* ]]
}

@test "score: variance diversity in each of two sensitive columns, from a table and from its frequency set" {
	printf 'q\ta\tb\nx\t1\t10\nx\t3\t12\ny\t4\t1\ny\t6\t1\n' > "$T/v.tsv"
	# a: variance 1 in both classes; b: 1 in x, 0 in y.
	run score -q q -s a --variance 1 --check "$T/v.tsv"
	[ "$status" -eq 0 ]
	run score -q q -s a,b --variance 1 --check "$T/v.tsv"
	[ "$status" -eq 1 ]
	[[ "$output" == *"variance_min	0"* ]]
	freqset -q q --sum a --sum b "$T/v.tsv" > "$T/f.tsv"
	run score --freqset -q q -s a,b --variance 1 --check "$T/f.tsv"
	[ "$status" -eq 1 ]
	run score --freqset -q q -s b,a --variance 0 --check "$T/f.tsv"
	[ "$status" -eq 0 ]
	run score --freqset -q q -s a --variance 1 --check "$T/f.tsv"
	[ "$status" -eq 0 ]
}

@test "recode and partition: two sensitive columns, a class failing in either is suppressed once, or not cut" {
	printf 'q\ts1\ts2\tx\nx\ta\tu\t1\nx\tb\tu\t2\ny\ta\tu\t3\ny\tb\tv\t4\nz\ta\tv\t5\nz\tb\tu\t6\n' > "$T/m.tsv"
	printf 'x\t*\ny\t*\nz\t*\n' > "$T/q.tsv"
	run recode -v -n q=0 -H q="$T/q.tsv" -k 1 -s s1,s2 -l 2 --suppress drop "$T/m.tsv"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | grep -c '^x')" -eq 0 ]
	[[ "$output" == *"2 rows suppressed in 1 classes"* ]]
	# s2 over the table: u 4, v 2; class x (u, u) is 1/3 away.
	run recode -n q=0 -H q="$T/q.tsv" -k 1 -s s2,s1 --closeness 0.3 --suppress drop "$T/m.tsv"
	[ "$(printf '%s\n' "$output" | wc -l)" -eq 5 ]
	run recode -n q=0 -H q="$T/q.tsv" -k 1 -s s2,s1 --closeness 0.34 "$T/m.tsv"
	[ "$(printf '%s\n' "$output" | grep -c '^\*')" -eq 0 ]
	# --classes: the first pass from the frequency set, the same output.
	freqset -q q,s1,s2 "$T/m.tsv" > "$T/f.tsv"
	for r in "-l 2" "--closeness 0.3"; do
		recode -n q=0 -H q="$T/q.tsv" -k 1 -s s1,s2 $r --suppress drop "$T/m.tsv" > "$T/want"
		run --separate-stderr recode -n q=0 -H q="$T/q.tsv" -k 1 -s s1,s2 $r --suppress drop --classes "$T/f.tsv" "$T/m.tsv"
		[ "$status" -eq 0 ]
		[ "$output" = "$(cat "$T/want")" ]
		[ "$(printf '%s\n' "$output" | wc -l)" -eq 5 ]
	done
	run recode -n q=0 -H q="$T/q.tsv" -k 1 -s s2,s1 --closeness 0.34 --classes "$T/f.tsv" "$T/m.tsv"
	[ "$(printf '%s\n' "$output" | grep -c '^\*')" -eq 0 ]
	# A frequency set without s2, or with another pair of values.
	freqset -q q,s1 "$T/m.tsv" > "$T/f1.tsv"
	run recode -n q=0 -H q="$T/q.tsv" -k 1 -s s1,s2 -l 2 --classes "$T/f1.tsv" "$T/m.tsv"
	[ "$status" -eq 2 ]
	[[ "$output" == *"sensitive column 's2' is not a key column"* ]]
	sed '2s/u/v/' "$T/f.tsv" > "$T/f2.tsv"
	run recode -n q=0 -H q="$T/q.tsv" -k 1 -s s1,s2 -l 2 --classes "$T/f2.tsv" "$T/m.tsv"
	[ "$status" -eq 2 ]
	[[ "$output" == *"m.tsv:2: column 's1': s1='a', s2='u' are not counted in $T/f2.tsv for the class q='x'"* ]]
	# --variance in each column: a is 1, 3 in both classes (variance 1),
	# b is 0, 0 in x (0) and 0, 4 in y (4).
	printf 'q\ta\tb\nx\t1\t0\nx\t3\t0\ny\t1\t0\ny\t3\t4\n' > "$T/v.tsv"
	run partition -q q -H q="$T/q.tsv" -k 1 -s a --variance 1 "$T/v.tsv"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | cut -f 4 | sort -u | wc -l)" -eq 3 ]
	for a in "" "-a rothko-t -S 1M" "-a rothko-s -S 1M"; do
		run partition $a -q q -H q="$T/q.tsv" -k 1 -s a,b --variance 1 "$T/v.tsv"
		[ "$status" -eq 0 ]
		[ "$(printf '%s\n' "$output" | cut -f 4 | sort -u | wc -l)" -eq 2 ]
		run partition $a -q q -H q="$T/q.tsv" -k 1 -s b,a --variance 0.5 "$T/v.tsv"
		[ "$(printf '%s\n' "$output" | cut -f 4 | sort -u | wc -l)" -eq 2 ]
		run partition $a -q q -H q="$T/q.tsv" -k 1 -s b,a --variance 0 "$T/v.tsv"
		[ "$(printf '%s\n' "$output" | cut -f 4 | sort -u | wc -l)" -eq 3 ]
	done
	run partition -q q -H q="$T/q.tsv" -k 1 -s x,s2 --variance 0 "$T/m.tsv"
	[ "$status" -eq 2 ]
	[[ "$output" == *"m.tsv:2: column 's2': 'u' is not a number (--variance)"* ]]
	# partition: class x fails -l 2 in s2, so no cut stands.
	run partition -q q -H q="$T/q.tsv" -k 1 -s s1,s2 -l 2 "$T/m.tsv"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | cut -f 5 | sort -u | wc -l)" -eq 2 ]
	run partition -q q -H q="$T/q.tsv" -k 1 -s s1 -l 2 "$T/m.tsv"
	[ "$(printf '%s\n' "$output" | cut -f 5 | sort -u | wc -l)" -eq 4 ]
}

@test "kn_tval_sort (the classes' values by position, by radix past 32 of them): sorted, each pair kept, for sizes about its thresholds and positions of 1 to 32 bits (tests/tval-check)" {
	[ -x "$ROOT/tests/tval-check" ] || make -s -C "$ROOT" tests/tval-check
	local n b
	for n in 0 1 2 31 32 33 255 4095 4096 4097 70000; do
		for b in 0 1 7 8 9 11 12 22 23 31 32; do
			awk -v n=$n -v b=$b -v seed=$((n * 40 + b)) 'BEGIN {
			    srand(seed); m = 2 ^ b
			    for (i = 0; i < n; i++) printf "%d %d\n", int(rand() * m) % 4294967296, i }' > "$T/in"
			"$ROOT/tests/tval-check" < "$T/in" > "$T/got"
			sort -n -s -k1,1 -c "$T/got" || { echo "$n pairs of $b bits: not sorted"; false; }
			# The same pairs: each input pair's second number is
			# its line's index (0, 1, ...), so the pairs sorted
			# by it are the input when they are the same.
			sort -k2,2n "$T/got" | cmp - "$T/in" ||
			    { echo "$n pairs of $b bits: not the same pairs"; false; }
		done
	done
}
