/* A place in the MIR source: every stage reports diagnostics at one. */
#ifndef PX_LOC_H
#define PX_LOC_H
#include <stdint.h>

typedef struct px_loc {
	uint32_t line, col; /* 1-based; col counts bytes */
	uint32_t off;       /* byte offset of the first character in the source */
} px_loc;

#endif
