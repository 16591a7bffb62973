// A NumPy / TensorFlow-style convenience layer over the builder. XLA keeps
// broadcasting explicit (broadcasting.md, Principles) and leaves implicit,
// "magic" rules to client wrappers; this is such a wrapper.
//
// NumPy rules: shapes are aligned from their last dimension; the shorter
// one is treated as if padded with leading size-1 dimensions (rank
// promotion); a size-1 dimension stretches to the other side's size; any
// other pair of unequal sizes is an error naming both shapes and the
// dimension. [4,32,14,14] + [1,32,1,1] -> [4,32,14,14]; [3] + [4,1] ->
// [4,3]; [7,2,5] + [7,2,6] is an error.
//
// Lowering of the binary ops: one client-form elementwise instruction, as
// the user wrote it. Equal ranks rely on degenerate-dimension broadcasting
// (no attribute); a lower-rank array operand gets
// broadcast_dimensions={h-l, ..., h-1} (h, l: the two ranks), which maps it
// onto the trailing dimensions, i.e. aligns it from the last dimension
// (broadcasting.md, InDim broadcasting; its own size-1 dimensions still
// stretch). Scalars need no attribute. No copy is made: the HLO states the
// broadcast and a compiler may fuse it. The NumPy rule is checked first, so
// an incompatible pair is reported in NumPy's terms. Element types are not
// promoted: both operands must have one type, as the op's rule requires.
//
// BroadcastTo never copies data either (tf.broadcast_to): it is one
// `broadcast` instruction, preceded by a `reshape` that drops the size-1
// dimensions that stretch (an HLO broadcast maps equal sizes only).
// Tile, by contrast, repeats the data (tf.tile): XLA has no tile op, so it
// is lowered, as TensorFlow lowers it, to a broadcast into an interleaved
// shape [m0, d0, m1, d1, ...] followed by a reshape to [m0*d0, m1*d1, ...],
// whose result holds every copy.
#ifndef KILN_COMPILER_BUILDER_NUMPY_H_
#define KILN_COMPILER_BUILDER_NUMPY_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "compiler/builder/builder.h"

namespace kiln {
namespace numpy {

// The NumPy broadcast of dimension lists `a` and `b`, or an
// InvalidArgument error naming both shapes and the result dimension where
// they clash.
absl::StatusOr<std::vector<int64_t>> BroadcastShapes(
    absl::Span<const int64_t> a, absl::Span<const int64_t> b);

// x broadcast to `dims` (x's dimensions right-aligned, each equal or 1).
// Returns x itself when its dimensions already are `dims`.
XlaOp BroadcastTo(XlaOp x, absl::Span<const int64_t> dims);

// x repeated multiples[i] times along dimension i (one non-negative entry
// per dimension). Returns x itself when every multiple is 1.
XlaOp Tile(XlaOp x, absl::Span<const int64_t> multiples);

// Elementwise binary ops with NumPy broadcasting.
XlaOp Add(XlaOp lhs, XlaOp rhs);
XlaOp Sub(XlaOp lhs, XlaOp rhs);
XlaOp Mul(XlaOp lhs, XlaOp rhs);
XlaOp Div(XlaOp lhs, XlaOp rhs);
XlaOp Rem(XlaOp lhs, XlaOp rhs);
XlaOp Max(XlaOp lhs, XlaOp rhs);
XlaOp Min(XlaOp lhs, XlaOp rhs);
XlaOp Pow(XlaOp lhs, XlaOp rhs);
XlaOp Atan2(XlaOp lhs, XlaOp rhs);
XlaOp And(XlaOp lhs, XlaOp rhs);
XlaOp Or(XlaOp lhs, XlaOp rhs);
XlaOp Xor(XlaOp lhs, XlaOp rhs);

// Comparisons with NumPy broadcasting: compare(lhs, rhs), direction=...
XlaOp Eq(XlaOp lhs, XlaOp rhs);
XlaOp Ne(XlaOp lhs, XlaOp rhs);
XlaOp Lt(XlaOp lhs, XlaOp rhs);
XlaOp Le(XlaOp lhs, XlaOp rhs);
XlaOp Gt(XlaOp lhs, XlaOp rhs);
XlaOp Ge(XlaOp lhs, XlaOp rhs);

}  // namespace numpy
}  // namespace kiln

#endif  // KILN_COMPILER_BUILDER_NUMPY_H_
