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

@test "-k above the row count suppresses every row" {
	printf 'age\tx\n17\ta\n17\tb\n90\tc\n' > "$T/t"
	run --separate-stderr recode -H "$AH" -n age=1 -k 4 "$T/t"
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
		recode -H "$AH" -n "$L" "$ADULT" | freqset -q "$QI" > "$T/got"
		cmp "$T/want" "$T/got" || { echo "$L"; false; }
	done
	# A subset of the attributes: the others pass through.
	recode -H "$AH" -n age=2,race=1 "$ADULT" | cut -f1,4-9 > "$T/got"
	cut -f1,4-9 "$ADULT" | cmp - "$T/got"
	freqset -q age,race -H "$AH" -L age=2,race=1 "$ADULT" > "$T/want"
	recode -H "$AH" -n age=2,race=1 "$ADULT" | freqset -q age,race | cmp - "$T/want"
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
	recode -H "$AH" -n "$N121" "$ADULT" > "$T/want1"
	cat "$ADULT" | recode -T "$T/tmp" -H "$AH" -n "$N121" > "$T/a"
	cmp "$T/want1" "$T/a"
	cat "$ADULT" | recode -T "$T/tmp" -H "$AH" -n "$N121" - > "$T/a"
	cmp "$T/want1" "$T/a"
	recode -H "$AH" -n "$N121" <(cat "$ADULT") > "$T/a"
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
	    -n c1=1,c2=0,c3=1 -k 3 -s c4 -l 2
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
	recode -H "$AH" -n age=1,race=1 -x sex,9 "$ADULT" > "$T/a"
	recode -H "$AH" -n age=1,race=1 "$ADULT" | cut -f2-8 | cmp - "$T/a"
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
	tail -n +2 "$ADULT" | recode --columns "$cols" -H "$AH" -n "$N121" \
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
		run --separate-stderr recode "$@" $args "$T/t"
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
	# The ages of suppressed rows are starred too; dis is kept.
	run recode "$@" -s dis -l 2 "$T/t"
	[ "${lines[1]}" = "$(printf '*\t*\tflu')" ]
	[ "${lines[4]}" = "$(printf '53712\t[20,30)\tflu')" ]
	# Without -k, -l alone suppresses.
	run recode -H zip=mask:1,2 -H age=interval:10 -n zip=0,age=1 -s dis -l 3 "$T/t"
	[ "$(printf '%s\n' "$output" | grep -c '^\*')" -eq 6 ]
}

# expect K LV1 LV2 LV3 [L]: recode's expected output, computed
# in awk from $T/r: c1 under interval:2,4, c2 under mask:1, c3 under interval:5
# at the given levels; classes under k (or with fewer than L distinct
# c4) are starred.
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
		if (n[key] < k || m[key] < l) print "*", "*", "*", $4
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
		[ "$l" = 0 ] || set -- "$@" -s c4 -l "$l"
		recode "$@" "$T/r" > "$T/got"
		expect "$k" "$l1" "$l2" "$l3" "$l" | cmp - "$T/got" ||
		    { echo "seed $seed"; false; }
		check_k "$k" < "$T/got"
		cut -f4 "$T/r" | cmp - <(cut -f4 "$T/got")
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
		run --separate-stderr recode -H "$AH" -n age=0 $k -o "$T/o/x" "$T/bad"
		[ "$status" -eq 2 ]
		[ "$stderr" = "recode: $T/bad:3: column 'age': '200': value is not a leaf of the hierarchy ($AH/adult_hierarchy_age.csv)" ]
		run --separate-stderr recode -H age=interval:5 -n age=1 $k "$T/ragged"
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
		eval "run --separate-stderr recode $args"
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
	run --separate-stderr bash -c 'recode -H "$1" -n age=1 "$2" > /dev/full' _ "$AH" "$ADULT"
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
