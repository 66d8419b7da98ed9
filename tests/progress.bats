#!/usr/bin/env bats
# Progress (kanon(7), "Progress"): with --progress, or on a terminal,
# every phase of a run shows on stderr with its count, and a phase ends
# with its final count; the output is the same bytes as without it.
# KANON_PROGRESS_EVERY_UPDATE (for the tests only) redraws at every
# update and ends every phase with a line, so that the phases of runs
# on the small Adult table can be seen; one test runs at the real pace.

load common

Q=sex,age,race,marital-status,education,native-country,workclass,occupation

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

# phases FILE: the final line of each phase in the progress on FILE (the
# last drawing of each "prog: phase:" prefix, trailing blanks removed),
# in the order the phases began.
phases() {
	tr '\r' '\n' < "$1" | sed 's/ *$//' | grep . | awk '{
		k = $0; sub(/: [0-9].*/, "", k)
		if (!(k in last)) order[n++] = k
		last[k] = $0
	} END { for (i = 0; i < n; i++) print last[order[i]] }'
}

# progress_run OUT ERR CMD...: runs CMD with --progress after its first
# word and every update drawn; stdout to OUT, stderr to ERR.  The run
# must succeed, its stderr end with a newline and hold nothing but
# progress lines; its stdout must be that of CMD without --progress.
progress_run() {
	local out=$1 err=$2 prog=$3
	shift 3
	KANON_PROGRESS_EVERY_UPDATE=1 "$prog" --progress "$@" > "$out" 2> "$err" ||
	    { echo "$prog --progress $*: exit $?"; cat "$err"; return 1; }
	"$prog" "$@" 2> plain.err | cmp - "$out" ||
	    { echo "$prog: --progress changed the output"; return 1; }
	[ ! -s plain.err ] || { echo "$prog: stderr without --progress"; return 1; }
	[ "$(tail -c 1 "$err" | od -An -c | tr -d ' ')" = '\n' ] ||
	    { echo "$prog: stderr does not end with a newline"; return 1; }
	if tr '\r' '\n' < "$err" | grep . |
	    grep -Ev "^$prog: [^:]+: [0-9]+ [a-z ]+( of [0-9]+)?(, [0-9]+ MB read)? *\$" |
	    head -n 3 | grep .; then
		echo "$prog: a line that is not progress"
		return 1
	fi
}

@test "freqset: reading and sorting, each ending at its total" {
	progress_run out err freqset -q sex,race "$ADULT"
	run phases err
	[ "$output" = "freqset: reading: 30162 rows, 2 MB read
freqset: sorting: 10 groups of 10" ]
}

@test "freqset -S: the sorted runs are merged line by line" {
	progress_run out err freqset -S 1M "$ADULT"
	run phases err
	[ "${lines[0]}" = "freqset: reading: 30162 rows, 2 MB read" ]
	[[ ${lines[1]} =~ ^freqset:\ merging:\ ([0-9]+)\ lines\ of\ ([0-9]+)$ ]]
	[ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ]
	[ "${BASH_REMATCH[1]}" -gt 22000 ]
	[ "${#lines[@]}" -eq 2 ]
}

@test "lattice-search: the search counts the nodes of the lattice" {
	for a in bfs bfs-scan; do
		progress_run out err lattice-search -a "$a" --best -q $Q \
		    -H "$AH" -k 10 --max-suppress 2% "$ADULT"
		run phases err
		[ "$output" = "lattice-search: reading: 30162 rows, 2 MB read
lattice-search: sorting: 18109 groups of 18109
lattice-search: search: 6480 nodes of 6480
lattice-search: metrics: 1027 nodes of 1027" ]
	done
	# Samarati's binary search checks only some of the nodes.
	progress_run out err lattice-search -a samarati -q $Q -H "$AH" -k 10 \
	    --max-suppress 2% "$ADULT"
	run phases err
	[ "${lines[2]}" = "lattice-search: search: 3340 nodes checked of 6480" ]
	[ "${#lines[@]}" -eq 3 ]
	# flash checks fewer, and --best's sweep counts on.
	progress_run out err lattice-search -a flash -j 1 --best -q $Q -H "$AH" \
	    -k 10 --max-suppress 2% "$ADULT"
	run phases err
	[ "${lines[2]}" = "lattice-search: search: 1175 nodes checked of 6480" ]
	[ "${#lines[@]}" -eq 3 ]
	# On four threads the last count is drawn too, the nodes -v says
	# (found by review: short in 9 of 50 runs).
	local want i
	want=$(lattice-search -a flash -j 4 -v -q $Q -H "$AH" -k 10 \
	    --max-suppress 2% "$ADULT" 2>&1 > /dev/null |
	    sed -n 's/.*nodes checked \([0-9]*\).*/\1/p')
	[ -n "$want" ]
	for i in 1 2 3 4 5 6 7 8; do
		progress_run out err lattice-search -a flash -j 4 -q $Q -H "$AH" \
		    -k 10 --max-suppress 2% "$ADULT"
		run phases err
		[ "${lines[2]}" = "lattice-search: search: $want nodes checked of 6480" ]
	done
}

@test "lattice-search: Incognito's phases, one per size of subsets, on every thread count" {
	for j in 1 4; do
		progress_run out err lattice-search -a incognito -j $j -q $Q \
		    -H "$AH" -k 10 "$ADULT"
		run phases err
		[ "${#lines[@]}" -eq 10 ]
		[ "${lines[2]}" = "lattice-search: search, 1 of 8 attributes: 25 nodes of 25" ]
		for i in 2 3 4 5 6 7 8 9; do
			[[ ${lines[i]} =~ ^lattice-search:\ search,\ $((i - 1))\ of\ 8\ attributes:\ ([0-9]+)\ nodes\ of\ ([0-9]+)$ ]]
			[ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ]
		done
	done
}

@test "partition: reading, partitioning and writing, in memory and out of core" {
	for a in memory rothko-t rothko-s; do
		progress_run out err partition -a $a -S 4M -q $Q -H "$AH" \
		    --numeric age -k 10 "$ADULT"
		run phases err
		[ "${#lines[@]}" -eq 3 ]
		[ "${lines[0]}" = "partition: reading: 30162 rows, 2 MB read" ]
		case $a in
		memory) [ "${lines[1]}" = "partition: partitioning: 30162 rows in classes of 30162" ] ;;
		*) [[ ${lines[1]} =~ ^partition:\ partitioning:\ 30162\ rows\ in\ classes\ of\ 30162,\ [0-9]+\ MB\ read$ ]] ;;
		esac
		[ "${lines[2]}" = "partition: writing: 30162 rows of 30162, 2 MB read" ]
	done
}

@test "recode: two passes, or one" {
	progress_run out err recode -n age=1,sex=1 -H "$AH" -k 5 "$ADULT"
	run phases err
	[ "$output" = "recode: pass 1, counting: 30162 rows, 2 MB read
recode: sorting: 15 groups of 15
recode: pass 2, writing: 30162 rows of 30162, 2 MB read" ]
	progress_run out err recode -n age=1,sex=1 -H "$AH" -k 1 "$ADULT"
	run phases err
	[ "$output" = "recode: writing: 30162 rows, 2 MB read" ]
	freqset -q sex,age "$ADULT" > fs.tsv
	progress_run out err recode -n age=1,sex=1 -H "$AH" -k 10 \
	    --classes fs.tsv "$ADULT"
	run phases err
	[ "$output" = "recode: reading --classes: 142 lines, 0 MB read
recode: sorting: 15 groups of 15
recode: writing: 30162 rows, 2 MB read" ]
}

@test "score: the release, and the original of a workload" {
	progress_run out err score -q sex,age -k 5 "$ADULT"
	run phases err
	[ "$output" = "score: reading: 30162 rows, 2 MB read
score: sorting: 142 groups of 142" ]
	progress_run out err score -q sex,age -H "$AH" --original "$ADULT" \
	    --workload-auto age "$ADULT"
	run phases err
	[ "${lines[0]}" = "score: reading --original: 30162 rows, 2 MB read" ]
	[ "${lines[1]}" = "score: reading: 30162 rows, 2 MB read" ]
}

@test "an error amid a phase begins a line of its own" {
	{ cat "$ADULT"; tail -n +2 "$ADULT"; tail -n +2 "$ADULT"
	  echo x; } > bad.tsv
	run --separate-stderr env KANON_PROGRESS_EVERY_UPDATE=1 \
	    freqset --progress -q sex bad.tsv
	[ "$status" -eq 2 ]
	[ "$stderr" = $'\r'"freqset: reading: 65536 rows, 5 MB read"$'\n'"freqset: bad.tsv:90488: expected 9 fields, found 1" ]
	{ cat "$ADULT"; tail -n +2 "$ADULT"; tail -n +2 "$ADULT"
	  printf 'Male\tx\tx\tx\tx\tx\tx\tx\tx\n'; } > bad.tsv
	run --separate-stderr env KANON_PROGRESS_EVERY_UPDATE=1 \
	    freqset --progress -q sex --sum age bad.tsv
	[ "$status" -eq 2 ]
	[ "$stderr" = $'\r'"freqset: reading: 65536 rows, 5 MB read"$'\n'"freqset: bad.tsv:90488: column 'age': 'x' is not a number" ]
}

@test "at the real pace: a phase of more than a second ends with its count" {
	# The table arrives in two parts, 1.2 s apart: the reading lasts
	# more than a second, but no update falls in it (one comes every
	# 65536 rows), and the phase still ends with its final count.
	run --separate-stderr bash -c "{ head -n 1000 '$ADULT'; sleep 1.2
	    tail -n +1001 '$ADULT'; } | freqset --progress -q sex"
	[ "$status" -eq 0 ]
	[ "$(printf '%s' "$stderr" | tr '\r' '\n' | sed 's/ *$//' | grep .)" = \
	    "freqset: reading: 30162 rows, 2 MB read" ]
	# A phase shorter than a second shows nothing.
	run --separate-stderr freqset --progress -q sex "$ADULT"
	[ "$status" -eq 0 ] && [ -z "$stderr" ]
}

@test "on a terminal, progress shows without --progress" {
	command -v script > /dev/null || skip "script(1) is not installed"
	KANON_PROGRESS_EVERY_UPDATE=1 script -qec \
	    "freqset -q sex '$ADULT' > /dev/null" /dev/null > tty.out
	tr '\r' '\n' < tty.out | grep -q '^freqset: reading: 30162 rows, 2 MB read'
	tr '\r' '\n' < tty.out | grep -q '^freqset: sorting: 2 groups of 2'
}
