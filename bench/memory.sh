#!/bin/sh
# Benchmark of memory bounded by -S whatever the input (kanon(7),
# MEMORY).  See bench/README.md.  Usage: sh bench/memory.sh
#
# The table: gendata agrawal (--seed 1), BENCH_ROWS rows (default 50
# million), with a column w added that holds a distinct number on each
# row (the row's number times 100000007 modulo 2^27: a permutation), so
# that one numeric quasi-identifier has a distinct value per row and
# the combinations of the quasi-identifiers are all distinct.  Every
# program runs on it at -S 256M under GNU time: freqset, score -t,
# lattice-search, recode -n (of lattice-search's node), partition
# Rothko-T and Rothko-S, Rothko-T with w as the sensitive column of
# --variance and the target of --split regression instead of a QI
# (rothko-tv), Rothko-T and Rothko-S with w as the sensitive column of
# distinct 3-diversity (rothko-tl, rothko-sl), Rothko-T with entropy
# 3-diversity on w (rothko-te), Rothko-S with recursive (2,3)-diversity
# on w (rothko-sr), Rothko-T with w the labels of --split infogain
# (rothko-ti), Rothko-T with w the sensitive column of --closeness
# 0.9999 (rothko-tc) and of --closeness 0.9999 --distance ordered
# (rothko-to), recode -r (of Rothko-T's regions); beside them
# one LC_ALL=C sort -S 256M -k1,1n of the same file, the time the
# out-of-core paths are measured against.  The goal is a peak RSS
# within the budget plus 32 MiB.
# The same commands then run on the first BENCH_CUT rows (default 3
# million) at -S 256M and at -S 16G (memory unlimited for this table):
# their outputs must be byte-identical (Rothko-S, which samples: the
# release must be 1000-anonymous, checked by score --check).
# A program that refuses the budget is shown as refused, with the first
# words of its message: that is a missed goal, not an error of the
# script, and its outputs are not compared.  lattice-search puts its
# input's frequency set on disk when it, or the hierarchies' leaves (one
# for each distinct w), do not fit the budget (lattice-search(1), -S);
# should it refuse, recode -n reads the node of a run at -S 16G.
# Environment: BENCH_DIR (default ${TMPDIR:-/tmp}/kanon-bench) keeps
# the generated tables across runs, BENCH_ROWS and BENCH_CUT (at least
# 10000 each, BENCH_CUT at most BENCH_ROWS), BENCH_CLEAN=1 removes the
# generated tables at the end.
# Exit status: 0 when every run completed (a missed goal or a refusal
# does not change it), 1 when outputs differ, 2 on an error.

# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

bench_root
bench_need gendata freqset score lattice-search recode partition
bench_need_gnu_time '%U %S %e %M'

rows=${BENCH_ROWS:-50000000}
cut=${BENCH_CUT:-3000000}
bench_number BENCH_ROWS "$rows" 10000 134217728 "w is distinct below 2^27"
bench_number BENCH_CUT "$cut" 10000 "$rows" "the cut is of the table"

bench_dir
bench_tmpdir memory
mkdir "$tmp/T" || bench_die "cannot create $tmp/T"
bench_copy gendata freqset score lattice-search recode partition
B=$tmp/bin
BUDGET=256M
ALLOW=32
BIG=16G
Q=w,age,salary,zipcode,car
H="-H w=interval:1000,100000,10000000 -H age=interval:5,10,20,40
-H salary=interval:10000,50000 -H zipcode=interval:3 -H car=interval:5,10"
K=1000

# table N: the path of the table of N rows, generated once.
table() {
	f=$dir/memory-n$1-seed1.tsv
	if [ ! -f "$f" ]; then
		echo "   (generating $f)" >&2
		"$root/gendata" -n "$1" --seed 1 agrawal | awk -v OFS='\t' '
		NR == 1 { print $0, "w"; next }
		{ print $0, ((NR - 1) * 100000007) % 134217728 }' \
		    > "$tmp/table.tsv" || bench_die "gendata failed"
		mv "$tmp/table.tsv" "$f" || bench_die "cannot write $f"
	fi
	echo "$f"
}

# step NAME BUDGET FILE: runs step NAME (below) with -S BUDGET on FILE
# under GNU time; its output to $tmp/NAME.out, and a line "NAME wall
# rss_mib status" to stdout, status "ok" or "refused: MESSAGE".
step() {
	n=$1 s=$2 f=$3
	# $Q and $H are split into words on purpose.
	# shellcheck disable=SC2086
	case $n in
	freqset) set -- "$B/freqset" -q $Q "$f" ;;
	score-t) set -- "$B/score" -q $Q -k 5 -t loan "$f" ;;
	lattice) set -- "$B/lattice-search" $H -q $Q -k $K \
	    --max-suppress 1% --best "$f" ;;
	recode-n) set -- "$B/recode" -n "$tmp/$4.node" $H -k $K \
	    --max-suppress 1% "$f" ;;
	rothko-t) set -- "$B/partition" -a rothko-t -q $Q -k $K \
	    -r "$tmp/$4.regions" "$f" ;;
	rothko-s) set -- "$B/partition" -a rothko-s -q $Q -k $K \
	    -r "$tmp/$4.sregions" "$f" ;;
	rothko-tv) set -- "$B/partition" -a rothko-t -q ${Q#w,} -k $K \
	    -s w --variance 1000000 --split regression -t w "$f" ;;
	rothko-tl) set -- "$B/partition" -a rothko-t -q ${Q#w,} -k $K \
	    -s w -l 3 "$f" ;;
	rothko-sl) set -- "$B/partition" -a rothko-s -q ${Q#w,} -k $K \
	    -s w -l 3 "$f" ;;
	rothko-te) set -- "$B/partition" -a rothko-t -q ${Q#w,} -k $K \
	    -s w -l 3 --diversity entropy "$f" ;;
	rothko-sr) set -- "$B/partition" -a rothko-s -q ${Q#w,} -k $K \
	    -s w -l 3 --diversity recursive -c 2 "$f" ;;
	rothko-ti) set -- "$B/partition" -a rothko-t -q ${Q#w,} -k $K \
	    --split infogain -t w "$f" ;;
	rothko-tc) set -- "$B/partition" -a rothko-t -q ${Q#w,} -k $K \
	    -s w --closeness 0.9999 "$f" ;;
	rothko-to) set -- "$B/partition" -a rothko-t -q ${Q#w,} -k $K \
	    -s w --closeness 0.9999 --distance ordered "$f" ;;
	recode-r) set -- "$B/recode" -r "$tmp/$4.regions" "$tmp/$4.rothko-t" ;;
	esac
	"$TIME" -f '%e %M' -o "$tmp/$n.time" "$@" -S "$s" -T "$tmp/T" \
	    > "$tmp/$n.out" 2> "$tmp/$n.err"
	rc=$?
	t=$(tail -n 1 "$tmp/$n.time")
	if [ $rc -eq 0 ]; then
		st=ok
	else
		st="refused: $(head -n 1 "$tmp/$n.err" | cut -c 1-60)"
	fi
	echo "$n ${t% *} $(( ${t#* } / 1024 )) $st"
}

# all FILE BUDGET TAG: every step on FILE at BUDGET, the outputs kept as
# $tmp/TAG.NAME (with TAG big, only those a later step reads: the node,
# partition's output and its regions, $tmp/TAG.regions).
all() {
	for n in freqset score-t lattice recode-n rothko-t rothko-s rothko-tv \
	    rothko-tl rothko-sl rothko-te rothko-sr rothko-ti rothko-tc \
	    rothko-to recode-r; do
		r=$(step $n "$2" "$1" "$3")
		echo "$r"
		case $n in
		lattice) cp "$tmp/lattice.out" "$tmp/$3.node" ;;
		esac
		# A refused lattice-search leaves no node: recode -n reads
		# the node of a run at -S $BIG instead.
		case $n.$r in
		lattice*refused*)
			step lattice $BIG "$1" "$3" > /dev/null
			cp "$tmp/lattice.out" "$tmp/$3.node"
			: > "$tmp/lattice.out" ;;
		esac
		mv "$tmp/$n.out" "$tmp/$3.$n"
		case $3.$n in
		big.lattice | big.rothko-t) ;;
		big.*) rm -f "$tmp/$3.$n" ;;
		esac
	done
}

big=$(table "$rows") || exit 2
small=$dir/memory-n$rows-seed1-first$cut.tsv
if [ ! -f "$small" ]; then
	head -n $((cut + 1)) "$big" > "$tmp/cut.tsv" ||
		bench_die "cannot write $tmp/cut.tsv"
	mv "$tmp/cut.tsv" "$small" || bench_die "cannot write $small"
fi
echo "1. $rows rows (agrawal --seed 1 and w, $(awk -v b="$(wc -c < "$big")" \
    'BEGIN { printf "%.2f", b / 1e9 }') GB), QIs $Q, k = $K, -S $BUDGET;"
echo "   peak RSS (GNU time) against the goal of $BUDGET + $ALLOW MiB:"
cat "$big" > /dev/null
sync
"$TIME" -f '%e %M' -o "$tmp/sort.time" sort -S $BUDGET -T "$tmp/T" \
    -t "$(printf '\t')" -k1,1n "$big" > /dev/null ||
	bench_die "LC_ALL=C sort -S $BUDGET -k1,1n $big failed"
st=$(tail -n 1 "$tmp/sort.time")
printf '   %-9s %8s %9s  %s\n' step "wall s" "RSS MiB" "result"
printf '   %-9s %8s %9s  %s\n' sort "${st% *}" $(( ${st#* } / 1024 )) \
    "(LC_ALL=C sort -S $BUDGET -k1,1n, the baseline)"
all "$big" $BUDGET big | while read -r n w m rest; do
	g=$(( ${BUDGET%M} + ALLOW ))
	if [ "$rest" = ok ]; then
		[ "$m" -le $g ] && rest="ok, within" || rest="ok, OVER"
		rest="$rest $g MiB; $(awk -v w="$w" -v s="${st% *}" \
		    'BEGIN { printf "%.2f x sort", (s > 0 ? w / s : 0) }')"
	fi
	printf '   %-9s %8s %9s  %s\n' "$n" "$w" "$m" "$rest"
done

echo
echo "2. The first $cut rows, at -S $BUDGET and at -S $BIG: the same bytes"
all "$small" $BUDGET cut > "$tmp/cut.lines"
all "$small" $BIG ref > "$tmp/ref.lines"
for n in freqset score-t lattice recode-n rothko-t rothko-tv rothko-tl \
    rothko-te rothko-ti rothko-tc rothko-to recode-r; do
	# A refusal is a missed goal, shown in the table, not a mismatch.
	if grep -q "^$n .* refused" "$tmp/cut.lines"; then
		checks="$checks$n at -S $BUDGET and -S $BIG: not compared (refused at -S $BUDGET)
"
		continue
	fi
	bench_check "$n at -S $BUDGET and -S $BIG" "$tmp/cut.$n" "$tmp/ref.$n"
done
if "$B/recode" -r "$tmp/cut.sregions" "$tmp/cut.rothko-s" |
    "$B/score" -q $Q -k $K --check > /dev/null; then
	bench_pass "rothko-s at -S $BUDGET: $K-anonymous"
else
	bench_fail "rothko-s at -S $BUDGET: $K-anonymous" FAILED
fi
if "$B/score" -q class -k $K -s w -l 3 --check "$tmp/cut.rothko-sl" \
    > /dev/null; then
	bench_pass "rothko-sl at -S $BUDGET: $K-anonymous, 3 values of w"
else
	bench_fail "rothko-sl at -S $BUDGET: $K-anonymous, 3 values of w" FAILED
fi
if "$B/score" -q class -k $K -s w -l 3 --diversity recursive -c 2 --check \
    "$tmp/cut.rothko-sr" > /dev/null; then
	bench_pass "rothko-sr at -S $BUDGET: $K-anonymous, recursive (2,3) on w"
else
	bench_fail "rothko-sr at -S $BUDGET: $K-anonymous, recursive (2,3) on w" \
	    FAILED
fi
printf '%s' "$checks" | sed 's/^/   /'
bench_clean "$big" "$small"
exit $status
