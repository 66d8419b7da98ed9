# Shared setup for the bats files: paths and small table generators.
bats_require_minimum_version 1.5.0
ROOT=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
PATH="$ROOT:$PATH"
ADULT="$ROOT/data/adult/adult.tsv"
AH="$ROOT/data/adult"
export LC_ALL=C

# bats records a stack trace before every command a test runs (its
# DEBUG trap), to name the failing line: about 0.75 ms a command on the
# 2-core machine (a loop of shell arithmetic took 130 times as long as
# without it), much of the time of the tests that loop over cases.  The
# trace is taken here once, when a command fails (the ERR trap runs where
# the DEBUG trap would have, so bats names the same line and command),
# and tracing is left to bats when it traces (bats -x) or when
# KANON_TEST_TRACE is set.  A bats without these functions keeps its
# own traps.
if [ -z "${KANON_TEST_TRACE:-}" ] && [ "${BATS_TRACE_LEVEL:-0}" -eq 0 ] &&
    declare -F bats_setup_tracing bats_debug_trap \
    bats_check_status_from_trap > /dev/null; then
	eval "$(declare -f bats_setup_tracing |
	    sed '1s/^bats_setup_tracing/kanon_bats_setup_tracing/')"
	bats_setup_tracing() {
		kanon_bats_setup_tracing "$@"
		trap - DEBUG
		# shellcheck disable=SC2016 # expanded when the trap runs
		trap 'bats_check_status_from_trap
		    bats_debug_trap "$BASH_SOURCE"
		    BATS_DEBUG_LAST_STACK_TRACE_IS_VALID=1' ERR
	}
fi

# randtable SEED ROWS COLS CARD: a random table with columns c1..cCOLS
# of small integers, skewed so that some classes are tiny.
randtable() {
	awk -v seed="$1" -v n="$2" -v d="$3" -v card="$4" 'BEGIN {
		srand(seed)
		for (j = 1; j <= d; j++) printf "%sc%d", (j > 1 ? "\t" : ""), j
		print ""
		for (i = 0; i < n; i++) {
			for (j = 1; j <= d; j++) {
				r = rand(); v = int(card * r * r)
				printf "%s%d", (j > 1 ? "\t" : ""), v
			}
			print ""
		}
	}'
}

# uniqc FIELDS FILE: the frequency set by sort | uniq -c, as freqset
# prints it (key columns, then count), without a header.
uniqc() {
	tail -n +2 "$2" | cut -f "$1" | sort | uniq -c |
	    sed 's/^ *\([0-9]*\) \(.*\)$/\2\t\1/'
}

# held_temps PID DIR: how many files in DIR process PID holds open,
# unlinked or not (Rothko's node files are unlinked as soon as made).
held_temps() {
	ls -l "/proc/$1/fd" 2>/dev/null | grep -c -- "-> $2/" || true
}

# recode_sd ERR ARGS...: recode ARGS, its standard error to ERR; when it
# refuses to star the suppressed rows (fewer than -k, or sensitive
# values that -l or --closeness would not judge: recode(1), --suppress),
# recode ARGS --suppress drop instead.  REPLY: drop when it did so,
# else empty.  Exits as recode did.
recode_sd() {
	local err=$1 st=0
	shift
	REPLY=
	recode "$@" 2> "$err" || st=$?
	if [ "$st" -eq 1 ] &&
	    grep -q 'suppressed rows\{0,1\}, starred, would' "$err"; then
		REPLY=drop
		st=0
		recode "$@" --suppress drop 2> "$err" || st=$?
	fi
	return "$st"
}
