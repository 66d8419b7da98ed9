#!/usr/bin/env bats
# --help: every program prints its synopsis and a line or two on every
# option it takes, to stdout, exit 0, on one screen.  The options are
# read from the program's own getopt tables (its longopts[] and the
# optstring given to getopt_long, after the preprocessor), so an option
# added without its help line fails here.

load common

ALL="freqset score lattice-search recode partition extsort gendata"

# src PROG: the C file holding PROG's main and getopt tables.
src() {
	case $1 in
	extsort) echo "$ROOT/extsort_main.c" ;;
	lattice-search) echo "$ROOT/lattice.c" ;;
	*) echo "$ROOT/$1.c" ;;
	esac
}

# longopts PROG: the long options of PROG's longopts[], one a line.
longopts() {
	${CC:-cc} -E -D_XOPEN_SOURCE=700 -I"$ROOT" "$(src "$1")" |
	    awk '/longopts\[\] = \{/ { on = 1 } on { print } on && /^\};/ { exit }' |
	    grep -o '{ *"[a-z][a-z-]*"' | sed 's/^{ *"//; s/"$//'
}

# shortopts PROG: the letters of the optstring PROG gives getopt_long.
shortopts() {
	${CC:-cc} -E -D_XOPEN_SOURCE=700 -I"$ROOT" "$(src "$1")" |
	    tr '\n' ' ' |
	    grep -o '\(getopt_long\|parse_opts\)(argc, argv, *\("[^"]*" *\)*' |
	    grep -o '"[^"]*"' | tr -d '"+:\n' | fold -w 1 | sort -u
}

@test "the option lists are read from the sources" {
	# A check of the extraction itself, on options known to exist.
	run longopts freqset
	[[ $output == *merge* && $output == *skip-header* && $output == *help* ]]
	run longopts gendata
	[[ $output == *target* && $output == *seed* ]]
	run shortopts partition
	[[ $output == *a* && $output == *q* && $output == *v* ]]
	run shortopts gendata
	[ "$(echo "$output" | tr -d '\n')" = cdhno ]
	run shortopts freqset
	[ "$(echo "$output" | tr -d '\n')" = HLSThjoqv ]
}

@test "--help and -h: the synopsis and every option, on stdout, exit 0" {
	for p in $ALL; do
		run --separate-stderr "$p" --help
		[ "$status" -eq 0 ] || { echo "$p: exit $status"; false; }
		[ -z "$stderr" ] || { echo "$p: stderr $stderr"; false; }
		help=$output
		[[ $help == "usage: $p "* || $help == "usage: gendata "* ]]
		run --separate-stderr "$p" -h
		[ "$status" -eq 0 ] && [ "$output" = "$help" ]
		# The descriptions, after the synopsis and its blank line.
		help=${help#*$'\n\n'}
		[[ $help != usage:* ]]
		for o in $(longopts "$p"); do
			[[ $help =~ (^|[ ,\[])--$o([ ,=]|$) ]] ||
			    { echo "$p --help does not mention --$o"; false; }
		done
		for o in $(shortopts "$p"); do
			[[ $help =~ (^|[ ,\[])-$o([ ,]|$) ]] ||
			    { echo "$p --help does not mention -$o"; false; }
		done
	done
}

@test "--help fits a screen: at most 60 lines of at most 79 columns" {
	for p in $ALL; do
		n=$("$p" --help | wc -l)
		[ "$n" -le 60 ] || { echo "$p --help: $n lines"; false; }
		w=$("$p" --help | awk '{ if (length > m) m = length } END { print m }')
		[ "$w" -le 79 ] || { echo "$p --help: a line of $w columns"; false; }
	done
}

@test "the options added for CSV, missing values and dates are described" {
	for p in freqset score lattice-search recode partition extsort; do
		run "$p" --help
		[[ $output == *"--icsv               read CSV (RFC 4180) instead of TSV"* ]]
		[[ $output == *"--ifs SEP            the CSV field separator (implies --icsv; ';' for ARX"* ]]
	done
	for p in freqset recode partition; do
		run "$p" --help
		[[ $output == *"--ocsv               write the output table as CSV"* ]]
		[[ $output == *"--csv                both --icsv and --ocsv"* ]]
	done
	for p in freqset lattice-search recode partition score; do
		run "$p" --help
		[[ $output == *"--missing TOKENS     comma list of the tokens that mean a missing value"* ]]
	done
	for p in recode partition score; do
		run "$p" --help
		[[ $output == *"--date COLUMNS       columns holding ISO 8601 dates"* ]]
	done
	for p in extsort gendata score lattice-search; do
		run "$p" --help
		[[ $output != *--ocsv* ]] || { echo "$p: --ocsv"; false; }
	done
	for p in freqset lattice-search recode partition score; do
		run "$p" --help
		[[ $output == *interval:*mask:*date:LEVELS* ]]
	done
}

@test "a wrong option prints the short usage on stderr and exits 2" {
	for p in $ALL; do
		run --separate-stderr "$p" --no-such-option
		[ "$status" -eq 2 ] && [ -z "$output" ]
		[[ $stderr == "$p: --no-such-option: unknown option"*"usage: "* ]]
		# The synopsis only: no option descriptions.
		[[ $stderr != *"print this help"* ]]
	done
}

@test "a wrong option is named by the program's own name, its bytes escaped, and says what is wrong (getopt's messages gave argv[0] as typed and the bytes raw)" {
	for p in $ALL; do
		run --separate-stderr "$ROOT/$p" $'--bo\x1b[31m\nX=1'
		[ "$status" -eq 2 ]
		[[ $stderr == "$p: --bo\\x1b[31m\\nX: unknown option"* ]]
		run --separate-stderr "$p" -Z
		[ "$status" -eq 2 ]
		[[ $stderr == "$p: -Z: unknown option"* ]]
	done
	run --separate-stderr freqset -q
	[ "$status" -eq 2 ]
	[[ $stderr == "freqset: -q: needs a value"*"usage: freqset"* ]]
	run --separate-stderr partition --split
	[ "$status" -eq 2 ]
	[[ $stderr == "partition: --split: needs a value"* ]]
	run --separate-stderr score --check=yes
	[ "$status" -eq 2 ]
	[[ $stderr == "score: --check: takes no value"* ]]
	run --separate-stderr recode --co
	[ "$status" -eq 2 ]
	[[ $stderr == "recode: --co: unknown option, or short for more than one"* ]]
	# Found by review: a byte past 0x7f named the argument before it,
	# and gendata's '+' (getopt's order) was an option needing a value.
	run --separate-stderr freqset -v $'-\xc3\xa9'
	[ "$status" -eq 2 ]
	[[ $stderr == "freqset: -\\xc3: unknown option"* ]]
	run --separate-stderr gendata -+
	[ "$status" -eq 2 ]
	[[ $stderr == "gendata: -+: unknown option"* ]]
}

@test "--help to a full disk is an error" {
	for p in $ALL; do
		run bash -c "$p --help > /dev/full"
		[ "$status" -eq 2 ] || { echo "$p: exit $status"; false; }
		[[ $output == *"write error"* ]]
	done
}
