#!/usr/bin/env bats
# mapred, the local simulation of Hadoop Streaming, and the kanon filters
# run through it as map, combine and reduce steps: every job gives the
# bytes of the single-process run, for several numbers of splits and
# reducers, on Adult and on generated tables; failing steps fail the job.

load common

QI=sex,age,race,marital-status,education,native-country,workclass,occupation

setup() {
	T=$BATS_TEST_TMPDIR
	head -1 "$ADULT" | tr '\t' '\n' > "$T/cols"
}

# fsjob N R TABLE COLS Q [SUM]: the frequency set of TABLE by Q (with
# --sum SUM) as a map-reduce job of N splits and R reducers, headerless,
# reducers' outputs concatenated.
fsjob() {
	local n=$1 r=$2 table=$3 cols=$4 q=$5 sum=${6:-} keys
	keys=$q,count
	[ -z "$sum" ] || keys=$keys,${sum}_sum,${sum}_sumsq
	mapred -n "$n" -r "$r" \
	    -m "freqset ${MJ:+-j $MJ} --columns-file $cols --skip-header -q $q ${sum:+--sum $sum} --no-header" \
	    -c "freqset --merge --sorted --columns $keys --no-header" \
	    -R "freqset --merge --sorted --columns $keys --no-header" "$table"
}

# sorted_with_header WANT GOT: GOT sorted (LC_ALL=C), after WANT's header.
sorted_with_header() {
	{ head -1 "$1"; sort "$2"; } > "$2.whole"
	cmp "$1" "$2.whole"
}

@test "freqset job on Adult: N 1 3 7, R 1 2 3, mappers of -j 1 and 3 give freqset's bytes" {
	freqset -j 1 -q sex,race,age "$ADULT" > "$T/want"
	freqset -j 3 -q sex,race,age "$ADULT" | cmp - "$T/want"
	for n in 1 3 7; do
		for r in 1 2 3; do
			for MJ in 1 3; do
				MJ=$MJ fsjob $n $r "$ADULT" "$T/cols" \
				    sex,race,age > "$T/got"
				sorted_with_header "$T/want" "$T/got" ||
				    { echo "N=$n R=$r -j $MJ"; false; }
			done
		done
	done
}

@test "freqset job with one reducer: its output needs no sort" {
	freqset -q "$QI" "$ADULT" | tail -n +2 > "$T/want"
	for n in 1 4 9; do
		fsjob $n 1 "$ADULT" "$T/cols" "$QI" | cmp - "$T/want"
	done
}

@test "freqset job on random tables with --sum, -p 1 and 2" {
	for seed in 1 2; do
		randtable $seed 4000 4 $((seed * 9)) > "$T/r.tsv"
		printf 'c1\nc2\nc3\nc4\n' > "$T/rcols"
		freqset -q c1,c3 --sum c2 "$T/r.tsv" > "$T/want"
		for nr in "1 2" "3 1" "7 3"; do
			set -- $nr
			fsjob "$1" "$2" "$T/r.tsv" "$T/rcols" c1,c3 c2 > "$T/got"
			sorted_with_header "$T/want" "$T/got" ||
			    { echo "seed $seed N=$1 R=$2"; false; }
		done
		k=c1,c3,count,c2_sum,c2_sumsq
		mapred -n 5 -r 3 -p 2 \
		    -m "freqset --columns-file $T/rcols --skip-header -q c1,c3 --sum c2 --no-header" \
		    -R "freqset --merge --sorted --columns $k --no-header" \
		    "$T/r.tsv" > "$T/got"
		sorted_with_header "$T/want" "$T/got"
	done
}

@test "freqset job on gendata, from stdin, headerless input" {
	gendata -n 20000 --seed 5 uniform -d 4 -c 12 > "$T/u.tsv"
	freqset -q a1,a2,a4 "$T/u.tsv" > "$T/want"
	printf 'a1\ta2\ta3\ta4\n' > "$T/ucols"
	fsjob 6 2 - "$T/ucols" a1,a2,a4 < "$T/u.tsv" > "$T/got"
	sorted_with_header "$T/want" "$T/got"
	# The same table without its header line.
	tail -n +2 "$T/u.tsv" > "$T/u.data"
	fsjob 3 3 "$T/u.data" "$T/ucols" a1,a2,a4 > "$T/got"
	sorted_with_header "$T/want" "$T/got"
}

@test "full-domain pipeline on Adult: lattice-search, recode --classes, score" {
	freqset -q "$QI" "$ADULT" > "$T/fs.whole"
	fsjob 4 2 "$ADULT" "$T/cols" "$QI" > "$T/fs.parts"
	{ head -1 "$T/fs.whole"; sort "$T/fs.parts"; } > "$T/fs.merged"
	lattice-search -q "$QI" -H "$AH" -k 10 --max-suppress 2% --best \
	    "$ADULT" > "$T/node.table"
	lattice-search -H "$AH" -k 10 --max-suppress 2% --best "$T/fs.merged" \
	    > "$T/node"
	cmp "$T/node.table" "$T/node"
	[[ "$(sed -n 2p "$T/node")" == "1	0	1	2	3	2	2	1	121	"* ]]
	recode -n "$T/node" -H "$AH" -k 10 --max-suppress 2% "$ADULT" \
	    > "$T/release"
	tail -n +2 "$T/release" > "$T/want"
	for n in 1 3 7; do
		mapred -n $n -m "recode -n $T/node -H $AH -k 10 --max-suppress 2% \
		    --classes $T/fs.merged --part --columns-file $T/cols --skip-header" \
		    "$ADULT" > "$T/got"
		cmp "$T/want" "$T/got" || { echo "N=$n"; false; }
	done
	# The score of the release from its frequency set, counted as a job.
	score -k 10 -q "$QI" "$T/release" > "$T/score.want"
	for r in 1 3; do
		fsjob 5 $r "$T/got" "$T/cols" "$QI" > "$T/rfs"
		{ printf '%s\tcount\n' "${QI//,/	}"; sort "$T/rfs"; } |
		    score --freqset -k 10 > "$T/score.got"
		cmp "$T/score.want" "$T/score.got"
	done
	grep -qx 'suppressed	121' "$T/score.got"
	grep -qx 'check_k	pass' "$T/score.got"
}

@test "full-domain pipeline with l-diversity (-s, -l) on Adult" {
	q=sex,age,race,marital-status,education
	args="-H $AH -k 5 -s salary-class -l 2 --max-suppress 3%"
	# The suppressed rows dropped: starred, they would show their
	# salary classes (recode(1), --suppress).
	freqset -q $q,salary-class "$ADULT" > "$T/fs.whole"
	fsjob 3 2 "$ADULT" "$T/cols" $q,salary-class > "$T/fs.parts"
	sorted_with_header "$T/fs.whole" "$T/fs.parts"
	lattice-search -q $q $args --best "$T/fs.parts.whole" > "$T/node"
	lattice-search -q $q $args --best "$ADULT" | cmp - "$T/node"
	recode -n "$T/node" $args --suppress drop "$ADULT" | tail -n +2 > "$T/want"
	[ -s "$T/want" ]
	for n in 2 5; do
		mapred -n $n -m "recode -n $T/node $args --suppress drop --classes $T/fs.parts.whole --part \
		    --columns-file $T/cols --skip-header" "$ADULT" > "$T/got"
		cmp "$T/want" "$T/got" || { echo "N=$n"; false; }
	done
	{ head -1 "$ADULT"; cat "$T/got"; } > "$T/release"
	score -k 5 -q $q -s salary-class -l 2 "$T/release" > "$T/score.want"
	fsjob 4 2 "$T/got" "$T/cols" $q,salary-class > "$T/rfs"
	{ printf '%s\tsalary-class\tcount\n' "${q//,/	}"; sort "$T/rfs"; } |
	    score --freqset -k 5 -q $q -s salary-class -l 2 > "$T/score.got"
	cmp "$T/score.want" "$T/score.got"
	grep -qx 'check_l_distinct	pass' "$T/score.got"
}

@test "full-domain pipeline on gendata with generated hierarchies" {
	gendata -n 30000 --seed 7 skewed -d 4 -c 40 > "$T/s.tsv"
	printf 'a1\na2\na3\na4\n' > "$T/scols"
	h="-H a1=interval:2,4,8 -H a2=interval:5,10 -H a3=interval:4,16 -H a4=mask:1"
	fsjob 7 3 "$T/s.tsv" "$T/scols" a1,a2,a3,a4 > "$T/fs"
	{ printf 'a1\ta2\ta3\ta4\tcount\n'; sort "$T/fs"; } > "$T/fs.merged"
	freqset -q a1,a2,a3,a4 "$T/s.tsv" | cmp - "$T/fs.merged"
	lattice-search $h -k 20 --max-suppress 1% --best "$T/fs.merged" > "$T/node"
	lattice-search -q a1,a2,a3,a4 $h -k 20 --max-suppress 1% --best \
	    "$T/s.tsv" |
	    cmp - "$T/node"
	recode -n "$T/node" $h -k 20 --max-suppress 1% "$T/s.tsv" |
	    tail -n +2 > "$T/want"
	for n in 1 4; do
		mapred -n $n -m "recode -n $T/node $h -k 20 --max-suppress 1% \
		    --classes $T/fs.merged --part --columns-file $T/scols --skip-header" \
		    "$T/s.tsv" > "$T/got"
		cmp "$T/want" "$T/got"
	done
}

@test "split jobs: recode --part in each map task, score --check closes the job; a stale frequency set or foreign regions are caught" {
	local q=sex,age,race,marital-status
	head -n 5001 "$ADULT" > "$T/a"
	freqset -q "$q" "$T/a" > "$T/fs"
	# Yesterday's table had more rows: its counts keep classes that
	# have shrunk below k since.
	{ cat "$T/a"; tail -n 400 "$ADULT"; } | freqset -q "$q" > "$T/old.fs"
	args="-n sex=0,age=0,race=0,marital-status=0 -H $AH -k 5 --columns-file $T/cols --skip-header"
	mapred -n 4 -m "recode $args --classes $T/fs --part" "$T/a" > "$T/rel"
	score --check -k 5 -q "$q" --columns-file "$T/cols" "$T/rel" > /dev/null
	# Every map task passes the stale counts; the closing check fails.
	mapred -n 4 -m "recode $args --classes $T/old.fs --part" "$T/a" > "$T/rel"
	run --separate-stderr score --check -k 5 -q "$q" --columns-file "$T/cols" "$T/rel"
	[ "$status" -eq 1 ]
	[[ "$output" == *"check_k	fail"* ]]
	# Without --part a map task takes its split for the whole table.
	run --separate-stderr mapred -n 4 -m "recode $args --classes $T/fs" "$T/a"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[[ "$stderr" == *"recode: $T/fs: the class "*", but stdin has "*" of it"* ]]
	[[ "$stderr" == *"mapred: map task "*" failed with status 2"* ]]
	# The Mondrian release as a map-only job: partition's hierarchies
	# check each row against its region; foreign regions fail the job.
	{ cat "$T/cols"; echo class; } > "$T/cols2"
	partition -q "$q" -H "$AH" --numeric age -k 5 -r "$T/r" "$T/a" |
	    tail -n +2 > "$T/p"
	mapred -n 3 -m "recode -r $T/r -H $AH --part --columns-file $T/cols2" \
	    "$T/p" > "$T/rel"
	score --check -k 5 -q "$q" --columns-file "$T/cols" "$T/rel" > /dev/null
	{ head -n 1 "$ADULT"; tail -n 5000 "$ADULT"; } |
	    partition -q "$q" -H "$AH" --numeric age -k 5 -r "$T/r2" > /dev/null
	run --separate-stderr mapred -n 3 \
	    -m "recode -r $T/r2 -H $AH --part --columns-file $T/cols2" "$T/p"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[[ "$stderr" == *"lies outside the region of class"* ]]
}

@test "map-only: the map outputs in split order; the header in split 1" {
	printf 'h1\th2\n' > "$T/t"
	seq 1 50 | sed 's/$/	x/' >> "$T/t"
	for n in 1 3 7 60; do
		mapred -n $n -m cat "$T/t" | cmp - "$T/t"
		mapred -n $n -m cat < "$T/t" | cmp - "$T/t"
		MAPRED_SPLIT=awk mapred -n $n -m cat "$T/t" | cmp - "$T/t"
		# The first line each split starts with: the header first.
		run --separate-stderr mapred -n $n -m 'sed -n 1p' "$T/t"
		[ "$status" -eq 0 ]
		[ "${lines[0]}" = "h1	h2" ]
		[ "$n" -gt 7 ] || [ "${#lines[@]}" -eq "$n" ]
	done
	# Empty input: every split empty, an empty output, also with -R.
	run --separate-stderr mapred -n 3 -m cat < /dev/null
	[ "$status" -eq 0 ] && [ -z "$output" ] && [ -z "$stderr" ]
	run --separate-stderr mapred -n 3 -m cat -R cat -r 2 < /dev/null
	[ "$status" -eq 0 ] && [ -z "$output" ]
	# No final newline.
	printf 'a\nb\nc' > "$T/nonl"
	mapred -n 2 -m cat "$T/nonl" | cmp - "$T/nonl"
}

@test "the partition: each key goes to one reducer, chosen by -p fields" {
	randtable 4 3000 3 30 | tail -n +2 > "$T/r"
	for p in 1 2; do
		# Each reducer prints a mark, then the distinct keys it got.
		run --separate-stderr mapred -n 4 -r 3 -p $p -m cat \
		    -R "sh -c 'echo ==; cut -f1-$p | uniq'" "$T/r"
		[ "$status" -eq 0 ]
		printf '%s\n' "$output" | grep -v '^==$' > "$T/keys"
		[ "$(grep -c '^==$' <<< "$output")" -eq 3 ]
		# No key in two reducers, and every key somewhere.
		[ -z "$(sort "$T/keys" | uniq -d)" ]
		cut -f1-$p "$T/r" | sort -u | cmp - <(sort "$T/keys")
		# More than one reducer got keys.
		[ "$(printf '%s\n' "$output" |
		    awk '/^==$/ { s++; next } !seen[s]++ { c++ } END { print c }')" -ge 2 ]
	done
	# The reducers' inputs are sorted: with cat as reducer and one
	# reducer, the output is the input sorted.
	mapred -n 3 -r 1 -m cat -R cat "$T/r" | cmp - <(sort "$T/r")
}

@test "a failing map, combine or reduce step fails the job, no output" {
	while IFS='|' read -r args st want; do
		eval "run --separate-stderr mapred -n 3 $args \"\$ADULT\""
		[ "$status" -eq "$st" ] || { echo "$args: status $status"; false; }
		[ -z "$output" ] || { echo "$args: output"; false; }
		[[ "$stderr" == *"$want"* ]] || { echo "$args: $stderr"; false; }
	done <<-'EOF_'
	-m 'exit 3'|3|mapred: map task 1 of 3 failed with status 3: exit 3
	-m 'sed 2q' -R 'exit 4'|4|mapred: reduce task 1 of 2 failed with status 4
	-m 'sed 2q' -c false -R cat|1|mapred: combine task 1 of 3 failed with status 1: false
	-m 'freqset -q age'|2|mapred: map task 2 of 3 failed with status 2
	-m 'freqset -q age'|2|freqset: stdin: no column named 'age'
	-m 'sed 1d' -R 'freqset --merge --columns a,count --no-header'|2|expected 2 fields, found 9
	EOF_
	# Only the third split fails: the one with the line y.
	run --separate-stderr mapred -n 3 -m 'if grep -q ^y; then exit 5; fi' \
	    <(seq 10 29 | sed 's/^/x/'; echo y)
	[ "$status" -eq 5 ]
	[[ "$stderr" == "mapred: map task 3 of 3 failed with status 5"* ]]
}

@test "freqset --merge --sorted on unsorted input exits 2, also as a step" {
	printf 'k\tcount\nb\t1\na\t2\n' > "$T/u"
	run --separate-stderr freqset --merge --sorted "$T/u"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[[ "$stderr" == "freqset: $T/u:3: the frequency set is not sorted"*"sort it with LC_ALL=C sort, or leave out --sorted)" ]]
	# A map-only job has no sort: the merge of an unsorted split fails.
	printf 'b\t1\na\t2\n' > "$T/u2"
	run --separate-stderr mapred -n 1 \
	    -m 'freqset --merge --sorted --columns k,count --no-header' "$T/u2"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[[ "$stderr" == *"freqset: stdin:2: the frequency set is not sorted"* ]]
	[[ "$stderr" == *"mapred: map task 1 of 1 failed with status 2"* ]]
	# With a reduce step the same lines are sorted first.
	run --separate-stderr mapred -n 1 -r 1 -m cat \
	    -R 'freqset --merge --sorted --columns k,count --no-header' "$T/u2"
	[ "$status" -eq 0 ]
	[ "$output" = "a	2
b	1" ]
}

@test "-v reports splits, reducers and bytes shuffled" {
	run --separate-stderr mapred -v -n 3 -r 2 \
	    -m "freqset --columns-file $T/cols --skip-header -q sex,race --no-header" \
	    -c 'freqset --merge --sorted --columns sex,race,count --no-header' \
	    -R 'freqset --merge --sorted --columns sex,race,count --no-header' \
	    "$ADULT"
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"mapred: input $(wc -c < "$ADULT") bytes, 3 splits, 2 reducers"* ]]
	[[ "$stderr" =~ map\ output\ ([0-9]+)\ bytes,\ after\ the\ combiner\ ([0-9]+)\ bytes ]]
	[ "${BASH_REMATCH[1]}" -eq "${BASH_REMATCH[2]}" ]
	[ "${BASH_REMATCH[2]}" -gt 0 ]
	[[ "$stderr" == *"mapred: shuffled ${BASH_REMATCH[2]} bytes"* ]]
	[[ "$stderr" == *"mapred: reduce output $(printf '%s\n' "$output" | wc -c) bytes"* ]]
	# A combiner that shrinks the map output.
	run --separate-stderr mapred -v -n 2 -r 1 -m 'cut -f1' -c 'uniq' \
	    -R uniq "$ADULT"
	[ "$status" -eq 0 ]
	[ "$output" = "$(cut -f1 "$ADULT" | sort -u)" ]
	[[ "$stderr" =~ map\ output\ ([0-9]+)\ bytes,\ after\ the\ combiner\ ([0-9]+)\ bytes ]]
	[ "${BASH_REMATCH[1]}" -eq "$(cut -f1 "$ADULT" | wc -c)" ]
	# At most sex, Female and Male from each of the two splits.
	[ "${BASH_REMATCH[2]}" -le 36 ]
}

@test "usage errors exit 2" {
	while IFS='|' read -r args want; do
		eval "run --separate-stderr mapred $args"
		[ "$status" -eq 2 ] || { echo "$args: status $status"; false; }
		[[ "$stderr" == *"$want"* ]] || { echo "$args: $stderr"; false; }
	done <<-'EOF_'
	|-m map is required
	-m cat -n 0|-n: '0' must be from 1
	-m cat -r x|-r: 'x' is not a number
	-m cat -p 01|-p: '01' is not a number
	-m cat -c cat|-c needs -R
	-m cat a b|usage: mapred
	-m cat -x|usage: mapred
	-m cat -T /nonexistent/dir|cannot create a temp directory
	-m cat /nonexistent/file|cannot read /nonexistent/file
	-m cat -j 65|-j: '65' must be from 1 to 64
	-m cat -j 1234567890|-j: '1234567890' must be from 1 to 64
	-m cat -n 1000000|-n: '1000000' must be from 1 to 999999
	-m cat -T ''|-T: an empty directory name
	-m cat -T "$(printf 'T\nx')"|-T: a directory whose path holds a newline is not taken
	EOF_
}

@test "-T with a backslash is the directory used, in split and in the shuffle (found by review: awk -v took 'T\\101' for 'TA')" {
	cd "$BATS_TEST_TMPDIR"
	gendata -n 2000 agrawal > s.tsv
	mkdir 'T\101' TA
	mapred -T 'T\101' -m cat -R cat s.tsv | LC_ALL=C sort > out
	LC_ALL=C sort s.tsv | cmp - out
	MAPRED_SPLIT=awk mapred -T 'T\101' -m cat s.tsv | cmp - s.tsv
	[ -z "$(ls TA)" ]
	[ -z "$(ls 'T\101')" ]
}

@test "temp files: none left after a run, a failure or a signal" {
	mkdir "$T/tmp"
	mapred -T "$T/tmp" -n 3 -m cat -c cat -R cat "$ADULT" > /dev/null
	run mapred -T "$T/tmp" -n 3 -m 'exit 1' "$ADULT"
	[ "$status" -eq 1 ]
	[ -z "$(ls -A "$T/tmp")" ]
	for sig in TERM INT HUP; do
		: > "$T/pids"
		# Background jobs start with SIGINT ignored: restore the default.
		perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or die' mapred \
		    -T "$T/tmp" -n 2 -m "echo \$\$ >> $T/pids; exec sleep 60" \
		    "$ADULT" > /dev/null 2>&1 3>&- &
		pid=$!
		for i in $(seq 100); do
			[ "$(wc -l < "$T/pids")" -eq 2 ] && break
			sleep 0.05
		done
		[ "$(wc -l < "$T/pids")" -eq 2 ]
		kill -s $sig $pid
		status=0
		wait $pid || status=$?
		[ "$status" -gt 128 ] || { echo "$sig: $status"; false; }
		[ -z "$(ls -A "$T/tmp")" ]
		# The tasks are gone too.
		for p in $(cat "$T/pids"); do
			for i in $(seq 50); do
				kill -0 "$p" 2> /dev/null || break
				sleep 0.05
			done
			! kill -0 "$p" 2> /dev/null || false
		done
	done
}

@test "an input named like an option (-x.tsv) or an assignment (a=b.tsv) is read as a file, by split and by awk" {
	cd "$T"
	head -n 200 "$ADULT" > ./-x.tsv
	cp ./-x.tsv a=b.tsv
	local f s
	for f in -x.tsv a=b.tsv; do
		for s in "" awk; do
			MAPRED_SPLIT=$s mapred -n 3 -m cat -- "$f" > out
			cmp out ./"$f"
		done
	done
}

@test "-T or TMPDIR that others may write to and not sticky, or another user's, is refused before the job; a sticky one or one's own is used" {
	cd "$T"
	head -n 200 "$ADULT" > t.tsv
	mkdir open mine
	chmod 0777 open
	run --separate-stderr mapred -T open -m cat t.tsv
	[ "$status" -eq 2 ] && [ -z "$output" ]
	[ "$stderr" = "mapred: -T open: not sticky, and other users may write to it: they could replace the job's files in it (kanon(7), TMPDIR): give a directory of your own, or a sticky one such as /tmp" ]
	TMPDIR=open run --separate-stderr mapred -m cat t.tsv
	[ "$status" -eq 2 ]
	chmod 1777 open
	mapred -T open -m cat t.tsv | cmp - t.tsv
	TMPDIR=mine mapred -m cat t.tsv | cmp - t.tsv
	[ -z "$(ls -A open)" ] && [ -z "$(ls -A mine)" ]
	if [ "$(id -u)" -eq 0 ] && id nobody > /dev/null 2>&1; then
		chown nobody mine
		run --separate-stderr mapred -T mine -m cat t.tsv
		[ "$status" -eq 2 ]
		[ "$stderr" = "mapred: -T mine: the directory of another user, who could replace the job's files in it (kanon(7), TMPDIR): give a directory of your own, or a sticky one such as /tmp" ]
		# One's own below another user's: refused, as the
		# programs refuse it.
		mkdir mine/sub
		run --separate-stderr mapred -T mine/sub -m cat t.tsv
		[ "$status" -eq 2 ]
		[ "$stderr" = "mapred: -T mine/sub: $PWD/mine is the directory of another user, who could replace the job's files below it (kanon(7), TMPDIR): give a directory of your own, or one on a path of your own or root's" ]
	fi
	chmod 0777 open
	mkdir open/sub
	run --separate-stderr mapred -T open/sub -m cat t.tsv
	[ "$status" -eq 2 ]
	[ "$stderr" = "mapred: -T open/sub: $PWD/open is not sticky, and other users may write to it: they could replace the job's files below it (kanon(7), TMPDIR): give a directory of your own, or one on a path of your own or root's" ]
	# Through a link: the directory it leads to, '..' after the link
	# (as the system resolves it), and CDPATH set or not.
	chmod 0755 open
	ln -s open/sub via
	mapred -T via -m cat t.tsv | cmp - t.tsv
	mkdir -p deep/a/b deep/a/z2
	chmod 0777 deep/a/z2
	ln -s deep/a/b lk
	run --separate-stderr mapred -T lk/../z2 -m cat t.tsv
	[ "$status" -eq 2 ]
	[[ "$stderr" == "mapred: -T lk/../z2: not sticky, and other users may write to it: "* ]]
	CDPATH=/ mapred -T open -m cat t.tsv 2> err | cmp - t.tsv
	[ ! -s err ]
}

@test "-T on a deep path whose names hold spaces: every directory above it is checked (their modes and owners from one ls), a writable one not sticky refused by its name; a path that resolves to one with a newline refused (review)" {
	cd "$T"
	head -n 50 "$ADULT" > t.tsv
	mkdir -p "a b/c  d/e/f g"
	mapred -T "a b/c  d/e/f g" -m cat t.tsv | cmp - t.tsv
	chmod 0777 "a b/c  d"
	run --separate-stderr mapred -T "a b/c  d/e/f g" -m cat t.tsv
	[ "$status" -eq 2 ] && [ -z "$output" ]
	[ "$stderr" = "mapred: -T a b/c  d/e/f g: $PWD/a b/c  d is not sticky, and other users may write to it: they could replace the job's files below it (kanon(7), TMPDIR): give a directory of your own, or one on a path of your own or root's" ]
	# A newline in the path as resolved, through a link or the current
	# directory (review: its ls lines were taken for the directories
	# below it, and a writable one passed).
	mkdir -p "n
l/c" && chmod 0777 "n
l/c"
	ln -s "n
l" nl
	run --separate-stderr mapred -T nl/c -m cat t.tsv
	[ "$status" -eq 2 ] && [ -z "$output" ]
	[[ "$stderr" == "mapred: -T nl/c: the directory's path as resolved ("*") holds a newline, which is not taken: give another" ]]
	(cd "n
l" && run mapred -T c -m cat ../t.tsv && [ "$status" -eq 2 ])
	chmod 1777 "a b/c  d"
	chmod 0777 "a b/c  d/e/f g"
	run --separate-stderr mapred -T "a b/c  d/e/f g" -m cat t.tsv
	[ "$status" -eq 2 ]
	[ "$stderr" = "mapred: -T a b/c  d/e/f g: not sticky, and other users may write to it: they could replace the job's files in it (kanon(7), TMPDIR): give a directory of your own, or a sticky one such as /tmp" ]
}
