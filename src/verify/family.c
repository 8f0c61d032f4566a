/* Op families whose legality the tables cannot state alone register their
 * checks here, keyed by the family named in data/ops (PX_FAM_*). */
#include "verify/verify.h"

const px_family_check px_family_checks[PX_FAM__COUNT + 1] = {
	[PX_FAM_none] = NULL,
	[PX_FAM_wgmma] = px_wgmma_check,
	[PX_FAM_cp_async] = px_cp_async_check,
};

const px_family_prepare px_family_prepares[PX_FAM__COUNT + 1] = {
	[PX_FAM_none] = NULL,
	[PX_FAM_matrix_copy] = px_matrix_prepare,
	[PX_FAM_tile_copy] = px_tile_copy_prepare,
	[PX_FAM_wgmma] = px_wgmma_prepare,
	[PX_FAM_tcgen05] = px_tcgen05_prepare,
};
