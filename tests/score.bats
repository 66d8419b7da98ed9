#!/usr/bin/env bats
# score: metrics and checks on hand-made tables with known answers (the
# Patients table of paper 003, Figures 2 and 3), on Adult against awk,
# and on random tables against an independent checker.

load common

setup() {
	T=$BATS_TEST_TMPDIR
	# Paper 003 Figure 3: a multidimensional 2-anonymization.
	printf 'Age\tSex\tZipcode\tDisease\n%s\n' \
	    "$(printf '[25-26]\tMale\t53711\tFlu
[25-27]\tFemale\t53712\tHepatitis
[25-26]\tMale\t53711\tBrochitis
[27-28]\tMale\t[53710-53711]\tBroken Arm
[25-27]\tFemale\t53712\tAIDS
[27-28]\tMale\t[53710-53711]\tHang Nail')" > "$T/fig3"
	# Paper 003 Figure 2: a single-dimensional one.
	printf 'Age\tSex\tZipcode\tDisease\n%s\n' \
	    "$(printf '[25-28]\tMale\t[53710-53711]\tFlu
[25-28]\tFemale\t53712\tHepatitis
[25-28]\tMale\t[53710-53711]\tBrochitis
[25-28]\tMale\t[53710-53711]\tBroken Arm
[25-28]\tFemale\t53712\tAIDS
[25-28]\tMale\t[53710-53711]\tHang Nail')" > "$T/fig2"
}

# value NAME: the value of line NAME in $output.
value() {
	printf '%s\n' "$output" | awk -F'\t' -v n="$1" '$1 == n {print $2}'
}

@test "Patients, Figure 3: C_DM 12, C_AVG 1, 2-anonymous" {
	run score --check -k 2 -q Age,Sex,Zipcode "$T/fig3"
	[ "$status" -eq 0 ]
	[ "$(value rows)" = 6 ]
	[ "$(value classes)" = 3 ]
	[ "$(value cdm)" = 12 ]
	[ "$(value cavg)" = 1 ]
	[ "$(value class_size_min)" = 2 ]
	[ "$(value class_size_max)" = 2 ]
	[ "$(value risk_max)" = 0.5 ]
	[ "$(value check_k)" = pass ]
}

@test "Patients, Figure 2: C_DM 20, C_AVG 1.5" {
	run score -k 2 -s Disease "$T/fig2"
	[ "$status" -eq 0 ]
	[ "$(value classes)" = 2 ]
	[ "$(value cdm)" = 20 ]
	[ "$(value cavg)" = 1.5 ]
	[ "$(value class_size_mean)" = 3 ]
	[ "$(value risk_mean)" = 0.3333333333 ]
	[ "$(value l_distinct_min)" = 2 ]
}

@test "k check fails with exit 1 only under --check" {
	run score -k 3 -q Age,Sex,Zipcode "$T/fig3"
	[ "$status" -eq 0 ]
	[ "$(value check_k)" = fail ]
	run score --check -k 3 -q Age,Sex,Zipcode "$T/fig3"
	[ "$status" -eq 1 ]
	[ "$(value check_k)" = fail ]
}

@test "l-diversity checks on Figure 3: table-driven" {
	# Each class holds two distinct diseases once each.
	while IFS='|' read -r args line want st; do
		run score --check -s Disease $args "$T/fig3"
		[ "$status" -eq "$st" ] || { echo "$args: $status"; false; }
		[ "$(value "$line")" = "$want" ] || { echo "$args"; false; }
	done <<-EOF_
	-l 2|check_l_distinct|pass|0
	-l 3|check_l_distinct|fail|1
	-l 2 --diversity=entropy|check_l_entropy|pass|0
	-l 2.01 --diversity=entropy|check_l_entropy|fail|1
	-l 2 --diversity=recursive -c 1|check_l_recursive|fail|1
	-l 2 --diversity=recursive -c 1.01|check_l_recursive|pass|0
	-l 1 --diversity=recursive -c 1|check_l_recursive|pass|0
	-l 3 --diversity=recursive -c 9|check_l_recursive|fail|1
	EOF_
	run score -s Disease "$T/fig3"
	[ "$(value l_entropy_min)" = 2 ]
}

@test "recursive (c,l) on uneven classes, exact at the boundary" {
	# counts 6,2,1,1: r1 < c (r2 + r3 + r4) = 4c; r1 < c (r3 + r4) = 2c
	printf 'q\ts\n' > "$T/t"
	for s in a a a a a a b b c d; do printf 'x\t%s\n' $s >> "$T/t"; done
	while read -r l c want; do
		run score -s s -l $l --diversity recursive -c $c "$T/t"
		[ "$(value check_l_recursive)" = "$want" ] || { echo "$l $c"; false; }
	done <<-EOF_
	2 1.5 fail
	2 1.51 pass
	3 3 fail
	3 3.01 pass
	5 100 fail
	EOF_
}

@test "variance diversity is exact with decimals" {
	printf 'q\ts\nx\t0.1\nx\t0.3\ny\t10\ny\t12\ny\t14\n' > "$T/t"
	# var(x) = 0.01, var(y) = 8/3
	while read -r v want st; do
		run score --check -s s --variance "$v" "$T/t"
		[ "$status" -eq "$st" ] || { echo "$v: $status"; false; }
		[ "$(value check_variance)" = "$want" ] || { echo "$v"; false; }
	done <<-EOF_
	0.01 pass 0
	0.0100000001 fail 1
	0 pass 0
	EOF_
	[ "$(value variance_min)" = 0.01 ]
	grep -v x "$T/t" > "$T/y"
	run score -q q -s s --variance 2.6666 "$T/y"
	[ "$(value check_variance)" = pass ]
	[ "$(value variance_min)" = 2.666666667 ]
	run score -q q -s s --variance 2.6667 "$T/y"
	[ "$(value check_variance)" = fail ]
}

@test "suppressed rows (every QI '*') cost |T| each, and are checked as one class: k of them, or none" {
	printf 'a\tb\ts\n1\tx\tu\n1\tx\tv\n*\t*\tu\n*\tx\tw\n*\tx\tu\n' > "$T/t"
	run score --check -k 2 -q a,b "$T/t"
	[ "$status" -eq 1 ]
	[ "$(value check_k)" = fail ]
	run score --check -k 1 -q a,b "$T/t"
	[ "$status" -eq 0 ]
	# With a second suppressed row, k = 2 holds; their values are one
	# class's for -l.
	printf '*\t*\tv\n' >> "$T/t"
	run score --check -k 2 -q a,b -s s -l 2 "$T/t"
	[ "$status" -eq 0 ]
	run score --check -k 2 -q a,b -s s -l 3 "$T/t"
	[ "$(value check_l_distinct)" = fail ]
	sed -i '$d' "$T/t"
	run score --check -k 1 -q a,b "$T/t"
	[ "$status" -eq 0 ]
	[ "$(value rows)" = 5 ]
	[ "$(value suppressed)" = 1 ]
	[ "$(value classes)" = 2 ]
	# 2^2 + 2^2 + 1 * 5
	[ "$(value cdm)" = 13 ]
	run score --suppressed '#' --check -k 2 -q a,b "$T/t"
	[ "$status" -eq 1 ]
	[ "$(value suppressed)" = 0 ]
	[ "$(value cdm)" = 9 ]
}

@test "C_DM, classes and risk on Adult equal awk" {
	for f in 1 1,3 2,5 1,2,3,4 1,2,3,4,5,6,7,8; do
		q=$(head -1 "$ADULT" | cut -f "$f" | tr '\t' ,)
		run score -q "$q" --threshold 5 "$ADULT"
		[ "$status" -eq 0 ]
		want=$(tail -n +2 "$ADULT" | cut -f "$f" | sort | uniq -c |
		    awk '{n = $1; s += n * n; c++; if (n < 5) b += n}
		    END {printf "%d %d %d", s, c, b}')
		[ "$(value cdm) $(value classes) $(value rows_below_threshold)" = "$want" ]
	done
}

@test "random tables: the k check agrees with an independent checker" {
	for seed in 11 12 13 14 15 16; do
		randtable $seed 500 3 6 > "$T/r"
		minsz=$(tail -n +2 "$T/r" | cut -f1,2 | sort | uniq -c |
		    awk 'NR == 1 || $1 < m {m = $1} END {print m}')
		for k in 1 2 3 5 8; do
			run score --check -k $k -q c1,c2 "$T/r"
			if [ "$minsz" -ge "$k" ]; then
				[ "$status" -eq 0 ]
			else
				[ "$status" -eq 1 ]
			fi
			[ "$(value class_size_min)" = "$minsz" ]
		done
	done
}

@test "random tables: distinct l agrees with an independent checker" {
	for seed in 21 22 23; do
		randtable $seed 400 3 5 > "$T/r"
		lmin=$(tail -n +2 "$T/r" | cut -f1,2,3 | sort -u | cut -f1,2 |
		    uniq -c | awk 'NR == 1 || $1 < m {m = $1} END {print m}')
		for l in 1 2 3 4; do
			run score --check -q c1,c2 -s c3 -l $l "$T/r"
			if [ "$lmin" -ge "$l" ]; then
				[ "$status" -eq 0 ]
			else
				[ "$status" -eq 1 ]
			fi
		done
	done
}

@test "score of a frequency set equals score of the table" {
	randtable 31 800 3 7 > "$T/r"
	score -k 3 -q c1,c2 -s c3 -l 2 "$T/r" > "$T/a"
	freqset -q c1,c2,c3 "$T/r" | score --freqset -k 3 -q c1,c2 -s c3 -l 2 > "$T/b"
	cmp "$T/a" "$T/b"
	score -q c1 -s c3 --variance 1.5 "$T/r" > "$T/a"
	freqset -q c1 --sum c3 "$T/r" | score --freqset -q c1 -s c3 --variance 1.5 > "$T/b"
	cmp "$T/a" "$T/b"
}

@test "an empty table is vacuously anonymous" {
	printf 'a\tb\n' > "$T/t"
	run score --check -k 5 "$T/t"
	[ "$status" -eq 0 ]
	[ "$(value rows)" = 0 ]
	[ "$(value classes)" = 0 ]
	[ "$(value cdm)" = 0 ]
	[ "$(value check_k)" = pass ]
}

@test "score errors: table-driven" {
	printf 'a\tb\n1\tx\n' > "$T/t"
	printf 'a\tb\n1\tx\n2\ty\n' > "$T/num"
	while IFS='|' read -r args want; do
		eval "run --separate-stderr score $args"
		[ "$status" -eq 2 ] || { echo "$args: status $status"; false; }
		[[ "$stderr" == *"$want"* ]] || { echo "$args: $stderr"; false; }
	done <<-EOF_
	--check "$T/t"|nothing to check
	-k 0 "$T/t"|-k: '0' is out of range
	-k x "$T/t"|-k: 'x' is not an integer
	-l 2 "$T/t"|need the sensitive column
	-s b -l 0 "$T/t"|-l: '0' is out of range
	-s b -l 2.5 "$T/t"|need an integer
	-s b -l 2 -c 2 "$T/t"|-c applies to --diversity recursive
	-s b -l 2 --diversity=bogus "$T/t"|'bogus' is not distinct
	-s b --variance -1 "$T/t"|not a number >= 0
	-s b --variance 1 "$T/num"|column 'b': 'x' is not a number
	-q a -s a -k 2 "$T/t"|also a quasi-identifier
	--freqset "$T/t"|no 'count' column
	"$T/t" "$T/t"|one table at a time
	EOF_
}

@test "Adult at full-domain nodes: C_DM and classes of the known optima" {
	# Figures from an independent brute force that agrees with ARX:
	# k=2, node 1,1,1,1,3,2,2,1: 90 classes, C_DM 19,399,310.
	Q=sex,age,race,marital-status,education,native-country,workclass,occupation
	run sh -c "freqset -q $Q -H '$AH' -L sex=1,age=1,race=1,marital-status=1,education=3,native-country=2,workclass=2,occupation=1 '$ADULT' |
	    score --freqset --check -k 2"
	[ "$status" -eq 0 ]
	[ "$(value classes)" = 90 ]
	[ "$(value cdm)" = 19399310 ]
	# k=10, node 1,0,1,2,3,2,2,1 with classes below 10 suppressed:
	# 180 classes, 121 suppressed rows, C_DM 10,541,769.
	freqset -q $Q -H "$AH" -L sex=1,age=0,race=1,marital-status=2,education=3,native-country=2,workclass=2,occupation=1 "$ADULT" |
	    awk 'BEGIN {FS = OFS = "\t"} NR > 1 && $9 < 10 {for (i = 1; i <= 8; i++) $i = "*"} 1' > "$T/r"
	run score --freqset --check -k 10 "$T/r"
	[ "$status" -eq 0 ]
	[ "$(value classes)" = 180 ]
	[ "$(value suppressed)" = 121 ]
	[ "$(value cdm)" = 10541769 ]
}

@test "-S: score within a tiny budget equals score in memory" {
	gendata -n 20000 --seed 10 agrawal > "$T/a"
	for args in "-k 2 -q salary,age" "-k 3 -q age,car -s zipcode -l 2" \
	    "-q age,elevel -s salary --variance 1e8x"; do
		case $args in *x) args="-q age,elevel -s salary --variance 100000000";; esac
		score $args "$T/a" > "$T/want"
		score -S 64K -T "$BATS_TEST_TMPDIR" $args "$T/a" | cmp - "$T/want"
	done
}

@test "entropy l-diversity: H exactly log l with unequal counts passes" {
	# Counts 4,1,1,1,1 of 8: H = log 4 exactly; 2,1,1 of 4: H = log 2^1.5.
	printf 'q\ts\n' > "$BATS_TEST_TMPDIR/e"
	for v in A A A A B C D E; do printf 'a\t%s\n' $v; done >> "$BATS_TEST_TMPDIR/e"
	run --separate-stderr score --check -q q -s s -l 4 --diversity entropy "$BATS_TEST_TMPDIR/e"
	[ "$status" -eq 0 ]
	[[ "$output" == *"check_l_entropy	pass"* ]]
	run --separate-stderr score --check -q q -s s -l 4.0001 --diversity entropy "$BATS_TEST_TMPDIR/e"
	[ "$status" -eq 1 ]
	run --separate-stderr score --check -q q -s s -l 2.8284 --diversity entropy "$BATS_TEST_TMPDIR/e"
	[ "$status" -eq 0 ]
}

# ---- utility: -t (paper 004 §5.5), workloads (paper 003 §5, §6.3),
# ---- --plot (paper 003 Figures 15 and 16)

# near A B: A and B agree to 1e-8, relatively.
near() {
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d
	    m = a < 0 ? -a : a; if (m < 1) m = 1; exit !(d <= 1e-8 * m) }'
}

@test "-t: label entropy and target RMSE on a hand-computed table" {
	# Classes a: T 1,3; b: 5,5,8; the suppressed row (T 2) is a class.
	printf 'q\tt\ts\na\t1\tu\na\t3\tu\nb\t5\tu\nb\t5\tv\nb\t8\tu\n*\t2\tu\n' > "$T/t"
	run --separate-stderr score -q q -t t -s s "$T/t"
	[ "$status" -eq 0 ]
	# H = (2 * 1 + 3 * H(2/3, 1/3) + 1 * 0) / 6 bits
	[ "$(value label_entropy)" = 0.7924812504 ]
	# SSE = (1 + 1) + (1 + 1 + 4) + 0 = 8; sqrt(8 / 6)
	[ "$(value target_rmse)" = 1.154700538 ]
	[ "$(value l_distinct_min)" = 1 ]
	# A class label: a pure class costs nothing, a 2:2 class 1 bit.
	printf 'q\tt\na\tx\na\tx\na\ty\na\ty\nb\tx\nb\tx\n' > "$T/l"
	run --separate-stderr score -t t "$T/l"
	[ "$status" -eq 0 ]
	[ "$(value classes)" = 2 ]
	[ "$(value label_entropy)" = 0.6666666667 ]
	[[ "$output" != *target_rmse* ]]
	# Every class pure: 0, and the RMSE of a constant target 0.
	printf 'q\tt\na\t1.5\nb\t2\nb\t2\n' > "$T/p"
	run --separate-stderr score -t t "$T/p"
	[ "$(value label_entropy)" = 0 ]
	[ "$(value target_rmse)" = 0 ]
}

@test "-t agrees with awk on random tables and leaves the other figures alone" {
	for seed in 41 42 43; do
		randtable $seed 600 4 6 > "$T/r"
		want=$(awk -F'\t' 'NR > 1 { k = $1 "," $2; n[k]++; c[k, $4]++
		    s[k] += $4 }
		    END { for (kt in c) { split(kt, p, SUBSEP); k = p[1]
			h += c[kt] * log(n[k] / c[kt]) / log(2)
			e += c[kt] * (p[2] - s[k] / n[k]) ^ 2 }
		    printf "%.15g %.15g", h / (NR - 1), sqrt(e / (NR - 1)) }' "$T/r")
		run --separate-stderr score -k 2 -q c1,c2 -s c3 -l 2 -t c4 "$T/r"
		[ "$status" -eq 0 ]
		near "$(value label_entropy)" "${want% *}"
		near "$(value target_rmse)" "${want#* }"
		score -k 2 -q c1,c2 -s c3 -l 2 "$T/r" > "$T/a"
		printf '%s\n' "$output" | grep -v -e label_entropy -e target_rmse |
		    cmp - "$T/a"
		# From the frequency set, and within a tiny budget: the same.
		freqset -q c1,c2,c3,c4 "$T/r" |
		    score --freqset -k 2 -q c1,c2 -s c3 -l 2 -t c4 > "$T/b"
		printf '%s\n' "$output" | cmp - "$T/b"
		score -S 64K -T "$T" -k 2 -q c1,c2 -s c3 -l 2 -t c4 "$T/r" |
		    cmp - "$T/b"
	done
}

# The Patients-like example of the workload tests: ages 25..28 in two
# classes, age 30 suppressed (its row then covers ages 25..30, 6
# integers, and sex F or M).
wl_tables() {
	printf 'age\tsex\n25\tM\n26\tM\n27\tF\n28\tF\n30\tM\n' > "$T/o"
	printf 'age\tsex\n[25-26]\tM\n[25-26]\tM\n[27-28]\tF\n[27-28]\tF\n*\t*\n' > "$T/r"
	# The same with sex generalized to a hierarchy of three leaves.
	printf 'age\tsex\n[25-26]\tPerson\n[25-26]\tPerson\n[27-28]\tF\n[27-28]\tF\n*\t*\n' > "$T/rh"
	printf 'M\tPerson\t*\nF\tPerson\t*\nX\tOther\t*\n' > "$T/sex.tsv"
}

@test "workload: equality and ranges, discrete and continuous, suppressed rows" {
	wl_tables
	# age|sex||estimate - true|, one query at a time:
	# 25..26: 2 + 2/6 vs 2; 27: 2 * 1/2 + 1/6 vs 1 (27.0 the same);
	# ..27 M: 2 + 3/6 * 1/2 vs 2; 26.5.. F (continuous): 0 + 2 +
	# 3.5/5 * 1/2 vs 2; M: 2 + 1/2 vs 3; 30: 1/6 vs 1; no predicate:
	# 5 vs 5; 25.5: a point of a continuous range, 0 vs 0.
	while IFS='|' read -r age sex want; do
		printf 'age\tsex\n%s\t%s\n' "$age" "$sex" > "$T/w"
		run --separate-stderr score -q age,sex --original "$T/o" \
		    --workload "$T/w" "$T/r"
		[ "$status" -eq 0 ] || { echo "$age $sex: $stderr"; false; }
		[ "$(value workload_queries)" = 1 ]
		[ "$(value workload_abs_error_mean)" = "$want" ] ||
		    { echo "$age|$sex: $output"; false; }
	done <<-EOF_
	25..26||0.3333333333
	27|*|0.1666666667
	27.0||0.1666666667
	..27|M|0.25
	26.5..|F|0.35
	|M|0.5
	30||0.8333333333
	*||0
	25.5||0
	EOF_
	[ "$(value workload_rel_queries)" = 0 ]
	[ "$(value workload_rel_error_mean)" = 0 ]
	# All at once: means and population deviations.
	printf 'age\tsex\n25..26\t\n27\t*\n..27\tM\n26.5..\tF\n\tM\n' > "$T/w"
	run --separate-stderr score -q age,sex --original "$T/o" \
	    --workload "$T/w" "$T/r"
	[ "$status" -eq 0 ]
	[ "$(value workload_queries)" = 5 ]
	[ "$(value workload_abs_error_mean)" = 0.32 ]
	[ "$(value workload_abs_error_sd)" = 0.1112554618 ]
	[ "$(value workload_rel_error_mean)" = 0.16 ]
	[ "$(value workload_rel_error_sd)" = 0.01779513042 ]
	[ "$(value workload_rel_queries)" = 5 ]
	[ "$(value classes)" = 2 ]
	[ "$(value suppressed)" = 1 ]
}

@test "workload: released numbers and ranges, negative and decimal" {
	# One released row against an original value (100) that satisfies
	# no query: the error is the estimated fraction itself.
	printf 'x\n100\n' > "$T/o"
	while IFS='|' read -r rel q want; do
		printf 'x\n%s\n' "$rel" > "$T/r"
		printf 'x\n%s\n' "$q" > "$T/w"
		run --separate-stderr score --original "$T/o" --workload "$T/w" "$T/r"
		[ "$status" -eq 0 ] || { echo "$rel $q: $stderr"; false; }
		[ "$(value workload_abs_error_mean)" = "$want" ] ||
		    { echo "$rel|$q: $output"; false; }
	done <<-EOF_
	[-5--2]|-4..-3|0.5
	[-5--2]|-2|0.25
	[-5--2]|..-6|0
	[-1.5-0.5]|..0|0.75
	[-1.5-0.5]|0|0
	[0-10]|3..5|0.2727272727
	[0-10]|2.5..5|0.25
	[0-10]|..-0.5|0
	7|7|1
	7|6.5..7.5|1
	7.5|7..8|1
	7.5|8..9|0
	EOF_
}

@test "workload: a hierarchical column, file and generated" {
	wl_tables
	# Person covers M and F of the leaves M, F, X; '*' all three.
	# 25..26: 2 + 2/6 vs 2; 27: 1 + 1/6 vs 1; ..27 M: 2 * 1/2 + 3/6 *
	# 1/3 vs 2; 26.5.. F: 2 + 0.7 * 1/3 vs 2; M: 2 * 1/2 + 1/3 vs 3.
	while IFS='|' read -r age sex want; do
		printf 'age\tsex\n%s\t%s\n' "$age" "$sex" > "$T/w"
		run --separate-stderr score -q age,sex -H sex="$T/sex.tsv" \
		    --original "$T/o" --workload "$T/w" "$T/rh"
		[ "$status" -eq 0 ] || { echo "$age $sex: $stderr"; false; }
		[ "$(value workload_abs_error_mean)" = "$want" ] ||
		    { echo "$age|$sex: $output"; false; }
	done <<-EOF_
	25..26||0.3333333333
	27||0.1666666667
	..27|M|0.8333333333
	26.5..|F|0.2333333333
	|M|1.666666667
	|X|0.3333333333
	EOF_
	# A directory of hierarchies works as well.
	mkdir "$T/h"
	cp "$T/sex.tsv" "$T/h/sex.tsv"
	run --separate-stderr score -q age,sex -H "$T/h" --original "$T/o" \
	    --workload "$T/w" "$T/rh"
	[ "$(value workload_abs_error_mean)" = 0.3333333333 ]
	# A generated hierarchy: its leaves are the original's values, so
	# [25,30) covers 25, 26, 27, 28 and '*' all five.
	printf 'age\n[25,30)\n[25,30)\n[25,30)\n[25,30)\n*\n' > "$T/ri"
	while IFS='|' read -r age want; do
		printf 'age\n%s\n' "$age" > "$T/w"
		run --separate-stderr score -q age -H age=interval:5 \
		    --original "$T/o" --workload "$T/w" "$T/ri"
		[ "$status" -eq 0 ] || { echo "$age: $stderr"; false; }
		[ "$(value workload_abs_error_mean)" = "$want" ] ||
		    { echo "$age: $output"; false; }
	done <<-EOF_
	30|0.8
	25..26|0.4
	27|0.2
	..100|0
	EOF_
	# A range in a column with a hierarchy (partition --numeric) is
	# numeric: 27 takes a sixth of [25-30].
	printf 'age\n[25-30]\n[25-30]\n[25-30]\n[25-30]\n[25-30]\n' > "$T/ri"
	printf 'age\n27\n' > "$T/w"
	run --separate-stderr score -q age -H age=interval:5 --original "$T/o" \
	    --workload "$T/w" "$T/ri"
	[ "$status" -eq 0 ]
	[ "$(value workload_abs_error_mean)" = 0.1666666667 ]
}

@test "workload-auto: one equality per value of the original" {
	wl_tables
	# Ages 25, 26, 27, 28: 1 + 1/6 vs 1 each; 30: 1/6 vs 1.
	run --separate-stderr score -q age,sex --original "$T/o" \
	    --workload-auto age "$T/r"
	[ "$status" -eq 0 ]
	[ "$(value workload_queries)" = 5 ]
	[ "$(value workload_abs_error_mean)" = 0.3 ]
	[ "$(value workload_abs_error_sd)" = 0.2666666667 ]
	[ "$(value workload_rel_error_mean)" = 0.3 ]
	[ "$(value workload_rel_queries)" = 5 ]
	# The same as the written workload.
	printf 'age\n25\n26\n27\n28\n30\n' > "$T/w"
	score -q age,sex --original "$T/o" --workload "$T/w" "$T/r" > "$T/a"
	printf '%s\n' "$output" | cmp - "$T/a"
	# Sex over the hierarchy: F 1 + 2 + 1/3 vs 2, M 1 + 1/3 vs 3.
	run --separate-stderr score -q age,sex -H sex="$T/sex.tsv" \
	    --original "$T/o" --workload-auto sex "$T/rh"
	[ "$status" -eq 0 ]
	[ "$(value workload_queries)" = 2 ]
	[ "$(value workload_abs_error_mean)" = 1.5 ]
	[ "$(value workload_rel_error_mean)" = 0.6111111111 ]
}

@test "workload errors: table-driven" {
	wl_tables
	printf 'age\tsex\n25\tQ\n' > "$T/oq"
	printf 'age\tsex\n[25-x]\tM\n' > "$T/rx"
	printf 'age\tsex\n[25-26]\tQ\n' > "$T/rn"
	while IFS='|' read -r wl args want; do
		printf "age\tsex\n$wl\n" > "$T/w"
		eval "run --separate-stderr score $args"
		[ "$status" -eq 2 ] || { echo "$args: status $status"; false; }
		[[ "$stderr" == *"$want"* ]] || { echo "$wl $args: $stderr"; false; }
	done <<-EOF_
	1..x\t|-q age,sex --original "$T/o" --workload "$T/w" "$T/r"|w:2: column 'age': '1..x' is neither a value nor a range
	..\t|-q age,sex --original "$T/o" --workload "$T/w" "$T/r"|w:2: column 'age': '..' is neither
	\tM\n5..3\t|-q age,sex --original "$T/o" --workload "$T/w" "$T/r"|w:3: column 'age': '5..3' is an empty range
	\t1..2|-q age,sex --original "$T/o" --workload "$T/w" "$T/r"|w:2: column 'sex': a range on a column that is neither numeric
	1\t\t|-q age,sex --original "$T/o" --workload "$T/w" "$T/r"|w:2: expected 2 fields, found 3
	1\t|-q age --original "$T/o" --workload "$T/w" "$T/r"|column 'sex' is not a quasi-identifier
	1\t|-q age,sex --original "$T/o" --workload-auto zip "$T/r"|no column named 'zip'
	1\t|-q age --original "$T/o" --workload-auto sex "$T/r"|'sex' is not a quasi-identifier
	1\t|-q age,sex --original "$T/o" --workload "$T/w" "$T/rx"|column 'age': '[25-x]' is neither a number nor a range [a-b]
	1\t|-q age,sex -H sex="$T/sex.tsv" --original "$T/o" --workload "$T/w" "$T/rn"|column 'sex': 'Q' is neither a node
	1\t|-q age,sex -H sex="$T/sex.tsv" --original "$T/oq" --workload "$T/w" "$T/r"|oq:2: column 'sex': 'Q': value is not a leaf
	1\t|-q age,sex -H zip=x --original "$T/o" --workload "$T/w" "$T/r"|'zip' is not one of the grouped columns
	1\t|-q age,sex --workload "$T/w" "$T/r"|a workload needs the original table
	1\t|--original "$T/o" --workload "$T/w" --workload-auto age "$T/r"|exclude each other
	1\t|-q age -H sex="$T/sex.tsv" "$T/r"|'sex' is not one of the grouped columns
	1\t|--original - --workload "$T/w"|only one input can be the standard input
	1\t|-q age --original "$T/o" --workload "$T/w" "$T/r"|column 'sex' is not a quasi-identifier of
	1\t|-q sex -t sex "$T/r"|-t sex is also a quasi-identifier
	1\t|--freqset -t sex "$T/r"|no 'count' column
	EOF_
	# The workload header names a column twice.
	printf 'age\tage\n1\t2\n' > "$T/w"
	run --separate-stderr score -q age,sex --original "$T/o" --workload "$T/w" "$T/r"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"w:1: column name 'age' appears twice"* ]]
	# The original lacks a column.
	printf 'age\n25\n' > "$T/o1"
	printf 'sex\nM\n' > "$T/w"
	run --separate-stderr score -q age,sex --original "$T/o1" --workload "$T/w" "$T/r"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"o1: no column named 'sex'"* ]]
}

# wl_check: the workload errors of $T/r against $T/o, $T/w and the
# hierarchy $T/h of c3, computed by an independent awk program.
wl_check() {
	awk -F'\t' '
	function isint(x) { return x == int(x) }
	function sat(x, q, c) {
		if (!((q, c) in has)) return 1
		if (kind[q, c] == "eq") return x + 0 == val[q, c] + 0
		return (lo[q, c] == "" || x + 0 >= lo[q, c] + 0) &&
		    (hi[q, c] == "" || x + 0 <= hi[q, c] + 0)
	}
	function numfrac(a, b, q, c,   L, H) {
		if (!((q, c) in has)) return 1
		if (kind[q, c] == "eq") { L = val[q, c]; H = val[q, c] }
		else { L = lo[q, c]; H = hi[q, c] }
		if (isint(a) && isint(b) && (L == "" || isint(L)) &&
		    (H == "" || isint(H))) {
			if (L == "" || L + 0 < a) L = a
			if (H == "" || H + 0 > b) H = b
			return H < L ? 0 : (H - L + 1) / (b - a + 1)
		}
		if (L == "" || L + 0 < a) L = a
		if (H == "" || H + 0 > b) H = b
		if (a == b) return L + 0 <= H + 0
		return H + 0 <= L + 0 ? 0 : (H - L) / (b - a)
	}
	function region(v, c) {
		if (v == "*") { ra = mn[c]; rb = mx[c]; return }
		if (v ~ /^\[/) {
			split(substr(v, 2, length(v) - 2), p, "-")
			ra = p[1]; rb = p[2]; return
		}
		ra = rb = v
	}
	function hfrac(v, q, c,   l, s, t) {
		for (l = 0; l < 10; l++)
			if (v == "*" || v == l "" || v == par[l]) {
				t++; s += sat(l, q, c)
			}
		return s / t
	}
	FILENAME ~ /\/h$/ { par[$1] = $2; next }
	FILENAME ~ /\/o$/ && FNR > 1 {
		no++
		for (c = 1; c <= 3; c++) {
			ov[no, c] = $c
			if (!(c in mn) || $c + 0 < mn[c]) mn[c] = $c + 0
			if (!(c in mx) || $c + 0 > mx[c]) mx[c] = $c + 0
		}
		next
	}
	FILENAME ~ /\/w$/ && FNR > 1 {
		nq++
		for (c = 1; c <= 3; c++) {
			x = $c
			if (x == "") continue
			has[nq, c] = 1
			if ((i = index(x, "..")) > 0) {
				kind[nq, c] = "range"
				lo[nq, c] = substr(x, 1, i - 1)
				hi[nq, c] = substr(x, i + 2)
			} else {
				kind[nq, c] = "eq"; val[nq, c] = x
			}
		}
		next
	}
	FILENAME ~ /\/r$/ && FNR > 1 { cnt[$0]++ }
	END {
		for (q = 1; q <= nq; q++) {
			t = 0
			for (i = 1; i <= no; i++)
				if (sat(ov[i, 1], q, 1) && sat(ov[i, 2], q, 2) &&
				    sat(ov[i, 3], q, 3)) t++
			e = 0
			for (k in cnt) {
				split(k, f, "\t"); fr = 1
				for (c = 1; c <= 2; c++) {
					region(f[c], c); fr *= numfrac(ra, rb, q, c)
				}
				e += cnt[k] * fr * hfrac(f[3], q, 3)
			}
			ae[q] = e > t ? e - t : t - e; sa += ae[q]
			if (t > 0) { re[q] = ae[q] / t; sr += re[q]; nr++ }
		}
		ma = sa / nq; mr = nr ? sr / nr : 0
		for (q = 1; q <= nq; q++) {
			va += (ae[q] - ma) ^ 2
			if (q in re) vr += (re[q] - mr) ^ 2
		}
		printf "%d %.15g %.15g %.15g %.15g %d\n", nq, ma, sqrt(va / nq),
		    mr, nr ? sqrt(vr / nr) : 0, nr
	}' "$T/h" "$T/o" "$T/w" "$T/r"
}

@test "random tables: workload errors agree with an independent awk computation" {
	# The hierarchy of c3: 0..4 under g0, 5..9 under g1.
	awk 'BEGIN { for (v = 0; v < 10; v++) printf "%d\tg%d\t*\n", v, int(v / 5) }' > "$T/h"
	for seed in 51 52 53 54; do
		randtable $seed 300 3 10 > "$T/o"
		# A Mondrian-like release: boxes of c1 x c2 as [min-max] (or a
		# number), c3 a leaf or a level-1 node, boxes below 3 rows
		# suppressed.
		awk -F'\t' 'NR > 1 { g = int($1 / 4) "_" int($2 / 3); row[NR] = g
		    c3[NR] = $3; n[g]++
		    if (!(g in l1) || $1 < l1[g]) l1[g] = $1
		    if (!(g in h1) || $1 > h1[g]) h1[g] = $1
		    if (!(g in l2) || $2 < l2[g]) l2[g] = $2
		    if (!(g in h2) || $2 > h2[g]) h2[g] = $2 }
		    END { print "c1\tc2\tc3"
		    for (i = 2; i <= NR; i++) { g = row[i]
			if (n[g] < 3) { print "*\t*\t*"; continue }
			a = l1[g] == h1[g] ? l1[g] : "[" l1[g] "-" h1[g] "]"
			b = l2[g] == h2[g] ? l2[g] : "[" l2[g] "-" h2[g] "]"
			print a "\t" b "\t" (n[g] % 2 ? "g" int(c3[i] / 5) : c3[i]) } }' \
		    "$T/o" > "$T/r"
		# 60 queries: equalities, closed and open ranges, some with
		# bounds halfway between integers (continuous fractions).
		awk -v seed=$seed 'function cell(half,   r, lo) {
			r = rand(); if (r < .35) return ""
			if (r < .65) return int(10 * rand())
			lo = int(10 * rand()) + (half && rand() < .5 ? .5 : 0)
			r = rand(); if (r < .2) return ".." lo
			if (r < .4) return lo ".."
			return lo ".." lo + int(5 * rand()) }
		    BEGIN { srand(seed); print "c1\tc2\tc3"
		    for (i = 0; i < 60; i++) print cell(0) "\t" cell(1) "\t" cell(0) }' > "$T/w"
		want=$(wl_check)
		run --separate-stderr score -q c1,c2,c3 -H c3="$T/h" --original "$T/o" \
		    --workload "$T/w" "$T/r"
		[ "$status" -eq 0 ]
		got=$(printf '%s\n' "$output" | awk -F'\t' '/^workload_/ { printf "%s ", $2 }')
		set -- $want
		for g in $got; do
			near "$g" "$1" || { echo "seed $seed: $got vs $want"; false; }
			shift
		done
		# The frequency set of the release gives the same.
		freqset -q c1,c2,c3 "$T/r" | score --freqset -q c1,c2,c3 -H c3="$T/h" \
		    --original "$T/o" --workload "$T/w" > "$T/b"
		printf '%s\n' "$output" | cmp - "$T/b"
		# --workload-auto: one equality per value, numeric and over
		# the hierarchy.
		for c in 1 3; do
			{ printf 'c1\tc2\tc3\n'
			tail -n +2 "$T/o" | cut -f $c | sort -u |
			    awk -v c=$c '{ $0 = c == 1 ? $0 "\t\t" : "\t\t" $0 } 1'
			} > "$T/w"
			want=$(wl_check)
			run --separate-stderr score -q c1,c2,c3 -H c3="$T/h" \
			    --original "$T/o" --workload-auto c$c "$T/r"
			[ "$status" -eq 0 ]
			got=$(printf '%s\n' "$output" | awk -F'\t' '/^workload_/ { printf "%s ", $2 }')
			set -- $want
			for g in $got; do
				near "$g" "$1" || { echo "seed $seed c$c: $got vs $want"; false; }
				shift
			done
		done
	done
}

@test "--plot: an SVG with a rectangle per class and a dot per row" {
	printf 'x\ty\tclass\n1\t1\t0\n2\t3\t0\n5\t5\t1\n5\t6\t1\n9\t2\t2\n' > "$T/p"
	run --separate-stderr score --plot x,y "$T/p"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$(printf '%s\n' "$output" | grep -c '<rect ')" = 3 ]
	[ "$(printf '%s\n' "$output" | grep -c '<circle ')" = 5 ]
	[ "$(printf '%s\n' "$output" | head -1)" = '<?xml version="1.0" encoding="UTF-8"?>' ]
	[ "$(printf '%s\n' "$output" | tail -1)" = '</svg>' ]
	[ "$(printf '%s\n' "$output" | grep -c '<svg ')" = 1 ]
	# The single point of class 2 is a tiny box; the axes name the
	# columns and their extremes.
	[[ "$output" == *'width="2.00" height="2.00"><title>2: 1 row</title>'* ]]
	[[ "$output" == *'>x</text>'* && "$output" == *'>y</text>'* ]]
	[[ "$output" == *'>9</text>'* && "$output" == *'>6</text>'* ]]
	printf '%s\n' "$output" > "$T/a.svg"
	if command -v xmllint > /dev/null; then
		xmllint --noout "$T/a.svg"
	fi
	# Deterministic, and -o writes the same.
	score --plot x,y -o "$T/b.svg" "$T/p"
	cmp "$T/a.svg" "$T/b.svg"
	# Another class column, or none: the classes of -q.
	sed '1s/class/grp/' "$T/p" > "$T/g"
	run --separate-stderr score --plot x,y --class-col grp "$T/g"
	[ "$(printf '%s\n' "$output" | grep -c '<rect ')" = 3 ]
	run --separate-stderr score --plot x,y -q grp "$T/g"
	[ "$(printf '%s\n' "$output" | grep -c '<rect ')" = 3 ]
	run --separate-stderr score --plot x,y "$T/g"
	[ "$(printf '%s\n' "$output" | grep -c '<rect ')" = 5 ]
	# A synthetic table: one class per education level.
	gendata -n 500 --seed 3 agrawal > "$T/ag"
	run --separate-stderr score --plot age,salary -q elevel "$T/ag"
	[ "$status" -eq 0 ]
	want=$(tail -n +2 "$T/ag" | cut -f "$(head -1 "$T/ag" | tr '\t' '\n' |
	    grep -n '^elevel$' | cut -d: -f1)" | sort -u | wc -l)
	[ "$(printf '%s\n' "$output" | grep -c '<rect ')" -eq "$want" ]
	[ "$(printf '%s\n' "$output" | grep -c '<circle ')" = 500 ]
}

@test "--plot errors: table-driven" {
	printf 'x\ty\tclass\n1\t1\t0\nabc\t3\t0\n' > "$T/p"
	printf 'x\ty\n1\t1\n' > "$T/q"
	while IFS='|' read -r args want; do
		eval "run --separate-stderr score $args"
		[ "$status" -eq 2 ] || { echo "$args: status $status"; false; }
		[[ "$stderr" == *"$want"* ]] || { echo "$args: $stderr"; false; }
	done <<-EOF_
	--plot x,y "$T/p"|p:3: column 'x': 'abc' is not a number
	--plot y,x "$T/p"|p:3: column 'x': 'abc' is not a number
	--plot x "$T/q"|expected two columns X,Y
	--plot x,z "$T/q"|no column named 'z'
	--plot x,y --class-col c "$T/q"|no column named 'c'
	--plot x,y -k 2 "$T/q"|--plot draws the classes
	--plot x,y -t y "$T/q"|--plot draws the classes
	--class-col c "$T/q"|--class-col applies to --plot
	--plot x,y -o /nonexistent/dir/f.svg "$T/q"|/nonexistent/dir
	EOF_
}

@test "ncp and precision: hand-computed on a numeric and a hierarchical QI with a suppressed row; only when their inputs are given" {
	cd "$T"
	# age 20..60 in the original (width 40); zip's hierarchy has 4
	# leaves: 1* holds 3, 21 is one leaf; the last row is suppressed.
	printf 'age\tzip\tdis\n20\t11\tflu\n30\t12\tflu\n40\t13\tcold\n60\t21\tcold\n' > o.tsv
	printf 'age\tzip\tdis\n[20-40]\t1*\tflu\n[20-40]\t1*\tflu\n60\t21\tcold\n*\t*\tcold\n' > r.tsv
	printf '11\t1*\t*\n12\t1*\t*\n13\t1*\t*\n21\t2*\t*\n' > zip.tsv
	printf '20\t[20-40]\t*\n30\t[20-40]\t*\n40\t[20-40]\t*\n60\t[60-80]\t*\n' > age.tsv
	# NCP: age 20/40 twice, 0, 1; zip 3/4 twice, 0, 1: 4.5 / 8.
	run score -q age,zip -H zip=zip.tsv --original o.tsv --json r.tsv
	[ "$status" -eq 0 ]
	[[ "$output" == *'"ncp": 0.5625,'* ]]
	# age has no hierarchy: no precision, and the JSON says why.
	[[ "$output" != *'"precision": 0'* ]]
	[[ "$output" == *"\"precision\": \"'age' has no hierarchy (-H): precision is defined for generalization by hierarchies\""* ]]
	# Both with hierarchies: NCP age 3/4 twice, 0, 1 and zip the same,
	# 5 / 8; precision levels 1/2 twice, 0, 1 in each: 1 - 4 / 8.
	run score -q age,zip -H zip=zip.tsv -H age=age.tsv r.tsv
	[ "$(value ncp)" = 0.625 ]
	[ "$(value precision)" = 0.5 ]
	[ "$(printf '%s\n' "$output" | sed -n '/^cdm/{n;p;}' | cut -f 1)" = ncp ]
	# From the release's frequency set, the same.
	freqset -q age,zip r.tsv > f.tsv
	run score --freqset -q age,zip -H zip=zip.tsv -H age=age.tsv f.tsv
	[ "$(value ncp)" = 0.625 ]
	[ "$(value precision)" = 0.5 ]
	# Dates: a 5-day interval of a 10-day column costs 1/2.
	printf 'd\tzip\n2020-01-01\t11\n2020-01-11\t12\n2020-01-05\t21\n' > od.tsv
	printf 'd\tzip\n2020-01-01/2020-01-06\t1*\n2020-01-06/2020-01-11\t1*\n2020-01-05\t21\n' > rd.tsv
	run score -q d,zip --date d -H zip=zip.tsv --original od.tsv rd.tsv
	[ "$(value ncp)" = 0.4166666667 ]
	# Without their inputs, neither: no original for age, no -H.
	run score -q age,zip -H zip=zip.tsv r.tsv
	[ "$status" -eq 0 ]
	[ -z "$(value ncp)" ] && [ -z "$(value precision)" ]
	run score -q age,zip --original o.tsv --json r.tsv
	[[ "$output" == *"\"ncp\": \"'zip' has no hierarchy (-H), and the release holds '1*', which is neither a number nor a range\""* ]]
	# A label the hierarchy does not have: not measured, and why.
	printf 'age\tzip\n[20-40]\t1x\n' > bad.tsv
	run score -q age,zip -H zip=zip.tsv -H age=age.tsv --json bad.tsv
	[ "$status" -eq 0 ]
	[[ "$output" == *"\"ncp\": \"'zip': the release holds '1x', which is no label of its hierarchy (-H)\""* ]]
	[[ "$output" != *'"ncp": 0'* ]]
}

@test "precision agrees with lattice-search's prec for the best node's release on Adult, suppressed rows starred" {
	q=sex,age,race,marital-status,education
	for k in 5 10 50; do
		lattice-search --best -q "$q" -H "$AH" -k "$k" --max-suppress 1% \
		    "$ADULT" > "$T/node"
		recode -n "$T/node" -H "$AH" -k "$k" --max-suppress 1% \
		    --suppress star "$ADULT" > "$T/rel"
		run score -q "$q" -H "$AH" "$T/rel"
		[ "$(value precision)" = "$(awk -F'\t' 'NR == 2 { print $11 }' "$T/node")" ]
		[ -n "$(value ncp)" ]
	done
}

@test "-j: the same figures for any number of threads, in memory and in runs" {
	gendata -n 200000 --seed 4 uniform -d 4 -c 30 > "$T/u.tsv"
	n=$(tail -n +2 "$T/u.tsv" | cut -f1-3 | LC_ALL=C sort -u | wc -l)
	for S in "" "-S 1M"; do
		# shellcheck disable=SC2086
		score -j 1 $S -q a1,a2,a3 -s a4 -l 2 -k 3 "$T/u.tsv" \
		    > "$T/want"
		grep -qx "classes	$n" "$T/want"
		for j in 2 3 7; do
			# shellcheck disable=SC2086
			score -j $j $S -q a1,a2,a3 -s a4 -l 2 -k 3 "$T/u.tsv" |
			    cmp - "$T/want" ||
			    { echo "-j $j $S"; false; }
		done
	done
}
