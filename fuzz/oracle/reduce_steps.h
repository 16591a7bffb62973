// Candidate modules for the reducer's shape, callee and attribute steps
// (reduce.cc): smaller dimensions, called computations (reduce, sort,
// while, map bodies) with an earlier root or simpler operands, simpler
// attributes, default layouts. Each returns a candidate the reducer
// verifies and keeps only while the finding stays.
#ifndef KILN_FUZZ_ORACLE_REDUCE_STEPS_H_
#define KILN_FUZZ_ORACLE_REDUCE_STEPS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/module.h"
#include "compiler/ir/shape.h"

namespace kiln::fuzz {

// The distinct sizes > 1 of the static array dimensions in `module`,
// largest first.
std::vector<int64_t> DimensionSizes(const Module& module);

// `shape` with every static array dimension of size `from` made `to`
// (tuples: deep).
Shape ResizedShape(const Shape& shape, int64_t from, int64_t to);

// The leading corner of `literal` with `shape`'s sizes (each no larger
// than the literal's; tuples: element by element), or an error.
absl::StatusOr<Literal> CutLiteral(const Literal& literal, const Shape& shape);

// A copy of `module` with every static dimension of size `from` made `to`
// in every computation (instruction shapes, constants cut to their leading
// corner, the entry computation layout). It may not verify: attributes
// are left as they are, so the caller verifies.
absl::StatusOr<std::unique_ptr<Module>> WithDimensionSize(const Module& module,
                                                          int64_t from,
                                                          int64_t to);

// A copy of `module` whose computation `computation` (not the entry) has
// its instruction `index` as root, dead code removed. The instruction
// must have the root's shape.
absl::StatusOr<std::unique_ptr<Module>> WithCalleeRoot(
    const Module& module, const std::string& computation, size_t index);

// The attribute simplifications WithSimplerAttribute can try on
// `instruction`, each one step toward the default: a window dimension's
// stride, padding, dilations, reversal or size; a pad dimension's low,
// high or interior padding made 0; a slice dimension's stride made 1 or its
// start 0; promises (indices_are_sorted, unique_indices) and compare's
// type= dropped.
int64_t AttributeEditCount(const Instruction& instruction);

// A copy of `module` with edit `edit` (< AttributeEditCount) applied to
// instruction `index` of computation `computation`, and the shape of every
// later instruction of that computation inferred again from its operands,
// so that a smaller window or padding carries down to the root (the entry
// computation layout follows). An error when the shape of a called
// computation's root would change. The copy may not verify.
absl::StatusOr<std::unique_ptr<Module>> WithSimplerAttribute(
    const Module& module, const std::string& computation, size_t index,
    int64_t edit);

// A copy of `module` in which every shape has the default layout (the entry
// computation layout too), and, with `annotations`, no instruction keeps
// metadata, frontend attributes, sharding, backend config or statistics.
absl::StatusOr<std::unique_ptr<Module>> WithPlainForm(const Module& module,
                                                      bool annotations);

// A copy of `module` in which the users of instruction `index` of the
// called computation `computation` read `replacement` instead: the index
// of a parameter of that computation with the same shape, or -1 for a
// constant zero of its shape; dead code removed.
absl::StatusOr<std::unique_ptr<Module>> WithCalleeOperand(
    const Module& module, const std::string& computation, size_t index,
    int64_t replacement);

// `text` (the short-parsable form, one instruction a line) without the
// `count` parameters numbered from `first` of the computation whose block
// opens with the line `header` ("body {", "ENTRY e {"); its later
// parameters are renumbered. The IR keeps a computation's parameters, so
// the reducer drops them through the text.
std::string WithoutParameterLines(const std::string& text,
                                  const std::string& header, int64_t first,
                                  int64_t count);

// A copy of `module` whose sort, instruction `index` of computation
// `computation`, no longer has operand `k`: its comparator (used by no
// other instruction) must not read that operand's two parameters, which
// go, and every user of the sort must be a get-tuple-element of another
// operand. With one operand left the sort gives an array, which its
// get-tuple-element users are replaced by.
absl::StatusOr<std::unique_ptr<Module>> WithoutSortOperand(
    const Module& module, const std::string& computation, size_t index,
    int64_t k);

}  // namespace kiln::fuzz

#endif  // KILN_FUZZ_ORACLE_REDUCE_STEPS_H_
