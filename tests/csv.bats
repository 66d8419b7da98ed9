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

setup() {
	T=$BATS_TEST_TMPDIR
}

# csvfix: the CSV fixtures of the tests below, in the scratch directory
# of bad_setup (bad.bash).
csvfix() {
	bad_setup
	printf 'a,b\n1,2\n3,"x\ny\n' > unclosed.csv
	printf 'a,b\n1,"x\ny"z\n' > junk.csv
	printf 'a;b\n1;"x" \n' > junksemi.csv
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
