#!/usr/bin/env bats
# Output files (kanon(7), OUTPUT FILES): every file a program writes
# (-o of each program, partition's -r, the output of a --job) against
# the adversarial cases, as a table of program rows: a run with the
# standard output closed.
#
# A command holds @ where the output's file goes.  Each case runs in a
# fresh copy of the fixtures; failures are collected and printed with
# their command, then the test fails.

load common

# The fixtures, built once: a table, a hierarchy (as a file and in a
# directory), a column list, a node of lattice-search and the classes
# of the table, partition's regions and table, a release with a
# workload, frequency sets, sorted tables and an empty tree file.
setup_file() {
	F=$BATS_FILE_TMPDIR/fixtures
	mkdir "$F" && cd "$F" || return 1
	printf 'a\tb\ts\n1\tx\t5\n2\ty\t7\n1\tx\t9\n3\ty\t7\n' > t.tsv
	printf 'a\tb\ts\n4\tx\t5\n4\ty\t7\n' > t2.tsv
	printf 'x\tX\t*\ny\tY\t*\n' > hb.tsv
	mkdir hdir
	cp hb.tsv hdir/b.tsv
	printf 'a\nb\ns\n' > cols.txt
	lattice-search -q b -H b=hb.tsv -k 2 --best t.tsv > node
	freqset -q b t.tsv > classes.tsv
	partition -q a -k 2 -r reg.tsv t.tsv > part.tsv
	recode -r reg.tsv -k 2 part.tsv > rel.tsv
	cp t.tsv orig.tsv
	printf 'a\n1..2\n3\n' > wl.tsv
	freqset t.tsv > fs.tsv
	freqset t2.tsv > fs2.tsv
	extsort -k a t.tsv > s1.tsv
	extsort -k a t2.tsv > s2.tsv
	: > tree
	export F
}

setup() {
	export TMPDIR=$BATS_TEST_TMPDIR/tmp
	mkdir "$TMPDIR"
	n=0
	fails=
	failed=
}

# fresh: a new copy of the fixtures, the current directory.
fresh() {
	n=$((n + 1))
	C=$BATS_TEST_TMPDIR/c$n
	cp -a "$F" "$C" && cd "$C" || return 1
}

# fail WHY: records a failed case: the command last run, its status
# and messages (once), and WHY.
fail() {
	if [ "$cmd" != "$failed" ]; then
		failed=$cmd
		fails+="case: $cmd"$'\n'"  status $status, stdout '$output',"
		fails+=" stderr '$stderr'"$'\n'
	fi
	fails+="  $1"$'\n'
}

# done_cases: fails the test if a case failed.
done_cases() {
	[ -z "$fails" ] || { printf '%s' "$fails"; false; }
}

# go COMMAND: runs COMMAND under bash in the current directory.
go() {
	cmd=$1
	run --separate-stderr bash -c "$cmd"
}

# leftover DIR...: fails the case if a temp file is left in a DIR.
leftover() {
	local d f
	for d in "$@" "$TMPDIR"; do
		for f in "$d"/.*.?????? "$d"/kanon.*; do
			[ -e "$f" ] && fail "temp file left: $f"
		done
	done
	return 0
}

# refused PATTERN: the run must have failed with status 2, printed
# nothing on stdout and exactly "prog: PATTERN" on stderr.
refused() {
	local prog=${cmd%% *}
	[ "$status" -eq 2 ] || fail "status $status, not 2"
	[ -z "$output" ] || fail "output on stdout"
	[ "$stderr" = "$prog: $1" ] || fail "stderr, not '$prog: $1'"
}

# each TABLE FUNCTION: calls FUNCTION with the fields of every row of
# TABLE (separated by |, trimmed).
each() {
	local line i
	local -a f
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		IFS='|' read -r -a f <<< "$line"
		for i in "${!f[@]}"; do
			f[i]=${f[i]#"${f[i]%%[![:space:]]*}"}
			f[i]=${f[i]%"${f[i]##*[![:space:]]}"}
		done
		"$2" "${f[@]}"
	done <<< "$1"
}

# reference COMMAND: the output of COMMAND written to a new file, in
# $ref; fails the case if it does not succeed.
reference() {
	fresh
	go "${1//@/ref.out}"
	[ "$status" -eq 0 ] || fail "the reference run failed"
	ref=$C/ref.out
}

# The table of outputs: name | command, one per file a program writes.
OUTPUTS='
freqset -o          | freqset -q a -o @ t.tsv
score -o            | score -q a -k 1 -o @ t.tsv
gendata -o          | gendata -n 5 -o @ uniform
extsort -o          | extsort -k a -o @ t.tsv
extsort -m -o       | extsort -m -k a -o @ s1.tsv s2.tsv
lattice-search -o   | lattice-search -q b -H b=hb.tsv -k 2 -o @ t.tsv
recode -n -o        | recode -n node -H b=hb.tsv -k 2 -o @ t.tsv
recode -r -o        | recode -r reg.tsv -k 2 -o @ part.tsv
partition -o        | partition -q a -k 2 -o @ t.tsv
partition -r        | partition -q a -k 2 -o /dev/null -r @ t.tsv
partition rothko -o | partition -q a -k 2 -a rothko-t -o @ t.tsv
partition --job -o  | partition -q a -k 2 --columns a,b,s --skip-header --job groups --tree tree -o @ t.tsv
'

# closed NAME COMMAND: with the standard output closed, a run with -o
# succeeds and writes the file, a run to the standard output fails.
closed() {
	local c=$2
	reference "$c"
	fresh
	go "${c//@/out} >&-"
	[ "$status" -eq 0 ] || fail "status $status, not 0"
	[ -z "$stderr" ] || fail "a message"
	cmp -s "$ref" out || fail "out is not the output"
	leftover .
	case $c in
	*'-o @'*)
		go "${c//-o @/} >&-"
		refused "write error on standard output: Bad file descriptor"
		leftover .
		;;
	esac
}

@test "outputs: with the standard output closed, -o succeeds" {
	each "$OUTPUTS" closed
	done_cases
}
