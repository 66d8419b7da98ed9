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

@test "suppressed rows (every QI '*') cost |T| each and skip the k check" {
	printf 'a\tb\ts\n1\tx\tu\n1\tx\tv\n*\t*\tu\n*\tx\tw\n*\tx\tu\n' > "$T/t"
	run score --check -k 2 -q a,b "$T/t"
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
