/* The operation tables as text: ptxemit --list-ops and --describe=OP. */
#ifndef PX_DESCRIBE_H
#define PX_DESCRIBE_H
#include "tables/tables.h"
#include "util/buf.h"

/* One line per operation MIR may write: its name and lowest target. */
void px_list_ops(px_buf *out);
/* Every form of op: its slots and their tokens, results and operands with
 * their types, properties, and per variant the SM and PTX window, the MC
 * opcode and the intrinsic ID. */
void px_describe_op(px_buf *out, const px_op_def *op);
/* How the text names an operand's kind (PX_OK_*) and an address's space
 * (PX_AS_*): NULL for none. */
const char *px_opnd_kind_name(unsigned kind);
const char *px_space_name(unsigned space);

#endif
