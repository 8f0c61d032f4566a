/* A stand-in for the CUDA driver with no GPU behind it, for testing gpurun
 * itself where no GPU is: it reports one device of compute capability
 * STUB_CC (default 9.0), keeps "device memory" in host memory, accepts any
 * module and runs no kernel. Every case therefore reaches its comparison
 * and fails it (or is skipped), which exercises the whole harness: loading,
 * translation, allocation, copies, launch, comparison and reporting. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;

CUresult cuInit(unsigned flags) { return 0; }
CUresult cuDeviceGet(int *dev, int ordinal) { *dev = 0; return 0; }

CUresult cuDeviceGetAttribute(int *v, int attr, int dev)
{
	const char *cc = getenv("STUB_CC");
	int n = cc ? atoi(cc) : 90;
	*v = attr == 75 ? n / 10 : n % 10;
	return 0;
}

static int ctx;
CUresult cuDevicePrimaryCtxRetain(void **c, int dev) { *c = &ctx; return 0; }
CUresult cuCtxSetCurrent(void *c) { return 0; }
CUresult cuCtxSynchronize(void) { return 0; }

static int module, function;
CUresult cuModuleLoadDataEx(void **m, const void *image, unsigned n, int *opts, void **vals)
{
	*m = &module;
	return strstr(image, ".entry") ? 0 : 218; /* CUDA_ERROR_INVALID_PTX */
}
CUresult cuModuleGetFunction(void **f, void *m, const char *name) { *f = &function; return 0; }
CUresult cuModuleUnload(void *m) { return 0; }
CUresult cuFuncSetAttribute(void *f, int attr, int v) { return 0; }
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                        unsigned bz, unsigned smem, void *stream, void **args, void **extra)
{
	return gx && gy && gz && bx && by && bz && bx * by * bz <= 1024 && args ? 0 : 1;
}

/* cuda.h's CUlaunchConfig and CUlaunchAttribute, as testsuite/gpu/gpu.h declares them */
typedef struct {
	int id;
	char pad[4];
	union { char pad[64]; struct { unsigned x, y, z; } clusterDim; } value;
} launch_attr;
typedef struct {
	unsigned gx, gy, gz, bx, by, bz, smem;
	void *stream;
	launch_attr *attrs;
	unsigned nattrs;
} launch_config;

/* A cluster shape (attribute 4) must divide the grid and hold at most 8 blocks. */
CUresult cuLaunchKernelEx(const launch_config *c, void *f, void **args, void **extra)
{
	for (unsigned i = 0; i < c->nattrs; i++) {
		const launch_attr *a = &c->attrs[i];
		unsigned x = a->value.clusterDim.x, y = a->value.clusterDim.y, z = a->value.clusterDim.z;
		if (a->id == 4 && (!x || !y || !z || c->gx % x || c->gy % y || c->gz % z || x * y * z > 8))
			return 1;
	}
	return cuLaunchKernel(f, c->gx, c->gy, c->gz, c->bx, c->by, c->bz, c->smem, c->stream, args, extra);
}

CUresult cuMemAlloc_v2(uint64_t *p, size_t bytes)
{
	void *m = calloc(1, bytes);
	*p = (uint64_t)(uintptr_t)m;
	return m ? 0 : 2;
}
CUresult cuMemFree_v2(uint64_t p) { free((void *)(uintptr_t)p); return 0; }
CUresult cuMemcpyHtoD_v2(uint64_t d, const void *s, size_t n) { memcpy((void *)(uintptr_t)d, s, n); return 0; }
CUresult cuMemcpyDtoH_v2(void *d, uint64_t s, size_t n) { memcpy(d, (void *)(uintptr_t)s, n); return 0; }
CUresult cuMemsetD8_v2(uint64_t d, unsigned char c, size_t n) { memset((void *)(uintptr_t)d, c, n); return 0; }

CUresult cuGetErrorString(CUresult r, const char **s)
{
	*s = "stub driver error";
	return 0;
}

CUresult cuTensorMapEncodeTiled(void *map, int type, uint32_t rank, void *addr, const uint64_t *dim,
                                const uint64_t *strides, const uint32_t *box, const uint32_t *es,
                                int il, int sw, int l2, int oob)
{
	memset(map, 0, 128);
	return rank >= 1 && rank <= 5 ? 0 : 1;
}
