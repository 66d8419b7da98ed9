#!/usr/bin/env bats
# score --report and --json: the release report is well-formed XHTML
# with inline SVG (checked by tests/xml-check.awk, the project's own
# checker, and by iconv for UTF-8), self-contained, and carries every
# figure score prints; the JSON object is valid (tests/json-check.awk)
# and its figures equal the text output; every value from the data or
# the command line is escaped, so that a hostile one breaks neither;
# the report is written as every output is (kanon(7), OUTPUT FILES).

load common

setup() {
	T=$BATS_TEST_TMPDIR
	cd "$T"
	printf 'a\tb\tc\tname\n1\t2\tx\tAl\n1\t2\ty\tBo\n3\t4\tx\tCy\n5\t6\tz\tDi\n' \
	    > t.tsv
	printf 'a\tb\tcount\n1\t2\t4\n3\t4\t1\n5\t6\t3\n7\t8\t10\n' > pop.tsv
}

# xmlok FILE: FILE is well-formed XML with root html and some svg, and
# is UTF-8.
xmlok() {
	LC_ALL=C awk -v root=html -v need=svg -f "$ROOT/tests/xml-check.awk" "$1" \
	    > "$T/xml.out" || { cat "$T/xml.out"; return 1; }
	iconv -f UTF-8 -t UTF-8 "$1" > /dev/null
}

# jsonflat FILE: the scalars of the JSON in FILE as PATH<TAB>VALUE.
jsonflat() {
	LC_ALL=C awk -f "$ROOT/tests/json-check.awk" "$1"
}

# figures_in FIGS HTML: every NAME<TAB>VALUE line of FIGS is a row of
# the report's tables.
figures_in() {
	while IFS="$(printf '\t')" read -r n v; do
		grep -qF "<tr><td>$n</td><td>$v</td></tr>" "$2" ||
		    { echo "figure $n $v is not in $2"; return 1; }
	done < "$1"
}

@test "the report is well-formed XHTML with SVG and carries every figure" {
	for args in "-q a,b -s c -k 2" "-q a,b -s c -l 2 --diversity entropy" \
	    "-q a,b -k 2 --population pop.tsv --sampling-fraction 0.5" \
	    "-q a,b,c -t name --threshold 3" "-q a,b -s c -k 1 -l 2 --diversity recursive -c 2"; do
		# shellcheck disable=SC2086
		score $args t.tsv > text.out
		score $args --report r.html t.tsv > text2.out
		cmp text.out text2.out
		xmlok r.html
		figures_in text.out r.html
		grep -q '<h2 id="figures">' r.html
	done
}

@test "the report is self-contained: no script, no link, no address but namespaces" {
	score -q a,b -k 2 --report r.html t.tsv > /dev/null
	! grep -qi '<script\|<link\|src=\|href=\|url(\|@import' r.html || false
	[ "$(grep -o 'https\?://[^"]*' r.html | sort -u)" = "$(printf \
	    'http://www.w3.org/1999/xhtml\nhttp://www.w3.org/2000/svg')" ]
}

@test "the report names the tables with their lines and SHA-256, and the command lines" {
	command -v sha256sum > /dev/null || skip "no sha256sum"
	awk 'NR == 1 || NR % 2 == 0' t.tsv > orig.tsv
	score -q a,b -k 2 --original orig.tsv --command 'recode -k 2 x.tsv' \
	    --command 'freqset -q a,b' --report r.html t.tsv > /dev/null
	h=$(sha256sum < t.tsv | cut -d' ' -f1)
	o=$(sha256sum < orig.tsv | cut -d' ' -f1)
	grep -qF "<tr><th>release</th><td>t.tsv</td><td>4</td><td><code>$h</code></td></tr>" r.html
	grep -qF "<tr><th>original</th><td>orig.tsv</td><td>2</td><td><code>$o</code></td></tr>" r.html
	grep -qF 'recode -k 2 x.tsv' r.html
	grep -qF 'freqset -q a,b' r.html
	grep -qF -- "--command 'recode -k 2 x.tsv' --command 'freqset -q a,b' --report r.html t.tsv" r.html
	grep -qF 'kanon 0.1.0' r.html
	# From a pipe there is no digest to give.
	score -q a,b -k 2 --report r.html < <(cat t.tsv) > /dev/null
	grep -qF '<td>standard input</td><td>4</td><td><code>not computed' r.html
	xmlok r.html
}

@test "the requirements with their verdicts; the columns released unchanged" {
	score -q a,b -s c -k 2 -l 2 --report r.html t.tsv > /dev/null
	grep -qF '<tr><td>k-anonymity: every class has at least k rows</td><td>k = 2</td><td class="fail">fail</td></tr>' r.html
	grep -qF '<td>l = 2 in column c</td><td class="fail">fail</td>' r.html
	grep -qF 'At least one requirement fails.' r.html
	grep -qF '<tr><th>released unchanged</th><td><code>name</code></td></tr>' r.html
	grep -qF '1 column is released as it is in the source' r.html
	score -q a,b -k 1 --report r.html t.tsv > /dev/null
	grep -qF '<td class="pass">pass</td>' r.html
	grep -qF 'Every requirement holds.' r.html
	grep -qF '<tr><th>released unchanged</th><td><code>c</code>, <code>name</code></td></tr>' r.html
	score -q a,b --report r.html t.tsv > /dev/null
	grep -qF 'No requirement was checked' r.html
}

@test "the histograms count the classes and the rows by class size" {
	score -q a,b --report r.html t.tsv > /dev/null
	# Two classes of size 1 and one of size 2; rows: 2/4 and 2/4.
	grep -qF '<title>1: 2</title>' r.html
	grep -qF '<title>2: 1</title>' r.html
	grep -qF '<title>1: 0.5</title>' r.html
	grep -qF '<title>2: 0.5</title>' r.html
	score -q a,b --json t.tsv > j.json
	jsonflat j.json > j.flat
	[ "$(grep '^class_sizes' j.flat)" = "$(printf 'class_sizes.0.size\t1
class_sizes.0.classes\t2\nclass_sizes.1.size\t2\nclass_sizes.1.classes\t1')" ]
}

@test "the partition plot (of partition's class column) when two quasi-identifiers hold numbers, not otherwise" {
	printf 'x\ty\tclass\n1\t2\t0\n1\t3\t0\n5\t6\t1\n6\t6\t1\n' > p.tsv
	score -q x,y --report r.html p.tsv > /dev/null
	xmlok r.html
	[ "$(grep -c '<circle' r.html)" -eq 4 ]
	grep -q '<rect x="[0-9.]*" y="[0-9.]*" width="[0-9.]*" height="[0-9.]*"><title>0: 2 rows</title></rect>' r.html
	printf 'x\ty\n[1-2]\t2\n[1-2]\t2\n' > q.tsv
	score -q x,y --report r.html q.tsv > /dev/null
	grep -qF 'No picture: fewer than two quasi-identifiers hold numbers only.' r.html
}

@test "--json: valid, and its figures are the text output's" {
	for args in "-q a,b -s c -k 2" "-q a,b -k 2 --population pop.tsv --sampling-fraction 0.5" \
	    "-q a,b -s c -l 2 --diversity recursive -c 3"; do
		# shellcheck disable=SC2086
		score $args t.tsv > text.out
		# shellcheck disable=SC2086
		score $args --json t.tsv > j.json
		jsonflat j.json > j.flat
		sed -n 's/^figures\.//p' j.flat > j.figs
		diff text.out j.figs
	done
	grep -qF "$(printf 'release.name\tt.tsv')" j.flat
	grep -qF "$(printf 'unchanged_columns.0\tname')" j.flat
	grep -qF "$(printf 'requirements.0.verdict\tfail')" j.flat
	# -o writes it to a file.
	score -q a,b --json -o j2.json t.tsv
	jsonflat j2.json > /dev/null
}

@test "hostile values break neither the report nor the JSON" {
	# Markup, quotes, ampersands, a CDATA end, a control byte, a
	# backslash, bytes that are not UTF-8 and a right-to-left mark, in
	# column names, values, the file name and a command line.
	evil=$(printf '<b>&amp;"x'"'"'y]]></td>\\\001\377\342\200\217<script>')
	f="$T/a<&\"b.tsv"
	printf 'x\ty\t%s\n1\t2\t%s\n3\t%s\tz\n' "$evil" "$evil" "$evil" > "$f"
	printf 'x\t%s\tz\n1\t2\t%s\n1\t2\t%s\n' "$evil" "$evil" "$evil" > "$T/g.tsv"
	for in in "$f" "$T/g.tsv"; do
		score --report r.html --command "$evil" "$in" > /dev/null
		xmlok r.html
		! grep -q '<script>' r.html || false
		score --json --command "$evil" "$in" > j.json
		jsonflat j.json > j.flat
		iconv -f UTF-8 -t UTF-8 j.json > /dev/null
	done
	score -q x,y --report r.html "$f" > /dev/null
	xmlok r.html
	grep -qF '<code>&lt;b&gt;&amp;amp;&quot;x&#39;y]]&gt;&lt;/td&gt;\' r.html
	score -q x,y --json "$f" > j.json
	jsonflat j.json | grep -qF "$(printf 'unchanged_columns.0\t<b>&amp;\\"x'"'"'y]]></td>\\\\\\u0001\\ufffd')"
}

@test "the report file is an output: atomic, its mode kept, never an input" {
	score -q a,b --report r.html t.tsv > /dev/null
	chmod 640 r.html
	score -q a,b -k 2 --report r.html t.tsv > /dev/null
	[ "$(ls -l r.html | cut -c1-10)" = "-rw-r-----" ]
	run score -q a,b --report t.tsv t.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "score: t.tsv: output file is input file (t.tsv)" ]
	ln -s t.tsv lnk.html
	run score -q a,b --report lnk.html t.tsv
	[ "$status" -eq 2 ]
	# Nor the population or the original, and nothing printed first.
	cp pop.tsv pop2.tsv
	run score -q a,b --population pop2.tsv --report pop2.tsv t.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "score: pop2.tsv: output file is input file (pop2.tsv)" ]
	run score -q a,b --original pop2.tsv --report pop2.tsv t.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "score: pop2.tsv: output file is input file (pop2.tsv)" ]
	cmp pop.tsv pop2.tsv
	rm pop2.tsv
	# A run that fails leaves the old report as it was.
	cp r.html r.old
	run score -q a,b,nosuch --report r.html t.tsv
	[ "$status" -eq 2 ]
	cmp r.html r.old
	[ -z "$(ls -A | grep -v '^\(t.tsv\|pop.tsv\|r.html\|r.old\|lnk.html\)$')" ]
	run score -q a,b --report - t.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "score: --report: give a file (--json writes to the standard output)" ]
	run score -q a,b --command x t.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "score: --command: the command lines go into the report (--report or --json)" ]
	run score --report /nonexistent/dir/r.html t.tsv
	[ "$status" -eq 2 ]
}

@test "the checkers find what is wrong" {
	for bad in '<a><b x="1" x="2"/></a>' '<a><b>&foo;</b></a>' '<a><b></a></b>' \
	    '<a>x < y</a>' '<a/><b/>' '<a t="<"/>' '<a>' "$(printf '<a>\001</a>')" 'text'; do
		printf '%s' "$bad" > bad.xml
		run awk -f "$ROOT/tests/xml-check.awk" bad.xml
		[ "$status" -eq 1 ] || { echo "accepted: $bad"; false; }
	done
	for bad in '{"a":1,}' '{"a":01}' '[1,2' '{"a":"\x"}' '{"a":1} x' \
	    '{"a":1,"a":2}' "$(printf '"a\tb"')" '' '{a:1}' 'nul'; do
		printf '%s' "$bad" > bad.json
		run awk -f "$ROOT/tests/json-check.awk" bad.json
		[ "$status" -eq 1 ] || { echo "accepted: $bad"; false; }
	done
}

@test "make demo writes the report of the Adult release and says where" {
	KANON_DEMO_OUT=$T run sh "$ROOT/demo.sh"
	[ "$status" -eq 0 ]
	[ "${lines[${#lines[@]} - 2]}" = "The release report of FD k=10 (score --report): $T/demo-report.html" ]
	[ "${lines[${#lines[@]} - 1]}" = "(the release it describes: $T/demo-release.tsv)" ]
	xmlok demo-report.html
	grep -qF '<td>k = 10</td><td class="pass">pass</td>' demo-report.html
	grep -qF '<tr><th>original</th><td>data/adult/adult.tsv</td><td>30162</td>' demo-report.html
	if command -v sha256sum > /dev/null; then
		h=$(sha256sum < demo-release.tsv | cut -d' ' -f1)
		grep -qF "<td><code>$h</code></td>" demo-report.html
	fi
	grep -qF '<tr><th>released unchanged</th><td>none</td></tr>' demo-report.html
}

@test "random tables: the report and the JSON are well-formed and hold the text's figures" {
	for seed in 1 2 3 4 5 6; do
		randtable "$seed" 300 4 $((seed + 2)) > r.tsv
		freqset -q c1,c2 r.tsv > p.tsv
		args="-q c1,c2 -s c3 -k $seed -l 2 --population p.tsv --sampling-fraction 0.$seed"
		# shellcheck disable=SC2086
		score $args --report r.html r.tsv > text.out
		xmlok r.html
		figures_in text.out r.html
		# shellcheck disable=SC2086
		score $args --json r.tsv > j.json
		jsonflat j.json > j.flat
		sed -n 's/^figures\.//p' j.flat | diff text.out -
		# The histogram's classes add up to the classes.
		[ "$(awk -F'\t' '/^class_sizes\.[0-9]*\.classes/ { s += $2 } END { print s }' j.flat)" = \
		    "$(awk -F'\t' '$1 == "classes" { print $2 }' text.out)" ]
	done
}

@test "ncp and precision in the report and the JSON, with the reason when one is not measured" {
	printf 'age\tzip\n20\t11\n30\t12\n40\t13\n60\t21\n' > o.tsv
	printf 'age\tzip\n[20-40]\t1*\n[20-40]\t1*\n60\t21\n*\t*\n' > r.tsv
	printf '11\t1*\t*\n12\t1*\t*\n13\t1*\t*\n21\t2*\t*\n' > zip.tsv
	printf '20\t[20-40]\t*\n30\t[20-40]\t*\n40\t[20-40]\t*\n60\t[60-80]\t*\n' > age.tsv
	score -q age,zip -H zip=zip.tsv -H age=age.tsv r.tsv > text.out
	score -q age,zip -H zip=zip.tsv -H age=age.tsv --report r.html --json r.tsv > j.json
	xmlok r.html
	figures_in text.out r.html
	grep -qF '<tr><td>ncp</td><td>0.625</td></tr>' r.html
	grep -qF '<tr><td>precision</td><td>0.5</td></tr>' r.html
	! grep -q 'is not measured' r.html || false
	jsonflat j.json > j.flat
	sed -n 's/^figures\.//p' j.flat | diff text.out -
	grep -qF "$(printf 'figures.ncp\t0.625')" j.flat
	grep -qF "$(printf 'figures.precision\t0.5')" j.flat
	grep -qF "$(printf 'not_measured.ncp\tnull')" j.flat
	grep -qF "$(printf 'not_measured.precision\tnull')" j.flat
	# age numeric from the original: NCP; no precision, and why.
	score -q age,zip -H zip=zip.tsv --original o.tsv --report r.html --json r.tsv > j.json
	xmlok r.html
	grep -qF '<tr><td>ncp</td><td>0.5625</td></tr>' r.html
	! grep -q '<tr><td>precision</td>' r.html || false
	grep -qF "<p>Precision is not measured: &#39;age&#39; has no hierarchy (-H)" r.html
	jsonflat j.json > j.flat
	grep -qF "$(printf 'figures.ncp\t0.5625')" j.flat
	! grep -q '^figures.precision' j.flat || false
	grep -qF "$(printf "not_measured.precision\t'age' has no hierarchy (-H)")" j.flat
}

@test "--report and --json on a release whose numeric quasi-identifiers hold the suppressed rows' mark: the plot leaves those rows out (found by review: exit 2, no report)" {
	cd "$BATS_TEST_TMPDIR"
	printf 'a\tb\n1\t5\n2\t6\n*\t*\n' > mr.tsv
	printf 'a\tb\n*\t*\n1\t5\n2\t6\n' > mr2.tsv
	for f in mr.tsv mr2.tsv; do
		score --json "$f" > j
		grep -q '"program": "score"' j
		score --report r.html "$f" > /dev/null
		grep -q '<svg' r.html
	done
}
