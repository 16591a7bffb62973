// The builder: a C++ API in the style of XLA's XlaBuilder for writing HLO
// modules without text. Each op is a free function in its family header
// (elementwise.h, data_movement.h, ...) that calls XlaBuilder::AddInstruction;
// the builder infers the result shape with the spec's shape rules
// (compiler/ops/shape_inference.h) at every step, in client form, so the
// implicit broadcasting of broadcasting.md is allowed and kept as written.
//
// Errors are deferred, as in XlaBuilder: the first failing op records its
// error (naming the op and the rule it broke), every later op returns an
// invalid XlaOp, and Build() returns that first error.
//
//   XlaBuilder b("axpy");
//   XlaOp a = Parameter(&b, 0, Shape::Scalar(ElementType::kF32), "a");
//   XlaOp x = Parameter(&b, 1, Shape::Array(ElementType::kF32, {8}), "x");
//   XlaOp y = Parameter(&b, 2, Shape::Array(ElementType::kF32, {8}), "y");
//   Add(Mul(a, x), y);
//   absl::StatusOr<XlaComputation> axpy = b.Build();
#ifndef KILN_COMPILER_BUILDER_BUILDER_H_
#define KILN_COMPILER_BUILDER_BUILDER_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/module.h"
#include "compiler/ir/opcode.h"
#include "compiler/ir/shape.h"

namespace kiln {

class XlaBuilder;

// A value produced by an op of a builder. Cheap to copy. An XlaOp returned
// after the builder has recorded an error is invalid (valid() == false);
// passing it to further ops is harmless.
class XlaOp {
 public:
  XlaOp() = default;
  bool valid() const { return instruction_ != nullptr; }
  XlaBuilder* builder() const { return builder_; }
  // The instruction behind the op (null when invalid). For tests and for
  // code that inspects what was built.
  const Instruction* instruction() const { return instruction_; }

 private:
  friend class XlaBuilder;
  XlaOp(XlaBuilder* builder, Instruction* instruction)
      : builder_(builder), instruction_(instruction) {}
  XlaBuilder* builder_ = nullptr;
  Instruction* instruction_ = nullptr;
};

// A finished computation: a module whose entry computation is the one that
// was built, holding every computation it calls. Passing it to an op of
// another builder (Reduce, Map, While, ...) copies it into that builder.
class XlaComputation {
 public:
  explicit XlaComputation(std::unique_ptr<Module> module);
  XlaComputation(XlaComputation&&) = default;
  XlaComputation& operator=(XlaComputation&&) = default;

  const Module& module() const { return *module_; }
  const Computation& computation() const { return *module_->entry(); }
  std::vector<Shape> parameter_shapes() const;
  const Shape& result_shape() const;
  // Ownership of the module, e.g. to print it or run passes on it.
  std::unique_ptr<Module> TakeModule() { return std::move(module_); }
  // Unique per built computation in the process (moves keep it): builders
  // import each computation once, keyed by this rather than by address,
  // which a temporary's successor may reuse.
  uint64_t id() const { return id_; }

 private:
  std::unique_ptr<Module> module_;
  uint64_t id_;
};

class XlaBuilder {
 public:
  explicit XlaBuilder(std::string name);
  XlaBuilder(const XlaBuilder&) = delete;
  XlaBuilder& operator=(const XlaBuilder&) = delete;

  const std::string& name() const { return name_; }

  // A builder for a called computation (a reduction's combiner, a while
  // body, ...). Its name is made unique among this builder's children; it
  // is independent otherwise: Build() it, then pass the XlaComputation to
  // the op that calls it.
  std::unique_ptr<XlaBuilder> CreateSubBuilder(absl::string_view name);

  // The first error recorded, or OK.
  absl::Status first_error() const { return first_error_; }
  bool ok() const { return first_error_.ok(); }

  // The shape of `op`, or the first error / an error for a foreign op.
  absl::StatusOr<Shape> GetShape(XlaOp op) const;

  // Finishes the computation with `root` (default: the last op added) as
  // its ROOT. Fails with the first recorded error, or when parameters are
  // not numbered 0..n-1. The builder must not be used afterwards.
  absl::StatusOr<XlaComputation> Build();
  absl::StatusOr<XlaComputation> Build(XlaOp root);

  // --- For the op functions of the family headers ---

  // Adds `opcode` with `operands` and `attrs`, inferring its shape. When
  // `declared` is set (ops whose result the caller chooses: convert's
  // type, reshape's dims, iota, custom-call, ...) the instruction gets that
  // shape and the op's rule checks it; it is an error if the rule infers a
  // different one. Returns an invalid XlaOp, recording the error, when an
  // operand is invalid or foreign or the rule fails.
  XlaOp AddInstruction(Opcode opcode, absl::Span<const XlaOp> operands,
                       AttributeMap attrs,
                       std::optional<Shape> declared = std::nullopt);

  // Adds a parameter; numbers must be unique (checked here) and dense
  // (checked by Build()).
  XlaOp AddParameter(int64_t number, const Shape& shape,
                     absl::string_view name);

  // Adds a constant holding `literal`.
  XlaOp AddConstant(Literal literal);

  // Copies `computation` (and its callees) into this builder's module and
  // returns the copy, for a computation-valued attribute. Copies of the
  // same XlaComputation are made once.
  absl::StatusOr<Computation*> ImportComputation(
      const XlaComputation& computation);
  // ImportComputation for op functions: the copy, or null with the error
  // recorded (as every op records its first error).
  Computation* Import(const XlaComputation& computation);

  // Sets the verbatim backend_config of an op of this builder (the text
  // after "backend_config=", quotes or braces included).
  absl::Status SetBackendConfig(XlaOp op, RawText config);

  // Records `status` as the error if none is recorded yet; returns an
  // invalid op, so op functions can `return builder->ReportError(...)`.
  XlaOp ReportError(absl::Status status);

  // OK when every op is valid and belongs to this builder; otherwise
  // records and returns the error. `what` names the op being built.
  absl::Status CheckOperands(absl::Span<const XlaOp> operands,
                             absl::string_view what);

  // The builder that owns `operands` (the first valid one's), or null.
  static XlaBuilder* BuilderOf(absl::Span<const XlaOp> operands);

 private:
  XlaOp Finish(std::unique_ptr<Instruction> instruction);
  // "add", "add.1", ...: unique within this builder's computation.
  std::string FreshName(const std::string& base);

  std::string name_;
  std::unique_ptr<Module> module_;
  std::unique_ptr<Computation> computation_;
  Instruction* last_ = nullptr;
  absl::Status first_error_;
  int64_t sub_builder_count_ = 0;
  std::vector<std::pair<uint64_t, Computation*>> imported_;
  absl::flat_hash_map<std::string, int64_t> name_counts_;
};

// parameter(number) of `shape`; `name` becomes the instruction's name.
XlaOp Parameter(XlaBuilder* builder, int64_t number, const Shape& shape,
                absl::string_view name = "");

// constant(literal).
XlaOp ConstantLiteral(XlaBuilder* builder, Literal literal);

}  // namespace kiln

#endif  // KILN_COMPILER_BUILDER_BUILDER_H_
