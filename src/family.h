/* Op families with code of their own: one record per family (data/families.yaml
 * declares the families and the slots their code reads; an op names its family
 * with `family:`). A hook left NULL means the tables say all for that stage. */
#ifndef PX_FAMILY_H
#define PX_FAMILY_H
#include <stdbool.h>

#include "front/ir.h"

struct px_verifier;
struct px_isel;

typedef struct px_family {
	/* the verifier, after the tokens and properties fill the slots and before
	 * the rules: the family's own reading of them; false: reported, stop */
	bool (*prepare)(struct px_verifier *v, px_func *f, px_node *n);
	/* the verifier, after the variant and the operands */
	void (*check)(struct px_verifier *v, px_func *f, px_node *n);
	/* the selector's first layer: true when it took the node */
	bool (*select)(struct px_isel *s, const px_node *n);
} px_family;

extern const px_family px_families[]; /* indexed by PX_FAM_* */

#endif
