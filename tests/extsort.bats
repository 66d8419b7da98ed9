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
