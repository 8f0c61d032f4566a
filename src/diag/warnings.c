/* The warnings' options, spelled as GCC spells them (-Wno-NAME, -Werror,
 * -Werror=NAME, -Wno-error=NAME, -w), and what they make of a warning: the
 * names are the data/diag/ rows' warning: keys, so a warning is named once. */
#include <string.h>

#include "diag/diag.h"
#include "tables/tables.h"

const char *px_warning_name(unsigned k)
{
	return k < px_nwarning_names ? px_warning_names[k] : NULL;
}

static int warning_index(const char *name)
{
	for (unsigned k = 0; k < px_nwarning_names; k++)
		if (strcmp(px_warning_names[k], name) == 0)
			return (int)k;
	return -1;
}

int px_options_warning(px_options *o, const char *flag)
{
	if (strcmp(flag, "-w") == 0) {
		o->no_warnings = true;
		return 0;
	}
	if (strncmp(flag, "-W", 2) != 0)
		return -1;
	const char *s = flag + 2;
	bool no = strncmp(s, "no-", 3) == 0;
	if (no)
		s += 3;
	if (strcmp(s, "error") == 0) {
		o->warnings_are_errors = !no;
		return 0;
	}
	bool error = strncmp(s, "error=", 6) == 0;
	int k = warning_index(error ? s + 6 : s);
	if (k < 0)
		return -1;
	uint64_t bit = (uint64_t)1 << k;
	if (error && no) { /* -Wno-error=NAME: stays a warning, even under -Werror */
		o->warn_error &= ~bit;
		o->warn_not_error |= bit;
	} else if (error) { /* -Werror=NAME: on, and an error */
		o->warn_off &= ~bit;
		o->warn_error |= bit;
		o->warn_not_error &= ~bit;
	} else if (no) {
		o->warn_off |= bit;
	} else {
		o->warn_off &= ~bit;
	}
	return 0;
}

px_warning_fate px_warning_decide(const px_options *o, int id)
{
	unsigned w = px_diag_texts[id].warning;
	uint64_t bit = (uint64_t)1 << (w - 1);
	if (!o) /* the defaults */
		return px_warnings_off & bit ? PX_WARN_DROP : PX_WARN_REPORT;
	/* -w silences even a warning -Werror=NAME made an error, as GCC's does */
	if (o->no_warnings || (o->warn_off & bit))
		return PX_WARN_DROP;
	if ((o->warn_error & bit) || (o->warnings_are_errors && !(o->warn_not_error & bit)))
		return PX_WARN_ERROR;
	return PX_WARN_REPORT;
}
