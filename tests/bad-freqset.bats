#!/usr/bin/env bats
# freqset on bad input: every case exits 2 with a message naming the
# file, line and column, on a file operand, on a pipe and with -o, never
# hanging, crashing or writing a partial output; and the valid edge cases
# (header only, no final newline, CRLF, one row, identical rows, a 1 MB
# field, bytes that are not UTF-8) with their exact output.  The tables
# and helpers are in bad.bash.

load common
load bad

setup() {
	bad_setup
	printf 'a\nb\0\ns\n' > colsnul.txt
}

@test "freqset: empty input, bad headers, ragged rows, NUL bytes" {
	bad_cases <<-'EOF'
	empty file       | 2 | freqset: @: empty input: expected a header line* | freqset @empty.tsv
	empty stdin      | 2 | freqset: stdin: empty input* | freqset < empty.tsv
	empty, -q        | 2 | freqset: @: empty input* | freqset -q a @empty.tsv
	duplicate name   | 2 | freqset: @:1: column name 'a' appears twice* | freqset @dup.tsv
	empty name       | 2 | freqset: @:1: column 2 has an empty name | freqset @noname.tsv
	short row        | 2 | freqset: @:3: expected 3 fields, found 2 | freqset @short.tsv
	long row         | 2 | freqset: @:2: expected 3 fields, found 4 | freqset -q a @long.tsv
	ragged CRLF      | 2 | freqset: @:3: expected 3 fields, found 4 | freqset @raggedcr.tsv
	ragged, --merge  | 2 | freqset: @:3: expected 2 fields, found 1 | freqset --merge @fsshort.tsv
	ragged, --sorted | 2+ | freqset: @:3: expected 2 fields, found 1 | freqset --merge --sorted @fsshort.tsv
	ragged headerless| 2 | freqset: @:1: expected 2 fields, found 3 | freqset --columns a,b @t.tsv
	NUL in a row     | 2 | freqset: @:3: field 2: NUL byte* | freqset @nul.tsv
	NUL, not a key   | 2 | freqset: @:3: field 2: NUL byte* | freqset -q a @nul.tsv
	NUL in header    | 2 | freqset: @:1: field 2: NUL byte* | freqset @nulhdr.tsv
	second file      | 2 | freqset: short.tsv:3: expected 3 fields, found 2 | freqset t.tsv short.tsv
	other header     | 2 | freqset: dup.tsv:1: header differs* | freqset t.tsv dup.tsv
	EOF
}

@test "freqset: unknown columns and bad column lists" {
	bad_cases <<-'EOF'
	unknown -q       | 2 | freqset: @: no column named 'c' | freqset -q a,c @t.tsv
	-q beyond        | 2 | freqset: @: no column 4 (the table has 3) | freqset -q 4 @t.tsv
	-q 0             | 2 | freqset: @: no column named '0' | freqset -q 0 @t.tsv
	-q twice         | 2 | freqset: column 'a' named twice* | freqset -q a,1 @t.tsv
	-q empty item    | 2 | freqset: empty column name in list 'a,' | freqset -q a, @t.tsv
	-q count         | 2 | freqset:*'count'* | freqset -q count @fs.tsv
	unknown --sum    | 2 | freqset: @: no column named 'c' | freqset --sum c @t.tsv
	unknown -H       | 2 | freqset: -H c=hb.tsv: 'c' is not one of the grouped columns | freqset -H c=hb.tsv @t.tsv
	-H not a key     | 2 | freqset: -H b=hb.tsv: 'b' is not one of the grouped columns | freqset -q a -H b=hb.tsv @t.tsv
	-L not a key     | 2 | freqset: -L b=1: 'b' is not a grouped column | freqset -q a -H a=interval:5 -L b=1 @t.tsv
	--columns unknown| 2 | freqset:*'a'* | freqset --columns x,y,z -q a @t.tsv
	--columns dup    | 2 | freqset: --columns: column name 'a' appears twice* | freqset --columns a,a,b @t.tsv
	--columns empty  | 2 | freqset: --columns: column 2 has an empty name | freqset --columns a,,b @t.tsv
	--columns-file 0 | 2 | freqset: colsnul.txt:2: field 1: NUL byte* | freqset --columns-file colsnul.txt @t.tsv
	--columns-file 0 | 2 | freqset: empty.tsv: no column names | freqset --columns-file empty.tsv @t.tsv
	--merge no count | 2 | freqset: @: no 'count' column* | freqset --merge @t.tsv
	--merge -q count | 2 | freqset: -q: 'count' is not a key column* | freqset --merge -q count @fs.tsv
	EOF
}

@test "freqset: values that are not numbers, digits, counts or leaves" {
	bad_cases <<-'EOF'
	--sum not number | 2 | freqset: @:3: column 'a': 'x1' is not a number | freqset --sum a @nonnum.tsv
	--sum, key       | 2 | freqset: @:3: column 's': 'abc' is not a number | freqset -q a,s --sum s @nonnums.tsv
	interval: x1     | 2 | freqset: @:3: column 'a': 'x1': value is not a number (interval:5) | freqset -H a=interval:5 @nonnum.tsv
	interval: -L     | 2 | freqset: @:3: column 'a': 'x1'* | freqset -H a=interval:5 -L a=1 @nonnum.tsv
	mask: x1         | 2 | freqset: @:3: column 'a': 'x1'* | freqset -H a=mask:1 @nonnum.tsv
	not a leaf       | 2 | freqset: @:4: column 'b': 'zz': value is not a leaf of the hierarchy (hb.tsv) | freqset -H b=hb.tsv @notleaf.tsv
	not a leaf, -L   | 2 | freqset: @:4: column 'b': 'zz'* | freqset -q b -H b=hb.tsv -L b=2 @notleaf.tsv
	--merge count x  | 2 | freqset: @:3: column 'count': 'x' is not a count | freqset --merge @fsbad.tsv
	--merge count -1 | 2 | freqset: @:3: column 'count': '-1' is not a count | freqset --merge @fsneg.tsv
	--merge not leaf | 2 | freqset: @:3: column 'b': 'zz'* | freqset --merge -H b=hb.tsv @fsleaf.tsv
	--sorted count x | 2+ | freqset: @:3: column 'count': 'x' is not a count | freqset --merge --sorted @fsbad.tsv
	--sorted order   | 2+ | freqset: @:3: the frequency set is not sorted* | freqset --merge --sorted @fsunsorted.tsv
	EOF
}

@test "freqset: bad hierarchy files" {
	bad_cases <<-'EOF'
	ragged           | 2 | freqset: hragged.tsv:2: expected 3 levels* | freqset -q b -H b=hragged.tsv @t.tsv
	two parents      | 2 | freqset: hnf.tsv:3:*'x'*two parents* | freqset -q b -H b=hnf.tsv @t.tsv
	two parents, lv1 | 2 | freqset: hnf2.tsv:2:*'X'*two parents* | freqset -q b -H b=hnf2.tsv @t.tsv
	ARX ragged       | 2 | freqset: hr.csv:2:* | freqset -q b -H b=hr.csv @t.tsv
	ARX two parents  | 2 | freqset: hnf.csv:3:*'x'* | freqset -q b -H b=hnf.csv @t.tsv
	ARX bad quote    | 2 | freqset: hq.csv:2:* | freqset -q b -H b=hq.csv @t.tsv
	NUL              | 2 | freqset: hnul.tsv:2: field 1: NUL byte* | freqset -q b -H b=hnul.tsv @t.tsv
	empty file       | 2 | freqset: hempty.tsv: empty hierarchy | freqset -q b -H b=hempty.tsv @t.tsv
	missing file     | 2 | freqset: -H b=nosuch.tsv: the hierarchy file: No such file or directory | freqset -q b -H b=nosuch.tsv @t.tsv
	directory, ragged| 2 | freqset: hdir/b.tsv:2:* | freqset -q b -H hdir @t.tsv
	-L above the top | 2 | freqset: -L*'3'*out of range* | freqset -q b -H b=hb.tsv -L b=3 @t.tsv
	-L negative      | 2 | freqset: -L*'-1'* | freqset -q b -H b=hb.tsv -L b=-1 @t.tsv
	-L no hierarchy  | 2 | freqset: -L a=1: 'a' has no hierarchy* | freqset -L a=1 @t.tsv
	interval:0       | 2 | freqset: -H a=interval:0:*'0'* | freqset -H a=interval:0 @t.tsv
	interval:5,7     | 2 | freqset: -H a=interval:5,7:*multiple* | freqset -H a=interval:5,7 @t.tsv
	mask:2,1         | 2 | freqset: -H a=mask:2,1: 1 after 2: each level masks more digits than the one before | freqset -H a=mask:2,1 @t.tsv
	mask past an int | 2 | freqset: -H a=mask:4294967298: '4294967298' is not a count of digits to mask, from 1 to 64 | freqset -H a=mask:4294967298 @t.tsv
	mask:1,4294967299| 2 | freqset: -H a=mask:1,4294967299: '4294967299' is not*from 1 to 64 | freqset -H a=mask:1,4294967299 @t.tsv
	mask:65          | 2 | freqset: -H a=mask:65: '65' is not*from 1 to 64 | freqset -H a=mask:65 @t.tsv
	mask:+2          | 2 | freqset: -H a=mask:+2: '+2' is not*from 1 to 64 | freqset -H a=mask:+2 @t.tsv
	-H no =          | 2 | freqset: -H 'a': expected ATTR=FILE* | freqset -H a @t.tsv
	EOF
}

@test "freqset: option values and options that conflict" {
	bad_cases <<-'EOF'
	-S junk          | 2 | freqset: -S: 'abc' is not a size* | freqset -S abc @t.tsv
	-S negative      | 2 | freqset: -S: '-1' is not a size* | freqset -S -1 @t.tsv
	-T not a dir     | 2 | freqset: cannot create a temp file in t.tsv: Not a directory | freqset -S 1b -T t.tsv @t.tsv
	--sum --merge    | 2 | freqset: --sum does not apply to --merge* | freqset --merge --sum count @fs.tsv
	--sorted alone   | 2 | freqset: --sorted applies to --merge only | freqset --sorted @t.tsv
	--sorted -H      | 2 | freqset: --sorted*-H and -L do not apply | freqset --merge --sorted -H b=hb.tsv @fs.tsv
	--sorted -q part | 2 | freqset:*-q* | freqset --merge --sorted -q b @fs.tsv
	-L no =          | 2 | freqset: -L a: expected attr=level | freqset -H a=interval:5 -L a @t.tsv
	unknown option   | 2 | freqset: --bogus: unknown option*usage: freqset* | freqset --bogus @t.tsv
	missing argument | 2 | freqset: -q: needs a value*usage: freqset* | freqset @t.tsv -q
	-j space first   | 2 | freqset: -j: ' 2' is not an integer | freqset -j ' 2' @t.tsv
	-j newline first | 2 | freqset: -j: '??2' is not an integer | freqset -j $'\n2' @t.tsv
	-o missing dir   | 2 | freqset: nodir/out: cannot create output* | freqset -o nodir/out @t.tsv
	EOF
}

@test "freqset: --columns and --columns-file together are not refused" {
	bad_cases <<-'EOF'
	both             | 2 | freqset:*--columns*--columns-file* | freqset --columns x,y,z --columns-file cols.txt @t.tsv
	EOF
}

@test "freqset: a key column named count: message without file and line" {
	bad_cases <<-'EOF'
	key named count  | 2 | freqset: @:1: column 'count' clashes* | freqset @fs.tsv
	EOF
}

@test "freqset: an overflowing count names no file and line" {
	printf 'a\tcount\n1\t18446744073709551615\n1\t1\n' > fsover.tsv
	bad_cases <<-'EOF'
	count overflow   | 2 | freqset: @:3: column 'count':*overflows* | freqset --merge @fsover.tsv
	EOF
}

@test "freqset: -o through a dangling symlink replaces the link" {
	ln -s new.tsv o/link
	run --separate-stderr freqset -q a -o o/link t.tsv
	[ "$status" -eq 0 ]
	[ -L o/link ] || { ls -l o; false; }
	[ "$(cat o/new.tsv)" = "$(printf 'a\tcount\n1\t2\n2\t1\n3\t1')" ]
}

@test "freqset: valid edge cases give the exact frequency set" {
	printf 'a\tb\ts\n' > hdr.tsv
	printf 'a\tb\ts' > hdrnonl.tsv
	printf 'a\tb\ts\r\n' > hdrcr.tsv
	printf 'a\tb\ts\n1\tx\t5\n2\ty\t7\n1\tx\t9' > nonl.tsv
	printf 'a\tb\ts\r\n1\tx\t5\r\n2\ty\t7\r\n1\tx\t9\r\n' > crlf.tsv
	printf 'a\tb\ts\n1\tx\t5\n' > one.tsv
	printf 'a\tb\ts\n1\tx\t5\n1\tx\t5\n1\tx\t5\n' > same.tsv
	printf 'a\tb\tcount\n1\tx\t3\n' > fs3.tsv
	printf 'a\tb\tcount\n' > hdrfs.tsv
	ok_cases <<-'EOF'
	header only      | 0 | a\tb\ts\tcount\n | freqset @hdr.tsv
	header, no EOL   | 0 | a\tb\ts\tcount\n | freqset @hdrnonl.tsv
	header, CRLF     | 0 | a\tb\ts\tcount\n | freqset @hdrcr.tsv
	header, -q, -H   | 0 | b\tcount\n | freqset -q b -H b=hb.tsv -L b=1 @hdr.tsv
	header, --sum    | 0 | a\tcount\ts_sum\ts_sumsq\n | freqset -q a --sum s @hdr.tsv
	header, --merge  | 0 | a\tb\tcount\n | freqset --merge @hdrfs.tsv
	no final newline | 0 | a\tb\tcount\n1\tx\t2\n2\ty\t1\n | freqset -q a,b @nonl.tsv
	CRLF             | 0 | a\tb\ts\tcount\n1\tx\t5\t1\n1\tx\t9\t1\n2\ty\t7\t1\n | freqset @crlf.tsv
	CRLF, last col   | 0 | s\tcount\n5\t1\n7\t1\n9\t1\n | freqset -q s @crlf.tsv
	one row          | 0 | a\tb\ts\tcount\n1\tx\t5\t1\n | freqset @one.tsv
	one row, -L      | 0 | b\tcount\n*\t1\n | freqset -q b -H b=hb.tsv -L b=2 @one.tsv
	one row, --sum   | 0 | a\tcount\ts_sum\ts_sumsq\n1\t1\t5\t25\n | freqset -q a --sum s @one.tsv
	identical rows   | 0 | a\tb\ts\tcount\n1\tx\t5\t3\n | freqset @same.tsv
	identical, --sum | 0 | b\tcount\ts_sum\ts_sumsq\nx\t3\t15\t75\n | freqset -q b --sum s @same.tsv
	identical, merge | 0 | a\tb\tcount\n1\tx\t6\n | freqset --merge fs3.tsv fs3.tsv
	headerless empty | 0 | a\tb\ts\tcount\n | freqset --columns a,b,s @empty.tsv
	EOF
}

@test "freqset: a 1 MB field is counted whole" {
	bad_big
	{ printf 'b\tcount\nx\t2\n'; cat bigval; printf '\t1\n'; } > want.b
	{ printf 'a\tb\tcount\n1\tx\t2\n2\t'; cat bigval; printf '\t1\n'; } > want.ab
	{ printf 'b\tcount\n'; cat bigval; printf '\t1\n'; } > bigval.fs
	{ printf 'b\tcount\n'; cat bigval; printf '\t2\n'; } > want.merge
	ok_cases <<-'EOF'
	1 MB key         | 0 | =want.b | freqset -q b @big.tsv
	1 MB key, 2 keys | 0 | =want.ab | freqset -q a,b @big.tsv
	1 MB, --merge    | 0 | =want.merge | freqset --merge bigval.fs bigval.fs
	EOF
	bad_cases <<-'EOF'
	1 MB not a leaf  | 2 | freqset: @:3: column 'b': 'xxxx*'* | freqset -q b -H b=hb.tsv @big.tsv
	1 MB not number  | 2 | freqset: @:3: column 's': 'xxxx*' is not a number | freqset --sum s @bignum.tsv
	EOF
}

@test "freqset: bytes that are not UTF-8 pass through untouched" {
	printf 'a\377\tb\n\xff\xfe\t\xc3\x28\n\x80\t\xed\xa0\x80\n\xff\xfe\t\xc3\x28\n' > u.tsv
	printf '\xff\xfe\tX\t*\n\x80\tX\t*\n' > hu.tsv
	# The expected output, by awk and LC_ALL=C sort.
	{ printf 'a\377\tb\tcount\n'
	  awk 'NR > 1 { n[$0]++ } END { for (k in n) print k "\t" n[k] }' u.tsv |
	      LC_ALL=C sort; } > want.u
	printf 'a\377\tcount\nX\t3\n' > want.h
	ok_cases <<-'EOF'
	not UTF-8        | 0 | =want.u | freqset @u.tsv
	not UTF-8, bytes | 0 | a\377\tb\tcount\n\x80\t\xed\xa0\x80\t1\n\xff\xfe\t\xc3\x28\t2\n | freqset @u.tsv
	not UTF-8 leaves | 0 | =want.h | freqset -q 1 -H "$(printf 'a\377')=hu.tsv" -L "$(printf 'a\377')=1" @u.tsv
	EOF
}
