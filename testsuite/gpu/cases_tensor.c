/* Tensor cores: ldmatrix and mma.sync, stmatrix, wgmma. */
#include <stdio.h>
#include <stdlib.h>

#include "gpu.h"

const gpu_case gpu_cases_tensor[] = {
	{0},
};
