#!/usr/bin/env bats
# Dates and times (kanon(7), DATES): ISO dates and date-times, valid and
# not, as partition cuts them (--date), as recode -r releases them (ISO
# intervals and means) and checks them against the regions, as score's
# workload and plot read them, and the generated date hierarchies
# (-H COL=date:LEVELS) of freqset, lattice-search, recode -n and
# partition.  And the property: random tables with a date column
# through partition (in memory, Rothko-T, Rothko-S, by a date
# hierarchy) and recode -r, and through freqset, lattice-search and
# recode -n, every release checked by release-check.awk.  A failure
# names the seed: gendates SEED DIR (gen-dates.bash) rebuilds the case.

load common
load gen-dates
load seeds

setup() {
	T=$BATS_TEST_TMPDIR
	cd "$T" || return 1
}

# The patients of a small clinic, born over sixty years.
births() {
	printf 'id\tbirth\tzip\tdiag\n'
	printf '1\t1948-03-12\t53711\tflu\n2\t1951-07-30\t53712\tcold\n'
	printf '3\t1969-12-31\t53711\tflu\n4\t1970-01-01\t53703\tcough\n'
	printf '5\t1985-11-05\t53703\tflu\n6\t1990-02-28\t53712\tcold\n'
	printf '7\t2000-02-29\t53711\tflu\n8\t2004-06-15\t53703\tcold\n'
}

# Visits at times of day, and at both ends of the calendar.
visits() {
	printf 'id\tt\n1\t2023-05-01T08:00:00\n2\t2023-05-01T08:30:15\n'
	printf '3\t2023-05-01T23:59:59\n4\t2023-05-02T00:00:00\n'
	printf '5\t1969-12-31T23:59:59\n6\t0001-01-01T00:00:00\n'
	printf '7\t9999-12-31T23:59:59\n8\t2023-05-01T12:00:00\n'
}

# Twelve people born in the 1980s and 1990s, and their sex.
people() {
	printf 'id\tbirth\tsex\n1\t1985-01-14\tF\n2\t1985-02-03\tF\n'
	printf '3\t1985-03-30\tM\n4\t1985-11-11\tM\n5\t1986-04-02\tF\n'
	printf '6\t1986-07-19\tM\n7\t1987-12-01\tF\n8\t1988-01-05\tM\n'
	printf '9\t1992-06-30\tF\n10\t1994-09-09\tM\n11\t1999-12-31\tF\n'
	printf '12\t2001-01-01\tM\n'
}

@test "valid dates: leap days, before 1970, years 0001 and 9999, date-times" {
	printf 'd\tx\n2000-02-29\ta\n2024-02-29\tb\n1969-12-31\tc\n1600-02-29\td\n0001-01-01\te\n9999-12-31\tf\n' > t.tsv
	run partition -q d --date d -k 1 -r r.tsv t.tsv
	[ "$status" -eq 0 ]
	[ "$(cut -f 3,4,5 r.tsv | tail -n +2 | tr '\t\n' ' |')" = \
	    "0001-01-01 0001-01-01 0001-01-01|1600-02-29 1600-02-29 1600-02-29|1969-12-31 1969-12-31 1969-12-31|2000-02-29 2000-02-29 2000-02-29|2024-02-29 2024-02-29 2024-02-29|9999-12-31 9999-12-31 9999-12-31|" ]
	printf 'd\tx\n1969-12-31T23:59:59\ta\n1970-01-01T00:00:00\tb\n2024-02-29T12:00:00\tc\n' > u.tsv
	run partition -q d --date d -k 3 -r r.tsv u.tsv
	[ "$status" -eq 0 ]
	[ "$(tail -n 1 r.tsv)" = "1	3	1969-12-31T23:59:59	2024-02-29T12:00:00	1988-01-21T04:00:00" ]
}

@test "invalid dates are errors naming the file, line, column and value, exit 2" {
	local v want
	while IFS='|' read -r v want; do
		printf 'd\tx\n2000-02-29\ta\n%s\tb\n' "$v" > bad.tsv
		run partition -q d --date d -k 1 bad.tsv
		[ "$status" -eq 2 ] || { echo "$v: $status"; false; }
		[ "$output" = "partition: bad.tsv:3: column 'd': '$v' $want" ] ||
		    { echo "$v: $output"; false; }
	done <<'EOF'
2023-02-30|is not a date: February 2023 has 28 days
1900-02-29|is not a date: February 1900 has 28 days
2023-04-31|is not a date: April 2023 has 30 days
2023-13-01|is not a date: there is no month 13
2023-00-10|is not a date: there is no month 00
2023-01-00|is not a date: there is no day 00
0000-01-01|is not a date: the years are 0001 to 9999
2023-2-3|is not a date YYYY-MM-DD or a date-time YYYY-MM-DDThh:mm:ss (kanon(7), DATES)
2023-01-01x|is not a date YYYY-MM-DD or a date-time YYYY-MM-DDThh:mm:ss (kanon(7), DATES)
20230101|is not a date YYYY-MM-DD or a date-time YYYY-MM-DDThh:mm:ss (kanon(7), DATES)
2023-05-01T24:00:00|is not a date-time: there is no hour 24
2023-05-01T10:60:00|is not a date-time: there is no minute 60
2023-05-01T10:00:60|is not a date-time: there is no second 60 (no leap second is taken)
2023-02-29T10:00:00|is not a date-time: February 2023 has 28 days
2023-05-01T10:00:00Z|is not a date-time YYYY-MM-DDThh:mm:ss: no time zone or fraction of a second is taken (kanon(7), DATES)
2023-05-01T10:00:00+02:00|is not a date-time YYYY-MM-DDThh:mm:ss: no time zone or fraction of a second is taken (kanon(7), DATES)
2023-05-01T10:00:00.5|is not a date-time YYYY-MM-DDThh:mm:ss: no time zone or fraction of a second is taken (kanon(7), DATES)
2023-05-01 10:00:00|is not a date-time YYYY-MM-DDThh:mm:ss: a 'T' goes between the date and the time (kanon(7), DATES)
2023-05-01T10:00|is not a date YYYY-MM-DD or a date-time YYYY-MM-DDThh:mm:ss (kanon(7), DATES)
EOF
}

@test "the same messages from a date hierarchy, out of core, and from recode and score" {
	printf 'd\tx\n2000-02-29\ta\n2023-02-30\tb\n' > bad.tsv
	run freqset -q d -H d=date:month bad.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "freqset: bad.tsv:3: column 'd': '2023-02-30': value is not a date: February 2023 has 28 days (date:month)" ]
	run partition -q d --date d -k 1 -S 1M bad.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "partition: bad.tsv:3: column 'd': '2023-02-30' is not a date: February 2023 has 28 days" ]
	printf 'd\tx\tclass\n2000-02-29\ta\t1\n2023-02-30\tb\t1\n' > p.tsv
	printf 'class\tcount\td_min\td_max\td_mean\n1\t2\t2000-02-29\t2023-03-01\t2011-07-30\n' > r.tsv
	run recode -r r.tsv --date d p.tsv
	[ "$status" -eq 2 ]
	[ "${lines[-1]}" = "recode: p.tsv:3: column 'd': '2023-02-30' is not a date: February 2023 has 28 days" ]
	printf 'd\tx\n2000-02-29\ta\n' > rel.tsv
	printf 'd\n2000-02-29\n' > wl.tsv
	run score -q d --date d --original bad.tsv --workload wl.tsv rel.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "score: bad.tsv:3: column 'd': '2023-02-30' is not a date: February 2023 has 28 days" ]
}

@test "a column holds dates or date-times, not both" {
	printf 'd\tx\n2023-05-17T10:00:00\ta\n2023-05-17\tb\n' > t.tsv
	run partition -q d --date d -k 1 t.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "partition: t.tsv:3: column 'd': '2023-05-17' is a date, but the column's first value is a date-time: a column holds dates or date-times, not both" ]
	run freqset -q d -H d=date:year t.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "freqset: t.tsv:3: column 'd': '2023-05-17': value is a date, but the column's first value is a date-time: a column holds dates or date-times, not both (date:year)" ]
	births > b.tsv
	partition -q birth,zip --date birth -k 2 -r r.tsv b.tsv > p.tsv
	sed 's/^5\t1985-11-05/5\t1985-11-05T00:00:00/' p.tsv > q.tsv
	run recode -r r.tsv --date birth q.tsv
	[ "$status" -eq 2 ]
	[ "${lines[-1]}" = "recode: q.tsv:6: column 'birth': '1985-11-05T00:00:00' is a date-time, but the regions hold dates" ]
	sed '2s/1951-07-30/1951-07-30T00:00:00/' r.tsv > r2.tsv
	run recode -r r2.tsv --date birth p.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "recode: r2.tsv:2: column 'birth_max': '1951-07-30T00:00:00' is a date-time, but the regions before it hold dates" ]
}

@test "partition --date and recode -r: ISO ranges and means, in memory and out of core" {
	births > t.tsv
	run partition -q birth,zip --date birth -k 2 -r r.tsv -o p.tsv t.tsv
	[ "$status" -eq 0 ]
	[ "$(cut -f 5 p.tsv | tr '\n' ' ')" = "class 1 1 2 2 3 4 4 3 " ]
	[ "$(cat r.tsv)" = "class	count	birth_min	birth_max	birth_mean	zip_min	zip_max	zip_mean
1	2	1948-03-12	1951-07-30	1949-11-19	53711	53712	53711.5
2	2	1969-12-31	1970-01-01	1969-12-31	53703	53711	53707
3	2	1985-11-05	2004-06-15	1995-02-25	53703	53703	53703
4	2	1990-02-28	2000-02-29	1995-03-01	53711	53712	53711.5" ]
	run recode -r r.tsv --date birth p.tsv
	[ "$status" -eq 0 ]
	[ "$output" = "id	birth	zip	diag
1	1948-03-12/1951-07-30	[53711-53712]	flu
2	1948-03-12/1951-07-30	[53711-53712]	cold
3	1969-12-31/1970-01-01	[53703-53711]	flu
4	1969-12-31/1970-01-01	[53703-53711]	cough
5	1985-11-05/2004-06-15	53703	flu
6	1990-02-28/2000-02-29	[53711-53712]	cold
7	1990-02-28/2000-02-29	[53711-53712]	flu
8	1985-11-05/2004-06-15	53703	cold" ]
	run recode -r r.tsv --date birth --summary mean p.tsv
	[ "$status" -eq 0 ]
	[ "$(cut -f 2 <<< "$output" | tr '\n' ' ')" = "birth 1949-11-19 1949-11-19 1969-12-31 1969-12-31 1995-02-25 1995-03-01 1995-03-01 1995-02-25 " ]
	# Rothko-T writes the same bytes; Rothko-S with a budget that holds
	# the table, too.
	partition -q birth,zip --date birth -k 2 -r r2.tsv -S 1M --fit-rows 3 t.tsv > p2.tsv
	cmp r.tsv r2.tsv
	cmp p.tsv p2.tsv
	partition -q birth,zip --date birth -k 2 -r r3.tsv -a rothko-s -S 1M t.tsv > p3.tsv
	cmp r.tsv r3.tsv
	cmp p.tsv p3.tsv
}

@test "date-times: ranges and means to the second, rounded half away from zero" {
	visits > t.tsv
	partition -q t --date t -k 2 -r r.tsv t.tsv > p.tsv
	[ "$(cat r.tsv)" = "class	count	t_min	t_max	t_mean
1	2	0001-01-01T00:00:00	1969-12-31T23:59:59	0985-07-01T23:59:59
2	2	2023-05-01T08:00:00	2023-05-01T08:30:15	2023-05-01T08:15:08
3	2	2023-05-01T12:00:00	2023-05-01T23:59:59	2023-05-01T18:00:00
4	2	2023-05-02T00:00:00	9999-12-31T23:59:59	6011-09-01T00:00:00" ]
	run recode -r r.tsv --date t --summary both p.tsv
	[ "$status" -eq 0 ]
	[ "$output" = "id	t	t_mean
1	2023-05-01T08:00:00/2023-05-01T08:30:15	2023-05-01T08:15:08
2	2023-05-01T08:00:00/2023-05-01T08:30:15	2023-05-01T08:15:08
3	2023-05-01T12:00:00/2023-05-01T23:59:59	2023-05-01T18:00:00
4	2023-05-02T00:00:00/9999-12-31T23:59:59	6011-09-01T00:00:00
5	0001-01-01T00:00:00/1969-12-31T23:59:59	0985-07-01T23:59:59
6	0001-01-01T00:00:00/1969-12-31T23:59:59	0985-07-01T23:59:59
7	2023-05-02T00:00:00/9999-12-31T23:59:59	6011-09-01T00:00:00
8	2023-05-01T12:00:00/2023-05-01T23:59:59	2023-05-01T18:00:00" ]
	partition -q t --date t -k 2 -r r2.tsv -S 1M --fit-rows 2 t.tsv | cmp - p.tsv
	cmp r.tsv r2.tsv
}

@test "recode -r checks each row against its region's dates exactly" {
	births > t.tsv
	partition -q birth,zip --date birth -k 2 -r r.tsv t.tsv > p.tsv
	# A day past the class's last.
	sed 's/^2\t1951-07-30/2\t1951-07-31/' p.tsv > q.tsv
	run recode -r r.tsv --date birth q.tsv
	[ "$status" -eq 2 ]
	[ "${lines[-1]}" = "recode: q.tsv:3: column 'birth': '1951-07-31' lies outside the region of class 1, from 1948-03-12 to 1951-07-30 (r.tsv:2)" ]
	# The day before the first, found before anything is written.
	sed 's/^3\t1969-12-31/3\t1969-12-30/' p.tsv > q.tsv
	run recode -r r.tsv --date birth -k 2 q.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "recode: q.tsv:4: column 'birth': '1969-12-30' lies outside the region of class 2, from 1969-12-31 to 1970-01-01 (r.tsv:3)" ]
	# A region whose mean is not within it.
	sed '2s/1949-11-19/1952-01-01/' r.tsv > r2.tsv
	run recode -r r2.tsv --date birth p.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "recode: r2.tsv:2: class 1: birth_mean '1952-01-01' is not from 1948-03-12 to 1951-07-30" ]
}

@test "--date is checked: a quasi-identifier, not twice, not where no date is read" {
	births > t.tsv
	run partition -q birth,zip --date diag -k 2 t.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "partition: --date: 'diag' is not a quasi-identifier" ]
	run partition -q birth,zip --date birth --numeric birth -k 2 t.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "partition: --date and --numeric both name 'birth'" ]
	run partition -q birth -k 2 t.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "partition: t.tsv:2: column 'birth': '1948-03-12' is a date, not a number: name its column with --date to cut it as a time, or give it a hierarchy -H COL=date:LEVELS" ]
	run partition -q birth --date birth --job open --tree /dev/null --columns id,birth,zip,diag -k 2
	[ "$status" -eq 2 ]
	[ "$output" = "partition: --job: --date columns are not for the cluster jobs; give the dates a hierarchy file instead" ]
	partition -q birth,zip --date birth -k 2 -r r.tsv t.tsv > p.tsv
	run recode -r r.tsv p.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "recode: r.tsv:2: column 'birth_min': '1948-03-12' is not a number (a date: name the column with --date)" ]
	run recode -r r.tsv --date zip,birth p.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "recode: r.tsv:2: column 'zip_min': '53711' is not a date YYYY-MM-DD or a date-time YYYY-MM-DDThh:mm:ss (kanon(7), DATES)" ]
	run recode -r r.tsv --date diag p.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "recode: --date: 'diag' is not a quasi-identifier of r.tsv with a range (diag_min, diag_max, diag_mean)" ]
	run recode -n birth=1 -H birth=date:year --date birth -k 1 t.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "recode: --date applies to -r (a node's dates are generalized by a hierarchy, -H COL=date:LEVELS)" ]
	run score -q birth --date birth -k 2 --check t.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "score: --date: dates serve the workload (--original) and --plot; the checks and metrics take released values as they are" ]
}

@test "-H COL=date:LEVELS: the labels at every level, with freqset -L" {
	births > t.tsv
	local H=birth=date:month,quarter,year,5y,decade want l
	want=("1948-03 1951-07 1969-12 1970-01 1985-11 1990-02 2000-02 2004-06"
	    "1948-Q1 1951-Q3 1969-Q4 1970-Q1 1985-Q4 1990-Q1 2000-Q1 2004-Q2"
	    "1948 1951 1969 1970 1985 1990 2000 2004"
	    "1945/1949 1950/1954 1965/1969 1970/1974 1985/1989 1990/1994 2000/2004"
	    "1940s 1950s 1960s 1970s 1980s 1990s 2000s"
	    "*")
	for l in 1 2 3 4 5 6; do
		run freqset -q birth -H "$H" -L birth=$l t.tsv
		[ "$status" -eq 0 ]
		[ "$(tail -n +2 <<< "$output" | cut -f 1 | tr '\n' ' ')" = "${want[l - 1]} " ] ||
		    { echo "level $l: $output"; false; }
	done
	run freqset -q birth -H "$H" -L birth=5 t.tsv
	[ "${lines[7]}" = "2000s	2" ]
	visits > v.tsv
	run freqset -q t -H t=date:hour,day,month,year -L t=1 v.tsv
	[ "$(tail -n +2 <<< "$output" | tr '\t\n' ' |')" = "0001-01-01T00 1|1969-12-31T23 1|2023-05-01T08 2|2023-05-01T12 1|2023-05-01T23 1|2023-05-02T00 1|9999-12-31T23 1|" ]
	run freqset -q t -H t=date:hour,day,month,year -L t=2 v.tsv
	[ "$(tail -n +2 <<< "$output" | tr '\t\n' ' |')" = "0001-01-01 1|1969-12-31 1|2023-05-01 4|2023-05-02 1|9999-12-31 1|" ]
}

@test "-H COL=date:LEVELS: levels from fine to coarse, and values that are dates" {
	births > t.tsv
	run freqset -q birth -H birth=date:year,month t.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "freqset: -H birth=date:year,month: 'month' after 'year': the levels go from fine to coarse, each made of whole labels of the one before (N years of a multiple of the years before)" ]
	run freqset -q birth -H birth=date:5y,2y t.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "freqset: -H birth=date:5y,2y: '2y' after '5y': the levels go from fine to coarse, each made of whole labels of the one before (N years of a multiple of the years before)" ]
	run freqset -q birth -H birth=date:decade,10y t.tsv
	[ "$status" -eq 2 ]
	[[ "$output" == *"'10y' after 'decade': the levels go from fine to coarse"* ]]
	for l in week 1y 0y 05y 10001y month, ''; do
		run freqset -q birth -H "birth=date:$l" t.tsv
		[ "$status" -eq 2 ]
		[[ "$output" == "freqset: -H birth=date:$l: '"*"' is not a level: expected hour, day, month, quarter, year, Ny (N years, 2 to 10000) or decade" ]] ||
		    { echo "$l: $output"; false; }
	done
	run freqset -q birth -H birth=date:day,month t.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "freqset: t.tsv:2: column 'birth': '1948-03-12': value is a date: the levels hour and day are for date-times (YYYY-MM-DDThh:mm:ss) (date:day,month)" ]
	run freqset -q zip -H zip=date:year t.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "freqset: t.tsv:2: column 'zip': '53711': value is not a date YYYY-MM-DD or a date-time YYYY-MM-DDThh:mm:ss (kanon(7), DATES) (date:year)" ]
}

@test "a date hierarchy in the full-domain pipeline: freqset | lattice-search | recode -n" {
	people > t.tsv
	printf 'F\t*\nM\t*\n' > sex.tsv
	local -a H=(-H birth=date:month,quarter,year,5y,decade -H sex=sex.tsv)
	freqset -q birth,sex t.tsv > t.fs
	run lattice-search "${H[@]}" -k 2 --max-suppress 2 t.fs
	[ "$status" -eq 0 ]
	[ "$output" = "birth	sex	suppressed	classes	cdm	cavg	height	prec	loss
5	0	2	3	60	1.666666667	5	0.4861111111	0.3939393939
4	1	2	2	92	2.5	5	0.1388888889	0.803030303" ]
	lattice-search "${H[@]}" -k 2 --max-suppress 2 --best -o node.tsv t.fs
	run recode -n node.tsv "${H[@]}" -k 2 --max-suppress 2 t.tsv
	[ "$status" -eq 0 ]
	[ "$output" = "id	birth	sex
1	1980s	F
2	1980s	F
3	1980s	M
4	1980s	M
5	1980s	F
6	1980s	M
7	1980s	F
8	1980s	M
9	1990s	F
10	*	*
11	1990s	F
12	*	*" ]
	# The release's frequency set is the one at the node's levels.
	recode -n birth=4,sex=0 "${H[@]}" -k 1 t.tsv | freqset -q birth,sex > a.fs
	freqset -q birth,sex "${H[@]}" -L birth=4 t.tsv | cmp - a.fs
	run score --check -k 2 -q birth,sex <(recode -n node.tsv "${H[@]}" -k 2 --max-suppress 2 t.tsv)
	[ "$status" -eq 0 ]
	[[ "$output" == *"suppressed	2"*"check_k	pass" ]]
}

@test "partition specializes a date hierarchy as it does interval:" {
	people | head -n 12 > t.tsv
	run partition -q birth -H birth=date:month,quarter,year,5y,decade -k 3 -r r.tsv t.tsv
	[ "$status" -eq 0 ]
	[ "$(cut -f 4 <<< "$output" | tr '\n' ' ')" = "class 1 1 1 1 1 1 1 1 2 2 2 " ]
	[ "$(cat r.tsv)" = "class	count	birth
1	8	1985/1989
2	3	1990s" ]
	partition -q birth -H birth=date:month,quarter,year,5y,decade -k 3 -S 1M --fit-rows 2 -r r2.tsv t.tsv |
	    cmp - <(printf '%s\n' "$output")
	cmp r.tsv r2.tsv
	run recode -r r.tsv -H birth=date:month,quarter,year,5y,decade \
	    <(printf '%s\n' "$output")
	[ "$status" -eq 0 ]
	[ "$(cut -f 2 <<< "$output" | tr '\n' ' ')" = "birth 1985/1989 1985/1989 1985/1989 1985/1989 1985/1989 1985/1989 1985/1989 1985/1989 1990s 1990s 1990s " ]
	# A node that does not hold the row's date.
	sed '2s|1985/1989|1990s|' r.tsv > r3.tsv
	run recode -r r3.tsv -H birth=date:month,quarter,year,5y,decade \
	    <(partition -q birth -H birth=date:month,quarter,year,5y,decade -k 3 t.tsv)
	[ "$status" -eq 2 ]
	[[ "$output" == *"column 'birth': '1985-01-14' lies outside the region of class 1, the node '1990s' of date:month,quarter,year,5y,decade (r3.tsv:2)" ]]
}

@test "score: a workload on dates (queries, ISO intervals, means) and a plot on a time axis" {
	births > t.tsv
	partition -q birth,zip --date birth -k 2 -r r.tsv t.tsv > p.tsv
	recode -r r.tsv --date birth p.tsv > rel.tsv
	printf 'birth\n1985-01-01..2004-12-31\n..1969-12-31\n2000-02-29\n1970-01-01..\n' > wl.tsv
	run score -q birth,zip --date birth --original t.tsv --workload wl.tsv rel.tsv
	[ "$status" -eq 0 ]
	# Three queries are answered exactly from the ranges; the day
	# 2000-02-29 gets 2/6798 + 2/3654 of a row from the two classes of
	# the 1990s and 2000s.
	[ "$(grep workload <<< "$output" | tr '\t\n' ' |')" = "workload_queries 4|workload_abs_error_mean 0.2497896126|workload_abs_error_sd 0.4326483002|workload_rel_error_mean 0.2497896126|workload_rel_error_sd 0.4326483002|workload_rel_queries 4|" ]
	recode -r r.tsv --date birth --summary mean p.tsv > mean.tsv
	run score -q birth,zip --date birth --original t.tsv --workload wl.tsv mean.tsv
	[ "$status" -eq 0 ]
	[[ "$output" == *"workload_queries	4"* ]]
	printf 'birth\n1985-01-01..1999-12-31T00:00:00\n' > bad.wl
	run score -q birth,zip --date birth --original t.tsv --workload bad.wl rel.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "score: bad.wl:2: column 'birth': '1985-01-01..1999-12-31T00:00:00': a date and a date-time" ]
	printf 'birth\n2000-02-29T00:00:00\n' > bad.wl
	run score -q birth,zip --date birth --original t.tsv --workload bad.wl rel.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "score: bad.wl:2: column 'birth': a date-time, but the original holds dates" ]
	run score -q birth,zip --original t.tsv --workload wl.tsv rel.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "score: wl.tsv:2: column 'birth': '1985-01-01..2004-12-31' is neither a value nor a range lo..hi of numbers" ]
	run score --plot birth,zip --date birth p.tsv
	[ "$status" -eq 0 ]
	[[ "$output" == *'text-anchor="middle">1948-03-12</text>'*'text-anchor="middle">2004-06-15</text>'* ]]
	run score --plot birth,zip p.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "score: p.tsv:2: column 'birth': '1948-03-12' is not a number (a date: name the column with --date)" ]
}

@test "kanon(7), EXAMPLES: the quarters of some dates, and their ranges and means" {
	run bash -c "printf 'day\n2023-05-17\n2023-01-02\n2023-06-30\n' |
	    freqset -q day -H day=date:month,quarter,year -L day=2"
	[ "$status" -eq 0 ]
	[ "$output" = "day	count
2023-Q1	1
2023-Q2	2" ]
	printf 'day\tx\n2023-05-17\ta\n2023-01-02\tb\n2023-06-30\tc\n2023-11-30\td\n' > d.tsv
	run bash -c "partition -q day --date day -k 2 -r r.tsv d.tsv |
	    recode -r r.tsv --date day --summary both"
	[ "$status" -eq 0 ]
	[ "$output" = "day	day_mean	x
2023-01-02/2023-05-17	2023-03-11	a
2023-01-02/2023-05-17	2023-03-11	b
2023-06-30/2023-11-30	2023-09-15	c
2023-06-30/2023-11-30	2023-09-15	d" ]
}

@test "release-check.awk catches untrue dates: an interval, a label, a mean of the other form" {
	local ck="$BATS_TEST_DIRNAME/release-check.awk"
	printf 'd\tx\n2023-05-17\tr1\n2023-05-18\tr2\n' > o.tsv
	printf 'd\tx\n2023-05-17/2023-05-18\tr1\n2023-05-17/2023-05-18\tr2\n' > r.tsv
	awk -f "$ck" -v qi=d -v k=2 -v id=x -v ranges=1 -v dates=d o.tsv r.tsv
	printf 'd\tx\n2023-05-18/2023-05-19\tr1\n2023-05-18/2023-05-19\tr2\n' > r.tsv
	run awk -f "$ck" -v qi=d -v k=2 -v id=x -v ranges=1 -v dates=d o.tsv r.tsv
	[ "$status" -eq 1 ]
	[[ "$output" == *"'2023-05-18/2023-05-19' is not true to '2023-05-17'"* ]]
	printf 'd\tx\n2023-05-17T00:00:00\tr1\n2023-05-17T00:00:00\tr2\n' > r.tsv
	run awk -f "$ck" -v qi=d -v k=2 -v id=x -v means=1 -v dates=d o.tsv r.tsv
	[ "$status" -eq 1 ]
	printf 'd\tx\n2023-Q2\tr1\n2020/2024\tr2\n' > r.tsv
	awk -f "$ck" -v qi=d -v k=1 -v id=x -v datehier=d o.tsv r.tsv
	for l in 2023-Q3 2010s 2021/2025 2023-06 2022; do
		printf 'd\tx\n%s\tr1\n2023\tr2\n' "$l" > r.tsv
		run awk -f "$ck" -v qi=d -v k=1 -v id=x -v datehier=d o.tsv r.tsv
		[ "$status" -eq 1 ] || { echo "$l passed"; false; }
	done
}

# ---- the property --------------------------------------------------------

# dprop SEED: a random table with a date column (gen-dates.bash) through
# the Mondrian path, partition by the seed in memory, by Rothko-T (its
# output compared with the in-memory run's), by Rothko-S, or by a date
# hierarchy (in memory or by Rothko-T), then recode -r with a random summary; and through the
# full-domain path, freqset | lattice-search | recode -n with the date
# hierarchy.  Every release is checked by release-check.awk, and the
# Mondrian one by score --check too.
dprop() {
	local seed=$1 dir="$T/d$1" form k lv lim st sum node n i a drop
	local -a opt chk ropt H
	mkdir -p "$dir/tmp"
	IFS=$'\t' read -r form k lv lim < <(gendates "$seed" "$dir")
	opt=(-q d,q -k "$k")
	[ $((seed % 5)) -ne 0 ] || opt+=(-s s -l 2)
	chk=(-v qi=d,q -v id=x -v ranges=1)
	ropt=()
	case $((seed % 4)) in
	0)	opt+=(--date d) ;;
	1)	opt+=(--date d -a rothko-t -S 64M --fit-rows $((seed % 7 + 2)) -T "$dir/tmp") ;;
	2)	opt+=(--date d -a rothko-s -S 64M --fit-rows $((seed % 7 + 2)) \
		    --sample $((seed % 5 + 2)) --seed "$seed" -T "$dir/tmp") ;;
	3)	opt+=(-H "d=date:$lv")
		ropt+=(-H "d=date:$lv")
		[ $((seed % 8)) -ne 7 ] || opt+=(-S 64M --fit-rows $((seed % 5 + 2)) \
		    -T "$dir/tmp") ;;
	esac
	if [ $((seed % 4)) -eq 3 ]; then
		chk+=(-v datehier=d)
	else
		ropt+=(--date d)
		chk+=(-v dates=d)
	fi
	partition "${opt[@]}" -r "$dir/r" "$dir/t" > "$dir/p" 2> "$dir/err"
	st=$?
	if [ "$st" -eq 1 ] && grep -q 'no partitioning' "$dir/err"; then
		:
	elif [ "$st" -ne 0 ]; then
		echo "seed $seed: partition ${opt[*]}: exit $st: $(cat "$dir/err")"
		return 1
	else
		if [ $((seed % 4)) -eq 1 ]; then
			partition "${opt[@]:0:${#opt[@]}-8}" -r "$dir/r.mem" "$dir/t" |
			    cmp -s - "$dir/p" && cmp -s "$dir/r" "$dir/r.mem" ||
			    { echo "seed $seed: Rothko-T differs from memory: ${opt[*]}"; return 1; }
		fi
		sum=$(echo range mean both | cut -d ' ' -f $((seed % 3 + 1)))
		[ "$sum" != mean ] || chk+=(-v means=1)
		if ! recode -r "$dir/r" "${ropt[@]}" --summary "$sum" "$dir/p" \
		    > "$dir/rel" 2> "$dir/err"; then
			echo "seed $seed: partition ${opt[*]} | recode -r ${ropt[*]} --summary $sum: $(cat "$dir/err")"
			return 1
		fi
		[ -z "$(ls "$dir/tmp")" ] ||
		    { echo "seed $seed: temp files left: $(ls "$dir/tmp")"; return 1; }
		if ! awk -f "$BATS_TEST_DIRNAME/release-check.awk" "${chk[@]}" \
		    -v k="$k" "$dir/t" "$dir/rel" > "$dir/chk"; then
			echo "seed $seed: partition ${opt[*]} | recode -r ${ropt[*]} --summary $sum"
			cat "$dir/chk"
			return 1
		fi
		a=d,q
		[ "$sum" != both ] || a=$(head -n 1 "$dir/rel" | tr '\t' '\n' |
		    grep -xE 'd|d_mean|q|q_mean' | paste -sd ,)
		score --check -k "$k" -q "$a" "$dir/rel" > "$dir/sc" 2>&1 ||
		    { echo "seed $seed: score --check -k $k: $(cat "$dir/sc")"; return 1; }
	fi

	# The full-domain path, by the date hierarchy.
	H=(-H "d=date:$lv" -H "q=$dir/h.q")
	freqset -q d,q "$dir/t" > "$dir/fs" 2> "$dir/err" ||
	    { echo "seed $seed: freqset: $(cat "$dir/err")"; return 1; }
	lattice-search "${H[@]}" -k "$k" --max-suppress "$lim" --all "$dir/fs" \
	    > "$dir/nodes" 2> "$dir/err"
	st=$?
	n=$(($(wc -l < "$dir/nodes") - 1))
	if [ "$st" -ne 0 ]; then
		[ "$st" -eq 1 ] && [ "$n" -eq 0 ] && return 0
		echo "seed $seed: lattice-search ${H[*]} -k $k: exit $st: $(cat "$dir/err")"
		return 1
	fi
	for i in 1 $((seed % n + 1)); do
		node=$(awk -F '\t' -v i="$i" 'NR == i + 1 { print "d=" $1 ",q=" $2 }' \
		    "$dir/nodes")
		a=star drop=0
		[ $((seed % 2)) -eq 0 ] || { a=drop; drop=1; }
		if ! recode -n "$node" "${H[@]}" -k "$k" --max-suppress "$lim" \
		    --suppress "$a" "$dir/t" > "$dir/rel" 2> "$dir/err"; then
			if [ "$a" = star ] &&
			    grep -q -e "labelled '\*' in every attribute" \
			    -e 'suppressed rows\{0,1\}, starred, would' "$dir/err"; then
				a=drop drop=1
				recode -n "$node" "${H[@]}" -k "$k" --max-suppress "$lim" \
				    --suppress drop "$dir/t" > "$dir/rel" 2> "$dir/err"
			else
				false
			fi || {
				echo "seed $seed: recode -n $node ${H[*]} -k $k: $(cat "$dir/err")"
				return 1
			}
		fi
		if ! awk -f "$BATS_TEST_DIRNAME/release-check.awk" -v qi=d,q \
		    -v id=x -v k="$k" -v maxsupp="$lim" -v drop="$drop" \
		    -v datehier=d -v hier="q=$dir/h.q" "$dir/t" "$dir/rel" \
		    > "$dir/chk"; then
			echo "seed $seed: recode -n $node ${H[*]} -k $k --max-suppress $lim --suppress $a"
			cat "$dir/chk"
			return 1
		fi
	done
}

# dpropseeds FIRST LAST: dprop for each seed, on two cores; a failing
# case is reported with its seed.
dpropseeds() {
	seedsplit dprop "$1" "$2" gendates dprop
}

@test "random tables with dates keep their guarantees (partition in memory, Rothko-T, Rothko-S, by a date hierarchy; freqset | lattice-search | recode -n)" {
	dpropseeds 1 150
}
