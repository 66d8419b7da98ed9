#!/usr/bin/env bats
# Inputs from fuzzing (fuzz/README), replayed through the programs: the
# inputs in tests/fuzz-cases/ that reach the rare paths of the reader,
# the hierarchies, the merge of frequency sets and recode's parsers, and
# every input that made a fuzz target crash or hang.  Each program must
# end with status 0 or 1, or 2 with a message naming it, and never by a
# signal; where the fuzz target checked a property (the same bytes
# spilled or in memory, sorted or not), it is checked again here.

load common

setup() {
	C="$ROOT/tests/fuzz-cases"
	T=$BATS_TEST_TMPDIR
	cd "$T" || return 1
}

# Prints a message and fails the test.
fail() {
	printf '%s\n' "$*" >&2
	return 1
}

# clean CMD...: runs CMD, which must end with 0 or 1, or with 2 and a
# message starting with the program's name; never by a signal.
clean() {
	run --separate-stderr "$@"
	case $status in
	0|1) ;;
	2)
		[[ $stderr == "$(basename "$1"): "* ]] ||
		    fail "$*: status 2 without a message: '$stderr'" ;;
	*)
		fail "$*: status $status (a signal?); stderr: $stderr" ;;
	esac
}

# replay: runs each line of stdin, "expected-status|command", in the
# shell (with $C the cases, $T the test's directory): clean, and with
# that status when one is given.
replay() {
	local want cmd
	while IFS='|' read -r want cmd; do
		[ -n "$cmd" ] || continue
		eval "set -- $cmd"
		clean "$@" || return 1
		[ -z "$want" ] || [ "$status" -eq "$want" ] ||
		    fail "$cmd: status $status, expected $want; stderr: $stderr"
	done
}

@test "fuzz: frequency-set merges end cleanly" {
	replay <<-'EOF'
	0|freqset --merge $C/merge-lowbyte.fs
	0|freqset --merge -S 1K -T $T $C/merge-lowbyte.fs
	0|freqset --merge -q b,a $C/merge-lowbyte.fs
	0|freqset --merge $C/merge-nokeys.fs
	0|freqset --merge --sorted $C/merge-nokeys.fs
	2|freqset --merge $C/merge-sum-overflow.fs
	2|freqset --merge -S 1K -T $T $C/merge-sum-overflow.fs
	2|freqset --merge --sorted $C/merge-sum-overflow.fs
	|freqset --merge $C/merge-sum-scale.fs
	|freqset --merge --sorted $C/merge-sum-scale.fs
	2|freqset --merge $C/merge-count-overflow.fs
	2|freqset --merge --sorted $C/merge-count-overflow.fs
	2|freqset --merge --sorted $C/merge-unsorted.fs
	0|freqset --merge $C/merge-unsorted.fs
	EOF
}

@test "fuzz: merges in memory, spilled and sorted give the same bytes" {
	for f in merge-lowbyte merge-nokeys; do
		freqset --merge "$C/$f.fs" > mem
		freqset --merge -S 1K -T "$T" "$C/$f.fs" > spill
		cmp mem spill || fail "$f: spilled differs"
	done
	# Sorted as the reducer gets it: the header, then the lines in
	# byte order.
	{ head -n 1 "$C/merge-lowbyte.fs"
	  tail -n +2 "$C/merge-lowbyte.fs" | LC_ALL=C sort; } > s.fs
	freqset --merge --sorted s.fs > sorted
	freqset --merge "$C/merge-lowbyte.fs" > mem
	cmp mem sorted || fail "sorted differs: $(cat sorted)"
}

@test "fuzz: tables end cleanly" {
	printf 'a\nb\n' > cols
	replay <<-'EOF'
	2|freqset $C/tsv-long-cr.tsv
	0|extsort -k 2 $C/tsv-long-cr.tsv
	0|score -q a $C/tsv-long-cr.tsv
	2|freqset $C/tsv-ragged-crlf.tsv
	2|score -q a $C/tsv-ragged-crlf.tsv
	0|freqset --skip-header $C/tsv-skip-header.tsv
	0|freqset --skip-header $C/tsv-skip-header.tsv $C/tsv-skip-header.tsv
	0|freqset --columns a,b --skip-header $C/tsv-skip-header.tsv
	0|freqset --columns-file cols --skip-header $C/tsv-skip-header.tsv
	2|freqset $C/tsv-nul-header.tsv
	2|freqset $C/tsv-skip-header.tsv $C/tsv-nul-header.tsv
	2|extsort -k 1 $C/tsv-nul-header.tsv
	EOF
}

@test "fuzz: hierarchies end cleanly" {
	printf 'x\ty\na\t1\nb;c\t1\nb;c\t2\n"q"\t1\n' > t.tsv
	printf 'x\ty\na\t1\nb\t2\n' > ab.tsv
	printf 'x\ty\na1\t1\n' > a1.tsv
	replay <<-'EOF'
	0|freqset -H x=$C/hier-quotes.csv -L x=1 t.tsv
	0|lattice-search -H x=$C/hier-quotes.csv -k 2 -q x t.tsv
	0|partition -H x=$C/hier-quotes.csv -k 2 -q x t.tsv
	|freqset -H x=$C/hier-cr.csv -L x=1 ab.tsv
	2|freqset -H x=$C/hier-unterminated.csv ab.tsv
	2|freqset -H x=$C/hier-two-parents.tsv a1.tsv
	0|freqset -H x=interval:0.000000001,1 -L x=1 $C/interval-wide.tsv
	0|freqset -H x=interval:0.000000001,1 -L x=2 -S 1K -T $T $C/interval-wide.tsv
	|lattice-search -H x=interval:0.000000001,1 -k 1 -q x $C/interval-wide.tsv
	|partition -H x=interval:0.000000001,1 -k 2 -q x $C/interval-wide.tsv
	2|freqset -H x=interval:0.000000001,1 $C/interval-range.tsv
	2|freqset -H x=mask:1,2 $C/interval-wide.tsv
	EOF
}

@test "fuzz: recode's nodes and regions end cleanly" {
	printf 'age\tsex\tclass\n37\tM\t1\n' > t.tsv
	replay <<-'EOF'
	2|recode -n $C/node-short.tsv -H age=interval:5 t.tsv
	2|recode -n $C/node-metric-name.tsv t.tsv
	2|recode -r $C/regions-bad.tsv t.tsv
	2|recode -n age=99999999999999999999 -H age=interval:5 t.tsv
	2|recode -n age=1,,sex=0 -H age=interval:5 t.tsv
	2|recode -n =1 t.tsv
	EOF
}
