/* libFuzzer harness: the whole pipeline in-process on arbitrary bytes.
 * Each input is translated twice, to PTX and to the isel dump, so both
 * printers run; a second PTX translation must give the same bytes, since the
 * output may depend on nothing but the input. Diagnostics are formatted (the
 * caret line walks the source) and dropped. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptxemit.h"

static void on_diag(void *ctx, const px_diagnostic *d)
{
	char text[512];
	px_diagnostic_format(d, text, sizeof text);
	++*(unsigned *)ctx;
}

static char *translate(const uint8_t *data, size_t size, px_emit emit, size_t *len, unsigned *ndiags)
{
	px_options o;
	px_options_default(&o);
	o.emit = emit;
	o.remarks = true;
	char *out = NULL;
	int errors = px_translate("fuzz.mir", (const char *)data, size, &o, on_diag, ndiags, &out, len);
	/* the contract: output exactly when there is no error */
	if ((errors == 0) != (out != NULL))
		abort();
	return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t len1 = 0, len2 = 0, ilen = 0;
	unsigned n1 = 0, n2 = 0, ni = 0;
	char *a = translate(data, size, PX_EMIT_PTX, &len1, &n1);
	char *b = translate(data, size, PX_EMIT_PTX, &len2, &n2);
	if (n1 != n2 || (a == NULL) != (b == NULL) || (a && (len1 != len2 || memcmp(a, b, len1))))
		abort();
	free(translate(data, size, PX_EMIT_ISEL, &ilen, &ni));
	free(a);
	free(b);
	return 0;
}
