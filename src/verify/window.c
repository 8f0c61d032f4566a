/* Target windows: which SM and PTX ISA version an operation needs, and the
 * target and version a module is translated for. */
#include <stdio.h>
#include <string.h>

#include "diag/suggest.h"
#include "verify/verify.h"

/* The targets of a set as a message names them: the lowest (when every later
 * target is in it too: "sm_90 or later", 1) or all of them (2) in list; 0
 * for an empty set. */
static int targets_text(uint64_t targets, char *list, size_t size)
{
	unsigned low = 0;
	while (low < px_ntargets && !(targets >> low & 1))
		low++;
	if (low == px_ntargets)
		return 0;
	uint64_t later = (px_ntargets >= 64 ? ~0ull : (1ull << px_ntargets) - 1) & ~((1ull << low) - 1);
	if ((targets & later) == later) {
		snprintf(list, size, "%s", px_targets[low].name);
		return 1;
	}
	size_t n = 0;
	list[0] = 0;
	for (unsigned i = low; i < px_ntargets; i++)
		if (targets >> i & 1) {
			int k = snprintf(list + n, size - n, "%s%s", n ? ", " : "", px_targets[i].name);
			if (k < 0 || (size_t)k >= size - n)
				break;
			n += (size_t)k;
		}
	return 2;
}

/* The target is outside `targets`: name the lowest one when every later target
 * has it too ("sm_90 or later"), else every target that has it. */
void px_window_report(px_verifier *v, px_loc loc, const char *what, uint64_t targets)
{
	char list[512];
	switch (targets_text(targets, list, sizeof list)) {
	case 0:
		px_error(v->d, loc, PX_D_not_on_target, what, v->target->name);
		break;
	case 1:
		px_error(v->d, loc, PX_D_needs_target, what, list, v->target->name);
		break;
	default:
		px_error(v->d, loc, PX_D_only_on_targets, what, list, v->target->name);
	}
}

void px_window_note(px_verifier *v, px_loc loc, const char *what, uint64_t targets)
{
	char list[512];
	switch (targets_text(targets, list, sizeof list)) {
	case 0:
		break;
	case 1:
		px_note(v->d, loc, PX_D_needs_target_note, what, list);
		break;
	default:
		px_note(v->d, loc, PX_D_only_on_targets_note, what, list);
	}
}

void px_verify_target(px_verifier *v)
{
	px_module *m = v->m;
	px_loc none = {0};
	if (v->opt_target) {
		v->target = px_target_lookup(v->opt_target, strlen(v->opt_target));
		const char *near = v->target ? NULL : px_suggest_target(v->opt_target, strlen(v->opt_target));
		char nearest[128] = "";
		if (!v->target && !near)
			px_suggest_target_numbers(v->opt_target, strlen(v->opt_target), nearest, sizeof nearest);
		if (!v->target && near)
			px_error_noloc(v->d, PX_D_unknown_target_hint, v->opt_target, near);
		else if (!v->target && nearest[0])
			px_error_noloc(v->d, PX_D_unknown_target_hints, v->opt_target, nearest);
		else if (!v->target)
			px_error_noloc(v->d, PX_D_unknown_target, v->opt_target);
	} else if (m->target.n) {
		v->target = px_target_lookup(m->target.s, m->target.n);
		const char *near = v->target ? NULL : px_suggest_target(m->target.s, m->target.n);
		char nearest[128] = "";
		if (!v->target && !near)
			px_suggest_target_numbers(m->target.s, m->target.n, nearest, sizeof nearest);
		if (!v->target && near)
			px_error(v->d, m->target_loc, PX_D_unknown_target_at_hint, (int)m->target.n, m->target.s,
			         near);
		else if (!v->target && nearest[0])
			px_error(v->d, m->target_loc, PX_D_unknown_target_at_hints, (int)m->target.n, m->target.s,
			         nearest);
		else if (!v->target)
			px_error(v->d, m->target_loc, PX_D_unknown_target_at, (int)m->target.n, m->target.s);
	}
	v->target_reported = v->target || v->opt_target || m->target.n || m->target_written;
	if (v->opt_ptx) {
		v->ptx_given = px_ptx_version_parse(v->opt_ptx, strlen(v->opt_ptx));
		if (!px_ptx_version_known(v->ptx_given)) {
			px_error_noloc(v->d, PX_D_unknown_ptx, v->opt_ptx);
			v->ptx_given = 0;
		}
	} else if (m->ptx) {
		v->ptx_given = m->ptx;
		if (!px_ptx_version_known(m->ptx)) {
			px_error(v->d, m->ptx_loc, PX_D_unknown_ptx_at, m->ptx / 10, m->ptx % 10);
			v->ptx_given = 0;
		}
	}
	if (v->target && v->ptx_given && v->ptx_given < v->target->ptx) {
		if (v->opt_ptx)
			px_error_noloc(v->d, PX_D_target_needs_ptx, v->target->name, v->target->ptx / 10,
			               v->target->ptx % 10, v->ptx_given / 10, v->ptx_given % 10);
		else
			px_error(v->d, px_loc_known(m->ptx_loc) ? m->ptx_loc : none, PX_D_target_needs_ptx,
			         v->target->name, v->target->ptx / 10, v->target->ptx % 10,
			         v->ptx_given / 10, v->ptx_given % 10);
	}
	if (v->ptx_max && v->ptx_given > v->ptx_max) {
		char what[64];
		if (v->opt_ptx) {
			snprintf(what, sizeof what, "--ptx=%s", v->opt_ptx);
			px_ptx_refuse(v, none, what, v->ptx_given);
		} else {
			snprintf(what, sizeof what, "'ptx %u.%u'", v->ptx_given / 10, v->ptx_given % 10);
			px_ptx_refuse(v, m->ptx_loc, what, v->ptx_given);
		}
	} else if (v->ptx_max && !v->ptx_given && v->target && v->target->ptx > v->ptx_max) {
		char what[64];
		snprintf(what, sizeof what, "target %s", v->target->name);
		px_ptx_refuse(v, v->opt_target ? none : m->target_loc, what, v->target->ptx);
	}
	if (v->target && v->target->ptx > v->ptx_needed)
		v->ptx_needed = v->target->ptx;
}

uint16_t px_verify_ptx_version(const px_verifier *v)
{
	return px_ptx_settled(v->ptx_given, v->target, v->ptx_needed);
}
