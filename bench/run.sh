#!/bin/sh
# bench/run.sh: ptxemit against llc-22's NVPTX backend, ptxas and the I/O floor.
#
#   sh bench/run.sh [PTXEMIT]        (what `make bench` runs)
#
# For each size it generates a module (bench/mirgen.c) as MIR and as the
# equivalent LLVM IR, then times, in alternating rounds, ptxemit on the MIR,
# the I/O floor (bench/iofloor.c: read the MIR, write as many bytes as
# ptxemit's PTX, nothing in between), the parse floor (bench/floor.awk: the
# same flex scanner and Bison grammar with no actions, recognising the MIR)
# and llc -O0 on the LLVM IR; llc at its
# default level (-O2) and ptxas on ptxemit's PTX are timed once. It prints a
# table and writes it, with the command and the machine, to RESULTS.md.
# Ratios and verdicts use CPU time (user + system): all the tools are single
# threaded (ptxemit runs with -j 1 here), and on a shared machine their wall time also counts other jobs.
# They use net times: a tool's CPU time less that of starting a bare static
# process (bench/bare.c), which every tool pays alike and none can avoid; the
# raw times are in the table too.
#
# Then one kernel of 10K, 100K and 1M statements (mirgen --one-kernel: a
# dependent chain and a wide unrolled body), against the many-function module
# of the same size: time per statement and peak memory per statement.
#
# In-process latency: bench/latency.c, linked with libptxemit, translates a
# one-kernel module of 1,000 statements many times in one process.
#
# The hazard checks' cost: bench/hazards.c, linked with libptxemit and
# -Wl,--wrap=px_check_hazards, translates the largest module of each kind
# (many functions, one kernel) and times the checks inside each translation:
# their CPU time against the rest's (not measured where the linker cannot
# wrap a symbol).
#
# Everything above runs ptxemit -j 1 (one thread). Then -j: bench/jobs.c,
# linked with libptxemit, translates the largest module with 1, 2 and (where
# the machine has more) as many threads as it has CPUs: wall time, CPU time,
# and the calling thread's own CPU time (it reads and parses the module), from
# which a speed-up on that many free cores can be bounded even on a shared
# machine.
#
# The cubin cache: --cubin with an empty --cache-dir against a warm hit.
#
# Environment: BENCH_SIZES (node counts, default "1000 10000 100000 500000
# 1000000"), BENCH_ONE_SIZES (statements of the one-kernel modules, default
# "10000 100000 1000000"), BENCH_ROUNDS (default 5; 3 above 100000 nodes), BENCH_SLOW_MAX
# (largest size at which llc -O2 and ptxas are run, default 100000: they take
# minutes beyond), LLC, PTXAS, CC, FLEX, BISON, BENCH_WORK (scratch directory),
# BENCH_RESULTS (where the table goes, default RESULTS.md beside this script),
# PTXEMIT_LIB (the library for the latency row, default .libs/libptxemit.a beside
# PTXEMIT; the row is left out without it), PTXEMIT_LIBS (what it links with).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
ptxemit=${1:-./ptxemit}
case $ptxemit in /*) ;; *) ptxemit=$(pwd)/$ptxemit ;; esac
CC=${CC:-cc}
LLC=${LLC:-llc-22}
if [ -z "${PTXAS:-}" ]; then
	PTXAS=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
fi
sizes=${BENCH_SIZES:-"1000 10000 100000 500000 1000000"}
one_sizes=${BENCH_ONE_SIZES-"10000 100000 1000000"}
slow_max=${BENCH_SLOW_MAX:-100000}
work=${BENCH_WORK:-bench-work}
results=${BENCH_RESULTS:-$here/RESULTS.md}
target=sm_80

mkdir -p "$work"
for tool in mirgen timeit; do
	$CC -O2 -std=c11 -o "$work/$tool" "$here/$tool.c"
done
# the floors read their input with ptxemit's own reader (and the page
# mappings it reads into)
reader="$here/../src/driver/input.c $here/../src/util/pages.c"
$CC -O2 -std=c11 -pthread -I"$here/../src" -o "$work/iofloor" "$here/iofloor.c" $reader
# the parse floor: ptxemit's grammar and scanner with the actions taken out
grammar=$here/../grammar
awk -v part=y -f "$here/floor.awk" "$grammar/parser.y" > "$work/floor.y"
awk -v part=l -f "$here/floor.awk" "$grammar/lexer.l" > "$work/floor.l"
${BISON:-bison} -Wall -d -o "$work/floor.tab.c" "$work/floor.y"
${FLEX:-flex} -o "$work/floor.lex.c" "$work/floor.l"
$CC -O2 -std=c11 -pthread -I"$here/../src" -I"$work" -o "$work/floor" \
	"$work/floor.tab.c" "$work/floor.lex.c" $reader
# in-process latency: built against the library beside the binary
lib=${PTXEMIT_LIB:-$(dirname "$ptxemit")/.libs/libptxemit.a}
have_lib=no
if [ -f "$lib" ] && $CC -O2 -std=c11 -I"$here/../src" -o "$work/latency" "$here/latency.c" "$lib" \
	${PTXEMIT_LIBS:-} 2>/dev/null; then
	have_lib=yes
fi
have_jobs=no
if [ -f "$lib" ] && $CC -O2 -std=c11 -pthread -I"$here/../src" -o "$work/jobs" "$here/jobs.c" "$lib" \
	${PTXEMIT_LIBS:-} 2>/dev/null; then
	have_jobs=yes
fi
# the hazard checks' cost: the verifier's call to them reaches a timer in the
# benchmark; the library stays as ptxemit is built from it
have_hazards=no
if [ -f "$lib" ] && $CC -O2 -std=c11 -I"$here/../src" -Wl,--wrap=px_check_hazards -o "$work/hazards" \
	"$here/hazards.c" "$lib" ${PTXEMIT_LIBS:-} 2>/dev/null; then
	have_hazards=yes
fi
# where the time goes, stage by stage: the stages' entry points reach
# timers in the benchmark the same way (bench/stages.c)
have_stages=no
if [ -f "$lib" ] && $CC -O2 -std=c11 -I"$here/../src" -Wl,--wrap=px_verify_func -Wl,--wrap=px_check_hazards \
	-Wl,--wrap=px_select_begin -Wl,--wrap=px_select_more -Wl,--wrap=px_print_func_open -Wl,--wrap=px_print_insts \
	-Wl,--wrap=px_print_func_close -o "$work/stages" "$here/stages.c" "$lib" ${PTXEMIT_LIBS:-} 2>/dev/null; then
	have_stages=yes
fi
stages_many='' stages_one=''
# a sentence from bench/stages.c's line: CPU ms and share of each stage
stages_read() {
	awk -v what="$2" '{ printf "%s: %.1f ms CPU; front end and the rest %.1f ms (%.0f%%), verify %.1f ms (%.0f%%), hazard checks %.1f ms (%.0f%%), isel %.1f ms (%.0f%%), print %.1f ms (%.0f%%)",
		what, $1 * 1000, $2 * 1000, 100 * $2 / $1, $3 * 1000, 100 * $3 / $1, $4 * 1000, 100 * $4 / $1,
		$5 * 1000, 100 * $5 / $1, $6 * 1000, 100 * $6 / $1 }' "$1"
}
haz_cost='' haz_nodes='' haz_ms='' haz_in_ms='' haz_rounds=''
haz_one_cost='' haz_one_nodes='' haz_one_ms='' haz_one_in_ms='' haz_one_rounds=''
# CPU ms in the checks, and their cost against the rest, from bench/hazards.c's line
haz_read() { awk '{ printf "%.1f %.1f %.2f", $1 * 1000, $2 * 1000, $3 }' "$1"; }
cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
jobs_n="1 2"
[ "$cpus" -gt 2 ] && jobs_n="$jobs_n $cpus"
last_size= one_last=
for size in $sizes; do last_size=$size; done
for size in $one_sizes; do one_last=$size; done
# the cheapest process there is: static where the C library allows it
$CC -O2 -static -o "$work/bare" "$here/bare.c" 2>/dev/null || $CC -O2 -o "$work/bare" "$here/bare.c"
have_llc=yes
command -v "$LLC" >/dev/null 2>&1 || have_llc=no
have_ptxas=yes
[ -x "$PTXAS" ] || have_ptxas=no

table=$work/table.md
ms() { awk -v s="$1" 'BEGIN { printf "%.1f", s * 1000 }'; }
div() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else printf "-" }'; }
# a CPU time less the bare process's (never below a microsecond)
net() { awk -v a="$1" -v s="$spawn" 'BEGIN { d = a - s; printf "%.6f", (d > 1e-6 ? d : 1e-6) }'; }

# Start-up: an empty module, many rounds, beside the cost of starting any
# process at all (bare). The difference is what ptxemit adds.
printf 'target %s\n' "$target" > "$work/empty.mir"
set -- $("$work/timeit" 51 "$ptxemit" -j 1 "$work/empty.mir" -o "$work/empty.ptx" -- "$work/bare")
startup_ms=$(awk -v s="$1" 'BEGIN { printf "%.2f", s * 1000 }')
startup_rss=$(awk -v k="$3" 'BEGIN { printf "%.1f", k / 1024 }')
startup_cpu=$(awk -v s="$4" 'BEGIN { printf "%.2f", s * 1000 }')
spawn_wall=$6 spawn=$9
spawn_ms=$(awk -v s="$spawn" 'BEGIN { printf "%.2f", s * 1000 }')
spawn_wall_ms=$(awk -v s="$spawn_wall" 'BEGIN { printf "%.2f", s * 1000 }')
startup_net=$(awk -v a="$4" -v b="$spawn" 'BEGIN { d = (a - b) * 1000; printf "%.2f", (d > 0 ? d : 0) }')

# In-process latency: one kernel of about 1,000 statements, 201 rounds
lat_ms='' lat_min_ms='' lat_nodes=''
if [ $have_lib = yes ]; then
	lat_nodes=$("$work/mirgen" --one-kernel 1000 "$work/lat.mir" "$work/lat.ll")
	set -- $("$work/latency" 201 "$work/lat.mir")
	# CPU time, as everywhere else here: on a shared machine the wall time
	# also counts other jobs
	lat_ms=$(awk -v s="$3" 'BEGIN { printf "%.3f", s * 1000 }')
	lat_min_ms=$(awk -v s="$4" 'BEGIN { printf "%.3f", s * 1000 }')
	rm -f "$work/lat.mir" "$work/lat.ll"
fi

{
	echo "| nodes | MIR MB | PTX MB | ptxemit wall ms | ptxemit ms | ptxemit net ms | MB/s | Mnodes/s | peak RSS MiB | I/O floor ms | x floor | parse floor ms | x parse floor | llc -O0 ms | llc -O0 / ptxemit | llc -O2 ms | llc -O2 / ptxemit | ptxas ms | ptxemit % of ptxas |"
	echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
} > "$table"

prev_nodes='' prev_t='' linearity='' lin_worst=0
min_l0='' max_as='' last_floor='' last_parse='' last_rss='' last_nodes=
for size in $sizes; do
	mir=$work/m$size.mir ll=$work/m$size.ll ptx=$work/m$size.ptx
	nodes=$("$work/mirgen" "$size" "$mir" "$ll")
	"$ptxemit" -j 1 "$mir" -o "$ptx"
	mir_bytes=$(wc -c < "$mir") ptx_bytes=$(wc -c < "$ptx")
	rounds=${BENCH_ROUNDS:-$([ "$size" -gt 100000 ] && echo 3 || echo 5)}
	llc0=
	[ $have_llc = yes ] && llc0="-- $LLC -march=nvptx64 -mcpu=$target -O0 $ll -o $work/l0.ptx"
	set -- $("$work/timeit" "$rounds" "$ptxemit" -j 1 "$mir" -o "$ptx" \
		-- "$work/iofloor" "$mir" "$work/floor.out" "$ptx_bytes" \
		-- "$work/floor" "$mir" $llc0)
	wall_px=$1 rss=$3 t_px=$4 tmin_px=$5 t_io=$9 t_parse=${14} t_l0=${19:-}
	t_l2='' t_as=''
	if [ "$size" -le "$slow_max" ]; then
		[ $have_llc = yes ] &&
			t_l2=$("$work/timeit" 1 "$LLC" -march=nvptx64 -mcpu=$target "$ll" -o "$work/l2.ptx" | cut -d' ' -f4)
		[ $have_ptxas = yes ] &&
			t_as=$("$work/timeit" 1 "$PTXAS" -arch=$target "$ptx" -o "$work/out.cubin" | cut -d' ' -f4)
	fi
	if [ -n "$prev_t" ] && [ "$nodes" -ge $((2 * prev_nodes - prev_nodes / 10)) ] &&
		[ "$nodes" -le $((2 * prev_nodes + prev_nodes / 10)) ]; then
		# time per node against the smaller module's: 1.00 is linear. The
		# least-disturbed runs are compared: a neighbour's burst during one
		# size's rounds otherwise reads as a cost of the input.
		per=$(awk -v a="$tmin_px" -v b="$prev_t" -v n="$nodes" -v m="$prev_nodes" \
			'BEGIN { printf "%.2f", (a / n) / (b / m) }')
		linearity="$linearity $prev_nodes -> $nodes nodes: time x$(div "$tmin_px" "$prev_t"), per node x$per;"
		lin_worst=$(awk -v w="$lin_worst" -v p="$per" 'BEGIN { d = p > 1 ? p - 1 : 1 - p; print (d > w ? d : w) }')
	fi
	prev_nodes=$nodes prev_t=$tmin_px
	# this many-function module's CPU time per node (us), for the one-kernel rows
	# ratios of net times (see the top of this file)
	n_px=$(net "$t_px") n_io=$(net "$t_io") n_parse=$(net "$t_parse") n_l0=${t_l0:+$(net "$t_l0")}
	n_l2=${t_l2:+$(net "$t_l2")} n_as=${t_as:+$(net "$t_as")}
	r0=$(div "${n_l0:-0}" "$n_px")
	[ -n "$t_l0" ] && min_l0=$(awk -v m="${min_l0:-1e9}" -v r="$r0" 'BEGIN { print (r < m ? r : m) }')
	# ptxas's share is a target from 10,000 nodes on: below that both are
	# mostly start-up
	[ -n "$t_as" ] && [ "$nodes" -ge 10000 ] && max_as=$(awk -v m="${max_as:-0}" -v a="$n_px" -v b="$n_as" \
		'BEGIN { p = 100 * a / b; printf "%.2f", (p > m ? p : m) }')
	last_floor=$(div "$n_px" "$n_io") last_parse=$(div "$n_px" "$n_parse") last_rss=$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')
	last_nodes=$nodes
	printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' \
		"$nodes" \
		"$(awk -v b="$mir_bytes" 'BEGIN { printf "%.2f", b / 1e6 }')" \
		"$(awk -v b="$ptx_bytes" 'BEGIN { printf "%.2f", b / 1e6 }')" \
		"$(ms "$wall_px")" "$(ms "$t_px")" "$(awk -v s="$n_px" 'BEGIN { printf "%.2f", s * 1000 }')" \
		"$(awk -v b="$mir_bytes" -v t="$t_px" 'BEGIN { printf "%.1f", b / 1e6 / t }')" \
		"$(awk -v n="$nodes" -v t="$t_px" 'BEGIN { printf "%.2f", n / 1e6 / t }')" \
		"$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')" \
		"$(ms "$t_io")" "$(div "$n_px" "$n_io")" \
		"$(ms "$t_parse")" "$(div "$n_px" "$n_parse")" \
		"${t_l0:+$(ms "$t_l0")}" "${t_l0:+$(div "$n_l0" "$n_px")}" \
		"${t_l2:+$(ms "$t_l2")}" "${t_l2:+$(div "$n_l2" "$n_px")}" \
		"${t_as:+$(ms "$t_as")}" \
		"${t_as:+$(awk -v a="$n_px" -v b="$n_as" 'BEGIN { printf "%.2f", 100 * a / b }')}" \
		>> "$table"
	if [ "$size" = "$last_size" ] && [ $have_jobs = yes ]; then
		"$work/jobs" "$rounds" "$mir" $jobs_n > "$work/jobs.out"
		jobs_nodes=$nodes jobs_l0=${n_l0:-}
	fi
	if [ "$size" = "$last_size" ] && [ $have_hazards = yes ]; then
		"$work/hazards" "$rounds" "$mir" > "$work/hazards.out"
		set -- $(haz_read "$work/hazards.out")
		haz_nodes=$nodes haz_ms=$1 haz_in_ms=$2 haz_cost=$3 haz_rounds=$rounds
	fi
	if [ "$size" = "$last_size" ] && [ $have_stages = yes ]; then
		"$work/stages" "$rounds" "$mir" > "$work/stages.out" &&
			stages_many=$(stages_read "$work/stages.out" "the $nodes-node module")
	fi
	rm -f "$mir" "$ll" "$ptx" "$work/l0.ptx" "$work/l2.ptx" "$work/out.cubin" "$work/floor.out"
done

# Against llc-22 -O0 by the module's kernels (bench/mirgen.c --kernels): ptxemit
# on one thread and llc side by side in alternating rounds, net CPU times.
kernel_counts=${BENCH_KERNELS-"200 2000"}
kern_line='' min_kern=''
if [ $have_llc = yes ]; then
	for k in $kernel_counts; do
		mir=$work/k$k.mir ll=$work/k$k.ll
		nodes=$("$work/mirgen" --kernels "$k" "$mir" "$ll")
		rounds=${BENCH_ROUNDS:-$([ "$nodes" -gt 100000 ] && echo 3 || echo 5)}
		set -- $("$work/timeit" "$rounds" "$ptxemit" -j 1 "$mir" -o "$work/k.ptx" \
			-- "$LLC" -march=nvptx64 -mcpu=$target -O0 "$ll" -o "$work/l0.ptx")
		r=$(div "$(net "$9")" "$(net "$4")")
		kern_line="$kern_line $k kernels ($nodes nodes): ptxemit $(ms "$4") ms, llc -O0 $(ms "$9") ms, x$r;"
		min_kern=$(awk -v m="${min_kern:-1e9}" -v r="$r" 'BEGIN { print (r < m ? r : m) }')
		rm -f "$mir" "$ll" "$work/k.ptx" "$work/l0.ptx"
	done
fi

# -j: speed-ups against one thread. By wall time, what this run saw (on a
# shared machine, other jobs' share of the cores counts too); bounded by CPU
# times, what N free cores allow: the calling thread's CPU time, or the whole
# CPU time spread over N cores, whichever is longer. And what the machine
# gave N independent one-thread translations run at once in the same rounds:
# N times one translation's wall time over theirs (N when N cores are free and
# as fast together as one alone).
jobs_table=$work/jobs.md
jobs_wall2='' jobs_bound2='' jobs_l0x='' jobs_machine2=''
if [ -s "$work/jobs.out" ]; then
	{
		echo "| threads (-j) | wall ms | CPU ms | calling thread's CPU ms | speed-up (wall) | speed-up on free cores (bound from CPU times) | N one-thread translations at once: wall ms | the machine's N-core scaling |"
		echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
	} > "$jobs_table"
	set -- $(head -n 1 "$work/jobs.out")
	w1=$2 c1=$3
	while read -r n w c own indep; do
		k=$n
		[ "$k" -gt "$cpus" ] && k=$cpus
		sw=$(div "$w1" "$w")
		sb=$(awk -v c1="$c1" -v c="$c" -v o="$own" -v k="$k" 'BEGIN { t = c / k; if (o > t) t = o; printf "%.2f", c1 / t }')
		iw='' sm=''
		if [ "$n" -gt 1 ]; then
			iw=$(ms "$indep")
			sm=$(awk -v n="$n" -v w1="$w1" -v i="$indep" 'BEGIN { printf "%.2f", n * w1 / i }')
		fi
		printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$n" "$(ms "$w")" "$(ms "$c")" "$(ms "$own")" "$sw" "$sb" "$iw" "$sm" >> "$jobs_table"
		if [ "$n" = 2 ]; then
			jobs_wall2=$sw jobs_bound2=$sb jobs_machine2=$sm
			[ -n "$jobs_l0" ] && jobs_l0x=$(awk -v l="$jobs_l0" -v c1="$c1" -v s="$sw" 'BEGIN { printf "%.1f", l / (c1 / s) }')
		fi
	done < "$work/jobs.out"
fi

# One kernel of N statements against the many-function module of N nodes,
# the two timed in alternating rounds: on a shared machine the speed of a
# core drifts by a third within minutes, so a ratio of times taken at
# different moments measures the drift as much as the kernel.
one_table=$work/one.md
one_worst_t='' one_worst_b=''
if [ -n "$one_sizes" ]; then
	{
		echo "| statements in one kernel | ptxemit ms | ptxemit net ms | us / statement | many functions: us / node | one / many | peak RSS MiB | bytes / statement |"
		echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
	} > "$one_table"
	for size in $one_sizes; do
		mir=$work/k$size.mir ll=$work/k$size.ll ptx=$work/k$size.ptx
		nodes=$("$work/mirgen" --one-kernel "$size" "$mir" "$ll")
		many=$work/m$size.mir
		many_nodes=$("$work/mirgen" "$size" "$many" "$work/m$size.ll")
		rounds=${BENCH_ROUNDS:-$([ "$size" -gt 100000 ] && echo 3 || echo 5)}
		"$work/timeit" "$rounds" "$ptxemit" -j 1 "$mir" -o "$ptx" \
			-- "$ptxemit" -j 1 "$many" -o "$work/m$size.ptx" > "$work/one.out"
		set -- $(sed -n 1p "$work/one.out")
		rss=$3 t_px=$4 tmin=$5
		n_px=$(net "$t_px")
		per=$(awk -v t="$tmin" -v n="$nodes" 'BEGIN { printf "%.3f", t * 1e6 / n }')
		set -- $(sed -n 2p "$work/one.out")
		many_per=$(awk -v t="$5" -v n="$many_nodes" 'BEGIN { printf "%.3f", t * 1e6 / n }')
		ratio=$(awk -v a="$per" -v b="$many_per" 'BEGIN { printf "%.2f", a / b }')
		one_worst_t=$(awk -v w="${one_worst_t:-0}" -v r="$ratio" 'BEGIN { print (r > w ? r : w) }')
		bps=$(awk -v k="$rss" -v n="$nodes" 'BEGIN { printf "%.0f", k * 1024 / n }')
		[ "$size" -ge 1000000 ] && one_worst_b=$bps
		if [ "$size" = "$one_last" ] && [ $have_hazards = yes ]; then
			"$work/hazards" "$rounds" "$mir" > "$work/hazards.out"
			set -- $(haz_read "$work/hazards.out")
			haz_one_nodes=$nodes haz_one_ms=$1 haz_one_in_ms=$2 haz_one_cost=$3 haz_one_rounds=$rounds
		fi
		if [ "$size" = "$one_last" ] && [ $have_stages = yes ]; then
			"$work/stages" "$rounds" "$mir" > "$work/stages.out" &&
				stages_one=$(stages_read "$work/stages.out" "one kernel of $nodes statements")
		fi
		printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$nodes" "$(ms "$t_px")" \
			"$(awk -v s="$n_px" 'BEGIN { printf "%.2f", s * 1000 }')" "$per" "$many_per" "$ratio" \
			"$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')" "$bps" >> "$one_table"
		rm -f "$mir" "$ll" "$ptx" "$many" "$work/m$size.ll" "$work/m$size.ptx" "$work/one.out"
	done
fi

verdict() { awk -v v="$1" -v lim="$2" -v dir="$3" \
	'BEGIN { if (v == "") print "not measured"; else if ((dir == "<" && v + 0 < lim + 0) || (dir == ">" && v + 0 >= lim + 0)) print "met"; else print "NOT met" }'; }
{
	echo
	echo "Start-up on an empty module: $startup_ms ms wall, $startup_cpu ms CPU, peak RSS $startup_rss MiB;"
	echo "a bare static process (bench/bare.c) takes $spawn_wall_ms ms wall, $spawn_ms ms CPU here (medians of 51),"
	echo "so ptxemit's own start-up is $startup_net ms."
	[ -n "$lat_ms" ] && echo "In-process (bench/latency.c, px_translate on one kernel of $lat_nodes statements, 201 rounds): $lat_ms ms CPU median, $lat_min_ms ms least."
	if [ -n "$haz_cost" ]; then
		haz_one=
		[ -n "$haz_one_cost" ] &&
			haz_one="; $haz_one_in_ms of $haz_one_ms ms on one kernel of $haz_one_nodes statements ($haz_one_rounds rounds), +$haz_one_cost%"
		echo "Hazard checks (bench/hazards.c, px_check_hazards timed inside px_translate, -j 1, thread CPU time, medians):" \
			"$haz_in_ms of $haz_ms ms on the $haz_nodes-node module ($haz_rounds rounds), +$haz_cost% over the rest$haz_one."
	fi
	[ -n "$stages_many$stages_one" ] &&
		echo "Stages (bench/stages.c, each stage's entry point timed inside px_translate, its nested stages left out, -j 1, thread CPU time, medians):" \
			"${stages_many:+$stages_many.}${stages_one:+ $stages_one.}"
	[ -n "$linearity" ] && echo "Linearity (ptxemit's least CPU time over the rounds when the module doubles):$linearity"
	[ -n "$kern_line" ] && echo "By kernels (bench/mirgen.c --kernels, ptxemit -j 1 and llc-22 -O0 in alternating rounds, net CPU time, medians):$kern_line"
	echo
	echo "Times are CPU times (user + system) except the wall column; net times, ratios and the"
	echo "x floor and % columns subtract the bare process's $spawn_ms ms from each tool's time;"
	echo "MB/s and Mnodes/s use the raw time. Medians of alternating rounds"
	echo "(${BENCH_ROUNDS:-5; 3 above 100000 nodes}) of ptxemit, the I/O floor, the parse floor and llc -O0;"
	echo "llc -O2 and ptxas ran once, and only up to $slow_max nodes (empty cells: not run)."
	echo
	echo "| target | measured | verdict |"
	echo "|---|---:|---|"
	echo "| >= 25x faster than llc-22 -O0 on one thread at $(echo $kernel_counts | sed 's/ / and /') kernels (net) | ${min_kern:+x$min_kern (worst)} | $(verdict "$min_kern" 25 ">") |"
	echo "| >= 50x faster than llc -O0 at every size (net) | ${min_l0:+x$min_l0 (worst)} | $(verdict "$min_l0" 50 ">") |"
	echo "| < 2% of ptxas's time at 10000 nodes and above (net) | ${max_as:+$max_as% (worst)} | $(verdict "$max_as" 2 "<") |"
	echo "| within 5x of the I/O floor at $last_nodes nodes | x$last_floor | $(verdict "$last_floor" 5 "<") |"
	echo "| within 2.5x of the parse floor at $last_nodes nodes | x$last_parse | $(verdict "$last_parse" 2.5 "<") |"
	echo "| start-up < 2 ms (over a bare process) | $startup_net ms | $(verdict "$startup_net" 2 "<") |"
	echo "| < 64 MiB resident at $last_nodes nodes | $last_rss MiB | $(verdict "$last_rss" 64 "<") |"
	haz_worst=$(awk -v a="$haz_cost" -v b="$haz_one_cost" 'BEGIN { if (a != "") print (b != "" && b + 0 > a + 0 ? b : a) }')
	echo "| hazard checks: < 15% more CPU time at ${haz_nodes:-$last_nodes} nodes | ${haz_worst:++$haz_worst%${haz_one_cost:+ (worst)}} | $(verdict "$haz_worst" 15 "<") |"
	echo "| a 1K-statement kernel translated in-process in < 1 ms | ${lat_ms:+$lat_ms ms} | $(verdict "$lat_ms" 1 "<") |"
	if [ -n "$one_sizes" ]; then
		echo "| one kernel: time per statement within 1.5x of many functions | ${one_worst_t:+x$one_worst_t (worst)} | $(verdict "$one_worst_t" 1.5 "<") |"
		echo "| one kernel of 1M statements: < 256 bytes per statement | ${one_worst_b:+$one_worst_b B} | $(verdict "$one_worst_b" 256 "<") |"
	fi
	lin_pct=$(awk -v w="$lin_worst" 'BEGIN { printf "%.0f", w * 100 }')
	if [ -n "$linearity" ]; then
		echo "| linear: doubling within 10% | $lin_pct% off (worst) | $(verdict "$lin_pct" 10 "<") |"
	else
		echo "| linear: doubling within 10% | | not measured |"
	fi
	if [ -s "$jobs_table" ]; then
		echo "| -j 2: >= 1.7x one thread at $jobs_nodes nodes (wall) | x$jobs_wall2 (free cores: x$jobs_bound2; the machine's 2-core scaling: x$jobs_machine2) | $(verdict "$jobs_wall2" 1.7 ">") |"
		echo "| -j 2: >= 40x llc -O0 at $jobs_nodes nodes | ${jobs_l0x:+x$jobs_l0x} | $(verdict "$jobs_l0x" 40 ">") |"
		echo
		echo "Threads (bench/jobs.c: px_translate with px_options.jobs on the $jobs_nodes-node module, in-process,"
		echo "medians of alternating rounds; llc -O0's ratio uses its net CPU time against ptxemit's one-thread CPU time"
		echo "over the wall speed-up; the machine's scaling is N times the one-thread wall time over that of N"
		echo "independent one-thread translations run at once in the same rounds):"
		echo
		cat "$jobs_table"
	fi
	if [ -n "$one_sizes" ]; then
		echo
		echo "One kernel (bench/mirgen.c --one-kernel: a dependent chain, then a wide unrolled body;"
		echo "least CPU time over the rounds, per statement, against the many-function module of the same size"
		echo "timed in the same, alternating rounds):"
		echo
		cat "$one_table"
	fi
} >> "$table"

# The cubin cache (--cache-dir): a cold assemble (an empty cache: ptxemit,
# then ptxas, then the entry written) against a warm hit (the entry read, its
# messages replayed, no ptxas), wall time, median of BENCH_ROUNDS rounds.
if [ $have_ptxas = yes ]; then
	rounds=${BENCH_ROUNDS:-5}
	{
		echo
		echo "Cubin cache (\`ptxemit --cubin --cache-dir=DIR\`, wall ms, median of $rounds alternating rounds):"
		echo
		echo "| module | cold assemble ms | warm hit ms | cold / warm |"
		echo "|---|---|---|---|"
		for m in vadd gemm hopper_gemm; do
			mir="$here/../examples/$m.mir"
			[ -f "$mir" ] || continue
			cold= warm=
			i=0
			while [ $i -lt "$rounds" ]; do
				rm -rf "$work/cache"
				t0=$(date +%s%N)
				"$ptxemit" --ptxas="$PTXAS" --cache-dir="$work/cache" "$mir" -o "$work/k.cubin" 2>/dev/null
				t1=$(date +%s%N)
				"$ptxemit" --ptxas="$PTXAS" --cache-dir="$work/cache" "$mir" -o "$work/k.cubin" 2>/dev/null
				t2=$(date +%s%N)
				cold="$cold $(( (t1 - t0) / 1000 ))"
				warm="$warm $(( (t2 - t1) / 1000 ))"
				i=$((i + 1))
			done
			median() { printf '%s\n' $1 | sort -n | awk '{ v[NR] = $1 } END { printf "%.2f", v[int((NR + 1) / 2)] / 1000 }'; }
			c=$(median "$cold")
			w=$(median "$warm")
			echo "| $m | $c | $w | x$(awk -v c="$c" -v w="$w" 'BEGIN { printf "%.0f", (w > 0 ? c / w : 0) }') |"
		done
	} >> "$table"
	rm -rf "$work/cache" "$work/k.cubin"
fi

cat "$table"
{
	echo "# ptxemit benchmark results"
	echo
	echo "Produced by \`make bench\` (\`sh bench/run.sh ./ptxemit\`) on $(date -u '+%Y-%m-%d %H:%M UTC')."
	echo
	echo "- machine: $(uname -srm), $(getconf _NPROCESSORS_ONLN) CPUs, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || echo unknown)"
	echo "- ptxemit: $("$ptxemit" --version)"
	[ $have_llc = yes ] && echo "- llc: $("$LLC" --version | awk '/LLVM version/ { print $NF; exit }') (\`$LLC -march=nvptx64 -mcpu=$target\`)"
	[ $have_ptxas = yes ] && echo "- ptxas: $("$PTXAS" --version | tail -1) (\`ptxas -arch=$target\`)"
	echo "- load average when the run ended: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
	echo "- target: $target; a node is one MIR instruction statement"
	echo
	cat "$table"
} > "$results"
rm -f "$work/jobs" "$work/jobs.out" "$work/hazards" "$work/hazards.out" "$work/stages" "$work/stages.out" "$jobs_table" "$work/latency" "$work/mirgen" "$work/timeit" "$work/iofloor" "$work/bare" "$work"/floor* "$work/empty.mir" "$work/empty.ptx" "$table" "$work/one.md"
rmdir "$work" 2>/dev/null || true
echo "results written to $results"
