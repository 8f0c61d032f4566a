/* The MIR parser once more, built by bison with lookahead correction
 * (parse.lac=full) and named pxyyparse_lac: px_parse runs it from the start
 * of the top-level item in which the plain parser met a syntax error, so the
 * messages list exactly the tokens that could follow (grammar/parser.y,
 * front/parse.c). */
#define PX_PARSER_LAC 1
#define pxyyparse pxyyparse_lac
#include "parser_lac.c"
