/* Seed 003's first selector layer, intrinsic-with-chain: op families with a
 * selector of their own (the tile copy, MMA descriptors, ...) register it here,
 * keyed by PX_FAM_*. A family without an entry is lowered from its tables. */
#include "isel/isel.h"

const px_family_select px_chain_selectors[PX_FAM__COUNT + 1] = {
	[PX_FAM_none] = NULL,
	[PX_FAM_tile_copy] = px_select_tile_copy,
	[PX_FAM_collective] = px_select_collective,
	[PX_FAM_mma] = px_select_mma,
	[PX_FAM_wgmma] = px_select_wgmma,
	[PX_FAM_tmem_fragment] = px_select_tmem_fragment,
	[PX_FAM_tcgen05] = px_select_tcgen05,
	[PX_FAM_wmma] = px_select_wmma,
};
