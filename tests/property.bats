#!/usr/bin/env bats
# The privacy invariant under stress: random tables (skewed, duplicated,
# tiny, with one-row classes) and hierarchies, every algorithm and most
# option combinations, and every release checked by release-check.awk,
# an awk checker written apart from score(1): k, l-diversity and
# variance diversity of the classes an adversary sees, suppression
# within its limit, rows kept (or counted as suppressed), the other
# columns unchanged, and the quasi-identifiers true to the originals.
# And what recode releases by, wrong on purpose: stale, shuffled and
# partial frequency sets (--classes) and foreign regions (-r) never give
# a release below k with exit 0, whole or by splits (--part) closed by
# score --check.
#
# A failure names the seed; fd_gencase SEED DIR any (gen-fd.bash) or
# gencase SEED DIR (gen-mondrian.bash) rebuilds the case.

load common
load gen-fd
load gen-mondrian
load seeds

setup() {
	T=$BATS_TEST_TMPDIR
}

# fdprop SEED: the full-domain path.  lattice-search (one of its
# algorithms, by the seed) lists the qualifying nodes; the best, one
# more and the last are recoded by recode -n, with star or drop, and
# each release is checked.  No qualifying node: lattice-search exits 1.
fdprop() {
	local seed=$1 dir="$T/f$1" q k lim limn dv l c alg hs a st n i node
	local -a opt chk algs=(incognito super-roots cube samarati bfs bfs-scan)
	mkdir -p "$dir"
	IFS=$'\t' read -r q k lim limn dv l c < <(fd_gencase "$seed" "$dir" any)
	opt=(-k "$k")
	hs=
	for a in ${q//,/ }; do
		opt+=(-H "$a=$dir/h.$a")
		hs+=${hs:+,}$a=$dir/h.$a
	done
	[ "$lim" = - ] || opt+=(--max-suppress "$lim")
	chk=(-v qi="$q" -v k="$k" -v id=x -v maxsupp="$limn" -v hier="$hs")
	if [ "$dv" != - ]; then
		opt+=(-s s -l "$l")
		chk+=(-v scol=s -v l="$l")
		[ "$dv" = default ] || { opt+=(--diversity "$dv"); chk+=(-v div="$dv"); }
		[ "$c" = - ] || { opt+=(-c "$c"); chk+=(-v c="$c"); }
	fi
	alg=${algs[seed % 6]}
	lattice-search -a "$alg" --all -q "$q" "${opt[@]}" "$dir/t" \
	    > "$dir/nodes" 2> "$dir/err"
	st=$?
	n=$(($(wc -l < "$dir/nodes") - 1))
	if [ "$st" -ne 0 ]; then
		[ "$st" -eq 1 ] && [ "$n" -eq 0 ] && return 0
		echo "seed $seed: lattice-search -a $alg exit $st: $(cat "$dir/err")"
		return 1
	fi
	fd_releases "$seed" "$dir" "$q" "1 $((seed % n + 1)) $n" 0 -
}

# partrun REGIONS: partition with the case's options opt, the table in
# $dir/p and the regions in REGIONS; 0, or 3 when no partitioning meets
# the requirements (no case), or 1 with a message.
partrun() {
	local st
	partition "${opt[@]}" -r "$1" "$dir/t" > "$dir/p" 2> "$dir/err"
	st=$?
	[ "$st" -ne 0 ] || return 0
	[ "$st" -eq 1 ] && grep -q 'no partitioning' "$dir/err" && return 3
	echo "seed $seed: partition ${opt[*]}: exit $st: $(cat "$dir/err")"
	return 1
}

# mprop SEED: the Mondrian path.  partition, in memory, by Rothko-T or
# by Rothko-S (by the seed; relaxed in memory or by Rothko-T), then
# recode -r with a random summary, sometimes with a larger -k and
# suppression, and the release checked.
mprop() {
	local seed=$1 dir="$T/m$1" q hl hm nl k rel dv l c vr sp st sum kk i
	local drop=0 supp=0 a
	local -a opt chk ropt
	mkdir -p "$dir/tmp"
	IFS=$'\t' read -r q hl hm nl k rel dv l c vr sp < <(gencase "$seed" "$dir")
	caseopts
	case $((seed % 3)) in
	1)	if [ "$rel" = 0 ] || { [ "$dv" = - ] && [ "$vr" = - ] &&
		    [ "$sp" = median ]; }; then
			opt+=(-a rothko-t -S 64M --fit-rows $((seed % 30 + 5)) \
			    -T "$dir/tmp")
		fi ;;
	2)	[ "$rel" = 0 ] && opt+=(-a rothko-s -S 64M --fit-rows \
		    $((seed % 30 + 5)) --sample $((seed % 50 + 10)) --seed "$seed" \
		    -T "$dir/tmp") ;;
	esac
	partrun "$dir/r"
	st=$?
	[ "$st" -ne 3 ] || return 0
	[ "$st" -eq 0 ] || return 1
	sum=$(echo range mean both | cut -d ' ' -f $((seed % 3 + 1)))
	# recode checks each row against its region: with partition's
	# hierarchies.
	ropt=(--summary "$sum")
	for ((i = 0; i < ${#opt[@]}; i++)); do
		[ "${opt[i]}" != -H ] || ropt+=(-H "${opt[i + 1]}")
	done
	kk=$k
	# recode -r suppresses nothing unless -k asks for more; rows whose
	# hierarchy nodes are all '*' are not suppressed but look so.
	supp=$(($(wc -l < "$dir/t") - 1))
	if [ $((seed % 4)) -eq 0 ]; then
		kk=$((k + seed % 5 + 1))
		ropt+=(-k "$kk" --max-suppress 100%)
		a=star
		# Starred rows show the sensitive values that partition's -l
		# or --variance judged in their classes, and recode -r is not
		# given these: dropped then.
		[ $((seed % 8)) -eq 0 ] && [ "$dv" = - ] && [ "$vr" = - ] ||
		    { a=drop; drop=1; }
		ropt+=(--suppress "$a")
	fi
	if ! recode_sd "$dir/err" -r "$dir/r" "${ropt[@]}" "$dir/p" > "$dir/rel"; then
		echo "seed $seed: partition ${opt[*]} | recode -r ${ropt[*]}: $(cat "$dir/err")"
		return 1
	fi
	[ "$REPLY" != drop ] || drop=1
	chk=(-v qi="$q" -v k="$kk" -v id=x -v maxsupp="$supp" -v drop="$drop"
	    -v ranges=1)
	[ "$hl" = - ] || chk+=(-v hier="$hl")
	[ "$sum" != mean ] || chk+=(-v means=1)
	if [ "$dv" != - ] || [ "$vr" != - ]; then
		chk+=(-v scol=s)
	fi
	if [ "$dv" != - ]; then
		chk+=(-v l="$l")
		[ "$dv" = default ] || chk+=(-v div="$dv")
		[ "$c" = - ] || chk+=(-v c="$c")
	fi
	[ "$vr" = - ] || chk+=(-v var="$vr")
	if ! awk -f "$BATS_TEST_DIRNAME/release-check.awk" "${chk[@]}" \
	    "$dir/t" "$dir/rel" > "$dir/chk"; then
		echo "seed $seed: partition ${opt[*]} | recode -r ${ropt[*]}"
		cat "$dir/chk"
		return 1
	fi
	[ -z "$(ls "$dir/tmp")" ] ||
	    { echo "seed $seed: temp files left: $(ls "$dir/tmp")"; return 1; }
}

# ---- what recode releases by: stale counts, foreign regions ----------

# relcheck WHAT RELEASE ARGS...: release-check.awk on $dir/t and RELEASE
# with ARGS; on failure prints WHAT and the failures.
relcheck() {
	local what=$1 rel=$2
	shift 2
	awk -f "$BATS_TEST_DIRNAME/release-check.awk" "$@" "$dir/t" "$rel" \
	    > "$dir/chk" && return 0
	echo "seed $seed: $what: a release that fails release-check"
	cat "$dir/chk"
	return 1
}

# splitrun OUT COLS TABLE ARGS...: recode ARGS --part on three splits of
# TABLE (headerless, --columns-file), the outputs put together in OUT
# after the header line COLS; 0 if every split exits 0, 1 if one fails
# (its message in $dir/err), 2 if the splits cannot be made.
#
# The splits of a table are made once: a case's table does not change
# between its runs, and its path (under the seed's directory) names it.
splitrun() {
	local out=$1 cols=$2 table=$3 p
	shift 3
	if [ "${split_of:-}" != "$table" ]; then
		rm -f "$dir"/sp.*
		tail -n +2 "$table" > "$dir/body"
		split -n l/3 "$dir/body" "$dir/sp." || return 2
		IFS= read -r p < "$table"
		printf '%s\n' "${p//$'\t'/$'\n'}" > "$dir/cols"
		split_of=$table
	fi
	{
		[ -z "$cols" ] || printf '%s\n' "${cols//,/$'\t'}"
		for p in "$dir"/sp.*; do
			recode "$@" --part --columns-file "$dir/cols" "$p" \
			    2> "$dir/err" || return 1
		done
	} > "$out"
}

# trust V OK TABLE ARGS...: recode ARGS TABLE (with the arrays wx more
# for the whole table), by the counts or regions of variant V, whole and
# by three splits (--part).  A whole run that exits 0 must give a release
# that release-check passes (chk); a release put together from splits
# that all exit 0 and that fails release-check must fail score (sc).
# Variant right must pass, unless refused with a message matching OK.
trust() {
	local v=$1 ok=$2 table=$3 st hdr
	local starred='suppressed rows\{0,1\}, starred, would'
	shift 3
	recode "$@" "${wx[@]}" "$table" > "$dir/rel" 2> "$dir/err"
	st=$?
	if [ "$st" -eq 0 ]; then
		relcheck "recode $* ${wx[*]}" "$dir/rel" "${chk[@]}" || return 1
	elif [ "$st" -eq 1 ] && grep -q "$starred" "$dir/err"; then
		:	# the suppressed rows may not be starred: no release
	elif [ "$st" -ne 2 ] || [ ! -s "$dir/err" ] || { [ "$v" = right ] &&
	    ! { [ -n "$ok" ] && grep -q "$ok" "$dir/err"; }; }; then
		echo "seed $seed: recode $* ${wx[*]}: exit $st: $(cat "$dir/err")"
		return 1
	fi
	IFS= read -r hdr < "$dir/t"
	splitrun "$dir/rel" "${hdr//$'\t'/,}" "$table" "$@"
	st=$?
	[ "$st" -ne 1 ] || ! grep -q "$starred" "$dir/err" || return 0
	if [ "$st" -ne 0 ] && { [ "$st" -ne 1 ] || { [ "$v" = right ] &&
	    ! { [ -n "$ok" ] && grep -q "$ok" "$dir/err"; }; }; }; then
		echo "seed $seed: recode $* --part: $(cat "$dir/err")"
		return 1
	fi
	[ "$st" -eq 0 ] || return 0
	# Every split passed: a release that fails release-check must fail
	# the check that closes the job.
	relcheck "recode $* --part" "$dir/rel" "${chk[@]}" > "$dir/why" &&
	    return 0
	score "${sc[@]}" "$dir/rel" > /dev/null 2>&1
	st=$?
	[ "$st" -eq 1 ] && [ "$v" != right ] && return 0
	# The right counts too: the starred rows of all splits, below k
	# together, which no split can tell (recode(1), --suppress).
	[ "$st" -eq 1 ] && ! grep '^release-check:' "$dir/why" |
	    grep -qv 'class [|*]*: [0-9]* rows, k = ' && return 0
	echo "seed $seed: recode $* --part: score ${sc[*]}: exit $st"
	cat "$dir/why"
	return 1
}

# fdtrust SEED: a random table (gen-fd.bash) recoded to a random node by
# --classes with the right frequency set and with stale ones: rows
# missing (the table grew), rows twice (it shrank), counts shuffled
# among the groups, a class counted larger, a group missing, the first
# half of the table only.  A whole-table run that exits 0 must give a
# release that release-check passes, and the right set must pass; the
# same by three splits (--part), where a stale set may pass every
# split, but then score --check of the merged release must fail if the
# release does.
fdtrust() {
	local seed=$1 dir="$T/f$1" q k lim limn dv l c a nl node hs keys v n
	local -a opt chk sc wx=()
	mkdir -p "$dir"
	IFS=$'\t' read -r q k lim limn dv l c < <(fd_gencase "$seed" "$dir" any)
	n=$(($(wc -l < "$dir/t") - 1))
	opt=(-k "$k")
	chk=(-v qi="$q" -v k="$k" -v id=x -v maxsupp="$n")
	sc=(--check -k "$k" -q "$q")
	node= hs=
	for a in ${q//,/ }; do
		opt+=(-H "$a=$dir/h.$a")
		hs+=${hs:+,}$a=$dir/h.$a
		nl=$(awk -F '\t' '{ print NF; exit }' "$dir/h.$a")
		node+=${node:+,}$a=$(((seed + ${#node}) % nl))
	done
	chk+=(-v hier="$hs")
	keys=$q
	if [ "$dv" != - ]; then
		opt+=(-s s -l "$l")
		chk+=(-v scol=s -v l="$l")
		sc+=(-s s -l "$l")
		keys=$q,s
		[ "$dv" = default ] ||
		    { opt+=(--diversity "$dv"); chk+=(-v div="$dv"); sc+=(--diversity "$dv"); }
		[ "$c" = - ] || { opt+=(-c "$c"); chk+=(-v c="$c"); sc+=(-c "$c"); }
	fi
	opt+=(-n "$node")
	freqset -q "$keys" "$dir/t" > "$dir/fs.right"
	awk -v s="$seed" 'NR == 1 || (NR * 7 + s) % 5' "$dir/t" |
	    freqset -q "$keys" > "$dir/fs.more"
	awk -v s="$seed" '{ print } NR > 1 && (NR + s) % 4 == 0' "$dir/t" |
	    freqset -q "$keys" > "$dir/fs.fewer"
	awk -F '\t' -v OFS='\t' 'NR == 1 { print; next }
	    { line[NR] = $0; cnt[NR] = $NF }
	    END { for (i = 2; i <= NR; i++) { $0 = line[i]
		$NF = cnt[i == NR ? 2 : i + 1]; print } }' \
	    "$dir/fs.right" > "$dir/fs.shuffled"
	awk -F '\t' -v OFS='\t' -v k="$k" 'NR == 2 { $NF += k } { print }' \
	    "$dir/fs.right" > "$dir/fs.larger"
	awk -v s="$seed" 'NR == 1 || NR != 2 + s % 3' "$dir/fs.right" \
	    > "$dir/fs.missing"
	head -n $((n / 2 + 1)) "$dir/t" | freqset -q "$keys" > "$dir/fs.partial"
	for v in right more fewer shuffled larger missing partial; do
		trust "$v" "labelled '\*' in every attribute" "$dir/t" \
		    --classes "$dir/fs.$v" "${opt[@]}" || return 1
	done
}

# mtrust SEED: a random table (gen-mondrian.bash) partitioned in memory,
# then recode -r with its regions and with foreign ones: the QIs of the
# classes of equal counts rotated among them, a numeric range narrowed
# to its maximum, the counts of two classes swapped, the regions of a
# partition with a larger k, and of the table with its numeric values
# shifted.  A run that exits 0 must give a release that release-check
# passes (k, l, variance, and every range and node true to the row);
# the right regions must pass.  By three splits (--part), a release
# that fails release-check must fail score --check.
mtrust() {
	local seed=$1 dir="$T/m$1" q hl hm nl k rel dv l c vr sp st i v n
	local -a opt chk ropt wx sc big
	mkdir -p "$dir"
	IFS=$'\t' read -r q hl hm nl k rel dv l c vr sp < <(gencase "$seed" "$dir")
	caseopts
	partrun "$dir/r.right"
	st=$?
	[ "$st" -ne 3 ] || return 0
	[ "$st" -eq 0 ] || return 1
	n=$(($(wc -l < "$dir/t") - 1))
	ropt=(--summary range)
	sc=(--check -k "$k" -q "$q")
	big=("${opt[@]}")
	for ((i = 0; i < ${#opt[@]}; i++)); do
		case ${opt[i]} in
		-H) ropt+=(-H "${opt[i + 1]}") ;;
		-k) big[i + 1]=$((k + 1)) ;;
		-s | -l | -c | --diversity | --variance) sc+=("${opt[i]}" "${opt[i + 1]}") ;;
		esac
	done
	# Odd seeds: the whole table in two passes, with -k.
	wx=()
	[ $((seed % 2)) -eq 0 ] || wx=(-k "$k")
	chk+=(-v id=x -v maxsupp="$n" -v ranges=1)
	# The QIs (fields 3 on) rotated among the classes of equal counts.
	awk -F '\t' -v OFS='\t' 'NR == 1 { print; next }
	    { line[NR] = $0; cnt[NR] = $2; qi[NR] = substr($0, length($1 "\t" $2 "\t") + 1)
	      nxt[NR] = 0; if ($2 in last) nxt[last[$2]] = NR; else first[$2] = NR; last[$2] = NR }
	    END { for (i = 2; i <= NR; i++) { j = nxt[i] ? nxt[i] : first[cnt[i]]
		split(line[i], f, "\t"); print f[1], f[2], qi[j] } }' \
	    "$dir/r.right" > "$dir/r.rot"
	# A numeric range narrowed to its maximum (min, mean := max).
	awk -F '\t' -v OFS='\t' 'NR == 1 { for (i = 3; i + 2 <= NF; i++)
		if ($i ~ /_min$/ && $(i + 2) ~ /_mean$/) num[i] = 1; print; next }
	    !done { for (i in num) if ($i != $(i + 1)) { $i = $(i + 1)
		$(i + 2) = $(i + 1); done = 1; break } } { print }' \
	    "$dir/r.right" > "$dir/r.narrow"
	# The counts of the first two classes of different counts swapped.
	awk -F '\t' -v OFS='\t' 'NR == 1 { print; next } { line[NR] = $0; cnt[NR] = $2 }
	    END { for (i = 3; i <= NR && cnt[i] == cnt[2]; i++) ;
		for (j = 2; j <= NR; j++) { $0 = line[j]
		    if (i <= NR && j == 2) $2 = cnt[i]
		    else if (i <= NR && j == i) $2 = cnt[2]
		    print } }' "$dir/r.right" > "$dir/r.counts"
	partition "${big[@]}" -r "$dir/r.bigger" "$dir/t" \
	    > /dev/null 2>&1 || cp "$dir/r.rot" "$dir/r.bigger"
	awk -F '\t' -v OFS='\t' 'NR == 1 { print; next }
	    { for (i = 1; i <= NF; i++) if ($i ~ /^-?[0-9]+$/ && $i != "") $i += 1; print }' \
	    "$dir/t" > "$dir/t.shifted"
	partition "${opt[@]}" -r "$dir/r.shifted" "$dir/t.shifted" \
	    > /dev/null 2>&1 || cp "$dir/r.rot" "$dir/r.shifted"
	for v in right rot narrow counts bigger shifted; do
		trust "$v" "" "$dir/p" -r "$dir/r.$v" "${ropt[@]}" || return 1
	done
}

# propseeds CASE FIRST LAST: CASE for each seed, on two cores.
propseeds() {
	seedsplit "$@" fd_gencase fd_releases gencase caseopts fdprop mprop \
	    fdtrust mtrust relcheck splitrun trust partrun
}

@test "release-check.awk catches what it should (a class below k, an l-diversity, a changed column, too many suppressed, an untrue value)" {
	printf 'q\ts\tx\n1\ta\tr1\n1\tb\tr2\n2\ta\tr3\n2\ta\tr4\n' > "$T/o"
	local ck="$BATS_TEST_DIRNAME/release-check.awk"
	printf 'q\ts\tx\n[1-2]\ta\tr1\n[1-2]\tb\tr2\n[1-2]\ta\tr3\n[1-2]\ta\tr4\n' > "$T/r"
	awk -f "$ck" -v qi=q -v k=4 -v id=x -v ranges=1 -v scol=s -v l=2 "$T/o" "$T/r"
	run awk -f "$ck" -v qi=q -v k=5 -v id=x -v ranges=1 "$T/o" "$T/r"
	[ "$status" -eq 1 ] && [[ "$output" == *"4 rows, k = 5"* ]]
	run awk -f "$ck" -v qi=q -v k=2 -v id=x "$T/o" "$T/o"
	[ "$status" -eq 0 ]
	run awk -f "$ck" -v qi=q -v k=2 -v id=x -v scol=s -v l=2 "$T/o" "$T/o"
	[ "$status" -eq 1 ] && [[ "$output" == *"not distinct 2-diverse"* ]]
	run awk -f "$ck" -v qi=q -v k=2 -v id=x -v scol=s -v l=2 -v div=entropy "$T/o" "$T/r"
	[ "$status" -eq 1 ] && [[ "$output" == *"not entropy 2-diverse"* ]]
	sed 's/^\[1-2\]\tb/[1-2]\tc/' "$T/r" > "$T/r2"
	run awk -f "$ck" -v qi=q -v k=1 -v id=x -v ranges=1 "$T/o" "$T/r2"
	[ "$status" -eq 1 ] && [[ "$output" == *"column s: 'c', original 'b'"* ]]
	printf 'q\ts\tx\n*\ta\tr1\n*\tb\tr2\n2\ta\tr3\n2\ta\tr4\n' > "$T/r3"
	run awk -f "$ck" -v qi=q -v k=2 -v id=x -v maxsupp=1 "$T/o" "$T/r3"
	[ "$status" -eq 1 ] && [[ "$output" == *"2 rows suppressed, at most 1"* ]]
	awk -f "$ck" -v qi=q -v k=2 -v id=x -v maxsupp=2 "$T/o" "$T/r3"
	printf 'q\ts\tx\n2\ta\tr3\n2\ta\tr4\n' > "$T/r4"
	awk -f "$ck" -v qi=q -v k=2 -v id=x -v maxsupp=2 -v drop=1 "$T/o" "$T/r4"
	run awk -f "$ck" -v qi=q -v k=2 -v id=x -v maxsupp=2 "$T/o" "$T/r4"
	[ "$status" -eq 1 ] && [[ "$output" == *"original row 1 is missing"* ]]
	printf 'q\ts\tx\n[2-3]\ta\tr1\n[2-3]\tb\tr2\n2\ta\tr3\n2\ta\tr4\n' > "$T/r5"
	run awk -f "$ck" -v qi=q -v k=2 -v id=x -v ranges=1 "$T/o" "$T/r5"
	[ "$status" -eq 1 ] && [[ "$output" == *"'[2-3]' is not true to '1'"* ]]
	printf 'q\ts\tx\n1\t10\tr1\n1\t12\tr2\n' > "$T/v"
	awk -f "$ck" -v qi=q -v k=2 -v id=x -v scol=s -v var=1 "$T/v" "$T/v"
	run awk -f "$ck" -v qi=q -v k=2 -v id=x -v scol=s -v var=1.01 "$T/v" "$T/v"
	[ "$status" -eq 1 ] && [[ "$output" == *"variance 1 < 1.01"* ]]
}

@test "the full-domain path keeps its guarantees on random tables (every lattice-search algorithm; recode -n, star and drop)" {
	propseeds fdprop 1 100
}

@test "the Mondrian path keeps its guarantees on random tables (memory, Rothko-T, Rothko-S; recode -r, every summary, more suppression)" {
	propseeds mprop 1 100
}

@test "stale, shuffled and partial frequency sets (recode --classes) and foreign regions (recode -r) never release below k with exit 0, whole or by splits" {
	propseeds fdtrust 1 50
	propseeds mtrust 1 50
}
