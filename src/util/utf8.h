/* UTF-8 validation: what counts as text when a message quotes bytes of its
 * input (the JSON diagnostics, the description of input that is not MIR). */
#ifndef PX_UTF8_H
#define PX_UTF8_H
#include <stddef.h>

/* The length of the valid UTF-8 sequence at s (at most n bytes, n >= 1), 0 if
 * there is none: overlong forms, surrogates and code points past U+10FFFF are
 * not valid. */
size_t px_utf8_len(const unsigned char *s, size_t n);

#endif
