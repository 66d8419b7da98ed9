#!/bin/sh
# Benchmark of partition (issue: Mondrian).  See bench/README.md.
# Usage: sh bench/mondrian.sh
#
# 1. Peer comparison on UCI Adult as qiyuangong/Mondrian prepares it
#    (../shared/data/uci-adult, or $KANON_DATA/uci-adult; skipped when absent): k in 2 5 10 50 100,
#    strict and relaxed: classes, C_DM, largest class, NCP and the best
#    wall time of 5 runs, beside the peer's published classes and C_DM;
#    goal: under 30 ms per run.
# 2. Scale: gendata agrawal, 1 and 10 million rows, all 9 columns as
#    QIs, k = 10 and 1000: wall, CPU, peak RSS (GNU time), classes;
#    goal: 10 million rows under 20 s.
# 3. Paper 003's Figures 10-14: C_DM of strict partition against the
#    optimal full-domain generalization (lattice-search --best) on
#    uniform and skewed tables and on the bundled Adult.
# 4. Paper 003's Figure 17: the error of COUNT(*) WHERE X = v / Y = v on
#    both releases of a 2-attribute skewed table (needs score
#    --workload-auto; skipped with a note otherwise).
# Environment: BENCH_DIR (default ${TMPDIR:-/tmp}/kanon-bench) keeps the
# generated Agrawal tables across runs, BENCH_SCALE (default "1000000
# 10000000") the row counts of table 2, BENCH_CLEAN=1 removes the
# generated tables at the end.
# Exit status: 0 when every run completed and its checks passed (a missed
# goal does not change it), 1 when a check failed (MISMATCH), 2 on an
# error.

# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

bench_root
bench_need partition recode score lattice-search gendata
bench_need_gnu_date
bench_need_gnu_time '%U %S %e %M'

scale=${BENCH_SCALE-1000000 10000000}
for n in $scale; do
	bench_number BENCH_SCALE "$n" 1
done

bench_dir
bench_tmpdir mondrian

part=$root/partition
ls=$root/lattice-search
shared=${KANON_DATA:-$root/../shared/data}
# classstats TABLE K: "classes cdm max min" from the last (class) column
# of partition's output; a class below K prints MISMATCH (status 1).
classstats() {
	awk -F '\t' -v k="$2" '
	NR > 1 { n[$NF]++ }
	END {
		for (c in n) {
			classes++; cdm += n[c] * n[c]
			if (n[c] > max) max = n[c]
			if (min == "" || n[c] < min) min = n[c]
		}
		printf "%d %.0f %d %d\n", classes, cdm, max, min
	}' "$1" || bench_die "cannot read $1"
}

# checkmin MIN K WHAT: a class smaller than k is a failed check.
checkmin() {
	[ "$1" -ge "$2" ] && return 0
	echo "MISMATCH: $3: a class of $1 rows, k = $2" >&2
	status=1
}

# ncp REGIONS: the normalized certainty penalty in percent, from the
# Q_min/Q_max columns of the regions file (every QI numeric); the range
# of a column over the whole table is that of its classes' ranges.
ncp() {
	awk -F '\t' '
	NR == 1 {
		for (i = 1; i <= NF; i++)
			if ($i ~ /_min$/) lo[++d] = i
		next
	}
	{
		rows += $2
		cnt[NR] = $2
		for (j = 1; j <= d; j++) {
			a = $(lo[j]) + 0; b = $(lo[j] + 1) + 0
			w[NR, j] = b - a
			if (NR == 2 || a < gmin[j]) gmin[j] = a
			if (NR == 2 || b > gmax[j]) gmax[j] = b
		}
	}
	END {
		for (r = 2; r <= NR; r++)
			for (j = 1; j <= d; j++)
				if (gmax[j] > gmin[j])
					s += cnt[r] * w[r, j] / (gmax[j] - gmin[j])
		if (rows == 0 || d == 0)
			print "-"
		else
			printf "%.2f\n", 100 * s / (rows * d)
	}' "$1" || bench_die "cannot read $1"
}

# ---- 1. the peer comparison ----------------------------------------------
adult_data=$shared/uci-adult/adult.data
echo "1. Peer comparison: qiyuangong/Mondrian (Python) on UCI Adult"
if [ ! -f "$adult_data" ]; then
	echo "   $adult_data not found, skipped"
else
	peer=$tmp/peer.tsv
	{
		printf 'age\tworkclass\teducation-num\tmarital-status\toccupation\trace\tsex\tnative-country\n'
		awk -F, 'index($0, "?") == 0 && NF >= 14 {
			for (i = 1; i <= NF; i++)
				gsub(/ /, "", $i)
			n = split("2 6 7 9 10 14", cat, " ")
			for (c = 1; c <= n; c++) {
				j = cat[c]
				if (!((j SUBSEP $j) in code))
					code[j SUBSEP $j] = ++nc[j]
				v[j] = code[j SUBSEP $j]
			}
			print $1 "\t" v[2] "\t" $5 "\t" v[6] "\t" v[7] "\t" v[9] "\t" v[10] "\t" v[14]
		}' "$adult_data"
	} > "$peer" || bench_die "cannot convert $adult_data"
	lines=$(wc -l < "$peer")
	[ "$lines" -eq 30163 ] ||
		bench_die "$adult_data gave $lines lines, not 30163 (header + 30162 rows)"
	QP=age,workclass,education-num,marital-status,occupation,race,sex,native-country
	echo "   30162 rows ('?' rows removed, spaces stripped), 8 QIs"
	echo "   $QP,"
	echo "   categorical ones coded in order of first appearance, all numeric."
	echo "   Peer (published, this machine, strict median): 0.25-0.9 s algorithm,"
	echo "   1.1-1.7 s wall per run.  ms: best wall of 5 runs of the whole command;"
	echo "   goal: C_DM well below the peer's, < 30 ms per run."
	printf '%-8s %4s %7s %9s %6s %6s %6s %10s %6s %5s %s\n' \
	    mode k classes cdm maxcls ncp% peer:cl peer:cdm cdm/p ms goal
	for mode in strict relaxed; do
		opt=
		[ $mode = relaxed ] && opt=--relaxed
		for k in 2 5 10 50 100; do
			ms=$(bench_best 5 0 "$tmp/p.out" "$part" -r "$tmp/p.reg" \
			    $opt -q $QP -k $k "$peer") || exit 2
			# shellcheck disable=SC2046 # split into fields on purpose
			set -- $(classstats "$tmp/p.out" $k)
			[ $# -eq 4 ] || bench_die "no classes in partition's output"
			classes=$1 cdm=$2 max=$3
			checkmin "$4" $k "peer $mode k=$k"
			n=$(ncp "$tmp/p.reg") || exit 2
			case $mode/$k in
			strict/2) pc=7213 pd=426728 ;;
			strict/5) pc=3271 pd=502940 ;;
			strict/10) pc=1795 pd=673672 ;;
			strict/50) pc=402 pd=2405520 ;;
			strict/100) pc=205 pd=4654210 ;;
			relaxed/10) pc=2048 pd=444618 ;;
			*) pc=- pd=- ;;
			esac
			ratio=-
			[ "$pd" = - ] || ratio=$(awk -v a="$cdm" -v b="$pd" \
			    'BEGIN { printf "%.2f", a / b }')
			goal=met
			[ "$ms" -lt 30 ] || goal=MISSED
			printf '%-8s %4s %7s %9s %6s %6s %6s %10s %6s %5s %s\n' \
			    $mode $k $classes $cdm $max $n $pc $pd $ratio $ms "<30 $goal"
		done
	done
	echo "   peer NCP (published): 11.24% at k=10 strict"
fi

# ---- 2. scale ------------------------------------------------------------
echo
echo "2. Scale, in memory: gendata agrawal (--seed 1), 9 QIs, table to /dev/null,"
echo "   regions to a temp file; one run each under GNU time; goal: 10M rows < 20 s"
QA=salary,commission,age,elevel,car,zipcode,hvalue,hyears,loan
printf '%9s %5s %8s %8s %8s %9s %s\n' rows k "wall s" "cpu s" "RSS MiB" classes goal
for n in $scale; do
	input=$dir/agrawal-n$n-seed1.tsv
	bench_gendata "$input" -n "$n" --seed 1 agrawal
	cat "$input" > /dev/null	# warm the page cache
	for k in 10 1000; do
		"$TIME" -f '%U %S %e %M' -o "$tmp/s.time" "$part" -v -q $QA -k $k \
		    -r "$tmp/s.reg" "$input" > /dev/null 2> "$tmp/s.err" ||
			{ cat "$tmp/s.err" >&2; bench_die "partition -k $k $input failed"; }
		classes=$(sed -n 's/^partition: .* rows, \([0-9]*\) classes,.*/\1/p' \
		    "$tmp/s.err")
		[ -n "$classes" ] || bench_die "no statistics from partition -v: $(cat "$tmp/s.err")"
		nreg=$(($(wc -l < "$tmp/s.reg") - 1))
		if [ "$nreg" -ne "$classes" ]; then
			echo "MISMATCH: $n rows, k=$k: -v says $classes classes, the regions $nreg" >&2
			status=1
		fi
		tail -n 1 "$tmp/s.time" | awk -v n="$n" -v k="$k" -v c="$classes" '{
			goal = "-"
			if (n == 10000000)
				goal = ($3 < 20) ? "<20 met" : "<20 MISSED"
			printf "%9s %5s %8.2f %8.2f %8.1f %9s %s\n",
			    n, k, $3, $1 + $2, $4 / 1024, c, goal
		}' || bench_die "cannot read the times"
		rm -f "$tmp/s.reg"
	done
done

# ---- 3. paper 003, Figures 10-14 -----------------------------------------
# cdm_pair NAME TABLE K Q PARTOPTS LSOPTS: prints "multi full", the C_DM of
# strict partition and of lattice-search's best node.
cdm_pair() {
	name=$1 tab=$2 k=$3 q=$4 popt=$5 lopt=$6
	"$part" -q $q $popt -k $k "$tab" > "$tmp/c.out" 2> "$tmp/c.err" ||
		{ cat "$tmp/c.err" >&2; bench_die "partition -q $q $popt -k $k $name failed"; }
	# shellcheck disable=SC2046 # split into fields on purpose
	set -- $(classstats "$tmp/c.out" $k)
	[ $# -eq 4 ] || bench_die "no classes in partition's output"
	checkmin "$4" $k "$name k=$k"
	multi=$2
	"$ls" -q $q $lopt -k $k --best --metric cdm "$tab" > "$tmp/c.ls" 2> "$tmp/c.err" ||
		{ cat "$tmp/c.err" >&2; bench_die "lattice-search -q $q $lopt -k $k $name failed"; }
	full=$(awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "cdm") c = i }
	    NR == 2 && c { print $c }' "$tmp/c.ls")
	[ -n "$full" ] || bench_die "no cdm column from lattice-search on $name"
	echo "$multi $full"
}

# binq D: the QIs a1..aD; binh D C: their binary-tree hierarchies over
# 0..C-1 (widths 2, 4, ... below C, then the root '*').
binq() {
	awk -v d="$1" 'BEGIN { for (i = 1; i <= d; i++) printf "%sa%d", (i > 1 ? "," : ""), i }'
}
binh() {
	awk -v d="$1" -v c="$2" 'BEGIN {
		w = ""
		for (x = 2; x < c; x *= 2)
			w = w (w == "" ? "" : ",") x
		for (i = 1; i <= d; i++)
			printf "%s-H a%d=interval:%s", (i > 1 ? " " : ""), i, w
	}'
}

rowhead() {
	printf '%-10s %12s %12s %7s\n' "$1" "C_DM multi" "C_DM full" full/multi
}
row() {
	printf '%-10s %12s %12s %7s\n' "$1" "$2" "$3" \
	    "$(awk -v a="$3" -v b="$2" 'BEGIN { printf "%.2f", a / b }')"
}

echo
echo "3. Paper 003, Figures 10-14: C_DM of strict multidimensional partitioning"
echo "   (partition) against the optimal full-domain generalization"
echo "   (lattice-search --best --metric cdm, no suppression).  Synthetic tables:"
echo "   10000 rows, --seed 1, cardinality 8, binary-tree hierarchies"
echo "   (interval:2,4 and the root) for the full-domain model."
q5=$(binq 5)
h5=$(binh 5 8)
for dist in uniform skewed; do
	"$root/gendata" -n 10000 --seed 1 $dist -d 5 -c 8 > "$tmp/$dist.tsv" ||
		bench_die "gendata $dist failed"
done
echo "3a. Figure 10: uniform, 5 attributes"
rowhead k
for k in 2 5 10 25 50 100; do
	r=$(cdm_pair uniform "$tmp/uniform.tsv" $k $q5 "" "$h5") || exit 2
	row $k $r
done
echo "3b. Figure 11: skewed (mean 3.5, sd 0.2), 5 attributes"
rowhead k
for k in 2 5 10 25 50 100; do
	r=$(cdm_pair skewed "$tmp/skewed.tsv" $k $q5 "" "$h5") || exit 2
	row $k $r
done
echo "3c. Figure 12: skewed, 5 attributes, k = 10, by the standard deviation"
rowhead sd
for sd in 0.1 0.2 0.3 0.5 1; do
	"$root/gendata" -n 10000 --seed 1 skewed -d 5 -c 8 --sd $sd > "$tmp/sd.tsv" ||
		bench_die "gendata skewed --sd $sd failed"
	r=$(cdm_pair "skewed sd $sd" "$tmp/sd.tsv" 10 $q5 "" "$h5") || exit 2
	row $sd $r
done
echo "3d. Figure 13: skewed (sd 0.2), k = 10, by the number of attributes"
rowhead attrs
for d in 2 3 4 5 6 7 8; do
	"$root/gendata" -n 10000 --seed 1 skewed -d $d -c 8 > "$tmp/d.tsv" ||
		bench_die "gendata skewed -d $d failed"
	r=$(cdm_pair "skewed d $d" "$tmp/d.tsv" 10 "$(binq $d)" "" \
	    "$(binh $d 8)") || exit 2
	row $d $r
done
Q8=sex,age,race,marital-status,education,native-country,workclass,occupation
adult=$root/data/adult/adult.tsv
echo "3e. Figure 14: Adult (data/adult, 30162 rows), 8 QIs; ARX's hierarchies,"
echo "    partition with -H data/adult --numeric age"
rowhead k
# The hierarchies are named relative to the repository, so that a path
# with spaces survives the word splitting of the options.
cd "$root" || bench_die "cannot enter $root"
for k in 2 5 10 25 50 100; do
	r=$(cdm_pair adult "$adult" $k $Q8 "-H data/adult --numeric age" \
	    "-H data/adult") || exit 2
	row $k $r
done

# ---- 4. paper 003, Figure 17 ---------------------------------------------
echo
echo "4. Paper 003, Figure 17: absolute error of COUNT(*) WHERE X = v (X = a1)"
echo "   and WHERE Y = v (Y = a2), v every value of the column in the original"
echo "   (score --workload-auto); 1000 rows, gendata --seed 1 skewed -d 2 -c 50"
echo "   --mean 25 --sd 0.2.  multi: partition -r R | recode -r R (ranges);"
echo "   full: lattice-search --best (binary-tree hierarchies) | recode -n."
echo "   The paper's 'single' is the optimal single-dimensional partitioning"
echo "   (K-Optimize, arbitrary ranges per attribute), not a full-domain one."
if ! "$root/score" -h 2>&1 | grep -q -e '--workload-auto'; then
	echo "   skipped: score has no --workload-auto"
else
	w=$tmp/w.tsv
	"$root/gendata" -n 1000 --seed 1 skewed -d 2 -c 50 --mean 25 --sd 0.2 > "$w" ||
		bench_die "gendata skewed -c 50 failed"
	hw=$(binh 2 50)
	# werr RELEASE HOPTS COL: "mean sd queries" of the workload on COL.
	werr() {
		"$root/score" -q a1,a2 $2 --original "$w" --workload-auto $3 "$1" \
		    > "$tmp/w.score" 2> "$tmp/w.err" ||
			{ cat "$tmp/w.err" >&2; bench_die "score --workload-auto $3 failed"; }
		awk -F '\t' '$1 == "workload_abs_error_mean" { m = $2 }
		    $1 == "workload_abs_error_sd" { s = $2 }
		    $1 == "workload_queries" { q = $2 }
		    END { if (m == "" || s == "") exit 1
			printf "%.2f %.2f %s\n", m, s, q }' "$tmp/w.score" ||
			bench_die "no workload figures from score"
	}
	printf '%-4s %-6s %8s %7s %8s %7s %7s  %s\n' k model "X mean" "X sd" \
	    "Y mean" "Y sd" classes "paper, same k (single for full): X mean/sd, Y mean/sd"
	for k in 5 10 25 50; do
		"$part" -q a1,a2 -k $k -r "$tmp/w.reg" -o "$tmp/w.part" "$w" \
		    2> "$tmp/w.err" ||
			{ cat "$tmp/w.err" >&2; bench_die "partition -k $k (workload) failed"; }
		"$root/recode" -r "$tmp/w.reg" -o "$tmp/w.multi" "$tmp/w.part" \
		    2> "$tmp/w.err" ||
			{ cat "$tmp/w.err" >&2; bench_die "recode -r (workload) failed"; }
		"$ls" -q a1,a2 $hw -k $k --best --metric cdm -o "$tmp/w.node" "$w" \
		    2> "$tmp/w.err" ||
			{ cat "$tmp/w.err" >&2; bench_die "lattice-search -k $k (workload) failed"; }
		"$root/recode" -n "$tmp/w.node" $hw -k $k -o "$tmp/w.full" "$w" \
		    2> "$tmp/w.err" ||
			{ cat "$tmp/w.err" >&2; bench_die "recode -n (workload) failed"; }
		for m in multi full; do
			h=
			[ $m = full ] && h=$hw
			# shellcheck disable=SC2046 # split into fields on purpose
			set -- $(werr "$tmp/w.$m" "$h" a1) $(werr "$tmp/w.$m" "$h" a2)
			[ $# -eq 6 ] || exit 2
			cl=$("$root/score" -q a1,a2 "$tmp/w.$m" |
			    awk -F '\t' '$1 == "classes" { print $2 }')
			[ -n "$cl" ] || bench_die "score failed on the $m release"
			case $m/$k in
			multi/10) p="4.66/3.26, 4.03/3.44" ;;
			full/10) p="7.73/5.94, 3.18/2.56" ;;
			multi/25) p="5.69/3.86, 5.67/3.80" ;;
			full/25) p="12.68/7.17, 5.06/4.17" ;;
			multi/50) p="7.94/5.87, 8.06/5.58" ;;
			full/50) p="7.73/5.94, 8.25/6.15" ;;
			*) p=- ;;
			esac
			printf '%-4s %-6s %8s %7s %8s %7s %7s  %s\n' $k $m $1 $2 $4 $5 \
			    "$cl" "$p"
		done
	done
	echo "   queries: $3 on X, $6 on Y (values absent from the table are not asked)"
fi

set --
for n in $scale; do
	set -- "$@" "$dir/agrawal-n$n-seed1.tsv"
done
bench_clean "$@"
exit $status
