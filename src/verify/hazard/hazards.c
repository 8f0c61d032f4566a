/* The hazard checks of a function, over one set of its blocks and one value
 * analysis: each follows values or control along every path, which the
 * verifier's walk in text order cannot. They run in one frame
 * (verify/hazard/frame.h); what each allocates goes back when it returns. */
#include "verify/hazard/callee.h"
#include "verify/hazard/frame.h"

/* The checks, and what the race check keeps of the function for the
 * question at the module's end (calls into device functions). */
static void (*const checks[])(px_frame *) = {
	px_check_defined,       px_check_uniform,    px_check_wgmma_order,
	px_check_async_copies,  px_check_mbarrier_init, px_check_mbarrier_fence,
	px_check_proxy_fence,   px_check_tmem_wait,  px_check_tmem_alloc,
	px_check_shared_race,   px_race_record_keep, px_check_bounds,
	px_check_align,         px_check_call_targets,
};

void px_check_hazards(px_verifier *v, px_func *f)
{
	px_frame fr = {.v = v, .f = f, .a = &v->scratch};
	px_cfg_build(&fr.g, f, fr.a);
	/* each value's form is made at the first question that needs it */
	px_values_init(&fr.va, v->m, f, v->grid, fr.a);
	px_arena_mark base = px_arena_mark_now(fr.a);
	for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++) {
		checks[i](&fr);
		px_arena_release(fr.a, base);
	}
	/* the statements' table goes now, before the function is selected; the
	 * blocks and the analysis stay in scratch until the next function: the
	 * selector reads the same analysis (px_verify_values) */
	px_cfg_free(&fr.g);
	v->values = fr.va;
	v->values_kept = true;
}
