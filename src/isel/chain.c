/* Seed 003's first selector layer, intrinsic-with-chain: op families with a
 * selector of their own (the tile copy, MMA descriptors, ...) register it here,
 * keyed by PX_FAM_*. A family without an entry is lowered from its tables. */
#include "isel/isel.h"

const px_family_select px_chain_selectors[PX_FAM__COUNT + 1] = {
	[PX_FAM_none] = NULL,
};
