#!/usr/bin/env bats
# dict.c's byte order of a dictionary's values (kn_dict_order,
# kn_dict_ranks: freqset's labels, the leaves' ranks, the targets')
# against sort(1) in the C locale: random values of every byte but the
# newline, of 0 to 300 bytes, many the prefix of others, many
# alike for more than the 64 bytes the radix sort takes before its heap
# sort, in sets of 1 to 200,000.

load common

setup_file() {
	[ -x "$ROOT/tests/dict-check" ] || make -s -C "$ROOT" tests/dict-check
}

# values SEED N: N random values, one a line (byte 1 made NUL).
values() {
	LC_ALL=C awk -v seed="$1" -v n="$2" 'BEGIN {
		srand(seed)
		# bytes 1-9, 11-31, 127-255 and a few letters and digits
		for (i = 1; i < 256; i++)
			if (i != 10 && (i < 32 || i > 126))
				b[nb++] = sprintf("%c", i)
		split("a b 0 1 9 z", l, " ")
		for (i in l)
			b[nb++] = l[i]
		for (i = 0; i < 4; i++) {
			p[i] = ""
			m = int(rand() * (i < 2 ? 90 : 8))
			for (j = 0; j < m; j++)
				p[i] = p[i] b[int(rand() * 2) * 5]
		}
		for (r = 0; r < n; r++) {
			v = p[int(rand() * 4)]
			m = int(rand() * (rand() < 0.2 ? 300 : 9))
			for (j = 0; j < m; j++)
				v = v b[int(rand() * nb)]
			print v
			if (rand() < 0.1)
				print v b[int(rand() * nb)]
		}
	}' | tr '\001' '\000'
}

@test "kn_dict_order and kn_dict_ranks: the order of sort -u in the C locale, on random values" {
	local seed n
	for seed in 1 2 3 4 5 6 7 8; do
		for n in 1 2 7 40 1000 30000; do
			values "$seed$n" "$n" > "$BATS_TEST_TMPDIR/in"
			"$ROOT/tests/dict-check" < "$BATS_TEST_TMPDIR/in" \
			    > "$BATS_TEST_TMPDIR/got"
			LC_ALL=C sort -u "$BATS_TEST_TMPDIR/in" \
			    > "$BATS_TEST_TMPDIR/want"
			cmp "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got" ||
			    { echo "seed $seed, $n values: not in byte order"; false; }
		done
	done
}

@test "kn_dict_order: 200,000 numbers and 200,000 values alike for 70 bytes" {
	LC_ALL=C awk 'BEGIN {
		srand(5)
		for (i = 0; i < 200000; i++) {
			print int(rand() * 2^30) - 2^29 "" int(rand() * 1000)
			print sprintf("%070d", 0) int(rand() * 1e9)
		}
	}' > "$BATS_TEST_TMPDIR/in"
	"$ROOT/tests/dict-check" < "$BATS_TEST_TMPDIR/in" > "$BATS_TEST_TMPDIR/got"
	LC_ALL=C sort -u "$BATS_TEST_TMPDIR/in" > "$BATS_TEST_TMPDIR/want"
	cmp "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/got")" -gt 390000 ]
}
