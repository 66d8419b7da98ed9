#!/usr/bin/env bats
# hypo.c (paper 004 §3.1): the normal and chi-square quantiles that the
# hypothesis tests of Rothko-S use, against tabulated values (to six
# decimals, as printed in standard tables).

load common

@test "upper quantiles of the standard normal match the tables" {
	while read -r a want; do
		run "$ROOT/tests/hypo-check" z "$a"
		[ "$status" -eq 0 ]
		[ "$output" = "$want" ] || { echo "z($a) = $output, want $want"; false; }
	done <<-'EOF'
	0.05 1.644854
	0.025 1.959964
	0.01 2.326348
	0.005 2.575829
	0.001 3.090232
	0.0001 3.719016
	0.5 0.000000
	0.9 -1.281552
	EOF
}

@test "upper quantiles of chi-square match the tables" {
	while read -r a df want; do
		run "$ROOT/tests/hypo-check" chi2 "$a" "$df"
		[ "$status" -eq 0 ]
		[ "$output" = "$want" ] || { echo "chi2($a, $df) = $output, want $want"; false; }
	done <<-'EOF'
	0.05 1 3.841459
	0.05 2 5.991465
	0.05 10 18.307038
	0.05 30 43.772972
	0.05 100 124.342113
	0.01 5 15.086272
	0.01 20 37.566235
	0.001 2 13.815511
	0.025 4 11.143287
	0.95 10 3.940299
	0.99 1 0.000157
	EOF
}
