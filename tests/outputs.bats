#!/usr/bin/env bats
# Output files (kanon(7), OUTPUT FILES): every file a program writes
# (-o of each program, partition's -r, the output of a --job) against
# the adversarial cases, as tables of program rows:
#
#   inputs   an output that names a file the run reads, however it
#            arrives (operand, stdin, -H file or directory, -n, -r,
#            --classes, --columns-file, --original, --workload,
#            --tree, a second operand of --merge or -m), by its name,
#            a symbolic link or a hard link; and the standard output
#            appended to each input.  The table itself may be replaced
#            (as by sort -o), anything else is refused with status 2,
#            the input untouched, no temp file left.
#   outputs  each output's mode, owner and group kept when it replaces
#            a file, 0666 less the umask when new; a symbolic link
#            followed only when its owner is the caller or root (in a
#            sticky world-writable directory, one of neither the caller
#            nor the directory's owner refused with fs.protected_symlinks'
#            message); and a run with the standard output closed.
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
	# For each input of INPUTS, a copy of the fixtures with the
	# input's copy (.0), a symbolic link sl and a hard link hl to it
	# beside it, as same_input makes them for each case: made once,
	# copied for each (cp -a keeps the links).
	FX=$BATS_FILE_TMPDIR/fx
	mkdir "$FX"
	local in dir x
	while IFS='|' read -r x in x; do
		in=${in// /}
		[ -n "$in" ] && [ ! -e "$FX/${in//\//_}" ] || continue
		x=$FX/${in//\//_}
		cp -a "$F" "$x"
		dir=.
		[ "$in" = "${in%/*}" ] || dir=${in%/*}
		cp "$x/$in" "$x/$in.0"
		ln -s "${in##*/}" "$x/$dir/sl"
		ln "$x/$in" "$x/$dir/hl"
	done <<< "$INPUTS"
	export F FX
}

setup() {
	export TMPDIR=$BATS_TEST_TMPDIR/tmp
	mkdir "$TMPDIR"
	n=0
	fails=
	failed=
}

# fresh [DIR]: a new copy of the fixtures (or of DIR), the current
# directory.
fresh() {
	n=$((n + 1))
	C=$BATS_TEST_TMPDIR/c$n
	cp -a "${1:-$F}" "$C" && cd "$C" || return 1
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

# go COMMAND: runs COMMAND under bash in the current directory; sets
# status, output and stderr (each without its final newlines) as bats's
# run --separate-stderr did, without run's own work (about 7 ms a
# command: these tests run hundreds).
go() {
	cmd=$1
	status=0
	bash -c "$cmd" > "$BATS_TEST_TMPDIR/go.out" \
	    2> "$BATS_TEST_TMPDIR/go.err" || status=$?
	output=$(< "$BATS_TEST_TMPDIR/go.out")
	stderr=$(< "$BATS_TEST_TMPDIR/go.err")
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

# The table of inputs: name | input | its name in messages | expected |
# command.  expected is "ok" when the output may replace the input (the
# table the program reads), else the message, in which %o stands for
# the output's name as given and %i for the input's name; R is the
# message of every such refusal, "%o: output file is input file (%i)".
INPUTS='
freqset operand      | t.tsv       | t.tsv       | ok | freqset -q a -o @ t.tsv
freqset stdin        | t.tsv       | stdin       | ok | freqset -q a -o @ < t.tsv
freqset - operand    | t.tsv       | stdin       | ok | freqset -q a -o @ - < t.tsv
freqset 2nd operand  | t2.tsv      | t2.tsv      | ok | freqset -q a -o @ t.tsv t2.tsv
freqset --merge      | fs2.tsv     | fs2.tsv     | ok | freqset --merge -o @ fs.tsv fs2.tsv
freqset -H file      | hb.tsv      | hb.tsv      | R  | freqset -q b -H b=hb.tsv -L b=1 -o @ t.tsv
freqset -H dir       | hdir/b.tsv  | hdir/b.tsv  | R  | freqset -q b -H hdir -L b=1 -o @ t.tsv
freqset cols-file    | cols.txt    | cols.txt    | R  | freqset --columns-file cols.txt --skip-header -o @ t.tsv
score operand        | rel.tsv     | rel.tsv     | ok | score -q a -k 2 -o @ rel.tsv
score stdin          | rel.tsv     | stdin       | ok | score -q a -k 2 -o @ < rel.tsv
score --original     | orig.tsv    | orig.tsv    | R  | score -q a -k 2 --original orig.tsv --workload wl.tsv -o @ rel.tsv
score --workload     | wl.tsv      | wl.tsv      | R  | score -q a -k 2 --original orig.tsv --workload wl.tsv -o @ rel.tsv
score -H             | hb.tsv      | hb.tsv      | R  | score -q b -k 2 -H b=hb.tsv --original orig.tsv --workload-auto b -o @ t.tsv
score cols-file      | cols.txt    | cols.txt    | R  | score --columns-file cols.txt --skip-header -q a -k 1 -o @ t.tsv
extsort operand      | t.tsv       | t.tsv       | ok | extsort -k a -o @ t.tsv
extsort stdin        | t.tsv       | stdin       | ok | extsort -k a -o @ < t.tsv
extsort -m 2nd       | s2.tsv      | s2.tsv      | ok | extsort -m -k a -o @ s1.tsv s2.tsv
extsort cols-file    | cols.txt    | cols.txt    | R  | extsort --columns-file cols.txt --skip-header -k a -o @ t.tsv
lattice operand      | t.tsv       | t.tsv       | ok | lattice-search -q b -H b=hb.tsv -k 2 -o @ t.tsv
lattice stdin        | t.tsv       | stdin       | ok | lattice-search -q b -H b=hb.tsv -k 2 -o @ < t.tsv
lattice -H file      | hb.tsv      | hb.tsv      | R  | lattice-search -q b -H b=hb.tsv -k 2 -o @ t.tsv
lattice -H dir       | hdir/b.tsv  | hdir/b.tsv  | R  | lattice-search -q b -H hdir -k 2 -o @ t.tsv
lattice cols-file    | cols.txt    | cols.txt    | R  | lattice-search --columns-file cols.txt --skip-header -q b -H b=hb.tsv -k 2 -o @ t.tsv
recode operand       | t.tsv       | t.tsv       | ok | recode -n node -H b=hb.tsv -k 2 -o @ t.tsv
recode stdin         | t.tsv       | stdin       | ok | recode -n node -H b=hb.tsv -k 2 -o @ < t.tsv
recode -n            | node        | node        | R  | recode -n node -H b=hb.tsv -k 2 -o @ t.tsv
recode -H file       | hb.tsv      | hb.tsv      | R  | recode -n node -H b=hb.tsv -k 2 -o @ t.tsv
recode -H dir        | hdir/b.tsv  | hdir/b.tsv  | R  | recode -n node -H hdir -k 2 -o @ t.tsv
recode --classes     | classes.tsv | classes.tsv | R  | recode -n node -H b=hb.tsv --classes classes.tsv -k 2 -o @ t.tsv
recode --classes -   | classes.tsv | stdin       | R  | recode -n node -H b=hb.tsv --classes - -k 2 -o @ t.tsv < classes.tsv
recode cols-file     | cols.txt    | cols.txt    | R  | recode --columns-file cols.txt --skip-header -n node -H b=hb.tsv -k 2 -o @ t.tsv
recode -r operand    | part.tsv    | part.tsv    | ok | recode -r reg.tsv -k 2 -o @ part.tsv
recode -r stdin      | part.tsv    | stdin       | ok | recode -r reg.tsv -k 2 -o @ < part.tsv
recode -r            | reg.tsv     | reg.tsv     | R  | recode -r reg.tsv -k 2 -o @ part.tsv
recode -r -          | reg.tsv     | stdin       | R  | recode -r - -k 2 -o @ part.tsv < reg.tsv
partition operand    | t.tsv       | t.tsv       | ok | partition -q a -k 2 -o @ t.tsv
partition stdin      | t.tsv       | stdin       | ok | partition -q a -k 2 -o @ < t.tsv
partition rothko-t   | t.tsv       | t.tsv       | ok | partition -q a -k 2 -a rothko-t -o @ t.tsv
partition rothko-s   | t.tsv       | stdin       | ok | partition -q a -k 2 -a rothko-s -o @ < t.tsv
partition -H         | hb.tsv      | hb.tsv      | R  | partition -q b -H b=hb.tsv -k 2 -o @ t.tsv
partition -H dir     | hdir/b.tsv  | hdir/b.tsv  | R  | partition -q b -H hdir -k 2 -o @ t.tsv
partition cols-file  | cols.txt    | cols.txt    | R  | partition --columns-file cols.txt --skip-header -q a -k 2 -o @ t.tsv
partition -r operand | t.tsv       | t.tsv       | -r %o: the input file too (%i): the regions would replace the table before its second pass; give them another file | partition -q a -k 2 -o /dev/null -r @ t.tsv
partition -r stdin   | t.tsv       | stdin       | R  | partition -q a -k 2 -o /dev/null -r @ < t.tsv
partition -r -H      | hb.tsv      | hb.tsv      | R  | partition -q b -H b=hb.tsv -k 2 -o /dev/null -r @ t.tsv
partition -r -H dir  | hdir/b.tsv  | hdir/b.tsv  | R  | partition -q b -H hdir -k 2 -o /dev/null -r @ t.tsv
partition -r cols    | cols.txt    | cols.txt    | R  | partition --columns-file cols.txt --skip-header -q a -k 2 -o /dev/null -r @ t.tsv
job groups operand   | t.tsv       | t.tsv       | ok | partition -q a -k 2 --columns a,b,s --skip-header --job groups --tree tree -o @ t.tsv
job groups stdin     | t.tsv       | stdin       | ok | partition -q a -k 2 --columns a,b,s --skip-header --job groups --tree tree -o @ < t.tsv
job groups --tree    | tree        | tree        | R  | partition -q a -k 2 --columns a,b,s --skip-header --job groups --tree tree -o @ t.tsv
job open --tree      | tree        | tree        | R  | partition -q a -k 2 --columns a,b,s --job open --tree tree -o @
job open, tree stdin | tree        | tree        | R  | partition -q a -k 2 --columns a,b,s --job open --tree tree -o @ < tree
'

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
# $ref; fails the case if it does not succeed.  The test's reference
# runs share one copy of the fixtures (which they only read), each
# writing a file of its own.
reference() {
	local r=$BATS_TEST_TMPDIR/ref
	[ -d "$r" ] || cp -a "$F" "$r" || return 1
	cd "$r" || return 1
	nref=$((${nref:-0} + 1))
	go "${1//@/ref$nref.out}"
	[ "$status" -eq 0 ] || fail "the reference run failed"
	ref=$r/ref$nref.out
}

# same_input NAME INPUT INAME EXPECT COMMAND: the output named by its
# name, a symbolic link and a hard link to the input.
same_input() {
	local name=$1 in=$2 iname=$3 expect=$4 c=$5 out msg dir=.
	# The input's directory, as dirname prints it (no process: the
	# cases are many).
	[ "$in" = "${in%/*}" ] || dir=${in%/*}
	reference "$c"
	for out in "$in" sl hl; do
		# The fixtures with $in.0, $dir/sl and $dir/hl (setup_file).
		fresh "$FX/${in//\//_}"
		[ "$out" = "$in" ] || out=$dir/$out
		out=${out#./}
		go "${c//@/$out}"
		if [ "$expect" = ok ]; then
			[ "$status" -eq 0 ] || fail "status $status, not 0"
			[ -z "$stderr" ] || fail "a message"
			cmp -s "$ref" "$out" || fail "$out is not the output"
			[ "$out" = "${out%hl}" ] || cmp -s "$in" "$in.0" ||
			    fail "$in changed through a hard link"
			[ "$out" = "${out%sl}" ] || [ -L "$out" ] ||
			    fail "the link $out was replaced"
		else
			msg=$expect
			[ "$msg" = R ] && msg='%o: output file is input file (%i)'
			msg=${msg//%o/$out}
			refused "${msg//%i/$iname}"
			cmp -s "$in" "$in.0" || fail "$in changed"
		fi
		leftover . "$dir"
	done
	# The standard output appended to the input, instead of -o.
	case $c in
	*'-o @'*)
		fresh
		cp "$in" "$in.0"
		go "${c//-o @/} >> $in"
		refused "$iname: input file is output file (standard output)"
		cmp -s "$in" "$in.0" || fail "$in changed"
		leftover .
		;;
	esac
}

@test "inputs: an output over the table replaces it, over another input is refused" {
	each "$INPUTS" same_input
	done_cases
}

@test "inputs: -o /dev/stdout appended to the input is refused" {
	fresh
	cp t.tsv t.0
	go 'freqset -q a -o /dev/stdout t.tsv >> t.tsv'
	refused 't.tsv: input file is output file (/dev/stdout)'
	cmp -s t.tsv t.0 || fail "t.tsv changed"
	go 'freqset -q a -o /dev/stdin < t.tsv'
	[ "$status" -eq 2 ] || fail "status $status, not 2"
	cmp -s t.tsv t.0 || fail "t.tsv changed"
	done_cases
}

@test "inputs: an input that becomes the output's target mid-run is kept" {
	# The target is checked again before the rename: a hard link made
	# to the hierarchy after the output was opened is not replaced.
	fresh
	mkfifo fifo
	cp hb.tsv hb.0
	(exec 3> fifo; sleep 1; ln -f hb.tsv out; exec 3>&-) &
	go 'freqset -q b -H b=hb.tsv -L b=1 -o out --columns a,b,s fifo'
	wait
	refused 'out: output file is input file (hb.tsv)'
	cmp -s hb.tsv hb.0 || fail "hb.tsv changed"
	leftover .
	done_cases
}

@test "inputs: a FIFO both read and written (-o, or the standard output) is refused, not waited on forever" {
	fresh
	mkfifo ff
	for p in "freqset -q a" "score -q a -k 1" "extsort -k a" "partition -q a -k 1"; do
		# timeout: the old build waited on itself forever.
		(cat t.tsv > ff &)
		go "timeout 10 $p -o ff ff"
		[ "$status" -eq 2 ] && [ "$stderr" = "${p%% *}: ff: output file is input file (ff): a pipe the run both reads and writes would wait on itself: give the output another file" ] ||
		    fail "$p -o ff ff: status $status: $stderr"
		(cat t.tsv > ff &)
		go "timeout 10 $p ff 1<>ff"
		[ "$status" -eq 2 ] && [ "$stderr" = "${p%% *}: standard output: output file is input file (ff): a pipe the run both reads and writes would wait on itself: give the output another file" ] ||
		    fail "$p ff 1<>ff: status $status: $stderr"
	done
	# A socket on both stdin and stdout (inetd, socat) goes both ways:
	# no clash.
	if command -v python3 > /dev/null 2>&1; then
		python3 - "$(command -v freqset)" > sock.out <<-'PY' || fail "socket: $(cat sock.out)"
		import socket, subprocess, sys
		a, b = socket.socketpair()
		p = subprocess.Popen([sys.argv[1], "-q", "a"], stdin=b, stdout=b)
		b.close()
		a.sendall(open("t.tsv", "rb").read())
		a.shutdown(socket.SHUT_WR)
		got = b""
		while True:
		    d = a.recv(65536)
		    if not d:
		        break
		    got += d
		sys.exit(p.wait() or (0 if got.startswith(b"a\tcount\n") else 3))
		PY
	fi
	# A FIFO output that is no input is written.
	(cat ff > got &)
	go 'freqset -q a -o ff t.tsv'
	[ "$status" -eq 0 ] || fail "status $status"
	for i in 1 2 3 4 5 6 7 8 9 10; do [ -s got ] && break; sleep 0.2; done
	freqset -q a t.tsv | cmp -s - got || fail "the FIFO got other bytes"
	done_cases
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

# mode_of FILE: its mode in octal, owner and group.
mode_of() {
	stat -c '%a %U %G' "$1"
}

# modes NAME COMMAND: the mode, owner and group of a replaced file kept,
# a new file's mode from the umask.
modes() {
	local c=$2 m o want i=0
	reference "$c"
	# One copy of the fixtures for the nine runs, each with an output
	# file of its own (the runs write nothing else).
	fresh
	for m in '600 root root' '640 nobody nogroup' '604 root nogroup' \
	    '2660 root nogroup' '444 root root'; do
		i=$((i + 1))
		echo old > "out$i"
		o=${m#* }
		chown "${o/ /:}" "out$i"
		chmod "${m%% *}" "out$i"
		# What mode_of prints for the mode, owner and group just set
		# (were taken by stat: a process fewer, and the setting is
		# checked too).
		want=$m
		go "${c//@/out$i}"
		[ "$status" -eq 0 ] || fail "status $status, not 0 ($m)"
		cmp -s "$ref" "out$i" || fail "out$i is not the output ($m)"
		[ "$(mode_of "out$i")" = "$want" ] ||
		    fail "out$i is $(mode_of "out$i"), not $want"
		leftover .
	done
	for m in 022:644 027:640 077:600 000:666; do
		i=$((i + 1))
		go "umask ${m%:*}; ${c//@/new$i}"
		[ "$status" -eq 0 ] || fail "status $status, not 0 (umask)"
		[ "$(stat -c %a "new$i")" = "${m#*:}" ] ||
		    fail "new$i is $(stat -c %a "new$i") under umask ${m%:*}"
	done
}

@test "outputs: the mode, owner and group of a replaced file are kept" {
	[ "$(id -u)" -eq 0 ] || skip "needs root, to give files to nobody"
	getent group nogroup > /dev/null || skip "no group nogroup"
	each "$OUTPUTS" modes
	done_cases
}

# sticky NAME COMMAND: a symbolic link in a sticky world-writable
# directory is followed when the caller or the directory's owner owns
# it, and refused when another user does, at the end of the path or in
# the middle, directly or from a link elsewhere.
sticky() {
	local c=$2 owner diru out msg
	reference "$c"
	for owner in nobody root dirowner; do
		fresh
		mkdir -m 1777 st real
		echo old > real/victim
		chmod 600 real/victim
		ln -s "$C/real/victim" st/link
		diru=root
		if [ "$owner" = dirowner ]; then
			diru=nobody
			owner=nobody
		fi
		chown "$diru" st
		chown -h "$owner" st/link
		go "${c//@/st/link}"
		if [ "$owner" = nobody ] && [ "$diru" = root ]; then
			refused "st/link: a symbolic link in a sticky world-writable directory, owned by neither you nor the directory's owner: not followed"
			[ "$(cat real/victim)" = old ] || fail "the victim changed"
		elif [ "$owner" = nobody ]; then
			# The directory's owner's link is another user's too:
			# root does not write through it.
			refused "st/link: a symbolic link owned by another user (uid $(id -u nobody)), neither you nor root: not followed: give the path it leads to"
			[ "$(cat real/victim)" = old ] || fail "the victim changed"
		else
			[ "$status" -eq 0 ] || fail "status $status, not 0 ($owner)"
			cmp -s "$ref" real/victim || fail "victim not written ($owner)"
			[ "$(stat -c %a real/victim)" = 600 ] || fail "mode lost"
		fi
		[ -L st/link ] || fail "the link was replaced"
		leftover st real
	done
	# A directory link in the middle of the path, and a link elsewhere
	# that leads to the planted one.
	for out in st/dl/victim l2; do
		fresh
		mkdir -m 1777 st real
		echo old > real/victim
		ln -s "$C/real" st/dl
		ln -s "$C/real/victim" st/link
		ln -s st/link l2
		chown -h nobody st/dl st/link
		go "${c//@/$out}"
		msg=st/dl
		[ "$out" = l2 ] && msg=st/link
		refused "$out: $msg: a symbolic link in a sticky world-writable directory, owned by neither you nor the directory's owner: not followed"
		[ "$(cat real/victim)" = old ] || fail "the victim changed"
		leftover st real
	done
}

@test "outputs: another user's link, in a directory of that user that is not sticky, is not followed (root replaced the file it led to)" {
	[ "$(id -u)" -eq 0 ] || skip "needs root, to make a link owned by another user"
	id nobody > /dev/null 2>&1 || skip "no user nobody"
	fresh
	mkdir -m 755 nd real
	echo old > real/victim
	ln -s "$C/real/victim" nd/out
	ln -s "$C/real" nd/dl
	chown -h nobody nd nd/out nd/dl
	why="a symbolic link owned by another user (uid $(id -u nobody)), neither you nor root: not followed: give the path it leads to"
	go 'freqset -q a -o nd/out t.tsv'
	refused "nd/out: $why"
	go 'freqset -q a -o nd/dl/victim t.tsv'
	refused "nd/dl/victim: nd/dl: $why"
	[ "$(cat real/victim)" = old ] || fail "the victim changed"
	# Root's link in nobody's directory is followed (found by review:
	# no case of it).
	ln -s "$C/real/ok" nd/rootlink
	go 'freqset -q a -o nd/rootlink t.tsv'
	[ "$status" -eq 0 ] || fail "root's link: status $status"
	freqset -q a t.tsv | cmp -s - real/ok || fail "root's link: the file it leads to not written"
	# One's own link is followed.
	ln -s "$C/real/victim" mine
	go 'freqset -q a -o mine t.tsv'
	[ "$status" -eq 0 ] || fail "own link: status $status"
	freqset -q a t.tsv | cmp -s - real/victim || fail "own link: the file it leads to not written"
	done_cases
}

@test "outputs: a link planted in a sticky world-writable directory is not followed" {
	[ "$(id -u)" -eq 0 ] || skip "needs root, to make a link owned by another user"
	id nobody > /dev/null 2>&1 || skip "no user nobody"
	each "$OUTPUTS" sticky
	done_cases
}

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
		refused "standard output: write error: Bad file descriptor"
		leftover .
		;;
	esac
}

@test "outputs: with the standard output closed, -o succeeds" {
	each "$OUTPUTS" closed
	done_cases
}

# The cases an adversarial review found (2026-11-29): names under /proc,
# two outputs that are one file, closed standard descriptors, another
# user's file in /tmp, and working directories others could write to.
# own: a table and its copy in the test's directory.
own() {
	mkdir "$BATS_TEST_TMPDIR/w" && cd "$BATS_TEST_TMPDIR/w" || return 1
	printf 'a\tb\n1\tx\n2\ty\n1\tx\n' > t.tsv
	cp t.tsv t0
}

@test "outputs: a name under /proc other than a descriptor's is refused, the input untouched" {
	own
	ln -s /proc/self/cwd/t.tsv viaproc
	local c p
	for c in "freqset -q a" "extsort -k a" "score -q a -k 1" \
	    "partition -q a -k 1" "lattice-search -q a -H a=interval:2 -k 1"; do
		p=${c%% *}
		run --separate-stderr $c -o /proc/self/cwd/t.tsv t.tsv
		[ "$status" -eq 2 ] && [ -z "$output" ]
		[ "$stderr" = "$p: /proc/self/cwd/t.tsv: a name under /proc, not a file to write: give the file's own path (or /dev/fd/N for a descriptor)" ]
		cmp t.tsv t0
		run --separate-stderr $c -o viaproc t.tsv
		[ "$status" -eq 2 ]
		[ "$stderr" = "$p: viaproc: leads to /proc/self/cwd/t.tsv: a name under /proc, not a file to write: give the file's own path (or /dev/fd/N for a descriptor)" ]
		cmp t.tsv t0
	done
	[ -z "$(ls -A | grep -v '^t.tsv$\|^t0$\|^viaproc$')" ]
	# A descriptor's name there is written as the shell writes it.
	freqset -q a -o /proc/self/fd/1 t.tsv > out
	[ "$(cat out)" = "$(printf 'a\tcount\n1\t2\n2\t1')" ]
}

@test "outputs: two outputs of one run that are one file (a link to a new name, or the same name) are refused, nothing written" {
	own
	ln -s r.tsv l.tsv
	run --separate-stderr partition -q a -k 1 -r r.tsv -o l.tsv t.tsv
	[ "$status" -eq 2 ] && [ -z "$output" ]
	[ "$stderr" = "partition: r.tsv: the file of another output too (given as l.tsv): one would replace the other" ]
	[ ! -e r.tsv ]
	run --separate-stderr score -q a -k 1 --report x.html -o x.html t.tsv
	[ "$status" -eq 2 ]
	[ "$stderr" = "score: x.html: the file of another output too (given as x.html): one would replace the other" ]
	[ ! -e x.html ]
	[ -z "$(ls -A | grep -v '^t.tsv$\|^t0$\|^l.tsv$')" ]
}

@test "outputs: a standard descriptor the caller closed is refused as -o, with a message" {
	own
	run bash -c 'freqset -q a -o /dev/stdin t.tsv <&- 2>&1; echo "status $?"'
	[ "$output" = "$(printf 'freqset: /dev/stdin: the standard input is closed: nothing written there would be kept\nstatus 2')" ]
	run bash -c 'extsort -k a -o /dev/fd/0 t.tsv <&- 2>&1; echo "status $?"'
	[ "$output" = "$(printf 'extsort: /dev/fd/0: the standard input is closed: nothing written there would be kept\nstatus 2')" ]
	run bash -c 'score -q a -k 1 -o /dev/stdout t.tsv >&- 2> err; echo "status $?"'
	[ "$output" = "status 2" ]
	[ "$(cat err)" = "score: /dev/stdout: the standard output is closed: nothing written there would be kept" ]
	run bash -c 'partition -q a -k 1 -o /dev/fd/2 t.tsv 2>&-; echo "status $?"'
	[ "$output" = "status 2" ]
	# Open for reading, as a shell may leave the standard input.
	run bash -c 'freqset -q a -o /dev/stdin t.tsv < t0 2>&1; echo "status $?"'
	[ "$output" = "$(printf 'freqset: /dev/stdin: open for reading only, not an output\nstatus 2')" ]
	cmp t.tsv t0
}

@test "inputs: a FIFO named by an option (-H, -r, --classes, -n, --original, --workload) and as -o is refused, not waited on forever (the output is opened first)" {
	fresh
	mkfifo ff
	local c
	for c in "partition -q a -k 1 -H a=ff" "lattice-search -q a -k 1 -H a=ff" \
	    "recode -r ff" "recode -n ff" "recode -n a=0 --classes ff" \
	    "score --original ff -q a" "score --workload ff -q a"; do
		# timeout: the build before waited on itself forever.
		go "timeout 10 $c -o ff t.tsv"
		[ "$status" -eq 2 ] && [ "$stderr" = "${c%% *}: ff: output file is input file (ff): a pipe the run both reads and writes would wait on itself: give the output another file" ] ||
		    fail "$c -o ff: status $status: $stderr"
	done
}

@test "outputs: in a sticky directory others may write to, another user's file or FIFO is not written" {
	[ "$(id -u)" -eq 0 ] || skip "needs root, to make a file owned by another user"
	id nobody > /dev/null 2>&1 || skip "no user nobody"
	own
	mkdir -m 1777 st
	chmod 1777 st
	echo theirs > st/out
	chmod 666 st/out
	mkfifo st/fifo
	chown nobody st/out st/fifo
	local c
	for c in "freqset -q a" "extsort -k a" "partition -q a -k 1"; do
		for f in out fifo; do
			run --separate-stderr timeout 20 $c -o "st/$f" t.tsv
			[ "$status" -eq 2 ]
			[ "$stderr" = "${c%% *}: st/$f: a file in a sticky directory that others may write to, owned by neither you nor the directory's owner: not written (kanon(7), OUTPUT FILES)" ]
		done
	done
	[ "$(cat st/out)" = theirs ]
	[ "$(stat -c %U st/out)" = nobody ]
	# Ours, or the directory's owner's, is replaced as elsewhere.
	chown root st/out
	freqset -q a -o st/out t.tsv
	[ "$(wc -l < st/out)" -eq 3 ]
}

@test "-T and TMPDIR: a directory others may write to and not sticky, or another user's, is refused before reading; a sticky one or one's own is used" {
	own
	mkdir open
	chmod 0777 open
	local p c
	for c in "freqset -q a" "extsort -k a" "score -q a -k 1" \
	    "partition -q a -k 1" "recode -n a=0 -H a=interval:2 -k 1" \
	    "lattice-search -q a -H a=interval:2 -k 1"; do
		p=${c%% *}
		run --separate-stderr $c -T open t.tsv
		[ "$status" -eq 2 ] && [ -z "$output" ]
		[ "$stderr" = "$p: -T open: not sticky, and other users may write to it: they could replace the working files in it (kanon(7), TMPDIR): give a directory of your own, or a sticky one such as /tmp" ]
		TMPDIR=open run --separate-stderr $c t.tsv
		[ "$status" -eq 2 ]
		[ "$stderr" = "$p: TMPDIR open: not sticky, and other users may write to it: they could replace the working files in it (kanon(7), TMPDIR): give a directory of your own, or a sticky one such as /tmp" ]
	done
	chmod 1777 open
	mkdir mine
	freqset -q a -S 1K -T open t.tsv > out1
	TMPDIR=mine freqset -q a -S 1K t.tsv > out2
	cmp out1 out2
	[ -z "$(ls -A open)" ] && [ -z "$(ls -A mine)" ]
	if [ "$(id -u)" -eq 0 ] && id nobody > /dev/null 2>&1; then
		chown nobody mine
		run --separate-stderr freqset -q a -T mine t.tsv
		[ "$status" -eq 2 ]
		[ "$stderr" = "freqset: -T mine: the directory of another user, who could replace the working files in it (kanon(7), TMPDIR): give a directory of your own, or a sticky one such as /tmp" ]
		# A directory of one's own below another user's: they could
		# rename it, and the runs opened again by name with it.
		mkdir mine/sub
		run --separate-stderr freqset -q a -T mine/sub t.tsv
		[ "$status" -eq 2 ]
		[ "$stderr" = "freqset: -T mine/sub: $PWD/mine is the directory of another user, who could replace the directories below it, and the working files in them (kanon(7), TMPDIR): give a directory of your own, on a path of your own or root's" ]
	fi
	chmod 0777 open
	mkdir open/sub
	run --separate-stderr freqset -q a -T open/sub t.tsv
	[ "$status" -eq 2 ]
	[ "$stderr" = "freqset: -T open/sub: $PWD/open is not sticky, and other users may write to it: they could replace the directories below it, and the working files in them (kanon(7), TMPDIR): give a directory of your own, on a path of your own or root's" ]
}

@test "-T through a link: the directory it led to at the start is used, so a link changed during the run cannot take the runs opened again by name (found by review: forged groups released, runs left behind)" {
	own
	mkdir A B
	ln -s A L
	awk 'BEGIN { print "a"; for (i = 0; i < 300000; i++) printf "v%07d\n", i }' > big.tsv
	freqset -q a -S 1M big.tsv > want
	( head -n 150001 big.tsv; sleep 1; tail -n +150002 big.tsv ) |
	    freqset -q a -S 1M -T L -o got &
	sleep 0.5
	ln -sfn B L
	wait $!
	cmp want got
	[ -z "$(ls -A A)" ] && [ -z "$(ls -A B)" ]
}

@test "two outputs written to one file through the standard output are refused: a report or regions on /dev/stdout beside the table there (found by review: mixed with exit 0)" {
	own
	run --separate-stderr sh -c 'score -q a -k 1 --report /dev/stdout t.tsv > x'
	[ "$status" -eq 2 ]
	[ "$stderr" = "score: /dev/stdout: the file of another output too (standard output): their bytes would mix, or one replace the other" ]
	run --separate-stderr sh -c 'partition -q a -k 1 -r /dev/stdout t.tsv | cat'
	[ "$stderr" = "partition: /dev/stdout: the file of another output too (standard output): their bytes would mix, or one replace the other" ]
	run --separate-stderr sh -c 'score -q a -k 1 --report /dev/fd/1 -o /dev/stdout t.tsv > x'
	[ "$status" -eq 2 ]
	[[ "$stderr" == "score: /dev/"*": the file of another output too (/dev/"*"): their bytes would mix, or one replace the other" ]]
	# To a terminal or /dev/null, several may go; to two files, each.
	score -q a -k 1 --report /dev/null t.tsv > /dev/null
	score -q a -k 1 --report r.html t.tsv > x
	[ -s r.html ] && [ -s x ]
}

@test "an output named by 248 to 255 bytes is written: its temp file's name is cut to fit (found by review: 'File name too long')" {
	own
	local n
	for n in 248 255; do
		name=$(printf "%${n}s" | tr ' ' x)
		freqset -q a -o "$name" t.tsv
		[ "$(cat "$name")" = "$(printf 'a\tcount\n1\t2\n2\t1')" ]
		freqset -q b -o "$name" t.tsv
		[ "$(head -n 1 "$name")" = "$(printf 'b\tcount')" ]
		rm "$name"
	done
	[ "$(ls -A | sort | tr '\n' ' ')" = "t.tsv t0 " ]
}

@test "two outputs to one file, either order, or '-' twice, are refused; a -T whose path cannot be resolved to be checked is refused (found by review of the fixes)" {
	own
	run --separate-stderr partition -q a -k 1 -r - t.tsv
	[ "$status" -eq 2 ]
	[ "$stderr" = "partition: -: the standard output of another output too: their bytes would mix" ]
	run --separate-stderr sh -c 'partition -q a -k 2 -r r.tsv t.tsv > r.tsv'
	[ "$status" -eq 2 ]
	[ "$stderr" = "partition: r.tsv: the file of another output too (standard output): their bytes would mix, or one replace the other" ]
	run --separate-stderr sh -c 'score -q a -k 2 --report rep.html t.tsv > rep.html'
	[ "$status" -eq 2 ]
	# A path of more than PATH_MAX bytes once resolved, through links.
	c=$(printf "%200s" | tr ' ' d)
	half=$(for i in $(seq 11); do printf '%s/' "$c"; done)
	mkdir -p "deepp/$half$half"
	(cd "deepp/$half" && chmod 0777 "$half")
	ln -sfn "deepp/$half" l1
	ln -sfn "$half" l1/l2
	run --separate-stderr freqset -q a -S 1K -T l1/l2 t.tsv
	[ "$status" -eq 2 ]
	[[ "$stderr" == "freqset: -T l1/l2: its path cannot be resolved to be checked (kanon(7), TMPDIR): "* ]]
	[ -z "$(cd "deepp/$half" && ls -A "$half")" ]
}

@test "an output over a file you could not write is refused and the file kept, as sort -o keeps it; root replaces it, its mode kept; an empty -o or -T is refused (found by review: replaced, and ': Is a directory')" {
	[ "$(id -u)" -eq 0 ] || skip "needs root, to run as nobody"
	getent group nogroup > /dev/null || skip "no group nogroup"
	w=$(mktemp -d /tmp/kanon-ow.XXXXXX)
	chmod 755 "$w"
	chown nobody "$w"
	printf 'k\n3\n1\n' > "$w/in.tsv"
	chmod 644 "$w/in.tsv"
	echo old > "$w/ro.tsv"
	chmod 444 "$w/ro.tsv"
	chown nobody "$w/ro.tsv"
	echo old > "$w/rootf.tsv"
	for f in ro.tsv rootf.tsv in.tsv; do
		run setpriv --reuid nobody --regid nogroup --clear-groups \
		    extsort -k k -o "$w/$f" "$w/in.tsv"
		[ "$status" -eq 2 ] || { echo "$f: $status $output"; false; }
		[[ "$output" == *"$w/$f: not writable by you: not replaced"* ]]
	done
	[ "$(cat "$w/ro.tsv")" = old ]
	[ "$(cat "$w/rootf.tsv")" = old ]
	run setpriv --reuid nobody --regid nogroup --clear-groups \
	    extsort -k k -o "$w/new.tsv" "$w/in.tsv"
	[ "$status" -eq 0 ]
	[ "$(ls -A "$w" | wc -l)" -eq 4 ]
	extsort -k k -o "$w/ro.tsv" "$w/in.tsv"
	printf 'k\n1\n3\n' | cmp - "$w/ro.tsv"
	[ "$(stat -c %a "$w/ro.tsv")" = 444 ]
	run extsort -k k -o '' "$w/in.tsv"
	[ "$status" -eq 2 ]
	[[ "$output" == *"an output named by an empty file name"* ]]
	run freqset -q k -T '' "$w/in.tsv"
	[ "$status" -eq 2 ]
	[[ "$output" == *"-T: an empty directory name"* ]]
	rm -rf "$w"
}
