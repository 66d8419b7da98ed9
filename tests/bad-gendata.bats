#!/usr/bin/env bats
# gendata on bad options: every case exits 2 with a message quoting the
# bad value, with and without -o, never hanging, crashing or writing a
# partial output file; and the valid edge cases (no rows, one row, all
# rows identical) with their exact output.  gendata reads no input, so of
# the bad input of the other programs only the option values and the
# options that conflict apply.  The helpers are in bad.bash.

load common
load bad

setup() {
	bad_setup
}

@test "gendata: generators and operands" {
	bad_cases <<-'EOF'
	no generator     | 2 | usage: gendata * | gendata
	no generator, -n | 2 | usage: gendata * | gendata -n 5
	unknown          | 2 | gendata: unknown generator 'bogus' (uniform, skewed or agrawal) | gendata bogus
	empty name       | 2 | gendata: unknown generator ''* | gendata ''
	two generators   | 2 | gendata: unexpected operand 'skewed' | gendata uniform skewed
	an extra operand | 2 | gendata: unexpected operand 't.tsv' | gendata uniform t.tsv
	unknown option   | 2 | gendata: --bogus: unknown option*usage: gendata* | gendata --bogus uniform
	missing argument | 2 | *usage: gendata* | gendata uniform -n
	-o missing dir   | 2 | gendata: nodir/out: cannot create output* | gendata -o nodir/out uniform
	EOF
}

@test "gendata: rows, cardinality, attributes and seed out of range" {
	bad_cases <<-'EOF'
	-n -1            | 2 | gendata: rows (-n): '-1' is out of range* | gendata -n -1 uniform
	-n junk          | 2 | gendata: rows (-n): 'abc' is not an integer | gendata -n abc uniform
	-n 1.5           | 2 | gendata: rows (-n): '1.5' is not an integer | gendata -n 1.5 agrawal
	-n empty         | 2 | gendata: rows (-n): '' is not an integer | gendata -n '' skewed
	-n too big       | 2 | gendata: rows (-n): '99999999999999999999' is out of range * | gendata -n 99999999999999999999 uniform
	-c 0             | 2 | gendata: cardinality (-c): '0' is out of range \[1, 1000000000] | gendata -c 0 uniform
	-c -8            | 2 | gendata: cardinality (-c): '-8' is out of range* | gendata -c -8 skewed
	-c too big       | 2 | gendata: cardinality (-c): '1000000001' is out of range* | gendata -c 1000000001 uniform
	-c junk          | 2 | gendata: cardinality (-c): '8x' is not an integer | gendata -c 8x uniform
	-d 0             | 2 | gendata: attributes (-d): '0' is out of range \[1, 1000] | gendata -d 0 uniform
	-d 1001          | 2 | gendata: attributes (-d): '1001' is out of range \[1, 1000] | gendata -d 1001 skewed
	--seed -1        | 2 | gendata: --seed: '-1' is out of range* | gendata --seed -1 uniform
	--seed junk      | 2 | gendata: --seed: 'x' is not an integer | gendata --seed x agrawal
	EOF
}

@test "gendata: skewed parameters out of range" {
	bad_cases <<-'EOF'
	--mean -1        | 2 | gendata: --mean: '-1' is out of range \[0, 7] | gendata --mean -1 skewed
	--mean card      | 2 | gendata: --mean: '8' is out of range \[0, 7] | gendata --mean 8 skewed
	--mean, -c 2     | 2 | gendata: --mean: '1.5' is out of range \[0, 1] | gendata -c 2 --mean 1.5 skewed
	--mean nan       | 2 | gendata: --mean: 'nan' is not a number | gendata --mean nan skewed
	--mean junk      | 2 | gendata: --mean: 'x' is not a number | gendata --mean x skewed
	--rho 1          | 2 | gendata: --rho: '1' is not in \[0, 1) | gendata --rho 1 skewed
	--rho -0.1       | 2 | gendata: --rho: '-0.1' is not in \[0, 1) | gendata --rho -0.1 skewed
	--rho nan        | 2 | gendata: --rho: 'nan' is not a number | gendata --rho nan skewed
	--sd 0           | 2 | gendata: --sd: '0' is not in (0, 10] | gendata --sd 0 skewed
	--sd 10.1        | 2 | gendata: --sd: '10.1' is not in (0, 10] | gendata --sd 10.1 skewed
	--sd inf         | 2 | gendata: --sd: 'inf' is not a finite number | gendata --sd inf skewed
	--sd nan         | 2 | gendata: --sd: 'nan' is not a number | gendata --sd nan skewed
	--sd 1e-320      | 2 | gendata: --sd: '1e-320' is too close to 0 to be read (below about 2.2e-308) | gendata --sd 1e-320 skewed
	--sd 1e400       | 2 | gendata: --sd: '1e400' is too large to be read | gendata --sd 1e400 skewed
	EOF
}

@test "gendata: options the generator does not take, bad targets" {
	bad_cases <<-'EOF'
	--target uniform | 2 | gendata: option --target does not apply to uniform | gendata --target c2 uniform
	--target skewed  | 2 | gendata: option --target does not apply to skewed | gendata skewed --target c2
	-c agrawal       | 2 | gendata: option -c does not apply to agrawal | gendata -c 3 agrawal
	-d agrawal       | 2 | gendata: option -d does not apply to agrawal | gendata agrawal -d 3
	--rho uniform    | 2 | gendata: option --rho does not apply to uniform | gendata --rho 0.5 uniform
	--mean uniform   | 2 | gendata: option --mean does not apply to uniform | gendata --mean 2 uniform
	--sd agrawal     | 2 | gendata: option --sd does not apply to agrawal | gendata --sd 0.5 agrawal
	unknown target   | 2 | gendata: --target: unknown target 'c3' in 'c3'* | gendata --target c3 agrawal
	target twice     | 2 | gendata: --target: 'c2' given twice in 'c2,r7,c2' | gendata --target c2,r7,c2 agrawal
	empty target     | 2 | gendata: --target: unknown target '' in ''* | gendata --target '' agrawal
	trailing comma   | 2 | gendata: --target: unknown target '' in 'c2,'* | gendata --target c2, agrawal
	EOF
}

@test "gendata: valid edge cases give the exact table" {
	A='salary\tcommission\tage\televel\tcar\tzipcode\thvalue\thyears\tloan'
	# With one value per attribute, every row is the same.
	ok_cases <<-EOF
	no rows          | 0 | a1\ta2\ta3\n | gendata -n 0 uniform -d 3
	no rows, skewed  | 0 | a1\n | gendata -n 0 skewed -d 1 --rho 0.9
	no rows, agrawal | 0 | $A\tr10\tc2\n | gendata -n 0 agrawal --target r10,c2
	one row          | 0 | a1\ta2\n0\t0\n | gendata -n 1 uniform -c 1 -d 2
	identical rows   | 0 | a1\ta2\ta3\n0\t0\t0\n0\t0\t0\n0\t0\t0\n | gendata -n 3 -c 1 -d 3 uniform
	identical, skewed| 0 | a1\ta2\n0\t0\n0\t0\n0\t0\n | gendata -n 3 skewed -c 1 -d 2 --sd 10 --rho 0.99
	--mean at the end| 0 | a1\n0\n0\n | gendata -n 2 skewed -c 1 -d 1 --mean 0
	EOF
}

@test "gendata: the bounds of every range are valid" {
	# Values at the edges of their ranges: each run writes its rows.
	while read -r args; do
		run --separate-stderr timeout 20 gendata -n 20 $args
		[ "$status" -eq 0 ] || { echo "$args: exit $status: $stderr"; false; }
		[ -z "$stderr" ] || { echo "$args: $stderr"; false; }
		[ "${#lines[@]}" -eq 21 ] || { echo "$args: ${#lines[@]} lines"; false; }
	done <<-'EOF'
	uniform -c 1000000000 -d 1
	uniform -d 1000 -c 2
	skewed --sd 0.000001 --mean 0
	skewed --sd 0.000001 --mean 7 --rho 0.999999
	skewed --sd 10 --rho 0 -c 1000000000
	skewed -c 1 --mean 0 --sd 10 --rho 0.999999
	skewed -c 2 --mean 1 --sd 0.000001 --rho 0.999999
	agrawal --seed 9223372036854775807 --target c2,c7,r7,r10
	agrawal --seed 0
	EOF
}
