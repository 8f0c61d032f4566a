/* Op families whose legality the tables cannot state alone register their
 * checks here, keyed by the family named in data/ops (PX_FAM_*). */
#include "verify/verify.h"

const px_family_check px_family_checks[PX_FAM__COUNT + 1] = {
	[PX_FAM_none] = NULL,
};
