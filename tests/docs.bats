#!/usr/bin/env bats
# Docs and packaging: man pages render without warnings, make install
# puts programs and pages where PREFIX and DESTDIR say, every program
# has a page and answers --version.

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
