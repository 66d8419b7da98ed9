# The setup shared by the benchmark scripts of bench/, sourced by each
# of them first:  . "$(dirname "$0")/common.sh"
# POSIX sh.  Sourcing it sets LC_ALL=C, status=0 and checks= (the
# script's exit status and its list of checks); the functions below set
# the variables they name, globally, and die (exit 2) on an error.
# Their own temporaries are named bench_*, so as not to clobber the
# caller's variables.  See bench/README.md.

# The variables set here are read by the scripts that source this file.
# shellcheck disable=SC2034

LC_ALL=C
export LC_ALL

status=0
checks=
# What bench_check appends for two equal files.
bench_ok=OK

# bench_die MESSAGE...: prints "bench: MESSAGE" on stderr and exits 2.
bench_die() {
	echo "bench: $*" >&2
	exit 2
}

# bench_root: sets root (the repository, physical path) and rootl (the
# same as the script found it, through any symbolic link), from $0.
bench_root() {
	root=$(cd "$(dirname "$0")/.." && pwd -P) ||
		bench_die "cannot find the repository"
	rootl=$(cd "$(dirname "$0")/.." && pwd -L)
}

# bench_need PROGRAM...: each PROGRAM must be built in $root.
bench_need() {
	for bench_p in "$@"; do
		[ -x "$root/$bench_p" ] ||
			bench_die "$root/$bench_p not built: run make first"
	done
}

# bench_need_gnu_time FORMAT: sets TIME to GNU time (/usr/bin/time) and
# bench_timefmt to FORMAT (as for time -f: '%U %S %e %M' is "user sys
# wall maxrssKB"), the figures that bench_timed writes; dies when GNU
# time is not there or does not take FORMAT.
bench_need_gnu_time() {
	TIME=/usr/bin/time
	bench_timefmt=$1
	[ -x "$TIME" ] ||
		bench_die "GNU time is needed at $TIME (package 'time'); it is not there"
	"$TIME" -f "$bench_timefmt" -o /dev/null true 2>/dev/null ||
		bench_die "$TIME is not GNU time (no -f/-o options)"
}

# bench_need_gnu_date: bench_best needs bash (its time keyword), and
# the scripts that time a step themselves date +%s%N (nanoseconds).
bench_need_gnu_date() {
	date +%s%N | grep -q '^[0-9]*$' ||
		bench_die "date +%s%N is needed (GNU date)"
	command -v bash > /dev/null 2>&1 || bench_die "bash is needed"
}

# bench_number NAME VALUE MIN [MAX [WHY]]: VALUE (of the variable NAME)
# must be a whole number from MIN to MAX (no upper bound when MAX is
# empty); WHY, if given, is added to the message of a number out of
# bounds.
bench_number() {
	case $2 in
	'' | *[!0-9]*) bench_die "$1 must be a number: '$2'" ;;
	esac
	[ "$2" -ge "$3" ] || bench_die "$1 must be at least $3${5:+ ($5)}"
	[ -z "$4" ] || [ "$2" -le "$4" ] ||
		bench_die "$1 must be at most $4${5:+ ($5)}"
}

# bench_inside_repo PATH: true when the absolute PATH lies in the
# repository (needs bench_root).
bench_inside_repo() {
	case $1/ in
	"$root"/* | "$rootl"/*) return 0 ;;
	esac
	return 1
}

# bench_dir: sets dir to BENCH_DIR (default ${TMPDIR:-/tmp}/kanon-bench),
# created if need be, as an absolute physical path; it must lie outside
# the repository, so that a benchmark never writes into it.
bench_dir() {
	dir=${BENCH_DIR:-${TMPDIR:-/tmp}/kanon-bench}
	case $dir in
	/*) ;;
	*) dir=$(pwd -L)/$dir ;;
	esac
	! bench_inside_repo "$dir" ||
		bench_die "BENCH_DIR $dir is inside the repository; choose another"
	mkdir -p "$dir" || bench_die "cannot create $dir"
	dir=$(cd "$dir" && pwd -P) || bench_die "cannot enter $dir"
	! bench_inside_repo "$dir" ||
		bench_die "BENCH_DIR $dir is inside the repository; choose another"
}

# bench_tmpdir NAME [PARENT]: sets tmp to a new directory NAME.XXXXXX in
# PARENT (default $dir, see bench_dir), removed on exit; a signal exits 2.
bench_tmpdir() {
	bench_parent=${2:-$dir}
	tmp=$(mktemp -d "$bench_parent/$1.XXXXXX") ||
		bench_die "cannot create a directory in $bench_parent"
	trap 'rm -rf "$tmp"' EXIT
	trap 'exit 2' HUP INT TERM
}

# bench_copy PROGRAM...: copies each PROGRAM of $root into $tmp/bin, so
# that a rebuild during the run cannot mix two versions (or catch a
# half-written binary).
bench_copy() {
	[ -d "$tmp/bin" ] || mkdir "$tmp/bin" ||
		bench_die "cannot create $tmp/bin"
	for bench_p in "$@"; do
		cp "$root/$bench_p" "$tmp/bin/" ||
			bench_die "cannot copy $root/$bench_p"
	done
}

# bench_gendata FILE ARG...: writes gendata ARG... to FILE, unless FILE
# exists (gendata -o is atomic, so a file that exists is complete).
bench_gendata() {
	bench_f=$1
	shift
	[ -f "$bench_f" ] || "$root/gendata" -o "$bench_f" "$@" ||
		bench_die "gendata $* failed"
}

# bench_uniform ROWS: the table of bench/run, bench/extsort.sh and
# bench/cluster.sh (gendata -n ROWS --seed 1 uniform -d 9 -c 100, in
# $dir, generated once per parameter set), read once so that the timed
# commands find it in the page cache.  Sets input (its path) and bytes
# (its size).
bench_uniform() {
	input=$dir/uniform-n$1-d9-c100-seed1.tsv
	if [ -f "$input" ]; then
		echo "reusing $input"
	else
		echo "generating $input ..."
	fi
	bench_gendata "$input" -n "$1" --seed 1 uniform -d 9 -c 100
	bytes=$(wc -c < "$input") || bench_die "cannot read $input"
	bytes=$((bytes + 0))
	cat "$input" > /dev/null
}

# bench_machine: sets ncpu (the processors online) and model (the CPU's
# name), each "unknown" when it cannot be found, for the table's header.
bench_machine() {
	ncpu=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null) ||
		ncpu=unknown
	model=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo \
	    2>/dev/null | sed 1q)
	[ -n "$model" ] || model=unknown
}

# bench_timed NAME COMMAND...: runs COMMAND under GNU time (see
# bench_need_gnu_time; its CPU figures cover every process it waits
# for); stdout goes to $tmp/NAME.out, stderr to $tmp/NAME.err, the
# figures (bench_timefmt) to $tmp/NAME.time.  A failure shows the stderr.
bench_timed() {
	bench_name=$1
	shift
	"$TIME" -f "$bench_timefmt" -o "$tmp/$bench_name.time" "$@" \
	    > "$tmp/$bench_name.out" 2> "$tmp/$bench_name.err" || {
		cat "$tmp/$bench_name.err" >&2
		bench_die "$bench_name failed: $*"
	}
	# GNU time puts a line "Command exited with ..." before the figures.
	tail -n 1 "$tmp/$bench_name.time" > "$tmp/$bench_name.t" &&
		mv "$tmp/$bench_name.t" "$tmp/$bench_name.time"
}

# bench_best RUNS MAXRC OUT COMMAND...: runs COMMAND RUNS times, stdout to
# OUT and stderr to OUT.err, and prints the best wall time in
# milliseconds; an exit status above MAXRC shows the stderr and is an
# error.  The clock is bash's time keyword (TIMEFORMAT %3R, see
# bench_need_gnu_date): it starts and stops in the shell that runs the
# command, where reading date +%s%N before and after it also counted
# the start of one date process, about 2 ms, a tenth of a run on
# Adult.  The previous run's OUT is removed before the clock starts:
# the shell's truncating a large file, its pages freed on one core, is
# not the command's time.
bench_best() {
	bash -c '
	n=$1 maxrc=$2 out=$3 best=
	shift 3
	TIMEFORMAT=%3R
	while [ "$n" -gt 0 ]; do
		rm -f "$out"
		{ time "$@" > "$out" 2> "$out.err"; } 2> "$out.time"
		rc=$?
		if [ "$rc" -gt "$maxrc" ]; then
			cat "$out.err" >&2
			exit 3
		fi
		read -r t < "$out.time"
		t=${t/./}
		t=$((10#$t))
		if [ -z "$best" ] || [ "$t" -lt "$best" ]; then
			best=$t
		fi
		n=$((n - 1))
	done
	echo "$best"' bench_best "$@" && return 0
	shift 3
	bench_cmd=$*
	bench_die "${1##*/}${bench_cmd#"$1"} failed"
}

# bench_jbest RUNS OUT PROG ARGS...: PROG -j 1 ARGS and PROG -j 2 ARGS
# (bench_best's way), alternated RUNS times, since the host's speed
# drifts and one block of runs after the other would bias their ratio;
# their outputs in OUT.1 and OUT.2; sets ms1 and ms2 to the best wall
# time of each.
bench_jbest() {
	jb_runs=$1
	jb_out=$2
	jb_prog=$3
	shift 3
	ms1=
	ms2=
	jb_r=0
	while [ "$jb_r" -lt "$jb_runs" ]; do
		for jb_j in 1 2; do
			jb_t=$(bench_best 1 0 "$jb_out.$jb_j" "$jb_prog" \
			    -j "$jb_j" "$@") || exit 2
			eval "jb_best=\$ms$jb_j"
			if [ -z "$jb_best" ] || [ "$jb_t" -lt "$jb_best" ]; then
				eval "ms$jb_j=\$jb_t"
			fi
		done
		jb_r=$((jb_r + 1))
	done
}

# bench_pass LABEL: records the check LABEL as passed (bench_ok).
bench_pass() {
	checks="$checks$1: $bench_ok
"
}

# bench_fail LABEL RESULT: records the check LABEL as failed with RESULT;
# the exit status becomes 1.
bench_fail() {
	checks="$checks$1: $2
"
	status=1
}

# bench_check LABEL A B: the check LABEL passes when the files A and B
# are the same byte for byte, and fails with MISMATCH otherwise.
bench_check() {
	if cmp -s "$2" "$3"; then
		bench_pass "$1"
	else
		bench_fail "$1" MISMATCH
	fi
}

# bench_clean FILE...: with BENCH_CLEAN=1, removes the temp directory,
# each FILE (the generated tables) and $dir when that leaves it empty.
bench_clean() {
	[ "${BENCH_CLEAN:-0}" = 1 ] || return 0
	rm -rf "$tmp"
	rm -f "$@"
	rmdir "$dir" 2>/dev/null
	return 0
}
