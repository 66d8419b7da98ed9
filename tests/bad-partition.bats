#!/usr/bin/env bats
# partition on bad input: every case exits 2 with a message naming the
# file, line and column, on a file operand, on a pipe (copied to a spool
# file in TMPDIR) and with -o, in memory and out of core, never hanging,
# crashing, leaving a temp file or writing a partial table or regions
# file; the --job steps briefly; and the valid edge cases (header only,
# no final newline, CRLF, one row, identical rows, k above the rows, a
# 1 MB field, bytes that are not UTF-8) with their exact output, worked
# out by hand.  The tables and helpers are in bad.bash.

load common
load bad

setup() {
	bad_setup
	# A ragged row after 20000 good ones, for the out-of-core runs.
	awk 'BEGIN { print "a\tb"; for (i = 0; i < 20000; i++)
		print (i * 7919) % 1000 "\t" i; print "1\t2\t3" }' > late.tsv
	P='a\tb\ts\tclass\n1\tx\t5\t1\n2\ty\t7\t2\n1\tx\t9\t1\n3\ty\t7\t2\n'
	C='--columns a,b,s --tree tree'
	: > tree
	printf 'a\tb\ts\tclass\n1\tx\t5\t1\n' > part.tsv
	printf 'a\tb\ts\n1\tx\t5\n99999999999999999999\ty\t7\n' > huge.tsv
	printf 'a\tb\ts\n1\tx\t5\n1e3\ty\t7\n' > exp.tsv
	# Columns whose names the regions' header would take for a
	# range's (found by review: recode read them so).
	printf 'a\ta_missing\ts\n1\t0\tx\n2\t1\ty\n3\t0\tz\n4\t1\tw\n' > am.tsv
	printf '0\t0\t*\n1\t0\t*\n' > ham.tsv
	printf 'x\tx_min\tx_max\tx_mean\n5\t1\t7\t3\n5\t2\t8\t4\n' > xm.tsv
	printf '1\t0\t*\n2\t0\t*\n' > h1.tsv
	printf '7\t9\t*\n8\t9\t*\n' > h2.tsv
	printf '3\t5\t*\n4\t5\t*\n' > h3.tsv
}

@test "partition: empty input, bad headers, ragged rows, NUL bytes" {
	bad_cases <<-'EOF'
	empty file       | 2 | partition: @: empty input: expected a header line* | partition -k 1 -q a @empty.tsv
	empty stdin      | 2 | partition: stdin: empty input* | partition -k 1 -q a < empty.tsv
	empty, -S        | 2 | partition: @: empty input* | partition -k 1 -q a -S 1M @empty.tsv
	duplicate name   | 2 | partition: @:1: column name 'a' appears twice* | partition -k 1 -q b @dup.tsv
	empty name       | 2 | partition: @:1: column 2 has an empty name | partition -k 1 -q a @noname.tsv
	short row        | 2 | partition: @:3: expected 3 fields, found 2 | partition -k 1 -q a @short.tsv
	long row         | 2 | partition: @:2: expected 3 fields, found 4 | partition -k 1 -q a -r o/r @long.tsv
	ragged CRLF      | 2 | partition: @:3: expected 3 fields, found 4 | partition -k 1 -q a @raggedcr.tsv
	ragged, late     | 2 | partition: @:20002: expected 2 fields, found 3 | partition -q a -k 5 -r o/r @late.tsv
	ragged, -S       | 2 | partition: @:20002: expected 2 fields, found 3 | partition -q a -k 5 -S 1M --fit-rows 100 @late.tsv
	ragged, rothko-s | 2 | partition: @:20002: expected 2 fields, found 3 | partition -q a -k 5 -a rothko-s -S 1M --fit-rows 1000 @late.tsv
	ragged headerless| 2 | partition: @:1: expected 2 fields, found 3 | partition -k 1 --columns a,b -q a @t.tsv
	NUL in a row     | 2 | partition: @:3: field 2: NUL byte* | partition -k 1 -q a @nul.tsv
	NUL, not a QI    | 2 | partition: @:3: field 2: NUL byte* | partition -k 1 -q a -S 1M @nul.tsv
	NUL in header    | 2 | partition: @:1: field 2: NUL byte* | partition -k 1 -q a @nulhdr.tsv
	class column     | 2 | partition: @: the table has a column 'class' already* | partition -k 1 -q a @part.tsv
	two operands     | 2 | partition: *one table* | partition -k 1 -q a t.tsv t.tsv
	EOF
}

@test "partition: unknown columns and columns that clash" {
	bad_cases <<-'EOF'
	no -q            | 2 | partition: no quasi-identifiers: name them with -q | partition -k 2 @t.tsv
	unknown -q       | 2 | partition: @: no column named 'c' | partition -k 1 -q a,c @t.tsv
	-q beyond        | 2 | partition: @: no column 4 (the table has 3) | partition -k 1 -q 4 @t.tsv
	-q twice         | 2 | partition: column 'a' named twice in 'a,a' | partition -k 1 -q a,a @t.tsv
	-q empty item    | 2 | partition:*empty column name* | partition -k 1 -q a, @t.tsv
	unknown -s       | 2 | partition: @: no column named 'c' | partition -k 1 -q a -s c -l 1 @t.tsv
	unknown -t       | 2 | partition: @: no column named 'c' | partition -k 1 -q a -t c --split infogain @t.tsv
	-s is a QI       | 2 | partition: -s a is also a quasi-identifier | partition -k 1 -q a -s a -l 2 @t.tsv
	-t is a QI       | 2 | partition: -t a is also a quasi-identifier | partition -k 1 -q a -t a --split infogain @t.tsv
	--numeric not QI | 2 | partition: --numeric: 'b' is not a quasi-identifier | partition -k 1 -q a --numeric b @t.tsv
	-H unknown       | 2 | partition: -H c=hb.tsv: 'c' is not one of the grouped columns | partition -k 1 -q a -H c=hb.tsv @t.tsv
	--class-col taken| 2 | partition: @: the table has a column 'a' already | partition -k 1 -q a --class-col a @t.tsv
	--class-col ''   | 2 | partition: --class-col: '' is not a column name | partition -k 1 -q a --class-col '' @t.tsv
	-r is the input  | 2 | partition: -r t.tsv: the input file too (t.tsv): the regions would replace the table before its second pass; give them another file | partition -k 1 -q a -r t.tsv t.tsv
	-r is -o         | 2 | partition: -r and -o name the same file | partition -k 1 -q a -r o/r -o o/r @t.tsv
	-r, Q_missing    | 2 | partition: -r: the regions' header would read two ways against the columns of @, so recode -r could not read it* | partition -k 2 -q a,a_missing -H a_missing=ham.tsv -r o/r @am.tsv
	-r, Q_min..      | 2 | partition: -r: the regions' header would read two ways* | partition -k 2 -q x_min,x_max,x_mean -H x_min=h1.tsv -H x_max=h2.tsv -H x_mean=h3.tsv -r o/r @xm.tsv
	EOF
}

@test "partition: values that are not numbers or leaves" {
	bad_cases <<-'EOF'
	numeric QI x1    | 2 | partition: @:3: column 'a': 'x1' is not a decimal number (a column with a hierarchy* | partition -k 1 -q a @nonnum.tsv
	numeric QI, -S   | 2 | partition: @:3: column 'a': 'x1' is not a decimal number* | partition -k 1 -q a -S 1M @nonnum.tsv
	strings, no -H   | 2 | partition: @:2: column 'b': 'x' is not a decimal number* | partition -k 1 -q b @t.tsv
	--numeric b      | 2 | partition: @:2: column 'b': 'x' is not a decimal number* | partition -k 1 -q a,b -H b=hb.tsv --numeric b @t.tsv
	too many digits  | 2 | partition: @:3: column 'a': '99999999999999999999' does not fit a signed 64-bit integer* | partition -k 1 -q a @huge.tsv
	exponent         | 2 | partition: @:3: column 'a': '1e3'* | partition -k 1 -q a @exp.tsv
	interval: x1     | 2 | partition: @:3: column 'a': 'x1'* | partition -k 1 -q a -H a=interval:5 @nonnum.tsv
	not a leaf       | 2 | partition: @:4: column 'b': 'zz': value is not a leaf* | partition -k 1 -q a,b -H b=hb.tsv @notleaf.tsv
	not a leaf, -S   | 2 | partition: @:4: column 'b': 'zz'* | partition -k 1 -q b -H b=hb.tsv -S 1M @notleaf.tsv
	--variance x     | 2 | partition: @:3: column 's': 'abc' is not a number (--variance) | partition -k 1 -q a -s s --variance 1 @nonnums.tsv
	regression x     | 2 | partition: @:2: column 'b': 'x' is not a number (--split regression) | partition -k 1 -q a -t b --split regression @t.tsv
	EOF
}

@test "partition: bad hierarchy files" {
	bad_cases <<-'EOF'
	ragged           | 2 | partition: hragged.tsv:2: expected 3 levels* | partition -k 1 -q b -H b=hragged.tsv @t.tsv
	two parents      | 2 | partition: hnf.tsv:3:*'x'*two parents* | partition -k 1 -q b -H b=hnf.tsv @t.tsv
	two parents, lv1 | 2 | partition: hnf2.tsv:2:*'X'*two parents* | partition -k 1 -q b -H b=hnf2.tsv @t.tsv
	ARX ragged       | 2 | partition: hr.csv:2:* | partition -k 1 -q b -H b=hr.csv @t.tsv
	ARX two parents  | 2 | partition: hnf.csv:3:*'x'* | partition -k 1 -q b -H b=hnf.csv @t.tsv
	ARX bad quote    | 2 | partition: hq.csv:2:* | partition -k 1 -q b -H b=hq.csv @t.tsv
	NUL              | 2 | partition: hnul.tsv:2: field 1: NUL byte* | partition -k 1 -q b -H b=hnul.tsv @t.tsv
	empty            | 2 | partition: hempty.tsv: empty hierarchy | partition -k 1 -q b -H b=hempty.tsv @t.tsv
	missing          | 2 | partition: -H b=nosuch.tsv: the hierarchy file: No such file or directory | partition -k 1 -q b -H b=nosuch.tsv @t.tsv
	directory        | 2 | partition: hdir/b.tsv:2:* | partition -k 1 -q b -H hdir @t.tsv
	interval:5,7     | 2 | partition: -H a=interval:5,7:*multiple* | partition -k 1 -q a -H a=interval:5,7 @t.tsv
	EOF
}

@test "partition: k, l, c, variance, alpha and sizes out of range" {
	bad_cases <<-'EOF'
	-k 0             | 2 | partition: -k: '0' is out of range* | partition -q a -k 0 @t.tsv
	-k -1            | 2 | partition: -k: '-1' is out of range* | partition -q a -k -1 @t.tsv
	-k junk          | 2 | partition: -k: 'abc' is not an integer | partition -q a -k abc @t.tsv
	-l 0             | 2 | partition: -l: '0' is out of range* | partition -k 1 -q a -s s -l 0 @t.tsv
	-l junk          | 2 | partition: -l: 'abc' is not a number | partition -k 1 -q a -s s -l abc @t.tsv
	-l 1.5           | 2 | partition: -l: '1.5':*integer | partition -k 1 -q a -s s -l 1.5 @t.tsv
	-c 0             | 2 | partition: -c: '0' is not a positive number | partition -k 1 -q a -s s -l 2 --diversity recursive -c 0 @t.tsv
	-c junk          | 2 | partition: -c: 'x' is not a decimal number (digits with an optional point, no exponent: kanon(7), Numbers) | partition -k 1 -q a -s s -l 2 --diversity recursive -c x @t.tsv
	--diversity junk | 2 | partition: --diversity: 'bogus'* | partition -k 1 -q a -s s -l 2 --diversity bogus @t.tsv
	--variance -1    | 2 | partition: --variance: '-1' is not a number >= 0 | partition -k 1 -q a -s s --variance -1 @t.tsv
	--variance junk  | 2 | partition: --variance: 'x'* | partition -k 1 -q a -s s --variance x @t.tsv
	--alpha 0        | 2 | partition: --alpha: '0' is out of range* | partition -k 1 -q a -a rothko-s --alpha 0 @t.tsv
	--alpha 0.6      | 2 | partition: --alpha: '0.6' is out of range* | partition -k 1 -q a -a rothko-s --alpha 0.6 @t.tsv
	--alpha junk     | 2 | partition: --alpha: 'x' is not a number | partition -k 1 -q a -a rothko-s --alpha x @t.tsv
	--alpha nan      | 2 | partition: --alpha: 'nan' is not a number | partition -k 1 -q a -a rothko-s --alpha nan @t.tsv
	--sample 1       | 2 | partition: --sample: '1' is out of range* | partition -k 1 -q a -a rothko-s --sample 1 @t.tsv
	--seed -1        | 2 | partition: --seed: '-1' is out of range* | partition -k 1 -q a -a rothko-s --seed -1 @t.tsv
	--fcache 0       | 2 | partition: --fcache: '0' is out of range* | partition -k 1 -q a -S 1M --fcache 0 @t.tsv
	--fcache 1025    | 2 | partition: --fcache: '1025' is out of range* | partition -k 1 -q a -S 1M --fcache 1025 @t.tsv
	--fit-rows 0     | 2 | partition: --fit-rows: '0' is out of range* | partition -k 1 -q a -S 1M --fit-rows 0 @t.tsv
	-S junk          | 2 | partition: -S: 'abc' is not a size* | partition -k 1 -q a -S abc @t.tsv
	-a junk          | 2 | partition: -a: 'bogus' is not an algorithm: mondrian (or memory), rothko-t or rothko-s, in any case | partition -k 1 -q a -a bogus @t.tsv
	--split junk     | 2 | partition: --split: 'bogus' is not median, infogain or regression | partition -k 1 -q a --split bogus @t.tsv
	-S too small     | 2 | partition: -S 1b: too small* | partition -k 1 -q a -S 1b @late.tsv
	EOF
}

@test "partition: options that conflict or lack another" {
	bad_cases <<-'EOF'
	-l without -s    | 2 | partition: -l needs the sensitive column (-s) | partition -k 1 -q a -l 2 @t.tsv
	-s alone         | 2 | partition: -s needs a requirement on it (-l, --variance or --closeness) | partition -k 1 -q a -s s @t.tsv
	-c not recursive | 2 | partition: -c applies to --diversity recursive | partition -k 1 -q a -s s -l 2 -c 2 @t.tsv
	infogain, no -t  | 2 | partition: --split infogain needs the target column (-t) | partition -k 1 -q a --split infogain @t.tsv
	--alpha, memory  | 2 | partition: --sample, --seed, --alpha and --naive are for -a rothko-s | partition -k 1 -q a --alpha 0.1 @t.tsv
	--naive, memory  | 2 | partition: --sample, --seed, --alpha and --naive are for -a rothko-s | partition -k 1 -q a --naive @t.tsv
	--seed, -S       | 2 | partition: --sample, --seed, --alpha and --naive are for -a rothko-s | partition -k 1 -q a -S 1M --seed 3 @t.tsv
	relaxed, -s, -S  | 2 | partition: --relaxed with -s or a split other than median runs in memory only | partition -k 1 -q a --relaxed -S 1M -s s -l 1 @t.tsv
	relaxed rothko-s | 2 | partition: --relaxed runs in memory or with -a rothko-t only | partition -k 1 -q a --relaxed -a rothko-s @t.tsv
	-k space first   | 2 | partition: -k: ' 3' is not an integer | partition -q a -k ' 3' @t.tsv
	-l space first   | 2 | partition: -l: ' 2' is not a number | partition -q a -k 1 -s b -l ' 2' @t.tsv
	unknown option   | 2 | partition: --bogus: unknown option*usage: partition* | partition -k 1 --bogus @t.tsv
	-o missing dir   | 2 | partition: nodir/out: cannot create output* | partition -k 1 -q a -o nodir/out @t.tsv
	-r missing dir   | 2 | partition: nodir/r: cannot create output* | partition -k 1 -q a -r nodir/r @t.tsv
	EOF
}

@test "partition: no partitioning exits 1 and writes nothing" {
	printf 'a\tb\ts\n1\tx\t5\n' > one.tsv
	bad_cases <<-'EOF'
	k above the rows | 1 | partition: @: no partitioning: the whole table (4 rows) does not meet the requirements | partition -q a -k 5 -r o/r @t.tsv
	k above, -S      | 1 | partition: @: no partitioning* | partition -q a -k 5 -S 1M -r o/r @t.tsv
	k above, rothko-s| 1 | partition: @: no partitioning* | partition -q a -k 5 -a rothko-s -r o/r @t.tsv
	k huge           | 1 | partition: @: no partitioning* | partition -q a -k 9223372036854775807 @t.tsv
	one row, k 2     | 1 | partition: @: no partitioning: the whole table (1 rows)* | partition -q a -k 2 @one.tsv
	l above distinct | 1 | partition: @: no partitioning* | partition -k 1 -q a -s b -l 3 -r o/r @t.tsv
	variance above   | 1 | partition: @: no partitioning* | partition -k 1 -q a -s s --variance 2.5 @t.tsv
	EOF
}

@test "partition: --job steps on bad input and trees" {
	printf 'garbage\n' > badtree
	# Region lines edited or cut short (review: '-' for a number went
	# into the regions file with exit 0).
	printf 'region\tr\t2\t1\t-\t3\n' > rtree
	printf 'region\tr\t2\t1\t5\t9\n' > mtree
	printf 'region\tr\t2\t1\t5\n' > stree
	printf 'domain\ta\t1\t20\t0\ncut\tr\ta\t189\n' > ctree
	printf '1\tx\t5\n2\ty\n' > split.tsv
	# The digest of the options in the groups' n lines.
	H1=$(partition -k 1 -q a $C --job groups < /dev/null | cut -f 3)
	[ ${#H1} -eq 16 ]
	bad_cases <<-EOF
	unknown job      | 2 | partition: --job: 'bogus' is not groups, cuts, rows, solve, classes, regions or open | partition -k 1 -q a $C --job bogus
	no --tree        | 2 | partition: --job open needs the tree file (--tree) | partition -k 1 -q a --columns a,b,s --job open
	no --columns     | 2 | partition: --job open: name the table's columns with --columns or --columns-file* | partition -k 1 -q a --tree tree --job open
	missing tree     | 2 | partition: nosuch: No such file or directory | partition -k 1 -q a --columns a,b,s --tree nosuch --job open
	bad tree         | 2 | partition: badtree:1: not a line of a partition tree | partition -k 1 -q a --columns a,b,s --tree badtree --job open
	generated -H     | 2 | partition: --job: b: a generated hierarchy*give a hierarchy file | partition -k 1 -q a,b -H b=interval:5 $C --job open
	--relaxed        | 2 | partition: --job runs Rothko-T's steps: -a, --relaxed and -r do not apply* | partition -k 1 -q a --relaxed $C --job open
	-r               | 2 | partition: --job runs Rothko-T's steps* | partition -k 1 -q a -r o/r $C --job open
	-k 0             | 2 | partition: -k: '0' is out of range* | partition -q a -k 0 $C --job open
	groups, ragged   | 2 | partition: @:2: expected 3 fields, found 2 | partition -k 1 -q a $C --job groups @split.tsv
	groups, header   | 2 | partition: @:1: column 'a': 'a' is not a decimal number* | partition -k 1 -q a $C --job groups @t.tsv
	groups, x1       | 2 | partition: @:3: column 'a': 'x1'* | partition -k 1 -q a $C --skip-header --job groups @nonnum.tsv
	groups, NUL      | 2 | partition: @:3: field 2: NUL byte* | partition -k 1 -q a $C --skip-header --job groups @nul.tsv
	groups, not leaf | 2 | partition: @:4: column 'b': 'zz'* | partition -k 1 -q b -H b=hb.tsv $C --skip-header --job groups @notleaf.tsv
	# cuts and solve write to stdout only (env: no run with -o).
	cuts, a table    | 2 | partition: --job cuts reads no table* | env partition -k 1 -q a $C --job cuts t.tsv
	cuts, -o         | 2 | partition: --job cuts writes to the standard output | partition -k 1 -q a $C --job cuts -o o/old
	solve, -o        | 2 | partition: --job solve writes to the standard output | partition -k 1 -q a $C --job solve -o o/old
	cuts, short line | 2 | partition: stdin:1: node r: expected 5 fields after the node* | printf 'r\tx\n' | partition -k 1 -q a $C --job cuts
	cuts, bad count  | 2 | partition: stdin:1: 'x' is not a count | printf 'r\tn\t$H1\t\t\tx\n' | partition -k 1 -q a $C --job cuts
	cuts, bad value  | 2 | partition: stdin:1: node r: 'zz' is not a number | printf 'r\t0\tzz\t\t\t2\nr\tn\t$H1\t\t\t2\n' | partition -k 1 -q a $C --job cuts
	cuts, lost rows  | 2 | partition: node r: 1 rows, but the groups of a count 2* | printf 'r\t0\t1\t\t\t2\nr\tn\t$H1\t\t\t1\n' | partition -k 1 -q a $C --job cuts
	cuts, other opts | 2 | partition: stdin:2: node r: the groups were counted with other options than these (their digest is '$H1', these options' *): give every step the same options | printf 'r\t0\t1\t\t\t2\nr\tn\t$H1\t\t\t2\n' | partition -k 2 -q a $C --job cuts
	cuts, no node    | 2 | partition: node q is not a node in tree* | printf 'q\t0\t1\t\t\t2\n' | partition -k 1 -q a $C --job cuts
	rows, open tree  | 2 | partition: tree: node r is still open* | partition -k 1 -q a $C --job rows @split.tsv
	solve, open tree | 2 | partition: node r is not to be solved in tree* | printf 'r\t1\tx\t5\n' | partition -k 1 -q a $C --job solve
	regions, open    | 2 | partition: tree: node r is not partitioned yet* | partition -k 1 -q a $C --job regions
	region, no number | 2 | partition: rtree:1: a bad region line: not the range or node of each quasi-identifier | partition -k 1 -q a --columns a,b,s --tree rtree --job regions
	region, mean past | 2 | partition: mtree:1: a bad region line: not the range or node of each quasi-identifier | partition -k 1 -q a --columns a,b,s --tree mtree --job regions
	region, cut short | 2 | partition: stree:1: a bad region line: not the range or node of each quasi-identifier | partition -k 1 -q a --columns a,b,s --tree stree --job regions
	cut, past range   | 2 | partition: ctree:2: a bad cut | partition -k 1 -q a --columns a,b,s --tree ctree --job open
	classes, open    | 2 | partition: tree: node r is not partitioned yet* | partition -k 1 -q a $C --job classes @split.tsv
	EOF
}

@test "partition: --job cuts names the reducer's input and line for a bad groups line" {
	bad_cases <<-EOF
	cuts, short line | 2 | partition: stdin:1: * | printf 'r\tx\n' | partition -k 1 -q a $C --job cuts
	cuts, bad value  | 2 | partition: stdin:1: * | printf 'r\t0\tzz\t\t\t2\nr\tn\t\t\t\t2\n' | partition -k 1 -q a $C --job cuts
	EOF
}

@test "partition: --columns and --columns-file together are not refused" {
	bad_cases <<-'EOF'
	both             | 2 | partition:*--columns*--columns-file* | partition -k 1 --columns x,y,z --columns-file cols.txt -q a @t.tsv
	EOF
}

@test "partition: valid edge cases give the exact classes and regions" {
	printf 'a\tb\ts\n' > hdr.tsv
	printf 'a\tb\ts\n1\tx\t5\n2\ty\t7\n1\tx\t9\n3\ty\t7' > nonl.tsv
	printf 'a\tb\ts\r\n1\tx\t5\r\n2\ty\t7\r\n1\tx\t9\r\n3\ty\t7\r\n' > crlf.tsv
	printf 'a\tb\ts\n1\tx\t5\n' > one.tsv
	printf 'a\tb\ts\n1\tx\t5\n1\tx\t5\n1\tx\t5\n' > same.tsv
	printf 'a\tb\ts\n1.0\tx\t5\n+2\ty\t7\n001\tx\t9\n3.00\ty\t7\n' > spelled.tsv
	cp t.tsv t2.tsv
	# t.tsv, -q a -k 2: a in 1, 2, 1, 3 is cut at 1; with -l 2 or
	# --variance 2 the part of 2 and 3 (s 7 and 7) fails: one class.
	R='class\tcount\ta_min\ta_max\ta_mean\n'
	ok_cases <<-EOF
	the table        | 0 | $P | partition -q a -k 2 @t.tsv
	by the hierarchy | 0 | $P | partition -q b -H b=hb.tsv -k 2 @t.tsv
	regions          | 0 | ${R}1\t2\t1\t1\t1\n2\t2\t2\t3\t2.5\n | partition -q a -k 2 -o /dev/null -r r.out @t.tsv && cat r.out && rm r.out
	regions, -H      | 0 | class\tcount\tb\n1\t2\tx\n2\t2\ty\n | partition -q b -H b=hb.tsv -k 2 -o /dev/null -r r.out @t.tsv && cat r.out && rm r.out
	-l 2: one class  | 0 | a\tb\ts\tclass\n1\tx\t5\t1\n2\ty\t7\t1\n1\tx\t9\t1\n3\ty\t7\t1\n | partition -k 1 -q a -s s -l 2 @t.tsv
	--variance 2     | 0 | a\tb\ts\tclass\n1\tx\t5\t1\n2\ty\t7\t1\n1\tx\t9\t1\n3\ty\t7\t1\n | partition -k 1 -q a -s s --variance 2 @t.tsv
	out of core      | 0 | $P | partition -q a -k 2 -S 1M --fit-rows 1 @t.tsv
	rothko-s         | 0 | $P | partition -q a -k 2 -a rothko-s @t.tsv
	spelled numbers  | 0 | a\tb\ts\tclass\n1.0\tx\t5\t1\n+2\ty\t7\t2\n001\tx\t9\t1\n3.00\ty\t7\t2\n | partition -q a -k 2 @spelled.tsv
	header only      | 0 | a\tb\ts\tclass\n | partition -q a -k 2 @hdr.tsv
	header only, -S  | 0 | a\tb\ts\tclass\n | partition -q a -k 2 -S 1M @hdr.tsv
	header, 2 -s var | 0 | a\tb\ts\tclass\n | partition -q a -k 1 -s b,s --variance 1 @hdr.tsv
	header, 2 -s, -S | 0 | a\tb\ts\tclass\n | partition -q a -k 1 -s b,s --variance 1 -l 2 -S 1M @hdr.tsv
	header, regions  | 0 | $R | partition -q a -k 2 -o /dev/null -r r.out @hdr.tsv && cat r.out && rm r.out
	headerless empty | 0 |  | partition --columns a,b,s -q a -k 2 @empty.tsv
	no final newline | 0 | $P | partition -q a -k 2 @nonl.tsv
	CRLF             | 0 | $P | partition -q a -k 2 @crlf.tsv
	CRLF, -S         | 0 | $P | partition -q a -k 2 -S 1M @crlf.tsv
	one row          | 0 | a\tb\ts\tclass\n1\tx\t5\t1\n | partition -k 1 -q a,b -H b=hb.tsv @one.tsv
	identical rows   | 0 | a\tb\ts\tclass\n1\tx\t5\t1\n1\tx\t5\t1\n1\tx\t5\t1\n | partition -q a,b -H b=hb.tsv -k 1 @same.tsv
	identical, k 3   | 0 | a\tb\ts\tclass\n1\tx\t5\t1\n1\tx\t5\t1\n1\tx\t5\t1\n | partition -q a -k 3 -S 1M @same.tsv
	identical, relax | 0 | a\tb\ts\tclass\n1\tx\t5\t1\n1\tx\t5\t1\n1\tx\t5\t1\n | partition -q a -k 2 --relaxed @same.tsv
	in place         | 0 | $P | partition -q a -k 2 -o t2.tsv t2.tsv; cat t2.tsv; cp t.tsv t2.tsv
	EOF
}

@test "partition: --job steps on valid edge cases" {
	printf '1\tx\t5\n2\ty\t7\n1\tx\t9\n3\ty\t7\n' > split.tsv
	H2=$(partition -k 2 -q a $C --job groups < /dev/null | cut -f 3)
	ok_cases <<-EOF
	open, empty tree | 0 | r\n | partition -q a -k 2 $C --job open
	groups           | 0 | r\tn\t$H2\t\t\t4\nr\t0\t1\t\t\t2\nr\t0\t2\t\t\t1\nr\t0\t3\t\t\t1\n | partition -q a -k 2 $C --job groups @split.tsv
	groups, header   | 0 | r\tn\t$H2\t\t\t4\nr\t0\t1\t\t\t2\nr\t0\t2\t\t\t1\nr\t0\t3\t\t\t1\n | partition -q a -k 2 $C --skip-header --job groups @t.tsv
	groups, empty    | 0 | r\tn\t$H2\t\t\t0\n | partition -q a -k 2 $C --job groups @empty.tsv
	EOF
}

@test "partition: a 1 MB field passes through whole" {
	bad_big
	awk 'NR == 1 { print $0 "\tclass"; next }
	    { print $0 "\t" ($1 == 1 ? 1 : 2) }' big.tsv > want.b
	ok_cases <<-'EOF'
	1 MB, in memory  | 0 | =want.b | partition -k 1 -q a @big.tsv
	1 MB, -S         | 0 | =want.b | partition -k 1 -q a -S 1M @big.tsv
	EOF
	bad_cases <<-'EOF'
	1 MB not a leaf  | 2 | partition: @:3: column 'b': 'xxxx*'* | partition -k 1 -q b -H b=hb.tsv @big.tsv
	1 MB not number  | 2 | partition: @:3: column 's': 'xxxx*' is not a number* | partition -k 1 -q a -s s --variance 1 @bignum.tsv
	EOF
}

@test "partition: bytes that are not UTF-8 pass through untouched" {
	printf 'a\377\t\xc3\x28\ts\n\xff\xfe\t\x80\t\xed\xa0\x80\n\x80\t\xff\t\x01\n\xff\xfe\tx\t\x7f\n\x80\ty\t\x02\n' > u.tsv
	printf '\xff\xfe\t\xc0\t*\n\x80\t\xc1\t*\n' > hu.tsv
	U='a\377\t\xc3\x28\ts\tclass\n\xff\xfe\t\x80\t\xed\xa0\x80\t1\n\x80\t\xff\t\x01\t2\n\xff\xfe\tx\t\x7f\t1\n\x80\ty\t\x02\t2\n'
	ok_cases <<-EOF
	QI and others    | 0 | $U | partition -q 1 -H "\$(printf 'a\377')=hu.tsv" -k 2 @u.tsv
	regions          | 0 | class\tcount\ta\377\n1\t2\t\xff\xfe\n2\t2\t\x80\n | partition -q 1 -H "\$(printf 'a\377')=hu.tsv" -k 2 -o /dev/null -r r.out @u.tsv && cat r.out && rm r.out
	EOF
}

@test "partition -a rothko-s --fit-rows 1 names --fit-rows, not -S (found by review)" {
	cd "$BATS_TEST_TMPDIR"
	gendata -n 100 --seed 1 uniform -d 2 -c 10 > g.tsv
	run --separate-stderr partition -q a1,a2 -k 2 -a rothko-s --fit-rows 1 g.tsv
	[ "$status" -eq 2 ] && [ -z "$output" ]
	[ "$stderr" = "partition: --fit-rows 1: a sample of Rothko-S takes at most --fit-rows rows, and needs two: give --fit-rows 2 or more" ]
	partition -q a1,a2 -k 2 -a rothko-s --fit-rows 2 g.tsv > /dev/null
}
