#!/usr/bin/env bats
# req.c's l-diversity verdicts (tests/ldiv-check): kn_ldiv_ok on a
# class's counts, and the same counts given one by one in descending
# order (kn_ldiv_add: lattice-search's classes too large to hold, from
# sorts on disk), agree with each other and with an awk oracle: distinct
# (at least l values), recursive (c,l) in exact integers, entropy in
# doubles away from log l, and exactly on log l where H = log l holds.

load common

setup_file() {
	[ -x "$ROOT/tests/ldiv-check" ] || make -s -C "$ROOT" tests/ldiv-check
}

@test "random classes: kn_ldiv_ok and kn_ldiv_add agree, with the oracle" {
	awk 'BEGIN {
		srand(17)
		split("distinct entropy recursive", kind, " ")
		split("1 2 3.5 0.5", cs, " ")
		for (t = 0; t < 3000; t++) {
			k = kind[int(rand() * 3) + 1]
			l = int(rand() * 6) + 1
			c = k == "recursive" ? cs[int(rand() * 4) + 1] : "-"
			m = int(rand() * 12) + 1
			line = k " " l " " c
			top = rand() < 0.5 ? 3 : 40
			for (i = 0; i < m; i++)
				line = line " " (int(rand() * top) + 1)
			print line
		}
	}' > "$BATS_TEST_TMPDIR/in"
	"$ROOT/tests/ldiv-check" < "$BATS_TEST_TMPDIR/in" > "$BATS_TEST_TMPDIR/out"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/out")" -eq 3000 ]
	! grep DIFFER "$BATS_TEST_TMPDIR/out"
	paste -d ' ' "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/in" | awk '
	function desc(a, m,   i, j, x) {
		for (i = 2; i <= m; i++)
			for (j = i; j > 1 && a[j - 1] < a[j]; j--) {
				x = a[j]; a[j] = a[j - 1]; a[j - 1] = x
			}
	}
	{
		got = $1; k = $3; l = $4; c = $5
		m = NF - 5; n = 0
		for (i = 1; i <= m; i++) { v[i] = $(i + 5); n += v[i] }
		desc(v, m)
		if (k == "distinct")
			want = m >= l
		else if (k == "recursive") {
			# c as tenths: r1 * 10 < (10 c) * tail, in integers.
			tail = 0
			for (i = l; i <= m; i++)
				tail += v[i]
			want = l <= 1 || (m >= l && v[1] * 10 < c * 10 * tail)
		} else {
			h = 0
			for (i = 1; i <= m; i++)
				h -= v[i] / n * log(v[i] / n)
			d = h - log(l)
			if (d < 1e-9 && d > -1e-9)
				next
			want = d > 0
		}
		checked++
		if (got != want) {
			print "wrong: " $0
			bad++
		}
	}
	END { print checked " checked"; exit bad > 0 || checked < 2500 }'
}

@test "H = log l exactly (4,1,1,1,1 for l = 4; half the rows on one value, the rest on 1,024 for l = 64): met, both ways; a row fewer on the rest: not met" {
	ones() { awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf " 1"; print "" }'; }
	{
		echo "entropy 4 - 4 1 1 1 1"
		echo "entropy 64 - 1024$(ones 1024)"
		echo "entropy 64 - 1024$(ones 1023)"
		echo "entropy 2 - 7 7"
		echo "entropy 3 - 7 7"
	} | "$ROOT/tests/ldiv-check" > "$BATS_TEST_TMPDIR/out"
	cat "$BATS_TEST_TMPDIR/out"
	[ "$(cat "$BATS_TEST_TMPDIR/out" | tr '\n' ,)" = "1 1,1 1,0 0,1 1,0 0," ]
}

@test "a class of 30,000 values given one by one: the verdicts of the whole" {
	awk 'BEGIN {
		for (k = 1; k <= 3; k++) {
			split("distinct entropy recursive", kind, " ")
			line = kind[k] " 9000 " (k == 3 ? "2" : "-")
			for (i = 0; i < 30000; i++)
				line = line " " (i % 97 + 1)
			print line
		}
	}' | "$ROOT/tests/ldiv-check" > "$BATS_TEST_TMPDIR/out"
	cat "$BATS_TEST_TMPDIR/out"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/out")" -eq 3 ]
	! grep DIFFER "$BATS_TEST_TMPDIR/out"
	grep -q '^1 1$' "$BATS_TEST_TMPDIR/out"
}

@test "l is taken exactly, not as a double: 3 equal values against l = 3.0000000000000001, a near tie of H against log l (exp H = 1.889881574842309747...), an l just past an integer for distinct; in every program" {
	{
		echo "entropy 3.0000000000000001 - 1 1 1"
		echo "entropy 3 - 1 1 1"
		echo "entropy 1.88988157484230976 - 2 1"
		echo "entropy 1.889881574842309 - 2 1"
	} | "$ROOT/tests/ldiv-check" > "$BATS_TEST_TMPDIR/out"
	cat "$BATS_TEST_TMPDIR/out"
	[ "$(tr '\n' , < "$BATS_TEST_TMPDIR/out")" = "0 0,1 1,0 0,1 1," ]
	cd "$BATS_TEST_TMPDIR"
	printf 'q\ts\n1\tx\n1\ty\n1\tz\n' > u.tsv
	printf 'q\ts\n1\tx\n1\tx\n1\ty\n' > t.tsv
	# Found by review: each passed.
	run partition -q q -k 1 -s s -l 3.0000000000000001 --diversity entropy u.tsv
	[ "$status" -eq 1 ]
	run score --check -q q -s s -l 3.0000000000000001 --diversity entropy u.tsv
	[[ "$output" == *"check_l_entropy	fail"* ]]
	run lattice-search -q q -H q=interval:10 -k 1 -s s -l 3.0000000000000001 --diversity entropy u.tsv
	[ "$status" -eq 1 ]
	recode -n q=0 -H q=interval:10 -k 1 -s s -l 1.88988157484230976 --diversity entropy t.tsv > out
	[ "$(cut -f 1 out | tr '\n' ,)" = "q,*,*,*," ]
	recode -n q=0 -H q=interval:10 -k 1 -s s -l 1.889881574842309 --diversity entropy t.tsv > out
	[ "$(cut -f 1 out | tr '\n' ,)" = "q,1,1,1," ]
	run partition -q q -k 1 -s s -l 2.0000000000000001 u.tsv
	[ "$status" -eq 2 ]
	[[ "$output" == *"-l: '2.0000000000000001': distinct and recursive diversity need an integer"* ]]
}
