/* Queries over the tables given a node's filled slots (tables/query.c): the
 * verifier and the selector both ask these, so neither keeps its own copy of a
 * table rule. `slot` is a node's token per slot (PX_TOK_*, 0 = empty). */
#ifndef PX_QUERY_H
#define PX_QUERY_H
#include <stdbool.h>
#include <stdint.h>

#include "tables/firstrow.h"
#include "tables/tables.h"

/* The value type a slot token names (PX_T_* or 0 for a format such as e4m3). */
int px_tok_type(unsigned tok);
/* The type an operand definition expects, given the node's slots; 0 = any. */
int px_opnd_type(const px_opnd_def *def, const uint16_t *slot);
/* A group size for a definition, or 1 for a scalar. */
unsigned px_opnd_count(const px_opnd_def *def, const uint16_t *slot);
/* Is the definition a group (printed in braces) for the node's slots? One of
 * one element too; a group sized by an empty slot (ld without .v2) is a value. */
bool px_opnd_is_group(const px_opnd_def *def, const uint16_t *slot);
/* Can a value of type have stand where type want is expected? A bit type
 * stands for any type of its width; a ptr value is a u64. */
bool px_type_fits(int have, int want);
/* An integer value have wider than the integer or bit type want: what an
 * operand flagged wider (PX_OPND_WIDER: ld's result, st's value) also takes,
 * as PTX lets a load sign- or zero-extend into a wider register and a store
 * keep a wider register's low bits. */
bool px_type_widens(int have, int want);

/* The state space a space token names (PX_TOK_shared ...) as PX_AS_*; else generic. */
unsigned px_space_of_tok(unsigned tok);
/* The state space an address operand works in (PX_AS_*). */
unsigned px_opnd_space(const px_opnd_def *def, const uint16_t *slot);
/* The one kind of memory (PX_AS_SHARED or PX_AS_GLOBAL) every space an address
 * operand's slot can name lies in, where its generic form then works only;
 * else PX_AS_GENERIC. */
unsigned px_opnd_only_space(const px_op_def *op, const px_opnd_def *def);

/* The operand lists of a variant: its own, else its op's. */
const px_opnd_def *px_var_results(const px_op_def *op, const px_variant *var, unsigned *n);
const px_opnd_def *px_var_operands(const px_op_def *op, const px_variant *var, unsigned *n);
/* Does variant var admit the filled slots? (window not considered) */
bool px_variant_admits(const px_op_def *op, const px_variant *var, const uint16_t *slot);
/* The first variant admitting slot and covering the window, or NULL; memo,
 * when not NULL, remembers the first admitting row (tables/firstrow.h). */
const px_variant *px_variant_find(px_first_rows **memo, const px_op_def *op, const uint16_t *slot,
                                  const px_target *t, uint16_t ptx);
/* Is t in the target mask (bit i: px_targets[i])? No target: yes. */
bool px_target_in(uint64_t targets, const px_target *t);
/* Does target/ptx satisfy the variant's window? ptx 0 = any; no target: yes. */
bool px_window_ok(const px_variant *var, const px_target *t, uint16_t ptx);
#endif
