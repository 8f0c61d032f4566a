/* Writing the translated text: all of it or none of it. */
#ifndef PX_DRV_OUTPUT_H
#define PX_DRV_OUTPUT_H
#include <stddef.h>

/* Write len bytes to fd, retrying short writes. Returns 0 or an errno value. */
int drv_write_fd(int fd, const char *data, size_t len);

/* Replace the file path with exactly these bytes, or leave it as it was.
 * Returns 0 or an errno value. */
int drv_write_file(const char *path, const char *data, size_t len);

#endif
