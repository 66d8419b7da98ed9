# The harness of the property tests (property.bats, missing-property.bats,
# closeness-property.bats, dates.bats): a case is a function of one seed, run for a
# range of seeds on two cores.

# seedcheck CASE FIRST LAST: CASE SEED for each seed, removing the case's
# directories after it ($T/f, m, v and d followed by the seed); fails at
# the end if any case failed, showing at most 5 of them in full.
seedcheck() {
	local seed bad=0
	for ((seed = $2; seed <= $3; seed++)); do
		if ! "$1" "$seed" > "$T/out.$1.$seed" 2>&1; then
			bad=$((bad + 1))
			[ "$bad" -gt 5 ] || cat "$T/out.$1.$seed"
		fi
		rm -rf "$T/f$seed" "$T/m$seed" "$T/v$seed" "$T/d$seed"
	done
	[ "$bad" -eq 0 ] || { echo "$bad of $(($3 - $2 + 1)) cases failed"; false; }
}

# seedsplit CASE FIRST LAST FUNC...: seedcheck over the two halves of the
# seeds at once, in child shells away from the bats traps that slow
# every command of a long loop; FUNC... are the functions CASE calls,
# exported to them.
#
# SEEDS=P runs P percent of the seeds each case names (default 100): a
# longer search than make test's, as SEEDS=500 make test, or a quick
# look, as SEEDS=10.
seedsplit() {
	local f=$1 first=$2 last=$3 mid p1 p2 s1=0 s2=0 pct=${SEEDS:-100}
	case $pct in
	'' | *[!0-9]* | 0) echo "SEEDS: a percentage of the seeds, from 1" >&2
		return 2 ;;
	esac
	last=$((first + ((last - first + 1) * pct + 99) / 100 - 1))
	mid=$(((first + last) / 2))
	shift 3
	# shellcheck disable=SC2163 # the arguments are names of functions
	export -f seedcheck recode_sd "$@"
	export T BATS_TEST_DIRNAME
	bash -c "seedcheck $f $first $mid" > "$T/log1" 2>&1 &
	p1=$!
	bash -c "seedcheck $f $((mid + 1)) $last" > "$T/log2" 2>&1 &
	p2=$!
	wait "$p1" || s1=$?
	wait "$p2" || s2=$?
	cat "$T/log1" "$T/log2"
	[ "$s1" -eq 0 ] && [ "$s2" -eq 0 ]
}
