#!/usr/bin/env bats
# Signals: a run killed midway leaves no temp file and the -o target
# untouched, and exits non-zero.  The program is held mid-input by a
# FIFO that the test keeps open, so the timing is deterministic.

load common

setup() {
	T=$BATS_TEST_TMPDIR
	mkdir "$T/out"
}

# killed PROG SIGNAL ARGS...: start PROG reading a FIFO, feed it a
# header and rows, send SIGNAL, and check the aftermath.
killed() {
	prog=$1 sig=$2
	shift 2
	echo old > "$T/out/result.tsv"
	mkfifo "$T/fifo"
	# Background jobs start with SIGINT ignored: restore the default.
	perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or die' \
	    "$prog" "$@" -o "$T/out/result.tsv" "$T/fifo" 2> "$T/err" &
	pid=$!
	exec 5> "$T/fifo"
	printf 'a\tb\n1\tx\n2\ty\n' >&5
	# Wait until the output temp file exists (opened after the header).
	for i in $(seq 100); do
		[ "$(ls -A "$T/out" | wc -l)" -ge 2 ] && break
		sleep 0.05
	done
	[ "$(ls -A "$T/out" | wc -l)" -eq 2 ]
	kill -s "$sig" "$pid"
	exec 5>&-
	status=0
	wait "$pid" || status=$?
	[ "$status" -ne 0 ]
	[ "$(ls -A "$T/out")" = result.tsv ]
	[ "$(cat "$T/out/result.tsv")" = old ]
	rm "$T/fifo"
}

@test "freqset: SIGTERM, SIGINT, SIGHUP remove temp files, keep the target" {
	for sig in TERM INT HUP; do
		killed freqset $sig -q a
	done
}

@test "score: SIGTERM, SIGINT, SIGHUP remove temp files, keep the target" {
	for sig in TERM INT HUP; do
		killed score $sig -k 2
	done
}

@test "a finished run replaces the target and leaves no temp file" {
	printf 'a\tb\n1\tx\n' > "$T/in"
	echo old > "$T/out/result.tsv"
	freqset -q a -o "$T/out/result.tsv" "$T/in"
	[ "$(ls -A "$T/out")" = result.tsv ]
	[ "$(cat "$T/out/result.tsv")" = "$(printf 'a\tcount\n1\t1')" ]
}

@test "a signal ignored by the caller (nohup) stays ignored" {
	mkfifo "$T/fifo"
	nohup freqset -q a -o "$T/out/r.tsv" "$T/fifo" > /dev/null 2>&1 &
	pid=$!
	exec 5> "$T/fifo"
	printf 'a\tb\n1\tx\n' >&5
	sleep 0.2
	kill -s HUP "$pid"
	sleep 0.2
	kill -0 "$pid"
	exec 5>&-
	wait "$pid"
	[ "$(cat "$T/out/r.tsv")" = "$(printf 'a\tcount\n1\t1')" ]
}

@test "a closed pipe ends quietly, also with SIGPIPE ignored" {
	gendata -n 300000 uniform -d 3 -c 1000 > "$T/big"
	for ign in DEFAULT IGNORE; do
		perl -e "\$SIG{PIPE} = '$ign'; exec @ARGV or die" \
		    freqset "$T/big" 2> "$T/err" | head -1 > "$T/first"
		[ "$(cat "$T/first")" = "$(printf 'a1\ta2\ta3\tcount')" ]
		[ ! -s "$T/err" ]
	done
}

@test "partition: SIGTERM, SIGINT, SIGHUP remove temp files, keep the target" {
	mkdir "$T/tmpd"
	for sig in TERM INT HUP; do
		killed partition $sig -q a -k 1 -T "$T/tmpd"
		[ -z "$(ls -A "$T/tmpd")" ]
		killed partition $sig -q a -k 1 -a rothko-s -S 1M -T "$T/tmpd"
		[ -z "$(ls -A "$T/tmpd")" ]
	done
}

@test "partition out of core: a signal amid the node files removes them all" {
	gendata -n 300000 --seed 1 agrawal > "$T/ag"
	mkdir "$T/tmpd"
	for a in "rothko-t" "rothko-s --sample 2000"; do
		echo old > "$T/out/result.tsv"
		perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or die' partition \
		    -a $a -S 64M --fit-rows 300 -T "$T/tmpd" \
		    -q salary,age,hvalue,loan -k 5 -o "$T/out/result.tsv" \
		    "$T/ag" 2> "$T/err" &
		pid=$!
		# Wait for the spool and at least one node file (held open,
		# unlinked), and signal then.  The count asserted is the one
		# seen: a second look, right after a first that saw two or
		# more, once saw fewer (a loaded CI run; not reproduced).
		n=0
		for i in $(seq 400); do
			n=$(held_temps "$pid" "$T/tmpd")
			[ "$n" -lt 2 ] || break
			sleep 0.02
		done
		[ "$n" -ge 2 ]
		kill -s TERM "$pid"
		status=0
		wait "$pid" || status=$?
		[ "$status" -ne 0 ]
		[ -z "$(ls -A "$T/tmpd")" ]
		[ "$(ls -A "$T/out")" = result.tsv ]
		[ "$(cat "$T/out/result.tsv")" = old ]
	done
}
