#!/usr/bin/env bats
# CSV in and out (kanon(7), CSV): random tables written as CSV by a
# writer of this file (not the programs') with quotes, doubled quotes,
# separators (',', ';', ', ') and line ends (LF, CRLF) inside fields, and
# newlines and CRLF inside the fields of a column passed through unread,
# give the same frequency sets and the same releases as their TSV form:
# freqset, partition | recode -r and freqset | lattice-search | recode -n,
# the CSV output decoded by a reader of this file and compared byte for
# byte.  Then the exact messages of the CSV errors, a byte-order mark
# before a CSV header, and blank lines.
#
# A failure names the seed: csvcase SEED DIR rebuilds the case.

load common
load bad
load csv

setup() {
	T=$BATS_TEST_TMPDIR
}

# csvgen SEED DIR: a random table DIR/t.tsv, its values escaped (a
# backslash, tab, CR and LF as \\, \t, \r, \n), with columns x (an id),
# c1 and c2 (categorical, with hierarchies DIR/h.c1.tsv and DIR/h.c2.tsv),
# n (numbers, some missing as the empty field or ?), s (a sensitive
# value), 'memo, text' (values with separators and quotes) and 'note;x'
# (values with tabs, CRs and LFs, which only a column passed through
# unread may hold; none when the seed says so).  Every value but those
# of note;x is free of the escaped bytes, so that DIR/t.tsv is the
# table's TSV form.  Prints, tab-separated: whether note;x holds line
# ends or tabs (0/1), and the CSV separator for the case (, ; or ", ").
csvgen() {
	awk -v seed="$1" -v dir="$2" '
	function pick(list, sep,    a, n) {
		n = split(list, a, sep)
		return a[1 + int(rand() * n)]
	}
	BEGIN {
		srand(seed)
		OFS = "\t"
		n1 = split("a|b,c|d;e|say \"hi\"| sp |x, y|\"q\"|\303\251|plain|#|a,|;|x:|:", p1, "|")
		n2 = split("1|01|1,5|A B|C;D|E,F|G\"H|\"\"|, |z", p2, "|")
		ns = split("flu|cold, bad|\"x\"|a;b|s", ps, "|")
		odd = rand() < 0.6
		sep = pick(",|;|, ", "|")
		# Hierarchies: each value under g1, g2 or g3, then *.
		m1 = 2 + int(rand() * 6)
		m2 = 2 + int(rand() * 5)
		for (i = 1; i <= m1; i++) {
			j = i + int(rand() * (n1 - i + 1))
			t = p1[i]; p1[i] = p1[j]; p1[j] = t
			print p1[i], "g" (1 + int(rand() * 3)), "*" > (dir "/h.c1.tsv")
		}
		for (i = 1; i <= m2; i++) {
			j = i + int(rand() * (n2 - i + 1))
			t = p2[i]; p2[i] = p2[j]; p2[j] = t
			print p2[i], "h" (1 + int(rand() * 2)), "*" > (dir "/h.c2.tsv")
		}
		print "x", "c1", "c2", "n", "s", "memo, text", "note;x" > (dir "/t.tsv")
		nr = 20 + int(rand() * 150)
		for (r = 1; r <= nr; r++) {
			c1 = p1[1 + int(m1 * rand() ^ 2)]
			c2 = p2[1 + int(m2 * rand())]
			x = rand()
			nv = x < 0.1 ? "" : x < 0.15 ? "?" : int(50 * rand() ^ 2)
			s = ps[1 + int(ns * rand())]
			memo = pick("m|m, n|\"m\"|m;n|m \"n\" o| lead|trail |,|;|\"|" \
			    "a,b;c\"d", "|") r
			if (odd)
				note = pick("\\n|a\\nb|a\\r\\nb|\\r\\n|a\\n\\nb|" \
				    "\\n\\n|t\\tab|cr\\rx|\"q\"\\n,;|\\\\n| x |", "|")
			else
				note = pick("plain|a,b|\"q\"|; ;|", "|")
			print "r" r, c1, c2, nv, s, memo, note > (dir "/t.tsv")
		}
		print odd, sep
	}'
}

# csvcase SEED: the random table as CSV (csvgen's separator, LF or CRLF)
# and as TSV through freqset, partition | recode -r and freqset |
# lattice-search | recode -n: the same frequency sets, nodes and regions
# byte for byte, and the CSV outputs, read back by csvread, the TSV
# outputs.  Output CSV uses one of the separators, a note;x with line
# ends is carried from CSV to CSV, and score --icsv --check passes each
# CSV release.
csvcase() {
	local seed=$1 dir="$T/c$1" odd sep eol ofs q fq k st1 st2 sum lim
	local -a in out both m h hl fo po sc ps pick
	mkdir -p "$dir"
	IFS=$'\t' read -r odd sep < <(csvgen "$seed" "$dir")
	eol=LF
	[ $((seed % 2)) -eq 0 ] || eol=CRLF
	csvwrite "$seed" "$sep" "$eol" < "$dir/t.tsv" > "$dir/t.csv"
	if ! csvread "$sep" "$dir/t.csv" | cmp -s - "$dir/t.tsv"; then
		echo "seed $seed: csvread does not read back what csvwrite wrote"
		return 1
	fi
	in=(--ifs "$sep")
	[ "$sep" != , ] || [ $((seed % 3)) -ne 0 ] || in=(--icsv)
	# The seed's choices from lists by index, not by echo | cut: two
	# processes fewer each, four times a case.
	pick=(, ';' ', ' ::)
	ofs=${pick[seed % 4]}
	out=(--ofs "$ofs")
	[ "$ofs" != , ] || out=(--ocsv)
	m=()
	[ $((seed % 4)) -eq 0 ] || m=(--missing '?')
	k=$((seed % 5 + 1))
	fail() {
		echo "seed $seed ($sep $eol, out '$ofs'): $*"
		return 1
	}

	# Frequency sets: TSV out, and CSV out read back.  Column 6 is
	# 'memo, text' (a comma list cannot name it).
	pick=(c1,n,s c2,6 s,c1,c2,n 6 n,c2)
	fq=${pick[seed % 5]}
	fo=(-q "$fq")
	[ $((seed % 3)) -ne 1 ] || [[ ,$fq, == *,c1,* ]] ||
	    fo=(-q "$fq,c1" -H "c1=$dir/h.c1.tsv" -L c1=1)
	freqset "${fo[@]}" "${m[@]}" "$dir/t.tsv" > "$dir/fs.t" 2>&1 ||
	    fail "freqset ${fo[*]}: $(cat "$dir/fs.t")" || return
	freqset "${in[@]}" "${fo[@]}" "${m[@]}" "$dir/t.csv" > "$dir/fs.c" 2>&1 &&
	    cmp -s "$dir/fs.c" "$dir/fs.t" ||
	    fail "freqset ${in[*]} ${fo[*]}: not the TSV frequency set" || return
	both=("${in[@]}" "${out[@]}")
	[ "${in[*]}" != --icsv ] || [ "${out[*]}" != --ocsv ] || both=(--csv)
	freqset "${both[@]}" "${fo[@]}" "${m[@]}" "$dir/t.csv" \
	    > "$dir/fs.cc" 2> "$dir/err" &&
	    csvread "$ofs" "$dir/fs.cc" | cmp -s - "$dir/fs.t" ||
	    fail "freqset ${both[*]} ${fo[*]}: not the TSV frequency set" ||
	    return

	# Mondrian: partition | recode -r.  Through a pipe of TSV when no
	# value holds a line end; else CSV from end to end.
	pick=(c1,n n,c2,c1 c2,n c1,c2)
	q=${pick[seed % 4]}
	h=()
	[[ ,$q, != *,c1,* ]] || h+=(-H "c1=$dir/h.c1.tsv")
	[[ ,$q, != *,c2,* ]] || h+=(-H "c2=$dir/h.c2.tsv")
	po=(-q "$q" -k "$k" "${h[@]}" "${m[@]}")
	pick=(range mean both)
	sum=${pick[seed % 3]}
	partition "${po[@]}" -r "$dir/r.t" "$dir/t.tsv" > "$dir/p.t" 2> "$dir/err"
	st1=$?
	if [ "$st1" -eq 0 ]; then
		recode -r "$dir/r.t" --summary "$sum" "${h[@]}" "${m[@]}" \
		    "$dir/p.t" > "$dir/rel.t" 2> "$dir/err" ||
		    fail "TSV recode -r: $(cat "$dir/err")" || return
	fi
	if [ "$odd" = 1 ]; then
		partition "${in[@]}" "${out[@]}" "${po[@]}" -r "$dir/r.c" \
		    "$dir/t.csv" > "$dir/p.c" 2> "$dir/err"
		st2=$?
		[ "$st2" -ne 0 ] || csvread "$ofs" "$dir/p.c" | cmp -s - "$dir/p.t" ||
		    fail "partition ${in[*]} ${out[*]} ${po[*]}: not the TSV table" ||
		    return
		[ "$st2" -ne 0 ] || recode -r "$dir/r.c" --ifs "$ofs" "${out[@]}" \
		    --summary "$sum" "${h[@]}" "${m[@]}" "$dir/p.c" > "$dir/rel.c" \
		    2> "$dir/err" ||
		    fail "recode -r --ifs '$ofs' ${out[*]}: $(cat "$dir/err")" || return
	else
		partition "${in[@]}" "${po[@]}" -r "$dir/r.c" "$dir/t.csv" \
		    2> "$dir/err" |
		    recode -r "$dir/r.c" "${out[@]}" --summary "$sum" "${h[@]}" \
		    "${m[@]}" > "$dir/rel.c" 2> "$dir/err2"
		ps=("${PIPESTATUS[@]}")
		st2=${ps[0]}
		[ "$st2" -ne 0 ] || [ "${ps[1]}" -eq 0 ] ||
		    fail "recode -r ${out[*]}: $(cat "$dir/err2")" || return
	fi
	[ "$st1" -eq "$st2" ] ||
	    fail "partition: TSV exit $st1, CSV $st2: $(cat "$dir/err")" || return
	if [ "$st1" -eq 0 ]; then
		cmp -s "$dir/r.c" "$dir/r.t" ||
		    fail "partition ${po[*]}: the regions differ" || return
		csvread "$ofs" "$dir/rel.c" | cmp -s - "$dir/rel.t" ||
		    fail "partition ${po[*]} | recode -r --summary $sum: not the TSV release" ||
		    return
		sc=(--check -k "$k" -q "$q" "${m[@]}")
		score --ifs "$ofs" "${sc[@]}" "$dir/rel.c" > "$dir/sc" 2>&1 ||
		    fail "score --ifs '$ofs' ${sc[*]} of the Mondrian release: $(cat "$dir/sc")" ||
		    return
	fi

	# Full-domain: freqset | lattice-search --best | recode -n.
	hl=("${h[@]}" -H n=interval:5,10,20)
	lim=()
	[ $((seed % 3)) -eq 0 ] ||
	    lim=(--max-suppress $((seed % 20))% --suppress drop)
	freqset -q "$q" "${m[@]}" "$dir/t.tsv" |
	    lattice-search "${hl[@]}" -k "$k" "${lim[@]:0:2}" "${m[@]}" --best \
	    -o "$dir/node.t" 2> "$dir/err"
	st1=$?
	freqset "${in[@]}" -q "$q" "${m[@]}" "$dir/t.csv" |
	    lattice-search "${hl[@]}" -k "$k" "${lim[@]:0:2}" "${m[@]}" --best \
	    -o "$dir/node.c" 2> "$dir/err"
	st2=$?
	[ "$st1" -eq "$st2" ] ||
	    fail "lattice-search: TSV exit $st1, CSV $st2: $(cat "$dir/err")" || return
	[ "$st1" -eq 0 ] || return 0
	cmp -s "$dir/node.c" "$dir/node.t" ||
	    fail "lattice-search: the nodes differ" || return
	recode -n "$dir/node.t" "${hl[@]}" -k "$k" "${lim[@]}" "${m[@]}" \
	    "$dir/t.tsv" > "$dir/reln.t" 2> "$dir/err" ||
	    fail "TSV recode -n: $(cat "$dir/err")" || return
	recode -n "$dir/node.c" "${in[@]}" "${out[@]}" "${hl[@]}" -k "$k" \
	    "${lim[@]}" "${m[@]}" "$dir/t.csv" > "$dir/reln.c" 2> "$dir/err" ||
	    fail "recode -n ${in[*]} ${out[*]}: $(cat "$dir/err")" || return
	csvread "$ofs" "$dir/reln.c" | cmp -s - "$dir/reln.t" ||
	    fail "recode -n ${in[*]} ${out[*]}: not the TSV release" || return
	score --ifs "$ofs" "${sc[@]}" "$dir/reln.c" > "$dir/sc" 2>&1 ||
	    fail "score --ifs '$ofs' ${sc[*]} of the full-domain release: $(cat "$dir/sc")"
}

# csvseeds FIRST LAST: csvcase for each seed on two cores; fails at the
# end if any failed, showing at most 5.
csvseeds() {
	local mid=$((($1 + $2) / 2)) p1 p2 s1=0 s2=0
	export -f csvgen csvwrite csvread csvcase csvcheck
	export T
	bash -c "csvcheck $1 $mid" > "$T/log1" 2>&1 &
	p1=$!
	bash -c "csvcheck $((mid + 1)) $2" > "$T/log2" 2>&1 &
	p2=$!
	wait "$p1" || s1=$?
	wait "$p2" || s2=$?
	cat "$T/log1" "$T/log2"
	[ "$s1" -eq 0 ] && [ "$s2" -eq 0 ]
}

csvcheck() {
	local seed bad=0
	for ((seed = $1; seed <= $2; seed++)); do
		if ! csvcase "$seed" > "$T/out.$seed" 2>&1; then
			bad=$((bad + 1))
			[ "$bad" -gt 5 ] || cat "$T/out.$seed"
		fi
		rm -rf "$T/c$seed"
	done
	[ "$bad" -eq 0 ] || { echo "$bad of $(($2 - $1 + 1)) cases failed"; false; }
}

@test "CSV round trip: random tables with quotes, separators, CRLF and line ends in fields give the frequency sets, nodes, regions and releases of their TSV form" {
	# 60 seeds (120 until the suite outgrew its 5 minutes): the options
	# drawn from the seed (LF or CRLF, --icsv or --ifs, the output
	# separator, --missing, k, the columns, the hierarchy, the summary,
	# the limit) repeat every 60 seeds, so each of their combinations
	# comes once; and the table's draws (line ends in a column or not,
	# each separator, with --icsv or --ifs) each come 3 times or more.
	csvseeds 1 60
}

# csvfix: the CSV fixtures of the tests below, in the scratch directory
# of bad_setup (bad.bash).
csvfix() {
	bad_setup
	printf 'a,b\n1,2\n3,"x\ny\n' > unclosed.csv
	printf 'a,b\n1,"x\ny"z\n' > junk.csv
	printf 'a;b\n1;"x" \n' > junksemi.csv
	printf 'a,b\n"x,y",1\0\n' > nul.csv
	printf 'a,b\n1,"p\nq\0"\n' > nul2.csv
	printf 'a,b\n1,2\n3,x\ty\n' > tab.csv
	printf 'a,b\n1,2\n"3\n4",x\n5,6\n' > nl.csv
	printf 'a,b\n1\r,2\n' > cr.csv
	printf 'a,b\n"1\n2",3\n4,5,6\n' > ragged.csv
	printf 'a,"b\nc"\n1,2\n' > hdrnl.csv
	printf 'a;b\n1;2\n' > semi.tsv
	printf 'a,b\n1,2\n' > comma.tsv
	printf '\357\273\277"a",b\r\n1,2\r\n1,3\r\n' > bom.csv
	printf 'a,b\n1,2\n\n\r\n\n' > blank.csv
	printf '\na,b\n\n1,2\r\n\r\n3,4\n\n' > blanks.csv
	printf 'a\n""\n1\n\n' > onecol.csv
	printf 'a,note\n1,"x\ny"\n1,"p\r\nq"\n2,"\n"\n2,z\n' > notes.csv
	printf 'a\tb\nx:\ty\nxab\t:\n' > colon.tsv
	printf 'a\tb\n1\t2\n1\t3\n' | score -q a > bomscore
	printf 'a\tnote\n1\tx\n1\tp\n2\tn\n2\tz\n' |
	    score --check -k 2 -q a > notescore
}

@test "CSV errors: an unclosed quote, junk after a closing quote, a tab, CR or line end in a column read, a ragged record after one of several lines, a header with a line end, a NUL byte (its field counted by the record's fields), a quote as the separator" {
	csvfix
	bad_cases <<-'EOF'
	unclosed, freqset   | 2 | freqset: @:3: field 2: the quote that opens it is never closed (the file ends inside it) | freqset --icsv @unclosed.csv
	unclosed, score     | 2 | score: @:3: field 2: the quote that opens it is never closed (the file ends inside it) | score --icsv -q a @unclosed.csv
	unclosed, lattice   | 2 | lattice-search: @:3: field 2: the quote that opens it is never closed (the file ends inside it) | lattice-search --icsv -q a -H a=interval:5 -k 1 @unclosed.csv
	unclosed, partition | 2 | partition: @:3: field 2: the quote that opens it is never closed (the file ends inside it) | partition --icsv -q a -k 1 @unclosed.csv
	unclosed, recode    | 2+ | recode: @:3: field 2: the quote that opens it is never closed (the file ends inside it) | recode --icsv -n a=0 -H a=interval:5 -k 1 @unclosed.csv
	unclosed, extsort   | 2+ | extsort: @:3: field 2: the quote that opens it is never closed (the file ends inside it) | extsort --icsv -k a @unclosed.csv
	junk after quote    | 2 | freqset: @:3: field 2: 'z' after the closing quote: expected the separator or the end of the line (a quote inside a quoted field is written twice: "") | freqset --icsv @junk.csv
	junk, --ifs         | 2 | freqset: @:2: field 2: ' ' after the closing quote: expected the separator or the end of the line (a quote inside a quoted field is written twice: "") | freqset --ifs ';' @junksemi.csv
	tab in a key        | 2 | freqset: @:3: column 'b': the value holds a tab, which kanon carries only in a column that a program passes through to CSV output (--ocsv) without reading it; remove it first (as with tr) or cut the column out | freqset --icsv @tab.csv
	tab to TSV output   | 2 | partition: @:3: column 'b': the value holds a tab, which kanon carries only in a column that a program passes through to CSV output (--ocsv) without reading it; remove it first (as with tr) or cut the column out | partition --icsv -q a -k 1 @tab.csv
	line end in a key   | 2 | freqset: @:3: column 'a': the value holds a line end, which kanon carries only in a column that a program passes through to CSV output (--ocsv) without reading it; remove it first (as with tr) or cut the column out | freqset --icsv -q a @nl.csv
	line end, sensitive | 2 | score: @:3: column 'a': the value holds a line end, which kanon carries only in a column that a program passes through to CSV output (--ocsv) without reading it; remove it first (as with tr) or cut the column out | score --icsv -q b -s a -l 1 @nl.csv
	line end to TSV     | 2+ | recode: @:3: column 'a': the value holds a line end, which kanon carries only in a column that a program passes through to CSV output (--ocsv) without reading it; remove it first (as with tr) or cut the column out | recode --icsv -n b=0 -H b=interval:5 -k 1 @nl.csv
	CR in a key         | 2 | freqset: @:2: column 'a': the value holds a carriage return, which kanon carries only in a column that a program passes through to CSV output (--ocsv) without reading it; remove it first (as with tr) or cut the column out | freqset --icsv @cr.csv
	ragged after lines  | 2 | freqset: @:4: expected 2 fields, found 3 | freqset --icsv -q b @ragged.csv
	header line end     | 2 | freqset: @:1: a column name holds a line end | freqset --icsv @hdrnl.csv
	NUL after quotes    | 2 | freqset: @:2: field 2: NUL byte in input | freqset --icsv @nul.csv
	NUL, second line    | 2 | freqset: @:3: field 2: NUL byte in input | freqset --icsv @nul2.csv
	--ifs quote         | 2 | freqset: --ifs '"': the separator must be one or more characters other than a quote or a line end | freqset --ifs '"' t.tsv
	--ifs empty         | 2 | freqset: --ifs '': the separator must be one or more characters other than a quote or a line end | freqset --ifs '' t.tsv
	--ofs quote         | 2 | partition: --ofs '"': the separator must be one or more characters other than a quote or a line end | partition --ofs '"' -q a -k 1 t.tsv
	EOF
}

@test "a CSV file read as TSV: the message names --icsv, and --ifs for ';'" {
	csvfix
	bad_cases <<-'EOF'
	';', freqset    | 2 | freqset: @: no column named 'a': the header is one column, 'a;b', which holds ';': is the file CSV? Read it with --icsv --ifs ';' | freqset -q a @semi.tsv
	';', score      | 2 | score: @: no column named 'a': the header is one column, 'a;b', which holds ';': is the file CSV? Read it with --icsv --ifs ';' | score -q a @semi.tsv
	';', lattice    | 2 | lattice-search: @: no column named 'a': the header is one column, 'a;b', which holds ';': is the file CSV? Read it with --icsv --ifs ';' | lattice-search -q a -H a=interval:5 -k 1 @semi.tsv
	';', partition  | 2 | partition: @: no column named 'a': the header is one column, 'a;b', which holds ';': is the file CSV? Read it with --icsv --ifs ';' | partition -q a -k 1 @semi.tsv
	';', extsort    | 2 | extsort: @: no column named 'a': the header is one column, 'a;b', which holds ';': is the file CSV? Read it with --icsv --ifs ';' | extsort -k a @semi.tsv
	',', freqset    | 2 | freqset: @: no column named 'b': the header is one column, 'a,b', which holds ',': is the file CSV? Read it with --icsv | freqset -q b @comma.tsv
	EOF
}

@test "CSV: a byte-order mark before a quoted header, blank lines (trailing, CRLF, between records) skipped, a quoted empty field kept, a one-field empty row written \"\"" {
	csvfix
	ok_cases <<-'EOF'
	BOM, header         | 0 | a\tcount\n1\t2\n | freqset --icsv -q a @bom.csv
	BOM, score          | 0 | =bomscore | score --icsv -q a @bom.csv
	BOM, to CSV         | 0 | a,b,class\n1,2,1\n1,3,1\n | partition --csv -q a -k 2 @bom.csv
	blank trailing      | 0 | a\tb\tcount\n1\t2\t1\n | freqset --icsv @blank.csv
	blank lines         | 0 | a\tb\tcount\n1\t2\t1\n3\t4\t1\n | freqset --icsv @blanks.csv
	one column          | 0 | a\tcount\n\t1\n1\t1\n | freqset --icsv @onecol.csv
	one column out      | 0 | a\n""\n1\n | recode --csv -n a=0 -H a=interval:5 -k 1 @onecol.csv
	EOF
}

@test "score and lattice-search read a CSV release whose column passed through holds line ends (recode --ocsv wrote it)" {
	csvfix
	ok_cases <<-'EOF'
	score           | 0 | =notescore | score --icsv --check -k 2 -q a @notes.csv
	lattice-search  | 0 | a\tsuppressed\tclasses\tcdm\tcavg\theight\tprec\tloss\n0\t0\t2\t8\t1\t0\t1\t0\n | lattice-search --icsv -q a -H a=interval:5 -k 2 @notes.csv
	freqset         | 0 | a\tcount\n1\t2\n2\t2\n | freqset --icsv -q a @notes.csv
	recode --ocsv   | 0 | =notes.csv | recode --csv -n a=0 -H a=interval:5 -k 2 @notes.csv
	EOF
}

@test "CSV output with a separator that overlaps itself ('::', 'aba') quotes a value ending in its start, which reads back" {
	csvfix
	ok_cases <<-'EOF'
	'::'        | 0 | a::b::count\n"x:"::y::1\nxab::":"::1\n | freqset --ofs '::' @colon.tsv
	'aba'       | 0 | aabababacount\nx:abayaba1\n"xab"aba:aba1\n | freqset --ofs aba @colon.tsv
	'::' back   | 0 | a\tb\tcount\nx:\ty\t1\nxab\t:\t1\n | freqset --ofs '::' @colon.tsv | freqset --ifs '::' -q a,b
	'aba' back  | 0 | a\tb\tcount\nx:\ty\t1\nxab\t:\t1\n | freqset --ofs aba @colon.tsv | freqset --ifs aba -q a,b
	EOF
}

@test "--skip-header skips a CSV record whose fields are the column names, not one whose fields joined look like the header" {
	cd "$BATS_TEST_TMPDIR"
	printf 'a,b\n"a",b\n1,2\n"a\tb"\na,b\n' > hdr.csv
	run freqset --icsv --skip-header -q a,b hdr.csv
	[ "$status" -eq 2 ]
	[ "$output" = "freqset: hdr.csv:4: expected 2 fields, found 1" ]
	printf 'a,b\n"a",b\n1,2\na,b\n3,"4"\n' > hdr.csv
	run freqset --icsv --skip-header -q a,b hdr.csv
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'a\tb\tcount\n1\t2\t1\n3\t4\t1')" ]
}

@test "CSV: a field after a quoted field of several lines, near the end of the record's buffer, is counted whole, with a hierarchy or not (under make sanitize: no read past the buffer)" {
	local q n want
	want=$(printf 'b\tcount\n12345678901234\t1\n7\t1')
	for n in 60 63 66 67 68 69 70 72 75 131 132 133; do
		q=$(printf "%${n}s" '' | tr ' ' q)
		printf 'a,b\n"pppppppppp\n%s",7\n"x\ny",12345678901234\n' \
		    "$q" > "$T/t.csv"
		run freqset --icsv -j 1 -q b "$T/t.csv"
		[ "$status" -eq 0 ]
		[ "$output" = "$want" ] || { echo "$n: $output"; false; }
		run freqset --icsv -j 1 -q b -H b=mask:1 "$T/t.csv"
		[ "$status" -eq 0 ]
		[ "$output" = "$want" ] || { echo "$n -H: $output"; false; }
	done
}

@test "--skip-header: a CSV file concatenated after a byte-order mark (cat a.csv b.csv, Excel's) loses its header, quoted or not, as TSV does" {
	cd "$BATS_TEST_TMPDIR"
	printf 'a,b\n1,2\n' > h1.csv
	printf '\357\273\277a,b\r\n5,6\r\n' > h2.csv
	printf '\357\273\277"a",b\r\n7,8\r\n' > h3.csv
	want=$(printf 'a\tb\tcount\n1\t2\t1\n5\t6\t1\n7\t8\t1')
	[ "$(cat h1.csv h2.csv h3.csv | freqset --icsv --skip-header -q a,b)" = "$want" ]
	printf 'a\tb\n1\t2\n' > h1.tsv
	printf '\357\273\277a\tb\n5\t6\n' > h2.tsv
	printf '\357\273\277a\tb\n7\t8\n' > h3.tsv
	[ "$(cat h1.tsv h2.tsv h3.tsv | freqset --skip-header -q a,b)" = "$want" ]
	# A name with a quote in it, and a record that only starts like
	# the header, kept as data.
	printf '"x""y",b\n1,2\n' > q1.csv
	printf '\357\273\277"x""y",b\n\357\273\277"x""y,b\n' > q2.csv
	run freqset --icsv --skip-header q1.csv q2.csv
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'x"y\tb\tcount\n1\t2\t1\n\357\273\277"x""y\tb\t1')" ]
}

@test "CSV: a quoted record of more lines than the record limit (64 MiB) is refused at its line, however its buffer grew" {
	cd "$BATS_TEST_TMPDIR"
	{ printf 'a,b\n1,"'; head -c 70000000 /dev/zero | tr '\0' '\n'; printf '"\n'; } > r.csv
	run freqset --icsv -q a r.csv
	[ "$status" -eq 2 ]
	[ "$output" = "freqset: r.csv:2: a record of more than 67108864 bytes: is a quote of this line never closed? (raise -S for longer records)" ]
}

@test "CSV from a pipe read twice (partition, recode with suppression): a quote never closed is refused at the record limit, before the spool outgrows it" {
	cd "$BATS_TEST_TMPDIR"
	mkdir tmp
	msg='stdin:2: a record of more than 67108864 bytes: is a quote of this line never closed? (raise -S for longer records)'
	# An endless stream: the copy for the second pass used to fill the
	# disk before the first pass saw the record.
	run timeout 30 sh -c '{ printf "a,b\n1,\""; yes; } | partition --icsv -T tmp -q a -k 1'
	[ "$status" -eq 2 ]
	[ "$output" = "partition: $msg" ]
	run timeout 30 sh -c '{ printf "a,b\n1,\""; yes; } | recode --icsv -T tmp -H a=interval:5 -n a=1 -k 2 --max-suppress 1'
	[ "$status" -eq 2 ]
	[ "$output" = "recode: $msg" ]
	[ -z "$(ls -A tmp)" ]
	# A table that ends is spooled and read twice, the same bytes.
	printf 'a,b\n1,"x\ny"\n2,z\n12,w\n' > t.csv
	partition --icsv --ocsv -q a -k 2 t.csv > want
	cat t.csv | partition --icsv --ocsv -T tmp -q a -k 2 > got
	cmp want got
	[ -z "$(ls -A tmp)" ]
}

@test "CSV: a quoted column name holding a tab is refused, where it split into two columns (a row of one field more was taken)" {
	cd "$BATS_TEST_TMPDIR"
	for p in "freqset --icsv -q a" "partition --icsv -q a -k 1" "score --icsv -q a" "extsort --icsv -k a"; do
		printf 'a,"b\tc"\n1,x,y\n' > t.csv
		run $p t.csv
		[ "$status" -eq 2 ]
		[ "$output" = "${p%% *}: t.csv:1: a column name holds a tab" ]
	done
	# A quoted name without one is a name.
	printf 'a,"b c"\n1,x\n' > u.csv
	[ "$(freqset --icsv -q 'b c' u.csv)" = "$(printf 'b c\tcount\nx\t1')" ]
}

@test "CSV read on the threads of -j (freqset, lattice-search, extsort; a file and a pipe, blocks of 16 KiB): the bytes of one thread, and each fault in a late block named as one thread names it" {
	local seed dir odd sep eol bl n j
	local -a in q h
	for seed in 3 4 7 10; do
		dir="$T/c$seed"
		mkdir -p "$dir"
		IFS=$'\t' read -r odd sep < <(csvgen "$seed" "$dir")
		eol=LF bl=''
		[ $((seed % 2)) -eq 0 ] || eol=CRLF bl=$'\r'
		csvwrite "$seed" "$sep" "$eol" < "$dir/t.tsv" > "$dir/one.csv"
		in=(--ifs "$sep")
		# The records over and over (some of several lines, quotes
		# doubled, separators in quotes), a line of no byte between,
		# to 200 KB at least: a dozen blocks.
		tail -n +2 "$dir/one.csv" > "$dir/body"
		printf '%s\n' "$bl" >> "$dir/body"
		head -n 1 "$dir/one.csv" > "$dir/t.csv"
		for n in $(seq $((200000 / $(wc -c < "$dir/body") + 1))); do
			cat "$dir/body"
		done >> "$dir/t.csv"
		q=(-q c1,c2,n,s,6)
		h=(-H "c1=$dir/h.c1.tsv" -H "c2=$dir/h.c2.tsv" -q c1,c2 -k 2)
		freqset "${in[@]}" -j 1 "${q[@]}" "$dir/t.csv" > "$dir/f1"
		lattice-search "${in[@]}" -j 1 "${h[@]}" --all "$dir/t.csv" \
		    > "$dir/l1"
		for j in 2 3; do
			freqset "${in[@]}" -j $j -S 8M "${q[@]}" "$dir/t.csv" |
			    cmp - "$dir/f1"
			freqset "${in[@]}" -j $j -S 8M "${q[@]}" - \
			    < "$dir/t.csv" | cmp - "$dir/f1"
			# From a pipe: the hierarchies' labels too.
			cat "$dir/t.csv" | lattice-search "${in[@]}" -j $j \
			    -S 8M "${h[@]}" --all - | cmp - "$dir/l1"
		done
		# extsort, which writes TSV: the table without its column
		# of line ends, sorted in memory and in runs.
		cut -f1-6 "$dir/t.tsv" | csvwrite "$seed" "$sep" "$eol" \
		    > "$dir/flat1.csv"
		head -n 1 "$dir/flat1.csv" > "$dir/flat.csv"
		for n in $(seq 40); do
			tail -n +2 "$dir/flat1.csv"
		done >> "$dir/flat.csv"
		extsort "${in[@]}" -j 1 -k c2,x:nr "$dir/flat.csv" > "$dir/e1"
		for j in 2 3; do
			extsort "${in[@]}" -j $j -S 256K -k c2,x:nr \
			    "$dir/flat.csv" | cmp - "$dir/e1"
			extsort "${in[@]}" -j $j -S 8M -k c2,x:nr - \
			    < "$dir/flat.csv" | cmp - "$dir/e1"
		done
	done

	# The faults, each in a record after those of a table of commas
	# and LF: named at the line one thread names, by -j 3 too, from a
	# file and from a pipe; and a label outside c1's hierarchy, which
	# the threads read from a pipe refuse.
	dir=$T/c4
	{
		csvwrite 4 , LF < "$dir/t.tsv"
		for n in $(seq 40); do
			csvwrite "$n" , LF < "$dir/t.tsv" | tail -n +2
		done
	} > "$T/base.csv"
	n=$(($(wc -l < "$T/base.csv") + 1))
	q=(-q c1,c2,n)
	h=(-H "c1=$dir/h.c1.tsv" -H "c2=$dir/h.c2.tsv" -q c1,c2 -k 2 --best)
	for k in 0 1 2 3 4 5; do
		cp "$T/base.csv" "$T/bad.csv"
		case $k in
		0) printf 'r1,a,1,2,s,m\n' ;;
		1) printf '"r1"x,a,1,2,s,m,x\n' ;;
		2) printf 'r1,"t\tb",1,2,s,m,x\n' ;;
		3) printf 'r1,a,1,2,s,m,"never closed\nr2,a\n' ;;
		4) printf 'r1,a\0b,1,2,s,m,x\n' ;;
		5) printf 'r1,"no such, label",1,2,s,m,x\n' ;;
		esac >> "$T/bad.csv"
		printf 'r2,a,1,2,s,m,x\n' >> "$T/bad.csv"
		if [ $k -eq 5 ]; then
			run lattice-search --icsv -j 1 "${h[@]}" - < "$T/bad.csv"
		else
			run freqset --icsv -j 1 "${q[@]}" - < "$T/bad.csv"
		fi
		[ "$status" -eq 2 ]
		[[ $output == *": stdin:$n: "* ]]
		one=$output
		if [ $k -eq 5 ]; then
			run bash -c 'cat "$1" | lattice-search --icsv -j 3 -S 8M \
			    "${@:2}" -' _ "$T/bad.csv" "${h[@]}"
		else
			run bash -c 'cat "$1" | freqset --icsv -j 3 -S 8M \
			    "${@:2}" -' _ "$T/bad.csv" "${q[@]}"
		fi
		[ "$status" -eq 2 ]
		[ "$output" = "$one" ]
		[ $k -eq 5 ] && continue
		run freqset --icsv -j 3 -S 8M "${q[@]}" "$T/bad.csv"
		[ "$status" -eq 2 ]
		[ "$output" = "${one/stdin/$T/bad.csv}" ]
		run extsort --icsv -j 3 -S 256K -k n:n "$T/bad.csv"
		[ "$status" -eq 2 ]
		[ "$output" = "${one/freqset: stdin/extsort: $T/bad.csv}" ]
	done
}

@test "CSV: a NUL byte in a line across the reader's buffer (960 KiB) is named at the field the quotes tell, as in a line the buffer held, by -j 1 and -j 2; a file of NUL bytes is a line too long, holding a NUL" {
	local at want
	for at in 10 11 5; do
		# Rows to just below the read buffer's 960 KiB (tsv.c's
		# RBUF), then one to end at 960 KiB - $at: the bad line's
		# NUL (its tenth byte) before the buffer's end, or after it.
		{
			echo c0,c1,c2
			awk 'BEGIN { for (i = 0; i < 40000; i++)
			    printf "%d,\"%d,%d\",%d\n", i % 100, i % 7, i % 3, i }'
		} > "$T/t.csv"
		n=$((983040 - at - $(wc -c < "$T/t.csv") - 1))
		printf '1,"2,3",%s\n' "$(printf '%*s' $((n - 8)) '' |
		    tr ' ' 9)" >> "$T/t.csv"
		[ "$(wc -c < "$T/t.csv")" -eq $((983040 - at)) ]
		printf '7,"1,2",3\0004\n' >> "$T/t.csv"
		awk 'BEGIN { for (i = 0; i < 9000; i++) print "1,2,3" }' \
		    >> "$T/t.csv"
		want="freqset: $T/t.csv:40003: field 3: NUL byte in input"
		for j in 1 2; do
			run freqset --icsv -j $j -q c0,c1 "$T/t.csv"
			[ "$status" -eq 2 ]
			[ "$output" = "$want" ] || { echo "$at -j $j: $output"; return 1; }
		done
	done
	run bash -c 'head -c 70M /dev/zero | freqset --icsv -q a'
	[ "$status" -eq 2 ]
	[[ $output == "freqset: stdin:1: line longer than 64M bytes, the limit, and holding a NUL byte: not a table?"* ]]
}
