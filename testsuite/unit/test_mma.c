/* NVVM's packed MMA descriptor: encoding a node's properties, reading
 * them back by NVVM's query keys, and the two enum failures. */
#include <stdint.h>
#include <string.h>

#include "isel/mma_desc.h"
#include "suites.h"

static unsigned tok(const char *s) { return px_tok_lookup(s, strlen(s)); }

/* NVVM's query: the PTX text a key reads from a word, by the layout
 * mma_desc.h gives ("" for an absent modifier), or NULL for an unknown key or
 * a value outside the enums; read here apart from the encoder it checks. */
static unsigned bits(uint64_t d, unsigned shift, unsigned width) { return (unsigned)(d >> shift) & ((1u << width) - 1); }

static const char *enum_name(const px_mma_enum *e, unsigned n, unsigned id)
{
	for (unsigned i = 0; i < n && id; i++)
		if (e[i].id == id)
			return px_tok_names[e[i].tok];
	return NULL;
}

static const char *query(uint64_t d, const char *key)
{
	static const char *const rnd[] = {"", "rn", "rm", "rp", "rz"}, *const opc[] = {"", "and.popc", "xor.popc"},
	                         *const mid[] = {"a", "b", "c", "d"};
	if (!strcmp(key, "shape"))
		return enum_name(px_mma_shapes, px_mma_shapes_n, bits(d, 32, 8));
	if (!strcmp(key, "aty") || !strcmp(key, "bty"))
		return enum_name(px_mma_types, px_mma_types_n, bits(d, key[0] == 'a' ? 8 : 16, 8));
	if (!strcmp(key, "ety"))
		return enum_name(px_mma_types, px_mma_types_n, bits(d, 24, 4));
	if (!strcmp(key, "al") || !strcmp(key, "bl"))
		return bits(d, key[0] == 'a' ? 24 : 26, 2) ? "col" : "row";
	if (!strcmp(key, "rowcol"))
		return bits(d, 0, 1) ? "col" : "row";
	if (!strcmp(key, "satf"))
		return bits(d, 28, 1) ? "satfinite" : "";
	if (!strcmp(key, "mid"))
		return mid[bits(d, 1, 2)];
	if (!strcmp(key, "rnd"))
		return bits(d, 0, 3) < 5 ? rnd[bits(d, 0, 3)] : NULL;
	if (!strcmp(key, "opc"))
		return bits(d, 4, 4) < 3 ? opc[bits(d, 4, 4)] : NULL;
	return NULL;
}

START_TEST(test_type_and_shape_enums)
{
	static const char *const types[] = {"b1", "s4", "u4", "s8", "u8", "f16", "bf16", "tf32", "f64", "f32", "s32"};
	for (unsigned i = 0; i < 11; i++)
		ck_assert_uint_eq(px_mma_type_id(tok(types[i])), i + 1);
	ck_assert_uint_eq(px_mma_shape_id(tok("m8n8k4")), 0x01);
	ck_assert_uint_eq(px_mma_shape_id(tok("m8n32k16")), 0x06);
	ck_assert_uint_eq(px_mma_shape_id(tok("m16n8k4")), 0x10);
	ck_assert_uint_eq(px_mma_shape_id(tok("m16n8k16")), 0x12);
	ck_assert_uint_eq(px_mma_shape_id(tok("m16n8k256")), 0x16);
	ck_assert_uint_eq(px_mma_shape_id(tok("m16n16k8")), 0x19);
	ck_assert_uint_eq(px_mma_type_id(tok("u32")), 0);
}
END_TEST

/* The AsmPrinter's worked example, mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32. */
START_TEST(test_encode_query)
{
	px_mma_props p = {.shape = tok("m16n8k16"), .aty = tok("f16"), .bty = tok("f16"), .bcol = true};
	uint64_t d = 0;
	ck_assert_uint_eq(px_mma_encode(&p, &d), 0);
	ck_assert_uint_eq(d, 0x1204060600ull);
	ck_assert_str_eq(query(d, "shape"), "m16n8k16");
	ck_assert_str_eq(query(d, "aty"), "f16");
	ck_assert_str_eq(query(d, "bty"), "f16");
	ck_assert_str_eq(query(d, "al"), "row");
	ck_assert_str_eq(query(d, "bl"), "col");
	ck_assert_str_eq(query(d, "satf"), "");
	ck_assert_str_eq(query(d, "rnd"), "");
	ck_assert_str_eq(query(d, "opc"), "");
	ck_assert_ptr_null(query(d, "nonsense"));
}
END_TEST

START_TEST(test_modifier_bits)
{
	px_mma_props p = {.shape = tok("m8n8k128"), .aty = tok("b1"), .bty = tok("b1"), .bcol = true,
	                  .opc = tok("xor.popc")};
	uint64_t d = 0;
	ck_assert_uint_eq(px_mma_encode(&p, &d), 0);
	ck_assert_uint_eq((d >> 4) & 0xf, 2);
	ck_assert_str_eq(query(d, "opc"), "xor.popc");
	p = (px_mma_props){.shape = tok("m16n8k32"), .aty = tok("s8"), .bty = tok("u8"), .satf = tok("satfinite")};
	ck_assert_uint_eq(px_mma_encode(&p, &d), 0);
	ck_assert_uint_eq((d >> 28) & 1, 1);
	ck_assert_str_eq(query(d, "satf"), "satfinite");
	ck_assert_str_eq(query(d, "bty"), "u8");
	p = (px_mma_props){.shape = tok("m8n8k4"), .aty = tok("f64"), .bty = tok("f64"), .rnd = tok("rn"), .acol = true};
	ck_assert_uint_eq(px_mma_encode(&p, &d), 0);
	ck_assert_uint_eq(d & 7, 1);
	ck_assert_str_eq(query(d, "rnd"), "rn");
	ck_assert_str_eq(query(d, "al"), "col");
}
END_TEST

START_TEST(test_fragment_word)
{
	uint64_t d = 0;
	ck_assert_uint_eq(px_mma_encode_frag(tok("m16n16k16"), 3, true, tok("f32"), &d), 0);
	ck_assert_str_eq(query(d, "mid"), "d");
	ck_assert_str_eq(query(d, "rowcol"), "col");
	ck_assert_str_eq(query(d, "ety"), "f32");
	ck_assert_str_eq(query(d, "shape"), "m16n16k16");
}
END_TEST

/* "Wrong MMA element type" for a type outside the enum; an unknown shape is a
 * diagnostic, not an abort. */
START_TEST(test_failures)
{
	uint64_t d = 0;
	px_mma_props p = {.shape = tok("m16n8k16"), .aty = tok("u32"), .bty = tok("f16")};
	ck_assert_uint_eq(px_mma_encode(&p, &d), PX_D_mma_wrong_type);
	ck_assert_str_eq(px_diag_texts[PX_D_mma_wrong_type].text, "Wrong MMA element type");
	p = (px_mma_props){.shape = tok("m64n8k16"), .aty = tok("f16"), .bty = tok("f16")};
	ck_assert_uint_eq(px_mma_encode(&p, &d), PX_D_mma_unknown_shape);
	ck_assert_str_eq(px_diag_texts[PX_D_mma_unknown_shape].text, "unknown MMA shape '%s'");
	ck_assert_uint_eq(px_mma_encode_frag(tok("m16n8k16"), 0, false, tok("e2m1"), &d), PX_D_mma_wrong_type);
	ck_assert_ptr_null(query(0x0000000000ull, "shape"));
	ck_assert_ptr_null(query(0x1200ff0000ull, "bty"));
}
END_TEST

Suite *mma_suite(void)
{
	Suite *s = suite_create("mma");
	TCase *tc = tcase_create("descriptor");
	tcase_add_test(tc, test_type_and_shape_enums);
	tcase_add_test(tc, test_encode_query);
	tcase_add_test(tc, test_modifier_bits);
	tcase_add_test(tc, test_fragment_word);
	tcase_add_test(tc, test_failures);
	suite_add_tcase(s, tc);
	return s;
}
