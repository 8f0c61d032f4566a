/* Inline PTX as LLVM prints it: a comment pair around a { } scope of its own,
 * so .reg declarations and labels in the template stay local to it. */
#include "print/print.h"

void px_print_asm(px_buf *out, const px_minst *mi)
{
	const char *s = mi->name.s;
	uint32_t n = mi->name.n;
	px_buf_puts(out, "\t// begin inline asm\n\t{\n");
	bool start = true;
	for (uint32_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '\n') {
			if (!start)
				px_buf_putc(out, '\n');
			start = true;
			continue;
		}
		if (start && (c == ' ' || c == '\t' || c == '\r'))
			continue;
		if (start) {
			px_buf_putc(out, '\t');
			start = false;
		}
		if (c != '$') {
			px_buf_putc(out, c);
		} else if (i + 1 < n && s[i + 1] == '$') {
			px_buf_putc(out, '$');
			i++;
		} else {
			/* the verifier allowed only $N with N below the operand count */
			uint32_t k = 0;
			while (i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '9')
				k = k * 10 + (uint32_t)(s[++i] - '0');
			px_print_mop(out, &mi->ops[k]);
		}
	}
	if (!start)
		px_buf_putc(out, '\n');
	px_buf_puts(out, "\t}\n\t// end inline asm\n");
}
