/* --diagnostics-format=json: the diagnostics as one JSON array (see json.c). */
#ifndef PX_DRV_JSON_H
#define PX_DRV_JSON_H
#include <stdio.h>

#include "ptxemit.h"
#include "util/buf.h"

typedef struct drv_json {
	px_buf text;   /* the records so far, the last one still open */
	int nrecords;
} drv_json;

void drv_json_init(drv_json *j);
/* Add d: a note joins the notes of the record before it, anything else
 * starts a record. */
void drv_json_add(drv_json *j, const px_diagnostic *d);
/* Write the array (and a newline) to f and free j. */
void drv_json_finish(drv_json *j, FILE *f);

#endif
