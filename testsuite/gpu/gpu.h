/* The execution tests' view of a GPU: the few CUDA driver calls they need,
 * reached through dlopen so that nothing links against CUDA at build time,
 * and the case table each tests/gpu/cases_*.c file contributes to.
 *
 * A case translates its MIR with libptxemit, loads the PTX into the driver,
 * launches it on fixed inputs and compares the results with a host
 * reference computed here: exactly for integers, within a stated tolerance
 * for floats. Without a driver or a device every case is skipped. */
#ifndef PX_GPU_H
#define PX_GPU_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The driver API's own types, declared here rather than taken from cuda.h:
 * the build must not need the CUDA toolkit's headers either. */
typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef uint64_t CUdeviceptr;
typedef struct { _Alignas(64) uint64_t opaque[16]; } CUtensorMap;

/* cuLaunchKernelEx's configuration with one attribute kind used here, the
 * cluster shape (CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION): cuda.h's layout, an
 * id padded to 8 bytes and a 64-byte value union. */
typedef struct CUlaunchAttribute {
	int id;
	char pad[4];
	union { char pad[64]; struct { unsigned x, y, z; } clusterDim; } value;
} CUlaunchAttribute;
typedef struct CUlaunchConfig {
	unsigned gridDimX, gridDimY, gridDimZ;
	unsigned blockDimX, blockDimY, blockDimZ;
	unsigned sharedMemBytes;
	void *hStream;
	CUlaunchAttribute *attrs;
	unsigned numAttrs;
} CUlaunchConfig;

enum {
	CU_ATTR_CC_MAJOR = 75,             /* CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR */
	CU_ATTR_CC_MINOR = 76,
	CU_FUNC_MAX_DYNAMIC_SMEM = 8,      /* CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES */
	CU_JIT_ERROR_LOG = 5, CU_JIT_ERROR_LOG_SIZE = 6,
	CU_TMAP_FLOAT32 = 7,               /* CU_TENSOR_MAP_DATA_TYPE_FLOAT32 */
	CU_TMAP_FLOAT16 = 6,
	CU_LAUNCH_ATTR_CLUSTER_DIM = 4,    /* CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION */
};

typedef struct gpu_driver {
	CUresult (*Init)(unsigned);
	CUresult (*DeviceGet)(CUdevice *, int);
	CUresult (*DeviceGetAttribute)(int *, int, CUdevice);
	CUresult (*DevicePrimaryCtxRetain)(CUcontext *, CUdevice);
	CUresult (*CtxSetCurrent)(CUcontext);
	CUresult (*CtxSynchronize)(void);
	CUresult (*ModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *, void **);
	CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
	CUresult (*ModuleUnload)(CUmodule);
	CUresult (*FuncSetAttribute)(CUfunction, int, int);
	CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
	                         unsigned, unsigned, void *, void **, void **);
	CUresult (*MemAlloc)(CUdeviceptr *, size_t);
	CUresult (*MemFree)(CUdeviceptr);
	CUresult (*MemcpyHtoD)(CUdeviceptr, const void *, size_t);
	CUresult (*MemcpyDtoH)(void *, CUdeviceptr, size_t);
	CUresult (*MemsetD8)(CUdeviceptr, unsigned char, size_t);
	CUresult (*GetErrorString)(CUresult, const char **);
	/* Only from CUDA 12 on; NULL before, and the TMA case skips. */
	CUresult (*TensorMapEncodeTiled)(CUtensorMap *, int, uint32_t, void *, const uint64_t *,
	                                 const uint64_t *, const uint32_t *, const uint32_t *,
	                                 int, int, int, int);
	/* Only from CUDA 11.8 on; NULL before, and the cluster-launch cases skip. */
	CUresult (*LaunchKernelEx)(const CUlaunchConfig *, CUfunction, void **, void **);
} gpu_driver;

/* One run of the executable: the driver, the device, where the sources are. */
typedef struct gpu {
	gpu_driver cu;
	int cc;                 /* compute capability as 10 * major + minor: 90 for H100 */
	const char *srcdir;
	const char *case_name;  /* the case now running, for messages */
	char *last_ptx;         /* the PTX of the last module loaded, kept for a failure report */
} gpu;

typedef enum gpu_verdict { GPU_PASS, GPU_FAIL, GPU_SKIP } gpu_verdict;

typedef struct gpu_dim { unsigned x, y, z; } gpu_dim;

/* A kernel ready to launch: translated, loaded, looked up. */
typedef struct gpu_kernel {
	CUmodule mod;
	CUfunction fn;
} gpu_kernel;

typedef struct gpu_case {
	const char *name;
	const char *mir;        /* relative to srcdir; the file name in messages where mir_text writes it */
	const char *target;     /* translate for this target; NULL: the module's own target line */
	int min_cc;             /* the device must be at least this */
	int only_cc;            /* nonzero: the device must be exactly this (sm_90a features) */
	gpu_verdict (*run)(gpu *g, const struct gpu_case *c);
	char *(*mir_text)(void); /* NULL, or the MIR the case writes itself (malloc'd; NULL: it could not) */
} gpu_case;

/* The tables, one per file; each ends with a zeroed row. */
extern const gpu_case gpu_cases_basic[];
extern const gpu_case gpu_cases_alu[];
extern const gpu_case gpu_cases_memory[];
extern const gpu_case gpu_cases_tensor[];
extern const gpu_case gpu_cases_lang[];
extern const gpu_case gpu_cases_video[];

/* Helpers for cases. Each failing call reports and returns nonzero / 0. */
int gpu_load(gpu *g, const gpu_case *c, const char *kernel, gpu_kernel *k);
void gpu_unload(gpu *g, gpu_kernel *k);
int gpu_launch(gpu *g, gpu_kernel *k, gpu_dim grid, gpu_dim block, unsigned smem, void **args);
/* A launch in clusters of the given shape (cuLaunchKernelEx), for a kernel
 * whose cluster shape is not fixed in its text; the driver must have it. */
int gpu_launch_cluster(gpu *g, gpu_kernel *k, gpu_dim grid, gpu_dim block, gpu_dim cluster, unsigned smem,
                       void **args);
CUdeviceptr gpu_alloc(gpu *g, size_t bytes);
void gpu_free(gpu *g, CUdeviceptr p);
int gpu_put(gpu *g, CUdeviceptr dst, const void *src, size_t bytes);
int gpu_get(gpu *g, void *dst, CUdeviceptr src, size_t bytes);
int gpu_zero(gpu *g, CUdeviceptr dst, size_t bytes);

/* One launch of most cases: buffers in device memory, then scalars, as the
 * kernel's parameters in that order. An input buffer's host bytes are copied
 * to the device before the launch; an output's device copy starts zeroed and
 * is copied back after it; an in-out buffer is both. */
typedef enum gpu_dir { GPU_IN = 1, GPU_OUT = 2, GPU_INOUT = GPU_IN | GPU_OUT } gpu_dir;
typedef struct gpu_buf {
	void *host;
	size_t bytes;
	gpu_dir dir;
} gpu_buf;
typedef struct gpu_call {
	const char *kernel;
	gpu_buf *bufs;
	size_t nbufs;
	void **scalars;       /* each points at its value */
	size_t nscalars;
	gpu_dim grid, block;
} gpu_call;
/* Loads the case's kernel, allocates and fills the buffers, launches, copies
 * the outputs back, frees what it took; 0 when every step succeeded. */
int gpu_run(gpu *g, const gpu_case *c, const gpu_call *call);
/* The same launch in clusters of the given shape (see gpu_launch_cluster). */
int gpu_run_clusters(gpu *g, const gpu_case *c, const gpu_call *call, gpu_dim cluster);
#define GPU_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Deterministic inputs: the same on every run and every machine. */
uint32_t gpu_rand(uint32_t *state);

/* Comparisons that print the first few mismatches and return the count. */
size_t gpu_cmp_u32(gpu *g, const char *what, const uint32_t *got, const uint32_t *want, size_t n);
size_t gpu_cmp_u64(gpu *g, const char *what, const uint64_t *got, const uint64_t *want, size_t n);
/* |got - want| <= abs_tol + rel_tol * |want|; NaN matches NaN. */
size_t gpu_cmp_f32(gpu *g, const char *what, const float *got, const float *want, size_t n,
                   double abs_tol, double rel_tol);

/* Text, line by line: prints the first differing lines (numbered from 1)
 * and returns their count; a missing line is shown as "(none)". */
size_t gpu_cmp_text(gpu *g, const char *what, const char *got, const char *want);

/* What the process writes on its standard output between begin and end,
 * where the driver prints a kernel's printf at synchronization: begin
 * redirects file descriptor 1 to a temporary file, end puts it back and
 * returns the text (malloc'd; NULL after reporting a failure). */
typedef struct gpu_capture { int saved_fd; FILE *file; } gpu_capture;
int gpu_capture_begin(gpu *g, gpu_capture *cap);
char *gpu_capture_end(gpu *g, gpu_capture *cap);

uint32_t gpu_f32_bits(float f);
float gpu_bits_f32(uint32_t u);
/* Operands of an exactly computable f16 product: A (m x k) and B's transpose
 * (n x k), row-major f16 bits of small multiples of 1/2 drawn from seed, and
 * prod (m x n) = 4 * A * B, an integer: every product and partial sum is
 * exact in f16 accumulators below 2^11 and in f32. */
void gpu_exact_product(uint32_t seed, unsigned m, unsigned n, unsigned k, uint16_t *a, uint16_t *bt,
                       long *prod);
/* f32 to f16 bits, rounded to nearest even (NaN to 0x7fff). */
uint16_t gpu_f16_bits(float f);

#endif
