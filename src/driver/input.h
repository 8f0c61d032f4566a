/* Reading the input: see input.c. */
#ifndef PX_DRV_INPUT_H
#define PX_DRV_INPUT_H

#include <stddef.h>
#include <sys/types.h>

typedef struct drv_input {
	char *data;
	size_t len, cap;
} drv_input;

/* Every byte of path, or of standard input when path is NULL (binary-safe: MIR
 * with a NUL in it is the library's to diagnose). Returns 0 or an errno value. */
int drv_read_input(const char *path, drv_input *in);
void drv_input_free(drv_input *in);

/* read(2), retried when a signal interrupts it. */
ssize_t drv_read_retry(int fd, void *buf, size_t n);

#endif
