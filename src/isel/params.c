/* NVPTX's parameter ABI: parameters are read with one ld.param each
 * (LoadParam); a call is a brace-delimited block of .param declarations,
 * st.param stores, the call and ld.param of the results (ParamCallStart ...
 * ParamCallEnd); a device function returns through st.param to func_retval. */
#include <string.h>

#include "isel/abi.h"
#include "front/optype.h"
#include "isel/isel.h"
#include "util/buf.h"

int px_abi_type(int t)
{
	return t == PX_T_pred ? PX_T_b32 : t == PX_T_ptr ? PX_T_u64 : t;
}

void px_ret_layout(const uint16_t *rets, uint32_t n, uint32_t *offs, uint32_t *size, uint32_t *align)
{
	uint32_t off = 0, max = 1;
	for (uint32_t i = 0; i < n; i++) {
		unsigned w = px_types[px_abi_type(rets[i])].width;
		uint32_t b = w / 8 ? w / 8 : 1;
		off = (off + b - 1) / b * b;
		if (offs)
			offs[i] = off;
		off += b;
		if (b > max)
			max = b;
	}
	*size = (off + max - 1) / max * max;
	*align = max;
}

px_str px_param_sym(px_isel *s, uint32_t index)
{
	const px_func *f = s->f;
	const size_t infix = sizeof PX_PARAM_INFIX - 1;
	char *p = px_arena_alloc(s->a, f->name.n + infix + 20);
	memcpy(p, f->name.s, f->name.n);
	memcpy(p + f->name.n, PX_PARAM_INFIX, infix);
	size_t n = f->name.n + infix + px_utoa(p + f->name.n + infix, index);
	return (px_str){p, (uint32_t)n};
}

static px_str sym_name(px_isel *s, const char *prefix, uint32_t i)
{
	size_t len = strlen(prefix);
	char *p = px_arena_alloc(s->a, len + 20);
	memcpy(p, prefix, len);
	len += px_utoa(p + len, i);
	return (px_str){p, (uint32_t)len};
}

static px_mop param_addr(px_isel *s, px_str name, uint32_t off)
{
	px_mop m = px_mop_of(PX_M_ADDR);
	m.base = px_mops(s, 1);
	*m.base = px_sym_mop(name);
	m.off = off;
	return m;
}

/* ld.param.T dst, [name+off] */
static void load_param(px_isel *s, int type, px_mop dst, px_str name, uint32_t off, px_loc loc)
{
	const px_op_def *ld = &px_ops[PX_OP_ld];
	uint16_t slot[PX_MAX_SLOTS] = {0};
	px_set_slot(ld, slot, PX_SN_space, PX_TOK_param);
	px_set_slot(ld, slot, PX_SN_type, px_type_tok(ld, PX_SN_type, type));
	px_emit_unary(s, ld, slot, dst, param_addr(s, name, off), loc);
}

/* st.param.T [name+off], src */
static void store_param(px_isel *s, int type, px_str name, uint32_t off, px_mop src, px_loc loc)
{
	const px_op_def *st = &px_ops[PX_OP_st];
	uint16_t slot[PX_MAX_SLOTS] = {0};
	px_set_slot(st, slot, PX_SN_space, PX_TOK_param);
	px_set_slot(st, slot, PX_SN_type, px_type_tok(st, PX_SN_type, type));
	px_build_inst(s, st, slot, NULL, 0, (px_mop[]){param_addr(s, name, off), src}, 2, loc);
}

/* A pred crosses a call as LLVM's NVPTX passes an i1: a .b32 parameter or
 * result holding 0 or 1 (a kernel's is .u8, the size of C++'s bool); the
 * reader keeps bit 0 and sets the predicate back with setp.eq. ld is the
 * type it is read as: u8 for parameters, b32 for a call's results. */
static void read_pred(px_isel *s, int ld, px_mop dst, px_str name, uint32_t off, const px_minst *guard,
                      px_loc loc)
{
	int bits = ld == PX_T_u8 ? PX_T_b16 : PX_T_b32;
	px_mop raw = px_fresh_reg(s, ld);
	load_param(s, ld, raw, name, off, loc);
	const px_op_def *and = &px_ops[PX_OP_and];
	uint16_t aslot[PX_MAX_SLOTS] = {0};
	px_set_slot(and, aslot, PX_SN_type, px_type_tok(and, PX_SN_type, bits));
	px_mop bit = px_fresh_reg(s, bits);
	px_build_inst(s, and, aslot, &bit, 1, (px_mop[]){raw, px_imm_mop(bits, 1)}, 2, loc);
	const px_op_def *setp = &px_ops[PX_OP_setp];
	uint16_t sslot[PX_MAX_SLOTS] = {0};
	px_set_slot(setp, sslot, PX_SN_cmp, PX_TOK_eq);
	px_set_slot(setp, sslot, PX_SN_type, px_type_tok(setp, PX_SN_type, bits));
	px_minst *p = px_build_inst(s, setp, sslot, &dst, 1, (px_mop[]){bit, px_imm_mop(bits, 1)}, 2, loc);
	if (guard && guard->has_guard) { /* a call that did not happen leaves dst as it was */
		p->has_guard = true;
		p->guard_neg = guard->guard_neg;
		p->guard_reg = guard->guard_reg;
	}
}

/* The b32 that carries a pred operand: selp.u32 %r, 1, 0, %p, or the literal
 * 0 or 1 itself. */
static px_mop pred_bits(px_isel *s, const px_node *n, const px_opnd *o, px_loc loc)
{
	if (o->kind == PX_O_INT)
		return px_imm_mop(PX_T_b32, o->ival);
	px_opnd_def def;
	memset(&def, 0, sizeof def);
	def.kind = PX_OK_VALUE;
	def.type_slot = -1;
	px_mop p = px_lower_operand(s, n, o, &def, PX_T_pred, loc);
	const px_op_def *selp = &px_ops[PX_OP_selp];
	uint16_t slot[PX_MAX_SLOTS] = {0};
	px_set_slot(selp, slot, PX_SN_type, PX_TOK_u32);
	px_mop r = px_fresh_reg(s, PX_T_u32);
	px_build_inst(s, selp, slot, &r, 1, (px_mop[]){px_imm_mop(PX_T_u32, 1), px_imm_mop(PX_T_u32, 0), p}, 3, loc);
	return r;
}

/* A value operand of a call or ret as the bits its .param holds; a literal
 * of a packed type (one for every lane, or ( , ) lane 0 first) as the
 * whole's bits, which st.param takes as an immediate. */
static px_mop param_source(px_isel *s, const px_node *n, const px_opnd *o, int type, px_loc loc)
{
	if (type == PX_T_pred)
		return pred_bits(s, n, o, loc);
	px_lanes ln;
	if ((o->kind == PX_O_INT || o->kind == PX_O_FLOAT || o->kind == PX_O_FBITS || o->kind == PX_O_GROUP) &&
	    px_type_lanes(type, &ln))
		return px_imm_mop(ln.whole, (int64_t)px_lanes_bits(o, &ln));
	px_opnd_def def;
	memset(&def, 0, sizeof def);
	def.kind = PX_OK_VALUE;
	def.type_slot = -1;
	return px_lower_operand(s, n, o, &def, type, loc);
}

/* The bit type of an access of bytes bytes: the element moves as raw bits,
 * whatever its type (st.param has no .f16). */
static int bits_of(unsigned bytes)
{
	return bytes == 1 ? PX_T_b8 : bytes == 2 ? PX_T_b16 : bytes == 4 ? PX_T_b32 : bytes == 8 ? PX_T_b64 : PX_T_b128;
}

/* An aggregate parameter's bytes, copied into .param name in the largest
 * pieces both alignments allow (up to 8 bytes), as a byval copy is. */
static void copy_agg(px_isel *s, const px_value *v, uint32_t align, px_str name, px_loc loc)
{
	const px_param *p = &s->f->params[v->param_index];
	uint32_t a = p->align ? p->align : 1, b = align ? align : 1;
	uint32_t piece = a < b ? a : b;
	if (piece > 8)
		piece = 8;
	for (uint32_t off = 0; off < p->size;) {
		while (piece > p->size - off)
			piece /= 2;
		int t = bits_of(piece);
		px_mop tmp = px_fresh_reg(s, t);
		load_param(s, t, tmp, px_param_sym(s, v->param_index), off, loc);
		store_param(s, t, name, off, tmp, loc);
		off += piece;
	}
}

/* An operand passed as a b8[N] aggregate (the verifier checked its size and
 * alignment): a whole array, element k at k times its size, or an aggregate
 * parameter, copied. */
static void store_agg(px_isel *s, const px_opnd *o, uint32_t align, px_str name, px_loc loc)
{
	const px_value *v = &s->f->values[o->id];
	if (v->param == PX_PARAM_AGG) {
		copy_agg(s, v, align, name, loc);
		return;
	}
	uint32_t r = px_value_reg(s, o->id);
	unsigned eb = px_types[v->type].width / 8;
	for (uint32_t k = 0; k < v->count; k++)
		store_param(s, bits_of(eb), name, k * eb, px_reg_mop(s, v->type, r + k), loc);
}

void px_select_entry(px_isel *s)
{
	const px_func *f = s->f;
	for (uint32_t i = 0; i < f->nparams; i++) {
		const px_param *p = &f->params[i];
		if (p->kind == PX_PARAM_AGG)
			continue; /* addressed in place: [name_param_i + off] */
		int t = p->kind == PX_PARAM_PTR ? PX_T_u64 : p->type;
		uint32_t reg = px_value_reg(s, p->value);
		if (t == PX_T_pred) {
			read_pred(s, PX_T_u8, px_reg_mop(s, t, reg), px_param_sym(s, i), 0, NULL, p->loc);
			continue;
		}
		px_mop dst = px_reg_mop(s, t, reg);
		bool to_global = f->is_kernel && p->kind == PX_PARAM_PTR && p->space == PX_TOK_global;
		if (to_global) /* load into a scratch register, convert into the value's */
			dst = px_fresh_reg(s, t);
		load_param(s, t, dst, px_param_sym(s, i), 0, p->loc);
		if (!to_global)
			continue;
		px_emit_cvta_to(s, PX_TOK_global, px_reg_mop(s, t, reg), dst, p->loc);
	}
}

/* ld.param of a returned value at off into dst. ptxas predicates no ld.param
 * of a return value: under a guarded call c it is loaded into a scratch
 * register and copied under the call's guard, so a call that did not happen
 * leaves its results as they were. */
static void read_result(px_isel *s, int t, px_mop dst, uint32_t off, const px_minst *c, px_loc loc)
{
	if (!c->has_guard) {
		load_param(s, t, dst, sym_name(s, PX_RETVAL_CALLER, 0), off, loc);
		return;
	}
	px_mop tmp = px_fresh_reg(s, t);
	load_param(s, t, tmp, sym_name(s, PX_RETVAL_CALLER, 0), off, loc);
	const px_op_def *mov = &px_ops[PX_OP_mov];
	uint16_t slot[PX_MAX_SLOTS] = {0};
	unsigned w = px_types[t].width;
	px_set_slot(mov, slot, PX_SN_type, px_type_tok(mov, PX_SN_type, w <= 16 ? PX_T_b16 : w == 32 ? PX_T_b32 : PX_T_b64));
	px_emit_unary(s, mov, slot, dst, tmp, loc);
	px_minst *mv = s->mf.last; /* the guard does not change the MC name */
	mv->has_guard = true;
	mv->guard_neg = c->guard_neg;
	mv->guard_reg = c->guard_reg;
}

static px_minst *pseudo(px_isel *s, unsigned op, px_loc loc)
{
	return px_emit_inst(s, &px_ops[op], NULL, loc);
}

/* The callee's signature. One defined later needs its prototype before the
 * first function (one declared so far, too: the declaration is printed only
 * there); the types of one not seen yet are known only once the module is
 * read (jobs.c holds the function): until then it sets late and gets NULL. */
static const px_funcsig *callee_sig(px_isel *s, px_str name)
{
	uint32_t v = px_module_sym(s->m, name);
	bool known = v != PX_STRMAP_NONE && (v & 1);
	if (!known || !s->m->funcs[v >> 1].defined)
		px_strmap_put(&s->early_calls, px_arena_strndup(s->keep, name.s, name.n), name.n, 1);
	if (known)
		return &s->m->funcs[v >> 1];
	if (!s->sigs) {
		s->late = true;
		return NULL;
	}
	v = px_strmap_get(&s->sigs->syms, name.s, name.n);
	return v != PX_STRMAP_NONE && (v & 1) ? &s->sigs->funcs[v >> 1] : NULL;
}

/* An indirect call's "prototype_N : .callprototype ..." line: its parameters'
 * types (PTX's ABI types) and its result declared as retval0 is. */
static void call_prototype(px_isel *s, px_str name, const int *types, uint32_t nargs, const px_minst *ret,
                           px_loc loc)
{
	px_minst *p = pseudo(s, PX_OP_callprototype, loc);
	p->name = name;
	if (ret) {
		p->nres = 1;
		p->type = ret->type;
		p->aux = ret->aux;
		p->align = ret->align;
	}
	p->ops = px_mops(s, nargs);
	p->nops = nargs;
	for (uint32_t i = 0; i < nargs; i++)
		p->ops[i].type = (uint16_t)px_abi_type(types[i]);
	px_finish(s, p);
}

void px_select_call(px_isel *s, const px_node *n)
{
	const px_funcsig *sig = n->icall ? n->icall->proto : callee_sig(s, n->callee);
	if (!sig)
		return; /* the first pass: this function is selected again by the second */
	uint32_t seq = s->callseq++;
	uint32_t nrets = sig->nrets;
	px_minst *b = pseudo(s, PX_OP_callseq_begin, n->loc);
	b->aux = seq;
	px_finish(s, b);
	int *types = px_arena_alloc(s->a, (n->nops + nrets + 1) * sizeof *types);
	for (uint32_t i = 0; i < n->nops; i++) {
		types[i] = sig->params[i] == PX_T_ptr ? PX_T_u64 : sig->params[i];
		px_minst *d = pseudo(s, PX_OP_declare_param, n->loc);
		d->name = sym_name(s, PX_PARAM_CALLER, i);
		d->type = (uint16_t)px_abi_type(types[i]);
		if (!types[i]) { /* an aggregate, declared as the callee declares it */
			d->aux = sig->param_sizes[i];
			d->align = sig->param_aligns[i];
		}
		px_finish(s, d);
	}
	/* PTX returns one .param: several results share one aggregate (print/) */
	uint16_t *rtypes = px_arena_alloc(s->a, (nrets + 1) * sizeof *rtypes);
	uint32_t *offs = px_arena_alloc(s->a, (nrets + 1) * sizeof *offs);
	for (uint32_t i = 0; i < nrets; i++) {
		types[n->nops + i] = sig->rets[i] == PX_T_ptr ? PX_T_u64 : sig->rets[i];
		rtypes[i] = (uint16_t)types[n->nops + i];
	}
	px_minst *rd = NULL;
	if (nrets) {
		rd = pseudo(s, PX_OP_declare_param, n->loc);
		rd->name = sym_name(s, PX_RETVAL_CALLER, 0);
		rd->type = (uint16_t)px_abi_type(rtypes[0]);
		if (sig->ret_size) {
			rd->aux = sig->ret_size;
			rd->align = sig->ret_align;
		} else if (nrets > 1) {
			px_ret_layout(rtypes, nrets, offs, &rd->aux, &rd->align);
		}
		px_finish(s, rd);
	}
	for (uint32_t i = 0; i < n->nops; i++) {
		if (!types[i]) {
			store_agg(s, &n->ops[i], sig->param_aligns[i], sym_name(s, PX_PARAM_CALLER, i), n->loc);
			continue;
		}
		px_mop src = param_source(s, n, &n->ops[i], types[i], n->loc);
		if (sig->params[i] == PX_T_ptr)
			src = px_generic_pointer(s, &n->ops[i], src, n->loc);
		store_param(s, px_abi_type(types[i]), sym_name(s, PX_PARAM_CALLER, i), 0, src, n->loc);
	}
	px_str proto = {0};
	if (n->icall) { /* declared in the call's block, as LLVM's NVPTX does */
		proto = sym_name(s, "prototype_", seq);
		call_prototype(s, proto, types, n->nops, rd, n->loc);
	}
	px_minst *c = pseudo(s, PX_OP_call, n->loc);
	c->name = n->callee;
	if (n->icall) {
		c->name = proto;
		c->callee = px_mops(s, 1);
		*c->callee = px_lower_value_as(s, &n->icall->target, PX_T_u64, n->loc);
	}
	c->res = px_mops(s, 1);
	c->nres = nrets ? 1 : 0;
	if (nrets)
		c->res[0] = px_sym_mop(sym_name(s, PX_RETVAL_CALLER, 0));
	c->ops = px_mops(s, n->nops);
	c->nops = n->nops;
	for (uint32_t i = 0; i < n->nops; i++)
		c->ops[i] = px_sym_mop(sym_name(s, PX_PARAM_CALLER, i));
	if (n->has_guard) {
		c->has_guard = true;
		c->guard_neg = n->guard_neg;
		c->guard_reg = px_value_reg(s, n->guard);
	}
	px_finish(s, c);
	for (uint32_t i = 0; i < n->nres && i < nrets; i++) {
		const px_opnd *o = &n->res[i];
		if (o->kind != PX_O_VALUE)
			continue;
		int t = types[n->nops + i];
		if (!t) { /* the aggregate result into an array, element k from k times its size */
			const px_value *v = &s->f->values[o->id];
			uint32_t r = px_value_reg(s, o->id);
			unsigned eb = px_types[v->type].width / 8;
			for (uint32_t k = 0; k < v->count; k++)
				read_result(s, bits_of(eb), px_reg_mop(s, v->type, r + k), k * eb, c, n->loc);
			continue;
		}
		px_mop dst = px_lower_value_as(s, o, t, n->loc);
		uint32_t off = nrets > 1 ? offs[i] : 0;
		if (t == PX_T_pred) {
			read_pred(s, PX_T_b32, dst, sym_name(s, PX_RETVAL_CALLER, 0), off, c, n->loc);
			continue;
		}
		read_result(s, t, dst, off, c, n->loc);
	}
	px_minst *e = pseudo(s, PX_OP_callseq_end, n->loc);
	e->aux = seq;
	px_finish(s, e);
}

/* { .param .b64 param0; .param .b64 param1; .param .b32 retval0;
 *   st.param.b64 [param0], fmt; st.param.b64 [param1], buf;
 *   call.uni (retval0), vprintf, (param0, param1); } as the CUDA compiler
 * calls it; the int it returns is not read. */
void px_select_vprintf(px_isel *s, const px_node *n, px_mop fmt, px_mop buf)
{
	uint32_t seq = s->callseq++;
	px_minst *b = pseudo(s, PX_OP_callseq_begin, n->loc);
	b->aux = seq;
	px_finish(s, b);
	for (uint32_t i = 0; i < 3; i++) {
		px_minst *d = pseudo(s, PX_OP_declare_param, n->loc);
		d->name = i < 2 ? sym_name(s, PX_PARAM_CALLER, i) : sym_name(s, PX_RETVAL_CALLER, 0);
		d->type = i < 2 ? PX_T_b64 : PX_T_b32;
		px_finish(s, d);
	}
	store_param(s, PX_T_b64, sym_name(s, "param", 0), 0, fmt, n->loc);
	store_param(s, PX_T_b64, sym_name(s, "param", 1), 0, buf, n->loc);
	px_minst *c = pseudo(s, PX_OP_call, n->loc);
	c->name = (px_str){"vprintf", 7};
	c->res = px_mops(s, 1);
	c->res[0] = px_sym_mop(sym_name(s, PX_RETVAL_CALLER, 0));
	c->nres = 1;
	c->ops = px_mops(s, 2);
	c->ops[0] = px_sym_mop(sym_name(s, "param", 0));
	c->ops[1] = px_sym_mop(sym_name(s, "param", 1));
	c->nops = 2;
	if (n->has_guard) {
		c->has_guard = true;
		c->guard_neg = n->guard_neg;
		c->guard_reg = px_value_reg(s, n->guard);
	}
	px_finish(s, c);
	px_minst *e = pseudo(s, PX_OP_callseq_end, n->loc);
	e->aux = seq;
	px_finish(s, e);
}

void px_select_ret(px_isel *s, const px_node *n)
{
	const px_func *f = s->f;
	uint32_t *offs = px_arena_alloc(s->a, (f->nrets + 1) * sizeof *offs);
	if (f->nrets > 1) {
		uint32_t size, align;
		px_ret_layout(f->rets, f->nrets, offs, &size, &align);
	}
	for (uint32_t i = 0; i < n->nops && i < f->nrets; i++) {
		if (f->ret_size) {
			store_agg(s, &n->ops[i], f->ret_align, sym_name(s, PX_RETVAL_CALLEE, 0), n->loc);
			continue;
		}
		int t = f->rets[i] == PX_T_ptr ? PX_T_u64 : f->rets[i];
		px_mop src = param_source(s, n, &n->ops[i], t, n->loc);
		if (f->rets[i] == PX_T_ptr)
			src = px_generic_pointer(s, &n->ops[i], src, n->loc);
		store_param(s, px_abi_type(t), sym_name(s, PX_RETVAL_CALLEE, 0), offs[i], src, n->loc);
	}
	px_minst *mi = px_emit_inst(s, &px_ops[PX_OP_ret], NULL, n->loc);
	if (n->has_guard) {
		mi->has_guard = true;
		mi->guard_neg = n->guard_neg;
		mi->guard_reg = px_value_reg(s, n->guard);
	}
	px_finish(s, mi);
}
