#!/bin/sh
# Benchmark of lattice-search on wide lattices (issue 18, part 1).  See
# bench/README.md.  Usage: sh bench/wide.sh (also run by make bench).
#
# adult-full (../shared/data/adult-full, or $KANON_DATA/adult-full):
# 32,561 rows read as ';' CSV, k = 10, --best, the default algorithm,
# the first 10 to 13 of the QIs below (ARX's hierarchies; age by
# interval:5,10,20, since ARX's age file is inconsistent), suppression
# 0, 2% and 5%: wall seconds and peak RSS of the whole command (GNU
# time), the nodes checked and the frequency sets computed (-v), against
# the goals of the issue and the figures it gives for ARX 3.9 (Flash,
# measured on this machine; ARX cannot be run here) and for kanon before
# it.  The 10-QI runs are compared byte for byte with -a bfs; a
# difference prints MISMATCH and makes the script exit 1.  Then flash
# with 2% and 5% suppression on 12 and 13 QIs, -j 1 against -j 2 (goal
# 0.6; the outputs compared).  Skipped, exit 0, when the data is absent.
# Exit 2 on an error.

# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

bench_root
bench_need lattice-search
bench_need_gnu_time '%e %M'
bench_tmpdir kanon-wide "${TMPDIR:-/tmp}"

data=${KANON_DATA:-$root/../shared/data}/adult-full
if [ ! -f "$data/adult_full.csv" ]; then
	echo "wide lattices: $data/adult_full.csv not found, skipped"
	exit 0
fi
bench_copy lattice-search
ls=$tmp/bin/lattice-search
status=0

# The QIs in the order of the table's columns, without fnlwgt (a
# sampling weight) and education-num (no hierarchy); 13 of them make a
# lattice of 1,749,600 nodes.
QALL=age,workclass,education,marital-status,occupation,relationship,race,sex,capital-gain,capital-loss,hours-per-week,native-country,salary-class

# ref N S: the goal, and ARX's and the old kanon's figures of the issue,
# separated by '|'.
ref() {
	case $1/$2 in
	10/0) echo "-|1.26 s|0.17 s" ;;
	12/2%) echo "<= 3 s|10.2 s|86.9 s" ;;
	13/2%) echo "<= 6 s|24 s|392 s" ;;
	13/0) echo "<= 1 s|1.8 s|6.8 s" ;;
	*) echo "-|-|-" ;;
	esac
}

echo "Wide lattices: adult-full ($data), k=10, --best, default algorithm"
printf '%-3s %-4s %9s %8s %7s %12s %8s  %-7s %-8s %-8s %s\n' QIs supp nodes \
    "wall s" "RSS MiB" checked sets goal ARX "before" result
for n in 10 11 12 13; do
	q=$(echo "$QALL" | cut -d, -f1-$n)
	for s in 0 2% 5%; do
		name=w$n-${s%\%}
		bench_timed "$name" "$ls" -v --best --icsv --ifs ';' -H "$data" \
		    -H age=interval:5,10,20 -q "$q" -k 10 --max-suppress "$s" \
		    "$data/adult_full.csv"
		read -r wall rss < "$tmp/$name.time"
		rss=$((rss / 1024))
		e=$tmp/$name.err
		nodes=$(sed -n 's/.*: nodes \([0-9]*\), anonymous.*/\1/p' "$e")
		checked=$(sed -n 's/.*nodes checked \([0-9]*\).*/\1/p' "$e")
		more=$(sed -n 's/.*evaluated \([0-9]*\) more.*/\1/p' "$e")
		[ -z "$more" ] || checked="$checked+$more"
		sets=$(sed -n 's/.*frequency sets computed \([0-9]*\).*/\1/p' "$e")
		IFS='|' read -r goal arx before <<EOF_
$(ref $n "$s")
EOF_
		res=
		if [ "$goal" != - ]; then
			lim=$(echo "$goal" | sed 's/[^0-9.]//g')
			res=ok
			awk -v w="$wall" -v l="$lim" 'BEGIN { exit !(w <= l) }' ||
			    res=FAIL
		fi
		[ "$rss" -le 256 ] || res="$res RSS-FAIL"
		printf '%-3s %-4s %9s %8s %7s %12s %8s  %-7s %-8s %-8s %s\n' $n "$s" \
		    "$nodes" "$wall" "$rss" "$checked" "$sets" "$goal" "$arx" \
		    "$before" "$res"
		if [ $n = 10 ]; then
			"$ls" -a bfs --best --icsv --ifs ';' -H "$data" \
			    -H age=interval:5,10,20 -q "$q" -k 10 \
			    --max-suppress "$s" "$data/adult_full.csv" \
			    > "$tmp/bfs.out" 2> "$tmp/bfs.err" ||
			    bench_die "-a bfs failed: $(cat "$tmp/bfs.err")"
			cmp -s "$tmp/bfs.out" "$tmp/$name.out" || {
				echo "MISMATCH: 10 QIs $s: default and -a bfs differ"
				status=1
			}
		fi
	done
done
echo "goal: peak RSS <= 256 MiB in every run; 'checked' is the nodes checked"
echo "(+ those evaluated by --best's sweep); ARX's Flash checks about 20,400"
echo "nodes at 2% (issue 18).  ARX and 'before' (kanon, bfs by default) are"
echo "the issue's figures from the same machine, not measured by this script."

# flash under suppression on one thread and on two (paths bisected at
# once, lattice-search(1) -j): best wall of three, alternated, the same
# bytes.
echo
echo "flash with suppression, -j 1 against -j 2 (best of 3 alternated, wall ms; goal 0.6)"
printf '%-3s %-4s %9s %9s %7s %s\n' QIs supp "-j 1" "-j 2" ratio result
for n in 12 13; do
	q=$(echo "$QALL" | cut -d, -f1-$n)
	for s in 2% 5%; do
		bench_jbest 3 "$tmp/j" "$ls" --best --icsv --ifs ';' \
		    -H "$data" -H age=interval:5,10,20 -q "$q" -k 10 \
		    --max-suppress "$s" "$data/adult_full.csv"
		cmp -s "$tmp/j.1" "$tmp/j.2" || {
			echo "MISMATCH: $n QIs $s: -j 1 and -j 2 differ"
			status=1
		}
		awk -v n="$n" -v s="$s" -v a="$ms1" -v b="$ms2" 'BEGIN {
			r = a > 0 ? b / a : 0
			printf "%-3s %-4s %9d %9d %7.2f %s\n", n, s, a, b, r,
			    r <= 0.6 ? "ok" : "FAIL" }'
	done
done
exit $status
