#!/usr/bin/env bats
# The EXAMPLES of every man page run, and print what the page shows.
# tests/examples.awk reads the examples out of the mdoc source (its
# comment says how a page marks a block that is not run, or a file).
# Each page's commands run in order in one shell, in a scratch
# directory holding data/ and mapred from the tree, with /tmp/ in a
# command taken for a tmp/ of that directory.  A command shown with
# output must print it, on its standard output and error together,
# compared line by line with runs of blanks as one blank (the pages
# show tabs as aligned blanks) and a number of seconds ("0.030 s") as
# any; a line of the page may be wrapped where the output's is long (a
# message "on one line"), and a line ending in " ..." is cut short.  A
# command shown without output must exit 0 with nothing on its
# standard error.

load common

setup() {
	W=$BATS_TEST_TMPDIR/w
	mkdir -p "$W/tmp" && cd "$W" || return 1
	ln -s "$ROOT/data" data
	ln -s "$ROOT/mapred" mapred
}

# compare EXPECTED ACTUAL: the check of one command's output.
compare() {
	awk '
	function norm(s) {
		gsub(/[ \t]+/, " ", s)
		sub(/^ /, "", s)
		sub(/ $/, "", s)
		gsub(/[0-9]+\.[0-9]+ s /, "N s ", s)
		gsub(/[0-9]+\.[0-9]+ s,/, "N s,", s)
		gsub(/[0-9]+\.[0-9]+ s$/, "N s", s)
		return s
	}
	function fits(e, a,    p) {
		if (e ~ / \.\.\.$/) {
			p = substr(e, 1, length(e) - 4)
			return a == p || substr(a, 1, length(p) + 1) == p " "
		}
		return e == a
	}
	NR == FNR { e[++m] = norm($0); next }
	{ a[++n] = norm($0) }
	END {
		i = 1
		for (j = 1; j <= n; j++) {
			if (i > m) {
				printf "more output than the page shows: %s\n", a[j]
				exit 1
			}
			s = e[i++]
			while (!fits(s, a[j]) && i <= m &&
			    substr(a[j], 1, length(s) + 1) == s " ")
				s = s " " e[i++]
			if (!fits(s, a[j])) {
				printf "the page shows: %s\nthe output is:  %s\n",
				    s, a[j]
				exit 1
			}
		}
		if (i <= m) {
			printf "the page shows more: %s\n", e[i]
			exit 1
		}
	}' "$1" "$2"
}

# examples PAGE: runs the examples of man/PAGE and checks them.
examples() {
	local page=$ROOT/man/$1 kind text n=0 i blk=0 st fails=0 done=0 file skip
	awk -f "$BATS_TEST_DIRNAME/examples.awk" "$page" > recs || return 1
	echo s=0 > run.sh
	# The commands, each in braces (a variable it sets stays set),
	# its output and status to files named by its number.
	while IFS= read -r text; do
		kind=${text%%$'\t'*}
		text=${text#*$'\t'}
		case $kind in
		B) blk=$text; skip= ;;
		X) skip=1 ;;
		F) flush
		   printf ': > %q\n' "$text" >> run.sh
		   file=$text ;;
		D) printf 'printf "%%s\\n" %q >> %q\n' "$text" "$file" >> run.sh ;;
		C) [ -n "$skip" ] && continue
		   flush
		   n=$((n + 1))
		   echo "$blk" > line.$n
		   printf '%s\n' "${text//\/tmp\//tmp/}" > cmd.$n
		   : > want.$n ;;
		c) [ -n "$skip" ] && continue
		   printf '%s\n' "${text//\/tmp\//tmp/}" >> cmd.$n ;;
		O) [ -n "$skip" ] && continue
		   printf '%s\n' "$text" >> want.$n ;;
		esac
	done < recs
	flush
	[ $n -gt 0 ] || { echo "$1: no example"; return 1; }
	env PATH="$ROOT:$PATH" LC_ALL=C bash run.sh > /dev/null 2>&1
	for ((i = 1; i <= n; i++)); do
		st=$(cat "st.$i" 2> /dev/null || echo none)
		if [ -s "want.$i" ]; then
			if ! msg=$(compare "want.$i" "out.$i"); then
				printf '%s:%s: %s\n%s\n\n' "$1" "$(cat "line.$i")" \
				    "$(cat "cmd.$i" 2> /dev/null)" "$msg"
				fails=$((fails + 1))
			fi
		elif [ "$st" != 0 ] || [ -s "err.$i" ]; then
			printf '%s:%s: %s\nexit %s, stderr: %s\n\n' "$1" \
			    "$(cat "line.$i")" "$(cat "cmd.$i" 2> /dev/null)" "$st" \
			    "$(cat "err.$i")"
			fails=$((fails + 1))
		fi
	done
	[ "$fails" -eq 0 ]
}

# flush: adds command n to run.sh, if it is not there yet, with stderr
# apart when the page shows no output for it.
flush() {
	[ "$n" -gt 0 ] && [ "$n" != "$done" ] || return 0
	done=$n
	# (exit $s): the status of the command before, for an echo $?.
	if [ -s "want.$n" ]; then
		printf '{ (exit $s)\n%s\n} > out.%d 2>&1; s=$?; echo $s > st.%d\n' \
		    "$(cat "cmd.$n")" "$n" "$n" >> run.sh
	else
		printf '{ (exit $s)\n%s\n} > out.%d 2> err.%d; s=$?; echo $s > st.%d\n' \
		    "$(cat "cmd.$n")" "$n" "$n" "$n" >> run.sh
	fi
}

@test "examples.awk: commands, their continuations, output, marks" {
	cat > page.1 <<-'EOF'
	.Sh DESCRIPTION
	.Bd -literal
	$ not an example
	.Ed
	.Sh EXAMPLES
	.Bd -literal -offset indent
	$ a |
	    b \e
	    c
	out 1
	  out 2
	$ for x in 1; do
	>     echo \(dq$x\(dq
	> done
	1
	.Ed
	.\" example: not run: no such data
	.Bd -literal
	$ skipped
	.Ed
	.\" example: file q.tsv
	.Bd -literal
	a     b
	      c
	.Ed
	.Bd -literal
	$ ls q.tsv
	q.tsv
	.Ed
	.Bd -literal
	crontab line, not a command
	.Ed
	.Sh SEE ALSO
	EOF
	run awk -f "$BATS_TEST_DIRNAME/examples.awk" page.1
	[ "$status" -eq 0 ]
	[ "$output" = "B	7
C	a |
c	    b \\
c	    c
O	out 1
O	  out 2
C	for x in 1; do
c	    echo \"\$x\"
c	done
O	1
B	19
X	no such data
B	23
F	q.tsv
D	a	b
D		c
B	27
C	ls q.tsv
O	q.tsv" ]
}

@test "the comparison: blanks, seconds, wrapped and cut lines; a difference fails" {
	printf 'a  b\nx: 1 row, 0.030 s,\nmore\nhead ...\n' > want
	printf 'a\tb\nx: 1 row, 2.5 s, more\nhead of a long line\n' > got
	compare want got
	printf 'a b\n' > want
	printf 'a c\n' > got
	run compare want got
	[ "$status" -eq 1 ]
	printf 'a b\nc\n' > got
	run compare want got
	[ "$status" -eq 1 ] && [[ $output == "more output than the page shows: c" ]]
	printf 'a b\nc\n' > want
	printf 'a b\n' > got
	run compare want got
	[ "$status" -eq 1 ] && [[ $output == "the page shows more: c" ]]
}

@test "extsort(1) EXAMPLES" {
	examples extsort.1
}

@test "freqset(1) EXAMPLES" {
	examples freqset.1
}

@test "gendata(1) EXAMPLES" {
	examples gendata.1
}

@test "lattice-search(1) EXAMPLES" {
	examples lattice-search.1
}

@test "partition(1) EXAMPLES" {
	examples partition.1
}

@test "recode(1) EXAMPLES" {
	examples recode.1
}

@test "score(1) EXAMPLES" {
	examples score.1
}

@test "kanon(7) EXAMPLES" {
	examples kanon.7
}

@test "every page is here" {
	for m in "$ROOT"/man/*.[17]; do
		m=${m##*/}
		grep -q "^	examples $m\$" "$BATS_TEST_FILENAME" ||
		    { echo "$m has no test"; false; }
	done
}
