// MLIR spellings of Kiln's types and of the attribute values the StableHLO
// exporter writes (docs/stablehlo.md).
#ifndef KILN_COMPILER_STABLEHLO_TYPES_H_
#define KILN_COMPILER_STABLEHLO_TYPES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/shape.h"

namespace kiln::stablehlo {

// "f32", "i1" (pred), "ui4", "f8E4M3FN", "complex<f32>"; an error for the
// types StableHLO has no spelling of (s1, u1, opaque, tuple, token).
absl::StatusOr<std::string> ElementTypeString(ElementType type);

// "tensor<2x3xf32>", "tensor<?x3xf32, #stablehlo.bounds<4, ?>>",
// "!stablehlo.token", "tuple<tensor<f32>, tensor<i32>>".
absl::StatusOr<std::string> TypeString(const Shape& shape);

// The array and token leaves of `shape` in order (a non-tuple: itself).
std::vector<Shape> LeafShapes(const Shape& shape);

// "array<i64: 1, 2>" ("array<i64>" when empty).
std::string I64Array(absl::Span<const int64_t> values);
// "array<i1: true, false>".
std::string BoolArray(const std::vector<bool>& values);
// "[1, 2]".
std::string I64List(absl::Span<const int64_t> values);
// "dense<[[1, 2], [3, -1]]> : tensor<2x2xi64>": rows padded with `fill`
// to the longest row.
std::string DenseI64Matrix(const std::vector<std::vector<int64_t>>& rows,
                           int64_t fill = -1);
// "dense<[[lo, hi], ...]> : tensor<Nx2xi64>" for a window's padding.
std::string WindowPadding(const Window& window);
// "#stablehlo.channel_handle<handle = N, type = T>".
std::string ChannelHandle(int64_t handle, int64_t type);
// replica_groups attribute value (iota form expanded, uneven groups padded
// with -1, no groups as tensor<0x0xi64>).
std::string ReplicaGroupsAttr(const ReplicaGroups& groups);
// An MLIR f32 literal: "1.000000047e-03" (attributes such as epsilon are
// f32).
std::string FloatLiteral(double value);
// An MLIR string literal with escapes: "\"a\\22b\"".
std::string StringLiteral(absl::string_view text);

}  // namespace kiln::stablehlo

#endif  // KILN_COMPILER_STABLEHLO_TYPES_H_
