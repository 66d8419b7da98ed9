#!/usr/bin/env bats
# extsort: equal to LC_ALL=C sort -s on random tables over many key
# specs, with budgets that force many runs and multi-pass merges.

load common

setup() {
	T=$BATS_TEST_TMPDIR
	mkdir "$T/tmp"
	# Keys with ties, empty fields, negatives, decimals, junk.
	awk 'BEGIN {
		srand(42)
		print "w\tn\tm\ts"
		split("a,b,ab,,a b,B,b\001,zz,ab", words, ",")
		split("0,-0,1,-1,2.5,-2.5,10,010,.5,-.5,1.50,x,,  7,1e3,99999999999999999999,-3", nums, ",")
		for (i = 0; i < 3000; i++)
			printf "%s\t%s\t%d\t%d\n", words[1 + int(rand() * 9)],
			    nums[1 + int(rand() * 17)], int(rand() * 50) - 25, i
	}' > "$T/t.tsv"
	tail -n +2 "$T/t.tsv" > "$T/body"
}

@test "extsort equals sort -s over key specs, in memory and with tiny budgets" {
	while IFS='|' read -r ours gnu; do
		LC_ALL=C sort -s -t "$(printf '\t')" $gnu "$T/body" > "$T/want"
		for S in 1G 64K 16K; do
			extsort -S $S -T "$T/tmp" -k "$ours" "$T/t.tsv" > "$T/got"
			[ "$(head -1 "$T/got")" = "$(head -1 "$T/t.tsv")" ]
			tail -n +2 "$T/got" | cmp - "$T/want" ||
			    { echo "-k $ours -S $S"; false; }
		done
	done <<-EOF_
	w|-k1,1
	n:n|-k2,2n
	n:nr|-k2,2nr
	w:r|-k1,1r
	m:n,w|-k3,3n -k1,1
	w,n:n,m:nr|-k1,1 -k2,2n -k3,3nr
	n|-k2,2
	2:n,1|-k2,2n -k1,1
	EOF_
	[ -z "$(ls -A "$T/tmp")" ]
}

@test "-j: the same bytes for any number of threads, in memory and in runs" {
	# Enough rows to sort in parallel (2048 at least a part), with
	# many ties: the order of equal keys is the input's.
	cat "$T/body" "$T/body" "$T/body" "$T/body" > "$T/b4"
	{ head -1 "$T/t.tsv"; cat "$T/b4"; } > "$T/t4.tsv"
	for spec in 'w|-k1,1' 'n:n,m:nr|-k2,2n -k3,3nr' 'm:n|-k3,3n'; do
		LC_ALL=C sort -s -t "$(printf '\t')" ${spec#*|} "$T/b4" > "$T/want"
		for S in 1G 256K; do
			for j in 1 2 3 7; do
				extsort -j $j -S $S -T "$T/tmp" -k "${spec%%|*}" \
				    "$T/t4.tsv" | tail -n +2 | cmp - "$T/want" ||
				    { echo "-j $j -S $S -k ${spec%%|*}"; false; }
			done
		done
	done
	[ -z "$(ls -A "$T/tmp")" ]
	run extsort -j 0 "$T/t.tsv"
	[ "$status" -eq 2 ]
	[[ "$output" == "extsort: -j"* ]]
}

@test "keys longer than eight bytes, alike in their first eight, sort as sort -s" {
	# The prefixes decide nothing among these: the records sorted by
	# them are sorted again by their whole keys, stably.
	awk 'BEGIN {
		srand(7)
		print "l\tn\tr"
		split("abcdefgh,abcdefghi,abcdefgh0,abcdefgh00,abcdefg,abcdefgz,abcdefghij,", w, ",")
		for (i = 0; i < 6000; i++)
			printf "%s%s\t%d\t%d\n", w[1 + int(rand() * 8)],
			    rand() < .5 ? "" : int(rand() * 3),
			    int(rand() * 20) - 10, i
	}' > "$T/l.tsv"
	tail -n +2 "$T/l.tsv" > "$T/lbody"
	while IFS='|' read -r ours gnu; do
		LC_ALL=C sort -s -t "$(printf '\t')" $gnu "$T/lbody" > "$T/want"
		for S in 1G 64K; do
			for j in 1 3; do
				extsort -j $j -S $S -T "$T/tmp" -k "$ours" \
				    "$T/l.tsv" | tail -n +2 | cmp - "$T/want" ||
				    { echo "-j $j -S $S -k $ours"; false; }
			done
		done
	done <<-EOF_
	l|-k1,1
	l:r|-k1,1r
	l,n:n|-k1,1 -k2,2n
	n:n,l|-k2,2n -k1,1
	n:nr,l:r|-k2,2nr -k1,1r
	EOF_
	LC_ALL=C sort -s "$T/lbody" > "$T/want"
	extsort -S 64K -T "$T/tmp" --columns l,n,r "$T/lbody" | cmp - "$T/want"
	[ -z "$(ls -A "$T/tmp")" ]
}

@test "-j: the last merge, cut by key into parts, gives sort's bytes with -u, few keys, long lines" {
	# Few distinct keys (cuts fall between runs of equal keys), one
	# key only (no cut: one part), and lines of 5,000 bytes now and then
	# (a probe of a cut lands inside them).
	awk 'BEGIN {
		srand(11)
		print "k\tv\tx"
		for (i = 0; i < 20000; i++)
			printf "%s\t%d\t%s\n", substr("abcdef", 1 + int(rand() * 4), 2),
			    int(rand() * 5), rand() < .02 ? sprintf("%05000d", i) : i
	}' > "$T/p.tsv"
	tail -n +2 "$T/p.tsv" > "$T/pbody"
	while IFS='|' read -r ours gnu; do
		for u in "" -u; do
			LC_ALL=C sort -s $u -t "$(printf '\t')" $gnu "$T/pbody" \
			    > "$T/want"
			for j in 2 3 8; do
				extsort $u -j $j -S 128K -T "$T/tmp" -k "$ours" \
				    "$T/p.tsv" | tail -n +2 | cmp - "$T/want" ||
				    { echo "$u -j $j -k $ours"; false; }
			done
		done
	done <<-EOF_
	k|-k1,1
	v:n,k:r|-k2,2n -k1,1r
	x|-k3,3
	EOF_
	# Parts within the limit on open files: fewer, or none.
	LC_ALL=C sort -s -t "$(printf '\t')" -k1,1 "$T/pbody" > "$T/want"
	for n in 30 100; do
		(ulimit -n $n && extsort -j 8 -S 1M -T "$T/tmp" -k k \
		    "$T/p.tsv") | tail -n +2 | cmp - "$T/want"
	done
	awk -F '\t' 'NR > 1 { print "same\t" $2 "\t" $3 }' "$T/p.tsv" |
	    { printf 'k\tv\tx\n'; cat; } > "$T/one.tsv"
	tail -n +2 "$T/one.tsv" > "$T/want"
	extsort -j 3 -S 128K -T "$T/tmp" -k k "$T/one.tsv" | tail -n +2 |
	    cmp - "$T/want"
	[ -z "$(ls -A "$T/tmp")" ]
}

@test "-j: with -o the last merge's threads write their parts' lines at their places in the temp file; standard output (a file, after bytes already there, >>) and -u in order; lines longer than a chunk; sort's bytes for each" {
	awk 'BEGIN {
		srand(12)
		print "k\tv\tx"
		for (long = "x"; length(long) < 12000; long = long long)
			;
		long = substr(long, 1, 12000)
		for (i = 0; i < 220000; i++)
			printf "%d\t%d\t%s\n", int(rand() * 5000), int(rand() * 5),
			    rand() < .001 ? long i : i
	}' > "$T/d.tsv"
	tail -n +2 "$T/d.tsv" > "$T/dbody"
	LC_ALL=C sort -s -t "$(printf '\t')" -k1,1n "$T/dbody" > "$T/want"
	LC_ALL=C sort -s -u -t "$(printf '\t')" -k1,1n "$T/dbody" > "$T/wantu"
	# At -j 2, 64 runs at the fan-in: the read buffers leave the chunks
	# their least, 4 KB, and the lines of 12 KB are written alone.
	for j in 2 3; do
		set -- -j $j -S 1M -T "$T/tmp" -k k:n
		extsort "$@" "$T/d.tsv" > "$T/o1"
		tail -n +2 "$T/o1" | cmp - "$T/want"
		head -n 1 "$T/o1" | grep -qx 'k.v.x'
		extsort "$@" -o "$T/o2" "$T/d.tsv"
		cmp "$T/o1" "$T/o2"
		{ printf 'before\n'; extsort "$@" "$T/d.tsv"; printf 'after\n'; } \
		    > "$T/o3"
		{ printf 'before\n'; cat "$T/o1"; printf 'after\n'; } | cmp - "$T/o3"
		printf 'old\n' > "$T/o4"
		extsort "$@" "$T/d.tsv" >> "$T/o4"
		{ printf 'old\n'; cat "$T/o1"; } | cmp - "$T/o4"
		extsort "$@" -u "$T/d.tsv" > "$T/o5"
		tail -n +2 "$T/o5" | cmp - "$T/wantu"
		extsort "$@" --no-header "$T/d.tsv" > "$T/o6"
		cmp "$T/o6" "$T/want"
	done
	[ -z "$(ls -A "$T/tmp")" ]
}

@test "-j: a write error of the lines the last merge's threads write is reported, and nothing is left" {
	awk 'BEGIN { srand(3); print "a\tb"; for (i = 0; i < 90000; i++)
	    print int(rand() * 100000) "\t" i }' > "$T/w.tsv"
	# Each run within the limit of 600 KB on a file, the output not.
	run --separate-stderr bash -c "ulimit -f 600; trap '' XFSZ; extsort -j 2 -S 1M -T '$T/tmp' -k a:n -o '$T/out' '$T/w.tsv'"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"$T/out: write error: File too large"* ]]
	[ -z "$(ls -A "$T/tmp")" ]
	[ ! -e "$T/out" ]
	run --separate-stderr bash -c "ulimit -f 600; trap '' XFSZ; extsort -j 2 -S 1M -T '$T/tmp' -k a:n '$T/w.tsv' > '$T/out2'"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"standard output: write error: File too large"* ]]
	# Standard output is written in order (review: another process may
	# share it; written at the threads' offsets, a writer beside it
	# during the merge lost bytes or overwrote lines): every byte of
	# both is there.
	for i in 1 2 3 4 5 6; do cat "$T/w.tsv"; done | awk 'NR == 1 || !/^a/' \
	    > "$T/w6.tsv"
	extsort -j 1 -k a:n "$T/w6.tsv" > "$T/all"
	seq 100 | sed 's/^/LOG /' > "$T/log"
	{
		extsort -j 2 -S 1M -T "$T/tmp" -k a:n "$T/w6.tsv" &
		while read -r line; do echo "$line"; sleep 0.005; done < "$T/log"
		wait
	} > "$T/shared"
	[ "$(wc -c < "$T/shared")" -eq $(($(wc -c < "$T/all") + $(wc -c < "$T/log"))) ]
	[ "$(grep -o 'LOG [0-9]*' "$T/shared" | wc -l)" -eq 100 ]
	[ -z "$(ls -A "$T/tmp")" ]
}

@test "a line longer than the budget is sorted too" {
	awk 'BEGIN {print "a\tb"; for (i = 0; i < 5; i++) {
		s = ""; for (j = 0; j < 30000; j++) s = s (i % 3)
		print s "\t" i } print "0\tx"}' > "$T/long"
	extsort -S 64K -T "$T/tmp" -k a "$T/long" | tail -n +2 |
	    cmp - <(tail -n +2 "$T/long" | LC_ALL=C sort -s -t "$(printf '\t')" -k1,1)
	[ -z "$(ls -A "$T/tmp")" ]
}

@test "whole-line sort without -k equals sort" {
	extsort -S 16K -T "$T/tmp" "$T/t.tsv" | tail -n +2 > "$T/got"
	LC_ALL=C sort "$T/body" | cmp - "$T/got"
}

@test "a tiny budget forces many runs and several merge passes" {
	cat "$T/t.tsv" "$T/body" "$T/body" "$T/body" > "$T/t4.tsv"
	cat "$T/body" "$T/body" "$T/body" "$T/body" > "$T/body4"
	run --separate-stderr extsort -v -S 16K -T "$T/tmp" -k n:n,w "$T/t4.tsv"
	[ "$status" -eq 0 ]
	[[ "$stderr" =~ ([0-9]+)\ runs,\ ([0-9]+)\ merge\ passes ]]
	[ "${BASH_REMATCH[1]}" -ge 10 ]
	[ "${BASH_REMATCH[2]}" -ge 2 ]
	printf '%s\n' "$output" | tail -n +2 | cmp - <(LC_ALL=C sort -s -t "$(printf '\t')" -k2,2n -k1,1 "$T/body4")
	[ -z "$(ls -A "$T/tmp")" ]
}

@test "-u keeps the first row of each key, as sort -s -u" {
	for spec in "w|-k1,1" "n:n|-k2,2n" "w,m:n|-k1,1 -k3,3n"; do
		ours=${spec%%|*} gnu=${spec#*|}
		extsort -u -S 16K -T "$T/tmp" -k "$ours" "$T/t.tsv" | tail -n +2 > "$T/got"
		LC_ALL=C sort -s -u -t "$(printf '\t')" $gnu "$T/body" | cmp - "$T/got"
	done
}

@test "-m merges sorted inputs, checks their order, keeps one header" {
	head -1 "$T/t.tsv" > "$T/h"
	tail -n +2 "$T/t.tsv" | split -l 700 - "$T/p."
	for p in "$T"/p.??; do
		{ cat "$T/h"; LC_ALL=C sort -s -t "$(printf '\t')" -k2,2n "$p"; } > "$p.s"
	done
	extsort -m -k n:n "$T"/p.??.s > "$T/got"
	[ "$(grep -c '^w' "$T/got")" -eq 1 ]
	tail -n +2 "$T/got" | cmp - <(LC_ALL=C sort -s -t "$(printf '\t')" -k2,2n "$T/body")
	run --separate-stderr extsort -m -k w "$T"/p.??.s
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"is not sorted by the keys (-m)"* ]]
}

@test "extsort on Adult by two keys equals sort" {
	extsort -S 256K -k age:n,education "$ADULT" | tail -n +2 > "$T/got"
	tail -n +2 "$ADULT" | LC_ALL=C sort -s -t "$(printf '\t')" -k2,2n -k5,5 | cmp - "$T/got"
}

@test "headerless input with --columns" {
	extsort --columns w,n,m,s -k m:n "$T/body" > "$T/got"
	LC_ALL=C sort -s -t "$(printf '\t')" -k3,3n "$T/body" | cmp - "$T/got"
}

@test "errors: /dev/full, unwritable temp dir, bad keys; temp dir left empty" {
	run --separate-stderr extsort -k w "$T/t.tsv" -o /dev/full
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"No space left on device"* ]]
	run --separate-stderr extsort -S 16K -T "$T/nonexistent" -k w -o "$T/o" "$T/t.tsv"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"cannot create a temp file in $T/nonexistent"* ]]
	[ ! -e "$T/o" ]
	while IFS='|' read -r k want; do
		run --separate-stderr extsort -k "$k" "$T/t.tsv"
		[ "$status" -eq 2 ]
		[[ "$stderr" == *"$want"* ]] || { echo "$k: $stderr"; false; }
	done <<-EOF_
	nosuch|no column named 'nosuch'
	w:x|unknown key flag 'x'
	9|no column 9
	EOF_
}

@test "a full temp dir is a clean error and leaves nothing behind" {
	# A file-size limit makes the second run write fail with EFBIG.
	run --separate-stderr bash -c "ulimit -f 8; trap '' XFSZ; extsort -S 16K -T '$T/tmp' -k w -o '$T/out' '$T/t.tsv'"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"write error"* ]]
	[ -z "$(ls -A "$T/tmp")" ]
	[ ! -e "$T/out" ]
}

@test "SIGTERM mid-merge leaves the temp dir empty" {
	awk 'BEGIN {srand(1); print "a\tb"; for (i = 0; i < 400000; i++) print int(rand() * 1e9) "\t" i}' > "$T/big"
	extsort -S 64K -T "$T/tmp" -k a:n "$T/big" > /dev/null &
	pid=$!
	for i in $(seq 100); do
		[ -n "$(ls -A "$T/tmp")" ] && break
		sleep 0.02
	done
	kill -TERM $pid
	status=0
	wait $pid || status=$?
	[ "$status" -ne 0 ]
	[ -z "$(ls -A "$T/tmp")" ]
}

@test "-j: rows split on the threads give -j 1's bytes at block and buffer bounds, over several files, stdin, CRLF, --skip-header" {
	# Three files: CRLF lines now and then and lines of 3,000 bytes
	# (a block of their own at the small budget), plain lines, and a
	# last row with no newline; the second one on stdin.  At -S 400K
	# blocks of about 1.5 KiB and buffers of about 120 KiB, many runs;
	# at 1G the rows stay in memory.
	awk 'BEGIN {
		srand(5)
		print "a\tb\tc"
		for (i = 0; i < 12000; i++)
			printf "%d\t%s\t%s%s\n", int(rand() * 40),
			    substr("qwertyuiop", 1 + int(rand() * 8), 1 + int(rand() * 3)),
			    rand() < .002 ? sprintf("%03000d", i) : int(rand() * 1000) - 500,
			    i % 5 == 0 ? "\r" : ""
	}' > "$T/j1.tsv"
	awk 'BEGIN { srand(6); print "a\tb\tc"; for (i = 0; i < 8000; i++)
	    printf "%d\tk%d\t%d.%d\n", int(rand() * 40), int(rand() * 99),
	    int(rand() * 100) - 50, int(rand() * 10) }' > "$T/j2.tsv"
	printf 'a\tb\tc\n7\tz\t1' > "$T/j3.tsv"
	for k in a b:r,a:n c:n c:nr,b -; do
		key=(-k "$k")
		[ "$k" != - ] || key=()
		for S in 400K 3M 1G; do
			extsort -j 1 -S $S -T "$T/tmp" "${key[@]}" "$T/j1.tsv" - \
			    "$T/j3.tsv" < "$T/j2.tsv" > "$T/want"
			for j in 2 3 7; do
				extsort -j $j -S $S -T "$T/tmp" "${key[@]}" \
				    "$T/j1.tsv" - "$T/j3.tsv" < "$T/j2.tsv" |
				    cmp - "$T/want" || { echo "-j $j -S $S -k $k"; false; }
			done
		done
	done
	# The files concatenated, headers and all, through a pipe.
	cat "$T/j1.tsv" "$T/j2.tsv" "$T/j3.tsv" |
	    extsort --skip-header -j 1 -S 400K -T "$T/tmp" -k b,a:n > "$T/want"
	for j in 2 3 7; do
		cat "$T/j1.tsv" "$T/j2.tsv" "$T/j3.tsv" |
		    extsort --skip-header -j $j -S 400K -T "$T/tmp" -k b,a:n |
		    cmp - "$T/want"
	done
	# The runs are many, and -u keeps the first of each key.
	extsort -v -j 2 -S 400K -T "$T/tmp" -k a "$T/j1.tsv" 2>&1 > /dev/null |
	    grep -Eq ' ([4-9]|[1-9][0-9]+) runs'
	extsort -u -j 1 -S 400K -T "$T/tmp" -k b "$T/j1.tsv" "$T/j2.tsv" > "$T/want"
	extsort -u -j 3 -S 400K -T "$T/tmp" -k b "$T/j1.tsv" "$T/j2.tsv" |
	    cmp - "$T/want"
	[ -z "$(ls -A "$T/tmp")" ]
}

@test "-j: a bad row is reported at its line as -j 1 reports it, wherever it falls" {
	awk 'BEGIN { print "a\tb"; for (i = 0; i < 30000; i++)
	    print i % 97 "\t" i }' > "$T/g.tsv"
	printf 'a\tb\n1\t2\n3\t4\t5\n' > "$T/small.tsv"
	printf 'a\tc\n1\t2\n' > "$T/other.tsv"
	# A row of three fields at the first row, inside a block, at the
	# last row, after runs were written; a NUL byte; a bad row just
	# before a file whose header differs (the reader meets the header
	# before a thread meets the row).
	for l in 2 777 15000 30001; do
		awk -v l=$l 'NR == l { print $0 "\tx"; next } { print }' \
		    "$T/g.tsv" > "$T/bad$l.tsv"
	done
	{ head -n 19999 "$T/g.tsv"; printf '1\t\000\n'
	    tail -n +20001 "$T/g.tsv"; } > "$T/nul.tsv"
	while IFS='|' read -r files want; do
		for S in 400K 1G; do
			for j in 1 2 3 7; do
				run --separate-stderr extsort -j $j -S $S \
				    -T "$T/tmp" -k a:n $files
				[ "$status" -eq 2 ]
				[ "$stderr" = "extsort: $want" ] ||
				    { echo "-j $j -S $S $files: $stderr"; false; }
			done
		done
	done <<-EOF_
	$T/bad2.tsv|$T/bad2.tsv:2: expected 2 fields, found 3
	$T/g.tsv $T/bad777.tsv|$T/bad777.tsv:777: expected 2 fields, found 3
	$T/bad15000.tsv $T/g.tsv|$T/bad15000.tsv:15000: expected 2 fields, found 3
	$T/g.tsv $T/bad30001.tsv|$T/bad30001.tsv:30001: expected 2 fields, found 3
	$T/g.tsv $T/nul.tsv|$T/nul.tsv:20000: field 2: NUL byte in input
	$T/g.tsv $T/small.tsv $T/other.tsv|$T/small.tsv:3: expected 2 fields, found 3
	$T/g.tsv $T/other.tsv|$T/other.tsv:1: header differs from that of $T/g.tsv
	EOF_
	[ -z "$(ls -A "$T/tmp")" ]
}

@test "-j: the peak RSS stays within -S for any number of threads" {
	[ -x "$ROOT/tests/peak-rss" ] || make -s -C "$ROOT" tests/peak-rss
	gendata -n 400000 --seed 3 uniform -d 9 -c 100 > "$T/u.tsv"
	extsort -j 1 -S 64M -k a3,a1:n "$T/u.tsv" > "$T/want"
	for j in 1 2 7; do
		"$ROOT/tests/peak-rss" "$T/rss" extsort -j $j -S 4M \
		    -T "$T/tmp" -k a3,a1:n -o "$T/got" "$T/u.tsv"
		cmp "$T/got" "$T/want"
		echo "-j $j -S 4M: peak $(cat "$T/rss") KB"
		# The program, its libraries and the reader's buffer besides.
		[ -n "${ASAN_OPTIONS:-}" ] ||
		    [ "$(cat "$T/rss")" -le $((4096 + 4096)) ]
	done
	[ -z "$(ls -A "$T/tmp")" ]
}

@test "-S 1G keeps the C library's spare heap as -S 64M does: the peaks within 6 MB (review: the heap kept a thirty-second of -S when it shrank, 32M at 1G: 55 MB against 36)" {
	[ -z "${ASAN_OPTIONS:-}" ] || skip "peak RSS under ASan"
	[ -x "$ROOT/tests/peak-rss" ] || make -s -C "$ROOT" tests/peak-rss
	gendata -n 200000 agrawal > "$T/g.tsv"
	for s in 64M 1G; do
		"$ROOT/tests/peak-rss" "$T/rss.$s" extsort -j 1 -S $s \
		    -T "$T/tmp" -k salary:n -o "$T/got.$s" "$T/g.tsv"
		echo "-S $s: peak $(cat "$T/rss.$s") KB"
	done
	cmp "$T/got.64M" "$T/got.1G"
	[ "$(cat "$T/rss.1G")" -le $(($(cat "$T/rss.64M") + 6144)) ]
}

@test "-S 64M, buffers taken at their ceiling at once (huge pages, never moved): -j 1 and 2, from a file, from a file whose first block of long lines made it seem to fit (the first buffer given the whole budget, then halved in place), from a pipe, on uniform and Agrawal rows, sorted as in memory, in runs, within -S plus 8192 KB (review: the huge pages at the buffers' ends took Agrawal to 74.5 MB)" {
	[ -x "$ROOT/tests/peak-rss" ] || make -s -C "$ROOT" tests/peak-rss
	gendata -n 1500000 --seed 5 uniform -d 9 -c 100 > "$T/u.tsv"
	gendata -n 1000000 --seed 5 agrawal > "$T/g.tsv"
	{ head -n 1 "$T/u.tsv"
	  awk 'BEGIN { s = sprintf("%2000s", ""); gsub(/ /, "x", s)
		for (i = 0; i < 500; i++)
			print i % 100 "\t1\t2\t3\t4\t5\t6\t7\t" s }'
	  tail -n +2 "$T/u.tsv"; } > "$T/m.tsv"
	for f in u m g; do
		k=a3,a1:n
		[ $f != g ] || k=age,salary:n
		extsort -j 1 -S 1G -k $k "$T/$f.tsv" > "$T/want.$f"
		for j in 1 2; do
			for how in file pipe; do
				if [ $how = file ]; then
					"$ROOT/tests/peak-rss" "$T/rss" extsort \
					    -j $j -S 64M -v -T "$T/tmp" -k $k \
					    -o "$T/got" "$T/$f.tsv" 2> "$T/err"
				else
					cat "$T/$f.tsv" | "$ROOT/tests/peak-rss" \
					    "$T/rss" extsort -j $j -S 64M -v \
					    -T "$T/tmp" -k $k -o "$T/got" - \
					    2> "$T/err"
				fi
				cmp "$T/got" "$T/want.$f"
				echo "$f -j $j $how: peak $(cat "$T/rss") KB; $(cat "$T/err")"
				grep -Eq ' ([3-9]|[1-9][0-9]) runs' "$T/err"
				[ -n "${ASAN_OPTIONS:-}" ] ||
				    [ "$(cat "$T/rss")" -le $((65536 + 8192)) ]
			done
		done
	done
	[ -z "$(ls -A "$T/tmp")" ]
}

@test "-j: a write error of a run written by a thread is reported, and nothing is left" {
	awk 'BEGIN { srand(2); print "a\tb"; for (i = 0; i < 60000; i++)
	    print int(rand() * 1000) "\t" i }' > "$T/w.tsv"
	run --separate-stderr bash -c "ulimit -f 64; trap '' XFSZ; extsort -j 2 -S 400K -T '$T/tmp' -k a:n -o '$T/out' '$T/w.tsv'"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"write error"* ]]
	[ -z "$(ls -A "$T/tmp")" ]
	[ ! -e "$T/out" ]
}

@test "-j 2 merges runs of lines of megabytes as -j 1 does, each line looked at once (it took minutes)" {
	cd "$BATS_TEST_TMPDIR"
	{ printf 'a\tb\n'; for i in 4 0 3 1 2; do printf '%d\t' "$i"
	    head -c 4194304 /dev/zero | tr '\0' x; echo; done; } > L.tsv
	extsort -k a -S 64K -j 1 L.tsv > one
	timeout 60 extsort -k a -S 64K -j 2 L.tsv > two
	cmp one two
	[ "$(cut -c 1 one | tr -d '\n')" = a01234 ]
}

@test "lines of 128 KB: the merge's fan-in falls with the longest line, so freqset, score and extsort (-j 1 and 2) keep within -S 1M (64 runs' readers grew to a line each: 11 to 18 MB)" {
	[ -x "$ROOT/tests/peak-rss" ] || make -s -C "$ROOT" tests/peak-rss
	awk 'BEGIN { s = "x"; while (length(s) < 131072) s = s s
	    print "a\tb"; for (i = 0; i < 256; i++) print i % 5 "\t" s i }' > "$T/l.tsv"
	for p in "freqset -q b" "score -q b" "extsort -j 1 -k b" "extsort -j 2 -k b"; do
		# $p is split into words on purpose.
		# shellcheck disable=SC2086
		$p -S 1G "$T/l.tsv" > "$T/want"
		# shellcheck disable=SC2086
		"$ROOT/tests/peak-rss" "$T/rss" $p -S 1M -T "$T/tmp" \
		    "$T/l.tsv" > "$T/got"
		cmp "$T/got" "$T/want"
		echo "$p -S 1M: peak $(cat "$T/rss") KB"
		[ -n "${ASAN_OPTIONS:-}" ] ||
		    [ "$(cat "$T/rss")" -le $((1024 + 5120)) ]
	done
	[ -z "$(ls -A "$T/tmp")" ]
}
