/* Writing the translated text: all of it or none of it. */
#ifndef PX_DRV_OUTPUT_H
#define PX_DRV_OUTPUT_H
#include <stddef.h>

/* Write len bytes to fd, retrying short writes. Returns 0 or an errno value. */
int drv_write_fd(int fd, const char *data, size_t len);

/* The functions' text as it is printed (px_options.sink), kept in an
 * unlinked temporary file beside the output instead of in memory. */
typedef struct drv_spool {
	int fd;  /* -1: no spool, the whole output is in memory */
	int err; /* the first write error, 0 if none */
} drv_spool;

/* Open a spool for the output path if path is, or will be, a regular file;
 * otherwise, or if it cannot be created, s->fd is -1. With path NULL (the
 * output is standard output) the spool goes to $TMPDIR, else /tmp. */
void drv_spool_open(drv_spool *s, const char *path);

/* A px_sink_fn: append to the spool (ctx is the drv_spool). */
void drv_spool_write(void *ctx, const char *data, size_t len);

void drv_spool_close(drv_spool *s);

/* Replace the file path with exactly these bytes followed by the spool's
 * (spool -1: none), or leave it as it was. Returns 0 or an errno value. */
int drv_write_file(const char *path, const char *data, size_t len, int spool);

/* Whether the paths a and b name one existing file (through links too). */
int drv_same_file(const char *a, const char *b);

/* Write these bytes, then the spool's, to fd. Returns 0 or an errno value. */
int drv_write_all(int fd, const char *data, size_t len, int spool);

#endif
