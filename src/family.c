/* One record per op family (PX_FAM_*): its verifier and selector hooks. */
#include "family.h"
#include "isel/isel.h"
#include "verify/verify.h"

const px_family px_families[PX_FAM__COUNT] = {
	[PX_FAM_matrix_copy] = {.prepare = px_matrix_prepare},
	[PX_FAM_tile_copy] = {.prepare = px_tile_copy_prepare, .select = px_select_tile_copy},
	[PX_FAM_collective] = {.select = px_select_collective},
	[PX_FAM_mma] = {.select = px_select_mma},
	[PX_FAM_wgmma] = {.prepare = px_wgmma_prepare, .check = px_wgmma_check, .select = px_select_wgmma},
	[PX_FAM_cp_async] = {.check = px_cp_async_check},
	[PX_FAM_tcgen05_commit] = {.prepare = px_tcgen05_commit_prepare, .select = px_select_tcgen05_commit},
	[PX_FAM_tcgen05_mma] = {.prepare = px_tcgen05_mma_prepare, .check = px_tcgen05_mma_check,
	                        .select = px_select_tcgen05_mma},
	[PX_FAM_desc] = {.prepare = px_desc_prepare, .select = px_select_desc},
	[PX_FAM_tmem_fragment] = {.select = px_select_tmem_fragment},
	[PX_FAM_wmma] = {.select = px_select_wmma},
	[PX_FAM_texture] = {.check = px_texture_check},
	[PX_FAM_imm_range] = {.check = px_imm_range_check},
};
