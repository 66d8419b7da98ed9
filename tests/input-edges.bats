#!/usr/bin/env bats
# Input at the edges, for every file that any program reads (kanon(7),
# Tables, Hierarchies and INPUT LIMITS): each file option of each
# program (the table, --columns-file, -H FILE, -H DIR, -n, -r,
# --classes, --original, --workload, --tree, extsort -m's files) given
# as a named FIFO or <(...) (read once), with a byte-order mark, with
# CRLF, with CR line ends, compressed, as /dev/zero and as an endless
# line, under a memory limit; hierarchies too tall; -H DIR and column
# names that leave the directory, dangling links; a closed stdin.
# Errors exit 2 with a message naming the file, the line and what to
# do; nothing is ever an empty table or a silent success.

load common

# The memory limit (KB) of the runs that read /dev/zero or an endless
# line: before the line limit they grew to gigabytes.  Not under
# AddressSanitizer (make sanitize), which maps terabytes.
MEMKB=500000

# fixtures: the test's files in the current directory.
fixtures() {
	printf 'a\tb\ts\n1\tx\t5\n2\ty\t7\n1\tx\t9\n3\ty\t7\n' > t.tsv
	tail -n +2 t.tsv > td.tsv
	printf 'a\tb\ts\n1\tx\t5\n1\tx\t9\n2\ty\t7\n3\ty\t7\n' > st.tsv
	printf 'x\tX\t*\ny\tY\t*\n' > hb.tsv
	printf 'a\nb\ns\n' > cols.txt
	printf 'a\tb\tcount\n1\tx\t2\n2\ty\t1\n3\ty\t1\n' > fs.tsv
	printf 'a\tb\tsuppressed\tclasses\tcdm\tcavg\theight\tprec\tloss\n' > node.tsv
	printf '1\t0\t0\t2\t8\t1\t1\t0.75\t0.5\n' >> node.tsv
	printf 'class\tcount\ta_min\ta_max\ta_mean\n' > reg.tsv
	printf '1\t2\t1\t1\t1\n2\t2\t2\t3\t2.5\n' >> reg.tsv
	printf 'a\tb\ts\tclass\n1\tx\t5\t1\n2\ty\t7\t2\n1\tx\t9\t1\n3\ty\t7\t2\n' \
	    > part.tsv
	printf 'a\tb\n1..2\tx\n' > wl.tsv
	# The root's level of a tree (its sig, domain and digest lines), as
	# its cuts job writes it, the root left open.
	: > tree
	partition -q a -k 2 --columns-file cols.txt --job groups --tree tree td.tsv |
	    LC_ALL=C sort | partition -q a -k 2 --columns-file cols.txt --job cuts \
	    --tree tree | grep -v '^size' > tree.new
	mv tree.new tree
	grep -q '^digest' tree
}

setup() {
	mkdir "$BATS_TEST_TMPDIR/w" "$BATS_TEST_TMPDIR/tmp" &&
	    cd "$BATS_TEST_TMPDIR/w" || return 1
	export TMPDIR=$BATS_TEST_TMPDIR/tmp
	fixtures
	nfail=0
}

# The plain runs of FILEOPTS (see each_fileopt), made once for the
# file's five tests that compare with them: $PLAIN/want.N, the output of
# line N, or $PLAIN/bad.N, why it failed.
setup_file() {
	local prog args src cmd i=0
	PLAIN=$BATS_FILE_TMPDIR/plain
	mkdir "$PLAIN" "$PLAIN/w" "$PLAIN/tmp" && cd "$PLAIN/w" || return 1
	export TMPDIR=$PLAIN/tmp
	fixtures
	mkdir plain
	cp hb.tsv plain/b.tsv
	while IFS='|' read -r prog args src; do
		i=$((i + 1))
		cmd="$prog ${args//\{D\}/plain}"
		run_cmd "${cmd//\{\}/$src}"
		if [ "$status" -eq 0 ] && [ -s out ] && [ -z "$err" ]; then
			mv out "$PLAIN/want.$i"
		else
			echo "$cmd on $src: exit $status: $err" > "$PLAIN/bad.$i"
		fi
	done <<< "$FILEOPTS"
	export PLAIN
}

# note TEXT: records a failed check (the test goes on, to report all).
note() {
	printf '%s\n' "$*" >&2
	nfail=$((nfail + 1))
}

# done_checks: fails the test if a check failed.
done_checks() {
	[ "$nfail" -eq 0 ] || {
		echo "$nfail failed checks" >&2
		return 1
	}
}

# run_cmd CMD: runs the bash command line CMD with a timeout and the
# memory limit (extsort takes all of its -S at once: give it -S 64M),
# stdin /dev/null; sets status, and out and err (the
# files' contents, stderr without its final newline).
run_cmd() {
	local lim="ulimit -v $MEMKB;"
	[ -z "${ASAN_OPTIONS:-}" ] || lim=
	status=0
	timeout -k 5 60 bash -c "$lim $1" < /dev/null > out 2> err 3>&- ||
	    status=$?
	err=$(< err)
}

# check CMD STATUS PATTERN: runs CMD and checks its status and that its
# stderr matches PATTERN (a [[ == ]] glob); an error writes nothing.
check() {
	run_cmd "$1"
	if [ "$status" -ne "$2" ]; then
		note "$1: exit $status, expected $2; stderr: ${err:0:300}"
	elif [[ $err != $3 ]]; then
		note "$1: stderr '${err:0:300}' does not match '$3'"
	elif [ "$2" -eq 2 ] && [ -s out ]; then
		note "$1: output on stdout: $(head -c 200 out)"
	fi
}

# The file operands and options of every program: the program, its
# arguments with {} for the file, and the file given there.  {D} is a
# directory for -H, whose b.tsv is the file.
FILEOPTS="freqset|-q a,b {}|t.tsv
freqset|-q a,b --columns-file {} td.tsv|cols.txt
freqset|-q a,b -H b={} t.tsv|hb.tsv
freqset|-q a,b -H {D} t.tsv|hb.tsv
score|-q a,b -k 2 {}|t.tsv
score|-q a,b -k 2 --columns-file {} td.tsv|cols.txt
score|-q a,b -k 1 --original {} --workload wl.tsv t.tsv|t.tsv
score|-q a,b -k 1 --original {} t.tsv|t.tsv
score|-q a,b -k 1 --original t.tsv --workload {} t.tsv|wl.tsv
score|-q a,b -k 1 --original t.tsv --workload wl.tsv -H b={} t.tsv|hb.tsv
score|-q a,b -k 1 --original t.tsv --workload wl.tsv -H {D} t.tsv|hb.tsv
extsort|-S 64M -k a:n {}|t.tsv
extsort|-S 64M -k a:n --columns-file {} td.tsv|cols.txt
extsort|-S 64M -m -k a:n {} st.tsv|st.tsv
lattice-search|-q a,b -H a=interval:5 -H b=hb.tsv -k 2 {}|t.tsv
lattice-search|-q a,b -H a=interval:5 -H b=hb.tsv -k 2 --columns-file {} td.tsv|cols.txt
lattice-search|-q a,b -H a=interval:5 -H b={} -k 2 t.tsv|hb.tsv
lattice-search|-q a,b -H a=interval:5 -H {D} -k 2 t.tsv|hb.tsv
recode|-n node.tsv -H a=interval:5 -H b=hb.tsv -k 2 {}|t.tsv
recode|-n node.tsv -H a=interval:5 -H b=hb.tsv -k 2 --columns-file {} td.tsv|cols.txt
recode|-n {} -H a=interval:5 -H b=hb.tsv -k 2 t.tsv|node.tsv
recode|-n node.tsv -H a=interval:5 -H b={} -k 2 t.tsv|hb.tsv
recode|-n node.tsv -H a=interval:5 -H {D} -k 2 t.tsv|hb.tsv
recode|-n node.tsv -H a=interval:5 -H b=hb.tsv -k 2 --classes {} t.tsv|fs.tsv
recode|-r {} part.tsv|reg.tsv
recode|-r reg.tsv {}|part.tsv
partition|-q a -k 2 {}|t.tsv
partition|-q a -k 2 --columns-file {} td.tsv|cols.txt
partition|-q b -H b={} -k 2 t.tsv|hb.tsv
partition|-q b -H {D} -k 2 t.tsv|hb.tsv
partition|-q a -k 2 --columns-file cols.txt --job groups --tree {} td.tsv|tree"

# variant KIND SRC DEST: makes DEST, the file SRC in the form KIND:
# copy, bom, crlf, cr (CR line ends), gz, fifo (a FIFO fed with SRC),
# zero (/dev/zero) or endless (a FIFO fed with one endless line of x).
# A feeder of a FIFO runs in the background, its pid in feeder.
variant() {
	local kind=$1 src=$2 dest=$3
	feeder=
	case $kind in
	copy) cp "$src" "$dest" ;;
	bom) { printf '\357\273\277'; cat "$src"; } > "$dest" ;;
	crlf) sed 's/$/\r/' "$src" > "$dest" ;;
	cr) tr '\n' '\r' < "$src" > "$dest" ;;
	gz) gzip -c "$src" > "$dest" ;;
	zero) ln -s /dev/zero "$dest" ;;
	fifo | endless)
		mkfifo "$dest"
		if [ "$kind" = fifo ]; then
			timeout 60 sh -c "cat '$src' > '$dest'" 3>&- &
		else
			timeout 60 sh -c "tr '\\0' x < /dev/zero > '$dest'" \
			    2> /dev/null 3>&- &
		fi
		feeder=$!
		;;
	esac
}

# unfeed: ends the feeder of a FIFO that nobody read to its end.
unfeed() {
	if [ -n "$feeder" ]; then
		kill "$feeder" 2> /dev/null || true
		wait "$feeder" 2> /dev/null || true
		feeder=
	fi
}

# each_fileopt KINDS: runs every line of FILEOPTS with its file in each
# form of KINDS and checks it against the plain run (see expect_kind),
# made by setup_file.  Each form in a directory of its own, vN (made at
# once, not removed and made again for each).
each_fileopt() {
	local prog args src cmd kind f name d i=0 nv=0 nl
	local -a dirs=()
	nl=${FILEOPTS//[!$'\n']/}
	for ((i = 1; i <= (${#nl} + 1) * $#; i++)); do
		dirs+=("v$i")
	done
	mkdir "${dirs[@]}"
	i=0
	while IFS='|' read -r prog args src; do
		i=$((i + 1))
		if [ -e "$PLAIN/bad.$i" ]; then
			note "$(< "$PLAIN/bad.$i")"
			continue
		fi
		want=$PLAIN/want.$i
		for kind in "$@"; do
			d=v$((nv += 1))
			if [[ $args == *"{D}"* ]]; then
				f=$d/b.tsv
				cmd="$prog ${args//\{D\}/$d}"
			else
				f=$d/$src
				cmd="$prog ${args//\{\}/$f}"
			fi
			name=$f
			if [ "$kind" = procsub ]; then
				[[ $args == *"{D}"* ]] && continue
				f="<(cat $src)"	# not expanded here
				cmd="$prog ${args//\{\}/$f}"
				name="/dev/fd/*"
			else
				variant "$kind" "$src" "$f"
			fi
			expect_kind "$kind" "$cmd" "$prog" "$name"
			unfeed
		done
	done <<< "$FILEOPTS"
}

# expect_kind KIND CMD PROG NAME: runs CMD, whose file (named NAME in
# messages) is in form KIND, and checks the outcome: the plain output
# ($want, made by setup_file) for the forms that are read, else exit 2
# and the message.
expect_kind() {
	local kind=$1 cmd=$2 p=$3 name=$4
	case $kind in
	copy | fifo | procsub | bom | crlf)
		run_cmd "$cmd"
		if [ "$status" -ne 0 ] || [ -n "$err" ]; then
			note "$kind: $cmd: exit $status: ${err:0:300}"
		elif ! cmp -s "$want" out; then
			note "$kind: $cmd: output differs: $(diff "$want" out | head -5)"
		fi
		;;
	cr)
		check "$cmd" 2 "$p: $name:1: a carriage return (CR) inside the line: are the lines ended by CR alone*< $name"
		;;
	gz)
		check "$cmd" 2 "$p: $name: looks compressed (gzip): decompress it first, as in 'zcat $name | $p ...'*"
		;;
	zero)
		check "$cmd" 2 "$p: $name:1: field 1: NUL byte in input"
		;;
	endless)
		check "$cmd" 2 "$p: $name:1: line longer than 64M bytes, the limit*raise -S*"
		;;
	esac
}

@test "every file option reads a FIFO and <(...) once, as a file" {
	each_fileopt fifo procsub
	done_checks
}

@test "every file option skips a byte-order mark and takes CRLF" {
	each_fileopt copy bom crlf
	done_checks
}

@test "every file option refuses CR line ends, never an empty table" {
	each_fileopt cr
	# The whole table was one header line: an empty table, exit 0;
	# recode wrote the rows back as its header.
	printf 'a\tb\r1\tx\r2\ty\r' > cr.tsv
	for p in freqset score extsort; do
		check "$p cr.tsv" 2 "$p: cr.tsv:1: a carriage return (CR)*"
		check "$p < cr.tsv" 2 "$p: stdin:1: a carriage return (CR)*< FILE"
	done
	check "recode -n a=0 -H a=interval:5 -k 1 cr.tsv" 2 "recode: cr.tsv:1: *CR*"
	# Headerless, the first line is a row, perhaps the first of a split
	# of a larger table: a CR in it is a byte of a value when a newline
	# ends it; a file of CR line ends is still refused.
	printf '1\tx\r2\n3\t4\n' > split.tsv
	check "freqset --columns a,b split.tsv" 0 ""
	[ "$(cat out)" = "$(printf 'a\tb\tcount\n1\tx\r2\t1\n3\t4\t1')" ] ||
	    note "a split: $(od -c out)"
	printf '1\tx\r2\ty\r' > crh.tsv
	check "freqset --columns a,b crh.tsv" 2 "freqset: crh.tsv:1: a carriage return (CR) inside the line*"
	check "freqset --columns-file cols.txt < crh.tsv" 2 "freqset: stdin:1: a carriage return (CR) inside the line*"
	# CRLF and a CR at the end of a file's last line are line ends.
	printf 'a\tb\r\n1\tx\r' > ok.tsv
	check "freqset ok.tsv" 0 ""
	[ "$(cat out)" = "$(printf 'a\tb\tcount\n1\tx\t1')" ] ||
	    note "CRLF: $(cat out)"
	# Past the first line a CR is a byte of a value; lines ended by CR
	# alone further on make a ragged row, which says so.
	printf 'a\tb\n1\tx\r2\ty\r3\tz\n' > mixed.tsv
	check "freqset mixed.tsv" 2 "freqset: mixed.tsv:2: expected 2 fields, found 4 (the line holds a carriage return: are some lines ended by CR alone?)"
	done_checks
}

@test "every file option refuses compressed data, saying how to read it" {
	each_fileopt gz
	for c in "bzip2 bzcat" "xz xzcat" "zstd zstdcat" "gzip zcat"; do
		set -- $c
		command -v "$1" > /dev/null || continue
		"$1" -c t.tsv > "t.$1" 2> /dev/null
		for p in freqset score extsort "partition -q a -k 2"; do
			check "$p t.$1" 2 "${p%% *}: t.$1: looks compressed ($1): decompress it first, as in '$2 t.$1 | ${p%% *} ...', or give <($2 t.$1) in its place"
			check "cat t.$1 | $p" 2 "${p%% *}: stdin: looks compressed ($1): decompress it first, as in '$2 FILE | ${p%% *} ...'*"
		done
		check "freqset -q b -H b=t.$1 t.tsv" 2 "freqset: t.$1: looks compressed ($1)*"
	done
	# A zip archive: a spreadsheet, most likely.
	printf 'PK\003\004\024\000\000\000' > t.xlsx
	check "freqset t.xlsx" 2 "freqset: t.xlsx: a zip archive, not text (a spreadsheet such as .xlsx or .ods?)*"
	# A table whose first bytes only resemble a signature is a table.
	printf 'BZh\tPK\n1\t2\n' > notbz.tsv
	check "freqset notbz.tsv" 0 ""
	done_checks
}

@test "every file option stops at once on /dev/zero and an endless line" {
	each_fileopt zero endless
	# As standard input, read once or spooled to be read twice.
	for p in freqset score "extsort -S 64M" "partition -q a -k 2" \
	    "recode -n a=1 -H a=interval:5 -k 2"; do
		check "$p < /dev/zero" 2 "${p%% *}: stdin:1: field 1: NUL byte in input"
		check "tr '\\0' x < /dev/zero | $p" 2 "${p%% *}: stdin:1: line longer than 64M bytes*"
	done
	# A NUL after a first line, on a later line not yet ended.
	check "{ printf 'a\\n1\\n'; cat /dev/zero; } | freqset" 2 "freqset: stdin:3: field 1: NUL byte in input"
	check "{ printf 'a\\tb\\n1\\t'; cat /dev/zero; } | partition -q a -k 1" 2 "partition: stdin:2: field 2: NUL byte in input"
	# No temp file is left behind by the spool.
	[ -z "$(ls -A "$TMPDIR")" ] || note "left in TMPDIR: $(ls -A "$TMPDIR")"
	done_checks
}

@test "the line limit is 64M bytes, or -S when that is more" {
	# A line of 64M bytes exactly is read; one more byte is too many.
	awk 'BEGIN { s = "x"; for (i = 0; i < 26; i++) s = s s
		print "a"; print s; print "y" }' > at.tsv
	[ "$(sed -n 2p at.tsv | wc -c)" -eq $((64 * 1024 * 1024 + 1)) ] ||
	    note "the long line is not 64M bytes"
	check "freqset at.tsv" 0 ""
	# The lengths of the lines: awk takes seconds over a line of 64M
	# bytes, and sed -n Np reads the whole file each time.  Three lines,
	# the first of 8 bytes and the last of 4, in 67108879: the second
	# of 67108867.
	local got
	got="$(head -n 1 out | wc -c) $(wc -l < out) $(tail -n 1 out | wc -c) $(wc -c < out)"
	[ "$got" = "8 3 4 67108879" ] || note "64M line: $got"
	# The same table with one byte more in the long line (sed -i took
	# longer to copy it).
	awk 'BEGIN { s = "x"; for (i = 0; i < 26; i++) s = s s
		print "a"; print s "x"; print "y" }' > at.tsv
	check "freqset at.tsv" 2 "freqset: at.tsv:2: line longer than 64M bytes, the limit: not a table? (a line may hold 64M bytes, or as many as -S if that is more: raise -S for longer lines)"
	# One thread: the threads of -j hold such a line more often than
	# the ulimit -v of these checks allows (freqset(1), -j).
	check "freqset -j 1 -S 65M at.tsv | wc -l" 0 ""
	[ "$(cat out)" = 3 ] || note "-S 65M: $(cat out) lines"
	check "freqset -S 100M < /dev/zero" 2 "freqset: stdin:1: field 1: NUL byte in input"
	check "tr '\\0' x < /dev/zero | freqset -S 80M" 2 "freqset: stdin:1: line longer than 80M bytes*"
	# A small -S still reads a line longer than itself (extsort(1)).
	check "freqset -S 64K at.tsv" 2 "freqset: at.tsv:2: line longer than 64M bytes*"
	done_checks
}

@test "a byte-order mark is skipped at the start of each file only" {
	printf '\357\273\277age\tb\n1\tx\n' > bom.tsv
	printf 'age\tb\n2\ty\n' > plain.tsv
	check "freqset -q age bom.tsv plain.tsv" 0 ""
	[ "$(cat out)" = "$(printf 'age\tcount\n1\t1\n2\t1')" ] ||
	    note "two files: $(cat out)"
	# --skip-header: the header of a file concatenated with cat, after
	# its mark, is a header.
	check "cat plain.tsv bom.tsv | freqset -q age --skip-header" 0 ""
	[ "$(cat out)" = "$(printf 'age\tcount\n1\t1\n2\t1')" ] ||
	    note "cat: $(cat out)"
	# One mark is skipped, and what follows it is looked at.
	{ printf '\357\273\277'; gzip -c t.tsv; } > bomgz.tsv
	check "freqset bomgz.tsv" 2 "freqset: bomgz.tsv: looks compressed (gzip)*"
	printf '\357\273\277\357\273\277a\n1\n' > bom2.tsv
	check "freqset -q 1 bom2.tsv" 0 ""
	[ "$(head -1 out)" = "$(printf '\357\273\277a\tcount')" ] ||
	    note "two marks: $(head -1 out | od -c)"
	# Elsewhere the mark is part of a value.
	printf 'a\n\357\273\277x\nx\n' > mid.tsv
	check "freqset mid.tsv" 0 ""
	[ "$(wc -l < out)" -eq 3 ] || note "mid: $(cat out)"
	# A hierarchy with a mark: its first leaf is found.
	printf '\357\273\277x;X;*\ny;Y;*\n' > h.csv
	check "freqset -q b -H b=h.csv -L b=1 t.tsv" 0 ""
	[ "$(cat out)" = "$(printf 'b\tcount\nX\t2\nY\t2')" ] ||
	    note "ARX with a mark: $(cat out)"
	done_checks
}

# The programs with -H, each with a column named COL (a quasi-
# identifier with a hierarchy from -H DIR when one is found) of the
# table TABLE: the program, its arguments, and its exit status when the
# column gets no hierarchy.
HPROGS="freqset|-q COL -H DIR|0
score|-q COL -k 1 --original TABLE --workload-auto COL -H DIR|0
lattice-search|-q COL -H DIR -k 1|2
recode|-n COL=1 -H DIR -k 1|2
partition|-q COL -H DIR -k 1|0"

@test "-H DIR: a column name leading out of DIR finds nothing there" {
	mkdir -p d/sub
	# Hierarchies that must not be loaded: each is an error naming it.
	printf 'nope\n1\tA\n' > evil.tsv
	printf 'nope\n1\tA\n' > d/sub/x.tsv
	printf 'nope\n1\tA\n' > d/sub/x.csv
	for col in ../evil sub/x ./sub/x; do
		printf '%s\tb\n1\tx\n2\ty\n' "$col" > c.tsv
		while IFS='|' read -r p args st; do
			args=${args//COL/$col}
			args=${args//TABLE/c.tsv}
			check "$p ${args//DIR/d} c.tsv" "$st" "*"
			[[ $err != *.tsv:* && $err != *.csv:* ]] ||
			    note "$p, column $col: a file out of d was read: $err"
			[ "$st" -eq 0 ] ||
			    [[ $err == *"'$col'"*"has no hierarchy"* ]] ||
			    note "$p, column $col: $err"
		done <<< "$HPROGS"
	done
	# A name is matched exactly: X.tsv, x.tsv.bak and xx.tsv are not x's.
	printf 'x\tb\n1\tx\n' > c.tsv
	printf 'nope\n1\tA\n' > d/X.tsv
	printf 'nope\n1\tA\n' > d/x.tsv.bak
	printf 'nope\n1\tA\n' > d/xx.tsv
	check "lattice-search -q x -H d -k 1 c.tsv" 2 "lattice-search: 'x' has no hierarchy (give one with -H)"
	# And the hierarchies DIR holds are found.
	printf '1\tA\t*\n2\tB\t*\n' > d/x.tsv
	check "freqset -q x -H d -L x=1 c.tsv" 0 ""
	[ "$(cat out)" = "$(printf 'x\tcount\nA\t1')" ] || note "d/x.tsv: $(cat out)"
	done_checks
}

@test "-H DIR: a dangling symbolic link is an error naming it" {
	mkdir d
	ln -s nowhere.tsv d/b.tsv
	while IFS='|' read -r p args st; do
		args=${args//COL/b}
		args=${args//TABLE/t.tsv}
		check "$p ${args//DIR/d} t.tsv" 2 "$p: -H d: d/b.tsv, the hierarchy of 'b', is a symbolic link to a file that does not exist"
	done <<< "$HPROGS"
	# The link is no longer skipped for the next name, b.csv.
	printf 'x;X;*\ny;Y;*\n' > d/b.csv
	check "freqset -q b -H d t.tsv" 2 "freqset: -H d: d/b.tsv*symbolic link*"
	done_checks
}

# tall N: a hierarchy of N levels (leaves x and y, a chain each) in hN.tsv.
tall() {
	awk -v n="$1" 'BEGIN { for (v = 0; v < 2; v++) {
		printf "%s", v ? "y" : "x"
		for (l = 1; l < n; l++) printf "\t%s", l < n - 1 ? v "_" l : "*"
		print "" } }' > "h$1.tsv"
}

@test "a hierarchy has at most 100 levels, in every program" {
	tall 100
	tall 101
	tall 5000
	SECONDS=0
	while IFS='|' read -r p args st; do
		args=${args//COL/b}
		args=${args//TABLE/t.tsv}
		check "$p ${args//DIR/b=h100.tsv} t.tsv" 0 ""
		for n in 101 5000; do
			check "$p ${args//DIR/b=h$n.tsv} t.tsv" 2 "$p: h$n.tsv:1: $n levels: a hierarchy has at most 100 (kanon(7), INPUT LIMITS); is this a hierarchy file?"
		done
	done <<< "$HPROGS"
	# 100 levels cost little (2,000 cost lattice-search 11 s).
	[ "$SECONDS" -le 20 ] || note "100 levels took ${SECONDS}s"
	done_checks
}

@test "a closed standard input is an error that says so" {
	for p in freqset score extsort "partition -q a -k 1" \
	    "lattice-search -q a -H a=interval:5 -k 1" \
	    "recode -n a=1 -H a=interval:5 -k 1" \
	    "freqset --columns-file - t.tsv" "freqset -q b -H b=- t.tsv"; do
		check "$p <&-" 2 "${p%% *}: stdin: the standard input is closed (or open for writing only): give the input as a file, or redirect it (< FILE)"
	done
	# A file operand does not need it; a closed stdout is a write error.
	check "freqset t.tsv <&-" 0 ""
	check "freqset -S 1K t.tsv >&-" 2 "freqset: standard output: write error*"
	done_checks
}

@test "ARX's ';' CSV named .tsv says so; a TSV named .csv too" {
	printf 'x;X;*\ny;Y;*\n' > arx.tsv
	for o in "" "-L b=1"; do
		check "freqset -q b -H b=arx.tsv $o t.tsv" 2 "freqset: arx.tsv:1: no tab but a ';': this looks like ARX's ';' CSV; to read it so, name the file .csv (or give it no ending)"
	done
	check "lattice-search -q b -H b=arx.tsv -k 1 t.tsv" 2 "lattice-search: arx.tsv:1: no tab but a ';'*"
	# Without an ending the first line decides: ARX's.
	cp arx.tsv arx
	check "freqset -q b -H b=arx -L b=1 t.tsv" 0 ""
	printf 'x\tX\t*\ny\tY\t*\n' > tab.csv
	check "freqset -q b -H b=tab.csv t.tsv" 2 "freqset: tab.csv:1: field 1: tab inside a label (a tab-separated hierarchy is named .tsv, not .csv)"
	done_checks
}

@test "a file edited in place while the second pass reads it is an error (recode, partition), whatever the row count: a row released alone was written with exit 0" {
	awk 'BEGIN { print "a\tb"; for (i = 0; i < 60000; i++) printf "%d\tx%d\n", 10 + i % 80, i; print "10\tlast" }' > r.tsv
	# The reader of the output waits for its first byte (the second
	# pass has begun, and blocks on the full pipe), then makes the last
	# row's 10 a 95, which no other row holds.
	edit() {
		head -c 1 > /dev/null
		printf '95' | dd of=r.tsv bs=1 seek=$(($(wc -c < r.tsv) - 8)) conv=notrunc 2> /dev/null
		cat > out
	}
	cp r.tsv orig.tsv
	{ recode -n a=0 -H a=interval:100 -k 2 r.tsv 2> err && s=0 || s=$?; echo $s > rc; } | edit
	[ "$(cat rc)" -eq 2 ]
	[ "$(cat err)" = "recode: r.tsv: the file changed between or during the two passes (kanon(7), Operands and output)" ]
	cp orig.tsv r.tsv
	{ partition -q a -k 5 r.tsv 2> err && s=0 || s=$?; echo $s > rc; } | edit
	[ "$(cat rc)" -eq 2 ]
	[ "$(cat err)" = "partition: r.tsv: the file changed between or during the two passes (kanon(7), Operands and output)" ]
	# Unchanged, both end well.
	cp orig.tsv r.tsv
	recode -n a=0 -H a=interval:100 -k 2 r.tsv > /dev/null
	partition -q a -k 5 r.tsv > /dev/null
}

@test "a header of 300,000 columns is read in linear time (its names' check was quadratic: a minute), a name twice still found" {
	awk 'BEGIN { for (i = 0; i < 300000; i++) printf "%sc%d", i ? "\t" : "", i; print ""
	    for (i = 0; i < 300000; i++) printf "%s%d", i ? "\t" : "", i % 7; print "" }' > w.tsv
	run timeout 30 freqset -q c1,c299999 w.tsv
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'c1\tc299999\tcount\n1\t0\t1')" ]
	sed '1s/c299999$/c5/' w.tsv > d.tsv
	run timeout 30 freqset -q c1 d.tsv
	[ "$status" -eq 2 ]
	[ "$output" = "freqset: d.tsv:1: column name 'c5' appears twice (columns 6 and 300000)" ]
}

@test "a file renamed over, or read once, is no change: recode in one pass, and with -k 2 when the rename comes during the second pass, end well" {
	awk 'BEGIN { print "a\tb"; for (i = 0; i < 60000; i++) printf "%d\tx%d\n", 10 + i % 80, i }' > r.tsv
	cp r.tsv new.tsv
	# The reader of the output waits for its first byte (the last pass
	# has begun), then renames a copy over the input's name.
	swap() {
		head -c 1 > /dev/null
		mv new.tsv r.tsv
		cat > out
	}
	{ recode -n a=0 -H a=interval:100 -k 1 r.tsv 2> err && s=0 || s=$?; echo $s > rc; } | swap
	[ "$(cat rc)" -eq 0 ] || { cat err; false; }
	cp r.tsv new.tsv
	{ recode -n a=0 -H a=interval:100 -k 2 r.tsv 2> err && s=0 || s=$?; echo $s > rc; } | swap
	[ "$(cat rc)" -eq 0 ] || { cat err; false; }
	cp r.tsv new.tsv
	{ partition -q a -k 5 r.tsv 2> err && s=0 || s=$?; echo $s > rc; } | swap
	[ "$(cat rc)" -eq 0 ] || { cat err; false; }
}

@test "a small ulimit -d or -v: the heap grows by no more than it allows, whatever the options' order (review: grown by 32M, a thirty-second of the default budget, gendata, partition in memory, extsort and freqset with -S after -H ran out of memory)" {
	[ -z "${ASAN_OPTIONS:-}" ] || skip "ulimit under ASan"
	printf 'k\n1\n2\n3\n' > t.tsv
	run bash -c 'ulimit -d 8000; gendata -n 5 agrawal | wc -l'
	[ "$status" -eq 0 ]
	[ "$output" = 6 ]
	run --separate-stderr bash -c \
	    'ulimit -d 8000; partition -q k -k 1 -a memory t.tsv'
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'k\tclass\n1\t1\n2\t2\n3\t3')" ]
	run --separate-stderr bash -c 'ulimit -v 30000; extsort -k k:n t.tsv'
	[ "$status" -eq 0 ]
	[ "$output" = "$(cat t.tsv)" ]
	run --separate-stderr bash -c 'ulimit -v 25000; freqset -q k \
	    -H k=interval:2,4 -L k=1 -S 1M t.tsv'
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 3 ]
}
