#!/usr/bin/env bats
# Sensitive values counted by their identity (kanon(7), Sensitive
# values): a number by its value, every missing value as one value,
# other text by its bytes.  Found by review: 50000, 50000.00 and 050000
# passed as three values of a class under -l 3, and HIV beside '?',
# 'NA' and an empty field as four under -l 4, with every program
# exiting 0 and score --check passing.  Each program counts them so
# (partition in memory, out of core and as cluster jobs, lattice-search,
# recode -n and -r, score), and a release keeps the bytes it was given.

load common

setup() {
	T=$BATS_TEST_TMPDIR
	cd "$T" || return 1
	# Three classes of one salary written three ways, three of three
	# salaries.
	printf 'id\tage\tzip\tsalary\n' > sal.tsv
	for i in 1 2 3; do
		printf '%s\t3%d\t1234%d\t%s\n' a$i $i $i 50000 b$i $i $i \
		    50000.00 c$i $i $i 050000 >> sal.tsv
	done
	for i in 4 5 6; do
		printf '%s\t4%d\t1235%d\t%s\n' a$i $i $i 20000 b$i $i $i \
		    30000 c$i $i $i 40000 >> sal.tsv
	done
	# Four classes of HIV twice and three missing values.
	printf 'id\tage\tdiag\n' > dg.tsv
	for i in 1 2 3 4; do
		printf '%s\t3%d\t%s\n' a$i $i HIV b$i $i HIV c$i $i '?' \
		    d$i $i NA e$i $i '' >> dg.tsv
	done
}

@test "one salary written three ways is one value: no program releases it as three under -l 3, and score --check fails the release that was written" {
	# The release the programs wrote before: each 3x class of one
	# salary.
	run score -q age,zip -s salary -k 3 -l 3 --check sal.tsv
	[ "$status" -eq 1 ]
	[[ "$output" == *"check_l_distinct	fail"* ]]
	[[ "$output" == *"l_distinct_min	1"* ]]
	# partition joins them with the other classes (4 values), in
	# memory, out of core and on threads, the same bytes.
	partition -q age,zip -k 3 -s salary -l 3 -r r.tsv sal.tsv > p.tsv
	for a in "-a rothko-t -S 1M" "-a rothko-s -S 1M" "-j 3"; do
		# shellcheck disable=SC2086 # the options split
		partition $a -q age,zip -k 3 -s salary -l 3 -r r2.tsv sal.tsv |
		    cmp - p.tsv
		cmp r2.tsv r.tsv
	done
	recode -r r.tsv -k 3 -s salary -l 3 p.tsv > rel.tsv
	score -q age,zip -s salary -k 3 -l 3 --check rel.tsv > /dev/null
	awk -f "$BATS_TEST_DIRNAME/release-check.awk" -v qi=age,zip -v k=3 \
	    -v id=id -v scol=salary -v l=3 -v ranges=1 -v means=1 \
	    -v extra=class sal.tsv rel.tsv
	# The salaries are released as they were written.
	cut -f 4 rel.tsv | sort | uniq -c | awk '{ printf "%s %s,", $1, $2 }' |
	    grep -qx '3 050000,3 20000,3 30000,3 40000,3 50000,3 50000.00,1 salary,'
	# lattice-search finds the node that keeps the three apart no
	# longer (its l would be 1); recode -n suppresses them.
	run lattice-search -q age,zip -H age=interval:10 -H zip=mask:1 -k 3 \
	    -s salary -l 3 --max-suppress 9 --best sal.tsv
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | sed -n 2p | cut -f 3)" = 9 ]
	recode -n age=1,zip=0 -H age=interval:10 -H zip=mask:1 -k 3 \
	    -s salary -l 3 --suppress drop sal.tsv > rel2.tsv
	[ "$(cut -f 4 rel2.tsv | sort -u | tr '\n' ,)" = "20000,30000,40000,salary," ]
	score -q age,zip -s salary -k 3 -l 3 --check rel2.tsv > /dev/null
	# Entropy and recursive l count them as one value too.
	run score -q age,zip -s salary -k 3 -l 2 --diversity entropy --check sal.tsv
	[ "$status" -eq 1 ]
	run score -q age,zip -s salary -k 3 -l 2 --diversity recursive -c 3 --check sal.tsv
	[ "$status" -eq 1 ]
}

@test "every missing token of a sensitive column is one value: HIV beside ?, NA and an empty field is two values, not four" {
	run score -q age -s diag -k 5 -l 4 --missing '?,NA' --check dg.tsv
	[ "$status" -eq 1 ]
	[[ "$output" == *"l_distinct_min	2"* ]]
	run score -q age -s diag -k 5 -l 2 --missing '?,NA' --check dg.tsv
	[ "$status" -eq 0 ]
	run --separate-stderr partition -q age -k 5 -s diag -l 4 --missing '?,NA' dg.tsv
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"no partitioning"* ]]
	run --separate-stderr partition -a rothko-t -S 1M -q age -k 5 -s diag -l 4 \
	    --missing '?,NA' dg.tsv
	[ "$status" -eq 1 ]
	recode -n age=0 -H age=interval:10 -k 5 -s diag -l 4 --missing '?,NA' \
	    --suppress drop dg.tsv > rel.tsv
	[ "$(wc -l < rel.tsv)" -eq 1 ]
	run --separate-stderr lattice-search -q age -H age=interval:10 -k 5 \
	    -s diag -l 3 --missing '?,NA' dg.tsv
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"no node of the lattice meets the requirements"* ]]
	# Without --missing, '?' and 'NA' are values of their own.
	score -q age -s diag -k 5 -l 3 --check dg.tsv > /dev/null
	# A token that is a number is missing before it is a number, and
	# so is its value written another way (-1.0).
	printf 'q\ts\n1\t-1\n1\t?\n1\t\n1\tx\n1\t-1.0\n' > m.tsv
	score -q q -s s -l 1 --missing '?,-1' m.tsv | grep -qx 'l_distinct_min	2'
	score -q q -s s -l 1 m.tsv | grep -qx 'l_distinct_min	4'
}

@test "t-closeness measures the identities: a column's spellings of one number are one position, in every program alike" {
	# Equal distance: 1, 1.0 and 01 are one value of the table.
	printf 'id\tq\ts\n' > t.tsv
	awk 'BEGIN { srand(5); split("1 1.0 01 2 2.00 3 +3 4", v, " ")
	    for (i = 0; i < 300; i++) printf "r%d\t%d\t%s\n", i, int(rand() * 6), v[int(rand() * 8) + 1] }' >> t.tsv
	for d in equal ordered; do
		partition -q q -k 5 -s s --closeness 0.3 --distance $d -r r.tsv t.tsv > p.tsv
		partition -a rothko-t -S 1M -q q -k 5 -s s --closeness 0.3 \
		    --distance $d -r r2.tsv t.tsv | cmp - p.tsv
		recode -r r.tsv p.tsv > rel.tsv
		score -q q -s s -k 5 --closeness 0.3 --distance $d --check rel.tsv > /dev/null
		awk -f "$BATS_TEST_DIRNAME/release-check.awk" -v qi=q -v k=5 \
		    -v id=id -v scol=s -v t=0.3 -v dist=$d -v ranges=1 \
		    -v means=1 -v extra=class t.tsv rel.tsv
		# The same figure whichever way the numbers are written.
		sed 's/\t01$/\t1/; s/\t1\.0$/\t1/; s/\t2\.00$/\t2/; s/\t+3$/\t3/' rel.tsv > relc.tsv
		diff <(score -q q -s s -k 5 --closeness 0.3 --distance $d rel.tsv | grep closeness) \
		    <(score -q q -s s -k 5 --closeness 0.3 --distance $d relc.tsv | grep closeness)
	done
}

@test "random tables of numbers written several ways and several missing tokens: every pipeline's release meets -l by identity (release-check.awk), the same bytes for -j 1 and 3" {
	for seed in 1 2 3 4 5 6; do
		awk -v seed=$seed 'BEGIN { srand(seed)
		    split("7 7.0 07 +7 8 08 9 9.00 10 ? NA", v, " ")
		    print "id\ta\tb\ts"
		    for (i = 0; i < 400; i++) {
			x = v[int(rand() * 12) + 1]
			if (x == "") x = ""
			printf "r%d\t%d\t%d\t%s\n", i, int(rand() * 30), int(rand() * 4), x
		    } }' > t.tsv
		l=$((seed % 3 + 2))
		for div in distinct entropy; do
			o=(-k 4 -s s -l $l --diversity $div --missing '?,NA')
			if partition -q a,b "${o[@]}" -r r.tsv t.tsv > p.tsv 2> err; then
				partition -j 3 -q a,b "${o[@]}" -r r3.tsv t.tsv | cmp - p.tsv
				recode -r r.tsv p.tsv > rel.tsv
				awk -f "$BATS_TEST_DIRNAME/release-check.awk" -v qi=a,b \
				    -v k=4 -v id=id -v scol=s -v l=$l -v div=$div \
				    -v missing='?,NA' -v ranges=1 -v means=1 \
				    -v extra=class t.tsv rel.tsv
				score -q a,b "${o[@]}" --check rel.tsv > /dev/null
			else
				grep -q 'no partitioning' err
			fi
			lattice-search -q a,b -H a=interval:5,10,30 -H b=interval:2,4 \
			    "${o[@]}" --max-suppress 40 --best -o n.tsv t.tsv
			[ "$(wc -l < n.tsv)" -le 2 ]
			if [ "$(wc -l < n.tsv)" -eq 2 ]; then
				recode -n n.tsv -H a=interval:5,10,30 -H b=interval:2,4 \
				    "${o[@]}" --max-suppress 40 --suppress drop t.tsv > rel.tsv
				recode -j 3 -n n.tsv -H a=interval:5,10,30 \
				    -H b=interval:2,4 "${o[@]}" --max-suppress 40 \
				    --suppress drop t.tsv | cmp - rel.tsv
				awk -f "$BATS_TEST_DIRNAME/release-check.awk" -v qi=a,b \
				    -v k=4 -v id=id -v scol=s -v l=$l -v div=$div \
				    -v missing='?,NA' -v drop=1 -v maxsupp=40 \
				    -v gen=a,b t.tsv rel.tsv
				score -q a,b "${o[@]}" --check rel.tsv > /dev/null
			fi
		done
	done
}

@test "a --missing token that is a number, an interval hierarchy for the hierarchical distance, the order of the tokens: none brings a second missing value or spelling back (found by review)" {
	# NA and -9 are one missing value whatever their order.
	printf 'id\tage\tdiag\n' > d9.tsv
	for i in 1 2 3 4; do
		printf 'a%d\t3%d\tHIV\nb%d\t3%d\tNA\nc%d\t3%d\t-9\n' $i $i $i $i $i $i >> d9.tsv
	done
	for m in 'NA,-9' '-9,NA'; do
		run score -q age -s diag -k 3 -l 3 --missing "$m" --check d9.tsv
		[ "$status" -eq 1 ]
		[[ "$output" == *"l_distinct_min	2"* ]]
		run partition -q age -k 3 -s diag -l 3 --missing "$m" d9.tsv
		[ "$status" -eq 1 ]
		run lattice-search -q age -H age=interval:10 -k 3 -s diag -l 3 \
		    --missing "$m" --best d9.tsv
		[ "$status" -eq 1 ]
	done
	# The token -9 by value: -9.0 is missing too; -8.0 is a number.
	printf 'q\ts\n1\t-9\n1\t-9.0\n1\tNA\n1\t-8.0\n' > n9.tsv
	score -q q -s s -l 1 --missing '-9,NA' n9.tsv | grep -qx 'l_distinct_min	2'
	# -l on a column the hierarchical distance reads through an
	# interval hierarchy: its numbers by value still.
	h=(-H salary=interval:10000,100000)
	run partition -q age,zip -k 3 -s salary -l 3 --closeness 1 \
	    --distance hierarchical "${h[@]}" -r r.tsv sal.tsv
	[ "$status" -eq 0 ]
	recode -r r.tsv <(printf '%s\n' "$output") > rel.tsv
	score -q age,zip -s salary -k 3 -l 3 --check rel.tsv > /dev/null
	run score -q age,zip -s salary -k 3 -l 3 --closeness 1 \
	    --distance hierarchical "${h[@]}" --check sal.tsv
	[ "$status" -eq 1 ]
	# The ordered distance in byte order: the missing values one value,
	# the empty one (first), whatever the tokens and their order.
	printf 'id\tq\ts\n1\t1\tA\n2\t1\tNA\n3\t1\t?\n4\t2\tA\n5\t2\tB\n6\t2\tB\n7\t3\t\n8\t3\tB\n9\t3\tA\n' > o2.tsv
	a=$(score -q q -k 3 -s s --closeness 0.25 --distance ordered --missing 'NA,?' o2.tsv | grep closeness_max)
	b=$(score -q q -k 3 -s s --closeness 0.25 --distance ordered --missing '?,NA' o2.tsv | grep closeness_max)
	[ "$a" = "$b" ]
	run awk -f "$BATS_TEST_DIRNAME/release-check.awk" -v qi=q -v k=3 \
	    -v id=id -v scol=s -v t=0.25 -v dist=ordered -v missing='NA,?' \
	    o2.tsv o2.tsv
	if score -q q -k 3 -s s --closeness 0.25 --distance ordered \
	    --missing 'NA,?' --check o2.tsv > /dev/null; then
		[ "$status" -eq 0 ]
	else
		[ "$status" -eq 1 ]
	fi
	# --variance alone reads the values as they are written: its
	# message quotes the row's own.
	printf 'id\ta\ts\n1\t1\t5\n2\t2\t?\n3\t3\t7\n' > v.tsv
	run --separate-stderr partition -q a -k 2 -s s --variance 1 --missing 'NA,?' v.tsv
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"'?' is a missing value"* ]]
}

@test "a hierarchy file for the hierarchical distance, numbers past 36 digits, other spellings of a numeric --missing token: one value each (found by the third review)" {
	# The file lists ?, NA and the empty value: all missing, one value.
	printf 'g\ts\n1\tHIV\n1\t?\n1\tNA\n2\tflu\n2\tcold\n2\t\n' > f1.tsv
	printf 'HIV\tbad\t*\n?\tunk\t*\nNA\tunk\t*\n\tunk\t*\nflu\tok\t*\ncold\tok\t*\n' > f1s.tsv
	o=(-k 3 -s s -l 3 --missing '?,NA' --closeness 1 --distance hierarchical -H s=f1s.tsv)
	partition -q g "${o[@]}" -r r.tsv f1.tsv > p.tsv
	[ "$(tail -n +2 r.tsv | wc -l)" -eq 1 ]
	recode -r r.tsv "${o[@]}" p.tsv > rel.tsv
	score --check -q g -k 3 -s s -l 3 --missing '?,NA' rel.tsv > /dev/null
	run score --check -q g "${o[@]}" f1.tsv
	[ "$status" -eq 1 ]
	[[ "$output" == *"l_distinct_min	2"* ]]
	run lattice-search -q g -H g=interval:10 "${o[@]}" --best f1.tsv
	[ "$(printf '%s\n' "$output" | sed -n 2p | cut -f 1)" = 1 ]
	# A file that lists one number two ways is refused.
	printf 'HIV\tbad\t*\n50000\tx\t*\n50000.00\tx\t*\n' > f4s.tsv
	printf 'g\ts\n1\tHIV\n1\t50000\n' > f4.tsv
	run --separate-stderr partition -q g -k 2 -s s -l 2 --closeness 1 \
	    --distance hierarchical -H s=f4s.tsv f4.tsv
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"the leaves '50000' and '50000.00' are one number"* ]]
	# 37 decimal places: still a number, one value with 1.
	printf 'g\ts\n1\t1\n1\t1.0000000000000000000000000000000000000\n2\t1\n2\t2\n' > f2.tsv
	run score --check -q g -k 2 -s s -l 2 f2.tsv
	[ "$status" -eq 1 ]
	partition -q g -k 2 -s s -l 2 -r r2.tsv f2.tsv > /dev/null
	[ "$(tail -n +2 r2.tsv | wc -l)" -eq 1 ]
	# -9.0 and -09 are the token -9.
	printf 'g\ts\n1\t-9\n1\t-9.0\n1\t-09\n2\t1\n2\t2\n2\t3\n' > f3.tsv
	run score --check -q g -k 3 -s s -l 2 --missing=-9 f3.tsv
	[ "$status" -eq 1 ]
	partition -q g -k 3 -s s -l 2 --missing=-9 -r r3.tsv f3.tsv > /dev/null
	[ "$(tail -n +2 r3.tsv | wc -l)" -eq 1 ]
	recode -n g=0 -H g=interval:10 -k 3 -s s -l 2 --missing=-9 \
	    --suppress drop f3.tsv > rel3.tsv
	[ "$(cut -f 2 rel3.tsv | tr '\n' ,)" = "s,1,2,3," ]
	# A number of more than 47 characters is refused with its value.
	printf 'g\ts\n1\t1.%050d1\n' 0 > f5.tsv
	run --separate-stderr score -q g -s s -l 1 f5.tsv
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"a sensitive value that is a number of more than 47 characters"* ]]
}
