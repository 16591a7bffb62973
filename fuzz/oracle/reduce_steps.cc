#include "fuzz/oracle/reduce_steps.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <set>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/element_type.h"
#include "compiler/ir/instruction.h"
#include "compiler/pass/pass.h"
#include "fuzz/oracle/oracle.h"

namespace kiln::fuzz {
namespace {

void CollectSizes(const Shape& shape, std::set<int64_t>* sizes) {
  if (shape.IsTuple()) {
    for (const Shape& element : shape.tuple_shapes()) {
      CollectSizes(element, sizes);
    }
    return;
  }
  if (!shape.IsArray()) return;
  for (int64_t i = 0; i < shape.rank(); ++i) {
    if (!shape.is_dynamic_dimension(i) && shape.dimension(i) > 1) {
      sizes->insert(shape.dimension(i));
    }
  }
}

}  // namespace

std::vector<int64_t> DimensionSizes(const Module& module) {
  std::set<int64_t> sizes;
  for (const Computation* computation : module.computations()) {
    for (const Instruction* instruction : computation->instructions()) {
      CollectSizes(instruction->shape(), &sizes);
    }
  }
  return std::vector<int64_t>(sizes.rbegin(), sizes.rend());
}

Shape ResizedShape(const Shape& shape, int64_t from, int64_t to) {
  Shape resized = shape;
  if (shape.IsTuple()) {
    for (Shape& element : *resized.mutable_tuple_shapes()) {
      element = ResizedShape(element, from, to);
    }
    return resized;
  }
  if (!shape.IsArray()) return resized;
  for (int64_t i = 0; i < shape.rank(); ++i) {
    if (!shape.is_dynamic_dimension(i) && shape.dimension(i) == from) {
      resized.set_dimension(i, to);
    }
  }
  return resized;
}

absl::StatusOr<Literal> CutLiteral(const Literal& literal, const Shape& shape) {
  const Shape& old = literal.shape();
  if (old.IsTuple() != shape.IsTuple()) {
    return absl::InvalidArgumentError("tuple and array mixed");
  }
  if (old.IsTuple()) {
    if (old.tuple_size() != shape.tuple_size()) {
      return absl::InvalidArgumentError("tuple sizes differ");
    }
    std::vector<Literal> elements;
    for (int64_t i = 0; i < shape.tuple_size(); ++i) {
      absl::StatusOr<Literal> element =
          CutLiteral(literal.tuple_elements()[i], shape.tuple_shape(i));
      if (!element.ok()) return element.status();
      elements.push_back(*std::move(element));
    }
    return Literal::Tuple(std::move(elements));
  }
  if (!old.IsArray() || literal.has_dynamic_sizes() ||
      old.rank() != shape.rank() ||
      old.element_type() != shape.element_type()) {
    return absl::InvalidArgumentError("not a static array of that rank");
  }
  for (int64_t i = 0; i < shape.rank(); ++i) {
    if (shape.dimension(i) > old.dimension(i)) {
      return absl::InvalidArgumentError("larger than the literal");
    }
  }
  absl::StatusOr<Literal> cut = Literal::Create(shape);
  if (!cut.ok()) return cut.status();
  const int64_t bytes = GetElementTypeInfo(shape.element_type()).storage_bytes;
  const int64_t count = cut->element_count();
  if (count * bytes != static_cast<int64_t>(cut->data().size()) ||
      literal.element_count() * bytes !=
          static_cast<int64_t>(literal.data().size())) {
    return absl::InvalidArgumentError("packed storage");
  }
  std::vector<int64_t> index(shape.rank(), 0);
  for (int64_t i = 0; i < count; ++i) {
    const int64_t from = literal.LinearIndex(index);
    std::memcpy(cut->mutable_data().data() + i * bytes,
                literal.data().data() + from * bytes, bytes);
    for (int64_t d = shape.rank() - 1; d >= 0; --d) {
      if (++index[d] < shape.dimension(d)) break;
      index[d] = 0;
    }
  }
  return cut;
}

absl::StatusOr<std::unique_ptr<Module>> WithDimensionSize(const Module& module,
                                                          int64_t from,
                                                          int64_t to) {
  absl::StatusOr<std::unique_ptr<Module>> copy = CopyModule(module);
  if (!copy.ok()) return copy.status();
  for (Computation* computation : (*copy)->computations()) {
    for (Instruction* instruction : computation->instructions()) {
      Shape resized = ResizedShape(instruction->shape(), from, to);
      if (instruction->has_literal()) {
        absl::StatusOr<Literal> cut =
            CutLiteral(instruction->literal(), resized);
        if (!cut.ok()) return cut.status();
        instruction->set_literal(*std::move(cut));
      }
      *instruction->mutable_shape() = std::move(resized);
    }
  }
  if (auto& layout = (*copy)->config().entry_computation_layout) {
    for (Shape& parameter : layout->parameters) {
      parameter = ResizedShape(parameter, from, to);
    }
    layout->result = ResizedShape(layout->result, from, to);
  }
  return copy;
}

absl::StatusOr<std::unique_ptr<Module>> WithCalleeRoot(
    const Module& module, const std::string& computation, size_t index) {
  absl::StatusOr<std::unique_ptr<Module>> copy = CopyModule(module);
  if (!copy.ok()) return copy.status();
  Computation* callee = (*copy)->FindComputation(computation);
  if (callee == nullptr || callee == (*copy)->entry() ||
      index >= callee->instructions().size()) {
    return absl::NotFoundError(absl::StrCat("no ", computation));
  }
  Instruction* root = callee->instructions()[index];
  if (root == callee->root() ||
      !root->shape().Compatible(callee->root()->shape())) {
    return absl::InvalidArgumentError("not a root of that shape");
  }
  callee->set_root(root);
  if (std::unique_ptr<Pass> dce = PassRegistry::Global().Create("dce")) {
    (void)dce->Run(**copy);
  }
  return copy;
}

}  // namespace kiln::fuzz
