/* The selector's third layer: the pattern matcher. Every candidate
 * pattern for a node is scored with saturating int64 costs (a deep pattern
 * must never look cheap because its sum wrapped), nested levels weigh by the
 * depth amplifier, and a pattern's CheckPatternPredicate reads its
 * row of the target's pipeline lattice. The cheapest cover wins. */
#ifndef PX_MATCH_H
#define PX_MATCH_H
#include <stdbool.h>
#include <stdint.h>

#include "isel/isel.h"

/* A pattern that cannot match costs this much: it never wins. */
#define PX_COST_REJECT INT64_MAX

/* Saturating arithmetic: a result past either end clamps to that end. */
int64_t px_cost_add(int64_t a, int64_t b);
int64_t px_cost_mul(int64_t a, int64_t b);
/* The depth amplifier, 9 * (depth != 2) + 1, as NVPTX scores: 1 at depth
 * 2, where the matcher scores a pattern's root, and 10 at every other depth. */
int64_t px_cost_depth(unsigned depth);

/* The byte a pattern's pipeline-lattice row (data/patterns.yaml) holds for a
 * target of SM sm: <= 1 accepts, 4 doubles the cost, anything else rejects. */
unsigned px_lattice_byte(const px_lattice_step *row, unsigned sm);
/* A pattern's cost after its predicate tail (CheckPatternPredicate). */
int64_t px_check_predicate(int64_t cost, const px_lattice_step *row, unsigned sm);

/* Per function: find the values whose defining node a pattern absorbs. */
void px_match_plan(px_isel *s, const px_func *f);
/* The node defining value id, when it is the only definition; else NULL. */
const px_node *px_match_def(const px_isel *s, uint32_t id);
/* The statements defining value id: 0, 1, or 2 for two or more. */
unsigned px_match_ndefs(const px_isel *s, uint32_t id);
/* Select n by the cheapest pattern (absorbed nodes emit nothing). */
void px_select_match(px_isel *s, const px_node *n);
/* NVPTX's FMA FTZ probe: the node flag {ftz_ok} (NVPTX's SDNode flag bit 0x40, NoFPExcept), else
 * the function attribute unsafe_fp_math, else denormal_fp_math = preserve_sign. */
bool px_fma_ftz(const px_isel *s, const px_node *n);

#endif
