#!/usr/bin/env bats
# recode -j: the first pass of a node counted on threads (freq.c's
# tkey), the second pass on threads (rowpar.c): the same bytes for any
# number of threads, and the same first bad row reported, with the same
# exit status and stderr, as one thread.

load common

setup() {
	T=$BATS_TEST_TMPDIR
}

# hs NODE: the node -n NODE (attr=level,...) with the generated
# hierarchies of its attributes.
hs() {
	local a
	for a in $(printf '%s\n' "$1" | tr ',' '\n' | cut -d= -f1); do
		case $a in
		age) printf -- '-H age=interval:5,10 ' ;;
		zipcode) printf -- '-H zipcode=interval:3 ' ;;
		car) printf -- '-H car=interval:5 ' ;;
		salary) printf -- '-H salary=interval:1000,10000 ' ;;
		esac
	done
	printf -- '-n %s\n' "$1"
}

# same_jobs ARGS...: recode ARGS with -j 1, then 2, 3 and 7: stdout,
# stderr and exit status must be those of -j 1 (the last run's are
# left in $T/out.N, $T/err.N and $T/st.N).
same_jobs() {
	local j
	for j in 1 2 3 7; do
		recode -j "$j" "$@" > "$T/out.$j" 2> "$T/err.$j"
		echo $? > "$T/st.$j"
	done
	# The runs of -v are those of every thread's spills.  -j 1's
	# stderr without them made once, not once for each -j.
	sed -E 's/, [0-9]+ runs$//' "$T/err.1" > "$T/err.1.noruns"
	for j in 2 3 7; do
		cmp "$T/out.1" "$T/out.$j" || { echo "-j $j: stdout: $*"; return 1; }
		sed -E 's/, [0-9]+ runs$//' "$T/err.$j" |
		    cmp "$T/err.1.noruns" - || {
			echo "-j $j: stderr: $*"; cat "$T/err.1" "$T/err.$j"
			return 1; }
		cmp "$T/st.1" "$T/st.$j" || { echo "-j $j: status: $*"; return 1; }
	done
}

# middle FILE LINE TEXT: FILE with its line LINE replaced by TEXT.
middle() {
	awk -v n="$2" -v t="$3" 'NR == n { print t; next } { print }' "$1"
}

@test "-j 1, 2, 3, 7: nodes write the same bytes (-k, -l, --suppress drop, -x, -v)" {
	# One table (two, of seeds 1 and 2, until the suite outgrew its 5
	# minutes: the same options on other rows of the same generator):
	# 2.1 MB, three blocks of the default -S's 1 MB, more at -S 8M and
	# 1M.
	gendata -n 60000 --seed 1 agrawal > "$T/t"
	while IFS='|' read -r node args; do
		# shellcheck disable=SC2046,SC2086
		same_jobs $(hs "$node") $args "$T/t" || return 1
		[ "$(cat "$T/st.1")" = 0 ] || { cat "$T/err.1"; return 1; }
	done <<-EOF_
	age=1,zipcode=0,car=1|-k 5 -v
	age=1,zipcode=1,car=0|-k 3 -s elevel -l 2 --suppress drop -v
	age=0,salary=1|-k 4 --suppress drop -x loan,hvalue
	age=2,zipcode=1|-k 1
	age=1,car=1|-k 2 -S 8M
	age=1,zipcode=0|-k 2 --ocsv
	age=0,salary=0|-k 2 -S 1M -v
	EOF_
	# The last run suppressed most classes, at -S 1M: on one thread.
	[ "$(wc -l < "$T/out.1")" -eq 60001 ]
}

@test "-j: the classes to suppress on disk (past an eighth of -S), looked up by one thread at a time" {
	# 60,000 rows, 12,000 of them twice, at -S 4M (were 150,000, 30,000
	# and -S 16M): the 48,000 classes suppressed take 1.4 MB as keys,
	# past the eighth of -S (512 KB), so they go to disk (keyset.c;
	# seen in gdb: keyset_init called, a file of 1,424,091 bytes), as
	# 120,000 went past the eighth of 16M.
	gendata -n 60000 --seed 11 uniform -d 3 -c 1000000000 |
	    awk 'NR <= 12001 { d[NR] = $0 } { print }
	    END { for (i = 2; i <= 12001; i++) print d[i] }' > "$T/t"
	same_jobs -H a1=interval:10 -H a2=interval:10 -H a3=interval:10 \
	    -n a1=0,a2=0,a3=0 -k 2 -v -S 4M "$T/t"
	[ "$(cat "$T/st.1")" = 0 ]
	grep -q ' 48000 rows suppressed in 48000 classes' "$T/err.1"
}

@test "-j: a file hierarchy, the same bytes; headerless input, --skip-header" {
	gendata -n 30000 --seed 4 agrawal > "$T/t"
	awk 'BEGIN { for (z = 0; z < 10; z++)
	    printf "%d\t%s\t*\n", z, z < 4 ? "low" : "high" }' > "$T/hz"
	same_jobs -H zipcode="$T/hz" -H age=interval:10 -n zipcode=1,age=1 \
	    -k 3 -v "$T/t"
	[ "$(cat "$T/st.1")" = 0 ]
	cols=$(head -1 "$T/t" | tr '\t' ,)
	{ tail -n +2 "$T/t"; head -1 "$T/t"; tail -n +2 "$T/t"; } > "$T/nh"
	same_jobs -H zipcode="$T/hz" -n zipcode=1 -k 2 --columns "$cols" \
	    --skip-header "$T/nh"
	[ "$(cat "$T/st.1")" = 0 ]
	[ "$(wc -l < "$T/out.1")" -eq 60000 ]
}

@test "-j: the first bad row in the middle is named as one thread names it" {
	gendata -n 50000 --seed 5 agrawal > "$T/t"
	middle "$T/t" 30001 "1	2	3" > "$T/ragged"
	middle "$T/t" 20001 "$(sed -n 20001p "$T/t" | awk -F'\t' -v OFS='\t' \
	    '{ $3 = "old"; print }')" > "$T/nan"
	# Two bad rows: the first is reported.
	middle "$T/nan" 40001 "x" > "$T/two"
	awk 'BEGIN { for (z = 0; z < 10; z++) printf "%d\t*\n", z }' > "$T/hz"
	middle "$T/t" 25001 "$(sed -n 25001p "$T/t" | awk -F'\t' -v OFS='\t' \
	    '{ $6 = 12; print }')" > "$T/leaf"
	while IFS='|' read -r file node args want; do
		# shellcheck disable=SC2046,SC2086
		same_jobs $(hs "$node") $args "$T/$file" || return 1
		[ "$(cat "$T/st.1")" = 2 ]
		grep -q -- "$want" "$T/err.1" || { cat "$T/err.1"; return 1; }
		# One pass: the rows before it are written, as one thread
		# writes them.
		if [ "${args%% -S*}" = "-k 1" ]; then
			[ "$(wc -l < "$T/out.1")" -gt 1000 ]
		fi
	done <<-EOF_
	ragged|age=1|-k 1|:30001: expected 9 fields, found 3
	ragged|age=1|-k 3|:30001: expected 9 fields, found 3
	ragged|age=1|-k 1 -S 8M|:30001: expected 9 fields, found 3
	nan|age=1,car=0|-k 1|:20001: column 'age': 'old': value is not a number
	nan|age=1,car=0|-k 2 -S 8M|:20001: column 'age': 'old'
	two|age=1|-k 1|:20001: column 'age'
	two|age=1|-k 2 -S 8M|:20001: column 'age'
	leaf|zipcode=1|-H zipcode=$T/hz -k 2 -S 8M|:25001: column 'zipcode': '12': value is not a leaf
	leaf|zipcode=1|-H zipcode=$T/hz -k 1|:25001: column 'zipcode': '12': value is not a leaf
	EOF_
}

# tocsv: the TSV table on stdin as CSV with CRLF line ends: commas, the
# third field of every fifth row in quotes, and the ninth of line 10 a
# value of two lines (every line after it one further on).
tocsv() {
	awk -F'\t' -v OFS=, 'NR > 1 && NR % 5 == 0 { $3 = "\"" $3 "\"" }
	    NR == 10 { $9 = "\"" $9 "\nx\"" } { $1 = $1; printf "%s\r\n", $0 }'
}

@test "-j with CSV (--csv: quoted fields, a record of two lines, CRLF): the bytes of one thread, and the first bad row in the middle named at its line, in one pass and two, with regions" {
	gendata -n 50000 --seed 5 agrawal > "$T/t"
	tocsv < "$T/t" > "$T/t.csv"
	middle "$T/t" 30001 "1	2	3" | tocsv > "$T/ragged.csv"
	middle "$T/t" 20001 "$(sed -n 20001p "$T/t" | awk -F'\t' -v OFS='\t' \
	    '{ $3 = "old"; print }')" | tocsv > "$T/nan.csv"
	partition -q age,zipcode -k 5 -r "$T/r" "$T/t" > "$T/p"
	tocsv < "$T/p" > "$T/p.csv"
	awk -v n=20001 'NR == n { print; print; next } { print }' "$T/p" |
	    tocsv > "$T/dup.csv"
	# A quote never closed in the last record: the reading thread dies
	# of it, after the blocks in hand are written (and their bad row
	# named).
	{ cat "$T/t.csv"; printf '1,"2\r\n3\r\n'; } > "$T/open.csv"
	{ middle "$T/t" 49951 "$(sed -n 49951p "$T/t" | awk -F'\t' \
	    -v OFS='\t' '{ $3 = "old"; print }')" | tocsv
	    printf '1,"2\r\n'; } > "$T/badopen.csv"
	while IFS='|' read -r file node args want; do
		# shellcheck disable=SC2046,SC2086
		same_jobs --csv $(hs "$node") $args "$T/$file" || return 1
		if [ -z "$want" ]; then
			[ "$(cat "$T/st.1")" = 0 ]
			continue
		fi
		[ "$(cat "$T/st.1")" = 2 ]
		grep -q -- "$want" "$T/err.1" || { cat "$T/err.1"; return 1; }
	done <<-EOF_
	t.csv|age=1,car=0|-k 3|
	t.csv|age=1|-k 1 -S 8M|
	ragged.csv|age=1|-k 1|:30002: expected 9 fields, found 3
	ragged.csv|age=1|-k 3 -S 8M|:30002: expected 9 fields, found 3
	nan.csv|age=1,car=0|-k 1|:20002: column 'age': 'old': value is not a number
	nan.csv|age=1,car=0|-k 2 -S 8M|:20002: column 'age': 'old'
	open.csv|age=1|-k 1 -S 8M|:50003: field 2: the quote that opens it is never closed
	open.csv|age=1|-k 1|:50003: field 2: the quote that opens it is never closed
	badopen.csv|age=1|-k 1 -S 8M|:49952: column 'age': 'old'
	EOF_
	same_jobs --csv -r "$T/r" -k 2 "$T/p.csv" || return 1
	[ "$(cat "$T/st.1")" = 0 ]
	same_jobs --csv -r "$T/r" -S 8M "$T/dup.csv" || return 1
	[ "$(cat "$T/st.1")" = 2 ]
	grep -q -- "but $T/dup.csv has more rows of it" "$T/err.1"
}

@test "-j: from a pipe, one pass and two (spooled)" {
	gendata -n 40000 --seed 6 agrawal > "$T/t"
	mkdir "$T/tmp"
	n=$(hs age=1,zipcode=0)
	# shellcheck disable=SC2086
	recode -j 1 $n -k 4 "$T/t" > "$T/want1"
	# shellcheck disable=SC2086
	recode -j 1 $n -k 1 "$T/t" > "$T/want2"
	for j in 2 3 7; do
		# shellcheck disable=SC2002,SC2086 # a pipe, on purpose
		cat "$T/t" | recode -j "$j" -T "$T/tmp" $n -k 4 |
		    cmp - "$T/want1"
		# shellcheck disable=SC2002,SC2086
		cat "$T/t" | recode -j "$j" $n -k 1 | cmp - "$T/want2"
	done
	[ -z "$(ls -A "$T/tmp")" ]
}

@test "-j: a line longer than a block passes whole, in its place" {
	gendata -n 20000 --seed 7 agrawal > "$T/t"
	# The line of 300,000 y's made by doubling, then cut: 20 bytes at a
	# time, awk copied the growing line 15,000 times (0.7 s of CPU).
	awk -F'\t' -v OFS='\t' 'NR == 9001 { l = "y"; while (length(l) < 300000)
	    l = l l; $9 = substr(l, 1, 300000) } { print }' "$T/t" > "$T/long"
	# shellcheck disable=SC2046
	same_jobs $(hs age=1) -k 2 -S 8M "$T/long"
	[ "$(cat "$T/st.1")" = 0 ]
	[ "$(sed -n 9001p "$T/out.1" | cut -f 9 | wc -c)" -eq 300001 ]
}

@test "-j: regions write the same bytes, missing values counted in order" {
	# 52,000 rows (were 60,000, the same first rows): the table
	# partition writes is 2.1 MB, still three blocks of the default
	# -S's 1 MB (seen in gdb: rowpar_block called 3 times at -j 3).
	gendata -n 52000 --seed 8 agrawal |
	    awk -F'\t' -v OFS='\t' 'NR > 1 && NR % 7 == 0 { $3 = "" } { print }' \
	    > "$T/t"
	partition -q age,zipcode,car -k 5 -r "$T/r" "$T/t" > "$T/p"
	while IFS='|' read -r args; do
		# shellcheck disable=SC2086
		same_jobs -r "$T/r" $args "$T/p" || return 1
		[ "$(cat "$T/st.1")" = 0 ]
	done <<-EOF_
	-v
	--summary both --keep-class
	-k 7 -v
	-k 7 -s elevel -l 2 --suppress drop
	-S 8M -k 2
	--part
	EOF_
}

@test "-j: regions' errors in the middle are named as one thread names them" {
	# 35,000 rows (were 50,000, the same first rows): the bad rows in
	# the blocks they were in, of the default -S's 1 MB (rows 15001 and
	# 20001 in the first, 30001 in the second) and of -S 8M (many).
	gendata -n 35000 --seed 9 agrawal |
	    awk -F'\t' -v OFS='\t' 'NR > 1 && NR % 7 == 0 { $3 = "" } { print }' \
	    > "$T/t"
	partition -q age,zipcode -k 5 -r "$T/r" "$T/t" > "$T/p"
	# A value outside its region; a row more of a class; a row more of
	# the class of missing ages, whose missing values pass their count
	# first.
	middle "$T/p" 20001 "$(sed -n 20001p "$T/p" | awk -F'\t' -v OFS='\t' \
	    '{ $3 = 1000; print }')" > "$T/out"
	awk -v n=20001 'NR == n { print; print; next } { print }' "$T/p" \
	    > "$T/dup"
	# The first pass counts on: a ragged line after a row outside its
	# region is met first, and so is a class not in the regions.
	middle "$T/out" 30001 "1	2" > "$T/outr"
	middle "$T/p" 15001 "$(sed -n 15001p "$T/p" | awk -F'\t' -v OFS='\t' \
	    '{ $10 = 999999; print }')" > "$T/unk"
	c=$(awk -F'\t' 'NR > 1 && $6 > 0 && $6 == $2 { print $1; exit }' "$T/r")
	[ -n "$c" ]
	awk -F'\t' -v c="$c" '!done && $10 == c { print; done = 1 } { print }' \
	    "$T/p" > "$T/miss"
	while IFS='|' read -r file args want; do
		# shellcheck disable=SC2086
		same_jobs -r "$T/r" $args "$T/$file" || return 1
		[ "$(cat "$T/st.1")" = 2 ]
		grep -q -- "$want" "$T/err.1" || { cat "$T/err.1"; return 1; }
	done <<-EOF_
	out||:20001: column 'age': '1000' lies outside the region
	out|-k 2|:20001: column 'age': '1000' lies outside the region
	outr|-k 2|:30001: expected 10 fields, found 2
	outr||:20001: column 'age': '1000' lies outside the region
	unk|-k 2 -S 8M|:15001: column 'class': '999999' is not a class of
	dup||but $T/dup has more rows of it
	dup|-S 8M|but $T/dup has more rows of it
	miss|-S 8M|column 'age': '' is a missing value, and the region of class $c holds only
	miss||column 'age': '' is a missing value, and the region of class $c holds only
	EOF_
}

@test "-j: a date hierarchy, its form set by the rows (on one thread until it is), a date-time among dates" {
	awk 'BEGIN { srand(3); print "d\tx"
	    for (i = 0; i < 40000; i++)
		printf "%d-%02d-%02d\t%d\n", 1990 + int(rand() * 30),
		    1 + int(rand() * 12), 1 + int(rand() * 28), i % 7 }' > "$T/t"
	middle "$T/t" 25001 "2001-02-03T04:05:06	1" > "$T/mixed"
	while IFS='|' read -r file args want; do
		# shellcheck disable=SC2086
		same_jobs -H d=date:month,year -n d=1 $args "$T/$file" ||
		    return 1
		if [ -z "$want" ]; then
			[ "$(cat "$T/st.1")" = 0 ]
		else
			[ "$(cat "$T/st.1")" = 2 ]
			grep -q -- "$want" "$T/err.1" || { cat "$T/err.1"; return 1; }
		fi
	done <<-EOF_
	t|-k 1|
	t|-k 3 -S 8M|
	mixed|-k 1|:25001: column 'd': '2001-02-03T04:05:06': value is a date-time
	mixed|-k 3 -S 8M|:25001: column 'd': '2001-02-03T04:05:06': value is a date-time
	EOF_
}
