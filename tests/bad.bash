# Shared by the bad-*.bats files (hardening): tables of bad input that
# must fail cleanly, and of valid edge cases that must give exact output.
#
# A bad case is a line "name | status | stderr pattern | command".  The
# command runs under bash -c with a timeout, in a scratch directory that
# holds the fixtures of bad_setup.  It must exit with exactly the status
# given (never a timeout, never a signal), print a message matching the
# pattern (a [[ == ]] glob over the whole stderr), write nothing on
# stdout, leave no file behind (in the directory, in o/ or in TMPDIR)
# and, with -o, leave the old output file o/old as it was.
#
# A valid case is a line "name | status | expected | command": the
# expected output is a printf format (\t, \n, \xff ...) or =FILE, the
# name of a file holding it.  stderr must be empty (with status 1, no
# solution, it may say why on one line) and stdout (or the -o file) the
# expected bytes exactly, compared with cmp.
#
# An operand written @FILE runs the case three times: with FILE as the
# operand ("file"), with FILE piped to the standard input and the operand
# left out ("pipe"), and with -o added after the program name ("out": -o
# o/old for a bad case, -o o/new for a valid one).  An @ in the pattern
# stands for FILE, or for stdin in the pipe run.  A command without
# @FILE runs as it is and with -o, unless it holds -o already, a |, ;
# or &, or does not start with a kanon program (write "env prog" to run
# a case without -o).  A status written 2+ allows output on stdout
# before the error (for what streams its output, as the man pages say);
# -o must still be left alone.  A valid case with a status other than 0
# and nothing to write must not create the -o file.
#
# Lines that are empty or start with # are skipped.  Every failing run is
# printed with its command, then the test fails.

bats_require_minimum_version 1.5.0

BAD_TIMEOUT=${BAD_TIMEOUT:-20}
BAD_PROGS=" freqset score gendata extsort lattice-search recode partition "

# bad_setup: a scratch directory with the shared fixtures, TMPDIR in it.
# The tables have the columns a (numbers), b (x or y, the leaves of
# hb.tsv) and s (numbers, a sensitive column); fs.tsv is the frequency
# set of t.tsv over a and b.
bad_setup() {
	W=$BATS_TEST_TMPDIR/w
	mkdir "$W" "$BATS_TEST_TMPDIR/tmp" && cd "$W" || return 1
	export TMPDIR=$BATS_TEST_TMPDIR/tmp
	printf 'a\tb\ts\n1\tx\t5\n2\ty\t7\n1\tx\t9\n3\ty\t7\n' > t.tsv
	: > empty.tsv
	printf 'a\tb\ts\n1\tx\t5\n2\ty\n' > short.tsv
	printf 'a\tb\ts\n1\tx\t5\t6\n2\ty\t7\n' > long.tsv
	printf 'a\tb\ts\r\n1\tx\t5\r\n2\ty\t7\t\r\n' > raggedcr.tsv
	printf 'a\tb\ta\n1\tx\t5\n' > dup.tsv
	printf 'a\t\ts\n1\tx\t5\n' > noname.tsv
	printf 'a\tb\ts\n1\tx\t5\n2\ty\0z\t7\n' > nul.tsv
	printf 'a\tb\0\ts\n1\tx\t5\n' > nulhdr.tsv
	printf 'a\tb\ts\n1\tx\t5\nx1\ty\t7\n' > nonnum.tsv
	printf 'a\tb\ts\n1\tx\t5\n2\ty\tabc\n' > nonnums.tsv
	printf 'a\tb\ts\n1\tx\t5\n2\ty\t7\n3\tzz\t9\n' > notleaf.tsv
	printf 'a\tb\ts\n1\tx\t5\n2\t\t7\n' > emptyval.tsv
	printf 'x\tX\t*\ny\tY\t*\n' > hb.tsv
	printf 'x\tX\t*\ny\tY\n' > hragged.tsv
	printf 'x\tX\t*\ny\tX\t*\nx\tY\t*\n' > hnf.tsv
	printf 'x\tX\tP\ny\tX\tQ\n' > hnf2.tsv
	printf 'x\tX\t*\ny\0\tY\t*\n' > hnul.tsv
	: > hempty.tsv
	printf 'x;X;*\ny;Y\n' > hr.csv
	printf 'x;X;*\ny;Y;*\nx;Y;*\n' > hnf.csv
	printf 'x;X;*\ny;"Y;*\n' > hq.csv
	mkdir hdir o
	cp hragged.tsv hdir/b.tsv
	printf 'a\nb\ns\n' > cols.txt
	printf 'a\tb\tcount\n1\tx\t2\n2\ty\t1\n3\ty\t1\n' > fs.tsv
	printf 'a\tcount\n1\t2\n2\n' > fsshort.tsv
	printf 'a\tcount\n1\t2\n2\tx\n' > fsbad.tsv
	printf 'a\tcount\n1\t2\n2\t-1\n' > fsneg.tsv
	printf 'a\tcount\n2\t2\n1\t1\n' > fsunsorted.tsv
	printf 'b\tcount\nx\t1\nzz\t2\n' > fsleaf.tsv
	echo precious > o/old
}

# bad_big: big.tsv, a table whose third line holds a 1 MB (2^20 bytes)
# value in b, bigval, that value, and bignum.tsv, with the value in s on
# its third line.
bad_big() {
	awk 'BEGIN { v = "x"; for (i = 0; i < 20; i++) v = v v
		printf "%s", v > "bigval"
		print "a\tb\ts"; print "1\tx\t5"; print "2\t" v "\t7"
		print "1\tx\t9" }' > big.tsv
	{ printf 'a\tb\ts\n1\tx\t5\n1\tx\t'; cat bigval; echo; } > bignum.tsv
}

# bad_fail CASE MODE COMMAND TEXT: reports a failed run.
bad_fail() {
	printf 'case "%s" (%s): %s\n    %s\n' "$1" "$2" "$4" "$3" >&2
	bad_nfail=$((bad_nfail + 1))
}

# bad_trim TEXT: TEXT without leading and trailing blanks, in REPLY.
bad_trim() {
	REPLY=$1
	REPLY=${REPLY#"${REPLY%%[![:space:]]*}"}
	REPLY=${REPLY%"${REPLY##*[![:space:]]}"}
}

# bad_split LINE: the four fields of a table line, trimmed, in bad_f[1..4];
# 1 for a line to skip.
bad_split() {
	local i
	bad_trim "$1"
	[ -z "$REPLY" ] || [[ $REPLY == \#* ]] && return 1
	IFS='|' read -r 'bad_f[1]' 'bad_f[2]' 'bad_f[3]' 'bad_f[4]' <<< "$REPLY"
	for i in 1 2 3 4; do
		bad_trim "${bad_f[i]}"
		bad_f[i]=$REPLY
	done
}

# bad_modes CMD: the modes in which CMD runs, in REPLY.
bad_modes() {
	local first=${1%% *}
	REPLY=file
	if [[ $1 =~ (^|[[:space:]])@[^[:space:]] ]]; then
		REPLY="$REPLY pipe"
	fi
	if [[ $BAD_PROGS == *" $first "* && " $1 " != *" -o "* &&
	    $1 != *[\|\;\&]* ]]; then
		REPLY="$REPLY out"
	fi
}

# bad_expand MODE CMD PATTERN OUT: the command and pattern of MODE, in
# bad_cmd and bad_pat; OUT is the file of -o.
bad_expand() {
	local mode=$1 file name
	bad_cmd=$2
	bad_pat=$3
	if [[ $bad_cmd =~ (^|[[:space:]])@([^[:space:]]+) ]]; then
		file=${BASH_REMATCH[2]}
		name=$file
		if [ "$mode" = pipe ]; then
			bad_cmd="cat $file | ${bad_cmd/"@$file"/}"
			name=stdin
		else
			bad_cmd=${bad_cmd/"@$file"/"$file"}
		fi
		bad_pat=${bad_pat//@/"$name"}
	fi
	if [ "$mode" = out ]; then
		local rest=
		[[ $bad_cmd == *" "* ]] && rest=${bad_cmd#* }
		bad_cmd="${bad_cmd%% *} -o $4 $rest"
	fi
}

# bad_run CMD [noread]: runs CMD with the timeout; sets status, and
# output and stderr as bats' run does (without the final newline), the
# output left in $bad_got and unread with noread.  (Not bats' run, and no
# command substitution here: the tables are long, and forks cost.)  The
# command gets bats' descriptor 3 closed, so that nothing left behind
# can hold the test up.
bad_run() {
	bad_got=$BATS_TEST_TMPDIR/got
	status=0
	timeout -k 5 "$BAD_TIMEOUT" bash -c "$1" < /dev/null > "$bad_got" \
	    2> "$BATS_TEST_TMPDIR/err" 3>&- || status=$?
	output= stderr=
	[ -n "${2:-}" ] || IFS= read -r -d '' output < "$bad_got" || true
	IFS= read -r -d '' stderr < "$BATS_TEST_TMPDIR/err" || true
	output=${output%$'\n'}
	stderr=${stderr%$'\n'}
}

# bad_files: the names in the scratch directory, in o and in TMPDIR, in
# REPLY.
bad_files() {
	local f
	shopt -s nullglob dotglob
	f=(* o/* "$TMPDIR"/*)
	shopt -u nullglob dotglob
	REPLY="${f[*]}"
}

# bad_common CASE MODE CMD STATUS: the checks of every run: no hang, no
# signal, no sanitizer report, the status, no file left behind.
bad_common() {
	local c=$1 m=$2 cmd=$3 want=$4
	if [ "$status" -eq 124 ]; then
		bad_fail "$c" "$m" "$cmd" "hangs (killed after ${BAD_TIMEOUT}s)"
		return 1
	fi
	if [ "$status" -ge 128 ]; then
		bad_fail "$c" "$m" "$cmd" "killed by signal $((status - 128)): $stderr"
		return 1
	fi
	if [[ $stderr == *Sanitizer* || $stderr == *"runtime error:"* ]]; then
		bad_fail "$c" "$m" "$cmd" "sanitizer report: $stderr"
		return 1
	fi
	if [ "$status" -ne "$want" ]; then
		bad_fail "$c" "$m" "$cmd" \
		    "exit $status, expected $want; stderr: ${stderr:0:300}"
		return 1
	fi
	bad_files
	if [ "$REPLY" != "$bad_ls" ]; then
		local f now=$REPLY diff=
		for f in $now; do
			[[ " $bad_ls " == *" $f "* ]] || diff="$diff +$f"
		done
		for f in $bad_ls; do
			[[ " $now " == *" $f "* ]] || diff="$diff -$f"
		done
		bad_fail "$c" "$m" "$cmd" "files left or removed:$diff"
		rm -rf "${TMPDIR:?}"/* o/new
		bad_files
		bad_ls=$REPLY
		return 1
	fi
	return 0
}

# bad_end: fails if a case failed.
bad_end() {
	[ "$bad_nfail" -eq 0 ] || {
		echo "$bad_nfail failed runs" >&2
		return 1
	}
}

# bad_quiet: leaves bats' traps (ERR, and the DEBUG trap run before
# every command when KANON_TEST_TRACE keeps it, which would make the
# tables slow) and errexit, in the subshell that runs a table.
bad_quiet() {
	trap - DEBUG ERR
	set +eET
}

# bad_cases: runs the table of bad cases on the standard input.
bad_cases() (
	bad_quiet
	local line c st pat cmd mode partial
	bad_nfail=0
	bad_files
	bad_ls=$REPLY
	while IFS= read -r line; do
		bad_split "$line" || continue
		c=${bad_f[1]} st=${bad_f[2]} pat=${bad_f[3]} cmd=${bad_f[4]}
		partial=
		[[ $st == *+ ]] && partial=1 && st=${st%+}
		bad_modes "$cmd"
		for mode in $REPLY; do
			bad_expand "$mode" "$cmd" "$pat" o/old
			bad_run "$bad_cmd"
			bad_common "$c" "$mode" "$bad_cmd" "$st" || continue
			[[ $stderr == $bad_pat ]] ||
			    bad_fail "$c" "$mode" "$bad_cmd" \
			    "stderr '${stderr:0:300}' does not match '$bad_pat'"
			if [ -z "$partial" ] || [ "$mode" = out ]; then
				[ -z "$output" ] ||
				    bad_fail "$c" "$mode" "$bad_cmd" "stdout: '${output:0:200}'"
			fi
			IFS= read -r REPLY < o/old
			[ "$REPLY" = precious ] || {
				bad_fail "$c" "$mode" "$bad_cmd" "o/old replaced: '${REPLY:0:200}'"
				echo precious > o/old
			}
		done
	done
	bad_end
)

# ok_cases: runs the table of valid cases on the standard input.
ok_cases() (
	bad_quiet
	local line c st want cmd mode t=$BATS_TEST_TMPDIR
	bad_nfail=0
	bad_files
	bad_ls=$REPLY
	while IFS= read -r line; do
		bad_split "$line" || continue
		c=${bad_f[1]} st=${bad_f[2]} want=${bad_f[3]} cmd=${bad_f[4]}
		if [[ $want == =* ]]; then
			cp "${want#=}" "$t/want"
		else
			printf "$want" > "$t/want"
		fi
		bad_modes "$cmd"
		for mode in $REPLY; do
			bad_expand "$mode" "$cmd" "" o/new
			bad_run "$bad_cmd" noread
			# With -o: nothing on stdout, and o/new written, but
			# not on an error; on exit 1, score's failed check is
			# written, while a run with no solution (lattice-search,
			# recode, partition) keeps the file: o/new is not made,
			# and there is nothing more to compare.
			if [ "$mode" = out ]; then
				[ -s "$bad_got" ] &&
				    bad_fail "$c" "$mode" "$bad_cmd" "output on stdout"
				if [ -e o/new ]; then
					mv o/new "$bad_got"
					{ [ "$st" -eq 0 ] || { [ "$st" -eq 1 ] &&
					    [ "${cmd%% *}" = score ]; }; } ||
					    bad_fail "$c" "$mode" "$bad_cmd" "exit $st wrote o/new"
				elif [ "$st" -eq 0 ] || [ "${cmd%% *}" = score ]; then
					bad_fail "$c" "$mode" "$bad_cmd" "no o/new"
				else
					cp "$t/want" "$bad_got"
				fi
			fi
			bad_common "$c" "$mode" "$bad_cmd" "$st" || continue
			# Status 1 (no solution) may say why, on one line.
			[ -z "$stderr" ] || { [ "$st" -eq 1 ] &&
			    [[ $stderr == "${cmd%% *}: "* && $stderr != *$'\n'* ]]; } ||
			    bad_fail "$c" "$mode" "$bad_cmd" "stderr: ${stderr:0:300}"
			cmp -s "$t/want" "$bad_got" ||
			    bad_fail "$c" "$mode" "$bad_cmd" "output differs:
$(diff <(od -c "$t/want") <(od -c "$bad_got") | head -20)"
		done
	done
	bad_end
)
