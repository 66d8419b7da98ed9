#!/usr/bin/env bats
# Docs and packaging: man pages render without warnings, make install
# puts programs and pages where PREFIX and DESTDIR say, every program
# has a page and answers --version; tests/run shows its progress.

load common

@test "every man page renders without warnings (groff -ww)" {
	for m in "$ROOT"/man/*.[17]; do
		run groff -ww -z -mandoc "$m"
		[ "$status" -eq 0 ]
		[ -z "$output" ] || { echo "$m: $output"; false; }
	done
}

@test "make install honours PREFIX and DESTDIR" {
	run make -C "$ROOT" -s install PREFIX=/opt/k DESTDIR="$BATS_TEST_TMPDIR/d"
	[ "$status" -eq 0 ]
	for p in freqset score gendata extsort lattice-search recode partition; do
		[ -x "$BATS_TEST_TMPDIR/d/opt/k/bin/$p" ]
		[ -f "$BATS_TEST_TMPDIR/d/opt/k/share/man/man1/$p.1" ]
		run "$BATS_TEST_TMPDIR/d/opt/k/bin/$p" --version
		[ "$status" -eq 0 ]
		[[ "$output" == "$p (kanon) "* ]]
	done
	[ -f "$BATS_TEST_TMPDIR/d/opt/k/share/man/man7/kanon.7" ]
}

@test "tests/run shows each test with a running count and its file, then the summary" {
	# A bats of its own: none of this one's variables, nor its
	# libexec directory in PATH; the sanitizers' options of make
	# sanitize kept.
	local path
	local -a keep=()
	path=$(printf '%s\n' "$PATH" | tr : '\n' | grep -v bats-core | paste -sd : -)
	[ -z "${ASAN_OPTIONS+x}" ] || keep+=("ASAN_OPTIONS=$ASAN_OPTIONS")
	[ -z "${UBSAN_OPTIONS+x}" ] || keep+=("UBSAN_OPTIONS=$UBSAN_OPTIONS")
	run env -i PATH="$path" HOME="$HOME" TMPDIR="${TMPDIR:-/tmp}" \
	    TEST_JOBS=1 "${keep[@]}" "$ROOT/tests/run" help.bats regress.bats
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	n=$(grep -c '^@test ' "$ROOT/tests/help.bats" "$ROOT/tests/regress.bats" |
	    awk -F: '{ s += $2 } END { print s }')
	[ "${lines[0]}" = "$n tests" ]
	[[ ${lines[1]} =~ ^help\.bats\ \([0-9]+\ s\)$ ]]
	[[ ${lines[2]} == "  [ 1/$n] ok "* ]]
	h=$(grep -c '^@test ' "$ROOT/tests/help.bats")
	[[ ${lines[h + 2]} =~ ^regress\.bats\ \([0-9]+\ s\)$ ]]
	[[ ${lines[h + 3]} =~ ^\ \ \[\ *$((h + 1))/$n\]\ ok\  ]]
	[ "${lines[${#lines[@]} - 1]}" = "$n passed, 0 failed" ]
}

@test "tests/run names bats and how to install it when it is missing" {
	cd "$BATS_TEST_TMPDIR"
	mkdir bin
	for t in sh dirname grep awk mktemp cat rm; do
		ln -s "$(command -v "$t")" "bin/$t"
	done
	run env PATH="$PWD/bin" sh "$ROOT/tests/run"
	[ "$status" -eq 2 ]
	[ "$output" = "tests/run: bats is not installed: the tests need bats-core (Debian, Ubuntu: apt-get install bats; elsewhere https://github.com/bats-core/bats-core)" ]
}

@test "what README's tour and the man pages' examples write is ignored by git" {
	git -C "$ROOT" rev-parse --is-inside-work-tree > /dev/null 2>&1 ||
	    skip "not a git work tree"
	cd "$BATS_TEST_TMPDIR"
	{
		grep '^    ' "$ROOT/README.md"
		for m in "$ROOT"/man/*.[17]; do
			awk -f "$ROOT/tests/examples.awk" "$m" | sed -n 's/^[Cc]	//p'
		done
	} | grep -oE '(>|-o|-r) +[A-Za-z0-9_.-]+' | awk '{ print $2 }' |
	    grep -v '^[0-9]*$' | sort -u > written
	# split's pieces.
	echo part.aa >> written
	[ "$(wc -l < written)" -gt 10 ] || { cat written; false; }
	while read -r f; do
		git -C "$ROOT" check-ignore -q "$f" ||
		    { echo "$f is not ignored (.gitignore)"; false; }
	done < written
}

@test "no test negates a command where bats would not see it fail: '! cmd' alone on a line ends with '|| false' (bats's ERR trap ignores '! cmd' unless it is a test's last command; 14 such checks asserted nothing)" {
	local bad
	bad=$(awk '
	FNR == 1 { prev = "" }
	/^[ \t]*! / && prev !~ /(\\|&&|\|\||\|)[ \t]*$/ && $0 !~ /\|\|/ &&
	    $0 !~ /then[ \t]*$/ { print FILENAME ":" FNR ": " $0 }
	{ prev = $0 }' "$ROOT"/tests/*.bats)
	[ -z "$bad" ] || { printf '%s\n' "$bad"; false; }
}
