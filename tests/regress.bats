#!/usr/bin/env bats
# Regressions: inputs that once gave a wrong check, a crash, or an
# answer that depended on the memory budget.

load common

setup() {
	T=$BATS_TEST_TMPDIR
}

@test "variance is exact when n * sum of squares outgrows 128 bits" {
	# 2,000,000 values of 1e13 and one more: variance about 5e-7.
	awk 'BEGIN {print "q\ts"; for (i = 0; i < 1999999; i++)
	    print "A\t10000000000000"; print "A\t10000000000001"}' > "$T/v"
	run score --check -q q -s s --variance 1 "$T/v"
	[ "$status" -eq 1 ]
	[[ "$output" == *"check_variance	fail"* ]]
	run score --check -q q -s s --variance 0.0000004999997 "$T/v"
	[ "$status" -eq 0 ]
	run score --check -q q -s s --variance 0.0000004999998 "$T/v"
	[ "$status" -eq 1 ]
}

@test "recursive diversity is exact with huge counts" {
	printf 'q\ts\tcount\nA\tx\t18000000000000000000\nA\ty\t9000000000000000000\nA\tz\t9000000000000000000\n' > "$T/f"
	# r1 = 1.8e19 < c (r2 + r3) = 1.8e19 c: fails at c = 1, passes above
	run score --freqset --check -q q -s s -l 2 --diversity recursive -c 1 "$T/f"
	[ "$status" -eq 2 ]	# the class size overflows 64 bits: an error
	printf 'q\ts\tcount\nA\tx\t9000000000000000000\nA\ty\t4500000000000000000\nA\tz\t4500000000000000000\n' > "$T/f"
	run score --freqset --check -q q -s s -l 2 --diversity recursive -c 1 "$T/f"
	[ "$status" -eq 1 ]
	run score --freqset --check -q q -s s -l 2 --diversity recursive -c 1.000000000000000000000000000001 "$T/f"
	[ "$status" -eq 0 ]
}

@test "counts that overflow 64 bits are an error, not a wrap" {
	printf 'q\ts\tcount\nA\tx\t9223372036854775808\nA\ty\t9223372036854775808\n' > "$T/f"
	run --separate-stderr score --freqset -q q -s s -l 3 --check "$T/f"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"overflows 64 bits"* ]]
	printf 'q\tcount\nA\t18446744073709551615\nA\t1\n' > "$T/g"
	run --separate-stderr freqset --merge "$T/g"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"overflows 64 bits"* ]]
}

@test "numbers with more than 36 decimals are refused" {
	printf 'q\ts\nA\tx\nA\ty\n' > "$T/t"
	run --separate-stderr score -q q -s s -l 2 --diversity recursive \
	    -c 0.00000000000000000000000000000000000000001 "$T/t"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"has more than 36 decimal places"* ]]
}

@test "extsort keeps a CR at the end of a line whether it spills or not" {
	awk 'BEGIN {print "k"; for (i = 0; i < 20000; i++) printf "%d\r\r\n", i % 97}' > "$T/cr"
	extsort -k k "$T/cr" > "$T/a"
	extsort -S 64K -T "$T" -k k "$T/cr" > "$T/b"
	cmp "$T/a" "$T/b"
	[ "$(sed -n 2p "$T/a" | od -An -c | tr -d ' ')" = '0\r\n' ]
}

@test "one group's decimals do not overflow another group's sums" {
	{ printf 'a\tv\nA\t200000000000000000\n'
	  for i in $(seq 300); do printf 'k%d\t1\n' "$i"; done
	  printf 'B\t0.01\n'; } > "$T/m"
	run freqset -q a --sum v "$T/m"
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "$(printf 'A\t1\t200000000000000000\t40000000000000000000000000000000000')" ]
	[ "${lines[2]}" = "$(printf 'B\t1\t0.01\t0.0001')" ]
	freqset -S 64K -T "$T" -q a --sum v "$T/m" | cmp - <(printf '%s\n' "${lines[@]}")
}

@test "interval hierarchies refuse values and widths out of range" {
	printf 'v\n5\n' > "$T/a"
	run freqset -H v=interval:0.000000001,1000000000000000 -L v=2 "$T/a"
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "$(printf '[0,1000000000000000)\t1')" ]
	printf 'v\n1000000000000000000000000000000\n' > "$T/b"
	run --separate-stderr freqset -H v=interval:0.000000001 -L v=1 "$T/b"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"out of range"* ]]
}

@test "generated hierarchies stay within -S" {
	awk 'BEGIN {print "v"; for (i = 0; i < 300000; i++) print i * 7}' > "$T/g"
	freqset -H v=interval:10 -L v=1 "$T/g" > "$T/want"
	freqset -v -S 1M -T "$T" -H v=interval:10 -L v=1 "$T/g" 2> "$T/err" | cmp - "$T/want"
	grep -q ' runs' "$T/err"
	! grep -q ' 0 runs' "$T/err" || false
}
