#!/usr/bin/env bats
# The input and output conventions of kanon(7), shared by every program:
# headers, ragged rows, empty input, final newlines, CRLF, NUL bytes, long
# fields, raw bytes, several files, stdin, column numbers, headerless
# mode, -o, write errors, closed pipes, --version, -h and bad options.
# Each test runs against every program listed in PROGS.

bats_require_minimum_version 1.5.0

PROGS="freqset score"

setup_file() {
	for p in $PROGS; do
		command -v "$p" > /dev/null || {
			echo "$p is not on PATH (run tests/run, or" \
			    "PATH=\$PWD:\$PATH bats tests/input.bats)" >&2
			return 1
		}
	done
}

setup() {
	# A directory of our own: bats keeps its own files in the tmpdir.
	mkdir "$BATS_TEST_TMPDIR/w" && cd "$BATS_TEST_TMPDIR/w" || return 1
}

# Prints a message and fails the test.
fail() {
	printf '%s\n' "$*" >&2
	return 1
}

# The options that make each program's output depend on every column of
# the table a,b,c (score would otherwise ignore a CR left on 'c').
args_abc() {
	case $1 in
	freqset) echo "-q a,b,c" ;;
	score) echo "-q a,b -s c -l 1" ;;
	esac
}

# expect STATUS STDERR-PATTERN: checks the last run (pattern as in [[ ]]).
expect() {
	[ "$status" -eq "$1" ] ||
	    fail "exit $status, expected $1; stderr: $stderr"
	[[ $stderr == $2 ]] ||
	    fail "stderr '$stderr' does not match '$2'"
}

@test "a header alone is an empty table" {
	score_empty="rows	0
suppressed	0
classes	0
class_size_min	0
class_size_max	0
class_size_mean	0
cdm	0
risk_max	0
risk_mean	0
threshold	2
rows_below_threshold	0
share_below_threshold	0"
	for hdr in 'a\tb\n' 'a\tb' 'a\tb\r\n' 'a\tb\r'; do
		printf "$hdr" > t.tsv
		run --separate-stderr freqset t.tsv
		expect 0 ""
		[ "$output" = "a	b	count" ] ||
		    fail "freqset, header '$hdr': '$output'"
		run --separate-stderr score t.tsv
		expect 0 ""
		[ "$output" = "$score_empty" ] ||
		    fail "score, header '$hdr': '$output'"
	done
}

@test "no final newline, CRLF and mixed line ends give the same bytes" {
	printf 'a\tb\tc\n1\tx\tp\n1\tx\tq\n2\ty\tp\n1\tx\tp\n' > lf.tsv
	while read -r name fmt; do
		printf "$fmt" > "$name.tsv"
	done <<-'EOF'
	nofinal a\tb\tc\n1\tx\tp\n1\tx\tq\n2\ty\tp\n1\tx\tp
	crlf a\tb\tc\r\n1\tx\tp\r\n1\tx\tq\r\n2\ty\tp\r\n1\tx\tp\r\n
	crlfnofinal a\tb\tc\r\n1\tx\tp\r\n1\tx\tq\r\n2\ty\tp\r\n1\tx\tp\r
	crlfnofinal2 a\tb\tc\r\n1\tx\tp\r\n1\tx\tq\r\n2\ty\tp\r\n1\tx\tp
	mixed a\tb\tc\r\n1\tx\tp\n1\tx\tq\r\n2\ty\tp\n1\tx\tp\r\n
	EOF
	for p in $PROGS; do
		$p $(args_abc $p) lf.tsv > "want.$p"
		for v in nofinal crlf crlfnofinal crlfnofinal2 mixed; do
			$p $(args_abc $p) "$v.tsv" > "got.$p.$v" ||
			    fail "$p $v: exit $?"
			cmp "want.$p" "got.$p.$v" || fail "$p: $v differs from LF"
		done
	done
	# And the LF result is right: the last row was not lost.
	[ "$(cat want.freqset)" = "a	b	c	count
1	x	p	2
1	x	q	1
2	y	p	1" ] || fail "freqset: $(cat want.freqset)"
	grep -qx 'rows	4' want.score || fail "score: $(cat want.score)"
	grep -qx 'l_distinct_min	1' want.score || fail "score: no -s c"
}

@test "a ragged row is an error naming file, line and counts" {
	while IFS='|' read -r input file opts msg; do
		printf "$input" > t.tsv
		printf 'a\tb\n9\t9\n' > first.tsv
		for p in $PROGS; do
			case $file in
			-) run --separate-stderr $p $opts < t.tsv ;;
			*) run --separate-stderr $p $opts $file ;;
			esac
			expect 2 "$p: $msg"
			[ -z "$output" ] || fail "$p: stdout '$output'"
		done
	done <<-'EOF'
	a\tb\n1\t2\n1\t2\t3\n1\t2\n|t.tsv||t.tsv:3: expected 2 fields, found 3
	a\tb\n1\n|t.tsv||t.tsv:2: expected 2 fields, found 1
	a\tb\n1\t2\n\n1\t2\n|t.tsv||t.tsv:3: expected 2 fields, found 1
	a\tb\r\n1\t2\r\n1\t2\t\r\n|t.tsv||t.tsv:3: expected 2 fields, found 3
	a\tb\n1\t2\n1\t2\t3|t.tsv||t.tsv:3: expected 2 fields, found 3
	a\tb\tc\n1\t2\t3\n1\t2\n|-||stdin:3: expected 3 fields, found 2
	1\t2\t3\n|t.tsv|--columns a,b|t.tsv:1: expected 2 fields, found 3
	EOF
	# In a second file, the line number counts from that file's start.
	printf 'a\tb\n1\t2\n1\t2\t3\n' > t.tsv
	run --separate-stderr freqset first.tsv t.tsv
	expect 2 "freqset: t.tsv:3: expected 2 fields, found 3"
}

@test "empty input without a header is an error" {
	: > e.tsv
	for p in $PROGS; do
		run --separate-stderr $p e.tsv
		expect 2 "$p: e.tsv: empty input*"
		[ -z "$output" ] || fail "$p: stdout '$output'"
		run --separate-stderr $p < e.tsv
		expect 2 "$p: stdin: empty input*"
	done
}

@test "bad headers: duplicate or empty column names" {
	while IFS='|' read -r input opts msg; do
		printf "$input" > t.tsv
		for p in $PROGS; do
			run --separate-stderr $p $opts t.tsv
			expect 2 "$p: $msg"
			[ -z "$output" ] || fail "$p: stdout '$output'"
		done
	done <<-'EOF'
	a\tb\ta\n1\t2\t3\n||t.tsv:1: column name 'a' appears twice*
	a\tb\ta\r\n1\t2\t3\r\n||t.tsv:1: column name 'a' appears twice*
	a\t\tb\n1\t2\t3\n||t.tsv:1: column 2 has an empty name
	a\tb\t\n1\t2\t3\n||t.tsv:1: column 3 has an empty name
	\n\n||t.tsv:1: column 1 has an empty name
	1\t2\n|--columns a,a|--columns: column name 'a' appears twice*
	1\t2\n|--columns a,,b|--columns: column 2 has an empty name
	EOF
}

@test "unknown columns are errors" {
	printf 'a\tb\n1\t2\n' > t.tsv
	while IFS='|' read -r opts msg; do
		for p in $PROGS; do
			run --separate-stderr $p $opts t.tsv
			expect 2 "$p: $msg"
			[ -z "$output" ] || fail "$p: stdout '$output'"
		done
	done <<-'EOF'
	-q nosuch|*'nosuch'*
	-q a,nosuch|*'nosuch'*
	-q 9|*column 9*
	-q 3|*column 3*
	-q 0|*'0'*
	-q a,a|*'a'*twice*
	-q 2,b|*'b'*twice*
	--columns x,y -q a|*'a'*
	--columns x,y -q 3|*column 3*
	EOF
	run --separate-stderr score -s nosuch t.tsv
	expect 2 "score: *'nosuch'*"
}

@test "a NUL byte is an error naming the line and field" {
	while IFS='|' read -r input msg; do
		printf "$input" > t.tsv
		for p in $PROGS; do
			run --separate-stderr $p t.tsv
			expect 2 "$p: $msg"
			[ -z "$output" ] || fail "$p: stdout '$output'"
		done
	done <<-'EOF'
	a\tb\nx\ty\0z\n|t.tsv:2: field 2: NUL byte*
	a\tb\nx\ty\n\0\ty\n|t.tsv:3: field 1: NUL byte*
	a\tb\tc\r\nx\ty\tz\r\nx\ty\tz\0\r\n|t.tsv:3: field 3: NUL byte*
	a\0\tb\nx\ty\n|t.tsv:1: field 1: NUL byte*
	EOF
}

@test "a 1 MB field has no line limit and is grouped correctly" {
	# Rows: big, y, big, big+"z", y: three groups, sizes 2, 2, 1.
	awk 'BEGIN { s = "x"; for (i = 0; i < 20; i++) s = s s
		print "a\tb"; print s "\t1"; print "y\t2"; print s "\t1"
		print s "z\t1"; print "y\t2" }' > big.tsv
	[ "$(wc -c < big.tsv)" -gt 3145728 ] || fail "input too small"
	for how in file pipe; do
		if [ $how = file ]; then
			freqset big.tsv > out
		else
			cat big.tsv | freqset > out
		fi
		got=$(awk -F'\t' '{ print length($1), $2, $3 }' out)
		[ "$got" = "1 b count
1048576 1 2
1048577 1 1
1 2 2" ] || fail "freqset ($how): $got"
		cmp <(cut -f1 out | sed -n 2p) <(sed -n 2p big.tsv | cut -f1) ||
		    fail "freqset ($how): the big value changed"
	done
	run --separate-stderr score -q a big.tsv
	expect 0 ""
	[ "$(printf '%s\n' "$output" | sed -n '1p;3,5p')" = "rows	5
classes	3
class_size_min	1
class_size_max	2" ] || fail "score: $output"
}

@test "bytes that are not UTF-8 pass through untouched" {
	# Invalid UTF-8 and control bytes in the header and the values; the
	# expected output is computed with awk and LC_ALL=C sort.
	printf 'a\377\tb\n\xff\xfe\t\xc3\x28\n\x01x\t\x80\n\xc3\x28\t\xff\n' > t.tsv
	printf '\xff\xfe\t\xc3\x28\n\x01\t\x7f\n\x01x\t\x80\n' >> t.tsv
	freqset t.tsv > got
	{
		printf 'a\377\tb\tcount\n'
		LC_ALL=C awk 'NR > 1 { n[$0]++ }
		    END { for (k in n) print k "\t" n[k] }' t.tsv | LC_ALL=C sort
	} > want
	cmp want got || fail "freqset: $(od -c got)"
	# The same bytes, written out: a\377 b count / \001 \177 1 / ...
	[ "$(od -An -tx1 got | tr -d ' \n')" = \
	    61ff096209636f756e740a01097f09310a0178098009320ac32809ff09310afffe09c32809320a ] ||
	    fail "freqset bytes: $(od -An -c got)"
	# A column named by its raw bytes.
	run --separate-stderr score -q "$(printf 'a\377')" t.tsv
	expect 0 ""
	[ "$(printf '%s\n' "$output" | sed -n '1p;3,5p')" = "rows	6
classes	4
class_size_min	1
class_size_max	2" ] || fail "score: $output"
	score -q 1 t.tsv > want
	score -q "$(printf 'a\377')" t.tsv > got
	cmp want got || fail "score -q 1 differs"
}

@test "several files with one header are one table; another header fails" {
	printf 'a\tb\n1\t2\n' > f1
	printf 'a\tb\r\n3\t4\r\n1\t2\r\n' > f2
	printf 'a\tb\n3\t4' > f3
	printf 'a\tb\n' > f4
	printf 'b\ta\n1\t2\n' > other
	printf 'a\tb\tc\n1\t2\t3\n' > wider
	run --separate-stderr freqset f1 f2 f4 f3
	expect 0 ""
	[ "$output" = "a	b	count
1	2	2
3	4	2" ] || fail "freqset: $output"
	run --separate-stderr freqset f1 - f3 < f2
	expect 0 ""
	[ "$output" = "a	b	count
1	2	2
3	4	2" ] || fail "freqset with -: $output"
	run --separate-stderr freqset f1 other
	expect 2 "freqset: other:1: header differs*"
	[ -z "$output" ] || fail "stdout '$output'"
	run --separate-stderr freqset f1 f2 wider
	expect 2 "freqset: wider:1: header differs*"
	# Headerless: no file has a header.
	printf '1\t2\n' > h1
	printf '3\t4\n1\t2\n' > h2
	run --separate-stderr freqset --columns a,b h1 h2
	expect 0 ""
	[ "$output" = "a	b	count
1	2	2
3	4	1" ] || fail "freqset --columns: $output"
}

@test "stdin is read with no operand and with -" {
	printf 'a\tb\tc\n1\tx\tp\n1\tx\tq\n2\ty\tp\n' > t.tsv
	for p in $PROGS; do
		$p $(args_abc $p) t.tsv > want
		[ -s want ] || fail "$p: no output"
		$p $(args_abc $p) < t.tsv > got1
		$p $(args_abc $p) - < t.tsv > got2
		cat t.tsv | $p $(args_abc $p) - > got3
		cmp want got1 || fail "$p: no operand differs"
		cmp want got2 || fail "$p: - differs"
		cmp want got3 || fail "$p: - on a pipe differs"
	done
}

@test "columns by number equal columns by name" {
	printf 'a\tb\tc\n1\tx\tp\n1\tx\tq\n2\ty\tp\n1\ty\tp\n' > t.tsv
	while IFS='|' read -r byname bynum; do
		for p in $PROGS; do
			$p $byname t.tsv > want
			$p $bynum t.tsv > got
			cmp want got || fail "$p $bynum differs from $byname"
		done
	done <<-'EOF'
	-q b,a|-q 2,1
	-q a,c|-q 1,3
	-q c|-q 3
	-q b,a,c|-q b,1,3
	EOF
	[ "$(freqset -q 2,1 t.tsv)" = "b	a	count
x	1	2
y	1	1
y	2	1" ] || fail "freqset -q 2,1: $(freqset -q 2,1 t.tsv)"
	score -q a,b -s c -l 2 t.tsv > want
	score -q 1,2 -s 3 -l 2 t.tsv > got
	cmp want got || fail "score -s 3 differs from -s c"
	grep -qx 'l_distinct_min	1' got || fail "score -s 3: $(cat got)"
}

@test "headerless mode: --columns and --columns-file, the first line is data" {
	printf 'a\tb\n1\t2\n1\t2\n3\t4\n' > hdr.tsv
	tail -n +2 hdr.tsv > data.tsv
	printf 'a\nb\n' > names.lines
	printf 'a\r\n\r\nb\r\n' > names.crlf
	printf 'a\tb\n' > names.header
	for p in $PROGS; do
		$p hdr.tsv > want
		for opt in "--columns a,b" "--columns-file names.lines" \
		    "--columns-file names.crlf" "--columns-file names.header"; do
			$p $opt data.tsv > got || fail "$p $opt: exit $?"
			cmp want got || fail "$p $opt differs"
			$p $opt < data.tsv > got || fail "$p $opt: exit $?"
			cmp want got || fail "$p $opt (stdin) differs"
		done
		# The header line itself is a data row in headerless mode.
		$p --columns a,b hdr.tsv > got
		! cmp -s want got || fail "$p: the first line was skipped"
	done
	[ "$(freqset --columns a,b hdr.tsv)" = "a	b	count
1	2	2
3	4	1
a	b	1" ] || fail "freqset: $(freqset --columns a,b hdr.tsv)"
	[ "$(score --columns a,b hdr.tsv | head -1)" = "rows	4" ] ||
	    fail "score: $(score --columns a,b hdr.tsv)"
	# Empty headerless input is an empty table, not an error.
	run --separate-stderr freqset --columns a,b < /dev/null
	expect 0 ""
	[ "$output" = "a	b	count" ] || fail "freqset: '$output'"
	run --separate-stderr score --columns a,b < /dev/null
	expect 0 ""
	[ "${lines[0]}" = "rows	0" ] || fail "score: '$output'"
}

@test "-o FILE writes the file and nothing on stdout" {
	printf 'a\tb\n1\t2\n1\t2\n3\t4\n' > t.tsv
	for p in $PROGS; do
		$p t.tsv > want
		echo old > "out.$p"
		run --separate-stderr $p -o "out.$p" t.tsv
		expect 0 ""
		[ -z "$output" ] || fail "$p: stdout '$output'"
		cmp want "out.$p" || fail "$p: -o file differs from stdout"
		mkdir -p "sub.$p"
		run --separate-stderr $p -o "sub.$p/new" t.tsv
		expect 0 ""
		cmp want "sub.$p/new" || fail "$p: new file differs"
		[ "$(ls -A "sub.$p")" = "new" ] ||
		    fail "$p: left behind: $(ls -A "sub.$p")"
	done
}

@test "-o into a missing directory fails and creates nothing" {
	printf 'a\tb\n1\t2\n' > t.tsv
	for p in $PROGS; do
		run --separate-stderr $p -o nodir/sub/out t.tsv
		expect 2 "$p: nodir/sub/out*"
		[ -z "$output" ] || fail "$p: stdout '$output'"
		[ ! -e nodir ] || fail "$p: created nodir"
	done
	[ "$(ls -A)" = "t.tsv" ] || fail "left behind: $(ls -A)"
}

@test "a full disk on stdout is a write error" {
	printf 'a\tb\n1\t2\n' > t.tsv
	for p in $PROGS; do
		run --separate-stderr sh -c "$p t.tsv > /dev/full"
		expect 2 "$p: *write error*"
		# Output larger than any buffer.
		run --separate-stderr sh -c \
		    "seq 1 100000 | $p --columns a > /dev/full"
		expect 2 "$p: *write error*"
	done
}

@test "-o leaves the old file untouched when a late row is bad" {
	# About 2 MB: the bad row comes after several buffer refills.
	awk 'BEGIN { print "a\tb"; for (i = 1; i <= 400000; i++)
		print i % 97 "\t" i % 3; print "1\t2\t3" }' > bad.tsv
	for p in $PROGS; do
		mkdir "d.$p"
		printf 'precious\n' > "d.$p/out"
		run --separate-stderr $p -o "d.$p/out" bad.tsv
		expect 2 "$p: bad.tsv:400002: expected 2 fields, found 3"
		[ -z "$output" ] || fail "$p: stdout '$output'"
		[ "$(cat "d.$p/out")" = precious ] ||
		    fail "$p: output replaced: $(head -3 "d.$p/out")"
		[ "$(ls -A "d.$p")" = out ] ||
		    fail "$p: left behind: $(ls -A "d.$p")"
		# A failed run does not create a missing target either.
		run --separate-stderr $p -o "d.$p/none" bad.tsv
		expect 2 "$p: bad.tsv:400002:*"
		[ ! -e "d.$p/none" ] || fail "$p: created a partial file"
		[ "$(ls -A "d.$p")" = out ] ||
		    fail "$p: left behind: $(ls -A "d.$p")"
		# From a pipe the line number is the same.
		run --separate-stderr sh -c "cat bad.tsv | $p -o d.$p/out"
		expect 2 "$p: stdin:400002: expected 2 fields, found 3"
		[ "$(cat "d.$p/out")" = precious ] || fail "$p: replaced"
	done
}

@test "a closed pipe ends the program quietly" {
	# 300000 distinct rows: freqset writes megabytes into a closed pipe.
	awk 'BEGIN { print "a\tb"; for (i = 1; i <= 300000; i++)
		print i "\t" i % 7 }' > big.tsv
	run --separate-stderr bash -c \
	    'freqset big.tsv | head -1; echo "${PIPESTATUS[0]}" > st'
	[ -z "$stderr" ] || fail "freqset stderr: '$stderr'"
	[ "$output" = "a	b	count" ] || fail "freqset stdout: '$output'"
	# Killed by SIGPIPE (141) or exit 0: anything but an error.
	case $(cat st) in
	0 | 141) ;;
	*) fail "freqset exit $(cat st)" ;;
	esac
	run --separate-stderr bash -c 'freqset big.tsv | head -c 10 > /dev/null'
	[ -z "$stderr" ] || fail "freqset stderr: '$stderr'"
	run --separate-stderr bash -c \
	    'score -q a big.tsv | head -1; echo "${PIPESTATUS[0]}" > st'
	[ -z "$stderr" ] || fail "score stderr: '$stderr'"
	[ "$output" = "rows	300000" ] || fail "score stdout: '$output'"
	case $(cat st) in
	0 | 141) ;;
	*) fail "score exit $(cat st)" ;;
	esac
}

@test "--version prints a version and exits 0" {
	for p in $PROGS; do
		run --separate-stderr $p --version
		expect 0 ""
		[[ $output =~ ^$p\ .*[0-9]+\.[0-9]+ ]] ||
		    fail "$p --version: '$output'"
		[ "${#lines[@]}" -eq 1 ] || fail "$p: ${#lines[@]} lines"
	done
}

@test "-h and --help print the usage and exit 0" {
	for p in $PROGS; do
		for opt in -h --help; do
			run --separate-stderr $p $opt
			expect 0 ""
			[[ $output == "usage: $p "* ]] ||
			    fail "$p $opt: '$output'"
		done
	done
}

@test "an unknown option exits 2 with the usage on stderr" {
	printf 'a\tb\n1\t2\n' > t.tsv
	for p in $PROGS; do
		for opt in --no-such-option -Z; do
			run --separate-stderr $p $opt t.tsv
			expect 2 "*usage: $p *"
			[ -z "$output" ] || fail "$p $opt: stdout '$output'"
		done
		# An option missing its argument, too.
		run --separate-stderr $p t.tsv -q
		expect 2 "*usage: $p *"
	done
}

@test "an unreadable operand is an error naming it" {
	mkdir dir
	for p in $PROGS; do
		run --separate-stderr $p nosuch.tsv
		expect 2 "$p: nosuch.tsv: No such file or directory"
		run --separate-stderr $p dir
		expect 2 "$p: dir:*"
		[ -z "$output" ] || fail "$p: stdout '$output'"
	done
}

# The table readers and options that make each output depend on every
# row of the table a,b (small integers), for --skip-header.
SKIPHDR="freqset|-q a,b
score|-q a,b -k 2
extsort|-k a:n
lattice-search|-q a,b -H a=interval:5,10 -H b=interval:2 -k 3 --all
recode|-n a=1,b=0 -H a=interval:5,10 -H b=interval:2 -k 2 --suppress drop
partition|-q a -k 3"

@test "--skip-header drops header lines met in the data, in every reader" {
	printf 'a\tb\n' > h
	awk 'BEGIN { for (i = 0; i < 40; i++) print (i * 7) % 23 "\t" i % 3 }' > d
	head -20 d > d1
	tail -20 d > d2
	cat h d > clean.tsv
	# The header again in the middle (once with CRLF), as in cat a b.
	{ cat h d1 h; printf 'a\tb\r\n'; cat d2; } > mid.tsv
	cat h d1 > f1.tsv
	cat h d2 > f2.tsv
	while IFS='|' read -r p args; do
		$p $args clean.tsv > want || fail "$p: exit $?"
		[ -s want ] || fail "$p: no output"
		run --separate-stderr $p $args --skip-header mid.tsv
		expect 0 ""
		printf '%s\n' "$output" | cmp - want || fail "$p: differs"
		# Files concatenated with cat.
		cat f1.tsv f2.tsv | $p $args --skip-header > got ||
		    fail "$p: exit $?"
		cmp got want || fail "$p: cat f1 f2 differs"
		# Headerless, with --columns: the names given are the header.
		$p $args --columns a,b d > want.c || fail "$p: exit $?"
		$p $args --columns a,b --skip-header mid.tsv > got.c ||
		    fail "$p: --columns: exit $?"
		cmp got.c want.c || fail "$p: --columns differs"
		printf 'a\nb\n' > names
		$p $args --columns-file names --skip-header mid.tsv > got.c ||
		    fail "$p: --columns-file: exit $?"
		cmp got.c want.c || fail "$p: --columns-file differs"
	done <<< "$SKIPHDR"
}

@test "without --skip-header a header line in the data is a row" {
	printf 'a\tb\n1\t2\na\tb\n3\t4\n' > mid.tsv
	run --separate-stderr freqset mid.tsv
	expect 0 ""
	[ "$output" = "a	b	count
1	2	1
3	4	1
a	b	1" ] || fail "freqset: $output"
	run --separate-stderr score -q a,b mid.tsv
	expect 0 ""
	[ "${lines[0]}" = "rows	3" ] || fail "score: $output"
	# A numeric reader finds 'a' where a number must be.
	run --separate-stderr partition -q a -k 1 mid.tsv
	expect 2 "partition: mid.tsv:3: column 'a': 'a'*"
	run --separate-stderr recode -k 1 -n a=1 -H a=interval:5 mid.tsv
	expect 2 "recode: mid.tsv:3: column 'a': 'a'*"
}

@test "--skip-header keeps lines that only resemble the header" {
	printf 'a\tb\n1\t2\na\tbb\n a\tb\nA\tb\na\tb \na\tb\n' > t.tsv
	for p in freqset score extsort; do
		case $p in
		freqset) args="-q a,b" ;;
		score) args="-q a,b -k 1" ;;
		extsort) args="-k a" ;;
		esac
		# The same rows without the last line, which equals the header.
		head -n 6 t.tsv > want.tsv
		$p $args want.tsv > want
		run --separate-stderr $p $args --skip-header t.tsv
		expect 0 ""
		printf '%s\n' "$output" | cmp - want || fail "$p: differs"
	done
	run --separate-stderr freqset --skip-header t.tsv
	[ "$output" = "a	b	count
 a	b	1
1	2	1
A	b	1
a	b 	1
a	bb	1" ] || fail "freqset: $output"
	# Nothing else is dropped: a header alone and an empty input.
	run --separate-stderr freqset --skip-header --columns a,b < /dev/null
	expect 0 ""
	[ "$output" = "a	b	count" ] || fail "freqset: $output"
	printf 'a\tb\na\tb\n' > hh.tsv
	run --separate-stderr score --skip-header hh.tsv
	expect 0 ""
	[ "${lines[0]}" = "rows	0" ] || fail "score: $output"
}
