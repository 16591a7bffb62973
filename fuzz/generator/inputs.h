// Argument and constant values for generated modules, drawn per element
// type with the edge values every backend must get right: NaN, +-inf, -0,
// subnormals, the largest finite values, the minimum and maximum integers,
// and shift counts at and past the bit width.
#ifndef KILN_FUZZ_GENERATOR_INPUTS_H_
#define KILN_FUZZ_GENERATOR_INPUTS_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/shape.h"
#include "fuzz/generator/decisions.h"

namespace kiln::fuzzgen {

// A value of `shape` (tuples recursively, tokens empty): each element is
// an edge value with `edge_percent` % odds, else an ordinary one (small
// integers, floats in [-4, 4], or random bits 1 time in 8).
absl::StatusOr<Literal> RandomValue(const Shape& shape, DecisionSource& source,
                                    int edge_percent = 25);

// The edge values of array type `type` as bit patterns (the order is
// fixed): what RandomValue draws from. Exposed for tests.
std::vector<uint64_t> EdgeBits(ElementType type);

// One argument per entry parameter of each of `devices` devices, device 0
// first.
absl::StatusOr<std::vector<std::vector<Literal>>> RandomArguments(
    const std::vector<Shape>& parameters, int64_t devices,
    DecisionSource& source, int edge_percent = 25);

}  // namespace kiln::fuzzgen

#endif  // KILN_FUZZ_GENERATOR_INPUTS_H_
