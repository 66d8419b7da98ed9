#!/usr/bin/env bats
# sha256.c: the digest a release report gives of its tables (score
# --report), against the known vectors of FIPS 180-4 (Appendix B) and
# against sha256sum on data of every length around a block's edge, fed
# whole and in pieces.

load common

@test "SHA-256 of the FIPS 180-4 vectors" {
	while IFS=: read -r msg want; do
		run "$ROOT/tests/sha256-check" < <(printf %s "$msg")
		[ "$status" -eq 0 ]
		[ "$output" = "$want" ] || { echo "'$msg': $output, want $want"; false; }
	done <<-'EOF'
	:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
	abc:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
	abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq:248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1
	EOF
}

@test "SHA-256 of a million a's" {
	run "$ROOT/tests/sha256-check" < <(head -c 1000000 /dev/zero | tr '\0' a)
	[ "$output" = cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0 ]
}

@test "SHA-256 agrees with sha256sum at every length near a block, in pieces" {
	command -v sha256sum >/dev/null || skip "no sha256sum"
	head -c 300 /dev/urandom > "$BATS_TEST_TMPDIR/r"
	for n in 0 1 55 56 57 63 64 65 119 120 127 128 129 300; do
		head -c "$n" "$BATS_TEST_TMPDIR/r" > "$BATS_TEST_TMPDIR/p"
		want=$(sha256sum < "$BATS_TEST_TMPDIR/p" | cut -d' ' -f1)
		for piece in 1 3 64 8192; do
			got=$("$ROOT/tests/sha256-check" "$piece" < "$BATS_TEST_TMPDIR/p")
			[ "$got" = "$want" ] || { echo "length $n, pieces of $piece: $got, want $want"; false; }
		done
	done
}
