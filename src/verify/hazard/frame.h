/* The frame the hazard checks of one function run in (verify/hazard/hazards.c makes
 * it): the function, its blocks, its value analysis, and the arena every
 * check allocates from. A check frees nothing: hazards.c takes the arena back
 * to where it stood when the check began, so a check's memory is its own
 * until it returns, an early return leaks nothing, and the blocks are reused
 * by the next check and the next function. A check that allocates in a loop
 * takes the arena back itself at each turn (px_arena_mark_now). */
#ifndef PX_VERIFY_FRAME_H
#define PX_VERIFY_FRAME_H
#include "util/arena.h"
#include "verify/analysis/cfg.h"
#include "verify/analysis/value.h"
#include "verify/verify.h"

typedef struct px_frame {
	px_verifier *v;
	px_func *f;
	px_cfg g;
	px_values va;
	px_arena *a; /* the verifier's scratch arena */
} px_frame;

/* n zeroed elements of size bytes, for the running check. */
static inline void *px_frame_alloc(const px_frame *fr, size_t n, size_t size)
{
	return px_arena_calloc(fr->a, n, size);
}

/* The checks, in the order hazards.c runs them. */
/* defined.c: a read that some path reaches without a definition of its value. */
void px_check_defined(px_frame *fr);
/* uniform.c: barriers, warp collectives and wgmma under control that differs
 * between the threads that must arrive together. */
void px_check_uniform(px_frame *fr);
/* wgmma_order.c: wgmma.mma_async without a wgmma.fence before it, and its
 * accumulators touched before a wgmma.wait_group. */
void px_check_wgmma_order(px_frame *fr);
/* async_copy.c: a cp.async, bulk or TMA copy's shared destination touched
 * before a wait that covers it. */
void px_check_async_copies(px_frame *fr);
/* mbarrier_init.c: an mbarrier a kernel uses where no mbarrier.init of it reaches. */
void px_check_mbarrier_init(px_frame *fr);
/* mbarrier_fence.c: an mbarrier initialized and then used by an async proxy
 * with no fence between. */
void px_check_mbarrier_fence(px_frame *fr);
/* proxy_fence.c: generic writes to shared memory read by a bulk or TMA copy
 * with no fence.proxy.async between. */
void px_check_proxy_fence(px_frame *fr);
/* tmem_wait.c, tmem_alloc.c: tensor memory read before its wait, and its
 * allocation's protocol. */
void px_check_tmem_wait(px_frame *fr);
void px_check_tmem_alloc(px_frame *fr);
/* race.c: races between threads in shared and global memory. */
void px_check_shared_race(px_frame *fr);
/* bounds.c: a variable plus constant offsets, accessed outside the variable. */
void px_check_bounds(px_frame *fr);
/* misalign.c: an access at an address known not to be aligned as it needs. */
void px_check_align(px_frame *fr);
/* call_target.c: a call through a value that may hold no function's start. */
void px_check_call_targets(px_frame *fr);

#endif
