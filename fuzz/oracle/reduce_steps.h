// Candidate modules for the reducer's shape and callee steps (reduce.cc):
// smaller dimensions, and called computations (reduce, sort, while, map
// bodies) with an earlier root. Each returns a candidate the reducer
// verifies and keeps only while the finding stays.
#ifndef KILN_FUZZ_ORACLE_REDUCE_STEPS_H_
#define KILN_FUZZ_ORACLE_REDUCE_STEPS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
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

}  // namespace kiln::fuzz

#endif  // KILN_FUZZ_ORACLE_REDUCE_STEPS_H_
