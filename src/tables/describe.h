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

#endif
