#!/usr/bin/env bats
# score on bad input: every case exits 2 with a message naming the file,
# line and column, on a file operand, on a pipe and with -o, never
# hanging, crashing or writing a partial output; and the valid edge cases
# (header only, no final newline, CRLF, one row, identical rows, all rows
# suppressed, a 1 MB field, bytes that are not UTF-8) with their exact
# figures, worked out by hand.  The tables and helpers are in bad.bash.

load common
load bad

setup() {
	bad_setup
	# Workloads over the columns a and b of t.tsv.
	printf 'a\tb\n1\tx\n..2\t\n' > wl.tsv
	printf 'a\tb\n1\tx\n..\ty\n' > wlbad.tsv
	printf 'a\tb\n1\tx\n2\n' > wlshort.tsv
	printf 'a\tc\n1\tx\n' > wlcol.tsv
	printf 'a\tb\n1\0\tx\n' > wlnul.tsv
	printf 'a\tb\ts\n[1-3]\tx\t5\n[1-3]\tzz\t7\n' > relleaf.tsv
	# Sums no numbers have: 2 values of sum 10 have squares of at least 50.
	printf 'a\tcount\ts_sum\ts_sumsq\n1\t2\t10\t49\n' > fsbadsum.tsv
	printf 'a\tcount\ts_sum\ts_sumsq\n1\t2\t10\t50\n2\t1\t3\t9\n2\t1\t3\t8\n' > fsbadsum2.tsv
}

@test "score: empty input, bad headers, ragged rows, NUL bytes" {
	bad_cases <<-'EOF'
	empty file       | 2 | score: @: empty input: expected a header line* | score @empty.tsv
	empty stdin      | 2 | score: stdin: empty input* | score < empty.tsv
	empty, --freqset | 2 | score: @: empty input* | score --freqset @empty.tsv
	empty original   | 2 | score: empty.tsv: empty input* | score -q a --original empty.tsv --workload-auto a @t.tsv
	empty workload   | 2 | score: empty.tsv: empty input* | score -q a --original t.tsv --workload empty.tsv @t.tsv
	duplicate name   | 2 | score: @:1: column name 'a' appears twice* | score @dup.tsv
	empty name       | 2 | score: @:1: column 2 has an empty name | score -q a @noname.tsv
	short row        | 2 | score: @:3: expected 3 fields, found 2 | score -q a @short.tsv
	long row         | 2 | score: @:2: expected 3 fields, found 4 | score -k 2 @long.tsv
	ragged CRLF      | 2 | score: @:3: expected 3 fields, found 4 | score @raggedcr.tsv
	ragged freqset   | 2 | score: @:3: expected 2 fields, found 1 | score --freqset @fsshort.tsv
	ragged original  | 2 | score: short.tsv:3: expected 3 fields, found 2 | score -q a --original short.tsv --workload-auto a @t.tsv
	NUL in workload  | 2 | score: wlnul.tsv:2: field 1: NUL byte* | score -q a,b --original t.tsv --workload wlnul.tsv @t.tsv
	ragged workload  | 2 | score: wlshort.tsv:3: expected 2 fields, found 1 | score -q a,b --original t.tsv --workload wlshort.tsv @t.tsv
	ragged headerless| 2 | score: @:1: expected 2 fields, found 3 | score --columns a,b @t.tsv
	NUL in a row     | 2 | score: @:3: field 2: NUL byte* | score -q a @nul.tsv
	NUL in header    | 2 | score: @:1: field 2: NUL byte* | score @nulhdr.tsv
	NUL in original  | 2 | score: nul.tsv:3: field 2: NUL byte* | score -q a,b --original nul.tsv --workload-auto b @t.tsv
	NUL, --plot      | 2 | score: @:3: field 2: NUL byte* | score --plot a,s @nul.tsv
	two operands     | 2 | score: one table at a time* | score t.tsv t.tsv
	EOF
}

@test "score: unknown columns and columns that clash" {
	bad_cases <<-'EOF'
	unknown -q       | 2 | score: @: no column named 'c' | score -q a,c @t.tsv
	-q beyond        | 2 | score: @: no column 4 (the table has 3) | score -q 4 @t.tsv
	-q twice         | 2 | score:*'a'*twice* | score -q a,1 @t.tsv
	unknown -s       | 2 | score: @: no column named 'c' | score -q a -s c @t.tsv
	unknown -t       | 2 | score: @: no column named 'c' | score -q a -t c @t.tsv
	-s is a QI       | 2 | score: -s a is also a quasi-identifier | score -q a -s a @t.tsv
	-t is a QI       | 2 | score: -t 1 is also a quasi-identifier | score -q a -t 1 @t.tsv
	freqset -q count | 2 | score: -q: 'count' is not a key column* | score --freqset -q count @fs.tsv
	freqset no count | 2 | score: @: no 'count' column* | score --freqset @t.tsv
	freqset no sums  | 2 | score: @: no column named 's_sum' | score --freqset -q a -s s --variance 1 @fs.tsv
	--plot unknown   | 2 | score: @: no column named 'c' | score --plot a,c @t.tsv
	--plot one col   | 2 | score: --plot: 'a': expected two columns X,Y | score --plot a @t.tsv
	--class-col      | 2 | score: @: no column named 'zz' | score --plot a,s --class-col zz @t.tsv
	workload column  | 2 | score: wlcol.tsv: column 'c' is not a quasi-identifier* | score -q a,b --original t.tsv --workload wlcol.tsv @t.tsv
	--workload-auto  | 2 | score: @: no column named 'c' | score -q a,b --original t.tsv --workload-auto c @t.tsv
	auto, not a QI   | 2 | score: --workload-auto: 's' is not a quasi-identifier* | score -q a,b --original t.tsv --workload-auto s @t.tsv
	original lacks b | 2 | score: fs.tsv: no column named 's'* | score -q a,s --original fs.tsv --workload-auto s @t.tsv
	-H unknown       | 2 | score: -H c=hb.tsv: 'c' is not one of the grouped columns | score -q a,b --original t.tsv --workload-auto b -H c=hb.tsv @t.tsv
	EOF
}

@test "score: values that are not numbers, counts, ranges or leaves" {
	bad_cases <<-'EOF'
	--variance x     | 2 | score: @:3: column 's': 'abc' is not a number | score -q a -s s --variance 1 @nonnums.tsv
	--plot x         | 2 | score: @:2: column 'b': 'x' is not a number | score --plot a,b @t.tsv
	--plot x1        | 2 | score: @:3: column 'a': 'x1' is not a number | score --plot a,s @nonnum.tsv
	freqset count x  | 2 | score: @:3: column 'count': 'x' is not a count | score --freqset @fsbad.tsv
	freqset count -1 | 2 | score: @:3: column 'count': '-1' is not a count | score --freqset @fsneg.tsv
	sums, no numbers | 2 | score: @: column 's_sumsq': the sums of class '1' are not those of any numbers* | score --freqset -q a -s s --variance 1 @fsbadsum.tsv
	sums, 2 lines    | 2 | score: @: column 's_sumsq': the sums of class '2' are not* | score --freqset -q a -s s --variance 0 @fsbadsum2.tsv
	not a range      | 2 | score: @: column 'a': 'x1' is neither a number nor a range* | score -q a,b --original t.tsv --workload-auto a @nonnum.tsv
	not a leaf, orig | 2 | score: notleaf.tsv:4: column 'b': 'zz'*leaf* | score -q a,b --original notleaf.tsv --workload-auto b -H b=hb.tsv @t.tsv
	not a node, rel  | 2 | score: @: column 'b': 'zz'* | score -q a,b --original t.tsv --workload-auto b -H b=hb.tsv @relleaf.tsv
	workload ..      | 2 | score: wlbad.tsv:3: column 'a': '..' is neither a value nor a range* | score -q a,b --original t.tsv --workload wlbad.tsv @t.tsv
	EOF
}

@test "score: bad hierarchy files" {
	bad_cases <<-'EOF'
	ragged           | 2 | score: hragged.tsv:2: expected 3 levels* | score -q a,b --original t.tsv --workload-auto b -H b=hragged.tsv @t.tsv
	two parents      | 2 | score: hnf.tsv:3:*'x'*two parents* | score -q a,b --original t.tsv --workload-auto b -H b=hnf.tsv @t.tsv
	two parents, lv1 | 2 | score: hnf2.tsv:2:*'X'*two parents* | score -q a,b --original t.tsv --workload-auto b -H b=hnf2.tsv @t.tsv
	ARX ragged       | 2 | score: hr.csv:2:* | score -q a,b --original t.tsv --workload-auto b -H b=hr.csv @t.tsv
	ARX bad quote    | 2 | score: hq.csv:2:* | score -q a,b --original t.tsv --workload-auto b -H b=hq.csv @t.tsv
	NUL              | 2 | score: hnul.tsv:2: field 1: NUL byte* | score -q a,b --original t.tsv --workload-auto b -H b=hnul.tsv @t.tsv
	empty            | 2 | score: hempty.tsv: empty hierarchy | score -q a,b --original t.tsv --workload-auto b -H b=hempty.tsv @t.tsv
	missing          | 2 | score: -H b=nosuch.tsv: the hierarchy file: No such file or directory | score -q a,b --original t.tsv --workload-auto b -H b=nosuch.tsv @t.tsv
	directory        | 2 | score: hdir/b.tsv:2:* | score -q a,b --original t.tsv --workload-auto b -H hdir @t.tsv
	interval:, x1    | 2 | score: nonnum.tsv:3: column 'a': 'x1'* | score -q a,b --original nonnum.tsv --workload-auto a -H a=interval:5 @t.tsv
	# A hierarchy of a quasi-identifier that the workload does not use
	# is checked all the same.
	unused, ragged   | 2 | score: hragged.tsv:2: expected 3 levels* | score -q a,b --original t.tsv --workload-auto a -H b=hragged.tsv @t.tsv
	unused, 2 parents| 2 | score: hnf.tsv:3:*'x'*two parents* | score -q a,b --original t.tsv --workload-auto a -H b=hnf.tsv @t.tsv
	EOF
}

@test "score: k, l, c, variance and threshold out of range" {
	bad_cases <<-'EOF'
	-k 0             | 2 | score: -k: '0' is out of range* | score -k 0 @t.tsv
	-k -1            | 2 | score: -k: '-1' is out of range* | score -k -1 @t.tsv
	-k junk          | 2 | score: -k: 'abc' is not an integer | score -k abc @t.tsv
	-k 1.5           | 2 | score: -k: '1.5' is not an integer | score -k 1.5 @t.tsv
	-k too big       | 2 | score: -k: '99999999999999999999' is out of range * | score -k 99999999999999999999 @t.tsv
	-l 0             | 2 | score: -l: '0' is out of range* | score -q a -s s -l 0 @t.tsv
	-l -2            | 2 | score: -l: '-2' is out of range* | score -q a -s s -l -2 @t.tsv
	-l junk          | 2 | score: -l: 'abc' is not a number | score -q a -s s -l abc @t.tsv
	-l nan           | 2 | score: -l: 'nan' is not a number | score -q a -s s -l nan --diversity entropy @t.tsv
	-l inf           | 2 | score: -l: 'inf' is not a finite number | score -q a -s s -l inf --diversity entropy @t.tsv
	-l 1.5 distinct  | 2 | score: -l: '1.5': distinct and recursive diversity need an integer | score -q a -s s -l 1.5 @t.tsv
	-l 1e10          | 2 | score: -l: '1e10' is out of range* | score -q a -s s -l 1e10 @t.tsv
	-l 0.5 entropy   | 2 | score: -l: '0.5' is out of range* | score -q a -s s -l 0.5 --diversity entropy @t.tsv
	-c 0             | 2 | score: -c: '0' is not a positive number | score -q a -s s -l 2 --diversity recursive -c 0 @t.tsv
	-c -1            | 2 | score: -c: '-1' is not a positive number | score -q a -s s -l 2 --diversity recursive -c -1 @t.tsv
	-c junk          | 2 | score: -c: 'abc' is not a decimal number* | score -q a -s s -l 2 --diversity recursive -c abc @t.tsv
	--diversity junk | 2 | score: --diversity: 'bogus' is not distinct, entropy or recursive | score -q a -s s -l 2 --diversity bogus @t.tsv
	--variance -1    | 2 | score: --variance: '-1' is not a number >= 0 | score -q a -s s --variance -1 @t.tsv
	--variance 1e3   | 2 | score: --variance: '1e3' is not a decimal number* | score -q a -s s --variance 1e3 @t.tsv
	--variance nan   | 2 | score: --variance: 'nan' is not a decimal number* | score -q a -s s --variance nan @t.tsv
	--threshold 0    | 2 | score: --threshold: '0' is out of range* | score --threshold 0 @t.tsv
	--threshold x    | 2 | score: --threshold: 'x' is not an integer | score --threshold x @t.tsv
	-S junk          | 2 | score: -S: 'abc' is not a size* | score -S abc @t.tsv
	EOF
}

@test "score: options that conflict or lack another" {
	bad_cases <<-'EOF'
	-l without -s    | 2 | score: -l and --variance need the sensitive column (-s) | score -q a -l 2 @t.tsv
	--variance, no -s| 2 | score: -l and --variance need the sensitive column (-s) | score -q a --variance 1 @t.tsv
	-c not recursive | 2 | score: -c applies to --diversity recursive | score -q a -s s -l 2 -c 2 @t.tsv
	-c entropy       | 2 | score: -c applies to --diversity recursive | score -q a -s s -l 2 --diversity entropy -c 2 @t.tsv
	--diversity, no l| 2 | score: --diversity and -c apply to -l | score -q a -s s --diversity entropy @t.tsv
	--check nothing  | 2 | score: --check: nothing to check* | score --check @t.tsv
	--plot -k        | 2 | score: --plot draws the classes: it takes no metric, check, risk, report or workload options | score --plot a,s -k 2 @t.tsv
	--plot -s        | 2 | score: --plot draws the classes* | score --plot a,s -s b @t.tsv
	workload alone   | 2 | score: a workload needs the original table (--original) | score -q a --workload-auto a @t.tsv
	both workloads   | 2 | score: --workload and --workload-auto exclude each other | score -q a,b --original t.tsv --workload-auto a --workload wl.tsv @t.tsv
	-H, not a QI     | 2 | score: *'c' is not one of the grouped columns* | score -q a,b -H c=hb.tsv @t.tsv
	unknown option   | 2 | score: --bogus: unknown option*usage: score* | score --bogus @t.tsv
	fraction space   | 2 | score: --sampling-fraction: ' 0.5' is not a number in (0, 1]* | score -q a -k 1 --sampling-fraction ' 0.5' @t.tsv
	fraction 5e-1    | 2 | score: --sampling-fraction: '5e-1' is not a number in (0, 1]* | score -q a -k 1 --sampling-fraction 5e-1 @t.tsv
	-o missing dir   | 2 | score: nodir/out: cannot create output* | score -o nodir/out @t.tsv
	EOF
}

@test "score: --columns and --columns-file together are not refused" {
	bad_cases <<-'EOF'
	both             | 2 | score:*--columns*--columns-file* | score --columns x,y,z --columns-file cols.txt @t.tsv
	EOF
}

@test "score: valid edge cases give the exact figures" {
	printf 'a\tb\ts\n' > hdr.tsv
	printf 'a\tb\ts' > hdrnonl.tsv
	printf 'a\tb\ts\n1\tx\t5\n2\ty\t7\n1\tx\t9\n3\ty\t7' > nonl.tsv
	printf 'a\tb\ts\r\n1\tx\t5\r\n2\ty\t7\r\n1\tx\t9\r\n3\ty\t7\r\n' > crlf.tsv
	printf 'a\tb\ts\n1\tx\t5\n' > one.tsv
	printf 'a\tb\ts\n1\tx\t5\n1\tx\t5\n1\tx\t5\n' > same.tsv
	printf 'a\tb\ts\n*\t*\t5\n*\t*\t7\n' > allsup.tsv
	printf 'a\tb\tcount\n' > hdrfs.tsv
	printf 'a\tb\tcount\ts_sum\ts_sumsq\n1\tx\t3\t15\t75\n' > fssum.tsv
	# The figures of t.tsv with -q a,b -k 2: classes of 2, 1 and 1 rows.
	printf 'rows\t4\nsuppressed\t0\nclasses\t3\nclass_size_min\t1
class_size_max\t2\nclass_size_mean\t1.333333333\ncdm\t6
cavg\t0.6666666667\nrisk_max\t1\nrisk_mean\t0.75\nthreshold\t2
rows_below_threshold\t2\nshare_below_threshold\t0.5\ncheck_k\tfail\n' > want.t
	# CRLF: s must be read without its CR, so 7 and 7 are one value.
	{ sed '/^check_k/d' want.t
	  printf 'l_distinct_min\t1\nl_entropy_min\t1\ncheck_k\tfail\n'
	  printf 'check_l_distinct\tpass\n'; } > want.l
	printf 'rows\t0\nsuppressed\t0\nclasses\t0\nclass_size_min\t0
class_size_max\t0\nclass_size_mean\t0\ncdm\t0\ncavg\t0\nrisk_max\t0
risk_mean\t0\nthreshold\t2\nrows_below_threshold\t0
share_below_threshold\t0\ncheck_k\tpass\n' > want.hdr
	printf 'rows\t1\nsuppressed\t0\nclasses\t1\nclass_size_min\t1
class_size_max\t1\nclass_size_mean\t1\ncdm\t1\ncavg\t1\nrisk_max\t1
risk_mean\t1\nthreshold\t1\nrows_below_threshold\t0
share_below_threshold\t0\nl_distinct_min\t1\nl_entropy_min\t1
check_k\tpass\ncheck_l_distinct\tpass\n' > want.one
	printf 'rows\t3\nsuppressed\t0\nclasses\t1\nclass_size_min\t3
class_size_max\t3\nclass_size_mean\t3\ncdm\t9\ncavg\t1
risk_max\t0.3333333333\nrisk_mean\t0.3333333333\nthreshold\t3
rows_below_threshold\t0\nshare_below_threshold\t0\nvariance_min\t0
check_k\tpass\ncheck_variance\tpass\n' > want.same
	printf 'rows\t2\nsuppressed\t2\nclasses\t0\nclass_size_min\t0
class_size_max\t0\nclass_size_mean\t0\ncdm\t4\ncavg\t0\nrisk_max\t0
risk_mean\t0\nthreshold\t2\nrows_below_threshold\t0
share_below_threshold\t0\nl_distinct_min\t0\nl_entropy_min\t0
check_k\tpass\ncheck_l_distinct\tpass\n' > want.sup
	# k above the rows: every row is below the threshold.
	printf 'rows\t4\nsuppressed\t0\nclasses\t3\nclass_size_min\t1
class_size_max\t2\nclass_size_mean\t1.333333333\ncdm\t6
cavg\t0.2666666667\nrisk_max\t1\nrisk_mean\t0.75\nthreshold\t5
rows_below_threshold\t4\nshare_below_threshold\t1\ncheck_k\tfail\n' > want.k5
	ok_cases <<-'EOF'
	the table        | 0 | =want.t | score -q a,b -k 2 @t.tsv
	k above the rows | 1 | =want.k5 | score -q a,b -k 5 --check @t.tsv
	--check fails    | 1 | =want.t | score -q a,b -k 2 --check @t.tsv
	header only      | 0 | =want.hdr | score -q a,b -k 2 @hdr.tsv
	header, no EOL   | 0 | =want.hdr | score -q a,b -k 2 @hdrnonl.tsv
	header, --check  | 0 | =want.hdr | score -q a,b -k 2 --check @hdr.tsv
	empty freqset    | 0 | =want.hdr | score --freqset -q a,b -k 2 @hdrfs.tsv
	headerless empty | 0 | =want.hdr | score --columns a,b,s -q a,b -k 2 @empty.tsv
	no final newline | 0 | =want.t | score -q a,b -k 2 @nonl.tsv
	CRLF             | 0 | =want.l | score -q a,b -k 2 -s s -l 1 @crlf.tsv
	the freqset      | 0 | =want.t | score --freqset -k 2 @fs.tsv
	one row          | 0 | =want.one | score -q a,b -k 1 -s s -l 1 @one.tsv
	identical rows   | 0 | =want.same | score -q a,b -k 3 -s s --variance 0 --check @same.tsv
	identical, fs    | 0 | =want.same | score --freqset -q a,b -k 3 -s s --variance 0 fssum.tsv
	all suppressed   | 0 | =want.sup | score -q a,b -k 2 -s s -l 2 --check @allsup.tsv
	EOF
	# Counts near 2^64: C_DM = (2^64 - 2)^2 + 1 passes 2^127.
	printf 'a\tcount\n1\t18446744073709551614\n2\t1\n' > fshuge.tsv
	printf 'a\tcount\n1\t18446744073709551614\n2\t2\n' > fsover.tsv
	printf 'rows\t18446744073709551615\nsuppressed\t0\nclasses\t2
class_size_min\t1\nclass_size_max\t18446744073709551614
class_size_mean\t9.223372037e+18\ncdm\t340282366920938463389587631136930004997
cavg\t4.611686018e+18\nrisk_max\t1\nrisk_mean\t1.084202172e-19
threshold\t2\nrows_below_threshold\t1\nshare_below_threshold\t5.421010862e-20
check_k\tfail\n' > want.huge
	ok_cases <<-'EOF'
	counts near 2^64 | 0 | =want.huge | score --freqset -k 2 @fshuge.tsv
	EOF
	bad_cases <<-'EOF'
	counts overflow  | 2 | score:*overflows 64 bits* | score --freqset -k 2 @fsover.tsv
	EOF
}

@test "score: a 1 MB field is one value" {
	bad_big
	printf 'rows\t3\nsuppressed\t0\nclasses\t2\nclass_size_min\t1
class_size_max\t2\nclass_size_mean\t1.5\ncdm\t5\nrisk_max\t1
risk_mean\t0.6666666667\nthreshold\t2\nrows_below_threshold\t1
share_below_threshold\t0.3333333333\n' > want.b
	printf 'rows\t3\nsuppressed\t0\nclasses\t2\nclass_size_min\t1
class_size_max\t2\nclass_size_mean\t1.5\ncdm\t5\nrisk_max\t1
risk_mean\t0.6666666667\nthreshold\t2\nrows_below_threshold\t1
share_below_threshold\t0.3333333333\nl_distinct_min\t1\nl_entropy_min\t1\n' > want.s
	ok_cases <<-'EOF'
	1 MB QI value    | 0 | =want.b | score -q b @big.tsv
	1 MB sensitive   | 0 | =want.s | score -q a -s b @big.tsv
	EOF
	bad_cases <<-'EOF'
	1 MB, --plot     | 2 | score: @:3: column 's': 'xxxx*' is not a number | score --plot a,s @bignum.tsv
	1 MB, --variance | 2 | score: @:3: column 's': 'xxxx*' is not a number | score -q a -s s --variance 1 @bignum.tsv
	EOF
}

@test "score: bytes that are not UTF-8 are values like any other" {
	# Three classes by bytes: \xff\xfe (2 rows), \xff (1), \xc3\x28 (1).
	printf 'a\377\tb\n\xff\xfe\t1\n\xff\t1\n\xc3\x28\t2\n\xff\xfe\t2\n' > u.tsv
	printf 'rows\t4\nsuppressed\t0\nclasses\t3\nclass_size_min\t1
class_size_max\t2\nclass_size_mean\t1.333333333\ncdm\t6\nrisk_max\t1
risk_mean\t0.75\nthreshold\t2\nrows_below_threshold\t2
share_below_threshold\t0.5\nl_distinct_min\t1\nl_entropy_min\t1\n' > want.u
	# --plot writes the column names and classes as they are.
	printf 'x\377\ty\tclass\n1\t2\t\xff\n3\t4\t\xfe\n' > p.tsv
	printf '<title>x\377 by y: 2 rows in 2 classes</title>\n' > want.p
	printf '<rect x="879.00" y="49.00" width="2.00" height="2.00"><title>\376: 1 row</title></rect>\n' >> want.p
	printf '<rect x="99.00" y="829.00" width="2.00" height="2.00"><title>\377: 1 row</title></rect>\n' >> want.p
	printf '<text x="490" y="890" text-anchor="middle">x\377</text>\n' >> want.p
	ok_cases <<-'EOF'
	QI not UTF-8     | 0 | =want.u | score -q "$(printf 'a\377')" -s b @u.tsv
	by number        | 0 | =want.u | score -q 1 -s 2 @u.tsv
	--plot, bytes    | 0 | =want.p | score --plot 1,2 p.tsv | grep -a -e title -e '>x'
	EOF
}
