/* pxgen: the flag bits of the rows, each named once. pxgen reads them from the
 * YAML by their lower-case names (an op's `flags:` list; an operand's boolean
 * keys), sets them as SLOT_*, OPND_* and OPF_* while it builds the rows, and
 * writes them into px_tables.h as PX_SLOT_*, PX_OPND_* and PX_OPF_* with the
 * text beside each as its comment. */
#ifndef PXGEN_FLAGS_H
#define PXGEN_FLAGS_H

#define PXGEN_SLOT_FLAGS(X) \
	X(FIXED, "always printed (fixed_tok); may be left out in MIR") \
	X(TYPE, "holds a type token; may be inferred (see infer)") \
	X(REQUIRED, "must be filled (written or inferred) in every variant") \
	X(NOPRINT, "a property for selection only; never printed")

#define PXGEN_OPND_FLAGS(X) \
	X(OPTIONAL, "may be left out (then everything after it too)") \
	X(SREG, "a special register may appear here directly") \
	X(PAIR, "result printed joined to the previous one with '|'") \
	X(GROUP, "a vector group: count from count_slot (v2, v4, x2 ...) or count") \
	X(INOUT, "read and written in place (accumulators)") \
	X(B8REG, "a b8 value here must be a true .b8 register (%rb), not %rs") \
	X(WIDER, "an integer value wider than the type may be here: a load extends into it, a store " \
	         "keeps its low bits (ld.u8 into a u32, st.u8 of one)") \
	X(SINK, "result: PTX takes the sink _ here, so a discarded result prints as _") \
	X(SINK_ONLY, "result: PTX takes only the sink _ here, never a register") \
	X(COORDS, "an address that takes a coordinate group, [tmap, (c0, ...)]: one per dimension of " \
	          "count_slot's token, or with count_slot -1, count of them (.tile::gather4: 5), or with " \
	          "count 0 too, what the op's family checks (textures)")

#define PXGEN_OPF_FLAGS(X) \
	X(TERMINATOR, "ends its block: nothing falls through it") \
	X(NOGUARD, "takes no guard predicate") \
	X(INTERNAL, "selection-made only; not MIR") \
	X(SPACE_FROM_ADDRESS, "an empty space slot is filled from the address's known space") \
	X(REGISTER_ADDRESS, "PTX takes no variable name in the address: a register base") \
	X(CARRY_IN, "reads the carry flag a .cc instruction set (addc, subc, madc)") \
	X(TEXREF, "the address's handle may be a texref variable (tex, tld4, txq)") \
	X(SURFREF, "the address's handle may be a surfref variable (suld, sust, sured, suq)") \
	X(CTA_GRANULARITY, "its .cta_group is the function's one CTA granularity (tcgen05)") \
	X(CTA_BARRIER, "a CTA barrier: every thread of the CTA, unless its optional thread count is " \
	               "given (a node with fewer operands than the op lists has none)") \
	X(ALIGNED, "executes as .aligned whatever its tokens (bar, bar.cta: barrier's .aligned forms spelt " \
	           "another way): every thread of the CTA executes the same one") \
	X(WARP_COLLECTIVE, "the warp's threads together; the last operand is the member mask") \
	X(WARPGROUP, "the warpgroup's four warps together (wgmma)") \
	X(THREAD_RESULT, "the results differ from thread to thread, whatever the operands") \
	X(GENERIC_WRITE, "writes memory at its addresses through the generic proxy (st, atom, ...): what " \
	                 "the async proxy sees only once a proxy fence orders it") \
	X(ASYNC_SOURCE, "the async proxy reads its address operands after the first (bulk and TMA copies)") \
	X(DESC_READER, "the async proxy reads shared memory through its matrix descriptor operands") \
	X(PROXY_FENCE, "with .async (and a shared space or none) orders the generic writes before it for " \
	               "the async proxy") \
	X(TMEM_ALLOC, "takes tensor memory columns that stay taken until a tmem_dealloc gives them back") \
	X(TMEM_DEALLOC, "gives back tensor memory columns a tmem_alloc took") \
	X(INIT_FENCE, "makes an earlier mbarrier.init visible to the other threads that then use the barrier " \
	              "(as a CTA barrier does)") \
	X(ORDERS_THREADS, "orders the memory accesses of threads as a barrier does without being a CTA barrier " \
	                  "(bar.warp.sync, the cluster's barriers, an mbarrier wait): a race check's point") \
	X(MBARRIER_INIT, "initializes the mbarrier its first operand addresses (mbarrier.init)") \
	X(MBARRIER_USE, "operates on the mbarrier its first operand addresses, which an mbarrier.init must have " \
	                "set up (arrive, expect_tx, the waits, inval, cp.async.mbarrier.arrive)") \
	X(MBARRIER_WAIT, "waits for a phase of the mbarrier its first operand addresses (test_wait, try_wait): " \
	                 "what completes a bulk copy that signals it") \
	X(ASYNC_COPY, "writes its shared destination asynchronously: complete once a wait of its group covers " \
	              "it (cp.async)") \
	X(BULK_COPY, "writes its shared destination asynchronously: complete once a wait on its mbarrier " \
	             "returns (cp.async.bulk, the tensor copy)") \
	X(COPY_COMMIT, "closes the thread's group of the asynchronous copies before it (cp.async.commit_group)") \
	X(COPY_WAIT, "waits until at most its operand's count of the thread's copy groups are pending " \
	             "(cp.async.wait_group)") \
	X(COPY_WAIT_ALL, "waits for every asynchronous copy of the thread (cp.async.wait_all)") \
	X(ASYNC_MMA, "an asynchronous warpgroup MMA: its accumulators are the MMA's until a wait of its group " \
	             "(wgmma.mma_async)") \
	X(MMA_FENCE, "orders the warpgroup's register accesses before the asynchronous MMAs after it " \
	             "(wgmma.fence)") \
	X(MMA_COMMIT, "closes the warpgroup's group of the asynchronous MMAs before it (wgmma.commit_group)") \
	X(MMA_WAIT, "waits until at most its operand's count of the warpgroup's MMA groups are pending " \
	            "(wgmma.wait_group)") \
	X(TMEM_LOAD, "loads tensor memory into its result registers asynchronously: they hold the values once " \
	             "tcgen05.wait::ld has waited (tcgen05.ld)") \
	X(TMEM_WAIT_LD, "waits for the thread's earlier tensor memory loads (tcgen05.wait::ld)") \
	X(ENDS_THREAD, "the thread's path ends here, whatever it holds (exit; a function's ret is a node of its " \
	               "own)") \
	X(DESC_BUILDER, "makes a matrix descriptor from its operands (wgmma.desc, tcgen05.desc)") \
	X(MEMORY_ACCESS, "reads or writes memory at its one address (ld, st, atom, red): the accesses the race " \
	                 "and null checks read") \
	X(ALIGNED_SLOT, "has a slot named aligned, fixed or a token to write: pxgen sets it from the slots " \
	                "(data/ never writes it), so a check asks a block before it looks for the token")

#define PXGEN_FLAG_INDEX(set, name, doc) set##_I_##name,
#define PXGEN_FLAG_BIT(set, name, doc) set##_##name = 1u << set##_I_##name,
#define PXGEN_SLOT_INDEX(name, doc) PXGEN_FLAG_INDEX(SLOT, name, doc)
#define PXGEN_SLOT_BIT(name, doc) PXGEN_FLAG_BIT(SLOT, name, doc)
#define PXGEN_OPND_INDEX(name, doc) PXGEN_FLAG_INDEX(OPND, name, doc)
#define PXGEN_OPND_BIT(name, doc) PXGEN_FLAG_BIT(OPND, name, doc)
#define PXGEN_OPF_INDEX(name, doc) PXGEN_FLAG_INDEX(OPF, name, doc)
enum { PXGEN_SLOT_FLAGS(PXGEN_SLOT_INDEX) SLOT_NFLAGS };
enum { PXGEN_SLOT_FLAGS(PXGEN_SLOT_BIT) };
enum { PXGEN_OPND_FLAGS(PXGEN_OPND_INDEX) OPND_NFLAGS };
enum { PXGEN_OPND_FLAGS(PXGEN_OPND_BIT) };
enum { PXGEN_OPF_FLAGS(PXGEN_OPF_INDEX) OPF_NFLAGS };
/* the op flags are 64 bits (px_op_def.flags; px_tables.h defines them as
 * 64-bit constants) */
_Static_assert(OPF_NFLAGS <= 64, "an op's flags are 64 bits");

/* A set's names and comments, in bit order, for the reader and the header. */
typedef struct flag_name {
	const char *name, *doc;
} flag_name;
extern const flag_name slot_flags[], opnd_flags[], op_flags[];

#endif
