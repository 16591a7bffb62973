// The generator's state while it builds one computation: the builder, the
// decision source, and the pool of values built so far, from which each
// new op draws its operands. Op families (elementwise.cc, ...) add ops
// through it; every helper keeps the module valid by construction.
#ifndef KILN_FUZZ_GENERATOR_CONTEXT_H_
#define KILN_FUZZ_GENERATOR_CONTEXT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/builder/builder.h"
#include "compiler/ir/element_type.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/shape.h"
#include "compiler/ops/element_type_classes.h"
#include "fuzz/generator/decisions.h"

namespace kiln::fuzzgen {

// Element-type classes, as bit masks: the shape rules' own
// (compiler/ops/element_type_classes.h), so what the generator draws for
// an op is what the op's rule accepts.
using ops_internal::ClassOf;
using ops_internal::kComplexClass;
using ops_internal::kFloatClass;
using ops_internal::kFloatOrComplex;
using ops_internal::kPredClass;
using ops_internal::kSignedClass;
using ops_internal::kUnsignedClass;
inline constexpr uint8_t kIntClasses = ops_internal::kIntegralClasses;
inline constexpr uint8_t kNumeric = ops_internal::kNumericClasses;
inline constexpr uint8_t kAnyClass = ops_internal::kAnyArrayClasses;
inline constexpr uint8_t kRealNumeric = kIntClasses | kFloatClass;

struct GeneratorOptions {
  // Op steps in the entry computation (each may add several instructions).
  int64_t max_ops = 5;
  int64_t max_rank = 3;
  int64_t max_dim = 4;
  // Nesting depth of called computations that themselves draw ops.
  int64_t max_depth = 2;
  // Odds that a module runs on several replicas (and may use collectives).
  int collective_percent = 20;
  // Op generators (by name) not to use.
  std::vector<std::string> banned;
  // Only these op generators (empty: all).
  std::vector<std::string> only;
};

class Context {
 public:
  Context(DecisionSource& source, const GeneratorOptions& options,
          XlaBuilder* builder, int64_t replicas, int64_t depth);

  DecisionSource& d() { return source_; }
  XlaBuilder* b() { return builder_; }
  const GeneratorOptions& options() const { return options_; }
  int64_t replicas() const { return replicas_; }
  int64_t depth() const { return depth_; }

  // A random array type of `classes` (any of its classes).
  ElementType Type(uint8_t classes);
  // Dimension sizes: rank in [min_rank, max_rank], sizes mostly 1..max_dim,
  // sometimes 0 (unless `non_empty`).
  std::vector<int64_t> Dims(int64_t min_rank, int64_t max_rank,
                            bool non_empty = false);
  int64_t Dim(bool non_empty = false);

  // A value of exactly this type and these dimensions: one from the pool,
  // else a new parameter or constant.
  XlaOp Value(ElementType type, const std::vector<int64_t>& dims);
  // Any array value of `classes` with rank in [min_rank, max_rank].
  XlaOp Any(uint8_t classes, int64_t min_rank = 0, int64_t max_rank = -1,
            bool non_empty = false);
  // A new parameter (non-default layout sometimes) or constant.
  XlaOp Leaf(ElementType type, const std::vector<int64_t>& dims);
  XlaOp NewParameter(const Shape& shape);
  // A constant array from RandomValue; a quarter of them splatted.
  XlaOp Constant(ElementType type, const std::vector<int64_t>& dims);
  // A constant holding one value everywhere: 0 two times in five, 1 or -1
  // one time in five each, else a random (often edge) value.
  XlaOp SplatConstant(ElementType type, const std::vector<int64_t>& dims);
  // A scalar constant holding `value` converted to `type`.
  XlaOp ScalarConstant(ElementType type, double value);
  // A scalar integer (s32, s64 or u32) for an index operand: a constant in
  // [lo, hi], sometimes a parameter (any value: the ops clamp).
  XlaOp IndexScalar(int64_t lo, int64_t hi);

  // The shape of `op` (the builder's error, if any, is the caller's).
  Shape ShapeOf(XlaOp op) const;
  std::vector<int64_t> DimsOf(XlaOp op) const {
    return ShapeOf(op).dimensions();
  }
  ElementType TypeOf(XlaOp op) const { return ShapeOf(op).element_type(); }

  // Adds an op's array result to the pool (tuples and tokens are not).
  void Add(XlaOp op);
  const std::vector<XlaOp>& pool() const { return pool_; }
  // Results of ops added with Add, for the root.
  const std::vector<XlaOp>& results() const { return results_; }

  // Called computations.
  // An associative, commutative (T, T) -> T combiner for `type`: add,
  // multiply, max, min (and/or/xor on integers and pred); `order_free`
  // restricts floats to max/min (exact whatever the order).
  XlaComputation Combiner(ElementType type, bool order_free = false);
  // A (T, T) -> T computation with a random body of one to three
  // elementwise ops (for map, and loop and branch bodies).
  XlaComputation ScalarBody(ElementType type, int64_t arity) {
    return Body(type, {}, arity);
  }
  // The same over arrays of `dims` (for call, loop and branch bodies).
  XlaComputation Body(ElementType type, const std::vector<int64_t>& dims,
                      int64_t arity);
  // A sort comparator over `types` (pairs of parameters), a strict weak
  // order on one operand: LT or GT, total order for floats.
  XlaComputation Comparator(const std::vector<ElementType>& types);
  // A random elementwise op of `a` (and `b`, same type) that keeps the
  // type; for bodies.
  XlaOp SameTypeOp(XlaOp a, XlaOp b);

 private:
  // Fills `value` with one value (SplatConstant).
  void Splat(Literal& value);

  DecisionSource& source_;
  const GeneratorOptions& options_;
  XlaBuilder* builder_;
  int64_t replicas_;
  int64_t depth_;
  int64_t next_parameter_ = 0;
  std::vector<XlaOp> pool_;
  std::vector<XlaOp> results_;
};

}  // namespace kiln::fuzzgen

#endif  // KILN_FUZZ_GENERATOR_CONTEXT_H_
