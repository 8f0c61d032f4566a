/* The builders grammar/parser.y's actions call: each takes the tokens and
 * lists a rule matched, enters what they declare into the module or the
 * function being parsed (front/ir.h), and reports the mistakes that need no
 * more than the item at hand (a redefinition, a count out of range, a
 * directive's arity). The grammar itself decides only what is well formed.
 * Nothing here is seen outside the front end. */
#ifndef PX_BUILD_H
#define PX_BUILD_H
#include "front/parse.h"

/* ---- front/tokens.c: what a token says */
static inline px_str px_sans_sigil(px_tok t) /* a name without its sigil (%, @, $) */
{
	return t.s.n ? (px_str){t.s.s + 1, t.s.n - 1} : t.s;
}
uint64_t px_small_uint(px_parser *P, px_tok t, uint64_t lo, uint64_t hi);
uint16_t px_type_of(px_parser *P, px_tok t);
px_str px_unescape(px_arena *a, px_tok t);

/* ---- front/lists.c: operand and property lists of the statement being parsed
 * (linking a list's next element is inline: the grammar does it for every operand) */
static inline px_olist px_olist_one(px_olink *l)
{
	return (px_olist){l, l, 1};
}

static inline px_olist px_olist_add(px_olist l, px_olink *x)
{
	if (!l.head)
		return px_olist_one(x);
	l.tail->next = x;
	l.tail = x;
	l.n++;
	return l;
}

static inline px_plist px_plist_add(px_plist l, px_plink *x)
{
	if (!x)
		return l;
	if (!l.head)
		return (px_plist){x, x, 1};
	l.tail->next = x;
	l.tail = x;
	l.n++;
	return l;
}

px_opnd *px_olist_copy(px_opnd *v, px_olist l);
px_opnd *px_olist_array(px_arena *a, px_olist l);
px_plink *px_prop_link(px_parser *P, px_tok key, const px_tok *val);
px_prop *px_plist_array(px_arena *a, px_plist l);

/* ---- front/operands.c: operands, literals, groups and addresses */
px_olink *px_opnd_link(px_parser *P, uint8_t kind, px_loc loc);
uint32_t px_value_of(px_parser *P, px_tok t);
px_olink *px_value_link(px_parser *P, const px_tok *t, const px_tok *index);
px_olink *px_not_value_link(px_parser *P, px_tok bang, px_tok t);
px_olink *px_neg_value_link(px_parser *P, px_tok minus, px_tok t);
px_olink *px_result_link(px_parser *P, const px_tok *t, const px_tok *type, const px_tok *count);
px_olink *px_result_elem_link(px_parser *P, px_tok t, px_tok index);
px_olink *px_literal_link(px_parser *P, uint8_t kind, const px_tok *t);
px_olink *px_sreg_link(px_parser *P, px_tok t);
px_olink *px_label_link(px_parser *P, px_tok t);
px_olink *px_type_link(px_parser *P, px_tok t);
px_olink *px_group_link(px_parser *P, px_loc loc, px_olist elems);
px_olink *px_init_lanes(px_parser *P, px_loc loc, px_olist elems);
px_olink *px_brace_group(px_parser *P, px_loc loc, px_olist elems);
px_plink *px_brace_item(px_parser *P, px_olink *l);
int64_t px_addr_offset(px_parser *P, px_tok t, bool minus);
px_olink *px_addr_link(px_parser *P, px_loc loc, px_olink *base, int64_t off, px_olink *idx);
px_olink *px_addr_folded(px_parser *P, px_loc loc, px_olink *base, px_tok off);

/* ---- front/statements.c: a function body's nodes */
px_node *px_node_new(px_parser *P, uint8_t kind, px_loc loc);
px_node *px_inst_node(px_parser *P, const px_olist *res, const px_tok *op, const px_olist *ops,
                      const px_plist *props);
px_node *px_call_node(px_parser *P, const px_olist *res, px_tok kw, px_tok callee, px_olist args);
px_node *px_icall_node(px_parser *P, const px_olist *res, px_tok kw, px_tok target, px_olist args,
                       px_olist ptypes, px_olist rtypes);
px_node *px_asm_node(px_parser *P, px_tok kw, px_tok text, const px_olist *outs, px_olist ins);
px_node *px_ret_node(px_parser *P, px_tok kw, px_olink *value);
void px_stmt_done(px_parser *P, px_guard g, px_node *n);
void px_label_def(px_parser *P, px_tok t);
void px_local_def(px_parser *P, px_tok name, px_tok type, const px_tok *count, bool unsized,
                  const px_tok *align);
void px_stmt_reset(px_parser *P);

/* ---- front/printf_call.c: a printf statement */
px_node *px_printf_node(px_parser *P, px_tok kw, px_tok text, px_olist args);

/* ---- front/sourceloc.c: loc statements */
void px_srcloc_set(px_parser *P, px_tok file, px_tok line, const px_tok *col);
void px_srcloc_off(px_parser *P, px_tok word);
uint32_t px_srcloc_index(px_parser *P);

/* ---- front/function.c: a function from its header to its end */
void px_func_begin(px_parser *P, uint8_t linkage, bool kernel, px_tok name);
void px_param_add(px_parser *P, px_tok name, px_tok type, const px_tok *count, uint16_t space,
                  const px_tok *align, px_loc space_loc);
px_olink *px_agg_ret(px_parser *P, px_tok type, px_tok count, const px_tok *align);
void px_func_header(px_parser *P, px_olist rets, px_loc rets_loc, px_plist attrs);
void px_func_register(px_parser *P, bool defined);
void px_body_open(px_parser *P);
void px_broken_body_open(px_parser *P);
void px_func_end(px_parser *P);
void px_func_drop(px_parser *P);

/* ---- front/directives.c: a kernel's or function's performance directives */
px_olink *px_dir_arg(px_parser *P, px_tok t);
void px_directive_add(px_parser *P, px_tok name, const px_olist *args);

/* ---- front/globals.c: module-level variables */
px_loc px_sym_loc(const px_module *m, uint32_t sym);
px_olist px_string_bytes(px_parser *P, px_tok t);
void px_global_def(px_parser *P, uint8_t linkage, uint8_t space, px_tok name, px_tok type,
                   const px_tok *count, bool unsized, const px_tok *align, px_olist init,
                   bool init_list, bool init_string);

/* ---- front/target.c: the target line */
void px_target_line(px_parser *P, px_tok name, const px_tok *ptx);

/* ---- front/syntax_error.c: the messages of a syntax error */
bool px_syntax_error_due(px_parser *P, bool at_eof);
void px_syntax_error(px_parser *P, px_str tok_name, bool tok_shown, const px_str *expected, int nexpected);

/* ---- front/parse.c: px_parse, and parsing an item again after a syntax error */
void px_parse_set_mark(px_parser *P);

#endif
