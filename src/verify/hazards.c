/* The hazard checks of a function, over one set of its blocks: each follows
 * values or control along every path, which the verifier's walk in text
 * order cannot. */
#include "verify/callee.h"
#include "verify/cfg.h"
#include "verify/state.h"
#include "verify/value.h"
#include "verify/verify.h"

void px_check_hazards(px_verifier *v, px_func *f)
{
	px_cfg g;
	px_cfg_build(&g, f);
	px_check_defined(v, f, &g);
	px_check_uniform(v, f, &g);
	px_check_wgmma_order(v, f, &g);
	px_check_async_copies(v, f, &g);
	px_check_mbarrier_init(v, f, &g);
	px_check_mbarrier_fence(v, f, &g);
	px_check_proxy_fence(v, f, &g);
	px_check_tmem_wait(v, f, &g);
	px_check_tmem_alloc(v, f, &g);
	/* one value analysis for the checks that ask what values are: it makes
	 * each form once, at the first question */
	px_values va;
	px_values_init(&va, v->m, f);
	px_check_shared_race(v, f, &g, &va);
	px_uses_keep_race(v, px_race_record_make(v, f, &g, &va));
	px_cfg_free(&g);
	px_check_bounds(v, f, &va);
	px_check_align(v, f, &va);
	px_values_free(&va);
}
