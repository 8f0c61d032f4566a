/* mirgen: writes one benchmark module twice, as MIR for ptxemit and as the
 * equivalent LLVM IR for llc -march=nvptx64, kernel for kernel.
 *
 *   mirgen [--one-kernel | --kernels] N OUT.mir OUT.ll
 *
 * The module is a sequence of units, each a small device function and a
 * kernel that calls it: a bounds check, a loop whose body mixes integer,
 * floating-point, bit, compare, conversion, shared-memory, barrier, call and
 * predicated operations, then an atomic and a global store. Kernel sizes vary
 * (a fixed pseudo-random sequence) from about 60 to 500 nodes, so a bigger
 * module has more functions, not bigger ones. A node is one MIR instruction
 * statement; units are added until the module has at least N of them (with
 * --kernels: until it has N kernels), and the count of nodes written is
 * printed on standard output.
 *
 * With --one-kernel the module is a single kernel of about NODES statements,
 * the shape of a generated, fully unrolled kernel: a dependent chain (each
 * step an fma, a max, a compare and a select on the step before) for the
 * first half, then a wide unrolled body (WIDE accumulators loaded from global
 * memory, updated by an fma each per round, as in an unrolled GEMM's inner
 * loop), summed and stored at the end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TARGET_SM = 80 };

static unsigned long nodes;
/* The unit being written: its kernel calls device function @h<k_cur>. */
static unsigned k_cur;

/* Three loop-body chunk kinds; each updates the accumulator %acc. */
enum { CHUNK_FLOAT, CHUNK_INT, CHUNK_MATH, NCHUNK };

/* The LLVM name of the accumulator after chunk c of kind k. */
static void acc_after(char *name, size_t size, int kind, unsigned c)
{
	static const char *const last[NCHUNK] = {"y", "c", "s"};
	snprintf(name, size, "%%acc%s%u", last[kind], c);
}

static void chunk_mir(FILE *m, int kind, unsigned c)
{
	switch (kind) {
	case CHUNK_FLOAT:
		fprintf(m,
		        "  %%f%1$u:f32 = fma.rn %%x, 1.5, %%acc\n"
		        "  %%g%1$u:f32 = max %%f%1$u, %%acc\n"
		        "  %%u%1$u:u32 = cvt.rzi %%f%1$u\n"
		        "  %%v%1$u:u32 = xor %%u%1$u, %%j\n"
		        "  %%w%1$u:u32 = shr %%v%1$u, 3\n"
		        "  %%q%1$u:pred = setp.lt %%w%1$u, %%n\n"
		        "  @%%q%1$u %%acc = add %%acc, %%g%1$u\n"
		        "  st.shared [%%mine], %%acc\n"
		        "  bar.sync 0\n"
		        "  %%s%1$u:f32 = ld.shared [%%mine]\n"
		        "  %%y%1$u:f32 = call @h%2$u(%%s%1$u, %%x)\n"
		        "  %%acc = selp %%y%1$u, %%acc, %%q%1$u\n",
		        c, k_cur);
		nodes += 12;
		break;
	case CHUNK_INT:
		fprintf(m,
		        "  %%a%1$u:u32 = mad.lo %%j, 7, %%t\n"
		        "  %%b%1$u:u32 = and %%a%1$u, 255\n"
		        "  %%c%1$u:u32 = popc %%b%1$u\n"
		        "  %%d%1$u:u32 = min %%c%1$u, %%n\n"
		        "  %%e%1$u:u32 = shl %%d%1$u, 1\n"
		        "  %%p%1$u:pred = setp.ne %%e%1$u, 0\n"
		        "  %%h%1$u:f32 = cvt.rn %%e%1$u\n"
		        "  @%%p%1$u %%acc = fma.rn %%h%1$u, 0.5, %%acc\n",
		        c);
		nodes += 8;
		break;
	default:
		fprintf(m,
		        "  %%r%1$u:f32 = mul %%acc, 0.25\n"
		        "  %%d%1$u:f32 = sub %%r%1$u, %%x\n"
		        "  %%b%1$u:f32 = abs %%d%1$u\n"
		        "  %%w%1$u:f32 = min %%b%1$u, 100.0\n"
		        "  %%z%1$u:pred = setp.gt %%w%1$u, %%x\n"
		        "  %%acc = selp %%w%1$u, %%acc, %%z%1$u\n",
		        c);
		nodes += 6;
		break;
	}
}

/* The same chunk in SSA form: a predicated update becomes a select. acc is
 * the accumulator's name before the chunk. */
static void chunk_ll(FILE *l, int kind, unsigned c, const char *acc)
{
	switch (kind) {
	case CHUNK_FLOAT:
		fprintf(l,
		        "  %%f%1$u = call float @llvm.fma.f32(float %%x, float 1.5, float %2$s)\n"
		        "  %%g%1$u = call float @llvm.maxnum.f32(float %%f%1$u, float %2$s)\n"
		        "  %%u%1$u = fptoui float %%f%1$u to i32\n"
		        "  %%v%1$u = xor i32 %%u%1$u, %%j\n"
		        "  %%w%1$u = lshr i32 %%v%1$u, 3\n"
		        "  %%q%1$u = icmp ult i32 %%w%1$u, %%n\n"
		        "  %%ad%1$u = fadd float %2$s, %%g%1$u\n"
		        "  %%accp%1$u = select i1 %%q%1$u, float %%ad%1$u, float %2$s\n"
		        "  store float %%accp%1$u, ptr addrspace(3) %%mine, align 4\n"
		        "  call void @llvm.nvvm.barrier0()\n"
		        "  %%s%1$u = load float, ptr addrspace(3) %%mine, align 4\n"
		        "  %%y%1$u = call float @h%3$u(float %%s%1$u, float %%x)\n"
		        "  %%accy%1$u = select i1 %%q%1$u, float %%y%1$u, float %%accp%1$u\n",
		        c, acc, k_cur);
		break;
	case CHUNK_INT:
		fprintf(l,
		        "  %%a0%1$u = mul i32 %%j, 7\n"
		        "  %%a%1$u = add i32 %%a0%1$u, %%t\n"
		        "  %%b%1$u = and i32 %%a%1$u, 255\n"
		        "  %%c%1$u = call i32 @llvm.ctpop.i32(i32 %%b%1$u)\n"
		        "  %%d%1$u = call i32 @llvm.umin.i32(i32 %%c%1$u, i32 %%n)\n"
		        "  %%e%1$u = shl i32 %%d%1$u, 1\n"
		        "  %%p%1$u = icmp ne i32 %%e%1$u, 0\n"
		        "  %%h%1$u = uitofp i32 %%e%1$u to float\n"
		        "  %%fm%1$u = call float @llvm.fma.f32(float %%h%1$u, float 0.5, float %2$s)\n"
		        "  %%accc%1$u = select i1 %%p%1$u, float %%fm%1$u, float %2$s\n",
		        c, acc);
		break;
	default:
		fprintf(l,
		        "  %%r%1$u = fmul float %2$s, 0.25\n"
		        "  %%d%1$u = fsub float %%r%1$u, %%x\n"
		        "  %%b%1$u = call float @llvm.fabs.f32(float %%d%1$u)\n"
		        "  %%w%1$u = call float @llvm.minnum.f32(float %%b%1$u, float 100.0)\n"
		        "  %%z%1$u = fcmp ogt float %%w%1$u, %%x\n"
		        "  %%accs%1$u = select i1 %%z%1$u, float %%w%1$u, float %2$s\n",
		        c, acc);
		break;
	}
}

static unsigned long seed = 12345;

static unsigned next_rand(void)
{
	seed = seed * 6364136223846793005UL + 1442695040888963407UL;
	return (unsigned)(seed >> 33);
}

static void unit(FILE *m, FILE *l, unsigned k)
{
	k_cur = k;
	fprintf(m,
	        "func @h%u(%%x: f32, %%y: f32) -> (f32) {\n"
	        "  %%m:f32 = mul %%x, %%y\n"
	        "  %%r:f32 = add %%m, %u.0\n"
	        "  ret %%r\n"
	        "}\n\n",
	        k, k % 7);
	nodes += 3;
	fprintf(l,
	        "define float @h%u(float %%x, float %%y) {\n"
	        "  %%m = fmul float %%x, %%y\n"
	        "  %%r = fadd float %%m, %u.0\n"
	        "  ret float %%r\n"
	        "}\n\n",
	        k, k % 7);

	fprintf(m,
	        "kernel @k%u(%%a: ptr global, %%b: ptr global, %%cnt: ptr global, %%n: u32) "
	        "reqntid(256) {\n"
	        "  %%t:u32 = mov %%tid.x\n"
	        "  %%cta:u32 = mov %%ctaid.x\n"
	        "  %%i:u32 = mad.lo %%cta, 256, %%t\n"
	        "  %%oob:pred = setp.ge %%i, %%n\n"
	        "  @%%oob bra ^done\n"
	        "  %%off:u64 = mul.wide %%i, 4\n"
	        "  %%pa:u64 = add %%a, %%off\n"
	        "  %%pb:u64 = add %%b, %%off\n"
	        "  %%x:f32 = ld.global [%%pa]\n"
	        "  %%sm:u32 = mov @smem\n"
	        "  %%toff:u32 = shl %%t, 2\n"
	        "  %%mine:u32 = add %%sm, %%toff\n"
	        "  %%acc:f32 = mov 0.0\n"
	        "  %%j:u32 = mov 0\n"
	        "^loop:\n",
	        k);
	nodes += 14;
	unsigned nchunks = 4 + next_rand() % 37;
	int kinds[40];
	for (unsigned c = 0; c < nchunks; c++)
		kinds[c] = (int)((c + k) % NCHUNK);
	char acc[32];
	acc_after(acc, sizeof acc, kinds[nchunks - 1], nchunks - 1);
	fprintf(l,
	        "define ptx_kernel void @k%u(ptr addrspace(1) %%a, ptr addrspace(1) %%b, "
	        "ptr addrspace(1) %%cnt, i32 %%n) \"nvvm.reqntid\"=\"256,1,1\" {\n"
	        "entry:\n"
	        "  %%t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
	        "  %%cta = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n"
	        "  %%i0 = mul i32 %%cta, 256\n"
	        "  %%i = add i32 %%i0, %%t\n"
	        "  %%oob = icmp uge i32 %%i, %%n\n"
	        "  br i1 %%oob, label %%done, label %%body\n"
	        "body:\n"
	        "  %%off = zext i32 %%i to i64\n"
	        "  %%pa = getelementptr float, ptr addrspace(1) %%a, i64 %%off\n"
	        "  %%pb = getelementptr float, ptr addrspace(1) %%b, i64 %%off\n"
	        "  %%x = load float, ptr addrspace(1) %%pa, align 4\n"
	        "  %%mine = getelementptr [256 x float], ptr addrspace(3) @smem, i32 0, i32 %%t\n"
	        "  br label %%loop\n"
	        "loop:\n"
	        "  %%acc = phi float [0.0, %%body], [%s, %%loop]\n"
	        "  %%j = phi i32 [0, %%body], [%%j1, %%loop]\n",
	        k, acc);
	char cur[32] = "%acc";
	for (unsigned c = 0; c < nchunks; c++) {
		chunk_mir(m, kinds[c], c);
		chunk_ll(l, kinds[c], c, cur);
		acc_after(cur, sizeof cur, kinds[c], c);
	}
	fprintf(m,
	        "  %%j = add %%j, 1\n"
	        "  %%more:pred = setp.lt %%j, 4\n"
	        "  @%%more bra ^loop\n"
	        "  %%ui:u32 = cvt.rzi %%acc\n"
	        "  _ = atom.global.add [%%cnt], %%ui\n"
	        "  st.global [%%pb], %%acc\n"
	        "^done:\n"
	        "  ret\n"
	        "}\n\n");
	nodes += 7;
	fprintf(l,
	        "  %%j1 = add i32 %%j, 1\n"
	        "  %%more = icmp ult i32 %%j1, 4\n"
	        "  br i1 %%more, label %%loop, label %%exit\n"
	        "exit:\n"
	        "  %%ui = fptoui float %s to i32\n"
	        "  %%old = atomicrmw add ptr addrspace(1) %%cnt, i32 %%ui monotonic\n"
	        "  store float %s, ptr addrspace(1) %%pb, align 4\n"
	        "  br label %%done\n"
	        "done:\n"
	        "  ret void\n"
	        "}\n\n",
	        acc, acc);
}

enum { WIDE = 32 };

/* The --one-kernel module's kernel: a chain of steps of 4 statements, then
 * rounds of WIDE independent fmas, until about want statements. */
static void one_kernel(FILE *m, FILE *l, unsigned long want)
{
	fprintf(m,
	        "kernel @big(%%a: ptr global, %%b: ptr global, %%n: u32) reqntid(256) {\n"
	        "  %%t:u32 = mov %%tid.x\n"
	        "  %%off:u64 = mul.wide %%t, %u\n"
	        "  %%pa:u64 = add %%a, %%off\n"
	        "  %%pb:u64 = add %%b, %%off\n"
	        "  %%x:f32 = ld.global [%%pa]\n"
	        "  %%y:f32 = cvt.rn %%n\n"
	        "  %%c0:f32 = mov 1.0\n",
	        4 * WIDE);
	fprintf(l,
	        "define ptx_kernel void @big(ptr addrspace(1) %%a, ptr addrspace(1) %%b, i32 %%n) "
	        "\"nvvm.reqntid\"=\"256,1,1\" {\n"
	        "  %%t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
	        "  %%t64 = zext i32 %%t to i64\n"
	        "  %%off = mul i64 %%t64, %u\n"
	        "  %%pa = getelementptr i8, ptr addrspace(1) %%a, i64 %%off\n"
	        "  %%pb = getelementptr i8, ptr addrspace(1) %%b, i64 %%off\n"
	        "  %%x = load float, ptr addrspace(1) %%pa, align 4\n"
	        "  %%y = uitofp i32 %%n to float\n",
	        4 * WIDE);
	nodes += 7;
	unsigned long steps = want / 2 / 4, i;
	for (i = 1; i <= steps; i++) {
		fprintf(m,
		        "  %%f%1$lu:f32 = fma.rn %%c%2$lu, %%x, 0.5\n"
		        "  %%g%1$lu:f32 = max %%f%1$lu, %%x\n"
		        "  %%q%1$lu:pred = setp.lt %%g%1$lu, %%y\n"
		        "  %%c%1$lu:f32 = selp %%g%1$lu, %%f%1$lu, %%q%1$lu\n",
		        i, i - 1);
		if (i == 1)
			fprintf(l, "  %%f1 = call float @llvm.fma.f32(float 1.0, float %%x, float 0.5)\n");
		else
			fprintf(l, "  %%f%1$lu = call float @llvm.fma.f32(float %%c%2$lu, float %%x, float 0.5)\n",
			        i, i - 1);
		fprintf(l,
		        "  %%g%1$lu = call float @llvm.maxnum.f32(float %%f%1$lu, float %%x)\n"
		        "  %%q%1$lu = fcmp olt float %%g%1$lu, %%y\n"
		        "  %%c%1$lu = select i1 %%q%1$lu, float %%g%1$lu, float %%f%1$lu\n",
		        i);
		nodes += 4;
	}
	/* the chain's last value; in the LLVM IR %c0 is the constant itself */
	char cend[32];
	snprintf(cend, sizeof cend, steps ? "%%c%lu" : "1.0", steps);
	for (unsigned k = 0; k < WIDE; k++) {
		fprintf(m, "  %%w0_%1$u:f32 = ld.global [%%pa + %2$u]\n", k, 4 * k);
		fprintf(l,
		        "  %%p%1$u = getelementptr i8, ptr addrspace(1) %%pa, i64 %2$u\n"
		        "  %%w0_%1$u = load float, ptr addrspace(1) %%p%1$u, align 4\n",
		        k, 4 * k);
	}
	nodes += WIDE;
	unsigned long r;
	for (r = 1; nodes + WIDE + 3 < want || r == 1; r++) {
		for (unsigned k = 0; k < WIDE; k++) {
			fprintf(m, "  %%w%1$lu_%2$u:f32 = fma.rn %%w%3$lu_%2$u, %%c%4$lu, %%x\n", r, k, r - 1, steps);
			fprintf(l, "  %%w%1$lu_%2$u = call float @llvm.fma.f32(float %%w%3$lu_%2$u, float %4$s, float %%x)\n",
			        r, k, r - 1, cend);
		}
		nodes += WIDE;
	}
	fprintf(m, "  %%s0:f32 = mov %%w%lu_0\n", r - 1);
	fprintf(l, "  %%s0 = fadd float %%w%lu_0, 0.0\n", r - 1);
	for (unsigned k = 1; k < WIDE; k++) {
		fprintf(m, "  %%s%1$u:f32 = add %%s%2$u, %%w%3$lu_%1$u\n", k, k - 1, r - 1);
		fprintf(l, "  %%s%1$u = fadd float %%s%2$u, %%w%3$lu_%1$u\n", k, k - 1, r - 1);
	}
	fprintf(m, "  st.global [%%pb], %%s%u\n  ret\n}\n", WIDE - 1);
	fprintf(l, "  store float %%s%u, ptr addrspace(1) %%pb, align 4\n  ret void\n}\n", WIDE - 1);
	nodes += WIDE + 2;
}

int main(int argc, char **argv)
{
	int one = argc == 5 && strcmp(argv[1], "--one-kernel") == 0;
	int kernels = argc == 5 && strcmp(argv[1], "--kernels") == 0;
	if (argc != 4 + one + kernels) {
		fputs("usage: mirgen [--one-kernel | --kernels] N OUT.mir OUT.ll\n", stderr);
		return 2;
	}
	argv += one + kernels;
	unsigned long want = strtoul(argv[1], NULL, 10);
	FILE *m = fopen(argv[2], "w");
	FILE *l = fopen(argv[3], "w");
	if (!m || !l) {
		perror("mirgen");
		return 2;
	}
	fprintf(m, "; ptxemit benchmark module, %lu %s requested\ntarget sm_%d\n\n"
	           "shared @smem : f32[256] align 4\n\n", want, kernels ? "kernels" : "nodes", TARGET_SM);
	fprintf(l, "; the LLVM IR twin of the MIR module\n"
	           "target datalayout = \"e-p3:32:32-p4:32:32-p5:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64\"\n"
	           "target triple = \"nvptx64-nvidia-cuda\"\n\n"
	           "@smem = internal addrspace(3) global [256 x float] undef, align 4\n\n"
	           "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
	           "declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n"
	           "declare void @llvm.nvvm.barrier0()\n"
	           "declare float @llvm.fma.f32(float, float, float)\n"
	           "declare float @llvm.maxnum.f32(float, float)\n"
	           "declare float @llvm.minnum.f32(float, float)\n"
	           "declare float @llvm.fabs.f32(float)\n"
	           "declare i32 @llvm.ctpop.i32(i32)\n"
	           "declare i32 @llvm.umin.i32(i32, i32)\n\n");
	if (one)
		one_kernel(m, l, want);
	else
		for (unsigned k = 0; kernels ? k < want : nodes < want; k++)
			unit(m, l, k);
	if (fclose(m) != 0 || fclose(l) != 0) {
		perror("mirgen");
		return 2;
	}
	printf("%lu\n", nodes);
	return 0;
}
