#!/usr/bin/env bats
# pcount.c's counting hash (the fast path of freqset, score and recode's
# counts) against awk: random keys and counts, summed by key, with the
# table's slots narrow (keys of 31 bits and counts of 32) or turned
# wide by a count past 32 bits, by ids that outgrow 31 bits together,
# or from the start by more than 31 ids to a key.

load common

setup_file() {
	[ -x "$ROOT/tests/pcount-check" ] ||
	    make -s -C "$ROOT" tests/pcount-check
}

# keys SEED N D MAXID MAXCNT: N lines of D random ids below MAXID (the
# first half of the lines below 8 at most, so that the ids grow as they
# come) and a count from 1 to MAXCNT.
keys() {
	awk -v seed="$1" -v n="$2" -v d="$3" -v m="$4" -v mc="$5" 'BEGIN {
		srand(seed)
		for (r = 0; r < n; r++) {
			for (c = 0; c < d; c++)
				printf "%d ", int(rand() * (r < n / 2 && m > 8 ? 8 : m))
			printf "%d\n", 1 + int(rand() * mc)
		}
	}'
}

# sums D < FILE: the lines' counts summed by key, sorted.
sums() {
	awk -v d="$1" '{
		k = $1
		for (c = 2; c <= d; c++)
			k = k " " $c
		s[k] += $(d + 1)
	} END { for (k in s) printf "%s %.0f\n", k, s[k] }' | LC_ALL=C sort
}

# check SEED N D MAXID MAXCNT WIDE: the table's sums equal awk's and its
# slots end in the form WIDE.
check() {
	keys "$1" "$2" "$3" "$4" "$5" > "$BATS_TEST_TMPDIR/in"
	"$ROOT/tests/pcount-check" "$3" < "$BATS_TEST_TMPDIR/in" \
	    > "$BATS_TEST_TMPDIR/out"
	tail -n 1 "$BATS_TEST_TMPDIR/out" > "$BATS_TEST_TMPDIR/form"
	echo "wide $6" | diff - "$BATS_TEST_TMPDIR/form"
	sed '$d' "$BATS_TEST_TMPDIR/out" | LC_ALL=C sort \
	    > "$BATS_TEST_TMPDIR/got"
	sums "$3" < "$BATS_TEST_TMPDIR/in" | diff - "$BATS_TEST_TMPDIR/got"
}

@test "pcount: narrow slots count as awk sums, the ids growing" {
	for seed in 1 2 3; do
		check "$seed" 30000 3 1000 5 0
	done
	check 4 20000 1 2000000000 3 0
}

@test "pcount: a count past 32 bits turns the slots wide" {
	# 30 counts of up to 3e8 on 4 keys pass 2^32 (4.3e9) on each
	# key; 2^53 bounds awk's exact sums.
	check 5 120 2 2 300000000 1
	printf '0 4294967295\n0 1\n1 5\n' > "$BATS_TEST_TMPDIR/in"
	"$ROOT/tests/pcount-check" 1 < "$BATS_TEST_TMPDIR/in" | LC_ALL=C sort > "$BATS_TEST_TMPDIR/got"
	printf '0 4294967296\n1 5\nwide 1\n' | diff - "$BATS_TEST_TMPDIR/got"
	printf '3 8589934592\n' | "$ROOT/tests/pcount-check" 1 > "$BATS_TEST_TMPDIR/got"
	printf '3 8589934592\nwide 1\n' | diff - "$BATS_TEST_TMPDIR/got"
	# 2^32 - 1 fits: narrow still (found by review: untested).
	printf '0 4294967294\n0 1\n' | "$ROOT/tests/pcount-check" 1 > "$BATS_TEST_TMPDIR/got"
	printf '0 4294967295\nwide 0\n' | diff - "$BATS_TEST_TMPDIR/got"
}

@test "pcount: ids that outgrow 31 bits together turn the slots wide" {
	check 6 30000 3 1000000 7 1
	check 7 30000 4 32768 2 1
	check 8 5000 40 2 2 1
}

@test "pcount: keys past 63 bits are not packed" {
	printf '2147483647 2147483647 1\n' | "$ROOT/tests/pcount-check" 2 |
	    grep -qx 'wide 1'
	run "$ROOT/tests/pcount-check" 3 <<< '4294967295 4294967295 4294967295 1'
	[ "$status" -eq 1 ]
	[ "$output" = UNPACKABLE ]
}
