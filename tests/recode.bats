#!/usr/bin/env bats
# recode: full-domain generalization to a lattice node with suppression,
# checked on Adult against freqset and score, on hand-made tables with
# known answers (l-diversity), and on random tables against an awk
# re-implementation and an independent k-anonymity checker.

load common

QI=sex,age,race,marital-status,education,native-country,workclass,occupation
# Adult nodes with known answers (levels in the order of QI).
N90=sex=1,age=1,race=1,marital-status=1,education=3,native-country=2,workclass=2,occupation=1
N121=sex=1,age=0,race=1,marital-status=2,education=3,native-country=2,workclass=2,occupation=1

setup() {
	T=$BATS_TEST_TMPDIR
}

# vstat NAME: the number NAME in recode -v's line in $stderr
# ("30162 rows, 90 classes, ...").
vstat() {
	printf '%s\n' "$stderr" | tr ',' '\n' |
	    awk -v n="$1" '{sub(/^recode: /, "")} NF == 2 && $2 == n {print $1}'
}

@test "Adult, node 1,1,1,1,3,2,2,1, -k 2: 90 classes, nothing suppressed" {
	run --separate-stderr recode -v -H "$AH" -n "$N90" -k 2 "$ADULT"
	[ "$status" -eq 0 ]
	[ "$(vstat rows)" = 30162 ]
	[ "$(vstat classes)" = 90 ]
	[[ "$stderr" == *" 0 rows suppressed in 0 classes, 30162 rows written"* ]]
	[ "${#lines[@]}" -eq 30163 ]
	[ "${lines[0]}" = "$(head -1 "$ADULT")" ]
	[ "$(printf '%s\n' "$output" | grep -c '^\*	\*	\*	\*	\*	\*	\*	\*	')" -eq 0 ]
}

@test "Adult, node 1,0,1,2,3,2,2,1, -k 10: 121 rows suppressed, score passes" {
	run --separate-stderr recode -v -H "$AH" -n "$N121" -k 10 \
	    --max-suppress 2% -o "$T/out" "$ADULT"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	[[ "$stderr" == *"30162 rows, 211 classes, 121 rows suppressed in 31 classes"* ]]
	run score -q "$QI" -k 10 --check "$T/out"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | grep -qx "$(printf 'suppressed\t121')"
	printf '%s\n' "$output" | grep -qx "$(printf 'classes\t180')"
	printf '%s\n' "$output" | grep -qx "$(printf 'rows\t30162')"
	# Only the node's attributes are starred; salary-class is kept.
	[ "$(grep -c '^\*	\*	\*	\*	\*	\*	\*	\*	[<>]' "$T/out")" -eq 121 ]
	[ "$(cut -f9 "$T/out" | md5sum)" = "$(cut -f9 "$ADULT" | md5sum)" ]
}

@test "--max-suppress: exceeded exits 1 and writes nothing" {
	mkdir "$T/o"
	while IFS='|' read -r lim want; do
		run --separate-stderr recode -H "$AH" -n "$N121" -k 10 \
		    --max-suppress "$lim" -o "$T/o/out" "$ADULT"
		[ "$status" -eq 1 ] || { echo "$lim: $status"; false; }
		[ "$stderr" = "recode: 121 rows would be suppressed, more than the limit $want" ]
	done <<-EOF_
	120|120
	0.4%|120
	0.39%|117
	0%|0
	EOF_
	[ -z "$(ls -A "$T/o")" ]
	run --separate-stderr recode -H "$AH" -n "$N121" -k 10 \
	    --max-suppress 120 -o "$T/o/out" "$ADULT"
	[ "$status" -eq 1 ]
	[ -z "$(ls -A "$T/o")" ]
	# Nothing on stdout either, not even the header.
	run --separate-stderr recode -H "$AH" -n "$N121" -k 10 \
	    --max-suppress 0.40% "$ADULT"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	for lim in 121 0.402% 100% 2%; do
		run --separate-stderr recode -H "$AH" -n "$N121" -k 10 \
		    --max-suppress "$lim" "$ADULT"
		[ "$status" -eq 0 ] || { echo "$lim: $status"; false; }
	done
}

@test "-k above the row count suppresses every row: starred, they would be a class below k, refused" {
	printf 'age\tx\n17\ta\n17\tb\n90\tc\n' > "$T/t"
	run --separate-stderr recode -H "$AH" -n age=1 -k 4 "$T/t"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[ "$stderr" = "recode: 3 suppressed rows, starred, would make a class of fewer than 4 rows (-k), which singles out whoever no other class covers: use --suppress drop" ]
	run --separate-stderr recode -H "$AH" -n age=1 -k 3 "$T/t"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'age\tx\n*\ta\n*\tb\n*\tc')" ]
	run --separate-stderr recode -H "$AH" -n age=1 -k 4 --max-suppress 2 "$T/t"
	[ "$status" -eq 1 ]
	run --separate-stderr recode -H "$AH" -n age=1 -k 4 --suppress drop "$T/t"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'age\tx')" ]
}

@test "generalization equals freqset -L at the same levels" {
	for L in "$N90" "$N121" sex=0,age=2,race=0,marital-status=0,education=0,native-country=0,workclass=0,occupation=0 \
	    sex=1,age=4,race=1,marital-status=2,education=3,native-country=2,workclass=2,occupation=2; do
		freqset -q "$QI" -H "$AH" -L "$L" "$ADULT" > "$T/want"
		recode -k 1 -H "$AH" -n "$L" "$ADULT" | freqset -q "$QI" > "$T/got"
		cmp "$T/want" "$T/got" || { echo "$L"; false; }
	done
	# A subset of the attributes: the others pass through.
	recode -k 1 -H "$AH" -n age=2,race=1 "$ADULT" | cut -f1,4-9 > "$T/got"
	cut -f1,4-9 "$ADULT" | cmp - "$T/got"
	freqset -q age,race -H "$AH" -L age=2,race=1 "$ADULT" > "$T/want"
	recode -k 1 -H "$AH" -n age=2,race=1 "$ADULT" | freqset -q age,race | cmp - "$T/want"
}

@test "stdin and pipes are spooled: same output, temp dir left empty" {
	mkdir "$T/tmp"
	recode -H "$AH" -n "$N121" -k 10 "$ADULT" > "$T/want"
	cat "$ADULT" | recode -T "$T/tmp" -H "$AH" -n "$N121" -k 10 > "$T/a"
	cmp "$T/want" "$T/a"
	cat "$ADULT" | recode -T "$T/tmp" -H "$AH" -n "$N121" -k 10 - > "$T/a"
	cmp "$T/want" "$T/a"
	recode -T "$T/tmp" -H "$AH" -n "$N121" -k 10 <(cat "$ADULT") > "$T/a"
	cmp "$T/want" "$T/a"
	TMPDIR="$T/tmp" recode -H "$AH" -n "$N121" -k 10 < "$ADULT" > "$T/a"
	cmp "$T/want" "$T/a"
	# One pass (nothing to suppress) reads stdin as it comes.
	recode -k 1 -H "$AH" -n "$N121" "$ADULT" > "$T/want1"
	cat "$ADULT" | recode -k 1 -T "$T/tmp" -H "$AH" -n "$N121" > "$T/a"
	cmp "$T/want1" "$T/a"
	cat "$ADULT" | recode -k 1 -T "$T/tmp" -H "$AH" -n "$N121" - > "$T/a"
	cmp "$T/want1" "$T/a"
	recode -k 1 -H "$AH" -n "$N121" <(cat "$ADULT") > "$T/a"
	cmp "$T/want1" "$T/a"
	[ -z "$(ls -A "$T/tmp")" ]
	# Errors name stdin, also when read from the spool.
	printf 'age\n17\n200\n' | { run --separate-stderr recode -T "$T/tmp" \
	    -H "$AH" -n age=0 -k 2; [ "$status" -eq 2 ] &&
	    [[ "$stderr" == "recode: stdin:3: column 'age': '200'"* ]]; }
	[ -z "$(ls -A "$T/tmp")" ]
}

@test "-S: class counts that outgrow the budget spill runs, same output" {
	mkdir "$T/tmp"
	randtable 7 20000 4 400 > "$T/r"
	set -- -H c1=interval:2,4 -H c2=mask:1 -H c3=interval:5 \
	    -n c1=1,c2=0,c3=1 -k 3 -s c4 -l 2 --suppress drop
	recode "$@" "$T/r" > "$T/want"
	run --separate-stderr recode -v -S 64K -T "$T/tmp" "$@" "$T/r"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | cmp - "$T/want"
	[ "$(vstat runs)" -ge 2 ]
	[ -z "$(ls -A "$T/tmp")" ]
}

@test "--suppress drop: rows minus suppressed, the others as with star" {
	recode -H "$AH" -n "$N121" -k 10 "$ADULT" > "$T/star"
	run --separate-stderr recode -v -H "$AH" -n "$N121" -k 10 \
	    --suppress drop "$ADULT"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq $((30162 - 121 + 1)) ]
	[[ "$stderr" == *"121 rows suppressed in 31 classes, 30041 rows written"* ]]
	grep -v '^\*	\*	\*	\*	\*	\*	\*	\*	' "$T/star" |
	    cmp - <(printf '%s\n' "$output")
}

@test "-x drops columns, the rest passes through in order" {
	recode -H "$AH" -n "$N121" -k 10 "$ADULT" > "$T/star"
	recode -H "$AH" -n "$N121" -k 10 -x salary-class "$ADULT" > "$T/a"
	cut -f1-8 "$T/star" | cmp - "$T/a"
	recode -k 1 -H "$AH" -n age=1,race=1 -x sex,9 "$ADULT" > "$T/a"
	recode -k 1 -H "$AH" -n age=1,race=1 "$ADULT" | cut -f2-8 | cmp - "$T/a"
}

@test "a node file (lattice-search output) equals the attr=level list" {
	{
		printf 'occupation\tworkclass\tnative-country\teducation\t'
		printf 'marital-status\trace\tage\tsex\tsuppressed\tclasses\t'
		printf 'cdm\tcavg\theight\tprec\tloss\n'
		printf '1\t2\t2\t3\t2\t1\t0\t1\t121\t180\t10541769\t16.7\t12\t0.5\t0.4\r\n'
		printf '0\t0\t0\t0\t0\t0\t0\t0\t0\t1\t1\t1\t1\t1\t1\n'
	} > "$T/node.tsv"
	recode -H "$AH" -n "$N121" -k 10 "$ADULT" > "$T/want"
	recode -H "$AH" -n "$T/node.tsv" -k 10 "$ADULT" | cmp - "$T/want"
	# The node from a pipe, the table from a file.
	recode -H "$AH" -n <(cat "$T/node.tsv") -k 10 "$ADULT" | cmp - "$T/want"
	# Column numbers in the list form.
	recode -H "$AH" -n 1=1,2=0,3=1,4=2,5=3,6=2,7=2,8=1 -k 10 "$ADULT" |
	    cmp - "$T/want"
}

@test "headerless input (--columns, --columns-file): no header written" {
	cols=$(head -1 "$ADULT" | tr '\t' ,)
	recode -H "$AH" -n "$N121" -k 10 "$ADULT" | tail -n +2 > "$T/want"
	tail -n +2 "$ADULT" | recode -k 1 --columns "$cols" -H "$AH" -n "$N121" \
	    -k 10 > "$T/a"
	cmp "$T/want" "$T/a"
	head -1 "$ADULT" > "$T/cols"
	tail -n +2 "$ADULT" > "$T/body"
	recode --columns-file "$T/cols" -H "$AH" -n "$N121" -k 10 "$T/body" |
	    cmp - "$T/want"
}

@test "l-diversity: a large enough class of one sensitive value is suppressed" {
	printf 'zip\tage\tdis\n%s\n' "$(printf '53711\t25\tflu
53711\t26\tflu
53711\t27\tflu
53712\t25\tflu
53712\t26\tcold
53712\t27\tflu
53720\t31\tflu
53720\t35\tcold
53720\t38\tacne')" > "$T/t"
	set -- -H zip=mask:1,2 -H age=interval:10 -n zip=0,age=1 -k 3
	while IFS='|' read -r args want; do
		# Starred, the suppressed rows would show their values.
		run --separate-stderr recode "$@" $args "$T/t"
		if [[ $args == *-l* ]] && [[ $want == *'*'* ]]; then
			[ "$status" -eq 1 ] || { echo "$args: $status"; false; }
			[[ $stderr == *"starred, would show their sensitive values"* ]]
			run --separate-stderr recode "$@" $args --suppress drop "$T/t"
			[ "$status" -eq 0 ] || { echo "$args: $stderr"; false; }
			want=${want//\* /}
		fi
		[ "$status" -eq 0 ] || { echo "$args: $stderr"; false; }
		[ "$(printf '%s\n' "$output" | cut -f1 | tr '\n' ' ')" = "$want" ] ||
		    { echo "$args: $output"; false; }
	done <<-EOF_
	|zip 53711 53711 53711 53712 53712 53712 53720 53720 53720 
	-k 4|zip * * * * * * * * * 
	-s dis|zip 53711 53711 53711 53712 53712 53712 53720 53720 53720 
	-s dis -l 2|zip * * * 53712 53712 53712 53720 53720 53720 
	-s dis -l 3|zip * * * * * * 53720 53720 53720 
	-s dis -l 2 --diversity entropy|zip * * * * * * 53720 53720 53720 
	-s dis -l 2 --diversity recursive -c 3|zip * * * 53712 53712 53712 53720 53720 53720 
	-s dis -l 2 --diversity recursive -c 2|zip * * * * * * 53720 53720 53720 
	EOF_
	# The ages of suppressed rows are starred too; dis is kept (k alone:
	# with -l, starred rows would show it, and are refused).
	run --separate-stderr recode "$@" -k 4 "$T/t"
	[ "${lines[1]}" = "$(printf '*\t*\tflu')" ]
	run --separate-stderr recode "$@" -s dis -l 2 "$T/t"
	[ "$status" -eq 1 ]
	[ "$stderr" = "recode: 3 suppressed rows, starred, would show their sensitive values outside every class that -l judges: use --suppress drop" ]
	run --separate-stderr recode "$@" -s dis -l 2 --suppress drop "$T/t"
	[ "${lines[1]}" = "$(printf '53712\t[20,30)\tflu')" ]
	# Without -k, -l alone suppresses.
	run recode -k 1 -H zip=mask:1,2 -H age=interval:10 -n zip=0,age=1 -s dis -l 3 --suppress drop "$T/t"
	[ "$(printf '%s\n' "$output" | wc -l)" -eq 4 ]
}

# expect K LV1 LV2 LV3 [L]: recode's expected output, computed
# in awk from $T/r: c1 under interval:2,4, c2 under mask:1, c3 under interval:5
# at the given levels; classes under k (or with fewer than L distinct
# c4) are starred, or with L dropped (recode refuses to star them).
expect() {
	awk -F'\t' -v OFS='\t' -v k="$1" -v l1="$2" -v l2="$3" -v l3="$4" \
	    -v l="${5:-0}" '
	function iv(v, w) { return "[" int(v / w) * w "," int(v / w) * w + w ")" }
	function g1(v) { return l1 == 0 ? v : l1 == 1 ? iv(v, 2) : l1 == 2 ? iv(v, 4) : "*" }
	function g2(v) { return l2 == 0 ? v : l2 == 1 ? substr(v, 1, length(v) - 1) "*" : "*" }
	function g3(v) { return l3 == 0 ? v : l3 == 1 ? iv(v, 5) : "*" }
	FNR == 1 { if (NR == 1) print; next }
	NR == FNR {
		key = g1($1) "\t" g2($2) "\t" g3($3); n[key]++
		if (!((key, $4) in seen)) { seen[key, $4] = 1; m[key]++ }
		next
	}
	{
		key = g1($1) "\t" g2($2) "\t" g3($3)
		if ((n[key] < k || m[key] < l) && l == 0) print "*", "*", "*", $4
		else if (n[key] < k || m[key] < l) ;
		else print key, $4
	}' "$T/r" "$T/r"
}

# check K < output: every class of the output not suppressed has at
# least K rows.
check_k() {
	awk -F'\t' -v k="$1" 'NR > 1 && $1 != "*" {n[$1 "\t" $2 "\t" $3]++}
	    END {for (c in n) if (n[c] < k) {print "class " c ": " n[c]; bad = 1}
	    exit bad}'
}

@test "random tables: output equals an awk recoding, k-anonymous, c4 unchanged" {
	while read -r seed card k l1 l2 l3 l; do
		randtable "$seed" 3000 4 "$card" > "$T/r"
		set -- -H c1=interval:2,4 -H c2=mask:1 -H c3=interval:5 \
		    -n c1=$l1,c2=$l2,c3=$l3 -k "$k"
		[ "$l" = 0 ] || set -- "$@" -s c4 -l "$l" --suppress drop
		recode "$@" "$T/r" > "$T/got"
		expect "$k" "$l1" "$l2" "$l3" "$l" | cmp - "$T/got" ||
		    { echo "seed $seed"; false; }
		check_k "$k" < "$T/got"
		[ "$l" != 0 ] || cut -f4 "$T/r" | cmp - <(cut -f4 "$T/got")
	done <<-EOF_
	1 10 2 0 0 0 0
	2 30 5 1 0 1 0
	3 60 3 2 1 1 0
	4 150 10 1 1 2 0
	5 30 4 1 0 1 2
	6 20 2 0 1 0 3
	7 500 2 3 2 2 0
	EOF_
}

@test "data errors name file, line and column; no output is left" {
	printf 'age\tsex\n17\tMale\n200\tMale\n' > "$T/bad"
	printf 'age\tsex\n17\tMale\n18\n' > "$T/ragged"
	mkdir "$T/o"
	for k in "" "-k 2"; do
		run --separate-stderr recode -k 1 -H "$AH" -n age=0 $k -o "$T/o/x" "$T/bad"
		[ "$status" -eq 2 ]
		[ "$stderr" = "recode: $T/bad:3: column 'age': '200': value is not a leaf of the hierarchy ($AH/adult_hierarchy_age.csv)" ]
		run --separate-stderr recode -k 1 -H age=interval:5 -n age=1 $k "$T/ragged"
		[ "$status" -eq 2 ]
		[ "$stderr" = "recode: $T/ragged:3: expected 2 fields, found 1" ]
	done
	printf 'age\n17\nx\n' > "$T/nan"
	run --separate-stderr recode -H age=interval:5 -n age=1 -k 2 "$T/nan"
	[ "$status" -eq 2 ]
	[ "$stderr" = "recode: $T/nan:3: column 'age': 'x': value is not a number (interval:5)" ]
	# Two passes: the error comes before any output.
	[ -z "$output" ]
	[ -z "$(ls -A "$T/o")" ]
}

@test "usage and node errors: table-driven" {
	printf 'age\tsex\tdis\n17\tMale\tflu\n' > "$T/t"
	printf 'age\tsex\tsuppressed\tclasses\tcdm\tcavg\theight\tprec\tloss\n1\t0\t0\t0\t0\t0\t0\t0\t0\n' > "$T/node.tsv"
	printf 'age\tsex\tsuppressed\tclasses\tcdm\tcavg\theight\tprec\tloss\n' > "$T/nodata"
	printf 'age\tsex\tclasses\n1\t0\t0\n' > "$T/nosup"
	printf 'age\tsex\tsuppressed\tclasses\tcdm\tcavg\theight\tprec\tloss\n1\t0\n' > "$T/ragnode"
	printf 'age\tsex\tsuppressed\tclasses\tcdm\tcavg\theight\tprec\tloss\n1\tx\t0\t0\t0\t0\t0\t0\t0\n' > "$T/badlv"
	printf 'age\tfoo\tsuppressed\tclasses\tcdm\tcavg\theight\tprec\tloss\n1\t0\t0\t0\t0\t0\t0\t0\t0\n' > "$T/badattr"
	: > "$T/empty"
	H="-H $AH"
	while IFS='|' read -r args want; do
		eval "run --separate-stderr recode -k 1 $args"
		[ "$status" -eq 2 ] || { echo "$args: status $status"; false; }
		[[ "$stderr" == *"$want"* ]] || { echo "$args: $stderr"; false; }
		[ -z "$output" ] || { echo "$args: output"; false; }
	done <<-EOF_
	"$T/t"|no recoding: give the node with -n
	-n foo=1 "$T/t"|-n foo=1: attribute 'foo' is not a column of $T/t
	-n age=1 "$T/t"|-n age=1: attribute 'age' has no hierarchy (give one with -H)
	$H -n age=5 "$T/t"|-n age=5: attribute 'age': level 5 is out of range: its hierarchy ($AH/adult_hierarchy_age.csv) has 5 levels, 0 to 4
	$H -n age=1,sex=0,age=2 "$T/t"|attribute 'age' is named twice
	$H -n age=1,1=2 "$T/t"|attribute '1' is named twice
	$H -n age=x "$T/t"|-n age=x: attribute 'age': level 'x' is not a number
	$H -n age=-1 "$T/t"|level '-1' is not a number
	$H -n age= "$T/t"|level '' is not a number
	$H -n age=1, "$T/t"|empty item
	$H -n =1 "$T/t"|'=1': expected attr=level
	$H -n nosuch "$T/t"|-n 'nosuch': no such node file, nor a list attr=level,...
	$H -n "$T" "$T/t"|is a directory
	$H -n "$T/empty" "$T/t"|$T/empty: empty node file
	$H -n "$T/nodata" "$T/t"|$T/nodata: no node: expected a data row
	$H -n "$T/nosup" "$T/t"|$T/nosup:1: expected the header of lattice-search output
	$H -n "$T/ragnode" "$T/t"|$T/ragnode:2: expected 9 fields, found 2
	$H -n "$T/badlv" "$T/t"|$T/badlv:2: attribute 'sex': level 'x' is not a number
	$H -n "$T/badattr" "$T/t"|$T/badattr:2: attribute 'foo' is not a column of $T/t
	$H -n age=1 -k 0 "$T/t"|-k: '0' is out of range
	$H -n age=1 -k x "$T/t"|-k: 'x' is not an integer
	$H -n age=1 -x age "$T/t"|-x: 'age' is a node attribute
	$H -n age=1 -s dis -l 2 -x dis "$T/t"|-x: 'dis' is the sensitive column (-s)
	$H -n age=1 -x nosuch "$T/t"|no column named 'nosuch'
	$H -n age=1 -s age -l 2 "$T/t"|-s age is also a node attribute
	$H -n age=1 -s nosuch -l 2 "$T/t"|no column named 'nosuch'
	$H -n age=1 -l 2 "$T/t"|-l needs the sensitive column (-s)
	$H -n age=1 -s dis -c 2 "$T/t"|--diversity and -c apply to -l
	$H -n age=1 -s dis -l 2 --diversity bogus "$T/t"|--diversity: 'bogus'
	$H -n age=1 --max-suppress 101% "$T/t"|--max-suppress: '101%' is not a percentage
	$H -n age=1 --max-suppress -1% "$T/t"|--max-suppress: '-1%' is not a percentage
	$H -n age=1 --max-suppress 1e2% "$T/t"|--max-suppress: '1e2%' is not a percentage
	$H -n age=1 --max-suppress -3 "$T/t"|--max-suppress: '-3' is out of range
	$H -n age=1 --suppress blank "$T/t"|--suppress: 'blank' is not star or drop
	$H -n age=1 "$T/t" "$T/t"|one table at a time (got 2 files)
	$H -n age=1 -k 2 "$T/empty"|$T/empty: empty input
	$H -n age=1 -k 2 < "$T/empty"|stdin: empty input
	$H -n age=1 -H sex=interval:5 "$T/t"|-H sex=interval:5: 'sex' is not one of the grouped columns
	$H -n age=1 -S 12Q "$T/t"|-S: '12Q' is not a size
	$H -n age=1 "$T/nosuchfile"|$T/nosuchfile: No such file or directory
	$H -n age=1 -k 2 "$T/nosuchfile"|$T/nosuchfile: No such file or directory
	$H -n age=1 --bogus "$T/t"|usage: recode
	EOF_
}

@test "write errors exit 2: -o /dev/full and stdout to /dev/full" {
	[ -c /dev/full ] || skip "no /dev/full"
	run --separate-stderr recode -H "$AH" -n "$N121" -k 10 -o /dev/full "$ADULT"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "recode: /dev/full: "*"No space left on device" ]]
	run --separate-stderr bash -c 'recode -k 1 -H "$1" -n age=1 "$2" > /dev/full' _ "$AH" "$ADULT"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"No space left on device" ]]
}

@test "an unwritable temp dir fails for stdin, not for a file" {
	printf 'age\n17\n18\n' > "$T/t"
	run --separate-stderr recode -T "$T/nosuchdir" -H "$AH" -n age=1 -k 2 "$T/t"
	[ "$status" -eq 0 ]
	run --separate-stderr recode -T "$T/nosuchdir" -H "$AH" -n age=1 -k 2 < "$T/t"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "recode: cannot create a temp file in $T/nosuchdir: "* ]]
}

@test "-h, --version; output is deterministic" {
	run recode -h
	[ "$status" -eq 0 ]
	[[ "$output" == "usage: recode -n node"* ]]
	run recode --version
	[ "$status" -eq 0 ]
	[[ "$output" == "recode (kanon) "* ]]
	a=$(recode -H "$AH" -n "$N121" -k 10 -s salary-class -l 2 "$ADULT" | md5sum)
	b=$(recode -H "$AH" -n "$N121" -k 10 -s salary-class -l 2 "$ADULT" | md5sum)
	[ "$a" = "$b" ]
}

@test "review: a node file whose attribute is named like a metric keeps it" {
	T=$BATS_TEST_TMPDIR
	printf 'age\tsuppressed\n1\tx\n1\tx\n2\tq\n2\tx\n' > "$T/t"
	printf '1\t*\n2\t*\n' > "$T/age.tsv"
	printf 'x\t*\nq\t*\n' > "$T/suppressed.tsv"
	lattice-search -q age,suppressed -H "$T" -k 2 --best "$T/t" > "$T/node"
	run --separate-stderr recode -n "$T/node" -H "$T" -k 2 "$T/t"
	[ "$status" -eq 0 ]
	# Every released class has 2 rows or is suppressed.
	bad=$(printf '%s\n' "$output" | tail -n +2 | sort | uniq -c |
	    awk '$1 < 2 && $2 != "*"')
	[ -z "$bad" ]
}

@test "review: a frequency set (count column) is refused unless --raw" {
	T=$BATS_TEST_TMPDIR
	printf 'a\ts\tcount\nx\tA\t100\nx\tB\t1\n' > "$T/fs"
	printf 'x\t*\n' > "$T/h"
	run --separate-stderr recode -n a=0 -H a="$T/h" -k 1 -s s -l 2 --diversity entropy "$T/fs"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"a 'count' column"*"--raw"* ]]
	[ -z "$output" ]
	run --separate-stderr recode --raw -n a=0 -H a="$T/h" -k 1 "$T/fs"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 3 ]
}

# ---- region mode (-r): partition's output and regions ------------------

# patients: the Patients table of paper 003 Figure 1 as partition would
# write it (class appended; classes {Flu,Brochitis} {Hepatitis,AIDS}
# {Broken Arm,Hang Nail}) in $T/p.tsv, its regions in $T/r.tsv (Sex
# categorical, with the node labels Male and Female).
patients() {
	printf '%s\n' 'Age	Sex	Zipcode	Disease	class' \
	    '25	Male	53711	Flu	1' \
	    '25	Female	53712	Hepatitis	2' \
	    '26	Male	53711	Brochitis	1' \
	    '27	Male	53710	Broken Arm	3' \
	    '27	Female	53712	AIDS	2' \
	    '28	Male	53711	Hang Nail	3' > "$T/p.tsv"
	printf '%s\n' \
	    'class	count	Age_min	Age_max	Age_mean	Sex	Zipcode_min	Zipcode_max	Zipcode_mean' \
	    '1	2	25	26	25.5	Male	53711	53711	53711' \
	    '2	2	25	27	26	Female	53712	53712	53712' \
	    '3	2	27	28	27.5	Male	53710	53711	53710.5' > "$T/r.tsv"
}

@test "regions: the Patients example gives paper 003 Figure 3 (range)" {
	patients
	run --separate-stderr recode -r "$T/r.tsv" "$T/p.tsv"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$output" = "$(printf '%s\n' 'Age	Sex	Zipcode	Disease' \
	    '[25-26]	Male	53711	Flu' \
	    '[25-27]	Female	53712	Hepatitis' \
	    '[25-26]	Male	53711	Brochitis' \
	    '[27-28]	Male	[53710-53711]	Broken Arm' \
	    '[25-27]	Female	53712	AIDS' \
	    '[27-28]	Male	[53710-53711]	Hang Nail')" ]
	# range is the default; from stdin, to -o, the same.
	recode -r "$T/r.tsv" --summary range -o "$T/out" < "$T/p.tsv"
	printf '%s\n' "$output" | cmp - "$T/out"
}

@test "regions: --summary both gives Figure 8, mean the means" {
	patients
	run --separate-stderr recode -r "$T/r.tsv" --summary both "$T/p.tsv"
	[ "$status" -eq 0 ]
	# Figure 8: Age(R), Age(M), Sex(R), Zipcode(R), Disease.
	[ "$(printf '%s\n' "$output" | cut -f1-4,6)" = "$(printf '%s\n' \
	    'Age	Age_mean	Sex	Zipcode	Disease' \
	    '[25-26]	25.5	Male	53711	Flu' \
	    '[25-27]	26	Female	53712	Hepatitis' \
	    '[25-26]	25.5	Male	53711	Brochitis' \
	    '[27-28]	27.5	Male	[53710-53711]	Broken Arm' \
	    '[25-27]	26	Female	53712	AIDS' \
	    '[27-28]	27.5	Male	[53710-53711]	Hang Nail')" ]
	# Every numeric QI gets its mean column right after it.
	[ "$(printf '%s\n' "$output" | cut -f5 | tr '\n' ' ')" = \
	    "Zipcode_mean 53711 53712 53711 53710.5 53712 53710.5 " ]
	run --separate-stderr recode -r "$T/r.tsv" --summary mean "$T/p.tsv"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' 'Age	Sex	Zipcode	Disease' \
	    '25.5	Male	53711	Flu' \
	    '26	Female	53712	Hepatitis' \
	    '25.5	Male	53711	Brochitis' \
	    '27.5	Male	53710.5	Broken Arm' \
	    '26	Female	53712	AIDS' \
	    '27.5	Male	53710.5	Hang Nail')" ]
	# A table with a column of the name a mean column would get.
	printf 'Age_mean\tAge\tclass\nx\t25\t1\nx\t26\t1\n' > "$T/m.tsv"
	printf 'class\tcount\tAge_min\tAge_max\tAge_mean\n1\t2\t25\t26\t25.5\n' > "$T/mr.tsv"
	run --separate-stderr recode -r "$T/mr.tsv" --summary both "$T/m.tsv"
	[ "$status" -eq 2 ]
	[ "$stderr" = "recode: --summary both: $T/m.tsv already has a column 'Age_mean'" ]
	run --separate-stderr recode -r "$T/mr.tsv" --summary mean "$T/m.tsv"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'Age_mean\tAge\nx\t25.5\nx\t25.5')" ]
}

@test "regions: --keep-class, --class-col, -x, headerless input" {
	patients
	run --separate-stderr recode -r "$T/r.tsv" --keep-class "$T/p.tsv"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "$(printf 'Age\tSex\tZipcode\tDisease\tclass')" ]
	[ "$(printf '%s\n' "$output" | cut -f5 | tr '\n' ' ')" = "class 1 2 1 3 2 3 " ]
	recode -r "$T/r.tsv" "$T/p.tsv" > "$T/want"
	printf '%s\n' "$output" | cut -f1-4 | cmp - "$T/want"
	# The class column by another name, not last, by name or number.
	awk -F'\t' -v OFS='\t' '{print $5, $1, $2, $3, $4}' "$T/p.tsv" |
	    sed '1s/^class/eq/' > "$T/q.tsv"
	recode -r "$T/r.tsv" --class-col eq "$T/q.tsv" |
	    awk -F'\t' -v OFS='\t' '{print $1, $2, $3, $4}' | cmp - "$T/want"
	recode -r "$T/r.tsv" --class-col 1 "$T/q.tsv" | cmp - "$T/want"
	# The regions' first column may carry that name too.
	sed '1s/^class/eq/' "$T/r.tsv" > "$T/r2.tsv"
	recode -r "$T/r2.tsv" --class-col eq "$T/q.tsv" | cmp - "$T/want"
	run --separate-stderr recode -r "$T/r.tsv" --class-col eq --keep-class "$T/q.tsv"
	[ "${lines[0]}" = "$(printf 'eq\tAge\tSex\tZipcode\tDisease')" ]
	[ "${lines[1]}" = "$(printf '1\t[25-26]\tMale\t53711\tFlu')" ]
	run --separate-stderr recode -r "$T/r.tsv" --class-col nosuch "$T/q.tsv"
	[ "$status" -eq 2 ]
	[ "$stderr" = "recode: $T/q.tsv: no class column 'nosuch' (partition appends one; --class-col names it)" ]
	# -x drops a column; a headerless table gives headerless output.
	recode -r "$T/r.tsv" -x Disease "$T/p.tsv" | cmp - <(cut -f1-3 "$T/want")
	tail -n +2 "$T/p.tsv" | recode -k 1 -r "$T/r.tsv" \
	    --columns Age,Sex,Zipcode,Disease,class | cmp - <(tail -n +2 "$T/want")
}

@test "regions: -k, -s/-l, --max-suppress and --suppress drop by partition's classes" {
	# Classes 3 and 4 have one row each; class 1 has one disease.
	printf '%s\n' 'Age	Sex	Zipcode	Disease	class' \
	    '25	Male	53711	Flu	1' \
	    '25	Female	53712	Hepatitis	2' \
	    '26	Male	53711	Flu	1' \
	    '27	Male	53710	Broken Arm	3' \
	    '27	Female	53712	AIDS	2' \
	    '28	Male	53711	Hang Nail	4' > "$T/p.tsv"
	printf '%s\n' \
	    'class	count	Age_min	Age_max	Age_mean	Sex	Zipcode_min	Zipcode_max	Zipcode_mean' \
	    '1	2	25	26	25.5	Male	53711	53711	53711' \
	    '2	2	25	27	26	Female	53712	53712	53712' \
	    '3	1	27	27	27	Male	53710	53710	53710' \
	    '4	1	28	28	28	Male	53711	53711	53711' > "$T/r.tsv"
	run --separate-stderr recode -v -r "$T/r.tsv" -k 2 --summary both \
	    --keep-class "$T/p.tsv"
	[ "$status" -eq 0 ]
	[ "$stderr" = "recode: 6 rows, 4 classes, 2 rows suppressed in 2 classes, 6 rows written, 0 runs" ]
	[ "$output" = "$(printf '%s\n' \
	    'Age	Age_mean	Sex	Zipcode	Zipcode_mean	Disease	class' \
	    '[25-26]	25.5	Male	53711	53711	Flu	1' \
	    '[25-27]	26	Female	53712	53712	Hepatitis	2' \
	    '[25-26]	25.5	Male	53711	53711	Flu	1' \
	    '*	*	*	*	*	Broken Arm	*' \
	    '[25-27]	26	Female	53712	53712	AIDS	2' \
	    '*	*	*	*	*	Hang Nail	*')" ]
	run --separate-stderr recode -r "$T/r.tsv" -k 2 --suppress drop "$T/p.tsv"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '%s\n' 'Age	Sex	Zipcode	Disease' \
	    '[25-26]	Male	53711	Flu' \
	    '[25-27]	Female	53712	Hepatitis' \
	    '[25-26]	Male	53711	Flu' \
	    '[25-27]	Female	53712	AIDS')" ]
	# Not 2-diverse: class 1 (Flu twice) goes too; starred, the rows
	# would show their diseases.
	run --separate-stderr recode -r "$T/r.tsv" -k 2 -s Disease -l 2 "$T/p.tsv"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	[ "$stderr" = "recode: 4 suppressed rows, starred, would show their sensitive values outside every class that -l judges: use --suppress drop" ]
	run --separate-stderr recode -r "$T/r.tsv" -k 2 -s Disease -l 2 --suppress drop "$T/p.tsv"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | cut -f1 | tr '\n' ' ')" = "Age [25-27] [25-27] " ]
	# -l alone: one row has one disease, so classes 3 and 4 go too.
	run --separate-stderr recode -r "$T/r.tsv" -s Disease -l 2 --suppress drop "$T/p.tsv"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | cut -f1 | tr '\n' ' ')" = "Age [25-27] [25-27] " ]
	run --separate-stderr recode -r "$T/r.tsv" -k 1 "$T/p.tsv"
	[ "$(printf '%s\n' "$output" | cut -f1 | tr '\n' ' ')" = "Age [25-26] [25-27] [25-26] 27 [25-27] 28 " ]
	# --max-suppress: exceeded exits 1, nothing written.
	mkdir "$T/o"
	run --separate-stderr recode -r "$T/r.tsv" -k 2 --max-suppress 1 -o "$T/o/x" "$T/p.tsv"
	[ "$status" -eq 1 ]
	[ "$stderr" = "recode: 2 rows would be suppressed, more than the limit 1" ]
	[ -z "$(ls -A "$T/o")" ]
	run --separate-stderr recode -r "$T/r.tsv" -k 2 --max-suppress 34% "$T/p.tsv"
	[ "$status" -eq 0 ]
	# score sees a 2-anonymous release.
	recode -r "$T/r.tsv" -k 2 --summary both "$T/p.tsv" > "$T/rel"
	run score -k 2 --check -q Age,Age_mean,Sex,Zipcode,Zipcode_mean "$T/rel"
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" | grep -qx "$(printf 'suppressed\t2')"
}

@test "regions: read after the table's first line (partition -r R | recode -r R)" {
	patients
	recode -r "$T/r.tsv" "$T/p.tsv" > "$T/want"
	# An old regions file, with other classes, is there at first; the
	# writer renames the new one into place, then prints the table.
	printf 'class\tcount\tSex\n7\t6\tx\n' > "$T/old"
	for args in "" "-k 2" "-k 2 -T $T"; do
		cp "$T/old" "$T/R"
		( sleep 1; cp "$T/r.tsv" "$T/R.tmp"; mv "$T/R.tmp" "$T/R"
		    cat "$T/p.tsv" ) | recode $args -r "$T/R" > "$T/got"
		cmp "$T/want" "$T/got" || { echo "$args"; false; }
	done
	# No regions file at all until the table comes.
	rm -f "$T/R"
	( sleep 1; cp "$T/r.tsv" "$T/R"; cat "$T/p.tsv" ) |
	    recode -r "$T/R" -o "$T/got"
	cmp "$T/want" "$T/got"
	# Headerless: recode waits for input before it opens the regions,
	# in one pass and in two (-k 2 reads a pipe twice: its copy is
	# made as the first pass reads, so the wait was skipped).
	recode -r "$T/r.tsv" -k 2 "$T/p.tsv" > "$T/want2"
	rm -f "$T/R"
	( sleep 1; cp "$T/r.tsv" "$T/R"; tail -n +2 "$T/p.tsv" ) |
	    recode -r "$T/R" --columns Age,Sex,Zipcode,Disease,class > "$T/got"
	tail -n +2 "$T/want" | cmp - "$T/got"
	rm -f "$T/R"
	( sleep 1; cp "$T/r.tsv" "$T/R"; tail -n +2 "$T/p.tsv" ) |
	    recode -r "$T/R" -k 2 --columns Age,Sex,Zipcode,Disease,class > "$T/got"
	tail -n +2 "$T/want2" | cmp - "$T/got"
}

@test "regions: a class not in the regions, a count that does not match" {
	patients
	mkdir "$T/o"
	sed '3s/2$/9/' "$T/p.tsv" > "$T/u.tsv"
	head -n 6 "$T/p.tsv" > "$T/short.tsv"
	for k in "" "-k 2" "-k 2 -s Disease -l 2"; do
		run --separate-stderr recode $k -r "$T/r.tsv" -o "$T/o/x" "$T/u.tsv"
		[ "$status" -eq 2 ]
		[ "$stderr" = "recode: $T/u.tsv:3: column 'class': '9' is not a class of $T/r.tsv" ]
		run --separate-stderr recode $k -r "$T/r.tsv" -o "$T/o/x" "$T/short.tsv"
		[ "$status" -eq 2 ]
		[ "$stderr" = "recode: $T/r.tsv:4: class 3 has count 2, but $T/short.tsv has 1 row of it" ]
		cat "$T/short.tsv" | { run --separate-stderr recode $k -r "$T/r.tsv";
		    [ "$status" -eq 2 ] &&
		    [ "$stderr" = "recode: $T/r.tsv:4: class 3 has count 2, but stdin has 1 row of it" ]; }
		[ -z "$(ls -A "$T/o")" ]
	done
	# In two passes nothing is written at all.
	run --separate-stderr recode -k 2 -r "$T/r.tsv" "$T/short.tsv"
	[ -z "$output" ]
	run --separate-stderr recode -k 2 -r "$T/r.tsv" "$T/u.tsv"
	[ -z "$output" ]
	# A class with no rows, more rows than the count.
	grep -v Hepatitis "$T/p.tsv" | grep -v AIDS > "$T/no2.tsv"
	run --separate-stderr recode -r "$T/r.tsv" "$T/no2.tsv"
	[ "$status" -eq 2 ]
	[ "$stderr" = "recode: $T/r.tsv:3: class 2 has count 2, but $T/no2.tsv has 0 rows of it" ]
	{ cat "$T/p.tsv"; tail -n 1 "$T/p.tsv"; } > "$T/more.tsv"
	run --separate-stderr recode -k 2 -r "$T/r.tsv" "$T/more.tsv"
	[ "$status" -eq 2 ]
	[ "$stderr" = "recode: $T/r.tsv:4: class 3 has count 2, but $T/more.tsv has 3 rows of it" ]
}

@test "regions: malformed regions files and usage errors: table-driven" {
	patients
	R=$T/r.tsv P=$T/p.tsv
	h='class	count	Age_min	Age_max	Age_mean	Sex'
	printf '%s\n' "$h" '1	2	25	26	25.5' > "$T/ragged"
	printf '%s\n' "$h" '0	2	25	26	25.5	Male' > "$T/zero"
	printf '%s\n' "$h" '01	2	25	26	25.5	Male' > "$T/lead"
	printf '%s\n' "$h" 'x	2	25	26	25.5	Male' > "$T/notint"
	printf '%s\n' "$h" '1	2	25	26	25.5	Male' '1	2	25	26	25.5	Male' > "$T/dup"
	printf '%s\n' "$h" '1	0	25	26	25.5	Male' > "$T/cnt0"
	printf '%s\n' "$h" '1	two	25	26	25.5	Male' > "$T/cntx"
	printf '%s\n' "$h" '1	2	25	x	25.5	Male' > "$T/nan"
	printf '%s\n' "$h" '1	2	25	26	1e1	Male' > "$T/exp"
	printf '%s\n' 'klass	count	Sex' > "$T/hdr1"
	printf '%s\n' 'class	cnt	Sex' > "$T/hdr2"
	printf '%s\n' 'class' > "$T/hdr3"
	printf '%s\n' 'class	count' > "$T/noqi"
	printf '%s\n' 'class	count	Race' > "$T/noqcol"
	printf '%s\n' 'class	count	Age_min	Age_max	Age_avg' > "$T/badstem"
	printf '%s\n' 'class	count	Sex	Sex' > "$T/twice"
	printf '%s\n' 'class	count	class' > "$T/isclass"
	: > "$T/empty"
	while IFS='|' read -r args want; do
		eval "run --separate-stderr recode -k 1 $args"
		[ "$status" -eq 2 ] || { echo "$args: status $status"; false; }
		[ "$stderr" = "recode: $want" ] || { echo "$args: $stderr"; false; }
		[ -z "$output" ] || { echo "$args: output"; false; }
	done <<-EOF_
	-r "$T/ragged" "$P"|$T/ragged:2: expected 6 fields, found 5
	-r "$T/zero" "$P"|$T/zero:2: class '0' is not a positive integer
	-r "$T/lead" "$P"|$T/lead:2: class '01' is not a positive integer
	-r "$T/notint" "$P"|$T/notint:2: class 'x' is not a positive integer
	-r "$T/dup" "$P"|$T/dup:3: class 1 appears twice (first on line 2)
	-r "$T/cnt0" "$P"|$T/cnt0:2: class 1: count '0' is not a positive integer
	-r "$T/cntx" "$P"|$T/cntx:2: class 1: count 'two' is not a positive integer
	-r "$T/nan" "$P"|$T/nan:2: column 'Age_max': 'x' is not a number
	-r "$T/exp" "$P"|$T/exp:2: column 'Age_mean': '1e1' is not a number
	-r "$T/hdr1" "$P"|$T/hdr1:1: expected a header beginning with class and count, as partition -r writes it
	-r "$T/hdr2" "$P"|$T/hdr2:1: expected a header beginning with class and count, as partition -r writes it
	-r "$T/hdr3" "$P"|$T/hdr3:1: expected a header beginning with class and count, as partition -r writes it
	-r "$T/noqi" "$P"|$T/noqi:1: no quasi-identifier columns after class and count
	-r "$T/noqcol" "$P"|$T/noqcol:1: quasi-identifier 'Race' is not a column of $P
	-r "$T/badstem" "$P"|$T/badstem:1: quasi-identifier 'Age_min' is not a column of $P
	-r "$T/twice" "$P"|$T/twice:1: quasi-identifier 'Sex' is named twice
	-r "$T/isclass" "$P"|$T/isclass:1: quasi-identifier 'class' is the class column
	-r "$T/empty" "$P"|$T/empty: empty regions file: expected a header line beginning with class and count, as partition -r writes it
	-r "$T/nosuch" "$P"|$T/nosuch: No such file or directory
	-r "$R" -n Age=1 "$P"|-n and -r exclude each other: give one recoding
	"$P"|no recoding: give the node with -n or the regions with -r
	-r "$R" --summary median "$P"|--summary: 'median' is not range, mean or both
	-n Age=1 -H Age=interval:5 --summary mean "$P"|--summary, --keep-class and --class-col apply to -r
	-n Age=1 -H Age=interval:5 --keep-class "$P"|--summary, --keep-class and --class-col apply to -r
	-n Age=1 -H Age=interval:5 --class-col class "$P"|--summary, --keep-class and --class-col apply to -r
	-r "$R" -H Age=interval:5 "$P"|-H Age=interval:5: 'Age' is not one of the grouped columns
	-r "$R" -x class "$P"|-x: 'class' is the class column (dropped unless --keep-class)
	-r "$R" -x Sex "$P"|-x: 'Sex' is a quasi-identifier
	-r "$R" -s Age -l 2 "$P"|-s Age is also a quasi-identifier
	-r "$R" -s class -l 2 "$P"|-s class is the class column
	-r "$R" "$T/empty"|$T/empty: empty input: expected a header line naming the columns
	-r - < "$P"|-r -: the table is read from the standard input
	EOF_
}

# regions_of K: partition-like output of $T/r in $T/p (class from c1 and
# c3) and its regions in $T/rg (c1, c3 numeric, c2 categorical with the
# hierarchy $T/h2: value, parity, '*'; a class's node is the lowest above
# its values); then the expected recode output, with classes under K
# starred, on stdout.
regions_of() {
	awk 'BEGIN { for (v = 0; v < 1000; v++)
	    printf "%d\t%s\t*\n", v, v % 2 ? "odd" : "even" }' > "$T/h2"
	awk -F'\t' -v OFS='\t' 'NR == 1 {print $0, "class"; next}
	    {print $0, int($1 / 4) * 50 + int($3 / 6) + 1}' "$T/r" > "$T/p"
	awk -F'\t' -v OFS='\t' 'NR > 1 {
		c = $5; n[c]++; s1[c] += $1; s3[c] += $3
		if (!(c in lo1) || $1 < lo1[c]) lo1[c] = $1
		if (!(c in hi1) || $1 > hi1[c]) hi1[c] = $1
		if (!(c in lo3) || $3 < lo3[c]) lo3[c] = $3
		if (!(c in hi3) || $3 > hi3[c]) hi3[c] = $3
		p = $2 % 2 ? "odd" : "even"
		if (!(c in n2)) { n2[c] = $2; p2[c] = p }
		if (n2[c] != $2) n2[c] = p2[c]
		if (p2[c] != p) n2[c] = p2[c] = "*"
	    } END {
		print "class", "count", "c1_min", "c1_max", "c1_mean", "c2",
		    "c3_min", "c3_max", "c3_mean"
		for (c in n)
			print c, n[c], lo1[c], hi1[c], s1[c] / n[c],
			    n2[c], lo3[c], hi3[c], s3[c] / n[c]
	    }' "$T/p" | { read -r h; printf '%s\n' "$h"; sort -n; } > "$T/rg"
	awk -F'\t' -v OFS='\t' -v k="$1" '
	    function rng(a, b) { return a == b ? a : "[" a "-" b "]" }
	    NR == FNR { if (FNR > 1) { lab[$1] = rng($3, $4) OFS $6 OFS rng($7, $8); n[$1] = $2 }; next }
	    FNR == 1 { print $1, $2, $3, $4; next }
	    { split(lab[$5], l, OFS)
	      if (n[$5] < k) print "*", "*", "*", $4
	      else print l[1], l[2], l[3], $4 }' "$T/rg" "$T/p"
}

@test "regions: random tables: output equals an awk recoding, with and without -S spills" {
	mkdir "$T/tmp"
	while read -r seed card k; do
		randtable "$seed" 3000 4 "$card" > "$T/r"
		regions_of "$k" > "$T/want"
		recode -r "$T/rg" -H c2="$T/h2" -k "$k" "$T/p" |
		    cmp - "$T/want" || { echo "seed $seed"; false; }
		check_k "$k" < "$T/want"
		cat "$T/p" | recode -r "$T/rg" -H c2="$T/h2" -k "$k" \
		    -T "$T/tmp" | cmp - "$T/want"
		run --separate-stderr recode -v -S 64K -T "$T/tmp" -r "$T/rg" \
		    -H c2="$T/h2" -k "$k" -s c4 -l 1 "$T/p"
		[ "$status" -eq 0 ]
		printf '%s\n' "$output" | cmp - "$T/want"
		[ "$(vstat runs)" -ge 2 ]
	done <<-EOF_
	11 40 2
	12 100 5
	13 300 3
	EOF_
	[ -z "$(ls -A "$T/tmp")" ]
}

# ---- --classes: one pass over any split, the classes from a frequency set

# splits_of FILE N: split FILE into pieces in $T/s (emptied first) in
# several ways: thirds by lines (the first holding the header), pieces
# of N lines, the whole; each run of pieces is listed on a line of
# $T/runs.
splits_of() {
	rm -rf "$T/s"
	mkdir "$T/s"
	split -n l/3 "$1" "$T/s/a."
	split -l "$2" "$1" "$T/s/b."
	cp "$1" "$T/s/c.aa"
	printf '%s\n' "$(echo "$T"/s/a.*)" "$(echo "$T"/s/b.*)" \
	    "$T/s/c.aa" > "$T/runs"
}

# mapped ARGS...: runs recode --classes ARGS on each piece of each run of
# $T/runs, headerless with --skip-header and --part, and compares the
# pieces put together with $T/want.
mapped() {
	local run p
	while read -r run; do
		for p in $run; do
			recode -k 1 --columns "$cols" --skip-header --part "$@" "$p" ||
			    return 1
		done > "$T/got"
		cmp "$T/want" "$T/got" || { echo "$run: $*"; return 1; }
	done < "$T/runs"
}

@test "--classes: Adult split any way recodes as the whole table (-k, --max-suppress, --suppress, -l)" {
	cols=$(head -1 "$ADULT" | tr '\t' ,)
	freqset "$ADULT" > "$T/fs"
	splits_of "$ADULT" 7001
	while IFS='|' read -r args; do
		recode -k 1 -H "$AH" -n "$N121" $args "$ADULT" | tail -n +2 > "$T/want"
		mapped --classes "$T/fs" -H "$AH" -n "$N121" $args ||
		    { echo "$args"; false; }
	done <<-EOF_
	
	-k 10
	-k 10 --max-suppress 2%
	-k 10 --max-suppress 121 --suppress drop
	-k 10 -x salary-class
	-k 40 --suppress star
	-s salary-class -l 2 --suppress drop
	-k 5 -s salary-class -l 2 --suppress drop
	-s salary-class -l 1.9 --diversity entropy --suppress drop
	-k 3 -s salary-class -l 2 --diversity recursive -c 3 --suppress drop
	EOF_
	# A frequency set with fewer key columns, or at other attribute
	# positions, or with sums, counts the same classes.
	recode -H "$AH" -n age=1,race=1 -k 30 "$ADULT" | tail -n +2 > "$T/want"
	freqset -q race,sex,age "$ADULT" > "$T/fs2"
	mapped --classes "$T/fs2" -H "$AH" -n age=1,race=1 -k 30
	freqset -q race,age --sum age "$ADULT" > "$T/fs3"
	mapped --classes "$T/fs3" -H "$AH" -n age=1,race=1 -k 30
}

@test "--classes: the cluster pipeline (merged freqset, lattice-search --best, a node file), stdin not spooled" {
	cols=$(head -1 "$ADULT" | tr '\t' ,)
	mkdir "$T/p"
	split -n l/4 "$ADULT" "$T/p/part."
	for p in "$T"/p/part.??; do
		freqset --columns "$cols" --skip-header "$p" > "$p.fs"
	done
	freqset --merge "$T"/p/part.*.fs > "$T/table.fs"
	freqset "$ADULT" | cmp - "$T/table.fs"
	lattice-search -H "$AH" -q "$QI" -k 10 --max-suppress 2% --best \
	    "$T/table.fs" > "$T/node.tsv"
	set -- -H "$AH" -n "$T/node.tsv" -k 10 --max-suppress 2%
	recode "$@" "$ADULT" | tail -n +2 > "$T/want"
	# Each piece from a pipe: read as it comes, no temp file.
	for p in "$T"/p/part.??; do
		cat "$p" | recode "$@" --classes "$T/table.fs" --columns "$cols" \
		    --skip-header --part -T "$T/nosuchdir" || false
	done > "$T/got"
	cmp "$T/want" "$T/got"
	# -v: the counts of the table, the rows of the piece.
	run --separate-stderr recode -v "$@" "$ADULT"
	[[ "$stderr" == *", 30162 rows written, 0 runs" ]]
	want="${stderr%, 30162 rows written, 0 runs}, $(wc -l < "$T/p/part.ab") rows written, 0 runs"
	run --separate-stderr recode -v "$@" --classes "$T/table.fs" \
	    --columns "$cols" --skip-header --part "$T/p/part.ab"
	[ "$status" -eq 0 ]
	[ "$stderr" = "$want" ]
	# A headered table recodes with its header line, as without.
	recode "$@" --classes "$T/table.fs" "$ADULT" | tail -n +2 | cmp - "$T/want"
	[ "$(recode "$@" --classes "$T/table.fs" "$ADULT" | head -1)" = "$(head -1 "$ADULT")" ]
	# The frequency set from the standard input.
	recode "$@" --classes - --columns "$cols" --skip-header --part \
	    "$T/p/part.aa" < "$T/table.fs" | cmp - <(head -n "$(($(wc -l < "$T/p/part.aa") - 1))" "$T/want")
}

@test "--classes: random tables split any way recode as the whole table" {
	cols=c1,c2,c3,c4
	while read -r seed card k l1 l2 l3 l; do
		randtable "$seed" 3000 4 "$card" > "$T/r"
		freqset "$T/r" > "$T/fs"
		splits_of "$T/r" 499
		set -- -H c1=interval:2,4 -H c2=mask:1 -H c3=interval:5 \
		    -n c1=$l1,c2=$l2,c3=$l3 -k "$k"
		[ "$l" = 0 ] || set -- "$@" -s c4 -l "$l" --suppress drop
		recode "$@" "$T/r" | tail -n +2 > "$T/want"
		expect "$k" "$l1" "$l2" "$l3" "$l" | tail -n +2 | cmp - "$T/want"
		mapped --classes "$T/fs" "$@" || { echo "seed $seed"; false; }
		recode "$@" --suppress drop "$T/r" | tail -n +2 > "$T/want"
		mapped --classes "$T/fs" "$@" --suppress drop ||
		    { echo "seed $seed drop"; false; }
	done <<-EOF_
	21 10 2 0 0 0 0
	22 30 5 1 0 1 0
	23 60 3 2 1 1 2
	24 150 10 1 1 2 0
	25 30 4 1 0 1 2
	26 500 2 3 2 2 3
	EOF_
	# Counts that outgrow -S are spilled in runs, with the same result.
	randtable 27 20000 4 400 > "$T/r"
	freqset "$T/r" > "$T/fs"
	splits_of "$T/r" 4001
	set -- -H c1=interval:2,4 -H c2=mask:1 -H c3=interval:5 \
	    -n c1=1,c2=0,c3=1 -k 3 -s c4 -l 2 --suppress drop
	recode "$@" "$T/r" | tail -n +2 > "$T/want"
	mapped --classes "$T/fs" -S 64K "$@"
	run --separate-stderr recode -v --classes "$T/fs" -S 64K "$@" "$T/r"
	[ "$status" -eq 0 ]
	[ "$(vstat runs)" -ge 2 ]
}

@test "--classes: --max-suppress exceeded exits 1 on every piece, writes nothing" {
	cols=$(head -1 "$ADULT" | tr '\t' ,)
	freqset "$ADULT" > "$T/fs"
	tail -n +2 "$ADULT" | head -n 100 > "$T/piece"
	mkdir "$T/o"
	run --separate-stderr recode -H "$AH" -n "$N121" -k 10 --max-suppress 120 \
	    --classes "$T/fs" --columns "$cols" -o "$T/o/x" "$T/piece"
	[ "$status" -eq 1 ]
	[ "$stderr" = "recode: 121 rows would be suppressed, more than the limit 120" ]
	[ -z "$(ls -A "$T/o")" ]
	run --separate-stderr recode -H "$AH" -n "$N121" -k 10 --max-suppress 0.39% \
	    --classes "$T/fs" --columns "$cols" "$T/piece"
	[ "$status" -eq 1 ]
	[ "$stderr" = "recode: 121 rows would be suppressed, more than the limit 117" ]
	[ -z "$output" ]
	# Even an empty piece: the limit is the whole table's.
	run --separate-stderr recode -H "$AH" -n "$N121" -k 10 --max-suppress 120 \
	    --classes "$T/fs" --columns "$cols" /dev/null
	[ "$status" -eq 1 ]
	run --separate-stderr recode -H "$AH" -n "$N121" -k 10 --max-suppress 121 \
	    --classes "$T/fs" --columns "$cols" --part /dev/null
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "--classes: a frequency set of another table, bad frequency sets, usage: table-driven" {
	printf 'age\tsex\tdis\n17\tMale\tflu\n18\tMale\tcold\n90\tFemale\tflu\n' > "$T/t"
	F=$T/fs
	printf 'sex\tage\tdis\tcount\nMale\t17\tflu\t1\nMale\t18\tcold\t1\nFemale\t90\tflu\t1\n' > "$F"
	printf 'age\tcount\n17\t1\n18\t1\n' > "$T/no90"
	printf 'age\tsex\tcount\n17\tMale\t1\n18\tMale\t1\n90\tMale\t1\n17\tFemale\t1\n' > "$T/nof90"
	printf 'age\tsex\tcount\n17\tMale\t1\n18\tMale\t1\n90\tMale\t1\n' > "$T/male"
	printf 'age\tdis\tcount\n17\tflu\t1\n18\tflu\t1\n90\tflu\t1\n' > "$T/nocold"
	printf 'age\tcount\tsex\n17\t1\tMale\n' > "$T/aftercnt"
	printf 'age\tsex\tn\n17\tMale\t1\n' > "$T/nocnt"
	printf 'age\tcount\n17\t1\n18\tx\n' > "$T/badcnt"
	printf 'age\tcount\n17\t1\n18\t-1\n' > "$T/negcnt"
	printf 'age\tcount\n17\t1\n[15-20)\t1\n' > "$T/notleaf"
	printf 'age\tcount\n17\t1\n18\n' > "$T/ragged"
	printf 'age\tcount\n17\t2\n200\t1\n' > "$T/big"
	: > "$T/empty"
	H="-H $AH"
	cols="--columns age,sex,dis"
	tail -n +2 "$T/t" > "$T/body"
	mkdir "$T/o"
	while IFS='|' read -r args want; do
		eval "run --separate-stderr recode -k 1 $args"
		[ "$status" -eq 2 ] || { echo "$args: status $status"; false; }
		[ "$stderr" = "recode: $want" ] || { echo "$args: $stderr"; false; }
		# A row of another table is met part way: only -o is sure
		# to hold nothing.
		case $want in
		"$T/t:"* | "$T/body:"* | stdin:*) ;;
		*) [ -z "$output" ] || { echo "$args: output"; false; } ;;
		esac
		[ -z "$(ls -A "$T/o")" ] || { echo "$args: -o left"; false; }
	done <<-EOF_
	$H -n age=0 --classes "$T/no90" "$T/t"|$T/t:4: column 'age': '90' is in no class of $T/no90
	$H -n age=0 --classes "$T/no90" -k 2 -o "$T/o/x" "$T/t"|$T/t:4: column 'age': '90' is in no class of $T/no90
	$H -n age=0 --classes "$T/no90" $cols "$T/body"|$T/body:3: column 'age': '90' is in no class of $T/no90
	$H -n age=0 --classes "$T/no90" $cols < "$T/body"|stdin:3: column 'age': '90' is in no class of $T/no90
	$H -n age=2,sex=0 --classes "$T/no90" "$T/t"|$T/no90:1: node attribute 'sex' is not a key column (one before 'count'): this is not the frequency set to recode by
	$H -n age=1,sex=0 --classes "$T/nof90" -k 2 -o "$T/o/x" "$T/t"|$T/t:4: column 'sex': the class age='85-89', sex='Female' is not counted in $T/nof90
	$H -n sex=0,age=4 --classes "$T/male" "$T/t"|$T/t:4: column 'sex': 'Female' is in no class of $T/male
	$H -n age=0,sex=0 --classes "$T/nof90" "$T/t"|$T/t:4: column 'sex': the class age='90', sex='Female' is not counted in $T/nof90
	$H -n age=2 -s dis -l 1 --classes "$T/nocold" -o "$T/o/x" "$T/t"|$T/t:3: column 'dis': 'cold' is not counted in $T/nocold for the class age='10-19'
	$H -n age=1 -s dis -l 2 --classes "$T/no90" "$T/t"|$T/no90:1: sensitive column 'dis' is not a key column (one before 'count'): this is not the frequency set to recode by
	$H -n age=1,sex=0 --classes "$T/aftercnt" "$T/t"|$T/aftercnt:1: node attribute 'sex' is not a key column (one before 'count'): this is not the frequency set to recode by
	$H -n age=1 --classes "$T/nocnt" "$T/t"|$T/nocnt: no 'count' column: --classes reads frequency sets
	$H -n age=1 --classes "$T/badcnt" -k 2 -o "$T/o/x" "$T/t"|$T/badcnt:3: column 'count': 'x' is not a count
	$H -n age=1 --classes "$T/negcnt" "$T/t"|$T/negcnt:3: column 'count': '-1' is not a count
	$H -n age=1 --classes "$T/notleaf" "$T/t"|$T/notleaf:3: column 'age': '[15-20)': value is not a leaf of the hierarchy ($AH/adult_hierarchy_age.csv)
	-H age=interval:5 -n age=1 --classes "$T/big" "$T/t"|$T/t:4: column 'age': '90', at level 1 '[90,95)', is in no class of $T/big
	$H -n age=1 --classes "$T/big" "$T/t"|$T/big:3: column 'age': '200': value is not a leaf of the hierarchy ($AH/adult_hierarchy_age.csv)
	$H -n age=1 --classes "$T/ragged" "$T/t"|$T/ragged:3: expected 2 fields, found 1
	$H -n age=1 --classes "$T/empty" "$T/t"|$T/empty: empty input: expected a header line naming the columns
	$H -n age=1 --classes "$T/nosuch" "$T/t"|$T/nosuch: No such file or directory
	$H -n age=1 --classes - < "$T/t"|--classes -: the table is read from the standard input
	$H -n age=1 --classes - - < "$T/t"|--classes -: the table is read from the standard input
	-r "$T/fs" --classes "$F" "$T/t"|--classes applies to -n: with -r the regions file holds the classes and their counts
	EOF_
	# The frequency set it was made for passes.
	run --separate-stderr recode -k 1 $H -n age=2,sex=0 -s dis -l 1 --classes "$F" "$T/t"
	[ "$status" -eq 0 ]
}

@test "recode -r --part: the parts of partition's output, recoded on their own, are the whole recoded" {
	local q=sex,age,race cols
	partition -q "$q" -H "$AH" --numeric age -k 5 -r "$T/r" "$ADULT" > "$T/p"
	cols=$(head -1 "$T/p" | tr '\t' ,)
	tail -n +2 "$T/p" > "$T/body"
	recode -k 1 -r "$T/r" "$T/p" | tail -n +2 > "$T/whole"
	split -n l/3 "$T/body" "$T/part."
	for f in "$T"/part.*; do
		recode -r "$T/r" --part --columns "$cols" "$f"
	done > "$T/parts"
	cmp "$T/whole" "$T/parts"
	# Without --part a part fails the count check.
	run --separate-stderr recode -r "$T/r" --columns "$cols" "$T/part.aa"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"class 1 has count"* ]]
	# More rows of a class than the regions count: exit 2.
	cat "$T/body" "$T/part.aa" > "$T/more"
	run --separate-stderr recode -r "$T/r" --part --columns "$cols" -o "$T/out" "$T/more"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"has count"*"rows of it"* ]]
	[ ! -e "$T/out" ]
	run --separate-stderr recode -r "$T/r" --part -k 6 --columns "$cols" "$T/part.aa"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--part: a part of the table cannot count its classes"* ]]
	run --separate-stderr recode -k 1 -n "$T/r" --part "$T/part.aa"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--part applies to -r"* ]]
}

@test "--suppress star refuses to star suppressed rows like a kept class labelled '*' everywhere" {
	# q=a and q=b generalize to '*' at level 1: a class of 3 rows, kept;
	# q=c's single row is suppressed and would show '*' too, and the 4
	# rows together are not recursive (1,2)-diverse.
	printf 'q\ts\tx\na\ts0\tr1\nb\ts1\tr2\na\ts2\tr3\nc\ts0\tr4\n' > "$T/t"
	printf 'a\t*\nb\t*\nc\tx\n' > "$T/h"
	run --separate-stderr recode -n q=1 -H q="$T/h" -k 3 -s s -l 2 \
	    --diversity recursive --max-suppress 1 -o "$T/out" "$T/t"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"the class labelled '*' in every attribute (3 rows) is kept, and 1 suppressed rows would look the same"*"use --suppress drop"* ]]
	[ ! -e "$T/out" ]
	run --separate-stderr recode -n q=1 -H q="$T/h" -k 3 -s s -l 2 \
	    --diversity recursive --max-suppress 1 --suppress drop "$T/t"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'q\ts\tx\n*\ts0\tr1\n*\ts1\tr2\n*\ts2\tr3')" ]
}

@test "--suppress star with -r: a kept region released as '*' everywhere (all missing under --missing '*', or a hierarchy's top) beside suppressed rows is refused, in memory and out of core; with --keep-class they differ" {
	# Six missing ages form a class (A,A,A,B,B,B), kept; the class of
	# six ages (all A) fails -l and would show '*' too (found by
	# review: it was released, exit 0).
	printf 'age\ts\n*\tA\n*\tA\n*\tA\n*\tB\n*\tB\n*\tB\n10\tA\n20\tA\n30\tA\n40\tA\n50\tA\n60\tA\n' > "$T/m.tsv"
	partition -q age -k 3 --missing '*' -r "$T/r.tsv" -o "$T/p.tsv" "$T/m.tsv"
	for S in 1G 64K; do
		run --separate-stderr recode -S $S -r "$T/r.tsv" --missing '*' -k 4 \
		    -s s -l 2 --diversity entropy --max-suppress 6 -o "$T/out" "$T/p.tsv"
		[ "$status" -eq 2 ]
		[[ "$stderr" == *"the class labelled '*' in every attribute (6 rows) is kept, and 6 suppressed rows would look the same"* ]]
		[ ! -e "$T/out" ]
	done
	recode -r "$T/r.tsv" --missing '*' -k 4 -s s -l 2 --diversity entropy \
	    --max-suppress 6 --keep-class --suppress drop "$T/p.tsv" > "$T/kept"
	[ "$(cut -f 3 "$T/kept" | sort | uniq -c | awk '{ print $1 $2 }' | tr '\n' ' ')" = "61 1class " ]
	# A hierarchy whose top is '*', under --relaxed.
	printf 'a\tab\t*\nb\tab\t*\nc\tcd\t*\nd\tcd\t*\n' > "$T/h.tsv"
	printf 'cat\ts\na\tx\na\ty\nc\tz\nc\tw\nc\tw\nc\tw\n' > "$T/c.tsv"
	partition -q cat -H cat="$T/h.tsv" -k 2 --relaxed -r "$T/rc.tsv" -o "$T/pc.tsv" "$T/c.tsv"
	run --separate-stderr recode -r "$T/rc.tsv" -H cat="$T/h.tsv" -k 2 -s s -l 2 "$T/pc.tsv"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"the class labelled '*' in every attribute (3 rows) is kept, and 3 suppressed rows"* ]]
	recode -r "$T/rc.tsv" -H cat="$T/h.tsv" -k 2 -s s -l 2 --suppress drop "$T/pc.tsv" > "$T/dropped"
	[ "$(wc -l < "$T/dropped")" -eq 4 ]
}

@test "-n through generated hierarchies: the same bytes when the count of the classes spills and the leaves are forgotten and found again" {
	gendata -n 30000 --seed 3 agrawal > "$T/g.tsv"
	set -- -H salary=interval:1000,10000,100000 -H age=interval:5,10,20 \
	    -H zipcode=interval:3 -H car=interval:5,10 \
	    -n salary=1,age=1,zipcode=0,car=1 -k 3 "$T/g.tsv"
	recode -S 16G "$@" > "$T/want"
	for j in 1 2; do
		recode -j $j -S 64K -v "$@" > "$T/got" 2> "$T/err"
		grep -q ' [1-9][0-9]* runs$' "$T/err"
		cmp "$T/got" "$T/want"
	done
}
