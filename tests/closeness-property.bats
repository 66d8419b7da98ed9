#!/usr/bin/env bats
# t-closeness and several sensitive columns under stress: random tables
# and hierarchies (gen-fd.bash, gen-mondrian.bash) through lattice-search
# | recode -n and partition (memory, Rothko-T, Rothko-S) | recode -r
# with --closeness (each distance, random t), and lattice-search with
# two sensitive columns; every
# release checked by release-check.awk (t, dist, scol=s,s2), written
# apart from the programs, and by score --check.  A failure names the
# seed.

load common
load gen-fd
load gen-mondrian
load seeds

setup() {
	T=$BATS_TEST_TMPDIR
}

# tpick SEED: t and the distance of a case, and the hierarchy of s for
# the hierarchical one: each value under one of two groups by the parity
# of its digits, then '*'.
tpick() {
	local ts=(0.05 0.1 0.2 0.3 0.5 0.75 1 0)
	local ds=(equal ordered hierarchical)
	t=${ts[$(($1 % 8))]}
	d=${ds[$(($1 / 8 % 3))]}
	awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "s") c = i; next }
	    !($c in seen) { seen[$c]; g = ($c ~ /[13579]$/) ? "odd" : "even"
		print $c "\t" g "\t*" }' "$dir/t" > "$dir/h.s"
	sh=()
	[ "$d" != hierarchical ] || sh=(-H "s=$dir/h.s")
}

# tfdprop SEED: lattice-search with --closeness, the best and the last
# node recoded with the same requirement (star or drop), each release
# checked.
tfdprop() {
	local seed=$1 dir="$T/f$1" q k lim limn dv l c t d a st n i node hs
	local -a opt chk sh ropt
	mkdir -p "$dir"
	IFS=$'\t' read -r q k lim limn dv l c < <(fd_gencase "$seed" "$dir" any)
	tpick "$seed"
	opt=(-k "$k" -s s --closeness "$t" --distance "$d")
	hs=
	for a in ${q//,/ }; do
		opt+=(-H "$a=$dir/h.$a")
		hs+=${hs:+,}$a=$dir/h.$a
	done
	[ "$lim" = - ] || opt+=(--max-suppress "$lim")
	chk=(-v qi="$q" -v k="$k" -v id=x -v maxsupp="$limn" -v hier="$hs"
	    -v scol=s -v t="$t" -v dist="$d" -v shier="$dir/h.s")
	lattice-search --all -q "$q" "${opt[@]}" "${sh[@]}" "$dir/t" \
	    > "$dir/nodes" 2> "$dir/err"
	st=$?
	n=$(($(wc -l < "$dir/nodes") - 1))
	if [ "$st" -ne 0 ]; then
		[ "$st" -eq 1 ] && [ "$n" -eq 0 ] && return 0
		echo "seed $seed: lattice-search exit $st: $(cat "$dir/err")"
		return 1
	fi
	ropt=("${sh[@]}")
	fd_releases "$seed" "$dir" "$q" "1 $n" 1 tfdscore
}

# tfdscore NODE SUPPRESS: score measures against the release's rows (all
# of them when suppressed rows are starred) the closeness of tfdprop.
tfdscore() {
	[ "$2" = star ] || return 0
	score -q "$q" -s s --closeness "$t" --distance "$d" "${sh[@]}" \
	    --check "$dir/rel" > "$dir/sc" && return 0
	echo "seed $seed: score --check fails on recode -n $1 ${opt[*]}"
	cat "$dir/sc"
	return 1
}

# tmprop SEED: partition with --closeness (in memory, by Rothko-T or by
# Rothko-S, by the seed), recode -r, the release checked.
tmprop() {
	local seed=$1 dir="$T/m$1" q hl hm nl k rel dv l c vr sp st t d i
	local -a opt chk ropt sh
	mkdir -p "$dir"
	IFS=$'\t' read -r q hl hm nl k rel dv l c vr sp < <(gencase "$seed" "$dir")
	dv=-
	vr=-
	caseopts
	tpick "$seed"
	opt+=(-s s --closeness "$t" --distance "$d" "${sh[@]}")
	mkdir -p "$dir/tmp"
	case $((seed % 3)) in
	1)	[ "$rel" != 0 ] || opt+=(-a rothko-t -S 64M --fit-rows \
		    $((seed % 30 + 5)) -T "$dir/tmp") ;;
	2)	[ "$rel" != 0 ] || opt+=(-a rothko-s -S 64M --fit-rows \
		    $((seed % 30 + 5)) --sample $((seed % 50 + 10)) --seed "$seed" \
		    -T "$dir/tmp") ;;
	esac
	partition "${opt[@]}" -r "$dir/r" "$dir/t" > "$dir/p" 2> "$dir/err"
	st=$?
	if [ "$st" -ne 0 ]; then
		[ "$st" -eq 1 ] && grep -q 'no partitioning' "$dir/err" && return 0
		echo "seed $seed: partition ${opt[*]}: exit $st: $(cat "$dir/err")"
		return 1
	fi
	ropt=()
	for ((i = 0; i < ${#opt[@]}; i++)); do
		[ "${opt[i]}" != -H ] || [[ "${opt[i + 1]}" == s=* ]] ||
		    ropt+=(-H "${opt[i + 1]}")
	done
	if ! recode -r "$dir/r" "${ropt[@]}" "$dir/p" > "$dir/rel" 2> "$dir/err"; then
		echo "seed $seed: partition ${opt[*]} | recode -r: $(cat "$dir/err")"
		return 1
	fi
	chk+=(-v id=x -v ranges=1 -v maxsupp=$(($(wc -l < "$dir/t") - 1))
	    -v scol=s -v t="$t" -v dist="$d" -v shier="$dir/h.s")
	if ! awk -f "$BATS_TEST_DIRNAME/release-check.awk" "${chk[@]}" \
	    "$dir/t" "$dir/rel" > "$dir/chk"; then
		echo "seed $seed: partition ${opt[*]} | recode -r"
		cat "$dir/chk"
		return 1
	fi
}

# s2prop SEED: two sensitive columns (s and s2, a function of s and the
# row) through lattice-search with -l or --closeness and the case's
# suppression limit, the best node recoded with the same requirement
# (star or drop), checked for both columns.
s2prop() {
	local seed=$1 dir="$T/f$1" q k lim limn dv l c t d a st n hs drop=0
	local -a opt chk req rchk sh
	mkdir -p "$dir"
	IFS=$'\t' read -r q k lim limn dv l c < <(fd_gencase "$seed" "$dir" any)
	awk -F '\t' -v OFS='\t' -v seed="$seed" 'BEGIN { srand(seed) }
	    NR == 1 { print $0, "s2"; next }
	    { print $0, "v" int(3 * rand() * rand()) }' "$dir/t" > "$dir/t2"
	mv "$dir/t2" "$dir/t"
	if [ $((seed % 2)) -eq 0 ]; then
		req=(-l 2)
		rchk=(-v l=2)
	else
		t=$(echo 0.2 0.3 0.5 | cut -d ' ' -f $((seed % 3 + 1)))
		req=(--closeness "$t")
		rchk=(-v t="$t")
	fi
	opt=(-k "$k" -s s,s2 "${req[@]}")
	hs=
	for a in ${q//,/ }; do
		opt+=(-H "$a=$dir/h.$a")
		hs+=${hs:+,}$a=$dir/h.$a
	done
	[ "$lim" = - ] || opt+=(--max-suppress "$lim")
	lattice-search --best -q "$q" "${opt[@]}" "$dir/t" > "$dir/nodes" \
	    2> "$dir/err"
	st=$?
	n=$(($(wc -l < "$dir/nodes") - 1))
	if [ "$st" -ne 0 ]; then
		[ "$st" -eq 1 ] && [ "$n" -eq 0 ] && return 0
		echo "seed $seed: lattice-search exit $st: $(cat "$dir/err")"
		return 1
	fi
	a=star
	[ $((seed % 4)) -lt 2 ] || a=drop
	if ! recode -n "$dir/nodes" "${opt[@]}" --suppress "$a" "$dir/t" \
	    > "$dir/rel" 2> "$dir/err"; then
		if [ "$a" = star ] &&
		    grep -q -e "labelled '\*' in every attribute" \
			    -e 'suppressed rows\{0,1\}, starred, would' "$dir/err"; then
			a=drop
			recode -n "$dir/nodes" "${opt[@]}" --suppress drop \
			    "$dir/t" > "$dir/rel" 2> "$dir/err"
		else
			false
		fi || {
			echo "seed $seed: recode -n ${opt[*]}: $(cat "$dir/err")"
			return 1
		}
	fi
	[ "$a" = star ] || drop=1
	chk=(-v qi="$q" -v k="$k" -v id=x -v hier="$hs" -v scol=s,s2
	    -v maxsupp="$limn" -v drop="$drop" "${rchk[@]}")
	if ! awk -f "$BATS_TEST_DIRNAME/release-check.awk" "${chk[@]}" \
	    "$dir/t" "$dir/rel" > "$dir/chk"; then
		echo "seed $seed: lattice-search | recode -n ${opt[*]} --suppress $a"
		cat "$dir/chk"
		return 1
	fi
	[ "$a" = drop ] ||
	    score -q "$q" -s s,s2 "${req[@]}" --check "$dir/rel" > "$dir/sc" || {
		echo "seed $seed: score -s s,s2 ${req[*]} --check fails"
		cat "$dir/sc"
		return 1
	}
}

# s2mprop SEED: two sensitive columns through partition (in memory, by
# Rothko-T or by Rothko-S): for half the seeds partition -s s,s2 and
# recode -r; for the others partition guarantees s only and recode -r
# -s s,s2 suppresses the classes that fail in s2; the release is checked
# for both columns.
s2mprop() {
	local seed=$1 dir="$T/m$1" q hl hm nl k rel dv l c vr sp st t d i s
	local -a opt chk ropt req rchk sh
	mkdir -p "$dir"
	IFS=$'\t' read -r q hl hm nl k rel dv l c vr sp < <(gencase "$seed" "$dir")
	dv=-
	vr=-
	caseopts
	awk -F '\t' -v OFS='\t' -v seed="$seed" 'BEGIN { srand(seed) }
	    NR == 1 { print $0, "s2"; next }
	    { print $0, "v" int(3 * rand() * rand()) }' "$dir/t" > "$dir/t2"
	mv "$dir/t2" "$dir/t"
	if [ $((seed % 2)) -eq 0 ]; then
		req=(-l 2)
		rchk=(-v l=2)
	else
		t=$(echo 0.2 0.3 0.5 | cut -d ' ' -f $((seed % 3 + 1)))
		req=(--closeness "$t")
		rchk=(-v t="$t")
	fi
	mkdir -p "$dir/tmp"
	case $((seed % 3)) in
	1)	[ "$rel" != 0 ] || opt+=(-a rothko-t -S 64M --fit-rows \
		    $((seed % 30 + 5)) -T "$dir/tmp") ;;
	2)	[ "$rel" != 0 ] || opt+=(-a rothko-s -S 64M --fit-rows \
		    $((seed % 30 + 5)) --sample $((seed % 50 + 10)) --seed "$seed" \
		    -T "$dir/tmp") ;;
	esac
	s=s
	[ $((seed % 4)) -lt 2 ] || s=s,s2
	partition "${opt[@]}" -s "$s" "${req[@]}" -r "$dir/r" "$dir/t" > "$dir/p" \
	    2> "$dir/err"
	st=$?
	if [ "$st" -ne 0 ]; then
		[ "$st" -eq 1 ] && grep -q 'no partitioning' "$dir/err" && return 0
		echo "seed $seed: partition ${opt[*]}: exit $st: $(cat "$dir/err")"
		return 1
	fi
	ropt=(-k "$k" -s s,s2 "${req[@]}" --max-suppress 100% --suppress drop)
	for ((i = 0; i < ${#opt[@]}; i++)); do
		[ "${opt[i]}" != -H ] || ropt+=(-H "${opt[i + 1]}")
	done
	if ! recode -r "$dir/r" "${ropt[@]}" "$dir/p" > "$dir/rel" 2> "$dir/err"; then
		echo "seed $seed: partition | recode -r ${ropt[*]}: $(cat "$dir/err")"
		return 1
	fi
	chk+=(-v id=x -v ranges=1 -v drop=1 -v maxsupp=$(($(wc -l < "$dir/t") - 1))
	    -v scol=s,s2 "${rchk[@]}")
	if ! awk -f "$BATS_TEST_DIRNAME/release-check.awk" "${chk[@]}" \
	    "$dir/t" "$dir/rel" > "$dir/chk"; then
		echo "seed $seed: partition ${opt[*]} | recode -r ${ropt[*]}"
		cat "$dir/chk"
		return 1
	fi
}

# s2vprop SEED: two numeric sensitive columns (s and s2) with
# --variance, and for some seeds -l 2 too, through partition -s s,s2 (in
# memory, by Rothko-T or by Rothko-S) and recode -r; the release is
# checked for the variance of both columns.
s2vprop() {
	local seed=$1 dir="$T/v$1" q hl hm nl k rel dv l c vr sp st i v
	local -a opt chk ropt req rchk
	mkdir -p "$dir"
	IFS=$'\t' read -r q hl hm nl k rel dv l c vr sp < <(gencase "$seed" "$dir")
	dv=-
	vr=-
	caseopts
	awk -F '\t' -v OFS='\t' -v seed="$seed" 'BEGIN { srand(seed) }
	    NR == 1 { print $0, "s2"; next }
	    { print $0, int(6 * rand() * rand()) (rand() < 0.2 ? ".25" : "") }' \
	    "$dir/t" > "$dir/t2"
	mv "$dir/t2" "$dir/t"
	v=$(echo 0 0.1 0.25 0.5 1 2 | cut -d ' ' -f $((seed % 6 + 1)))
	req=(--variance "$v")
	rchk=(-v var="$v")
	if [ $((seed % 4)) -eq 3 ]; then
		req+=(-l 2)
		rchk+=(-v l=2)
	fi
	mkdir -p "$dir/tmp"
	case $((seed % 3)) in
	1)	[ "$rel" != 0 ] || opt+=(-a rothko-t -S 64M --fit-rows \
		    $((seed % 30 + 5)) -T "$dir/tmp") ;;
	2)	[ "$rel" != 0 ] || opt+=(-a rothko-s -S 64M --fit-rows \
		    $((seed % 30 + 5)) --sample $((seed % 50 + 10)) --seed "$seed" \
		    -T "$dir/tmp") ;;
	esac
	partition "${opt[@]}" -s s,s2 "${req[@]}" -r "$dir/r" "$dir/t" \
	    > "$dir/p" 2> "$dir/err"
	st=$?
	if [ "$st" -ne 0 ]; then
		[ "$st" -eq 1 ] && grep -q 'no partitioning' "$dir/err" && return 0
		echo "seed $seed: partition ${opt[*]} -s s,s2 ${req[*]}: exit $st: $(cat "$dir/err")"
		return 1
	fi
	ropt=()
	for ((i = 0; i < ${#opt[@]}; i++)); do
		[ "${opt[i]}" != -H ] || ropt+=(-H "${opt[i + 1]}")
	done
	if ! recode -r "$dir/r" "${ropt[@]}" "$dir/p" > "$dir/rel" 2> "$dir/err"; then
		echo "seed $seed: partition | recode -r: $(cat "$dir/err")"
		return 1
	fi
	chk+=(-v id=x -v ranges=1 -v maxsupp=0 -v scol=s,s2 "${rchk[@]}")
	if ! awk -f "$BATS_TEST_DIRNAME/release-check.awk" "${chk[@]}" \
	    "$dir/t" "$dir/rel" > "$dir/chk"; then
		echo "seed $seed: partition ${opt[*]} -s s,s2 ${req[*]} | recode -r"
		cat "$dir/chk"
		return 1
	fi
}

# tpropseeds CASE FIRST LAST: CASE for each seed, on two cores.
tpropseeds() {
	seedsplit "$@" fd_gencase fd_releases gencase caseopts tpick tfdprop \
	    tfdscore tmprop s2prop s2mprop s2vprop
}

@test "t-closeness on random tables: lattice-search | recode -n (each distance, random t, star and drop)" {
	tpropseeds tfdprop 1 100
}

@test "t-closeness on random tables: partition (memory, Rothko-T, Rothko-S) | recode -r (each distance, random t)" {
	tpropseeds tmprop 1 100
}

@test "two sensitive columns on random tables: lattice-search -s s,s2 (-l or --closeness, limits) | recode -n, both columns checked" {
	tpropseeds s2prop 1 100
}

@test "two sensitive columns on random tables: partition -s s,s2 (memory, Rothko-T, Rothko-S), or -s s | recode -r -s s,s2 suppressing what fails in s2" {
	tpropseeds s2mprop 1 100
}

@test "two numeric sensitive columns on random tables: partition -s s,s2 --variance (memory, Rothko-T, Rothko-S; -l 2 for some) | recode -r, the variance of both checked" {
	tpropseeds s2vprop 1 90
}
