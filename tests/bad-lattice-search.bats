#!/usr/bin/env bats
# lattice-search on bad input: every case exits 2 with a message naming
# the file, line and column, on a file operand, on a pipe and with -o,
# never hanging, crashing or writing a partial output; and the valid edge
# cases (header only, no final newline, CRLF, one row, identical rows, k
# above the rows, counts near 2^64, a 1 MB value, bytes that are not
# UTF-8) with their exact nodes and metrics, worked out by hand.  The
# tables and helpers are in bad.bash.

load common
load bad

setup() {
	bad_setup
	H='-H a=interval:5 -H b=hb.tsv'
	HDR='a\tb\tsuppressed\tclasses\tcdm\tcavg\theight\tprec\tloss\n'
	printf 'a\tcount\ts_sum\ts_sumsq\n1\t2\t14\t106\n' > fssum.tsv
	printf 'a\tcount\n1\t18446744073709551616\n' > fsbig.tsv
	printf 'a\tcount\n1\t+3\n' > fsplus.tsv
	printf 'a\tcount\n1\t18446744073709551615\n1\t1\n' > fsover.tsv
}

@test "lattice-search: empty input, bad headers, ragged rows, NUL bytes" {
	bad_cases <<-EOF
	empty file       | 2 | lattice-search: @: empty input: expected a header line* | lattice-search -q a,b $H @empty.tsv
	empty stdin      | 2 | lattice-search: stdin: empty input* | lattice-search -q a,b $H < empty.tsv
	duplicate name   | 2 | lattice-search: @:1: column name 'a' appears twice* | lattice-search -q a,b $H @dup.tsv
	empty name       | 2 | lattice-search: @:1: column 2 has an empty name | lattice-search -q a $H @noname.tsv
	short row        | 2 | lattice-search: @:3: expected 3 fields, found 2 | lattice-search -q a,b $H @short.tsv
	long row         | 2 | lattice-search: @:2: expected 3 fields, found 4 | lattice-search -q a $H @long.tsv
	ragged CRLF      | 2 | lattice-search: @:3: expected 3 fields, found 4 | lattice-search -q a,b $H @raggedcr.tsv
	ragged freqset   | 2 | lattice-search: @:3: expected 2 fields, found 1 | lattice-search -H a=interval:5 @fsshort.tsv
	ragged headerless| 2 | lattice-search: @:1: expected 2 fields, found 3 | lattice-search --columns a,b -q a,b $H @t.tsv
	NUL in a row     | 2 | lattice-search: @:3: field 2: NUL byte* | lattice-search -q a,b $H @nul.tsv
	NUL, not a QI    | 2 | lattice-search: @:3: field 2: NUL byte* | lattice-search -q a $H @nul.tsv
	NUL in header    | 2 | lattice-search: @:1: field 2: NUL byte* | lattice-search -q a $H @nulhdr.tsv
	two operands     | 2 | lattice-search: one table at a time* | lattice-search -q a,b $H t.tsv t.tsv
	EOF
}

@test "lattice-search: unknown columns, missing hierarchies, bad QI lists" {
	awk 'BEGIN { for (i = 1; i <= 65; i++) printf "%sc%d", (i > 1 ? "\t" : ""), i
		print ""; for (i = 1; i <= 65; i++) printf "%s1", (i > 1 ? "\t" : "")
		print "" }' > wide.tsv
	Q65=$(head -n 1 wide.tsv | tr '\t' ,)
	Q30=$(echo "$Q65" | cut -d, -f1-30)
	H65=$(for i in $(seq 65); do printf -- '-H c%d=interval:5 ' $i; done)
	bad_cases <<-EOF
	unknown -q       | 2 | lattice-search: @: no column named 'c' | lattice-search -q a,c $H @t.tsv
	-q beyond        | 2 | lattice-search: @: no column 4 (the table has 3) | lattice-search -q 4 $H @t.tsv
	-q twice         | 2 | lattice-search:*'a'*twice* | lattice-search -q a,1 $H @t.tsv
	-q empty         | 2 | lattice-search:*empty column name* | lattice-search -q '' $H @t.tsv
	no -q, a table   | 2 | lattice-search: -q: name the quasi-identifiers* | lattice-search $H @t.tsv
	no hierarchy     | 2 | lattice-search: 'a' has no hierarchy (give one with -H) | lattice-search -q a,b -H b=hb.tsv @t.tsv
	count is a QI    | 2 | lattice-search: 'count' has no hierarchy* | lattice-search -q a,count $H @fs.tsv
	unknown -s       | 2 | lattice-search: @: no column named 'c' | lattice-search -q a,b $H -s c -l 2 @t.tsv
	-s is a QI       | 2 | lattice-search: -s b is also a quasi-identifier | lattice-search -q a,b $H -s b -l 1 @t.tsv
	-s count, no -q  | 2 | lattice-search: -q: name the quasi-identifiers* | lattice-search $H -s count -l 1 @fs.tsv
	-s after count   | 2 | lattice-search: -s:*key column* | lattice-search -q a -H a=interval:5 -s s_sum -l 1 @fssum.tsv
	-H unknown       | 2 | lattice-search: -H c=hb.tsv: 'c' is not one of the grouped columns | lattice-search -q a,b $H -H c=hb.tsv @t.tsv
	freqset, no b    | 2 | lattice-search: -H b=hb.tsv: 'b' is not one of the grouped columns | lattice-search $H @fsbad.tsv
	65 QIs           | 2 | lattice-search: -q: more than 64 quasi-identifiers | lattice-search -q $Q65 $H65 @wide.tsv
	lattice too big  | 2 | lattice-search: the lattice has more than 268435456 nodes | lattice-search -q $Q30 $H65 @wide.tsv
	EOF
}

@test "lattice-search: values that are not numbers, counts or leaves" {
	bad_cases <<-EOF
	interval: x1     | 2 | lattice-search: @:3: column 'a': 'x1': value is not a number (interval:5) | lattice-search -q a,b $H @nonnum.tsv
	mask: x1         | 2 | lattice-search: @:3: column 'a': 'x1'* | lattice-search -q a -H a=mask:1 @nonnum.tsv
	not a leaf       | 2 | lattice-search: @:4: column 'b': 'zz': value is not a leaf of the hierarchy (hb.tsv) | lattice-search -q a,b $H @notleaf.tsv
	freqset not leaf | 2 | lattice-search: @:3: column 'b': 'zz'* | lattice-search -H b=hb.tsv @fsleaf.tsv
	count x          | 2 | lattice-search: @:3: column 'count': 'x' is not a count | lattice-search -H a=interval:5 @fsbad.tsv
	count -1         | 2 | lattice-search: @:3: column 'count': '-1' is not a count | lattice-search -H a=interval:5 @fsneg.tsv
	count 2^64       | 2 | lattice-search: @:2: column 'count': '18446744073709551616' is not a count | lattice-search -H a=interval:5 @fsbig.tsv
	count +3         | 2 | lattice-search: @:2: column 'count': '+3' is not a count | lattice-search -H a=interval:5 @fsplus.tsv
	counts overflow  | 2 | lattice-search:*overflows 64 bits* | lattice-search -H a=interval:5 @fsover.tsv
	EOF
}

@test "lattice-search: bad hierarchy files" {
	bad_cases <<-'EOF'
	ragged           | 2 | lattice-search: hragged.tsv:2: expected 3 levels* | lattice-search -q a,b -H a=interval:5 -H b=hragged.tsv @t.tsv
	two parents      | 2 | lattice-search: hnf.tsv:3:*'x'*two parents* | lattice-search -q a,b -H a=interval:5 -H b=hnf.tsv @t.tsv
	two parents, lv1 | 2 | lattice-search: hnf2.tsv:2:*'X'*two parents* | lattice-search -q b -H b=hnf2.tsv @t.tsv
	ARX ragged       | 2 | lattice-search: hr.csv:2:* | lattice-search -q b -H b=hr.csv @t.tsv
	ARX two parents  | 2 | lattice-search: hnf.csv:3:*'x'* | lattice-search -q b -H b=hnf.csv @t.tsv
	ARX bad quote    | 2 | lattice-search: hq.csv:2:* | lattice-search -q b -H b=hq.csv @t.tsv
	NUL              | 2 | lattice-search: hnul.tsv:2: field 1: NUL byte* | lattice-search -q b -H b=hnul.tsv @t.tsv
	empty            | 2 | lattice-search: hempty.tsv: empty hierarchy | lattice-search -q b -H b=hempty.tsv @t.tsv
	missing          | 2 | lattice-search: -H b=nosuch.tsv: the hierarchy file: No such file or directory | lattice-search -q b -H b=nosuch.tsv @t.tsv
	directory        | 2 | lattice-search: hdir/b.tsv:2:* | lattice-search -q a,b -H a=interval:5 -H hdir @t.tsv
	interval:0       | 2 | lattice-search: -H a=interval:0:*'0'* | lattice-search -q a -H a=interval:0 @t.tsv
	interval:5,7     | 2 | lattice-search: -H a=interval:5,7:*multiple* | lattice-search -q a -H a=interval:5,7 @t.tsv
	-H no =          | 2 | lattice-search: -H 'a': expected ATTR=FILE* | lattice-search -q a -H a @t.tsv
	EOF
}

@test "lattice-search: k, l, c and limits out of range" {
	bad_cases <<-EOF
	-k 0             | 2 | lattice-search: -k: '0' is out of range* | lattice-search -q a,b $H -k 0 @t.tsv
	-k -1            | 2 | lattice-search: -k: '-1' is out of range* | lattice-search -q a,b $H -k -1 @t.tsv
	-k junk          | 2 | lattice-search: -k: 'abc' is not an integer | lattice-search -q a,b $H -k abc @t.tsv
	-k too big       | 2 | lattice-search: -k: '99999999999999999999' is out of range * | lattice-search -q a,b $H -k 99999999999999999999 @t.tsv
	-l 0             | 2 | lattice-search: -l: '0' is out of range* | lattice-search -q a,b $H -s s -l 0 @t.tsv
	-l junk          | 2 | lattice-search: -l: 'abc' is not a number | lattice-search -q a,b $H -s s -l abc @t.tsv
	-l 1.5 distinct  | 2 | lattice-search: -l: '1.5':*integer | lattice-search -q a,b $H -s s -l 1.5 @t.tsv
	-l nan entropy   | 2 | lattice-search: -l: 'nan' is not a number | lattice-search -q a,b $H -s s -l nan --diversity entropy @t.tsv
	-l 2e9           | 2 | lattice-search: -l: '2000000000' is out of range* | lattice-search -q a,b $H -s s -l 2000000000 @t.tsv
	-c 0             | 2 | lattice-search: -c: '0' is not a positive number | lattice-search -q a,b $H -s s -l 2 --diversity recursive -c 0 @t.tsv
	-c junk          | 2 | lattice-search: -c: 'x' is not a decimal number (digits with an optional point, no exponent: kanon(7), Numbers) | lattice-search -q a,b $H -s s -l 2 --diversity recursive -c x @t.tsv
	--diversity junk | 2 | lattice-search: --diversity: 'bogus'* | lattice-search -q a,b $H -s s -l 2 --diversity bogus @t.tsv
	suppress -1      | 2 | lattice-search: --max-suppress: '-1' is out of range* | lattice-search -q a,b $H --max-suppress -1 @t.tsv
	suppress 101%    | 2 | lattice-search: --max-suppress: '101%' is not a percentage* | lattice-search -q a,b $H --max-suppress 101% @t.tsv
	suppress junk    | 2 | lattice-search: --max-suppress: 'x' is not an integer | lattice-search -q a,b $H --max-suppress x @t.tsv
	suppress 1.5     | 2 | lattice-search: --max-suppress: '1.5' is not an integer | lattice-search -q a,b $H --max-suppress 1.5 @t.tsv
	-j 0             | 2 | lattice-search: -j: '0' is out of range \[1, 64] | lattice-search -q a,b $H -j 0 @t.tsv
	-j 65            | 2 | lattice-search: -j: '65' is out of range \[1, 64] | lattice-search -q a,b $H -j 65 @t.tsv
	-a junk          | 2 | lattice-search: -a: 'bogus' is not an algorithm: incognito (or basic), super-roots, cube, samarati (or binary), bfs (or breadth-first), bfs-scan or flash, in any case| lattice-search -q a,b $H -a bogus @t.tsv
	--metric junk    | 2 | lattice-search: --metric: 'bogus' is not cdm* | lattice-search -q a,b $H --metric bogus @t.tsv
	-S junk          | 2 | lattice-search: -S: 'abc' is not a size* | lattice-search -q a,b $H -S abc @t.tsv
	EOF
}

@test "lattice-search: options that conflict or lack another" {
	bad_cases <<-EOF
	--all --best     | 2 | lattice-search: --all and --best exclude each other | lattice-search -q a,b $H --all --best @t.tsv
	-l without -s    | 2 | lattice-search: -l needs the sensitive column (-s) | lattice-search -q a,b $H -l 2 @t.tsv
	-s without -l    | 2 | lattice-search: -s: give the requirement on it with -l or --closeness | lattice-search -q a,b $H -s s @t.tsv
	-c not recursive | 2 | lattice-search: -c applies to --diversity recursive | lattice-search -q a,b $H -s s -l 2 -c 2 @t.tsv
	--diversity, no l| 2 | lattice-search: --diversity and -c apply to -l | lattice-search -q a,b $H -s s --diversity entropy @t.tsv
	unknown option   | 2 | lattice-search: --bogus: unknown option*usage: lattice-search* | lattice-search --bogus @t.tsv
	-o missing dir   | 2 | lattice-search: nodir/out: cannot create output* | lattice-search -q a,b $H -o nodir/out @t.tsv
	EOF
}

@test "lattice-search: --columns and --columns-file together are not refused" {
	bad_cases <<-EOF
	both             | 2 | lattice-search:*--columns*--columns-file* | lattice-search --columns x,y,z --columns-file cols.txt -q a $H @t.tsv
	EOF
}

@test "lattice-search: valid edge cases give the exact nodes" {
	printf 'a\tb\ts\n' > hdr.tsv
	printf 'a\tb\tcount\n' > hdrfs.tsv
	printf 'a\tb\ts\n1\tx\t5\n2\ty\t7\n1\tx\t9\n3\ty\t7' > nonl.tsv
	printf 'a\tb\ts\r\n1\tx\t5\r\n2\ty\t7\r\n1\tx\t9\r\n3\ty\t7\r\n' > crlf.tsv
	printf 'a\tb\ts\n1\tx\t5\n' > one.tsv
	printf 'a\tb\ts\n1\tx\t5\n1\tx\t5\n1\tx\t5\n' > same.tsv
	printf 'a\tb\tcount\n1\tx\t0\n2\ty\t0\n' > fszero.tsv
	printf 'a\tcount\n1\t18446744073709551614\n2\t1\n' > fshuge.tsv
	# t.tsv: a in 1, 2, 1, 3; b in x, y, x, y.  At (1,0) every a is
	# [0,5): classes ([0,5),x) and ([0,5),y) of 2 rows; prec is
	# 1 - (1/2 + 0) / 2 and loss (1 + 0) / 2.  With -s s -l 2 the y
	# class has one s, 7: the minimal node is (1,2), one class.
	ok_cases <<-EOF
	the table        | 0 | ${HDR}1\t0\t0\t2\t8\t1\t1\t0.75\t0.5\n | lattice-search -q a,b $H -k 2 @t.tsv
	its freqset      | 0 | ${HDR}1\t0\t0\t2\t8\t1\t1\t0.75\t0.5\n | lattice-search $H -k 2 @fs.tsv
	l-diversity      | 0 | ${HDR}1\t2\t0\t1\t16\t2\t3\t0.25\t1\n | lattice-search -q a,b $H -k 2 -s s -l 2 @t.tsv
	no final newline | 0 | ${HDR}1\t0\t0\t2\t8\t1\t1\t0.75\t0.5\n | lattice-search -q a,b $H -k 2 @nonl.tsv
	CRLF             | 0 | ${HDR}1\t2\t0\t1\t16\t2\t3\t0.25\t1\n | lattice-search -q a,b $H -k 2 -s s -l 2 @crlf.tsv
	header only      | 0 | ${HDR}0\t0\t0\t0\t0\t0\t0\t1\t0\n | lattice-search -q a,b $H -k 2 @hdr.tsv
	header, freqset  | 0 | ${HDR}0\t0\t0\t0\t0\t0\t0\t1\t0\n | lattice-search $H -k 5 @hdrfs.tsv
	zero counts      | 0 | ${HDR}0\t0\t0\t0\t0\t0\t0\t1\t0\n | lattice-search $H -k 5 @fszero.tsv
	headerless empty | 0 | ${HDR}0\t0\t0\t0\t0\t0\t0\t1\t0\n | lattice-search --columns a,b,s -q a,b $H @empty.tsv
	one row, k 1     | 0 | ${HDR}0\t0\t0\t1\t1\t1\t0\t1\t0\n | lattice-search -q a,b $H -k 1 @one.tsv
	one row, k 2     | 1 | $HDR | lattice-search -q a,b $H -k 2 @one.tsv
	one row, suppress| 0 | ${HDR}0\t0\t1\t0\t1\t0\t0\t0\t1\n | lattice-search -q a,b $H -k 2 --max-suppress 1 @one.tsv
	identical rows   | 0 | ${HDR}0\t0\t0\t1\t9\t1\t0\t1\t0\n | lattice-search -q a,b $H -k 3 @same.tsv
	k above the rows | 1 | $HDR | lattice-search -q a,b $H -k 5 @t.tsv
	k above, --best  | 1 | $HDR | lattice-search -q a,b $H -k 5 --best @t.tsv
	k above, 100%    | 0 | ${HDR}0\t0\t4\t0\t16\t0\t0\t0\t1\n | lattice-search -q a,b $H -k 5 --max-suppress 100% @t.tsv
	k huge           | 1 | $HDR | lattice-search -q a,b $H -k 9223372036854775807 @t.tsv
	EOF
	# C_DM passes 2^127: (2^64 - 2)^2 + 1 * (2^64 - 1).
	ok_cases <<-'EOF'
	counts near 2^64 | 0 | a\tsuppressed\tclasses\tcdm\tcavg\theight\tprec\tloss\n0\t1\t1\t340282366920938463408034375210639556611\t9.223372037e+18\t0\t1\t5.421010862e-20\n | lattice-search -H a=interval:5 -k 2 --max-suppress 1 @fshuge.tsv
	EOF
}

@test "lattice-search: a 1 MB value is a leaf like any other" {
	bad_big
	{ printf 'x\tX\t*\n'; cat bigval; printf '\tX\t*\n'; } > hbig.tsv
	# b at level 1: one class of 3 rows; prec 1 - 1/2, loss (2-1)/(2-1).
	ok_cases <<-'EOF'
	1 MB leaf        | 0 | b\tsuppressed\tclasses\tcdm\tcavg\theight\tprec\tloss\n1\t0\t1\t9\t1\t1\t0.5\t1\n | lattice-search -q b -H b=hbig.tsv -k 3 @big.tsv
	EOF
	bad_cases <<-'EOF'
	1 MB not a leaf  | 2 | lattice-search: @:3: column 'b': 'xxxx*'*not a leaf* | lattice-search -q b -H b=hb.tsv @big.tsv
	EOF
}

@test "lattice-search: bytes that are not UTF-8 are values and names like any other" {
	printf 'a\377\t\xc3\x28\n\xff\xfe\t1\n\x80\t2\n\xff\xfe\t3\n\x80\t4\n' > u.tsv
	printf '\xff\xfe\t\xed\xa0\x80\t*\n\x80\t\xed\xa0\x80\t*\n' > hu.tsv
	# Column 1 at level 1 puts all four rows in one class.
	ok_cases <<-'EOF'
	names and leaves | 0 | a\377\tsuppressed\tclasses\tcdm\tcavg\theight\tprec\tloss\n1\t0\t1\t16\t1.333333333\t1\t0.5\t1\n | lattice-search -q 1 -H "$(printf 'a\377')=hu.tsv" -k 3 @u.tsv
	EOF
}
