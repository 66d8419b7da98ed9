#!/usr/bin/env bats
# gendata: the synthetic generators of paper 003 §6.1 (uniform, skewed)
# and paper 004 Figure 7 (agrawal).  Distributions are checked with awk
# on a few thousand rows; the targets are recomputed independently.

setup() {
	tmp=$(mktemp -d "${BATS_TMPDIR:-/tmp}/gendata.XXXXXX")
}

teardown() {
	rm -rf "$tmp"
}

# Prints a failure message and fails the test.
fail() {
	echo "$*" >&2
	return 1
}

@test "header and row count of each generator" {
	while IFS='|' read -r args header; do
		gendata -n 37 $args > "$tmp/out"
		[ "$(head -1 "$tmp/out")" = "$header" ] ||
		    fail "$args: header '$(head -1 "$tmp/out")'"
		[ "$(wc -l < "$tmp/out")" -eq 38 ] ||
		    fail "$args: $(wc -l < "$tmp/out") lines"
		awk -F'\t' -v n="$(echo "$header" | awk -F'\t' '{print NF}')" \
		    'NF != n { exit 1 }' "$tmp/out" ||
		    fail "$args: ragged row"
	done <<-EOF
	uniform|a1	a2	a3	a4	a5
	uniform -d 2|a1	a2
	uniform -d 12 -c 3|a1	a2	a3	a4	a5	a6	a7	a8	a9	a10	a11	a12
	skewed|a1	a2	a3	a4	a5
	skewed -d 3 --rho 0.5|a1	a2	a3
	agrawal|salary	commission	age	elevel	car	zipcode	hvalue	hyears	loan
	agrawal --target c2|salary	commission	age	elevel	car	zipcode	hvalue	hyears	loan	c2
	agrawal --target r10,c7,r7,c2|salary	commission	age	elevel	car	zipcode	hvalue	hyears	loan	r10	c7	r7	c2
	EOF
}

@test "default is 10000 rows" {
	[ "$(gendata uniform | wc -l)" -eq 10001 ]
}

@test "-n 0 writes the header only" {
	for m in uniform skewed agrawal; do
		run gendata -n 0 $m
		[ "$status" -eq 0 ]
		[ "${#lines[@]}" -eq 1 ]
	done
}

@test "same seed gives the same bytes, another seed others" {
	for m in "uniform" "skewed --rho 0.3" "agrawal --target c2,r10"; do
		gendata -n 3000 --seed 5 $m > "$tmp/a"
		gendata -n 3000 --seed 5 $m > "$tmp/b"
		gendata -n 3000 --seed 6 $m > "$tmp/c"
		cmp -s "$tmp/a" "$tmp/b" || fail "$m: seed 5 differs"
		! cmp -s "$tmp/a" "$tmp/c" || fail "$m: seeds 5 and 6 agree"
	done
}

@test "the default seed is 1" {
	gendata -n 100 uniform > "$tmp/a"
	gendata -n 100 --seed 1 uniform > "$tmp/b"
	cmp "$tmp/a" "$tmp/b"
}

@test "output is the same on every machine (golden checksums)" {
	while IFS='|' read -r args sum; do
		got=$(gendata -n 1000 --seed 42 $args | cksum)
		[ "$got" = "$sum" ] || fail "$args: got '$got', want '$sum'"
	done <<-EOF
	uniform|554064826 10015
	skewed|1330318679 10015
	skewed -c 50 --sd 0.1 --rho 0.5|773641304 15010
	agrawal --target c2,c7,r7,r10|513331872 58584
	EOF
}

@test "rows are a stream: fewer rows are a prefix of more" {
	for m in uniform skewed agrawal; do
		gendata -n 1000 $m | head -101 > "$tmp/a"
		gendata -n 100 $m > "$tmp/b"
		cmp "$tmp/a" "$tmp/b" || fail "$m"
	done
}

@test "options may come before or after the generator name" {
	gendata -n 50 --seed 3 -d 3 -c 4 uniform > "$tmp/a"
	gendata uniform -c 4 -n 50 -d 3 --seed 3 > "$tmp/b"
	cmp "$tmp/a" "$tmp/b"
}

@test "targets do not change the attribute columns" {
	gendata -n 500 agrawal > "$tmp/a"
	gendata -n 500 agrawal --target r10,c2 | cut -f1-9 > "$tmp/b"
	cmp "$tmp/a" "$tmp/b"
}

@test "uniform: values in range, every value appears, mean near centre" {
	gendata -n 4000 uniform -d 6 -c 10 > "$tmp/out"
	awk -F'\t' 'NR > 1 {
		for (i = 1; i <= NF; i++) {
			if ($i !~ /^[0-9]+$/ || $i > 9) { print "bad " $i; exit 1 }
			seen[i, $i]++; sum += $i; n++
		}
	}
	END {
		for (i = 1; i <= 6; i++)
			for (v = 0; v <= 9; v++)
				if (seen[i, v] < 300) { print "rare", i, v; exit 1 }
		m = sum / n
		if (m < 4.4 || m > 4.6) { print "mean " m; exit 1 }
	}' "$tmp/out"
}

@test "uniform: cardinality 1 gives zeros" {
	run gendata -n 20 uniform -c 1 -d 2
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "${lines[@]}" | sort -u | tr '\n' ' ')" = "0	0 a1	a2 " ]
}

@test "skewed: default mean (card-1)/2 and values in range" {
	gendata -n 20000 skewed > "$tmp/out"
	awk -F'\t' 'NR > 1 {
		for (i = 1; i <= NF; i++) {
			if ($i !~ /^[0-7]$/) { print "bad " $i; exit 1 }
			sum += $i; n++
		}
	}
	END { m = sum / n; if (m < 3.45 || m > 3.55) { print m; exit 1 } }' \
	    "$tmp/out"
}

@test "skewed: small sigma concentrates values around the mean" {
	gendata -n 5000 skewed -c 50 --mean 25 --sd 0.05 > "$tmp/out"
	awk -F'\t' 'NR > 1 {
		for (i = 1; i <= NF; i++) {
			n++; sum += $i
			if ($i >= 20 && $i <= 30) near++
		}
	}
	END {
		if (near / n < 0.9) { print "near " near / n; exit 1 }
		if (sum / n < 24.9 || sum / n > 25.1) { print sum / n; exit 1 }
	}' "$tmp/out"
}

@test "skewed: sigma is relative to the cardinality" {
	# --sd 0.1 with -c 50: standard deviation 5 (plus rounding)
	gendata -n 10000 skewed -c 50 --sd 0.1 -d 2 > "$tmp/out"
	awk -F'\t' 'NR > 1 { n++; s += $1; ss += $1 * $1 }
	END {
		m = s / n; sd = sqrt(ss / n - m * m)
		if (m < 24.3 || m > 24.7 || sd < 4.8 || sd > 5.2) {
			print m, sd; exit 1
		}
	}' "$tmp/out"
}

@test "skewed: a mean at the edge is truncated to the domain" {
	gendata -n 3000 skewed -c 8 --mean 0 --sd 0.5 > "$tmp/out"
	awk -F'\t' 'NR > 1 { for (i = 1; i <= NF; i++) {
		if ($i !~ /^[0-7]$/) { print "bad " $i; exit 1 }
		c[$i]++ } }
	END { if (c[0] <= c[7]) { print "not skewed"; exit 1 } }' "$tmp/out"
}

@test "skewed: --rho gives that correlation, none without it" {
	corr='NR > 1 { n++; x += $1; y += $2; xx += $1 * $1; yy += $2 * $2
		xy += $1 * $2 }
	END {
		cov = xy / n - x / n * y / n
		r = cov / sqrt((xx / n - (x / n) ^ 2) * (yy / n - (y / n) ^ 2))
		if (r < lo || r > hi) { print "r = " r; exit 1 }
	}'
	gendata -n 20000 skewed -c 50 --sd 0.1 -d 3 --rho 0.5 |
	    awk -F'\t' -v lo=0.45 -v hi=0.55 "$corr"
	gendata -n 20000 skewed -c 50 --sd 0.1 -d 3 --rho 0.9 |
	    awk -F'\t' -v lo=0.85 -v hi=0.95 "$corr"
	gendata -n 20000 skewed -c 50 --sd 0.1 -d 3 |
	    awk -F'\t' -v lo=-0.04 -v hi=0.04 "$corr"
}

@test "agrawal: every column within its range" {
	gendata -n 5000 --seed 11 agrawal > "$tmp/out"
	awk -F'\t' '
	BEGIN {
		split("20000 0 20 0 1 1 50000 1 0", lo, " ")
		split("150000 75000 80 4 20 9 1350000 30 500000", hi, " ")
	}
	NR > 1 {
		for (i = 1; i <= 9; i++) {
			if ($i !~ /^[0-9]+$/ || $i + 0 < lo[i] || $i + 0 > hi[i]) {
				print "line " NR " column " i ": " $i; exit 1
			}
			if ($i == lo[i]) atlo[i] = 1
			if ($i == hi[i]) athi[i] = 1
		}
	}
	END {
		# the small domains reach both ends
		split("3 4 5 6 8", small, " ")
		for (j in small)
			if (!atlo[small[j]] || !athi[small[j]]) {
				print "column " small[j] " misses an end"; exit 1
			}
	}' "$tmp/out"
}

@test "agrawal: commission and hvalue rules" {
	gendata -n 5000 --seed 12 agrawal > "$tmp/out"
	awk -F'\t' 'NR > 1 {
		if ($1 >= 75000 && $2 != 0) { print "commission " $0; exit 1 }
		if ($1 < 75000 && ($2 < 10000 || $2 > 75000)) {
			print "commission " $0; exit 1
		}
		if ($7 < 50000 * $6 || $7 > 150000 * $6) {
			print "hvalue " $0; exit 1
		}
		if ($1 < 75000) low++
		if ($7 % 1000 != 0) odd++
	}
	END { if (low < 1500 || odd < 4000) { print low, odd; exit 1 } }' \
	    "$tmp/out"
}

@test "agrawal: a salary of exactly 75000 has no commission" {
	gendata -n 1000000 --seed 14 agrawal | awk -F'\t' '$1 == 75000 {
		n++; if ($2 != 0) bad++ }
	END { if (n == 0 || bad) { print n, bad; exit 1 } }'
}

@test "agrawal: C2, C7, R7 and R10 recomputed independently" {
	gendata -n 5000 --seed 13 agrawal --target c2,c7,r7,r10 > "$tmp/out"
	awk -F'\t' '
	# cents as a decimal with two fraction digits
	function money(c,   s) {
		s = ""
		if (c < 0) { s = "-"; c = -c }
		return sprintf("%s%d.%02d", s, int(c / 100), c % 100)
	}
	NR > 1 {
		sal = $1; com = $2; age = $3; el = $4; hv = $7; hy = $8
		loan = $9
		c2 = "B"
		if ((age < 40 && sal >= 50000 && sal <= 100000) ||
		    (age >= 40 && age < 60 && sal >= 75000 && sal <= 125000) ||
		    (age >= 60 && sal >= 25000 && sal <= 75000))
			c2 = "A"
		r7 = 67 * (sal + com) - 20 * loan - 2000000
		c7 = r7 > 0 ? "A" : "B"
		eq = hy < 20 ? 0 : 10 * hv * (hy - 20)
		r10 = 67 * (sal + com) - 500000 * el + eq / 5 - 1000000
		if ($10 != c2 || $11 != c7 || $12 != money(r7) ||
		    $13 != money(r10)) {
			print "line " NR ": " $0 " want " c2, c7, money(r7),
			    money(r10)
			exit 1
		}
		if ($12 !~ /^-?[0-9]+\.[0-9][0-9]$/) { print $12; exit 1 }
		nc2[c2]++; nc7[c7]++
		if (r7 < 0) neg++
		if (hy >= 20) owners++
	}
	END {
		if (nc2["A"] < 500 || nc2["B"] < 500 || nc7["A"] < 500 ||
		    nc7["B"] < 500 || neg < 500 || owners < 500) {
			print "too few cases"; exit 1
		}
	}' "$tmp/out"
}

@test "bad options: exit 2 with a message quoting the text" {
	while IFS='|' read -r args quote; do
		status=0
		gendata $args > "$tmp/out" 2> "$tmp/err" || status=$?
		[ "$status" -eq 2 ] || fail "$args: status $status"
		[ ! -s "$tmp/out" ] || fail "$args: wrote to stdout"
		grep -qF -e "$quote" "$tmp/err" ||
		    fail "$args: stderr '$(cat "$tmp/err")' lacks '$quote'"
	done <<-EOF
	|usage:
	-n -1 uniform|-1
	-n abc uniform|abc
	-n 1x uniform|1x
	--seed -3 uniform|-3
	--seed x uniform|'x'
	uniform -c 0|'0'
	uniform -c many|many
	uniform -d 0|'0'
	uniform -d 1001|1001
	skewed --sd 0|'0'
	skewed --sd -0.2|-0.2
	skewed --sd 11|11
	skewed --rho 1|'1'
	skewed --rho -0.5|-0.5
	skewed --rho x|'x'
	skewed -c 8 --mean 7.5|7.5
	skewed --mean -1|-1
	agrawal --target c3|c3
	agrawal --target c2,|''
	agrawal --target c2,c2|c2
	agrawal --target C2|C2
	bogus|bogus
	uniform extra|extra
	uniform --sd 0.3|--sd
	uniform --rho 0.3|--rho
	uniform --mean 3|--mean
	uniform --target c2|--target
	skewed --target r7|--target
	agrawal -d 3|-d
	agrawal -c 3|-c
	agrawal --sd 0.1|--sd
	-x uniform|usage:
	uniform --bogus|bogus
	uniform -n|usage:
	EOF
}

@test "--version exits 0" {
	run gendata --version
	[ "$status" -eq 0 ]
	[ -n "$output" ]
}

@test "-o writes the file, the same bytes as stdout" {
	gendata -n 200 -o "$tmp/file.tsv" agrawal --target c7
	gendata -n 200 agrawal --target c7 > "$tmp/std.tsv"
	cmp "$tmp/file.tsv" "$tmp/std.tsv"
	[ "$(ls "$tmp" | wc -l)" -eq 2 ]
}

@test "-o is atomic: a failed write keeps the old file" {
	echo old > "$tmp/out.tsv"
	# a file size limit makes the write fail with EFBIG
	run bash -c 'trap "" XFSZ; ulimit -f 16
	    gendata -n 100000 -o "$1" uniform' sh "$tmp/out.tsv"
	[ "$status" -eq 2 ]
	[ -n "$output" ]
	[ "$(cat "$tmp/out.tsv")" = old ]
	[ "$(ls "$tmp")" = out.tsv ]
}

@test "write errors exit 2: stdout to /dev/full" {
	[ -c /dev/full ] || skip "no /dev/full"
	run bash -c 'gendata -n 10 uniform > /dev/full'
	[ "$status" -eq 2 ]
	[ -n "$output" ]
	run bash -c 'gendata -n 1000000 agrawal > /dev/full'
	[ "$status" -eq 2 ]
	[ -n "$output" ]
}

@test "write errors exit 2: -o to a full device" {
	[ -c /dev/full ] || skip "no /dev/full"
	# through a symlink, so that renaming a temp file over the name
	# cannot replace the device itself
	ln -s /dev/full "$tmp/full"
	run gendata -n 10 -o "$tmp/full" uniform
	[ -L "$tmp/full" ]
	[ "$status" -eq 2 ]
	[ -n "$output" ]
}

@test "a closed pipe ends a long run quietly and at once" {
	start=$(date +%s)
	run bash -c 'gendata -n 100000000 agrawal | head -1'
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'salary\tcommission\tage\televel\tcar\tzipcode\thvalue\thyears\tloan')" ]
	[ $(($(date +%s) - start)) -lt 5 ]
}
