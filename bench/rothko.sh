#!/bin/sh
# Benchmark of partition out of core (Rothko-T and Rothko-S, paper 004).
# See bench/README.md.  Usage: sh bench/rothko.sh
#
# 1. gendata agrawal (--seed 1), BENCH_ROWS rows (default 100 million,
#    about 3.6 GB), all 9 columns as QIs, k = 1000, -S 256M, the table to
#    /dev/null: Rothko-T and Rothko-S beside one external sort of the
#    same file (LC_ALL=C sort -S 256M -k1,1n): wall, CPU, peak RSS (GNU
#    time), classes, the -v accounting, and for Rothko-S the passes over
#    the data; goals: RSS under 320 MiB, Rothko-S reading the data at
#    most 3 times and writing it once besides the spool, and no more
#    time than the sort.
# 2. Scale-up (004 Figures 12-15): the first 10%, 25%, 50% and all of
#    the rows, Rothko-T (--fcache 1 and 16) and Rothko-S: time and
#    temp-file I/O.
# 3. 004 Figure 28: nodes pruned by Rothko-S with the hypothesis tests
#    and with --naive, 100,000 rows, sample sizes 100 to 25000, under
#    k-anonymity, recursive (c,l)-diversity and variance diversity.
# Environment: BENCH_DIR (default ${TMPDIR:-/tmp}/kanon-bench) keeps the
# generated tables across runs, BENCH_ROWS (default 100000000, at least
# 10000) the rows of tables 1 and 2, BENCH_FCACHE (default "1 16") the
# --fcache values of Rothko-T in table 2, BENCH_CLEAN=1 removes the
# generated tables at the end.
# Exit status: 0 when every run completed (a missed goal does not change
# it), 2 on an error.

# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

bench_root
bench_need partition gendata
bench_need_gnu_time '%U %S %e %M %O'
"$root/partition" -h 2>&1 | grep -q rothko-s ||
	bench_die "$root/partition has no -a rothko-s"

rows=${BENCH_ROWS:-100000000}
bench_number BENCH_ROWS "$rows" 10000 "" "k = 1000 on a tenth of it"

bench_dir
# The temp dir holds partition's and sort's temp files (-T) and the
# partial copies of the tables; it is removed on exit.
bench_tmpdir rothko
mkdir "$tmp/T" || bench_die "cannot create $tmp/T"

bench_copy partition
part=$tmp/bin/partition
# --fcache (frequency groups of several nodes per scan in Rothko-T):
# when partition has it, table 2 runs Rothko-T with 1 and 16.
fcache=0
"$part" -h 2>&1 | grep -q -e '--fcache' && fcache=1
fcs=${BENCH_FCACHE-1 16}
for c in $fcs; do
	bench_number BENCH_FCACHE "$c" 1 1024
done
TAB=$(printf '\t')
QA=salary,commission,age,elevel,car,zipcode,hvalue,hyears,loan
K=1000
BUDGET=256M

# gen N: the path of gendata -n N --seed 1 agrawal, generated once.
gen() {
	f=$dir/agrawal-n$1-seed1.tsv
	[ -f "$f" ] || echo "   (generating $f)" >&2
	bench_gendata "$f" -n "$1" --seed 1 agrawal
	echo "$f"
}

# first SRC N M: the path of the first M rows of SRC (of N rows), cached.
first() {
	if [ "$3" -eq "$2" ]; then
		echo "$1"
		return
	fi
	f=$dir/agrawal-n$2-seed1-first$3.tsv
	if [ ! -f "$f" ]; then
		echo "   (writing $f)" >&2
		head -n $(($3 + 1)) "$1" > "$tmp/first.tsv" ||
			bench_die "head of $1 failed"
		mv "$tmp/first.tsv" "$f" || bench_die "cannot write $f"
	fi
	echo "$f"
}

# runp ALGO FILE [OPTS]: partition -a ALGO under GNU time; prints "user
# sys wall rss_kib fs_out_blocks classes avail scans written read repart
# inmem bigleaf pruned spool".
runp() {
	a=$1 f=$2
	shift 2
	sync
	"$TIME" -f '%U %S %e %M %O' -o "$tmp/p.time" "$part" -a "$a" "$@" \
	    -S $BUDGET -T "$tmp/T" -v -q $QA -k $K "$f" > /dev/null \
	    2> "$tmp/p.err" || {
		echo "bench: failed: partition -a $a $* -S $BUDGET -T $tmp/T -v -q $QA -k $K $f" >&2
		cat "$tmp/p.err" >&2
		exit 2
	}
	acct=$(sed -n 's/^partition: Rothko-[TS]: -S [0-9]*, \([0-9]*\) for nodes; \([0-9]*\) scans of node files, \([0-9]*\) bytes written (\([0-9]*\) of them the spool) and \([0-9]*\) read in temp files, \([0-9]*\) repartitions, \([0-9]*\) nodes in memory, \([0-9]*\) classes too large for memory, \([0-9]*\) nodes pruned$/\1 \2 \3 \5 \6 \7 \8 \9 \4/p' \
	    "$tmp/p.err")
	classes=$(sed -n 's/^partition: .* rows, \([0-9]*\) classes,.*/\1/p' \
	    "$tmp/p.err")
	if [ -z "$acct" ] || [ -z "$classes" ]; then
		bench_die "no accounting from partition -a $a -v: $(cat "$tmp/p.err")"
	fi
	echo "$(tail -n 1 "$tmp/p.time") $classes $acct"
}

# runsort FILE: the baseline; prints "user sys wall rss_kib fs_out_blocks".
runsort() {
	sync
	"$TIME" -f '%U %S %e %M %O' -o "$tmp/s.time" sort -S $BUDGET \
	    -T "$tmp/T" -t "$TAB" -k1,1n "$1" > /dev/null 2> "$tmp/s.err" || {
		echo "bench: failed: LC_ALL=C sort -S $BUDGET -T $tmp/T -t TAB -k1,1n $1" >&2
		cat "$tmp/s.err" >&2
		exit 2
	}
	tail -n 1 "$tmp/s.time"
}

# ---- 1. one table, Rothko-T and Rothko-S against sort ------------------
big=$(gen "$rows") || exit 2
bigsize=$(wc -c < "$big")
cat "$big" > /dev/null	# warm the page cache
echo "1. $rows rows of gendata --seed 1 agrawal ($(awk -v b="$bigsize" \
    'BEGIN { printf "%.2f", b / 1e9 }') GB), QIs $QA,"
echo "   k = $K, -S $BUDGET, table to /dev/null, -T in a temp dir under $dir;"
echo "   one run each under GNU time, input in the page cache.  GB = 10^9 bytes;"
echo "   wr/rd: temp-file bytes from partition -v; fs-wr: bytes written to files"
echo "   (GNU time %O x 512: the spool, node files and the (row, class) pairs file)"
fcd=
if [ $fcache = 1 ]; then
	echo "   Rothko-T with --fcache 16 (the frequency groups of up to 16 nodes per scan)"
	fcd="--fcache 16"
fi
# shellcheck disable=SC2086 # split into words on purpose
rt=$(runp rothko-t "$big" $fcd) || exit 2
rs=$(runp rothko-s "$big") || exit 2
so=$(runsort "$big") || exit 2
printf '%-9s %8s %8s %8s %8s %6s %7s %7s %7s %6s %7s\n' command "wall s" \
    "cpu s" "RSS MiB" classes scans "wr GB" "rd GB" "fs-wr GB" repart pruned
echo "sort $so" | awk '{ printf "%-9s %8.1f %8.1f %8.1f %8s %6s %7s %7s %7.2f %6s %7s\n",
    $1, $4, $2 + $3, $5 / 1024, "-", "-", "-", "-", $6 * 512 / 1e9, "-", "-" }'
for a in T S; do
	if [ $a = T ]; then r=$rt; else r=$rs; fi
	echo "rothko-$a $r" | awk '{ printf "%-9s %8.1f %8.1f %8.1f %8s %6s %7.2f %7.2f %7.2f %6s %7s\n",
	    $1, $4, $2 + $3, $5 / 1024, $7, $9, $10 / 1e9, $11 / 1e9,
	    $6 * 512 / 1e9, $12, $15 }'
done
# The goals.  The pairs file (8 bytes a row) is read once per bucket of
# avail/8 rows of the output pass: its reads are taken out of the node
# files' reads, and its one write out of partition's "written".
echo "   goals:"
for a in T S; do
	if [ $a = T ]; then r=$rt; else r=$rs; fi
	echo "rothko-$a $r" | awk -v n="$rows" -v s="$so" -v a=$a '{
		split(s, b, " ")
		rss = $5 / 1024
		printf "   rothko-%s: peak RSS %.1f MiB (goal < 320 MiB): %s\n",
		    a, rss, rss < 320 ? "met" : "MISSED"
		spool = $16
		B = int($8 / 8); if (B < 4096) B = 4096
		nb = int((n + B - 1) / B)
		pr = nb * n * 8
		rd = ($11 - pr) / spool
		wr = ($10 - spool - n * 8) / spool
		printf "   rothko-%s: spool %.2f GB (%.1f bytes a row, packed); reads %.2f x the spool (%.2f of node files", \
		    a, spool / 1e9, spool / n, $11 / spool, rd
		printf " + %d read%s of the %.2f GB pairs file), writes %.2f x besides the spool", \
		    nb, nb == 1 ? "" : "s", n * 8 / 1e9, wr
		if (a == "S")
			printf "\n              (goal: at most 3 reads and 1 write): %s", \
			    (rd <= 3.0005 && wr <= 1.0005) ? "met" : "MISSED"
		printf "\n"
		if (b[3] > 0 && b[1] + b[2] > 0) {
			w = $4 / b[3]; c = ($2 + $3) / (b[1] + b[2])
			printf "   rothko-%s / sort: wall %.2f, cpu %.2f (goal <= 1): wall %s, cpu %s\n", \
			    a, w, c, w <= 1 ? "met" : "MISSED", c <= 1 ? "met" : "MISSED"
		} else
			printf "   rothko-%s / sort: sort took no measurable time\n", a
	}'
done
echo "   sort: GNU sort, $(nproc 2>/dev/null || echo '?') cores available (--parallel by default); wall and cpu are its own"

# ---- 2. scale-up ---------------------------------------------------------
echo
echo "2. Scale-up (004 Figures 12-15): the first rows of the table of 1, k = $K,"
echo "   -S $BUDGET (the sample of Rothko-S: as many rows as the budget holds).  wait ="
echo "   wall - user - sys (I/O and page-cache waits, less the time the counting"
echo "   threads of -j overlap; 0 when they overlap more)."
if [ $fcache = 1 ]; then
	echo "   Rothko-T with --fcache $fcs (004 Figure 13 is FCACHE 1, Figure 14 FCACHE 8;"
	echo "   partition's default is 16), then Rothko-S (Figure 15).  The rows of the whole"
	echo "   table repeat table 1's runs for --fcache 16 and Rothko-S."
	algos=
	for c in $fcs; do algos="$algos T$c"; done
	algos="$algos S"
else
	echo "   FCACHE (several nodes' frequency groups per scan) is not implemented:"
	echo "   Rothko-T here is FCACHE = 1 (Figure 13).  The last rows repeat table 1."
	algos="T S"
fi
printf '%10s %-8s %8s %8s %8s %8s %8s %7s %7s %6s %6s %8s\n' rows algo "wall s" \
    "user s" "sys s" "wait s" "RSS MiB" "wr GB" "rd GB" scans repart classes
for m in $((rows / 10)) $((rows / 4)) $((rows / 2)) $rows; do
	f=$(first "$big" "$rows" "$m") || exit 2
	[ "$m" -eq "$rows" ] || cat "$f" > /dev/null
	for a in $algos; do
		case $a/$m in
		"T/$rows" | "T16/$rows") r=$rt ;;
		"S/$rows") r=$rs ;;
		T/*) r=$(runp rothko-t "$f") || exit 2 ;;
		S/*) r=$(runp rothko-s "$f") || exit 2 ;;
		*) r=$(runp rothko-t "$f" --fcache "${a#T}") || exit 2 ;;
		esac
		case $a in
		T) lab=rothko-T ;;
		S) lab=rothko-S ;;
		*) lab="T fc${a#T}" ;;
		esac
		echo "$m $r" | awk -v lab="$lab" '{
			w = $4 - $2 - $3; if (w < 0) w = 0
			printf "%10s %-8s %8.1f %8.1f %8.1f %8.1f %8.1f %7.2f %7.2f %6s %6s %8s\n",
			    $1, lab, $4, $2, $3, w, $5 / 1024, $10 / 1e9, $11 / 1e9,
			    $9, $12, $7 }'
	done
done

# ---- 3. paper 004, Figure 28 -------------------------------------------
small=$(gen 100000) || exit 2
SIZES="100 250 500 1000 2500 5000 10000 25000"
echo
echo "3. 004 Figure 28: nodes pruned by Rothko-S, 100000 rows (gendata --seed 1"
echo "   agrawal), -a rothko-s -S 64M --sample n --fit-rows n (a node is"
echo "   partitioned in memory once it has at most n rows: the paper's memory"
echo "   is the sample; with more, the 100000 rows would fit and no sample be"
echo "   drawn), median cuts, tree grown to depth 8 before each repartitioning."
echo "   Cell: pruned with the hypothesis tests (pruned with --naive); '-': no"
echo "   partitioning (the table fails the requirement).  Every partitioning is"
echo "   minimal (the paper marks an x where it was not)."
echo "   After '|': the paper's figures (its Figure 28, as extracted from its text)."

# cell N OPTS...: "P (Q)" for a sample of N rows.
cell() {
	n=$1
	shift
	out=
	for naive in "" --naive; do
		"$part" -a rothko-s -S 64M --fit-rows "$n" --sample "$n" $naive \
		    -T "$tmp/T" -v "$@" "$small" > /dev/null 2> "$tmp/c.err"
		rc=$?
		if [ $rc -eq 1 ] && grep -q 'no partitioning' "$tmp/c.err"; then
			v=-
			echo "   exit 1: partition -a rothko-s -S 64M --fit-rows $n --sample $n $naive -v $*: $(cat "$tmp/c.err")" \
			    >> "$tmp/notes"
		elif [ $rc -ne 0 ]; then
			echo "bench: failed (exit $rc): $part -a rothko-s -S 64M --fit-rows $n --sample $n $naive -T $tmp/T -v $* $small" >&2
			cat "$tmp/c.err" >&2
			exit 2
		else
			v=$(sed -n 's/^partition: Rothko-S: .* \([0-9]*\) nodes pruned$/\1/p' \
			    "$tmp/c.err")
			[ -n "$v" ] || bench_die "no accounting from partition -v: $(cat "$tmp/c.err")"
		fi
		if [ -z "$naive" ]; then out=$v; else out="$out ($v)"; fi
	done
	echo "$out"
}

# paper TABLE N: the paper's cells for a sample of N rows, '|'-separated.
paper() {
	case $1/$2 in
	k/100) echo "68 (1384)|x (x)|x (x)" ;;
	k/250) echo "30 (1110)|7 (97)|x (x)" ;;
	k/500) echo "11 (419)|12 (55)|x (x)" ;;
	k/1000) echo "0 (0)|5 (6)|x (x)" ;;
	k/2500) echo "0 (0)|2 (1)|1 (3)" ;;
	k/5000) echo "0 (0)|0 (0)|1 (4)" ;;
	k/10000 | k/25000) echo "0 (0)|0 (0)|0 (0)" ;;
	l/100) echo "97 (631)|x (x)|x (x)|x (x)" ;;
	l/250) echo "65 (87)|x (x)|8 (67)|x (x)" ;;
	l/500) echo "2 (763)|x (111)|2 (32)|x (x)" ;;
	l/1000) echo "112 (91)|1 (170)|1 (33)|x (16)" ;;
	l/2500) echo "0 (0)|0 (2)|1 (0)|0 (2)" ;;
	l/5000) echo "0 (0)|0 (2)|0 (0)|0 (9)" ;;
	l/10000 | l/25000) echo "0 (0)|0 (1)|0 (0)|0 (0)" ;;
	v/100) echo "x (x)|x (x)|x (x)" ;;
	v/250) echo "x (510)|x (x)|x (x)" ;;
	v/500) echo "x (443)|x (434)|x (x)" ;;
	v/1000) echo "0 (456)|x (372)|x (x)" ;;
	v/2500) echo "0 (0)|0 (87)|x (146)" ;;
	v/5000) echo "0 (0)|0 (0)|0 (47)" ;;
	v/10000) echo "0 (0)|0 (0)|0 (5)" ;;
	v/25000) echo "0 (0)|0 (2)|0 (7)" ;;
	esac
}

# table NAME: one sub-table, a column for each of $heads; the cells come
# from cellopts.
table() {
	printf '%6s' n
	for h in $heads; do printf ' %15s' "$h"; done
	printf '  |'
	for h in $heads; do printf ' %11s' "$h"; done
	echo
	for n in $SIZES; do
		printf '%6s' "$n"
		for h in $heads; do
			c=$(cellopts "$1" "$h" "$n") || exit 2
			printf ' %15s' "$c"
		done
		printf '  |'
		paper "$1" "$n" | awk -F '|' '{ for (i = 1; i <= NF; i++)
		    printf " %11s", $i; printf "\n" }'
	done
}

cellopts() {
	case $1 in
	k) cell "$3" -q $QA -k "${2#k=}" ;;
	# Diversity alone, as the paper's figure: -k 1, since partition
	# implies no requirement.
	l) cell "$3" -q salary,commission,age,elevel,car,hvalue,hyears,loan \
	    -k 1 -s zipcode --diversity recursive -c 1 -l "${2#l=}" ;;
	v)
		case $2 in
		v=1.1e9) v=1100000000 ;;
		v=1.2e9) v=1200000000 ;;
		v=1.3e9) v=1300000000 ;;
		esac
		cell "$3" -q commission,age,elevel,car,zipcode,hvalue,hyears,loan \
		    -k 1 -s salary --variance "$v" ;;
	esac
}

echo "3a. k-anonymity, the 9 QIs"
heads="k=10 k=100 k=1000"
table k || exit 2
echo "3b. recursive (c,l)-diversity, -s zipcode, c = 1, QIs without zipcode"
heads="l=2 l=4 l=6 l=8"
table l || exit 2
echo "3c. variance diversity, -s salary (uniform, population variance about"
echo "    1.4e9), --variance v (given as integers), QIs without salary"
heads="v=1.1e9 v=1.2e9 v=1.3e9"
table v || exit 2
if [ -s "$tmp/notes" ]; then
	echo "   '-' cells (the table failed a requirement, by partition):"
	cat "$tmp/notes"
fi

bench_clean "$dir/agrawal-n$rows-seed1.tsv" \
    "$dir/agrawal-n$rows-seed1-first"*.tsv "$dir/agrawal-n100000-seed1.tsv"
exit 0
