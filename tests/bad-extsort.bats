#!/usr/bin/env bats
# extsort on bad input: every case exits 2 with a message naming the file
# and line, on a file operand, on a pipe and with -o, never hanging,
# crashing, leaving a temp file or writing a partial output file; and the
# valid edge cases (header only, no final newline, CRLF, one row,
# identical rows, keys that are not numbers, a 1 MB field, bytes that are
# not UTF-8) with their exact output, checked against LC_ALL=C sort.  The
# tables and helpers are in bad.bash.  extsort has no k: -k gives keys.

load common
load bad

setup() {
	bad_setup
	printf 'a\tb\ts\n3\tx\t5\n1\ty\t7\n' > unsorted.tsv
	printf 'a\tb\ts\n1\tx\t5\n2\ty\t7\n' > sorted.tsv
	# A ragged row after the budget has spilled runs to TMPDIR.
	awk 'BEGIN { print "a\tb"; for (i = 0; i < 20000; i++)
		print (i * 7919) % 1000 "\t" i; print "1\t2\t3" }' > late.tsv
}

# The stdout of a failed sort: the header line may already be there (see
# the BUG test below); -o is never written.

@test "extsort: empty input, bad headers, ragged rows, NUL bytes" {
	bad_cases <<-'EOF'
	empty file       | 2 | extsort: @: empty input: expected a header line* | extsort @empty.tsv
	empty stdin      | 2 | extsort: stdin: empty input* | extsort -k a < empty.tsv
	empty, -m        | 2 | extsort: @: empty input* | extsort -m -k a @empty.tsv
	duplicate name   | 2 | extsort: @:1: column name 'a' appears twice* | extsort -k b @dup.tsv
	empty name       | 2 | extsort: @:1: column 2 has an empty name | extsort @noname.tsv
	short row        | 2+ | extsort: @:3: expected 3 fields, found 2 | extsort -k a @short.tsv
	long row         | 2+ | extsort: @:2: expected 3 fields, found 4 | extsort -k a:n @long.tsv
	ragged CRLF      | 2+ | extsort: @:3: expected 3 fields, found 4 | extsort @raggedcr.tsv
	ragged, spilled  | 2+ | extsort: @:20002: expected 2 fields, found 3 | extsort -S 64K -k a:n @late.tsv
	ragged, -m       | 2+ | extsort: short.tsv:3: expected 3 fields, found 2 | extsort -m -k a sorted.tsv short.tsv
	ragged headerless| 2+ | extsort: @:1: expected 2 fields, found 3 | extsort --columns a,b @t.tsv
	NUL in a row     | 2+ | extsort: @:3: field 2: NUL byte* | extsort -k a @nul.tsv
	NUL, -u          | 2+ | extsort: @:3: field 2: NUL byte* | extsort -u -k b @nul.tsv
	NUL in header    | 2 | extsort: @:1: field 2: NUL byte* | extsort @nulhdr.tsv
	other header     | 2+ | extsort: dup.tsv:1:* | extsort -k a t.tsv dup.tsv
	other header, -m | 2 | extsort: noname.tsv:1:* | extsort -m -k a sorted.tsv noname.tsv
	EOF
}

@test "extsort: unknown columns and bad keys" {
	bad_cases <<-'EOF'
	unknown key      | 2 | extsort: @: no column named 'c' | extsort -k a,c @t.tsv
	key beyond       | 2 | extsort: @: no column 4 (the table has 3) | extsort -k 4 @t.tsv
	key 0            | 2 | extsort: @: no column named '0' | extsort -k 0 @t.tsv
	key -1           | 2 | extsort: @: no column named '-1' | extsort -k -1 @t.tsv
	bad flag         | 2 | extsort: -k a:x: unknown key flag 'x'* | extsort -k a:x @t.tsv
	no keys          | 2 | extsort: -k '': no keys | extsort -k '' @t.tsv
	headerless       | 2 | extsort: --columns: no column named 'c' | extsort --columns a,b,s -k c @t.tsv
	--columns dup    | 2 | extsort: --columns: column name 'a' appears twice* | extsort --columns a,a,b @t.tsv
	EOF
}

@test "extsort: option values, unsorted -m input, options that conflict" {
	bad_cases <<-'EOF'
	-S junk          | 2 | extsort: -S: 'abc' is not a size* | extsort -S abc @t.tsv
	-S negative      | 2 | extsort: -S: '-1' is not a size* | extsort -S -1 @t.tsv
	-T not a dir     | 2+ | extsort: *t.tsv*Not a directory | extsort -S 64K -T t.tsv -k a:n @late.tsv
	-T missing       | 2+ | extsort: *nodir*No such file or directory | extsort -S 64K -T nodir -k a:n @late.tsv
	-m unsorted      | 2+ | extsort: @:3: input is not sorted by the keys (-m) | extsort -m -k a @unsorted.tsv
	-m second file   | 2+ | extsort: unsorted.tsv:3: input is not sorted* | extsort -m -k a sorted.tsv unsorted.tsv
	-m -u unsorted   | 2+ | extsort: @:3: input is not sorted* | extsort -m -u -k a:n @unsorted.tsv
	unknown option   | 2 | extsort: --bogus: unknown option*usage: extsort* | extsort --bogus @t.tsv
	missing argument | 2 | *usage: extsort* | extsort @t.tsv -k
	-o missing dir   | 2 | extsort: nodir/out: cannot create output* | extsort -o nodir/out @t.tsv
	EOF
}

@test "extsort: an empty key in a list is accepted" {
	bad_cases <<-'EOF'
	empty key        | 2 | extsort: -k*empty* | extsort -k a,,b @t.tsv
	EOF
}

@test "extsort: a failed sort writes the header on stdout" {
	bad_cases <<-'EOF'
	short row        | 2 | extsort: @:3: expected 3 fields, found 2 | extsort -k a @short.tsv
	NUL in a row     | 2 | extsort: @:3: field 2: NUL byte* | extsort -k a @nul.tsv
	other header     | 2 | extsort: dup.tsv:1:* | extsort -k a t.tsv dup.tsv
	-T not a dir     | 2 | extsort: *t.tsv*Not a directory | extsort -S 64K -T t.tsv -k a:n @late.tsv
	EOF
}

@test "extsort: --columns and --columns-file together are not refused" {
	bad_cases <<-'EOF'
	both             | 2 | extsort:*--columns*--columns-file* | extsort --columns x,y,z --columns-file cols.txt @t.tsv
	EOF
}

@test "extsort: valid edge cases give the exact order" {
	printf 'a\tb\ts\n' > hdr.tsv
	printf 'a\tb\ts' > hdrnonl.tsv
	printf 'a\tb\ts\r\n' > hdrcr.tsv
	printf 'a\tb\ts\n3\tx\t5\n1\ty\t7\n2\tx\t9' > nonl.tsv
	printf 'a\tb\ts\r\n3\tx\t5\r\n1\ty\t7\r\n2\tx\t9\r\n' > crlf.tsv
	printf 'a\tb\ts\n1\tx\t5\n' > one.tsv
	printf 'a\tb\ts\n1\tx\t5\n1\tx\t5\n1\tx\t5\n' > same.tsv
	# Equal keys keep their input order (-s); x1, '' and +5 are 0 as
	# numbers, -1 is below them.
	printf 'a\tb\n1\tp\nx1\tq\n\tr\n-1\ts\n+5\tt\n0\tu\n' > junk.tsv
	ok_cases <<-'EOF'
	header only      | 0 | a\tb\ts\n | extsort -k a:n @hdr.tsv
	header, no EOL   | 0 | a\tb\ts\n | extsort @hdrnonl.tsv
	header, CRLF     | 0 | a\tb\ts\n | extsort -k s @hdrcr.tsv
	header, -m       | 0 | a\tb\ts\n | extsort -m -k a hdr.tsv hdrcr.tsv
	header, -u       | 0 | a\tb\ts\n | extsort -u -k b @hdr.tsv
	header, no header| 0 |  | extsort --no-header -k a @hdr.tsv
	headerless empty | 0 |  | extsort --columns a,b,s -k a @empty.tsv
	no final newline | 0 | a\tb\ts\n1\ty\t7\n2\tx\t9\n3\tx\t5\n | extsort -k a:n @nonl.tsv
	CRLF             | 0 | a\tb\ts\n1\ty\t7\n2\tx\t9\n3\tx\t5\n | extsort -k a @crlf.tsv
	CRLF, last key   | 0 | a\tb\ts\n3\tx\t5\n1\ty\t7\n2\tx\t9\n | extsort -k s:n @crlf.tsv
	CRLF, whole line | 0 | a\tb\ts\n1\ty\t7\n2\tx\t9\n3\tx\t5\n | extsort @crlf.tsv
	one row          | 0 | a\tb\ts\n1\tx\t5\n | extsort -k a:nr @one.tsv
	one row, -m      | 0 | a\tb\ts\n1\tx\t5\n | extsort -m -k a @one.tsv
	identical rows   | 0 | a\tb\ts\n1\tx\t5\n1\tx\t5\n1\tx\t5\n | extsort -k b,a:n @same.tsv
	identical, -u    | 0 | a\tb\ts\n1\tx\t5\n | extsort -u -k a @same.tsv
	identical, -m -u | 0 | a\tb\ts\n1\tx\t5\n | extsort -m -u same.tsv same.tsv
	not numbers      | 0 | a\tb\n-1\ts\nx1\tq\n\tr\n+5\tt\n0\tu\n1\tp\n | extsort -k a:n @junk.tsv
	not numbers, -u  | 0 | a\tb\n-1\ts\nx1\tq\n1\tp\n | extsort -u -k a:n @junk.tsv
	EOF
}

@test "extsort: a 1 MB field is sorted whole, in memory and spilled" {
	bad_big
	{ head -n 1 big.tsv; tail -n +2 big.tsv |
	    LC_ALL=C sort -s -t "$(printf '\t')" -k2,2r; } > want.b
	{ head -n 1 big.tsv; tail -n +2 big.tsv | LC_ALL=C sort; } > want.l
	ok_cases <<-'EOF'
	1 MB key         | 0 | =want.b | extsort -k b:r @big.tsv
	1 MB, budget     | 0 | =want.b | extsort -S 64K -k b:r @big.tsv
	1 MB, whole line | 0 | =want.l | extsort -S 64K @big.tsv
	EOF
}

@test "extsort: bytes that are not UTF-8 pass through untouched" {
	printf 'a\377\tb\n\xff\xfe\t\xc3\x28\n\x80\t\xed\xa0\x80\n\xc3\x28\t\xff\n\x01\t\x7f\n' > u.tsv
	{ head -n 1 u.tsv; tail -n +2 u.tsv |
	    LC_ALL=C sort -s -t "$(printf '\t')" -k1,1; } > want.1
	{ head -n 1 u.tsv; tail -n +2 u.tsv |
	    LC_ALL=C sort -s -t "$(printf '\t')" -k2,2r; } > want.2
	ok_cases <<-'EOF'
	by column 1      | 0 | =want.1 | extsort -k 1 @u.tsv
	by bytes         | 0 | a\377\tb\n\x01\t\x7f\n\x80\t\xed\xa0\x80\n\xc3\x28\t\xff\n\xff\xfe\t\xc3\x28\n | extsort -k "$(printf 'a\377')" @u.tsv
	reversed         | 0 | =want.2 | extsort -S 64K -k b:r @u.tsv
	EOF
}
