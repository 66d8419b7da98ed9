#!/usr/bin/env bats
# Hierarchies, loaded through freqset -H/-L: our TSV files, ARX's ';'
# CSV files (RFC 4180 quoting, CRLF), format by extension or sniffing,
# -H DIR lookup, validation errors, and the generated interval and mask
# hierarchies.  Results on Adult are recomputed independently with awk
# from the bundled ARX hierarchy files.

bats_require_minimum_version 1.5.0

setup_file() {
	command -v freqset > /dev/null || {
		echo "freqset is not on PATH (run tests/run, or" \
		    "PATH=\$PWD:\$PATH bats tests/hierarchy.bats)" >&2
		return 1
	}
}

setup() {
	adult=$(cd "$BATS_TEST_DIRNAME/../data/adult" && pwd)
	# A directory of our own: bats keeps its own files in the tmpdir.
	mkdir "$BATS_TEST_TMPDIR/w" && cd "$BATS_TEST_TMPDIR/w" || return 1
}

# Prints a message and fails the test.
fail() {
	printf '%s\n' "$*" >&2
	return 1
}

# expect STATUS STDERR-PATTERN: checks the last run (pattern as in [[ ]]).
expect() {
	[ "$status" -eq "$1" ] ||
	    fail "exit $status, expected $1; stderr: $stderr"
	[[ $stderr == $2 ]] ||
	    fail "stderr '$stderr' does not match '$2'"
}

# onecol NAME VALUE...: writes a one-column table to t.tsv.
onecol() {
	local name=$1
	shift
	{ printf '%s\n' "$name"; printf '%s\n' "$@"; } > t.tsv
}

# adult_expect ATTR LEVEL: the frequency set of ATTR at LEVEL of ARX's
# hierarchy, joined with awk (the hierarchy files hold no quotes).
adult_expect() {
	printf '%s\tcount\n' "$1"
	awk -v attr="$1" -v lv="$2" '
	    NR == FNR { up[$1] = $(lv + 1); next }
	    FNR == 1 { for (i = 1; i <= NF; i++) if ($i == attr) c = i; next }
	    !($c in up) { print "not a leaf: " $c > "/dev/stderr"; exit 1 }
	    { n[up[$c]]++ }
	    END { for (k in n) print k "\t" n[k] }' \
	    FS=';' "$adult/adult_hierarchy_$1.csv" FS='\t' "$adult/adult.tsv" |
	    LC_ALL=C sort
}

@test "a TSV hierarchy file at every level" {
	printf 'a1\tA\t*\na2\tA\t*\nb1\tB\t*\n' > h.tsv
	onecol x a1 a2 b1 a1
	while IFS='|' read -r level want; do
		run --separate-stderr freqset -H x=h.tsv -L x=$level t.tsv
		expect 0 ""
		[ "$output" = "$(printf "$want")" ] ||
		    fail "level $level: '$output'"
	done <<-'EOF'
	0|x\tcount\na1\t2\na2\t1\nb1\t1
	1|x\tcount\nA\t3\nB\t1
	2|x\tcount\n*\t4
	EOF
	# Without -L the values are checked but not generalized.
	run --separate-stderr freqset -H x=h.tsv t.tsv
	expect 0 ""
	[ "$output" = "$(printf 'x\tcount\na1\t2\na2\t1\nb1\t1')" ] ||
	    fail "no -L: '$output'"
	# CRLF line ends and no final newline in the hierarchy file.
	printf 'a1\tA\t*\r\na2\tA\t*\r\nb1\tB\t*' > crlf.tsv
	freqset -H x=h.tsv -L x=1 t.tsv > want
	freqset -H x=crlf.tsv -L x=1 t.tsv > got
	cmp want got || fail "CRLF hierarchy: $(cat got)"
}

@test "ARX CSV: RFC 4180 quoting, doubled quotes, CRLF" {
	printf '72;"[72;76]";"[72;81]";"*"\r\n73;"[72;76]";"[72;81]";"*"\r\n' > age.csv
	printf '80;"[77;81]";"[72;81]";"*"\r\n' >> age.csv
	onecol age 72 80 73 72
	while IFS='|' read -r level want; do
		run --separate-stderr freqset -H age=age.csv -L age=$level t.tsv
		expect 0 ""
		[ "$output" = "$(printf "$want")" ] ||
		    fail "level $level: '$output'"
	done <<-'EOF'
	0|age\tcount\n72\t2\n73\t1\n80\t1
	1|age\tcount\n[72;76]\t3\n[77;81]\t1
	2|age\tcount\n[72;81]\t4
	3|age\tcount\n*\t4
	EOF
	# Quoted leaves with ';' and '"', doubled quotes; the last record
	# has no line end.
	printf 'a;"say ""hi""";*\r\n"b;c";"say ""hi""";*\r\n"""q""";"x""";"*"' > q.csv
	printf 'v\na\nb;c\nb;c\n"q"\n' > t.tsv
	run --separate-stderr freqset -H v=q.csv -L v=1 t.tsv
	expect 0 ""
	[ "$output" = "$(printf 'v\tcount\nsay "hi"\t3\nx"\t1')" ] ||
	    fail "quotes: '$output'"
	run --separate-stderr freqset -H v=q.csv t.tsv
	expect 0 ""
	[ "$output" = "$(printf 'v\tcount\n"q"\t1\na\t1\nb;c\t2')" ] ||
	    fail "quoted leaves: '$output'"
}

@test "malformed CSV hierarchies are errors naming file and line" {
	onecol x a b
	while IFS='|' read -r content msg; do
		printf "$content" > h.csv
		run --separate-stderr freqset -H x=h.csv t.tsv
		expect 2 "freqset: $msg"
		[ -z "$output" ] || fail "stdout '$output'"
	done <<-'EOF'
	a;A;*\nb;"B;*\n|h.csv:2:*
	a;"A"x;*\nb;B;*\n|h.csv:1:*
	a;A;*\nb;B"x;*\n|h.csv:2:*
	a;A\tB;*\nb;B;*\n|h.csv:1:*tab*
	EOF
}

@test "format by .csv/.tsv extension, else by sniffing the first line" {
	onecol x a b
	while IFS='|' read -r file content level st want; do
		printf "$content" > "$file"
		run --separate-stderr freqset -H "x=$file" -L x=$level t.tsv
		if [ "$st" -eq 0 ]; then
			expect 0 ""
			[ "$output" = "$(printf "$want")" ] ||
			    fail "$file: '$output'"
		else
			expect 2 "freqset: $want"
			[ -z "$output" ] || fail "$file: stdout '$output'"
		fi
	done <<-'EOF'
	h.csv|a;A\nb;A\n|1|0|x\tcount\nA\t2
	h.tsv|a;A\nb;A\n|0|2|h.tsv:1: no tab but a ';': this looks like ARX's*
	h.csv|a\tA\nb\tA\n|1|2|h.csv:1:*
	h.tsv|a\tA\nb\tA\n|1|0|x\tcount\nA\t2
	h|a;A\nb;A\n|1|0|x\tcount\nA\t2
	h.txt|a;"A;1"\r\nb;"A;1"\r\n|1|0|x\tcount\nA;1\t2
	h.hier|a\tA;1\nb\tA;1\n|1|0|x\tcount\nA;1\t2
	h.hier|a\tA;1;2\nb\tA;1;2\n|1|0|x\tcount\nA;1;2\t2
	EOF
}

@test "-H DIR finds ATTR.tsv, ATTR.csv and NAME_hierarchy_ATTR.csv" {
	onecol x a a b
	while IFS='|' read -r file content; do
		rm -rf d
		mkdir d
		printf "$content" > "d/$file"
		for dir in d d/ "$PWD/d"; do
			run --separate-stderr freqset -H "$dir" -L x=1 t.tsv
			expect 0 ""
			[ "$output" = "$(printf 'x\tcount\nA\t2\nB\t1')" ] ||
			    fail "$file in $dir: '$output'"
		done
	done <<-'EOF'
	x.tsv|a\tA\t*\nb\tB\t*\n
	x.csv|a;A;*\nb;B;*\n
	adult_hierarchy_x.csv|a;A;*\nb;B;*\n
	my-data_hierarchy_x.csv|a;"A";"*"\r\nb;"B";"*"\r\n
	EOF
	# Several attributes from one directory, each in its own format.
	rm -rf d
	mkdir d
	printf 'a\tA\t*\nb\tB\t*\n' > d/x.tsv
	printf '1;odd;*\n2;even;*\n3;odd;*\n' > d/t_hierarchy_y.csv
	printf 'x\ty\na\t1\nb\t2\na\t3\n' > t2.tsv
	run --separate-stderr freqset -q y,x -H d -L x=1,y=1 t2.tsv
	expect 0 ""
	[ "$output" = "$(printf 'y\tx\tcount\neven\tB\t1\nodd\tA\t2')" ] ||
	    fail "two attributes: '$output'"
	# The attribute name must match exactly: xx is not x.
	rm -rf d
	mkdir d
	printf 'a;A;*\nb;B;*\n' > d/t_hierarchy_xx.csv
	run --separate-stderr freqset -H d -L x=1 t.tsv
	expect 2 "freqset: *'x'*"
	# The ARX files of Adult, found by attribute name.
	run --separate-stderr freqset -q sex -H "$adult" -L sex=1 \
	    "$adult/adult.tsv"
	expect 0 ""
	[ "$output" = "$(printf 'sex\tcount\n*\t30162')" ] ||
	    fail "adult sex: '$output'"
}

@test "Adult: every attribute at every level equals an awk join" {
	n=0
	for h in "$adult"/adult_hierarchy_*.csv; do
		attr=${h##*/adult_hierarchy_}
		attr=${attr%.csv}
		top=$(($(head -1 "$h" | awk -F';' '{ print NF }') - 1))
		for lv in $(seq 0 $top); do
			adult_expect "$attr" "$lv" > want ||
			    fail "awk failed on $attr"
			freqset -q "$attr" -H "$adult" -L "$attr=$lv" \
			    "$adult/adult.tsv" > got ||
			    fail "freqset $attr=$lv: exit $?"
			cmp want got || fail "$attr at level $lv differs"
			n=$((n + 1))
		done
		# The top level is one group holding every row.
		[ "$(sed -n 2p got | cut -f2)" = 30162 ] ||
		    fail "$attr top: $(cat got)"
	done
	[ "$n" -eq 27 ] || fail "$n attribute levels checked, expected 27"
}

@test "Adult: two attributes generalized together equal an awk join" {
	freqset -q age,education -H "$adult" -L age=2,education=1 \
	    "$adult/adult.tsv" > got
	{
		printf 'age\teducation\tcount\n'
		awk 'FILENAME ~ /_age\.csv$/ { age[$1] = $3; next }
		    FILENAME ~ /_education\.csv$/ { edu[$1] = $2; next }
		    FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		    { n[age[$c["age"]] "\t" edu[$c["education"]]]++ }
		    END { for (k in n) print k "\t" n[k] }' \
		    FS=';' "$adult/adult_hierarchy_age.csv" \
		    "$adult/adult_hierarchy_education.csv" \
		    FS='\t' "$adult/adult.tsv" | LC_ALL=C sort
	} > want
	cmp want got || fail "$(diff want got | head)"
	[ "$(wc -l < got)" -gt 10 ] || fail "too few groups: $(cat got)"
	# The same through -H ATTR=FILE, with columns by number.
	freqset -q 2,5 -H "age=$adult/adult_hierarchy_age.csv" \
	    -H "education=$adult/adult_hierarchy_education.csv" \
	    -L 2=2,education=1 "$adult/adult.tsv" > got2
	cmp want got2 || fail "-H ATTR=FILE differs"
}

@test "a value missing from the hierarchy names file:line, column, value" {
	printf 'a1\tA\t*\na2\tA\t*\n' > h.tsv
	printf 'a1;A;*\na2;A;*\n' > h.csv
	mkdir d
	cp h.tsv d/x.tsv
	while IFS='|' read -r input hopt lopt msg; do
		printf "$input" > t.tsv
		run --separate-stderr freqset -H "$hopt" $lopt t.tsv
		expect 2 "freqset: $msg"
		[ -z "$output" ] || fail "stdout '$output'"
	done <<-'EOF'
	x\na1\na2\nzz\na1\n|x=h.tsv|-Lx=1|t.tsv:4: column 'x': 'zz'*
	x\na1\na2\nzz\na1\n|x=h.tsv||t.tsv:4: column 'x': 'zz'*
	x\r\na1\r\nzz\r\n|x=h.csv|-Lx=2|t.tsv:3: column 'x': 'zz'*
	y\tx\n1\ta1\n2\tA\n|x=h.csv|-Lx=1|t.tsv:3: column 'x': 'A'*
	x\na1\na1 \n|d|-Lx=1|t.tsv:3: column 'x': 'a1 '*
	EOF
	# The message also names the hierarchy.
	printf 'x\nzz\n' > t.tsv
	run --separate-stderr freqset -H d t.tsv
	expect 2 "freqset: t.tsv:2: column 'x': 'zz'*d/x.tsv*"
}

@test "a ragged hierarchy file names the file and line" {
	onecol x a b
	while IFS='|' read -r file content msg; do
		printf "$content" > "$file"
		run --separate-stderr freqset -H "x=$file" t.tsv
		expect 2 "freqset: $msg"
		[ -z "$output" ] || fail "$file: stdout '$output'"
	done <<-'EOF'
	h.tsv|a\tA\t*\nb\tB\n|h.tsv:2:*
	h.tsv|a\tA\t*\nb\tB\t*\nc\tC\t*\t*\n|h.tsv:3:*
	h.tsv|a\tA\t*\r\n\r\nb\tB\r\n|h.tsv:3:*
	h.csv|a;A;*\nb;B\n|h.csv:2:*
	h.csv|a;A;*\r\n\r\nb;"B;*";*;*\r\n|h.csv:3:*
	h|a;A;*\nb;B;*\nc;C\n|h:3:*
	EOF
}

@test "a value with two parents is not a hierarchy" {
	onecol x a b
	while IFS='|' read -r file content msg; do
		printf "$content" > "$file"
		run --separate-stderr freqset -H "x=$file" t.tsv
		expect 2 "freqset: $msg"
		[ -z "$output" ] || fail "$file: stdout '$output'"
	done <<-'EOF'
	h.csv|a;A;*\nb;A;*\na;B;*\n|h.csv:3:*'a'*
	h.csv|a;A;X\nb;A;Y\n|h.csv:2:*'A'*
	h.tsv|a\tA\t*\nb\tB\t*\nb\tA\t*\n|h.tsv:3:*'b'*
	h.tsv|a\tA\tX\nb\tB\tX\nc\tB\tY\n|h.tsv:3:*'B'*
	EOF
	# The same line twice is no conflict.
	printf 'a;A;*\nb;B;*\na;A;*\n' > h.csv
	run --separate-stderr freqset -H x=h.csv -L x=1 t.tsv
	expect 0 ""
	[ "$output" = "$(printf 'x\tcount\nA\t1\nB\t1')" ] ||
	    fail "duplicate line: '$output'"
}

@test "-L and -H errors" {
	printf 'a\tA\t*\nb\tB\t*\n' > h.tsv
	printf 'x\ty\na\t1\nb\t2\n' > t.tsv
	while IFS='|' read -r opts msg; do
		run --separate-stderr freqset $opts t.tsv
		expect 2 "freqset: $msg"
		[ -z "$output" ] || fail "$opts: stdout '$output'"
	done <<-'EOF'
	-q x -H x=h.tsv -L x=3|*'3'*
	-q x -H x=h.tsv -L x=-1|*'-1'*
	-q x -H x=h.tsv -L x=one|*'one'*
	-q x -H x=h.tsv -L x=|*
	-q x -H x=h.tsv -L x|*-L*
	-q x -H x=interval:5 -L x=3|*'3'*
	-q x -H x=mask:1,2 -L x=4|*'4'*
	-q x,y -H x=h.tsv -L y=1|*'y'*
	-q x,y -L x=1|*'x'*
	-q x -H x=h.tsv -L y=1|*'y'*
	-q x -H x=h.tsv -L nosuch=1|*'nosuch'*
	-q x -H y=h.tsv|*'y'*
	-q x -H nosuch=h.tsv|*'nosuch'*
	-q x -H x=h.tsv -H y=interval:5|*'y'*
	-q x -H x=missing.tsv|*missing.tsv*
	-q x -H nodir|*nodir*
	EOF
	# A hierarchy on a numbered column is not an error.
	run --separate-stderr freqset -q 1 -H x=h.tsv -L 1=1 t.tsv
	expect 0 ""
	[ "$output" = "$(printf 'x\tcount\nA\t1\nB\t1')" ] ||
	    fail "-L 1=1: '$output'"
}

@test "repeated -L options are all applied (or refused), never dropped" {
	printf 'a\tA\t*\nb\tB\t*\n' > h.tsv
	printf '1;odd;*\n2;even;*\n' > k.csv
	printf 'x\ty\na\t1\nb\t2\na\t1\n' > t.tsv
	want=$(printf 'x\ty\tcount\nA\todd\t2\nB\teven\t1')
	run --separate-stderr freqset -H x=h.tsv -H y=k.csv -L x=1,y=1 t.tsv
	expect 0 ""
	[ "$output" = "$want" ] || fail "-L x=1,y=1: '$output'"
	run --separate-stderr freqset -H x=h.tsv -H y=k.csv -L x=1 -L y=1 t.tsv
	if [ "$status" -eq 0 ]; then
		[ "$output" = "$want" ] ||
		    fail "-L x=1 -L y=1: the first -L was dropped: '$output'"
	else
		expect 2 "freqset: *-L*"
	fi
}

@test "interval hierarchies: labels, floor for negatives and decimals" {
	while IFS='|' read -r spec values level want; do
		onecol v $values
		run --separate-stderr freqset -H "v=$spec" -L v=$level t.tsv
		expect 0 ""
		[ "$output" = "$(printf "v\tcount\n$want")" ] ||
		    fail "$spec at $level on $values: '$output'"
	done <<-'EOF'
	interval:5,10|25 29 30 -3 -5 0 2.5 17|0|-3\t1\n-5\t1\n0\t1\n17\t1\n2.5\t1\n25\t1\n29\t1\n30\t1
	interval:5,10|25 29 30 -3 -5 0 2.5 17|1|[-5,0)\t2\n[0,5)\t2\n[15,20)\t1\n[25,30)\t2\n[30,35)\t1
	interval:5,10|25 29 30 -3 -5 0 2.5 17|2|[-10,0)\t2\n[0,10)\t2\n[10,20)\t1\n[20,30)\t2\n[30,40)\t1
	interval:5,10|25 29 30 -3 -5 0 2.5 17|3|*\t8
	interval:5|-3|1|[-5,0)\t1
	interval:0.5|2.5|1|[2.5,3)\t1
	interval:0.5|2.5 2.99 3 -0.1 2.50|1|[-0.5,0)\t1\n[2.5,3)\t3\n[3,3.5)\t1
	interval:0.5,1|2.25 2.3 2.4999999999 2.5 -0.25|1|[-0.5,0)\t1\n[2,2.5)\t3\n[2.5,3)\t1
	interval:0.5,1|2.25 2.3 2.4999999999 2.5 -0.25|2|[-1,0)\t1\n[2,3)\t4
	interval:0.1|-0.25 -0.3 0.05|1|[-0.3,-0.2)\t2\n[0,0.1)\t1
	interval:10,100|-1 -10 -11 99 100|1|[-10,0)\t2\n[-20,-10)\t1\n[100,110)\t1\n[90,100)\t1
	interval:10,100|-1 -10 -11 99 100|2|[-100,0)\t3\n[0,100)\t1\n[100,200)\t1
	interval:2.5,5|7 7.5 -2.5 -0.01|1|[-2.5,0)\t2\n[5,7.5)\t1\n[7.5,10)\t1
	interval:1000000|123456789 -1|1|[-1000000,0)\t1\n[123000000,124000000)\t1
	EOF
}

@test "interval hierarchies: bad widths and non-numbers are errors" {
	onecol v 1 2
	while IFS='|' read -r spec; do
		run --separate-stderr freqset -H "v=$spec" t.tsv
		expect 2 "freqset: *"
		[ -z "$output" ] || fail "$spec: stdout '$output'"
	done <<-'EOF'
	interval:5,12
	interval:10,5
	interval:0.5,0.75
	interval:5,10,25
	interval:0
	interval:-5
	interval:abc
	interval:
	interval:5,,10
	interval:1e3
	EOF
	run --separate-stderr freqset -H v=interval:5,12 t.tsv
	expect 2 "freqset: *multiple*"
	for bad in abc 1e3 12a 1.2.3 - '5 '; do
		onecol v 1 2 "$bad" 4
		run --separate-stderr freqset -H v=interval:5 -L v=1 t.tsv
		expect 2 "freqset: t.tsv:4: column 'v': '$bad'*"
		[ -z "$output" ] || fail "'$bad': stdout '$output'"
	done
}

@test "Adult: interval:5,10,20 on age equals floor computed by awk" {
	for lv in 1 2 3; do
		w=$(echo "5 10 20" | cut -d' ' -f$lv)
		{
			printf 'age\tcount\n'
			awk -F'\t' -v w="$w" '
			    NR == 1 { for (i = 1; i <= NF; i++) if ($i == "age") c = i; next }
			    { lo = int($c / w) * w; n["[" lo "," lo + w ")"]++ }
			    END { for (k in n) print k "\t" n[k] }' \
			    "$adult/adult.tsv" | LC_ALL=C sort
		} > want
		freqset -q age -H age=interval:5,10,20 -L age=$lv \
		    "$adult/adult.tsv" > got
		cmp want got || fail "level $lv: $(diff want got | head)"
	done
	run --separate-stderr freqset -q age -H age=interval:5,10,20 -L age=4 \
	    "$adult/adult.tsv"
	expect 0 ""
	[ "$output" = "$(printf 'age\tcount\n*\t30162')" ] || fail "top: $output"
}

@test "mask hierarchies: digits masked from the right, then *" {
	while IFS='|' read -r spec values level want; do
		onecol zip $values
		run --separate-stderr freqset -H "zip=$spec" -L zip=$level t.tsv
		expect 0 ""
		[ "$output" = "$(printf "zip\tcount\n$want")" ] ||
		    fail "$spec at $level on $values: '$output'"
	done <<-'EOF'
	mask:1,3|53711|1|5371*\t1
	mask:1,3|53711|2|53***\t1
	mask:1,3|53711|3|*\t1
	mask:1,3|53711 53703 53811 00501 53711|0|00501\t1\n53703\t1\n53711\t2\n53811\t1
	mask:1,3|53711 53703 53811 00501 53711|1|0050*\t1\n5370*\t1\n5371*\t2\n5381*\t1
	mask:1,3|53711 53703 53811 00501 53711|2|00***\t1\n53***\t4
	mask:2|53711 53703 53811|1|537**\t2\n538**\t1
	EOF
}

@test "mask hierarchies: non-digit values and bad specs are errors" {
	for bad in 5371a -5371 '53 71' 5371.0 +5371; do
		onecol zip 53711 "$bad"
		run --separate-stderr freqset -H zip=mask:1,3 -L zip=1 t.tsv
		expect 2 "freqset: t.tsv:3: column 'zip': '$bad'*"
		[ -z "$output" ] || fail "'$bad': stdout '$output'"
	done
	onecol zip 53711
	for spec in mask:3,1 mask:2,2 mask:0 mask:-1 mask:x mask: mask:1,,3; do
		run --separate-stderr freqset -H "zip=$spec" t.tsv
		expect 2 "freqset: *"
		[ -z "$output" ] || fail "$spec: stdout '$output'"
	done
}

@test "generated zip codes: mask:1,3 equals awk substr" {
	awk 'BEGIN { print "zip"; for (i = 0; i < 5000; i++)
		printf "%05d\n", (i * 7919 + i * i) % 100000 }' > z.tsv
	for lv in 1 2; do
		keep=$((lv == 1 ? 4 : 2))
		stars=$((lv == 1 ? 1 : 3))
		{
			printf 'zip\tcount\n'
			awk -v k=$keep -v s=$stars 'NR > 1 {
				m = substr($1, 1, k); for (i = 0; i < s; i++) m = m "*"
				n[m]++ }
			    END { for (x in n) print x "\t" n[x] }' z.tsv |
			    LC_ALL=C sort
		} > want
		freqset -H zip=mask:1,3 -L zip=$lv z.tsv > got
		cmp want got || fail "level $lv: $(diff want got | head)"
	done
	[ "$(freqset -H zip=mask:1,3 -L zip=3 z.tsv)" = "$(printf 'zip\tcount\n*\t5000')" ] ||
	    fail "top: $(freqset -H zip=mask:1,3 -L zip=3 z.tsv)"
}

@test "interval hierarchies say which limit a number passes: 18 decimal places, 2^100 of digits, 36 significant digits (found by review: 'not a number' for valid numbers)" {
	cd "$BATS_TEST_TMPDIR"
	printf 'a\n999999999999999999999999999999999999\n' > n1.tsv
	printf 'a\n0.0000000000000000001\n' > n2.tsv
	printf 'a\n1234567890123456789012345678901234567890\n' > n3.tsv
	run --separate-stderr freqset -H a=interval:10 -L a=1 -q a n1.tsv
	[ "$status" -eq 2 ]
	[ "$stderr" = "freqset: n1.tsv:2: column 'a': '999999999999999999999999999999999999': value has too many digits for an interval hierarchy: without its point, they may make at most 2^100 (about 31 digits; kanon(7), Numbers) (interval:10)" ]
	run --separate-stderr freqset -H a=interval:10 -L a=1 -q a n2.tsv
	[ "$stderr" = "freqset: n2.tsv:2: column 'a': '0.0000000000000000001': value has more than 18 decimal places, the most an interval hierarchy takes (kanon(7), Numbers) (interval:10)" ]
	run --separate-stderr freqset -H a=interval:10 -L a=1 -q a n3.tsv
	[ "$stderr" = "freqset: n3.tsv:2: column 'a': '1234567890123456789012345678901234567890': has more than 36 significant digits, the most a number may have (kanon(7), Numbers) (interval:10)" ]
	printf 'a\n1267650600228229401496703205376\n' > ok.tsv
	freqset -H a=interval:10 -L a=1 -q a ok.tsv > /dev/null
}
