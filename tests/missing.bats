#!/usr/bin/env bats
# Missing values (kanon(7), MISSING VALUES): the empty field and the
# tokens of --missing, in hierarchies, in partition's numeric
# quasi-identifiers, in the regions and their release by recode -r, and
# where a number is needed.

load common

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

# ages with empty fields and NA, a zip, a passthrough column
ages() {
	printf 'age\tzip\tx\n'
	awk 'BEGIN { for (i = 1; i <= 40; i++) {
		a = 20 + i % 13
		if (i % 5 == 0) a = ""
		if (i % 7 == 0) a = "NA"
		printf "%s\t%d\tr%d\n", a, i % 4, i } }'
}

@test "a generated hierarchy takes a missing value to itself, then to the top" {
	printf 'age\n30\n\nNA\n41\n' > m.tsv
	run freqset -q age -H age=interval:10,20 -L age=1 --missing NA m.tsv
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'age\tcount\n\t1\nNA\t1\n[30,40)\t1\n[40,50)\t1')" ]
	run freqset -q age -H age=interval:10,20 -L age=3 --missing NA m.tsv
	[ "$output" = "$(printf 'age\tcount\n*\t4')" ]
	# Without --missing, NA is a value that is not a number.
	run freqset -q age -H age=interval:10,20 -L age=1 m.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "freqset: m.tsv:4: column 'age': 'NA': value is not a number (interval:10,20)" ]
}

@test "a hierarchy file that lists the token rules; one that does not gets a leaf under its top" {
	printf 'a\tA\t*\nb\tA\t*\nc\tB\t*\n' > h.tsv
	printf 'v\na\nb\n?\nc\n?\n' > t.tsv
	run freqset -q v -H v=h.tsv -L v=1 --missing '?' t.tsv
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'v\tcount\n?\t2\nA\t2\nB\t1')" ]
	run freqset -q v -H v=h.tsv -L v=2 --missing '?' t.tsv
	[ "$output" = "$(printf 'v\tcount\n*\t5')" ]
	printf 'a\tA\t*\nb\tA\t*\n?\tU\t*\nc\tB\t*\n' > h2.tsv
	run freqset -q v -H v=h2.tsv -L v=1 --missing '?' t.tsv
	[ "$output" = "$(printf 'v\tcount\nA\t2\nB\t1\nU\t2')" ]
	# A token that is a label above the leaves cannot be a leaf too.
	printf 'v\na\nA\n' > ta.tsv
	run freqset -q v -H v=h.tsv -L v=1 --missing 'A' ta.tsv
	[ "$status" -eq 2 ]
	[[ "$output" == *"a missing value that is a label of the hierarchy but not a leaf"* ]]
}

@test "full-domain pipeline with missing values: every row accounted for, score agrees" {
	ages > t.tsv
	H="-H age=interval:5,10 -H zip=mask:1"
	freqset -q age,zip --missing NA $H t.tsv |
	    lattice-search $H -k 4 --best --missing NA -o node.tsv
	run recode -n node.tsv $H -k 4 --missing NA t.tsv
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" > rel.tsv
	[ "$(wc -l < rel.tsv)" -eq 41 ]
	run score --check -k 4 -q age,zip rel.tsv
	[ "$status" -eq 0 ]
}

@test "partition ranks missing below every number; the regions count it; in memory = Rothko-T" {
	ages > t.tsv
	partition -q age --missing NA -k 5 -r reg.tsv t.tsv > p.tsv
	[ "$(head -1 reg.tsv)" = "$(printf 'class\tcount\tage_min\tage_max\tage_mean\tage_missing')" ]
	[ "$(sed -n 2p reg.tsv)" = "$(printf '1\t12\t\t\t\t12')" ]
	[ "$(sed -n 3p reg.tsv)" = "$(printf '2\t9\t20\t23\t21.4444\t0')" ]
	partition -q age --missing NA -k 5 -r reg2.tsv -S 1M --fit-rows 3 t.tsv > p2.tsv
	cmp p.tsv p2.tsv
	cmp reg.tsv reg2.tsv
	# Without missing values the regions are as before: no _missing.
	printf 'age\n1\n2\n3\n4\n' > n.tsv
	partition -q age -k 2 -r rn.tsv n.tsv > /dev/null
	[ "$(head -1 rn.tsv)" = "$(printf 'class\tcount\tage_min\tage_max\tage_mean')" ]
}

@test "recode -r releases 'range|token' for numbers and missing values, the token alone for missing only" {
	printf 'age\tx\n20\ta\n\tb\n21\tc\n' > s.tsv
	partition -q age -k 2 -r r.tsv s.tsv > p.tsv
	[ "$(sed -n 2p r.tsv)" = "$(printf '1\t3\t20\t21\t20.5\t1')" ]
	run recode -r r.tsv -k 2 --missing '?' p.tsv
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'age\tx\n[20-21]|?\ta\n[20-21]|?\tb\n[20-21]|?\tc')" ]
	run recode -r r.tsv -k 2 --summary both p.tsv
	[ "$output" = "$(printf 'age\tage_mean\tx\n[20-21]|\t20.5|\ta\n[20-21]|\t20.5|\tb\n[20-21]|\t20.5|\tc')" ]
	ages > t.tsv
	partition -q age --missing NA -k 5 -r reg.tsv t.tsv > p.tsv
	run recode -r reg.tsv -k 5 --missing NA p.tsv
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | awk -F'\t' '$1 == "NA"' | wc -l)" -eq 12 ]
	run score --check -k 5 -q age <(printf '%s\n' "$output")
	[ "$status" -eq 0 ]
}

@test "recode -r checks missing values against the regions" {
	ages > t.tsv
	partition -q age --missing NA -k 5 -r reg.tsv t.tsv > p.tsv
	run recode -r reg.tsv -k 5 p.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "recode: p.tsv:8: column 'age': 'NA' lies outside the region of class 1, whose values are all missing (reg.tsv:2; give recode the --missing that partition had)" ]
	# a missing value in a class whose region holds none
	awk -F'\t' 'BEGIN { OFS = "\t" } NR == 3 { $1 = "" } 1' p.tsv > q.tsv
	run recode -r reg.tsv -k 5 --missing NA q.tsv
	[ "$status" -eq 2 ]
	[[ "$output" == *"column 'age': '' is a missing value, and the region of class "*" holds none (reg.tsv:"* ]]
	# extents must be empty exactly when every value is missing
	awk -F'\t' 'BEGIN { OFS = "\t" } NR == 2 { $3 = 1 } 1' reg.tsv > bad.tsv
	run recode -r bad.tsv -k 5 --missing NA p.tsv
	[ "$status" -eq 2 ]
	[[ "$output" == *"bad.tsv:2: class 1: the least, greatest and mean values must be empty exactly when all 12 values are missing (age_missing 12)" ]]
}

@test "a number is needed: --variance, --split regression and the --job steps say so" {
	printf 'a\ts\n1\t5\n2\t\n3\t7\n4\t8\n' > v.tsv
	run partition -q a -k 2 -s s --variance 1 v.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "partition: v.tsv:3: column 's': '' is a missing value, which has no variance: drop the row or give it a value (--variance)" ]
	run partition -q a -k 2 -t s --split regression v.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "partition: v.tsv:3: column 's': '' is a missing value, which a regression cannot fit: drop the row or give it a value (--split regression)" ]
}

@test "l-diversity counts a missing sensitive value as a value of its own" {
	printf 'a\ts\n1\tx\n1\t\n2\tx\n2\ty\n' > l.tsv
	run partition -q a -k 2 -s s -l 2 l.tsv
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | cut -f3 | sort -u | wc -l)" -eq 3 ]
}

@test "recode -r: a class's missing values must be as many as its Q_missing says" {
	printf 'x\ty\n1\ta\n\ta\n3\tb\n\tb\n5\tc\n6\tc\n' > m.tsv
	partition -q x -k 2 -r r.tsv m.tsv > p.tsv
	[ "$(sed -n 2p r.tsv)" = "$(printf '1\t3\t1\t1\t1\t2')" ]
	run recode -r r.tsv -k 2 p.tsv
	[ "$status" -eq 0 ]
	# a missing value becomes the number of the class's range: one
	# missing value fewer than the region says
	awk -F'\t' 'BEGIN { OFS = "\t" } NR == 3 { $1 = 1 } 1' p.tsv > q.tsv
	run recode -r r.tsv -k 2 -o out.tsv q.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "recode: r.tsv:2: class 1 has 2 missing values of 'x', but q.tsv has 1" ]
	# and one more
	awk -F'\t' 'BEGIN { OFS = "\t" } NR == 2 { $1 = "" } 1' p.tsv > q.tsv
	run recode -r r.tsv -k 2 -o out.tsv q.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "recode: q.tsv:5: column 'x': '' is a missing value, and the region of class 1 holds only 2 (r.tsv:2)" ]
	[ ! -e out.tsv ]
}
