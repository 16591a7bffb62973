#include "fuzz/oracle/reduce_steps.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <set>
#include <utility>
#include <variant>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/element_type.h"
#include "compiler/ir/instruction.h"
#include "compiler/ops/shape_inference.h"
#include "compiler/pass/pass.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "fuzz/oracle/oracle.h"
#include "re2/re2.h"

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

namespace {

// One attribute edit: changes the instruction's attributes in place.
using AttributeEdit = std::function<void(AttributeMap&)>;

// An edit of dimension `d` of the Window or PaddingConfig or SliceRanges
// attribute `name`.
template <typename Attribute, typename Element>
AttributeEdit EditElement(std::string name, size_t d,
                          std::function<void(Element&)> change,
                          std::vector<Element> Attribute::*elements) {
  return [name = std::move(name), d, change = std::move(change),
          elements](AttributeMap& attrs) {
    AttrValue* value = attrs.Find(name);
    if (value == nullptr) return;
    Attribute* attribute = std::get_if<Attribute>(value);
    if (attribute == nullptr || d >= (attribute->*elements).size()) return;
    change((attribute->*elements)[d]);
  };
}

void AddWindowEdits(const std::string& name, const Window& window,
                    std::vector<AttributeEdit>& edits) {
  for (size_t d = 0; d < window.dimensions.size(); ++d) {
    const WindowDimension& w = window.dimensions[d];
    auto add = [&](bool applies, std::function<void(WindowDimension&)> f) {
      if (applies) {
        edits.push_back(EditElement<Window, WindowDimension>(
            name, d, std::move(f), &Window::dimensions));
      }
    };
    add(w.stride != 1, [](WindowDimension& x) { x.stride = 1; });
    add(w.padding_low != 0 || w.padding_high != 0, [](WindowDimension& x) {
      x.padding_low = 0;
      x.padding_high = 0;
    });
    add(w.window_dilation != 1,
        [](WindowDimension& x) { x.window_dilation = 1; });
    add(w.base_dilation != 1, [](WindowDimension& x) { x.base_dilation = 1; });
    add(w.window_reversal,
        [](WindowDimension& x) { x.window_reversal = false; });
    add(w.size != 1, [](WindowDimension& x) { x.size = 1; });
  }
}

void AddPaddingEdits(const std::string& name, const PaddingConfig& padding,
                     std::vector<AttributeEdit>& edits) {
  for (size_t d = 0; d < padding.dimensions.size(); ++d) {
    const PaddingDimension& p = padding.dimensions[d];
    auto add = [&](bool applies, std::function<void(PaddingDimension&)> f) {
      if (applies) {
        edits.push_back(EditElement<PaddingConfig, PaddingDimension>(
            name, d, std::move(f), &PaddingConfig::dimensions));
      }
    };
    add(p.low != 0, [](PaddingDimension& x) { x.low = 0; });
    add(p.high != 0, [](PaddingDimension& x) { x.high = 0; });
    add(p.interior != 0, [](PaddingDimension& x) { x.interior = 0; });
  }
}

void AddSliceEdits(const std::string& name, const SliceRanges& slice,
                   std::vector<AttributeEdit>& edits) {
  for (size_t d = 0; d < slice.ranges.size(); ++d) {
    const SliceRange& r = slice.ranges[d];
    auto add = [&](bool applies, std::function<void(SliceRange&)> f) {
      if (applies) {
        edits.push_back(EditElement<SliceRanges, SliceRange>(
            name, d, std::move(f), &SliceRanges::ranges));
      }
    };
    add(r.stride != 1, [](SliceRange& x) { x.stride = 1; });
    add(r.start != 0, [](SliceRange& x) {
      x.limit -= x.start;
      x.start = 0;
    });
  }
}

std::vector<AttributeEdit> AttributeEdits(const Instruction& instruction) {
  std::vector<AttributeEdit> edits;
  for (const auto& [name, value] : instruction.attrs().entries()) {
    if (const Window* window = std::get_if<Window>(&value)) {
      AddWindowEdits(name, *window, edits);
    } else if (const auto* padding = std::get_if<PaddingConfig>(&value)) {
      AddPaddingEdits(name, *padding, edits);
    } else if (const auto* slice = std::get_if<SliceRanges>(&value)) {
      AddSliceEdits(name, *slice, edits);
    } else if (name == attr::kIndicesAreSorted ||
               name == attr::kUniqueIndices ||
               (name == attr::kType &&
                instruction.opcode() == Opcode::kCompare)) {
      std::string erased = name;
      edits.push_back([erased](AttributeMap& attrs) { attrs.Erase(erased); });
    }
  }
  return edits;
}

// Infers the shape of every instruction of `computation` from `from` on
// again (a layout is kept where the dimensions stay); the root of a called
// computation must keep its shape.
absl::Status InferShapesFrom(Module& module, Computation& computation,
                             const Instruction* from) {
  bool started = false;
  for (Instruction* instruction : computation.instructions()) {
    started = started || instruction == from;
    if (!started || instruction->opcode() == Opcode::kParameter ||
        instruction->opcode() == Opcode::kConstant) {
      continue;
    }
    absl::StatusOr<Shape> inferred = InferShape(*instruction);
    if (!inferred.ok()) return inferred.status();
    if (inferred->Compatible(instruction->shape())) continue;
    if (instruction == computation.root() && &computation != module.entry()) {
      return absl::FailedPreconditionError(
          "the root of a called computation would change its shape");
    }
    inferred->SetDefaultLayoutIfMissing();
    instruction->set_shape(*std::move(inferred));
  }
  if (auto& layout = module.config().entry_computation_layout) {
    layout->result = module.entry()->root()->shape();
  }
  return absl::OkStatus();
}

void ClearLayouts(Shape& shape) {
  shape.clear_layout();
  shape.SetDefaultLayoutIfMissing();
}

}  // namespace

int64_t AttributeEditCount(const Instruction& instruction) {
  return static_cast<int64_t>(AttributeEdits(instruction).size());
}

absl::StatusOr<std::unique_ptr<Module>> WithSimplerAttribute(
    const Module& module, const std::string& computation, size_t index,
    int64_t edit) {
  absl::StatusOr<std::unique_ptr<Module>> copy = CopyModule(module);
  if (!copy.ok()) return copy.status();
  Computation* target = (*copy)->FindComputation(computation);
  if (target == nullptr || index >= target->instructions().size()) {
    return absl::NotFoundError(absl::StrCat("no ", computation));
  }
  Instruction* instruction = target->instructions()[index];
  std::vector<AttributeEdit> edits = AttributeEdits(*instruction);
  if (edit < 0 || edit >= static_cast<int64_t>(edits.size())) {
    return absl::NotFoundError("no such attribute edit");
  }
  edits[edit](*instruction->mutable_attrs());
  absl::Status inferred = InferShapesFrom(**copy, *target, instruction);
  if (!inferred.ok()) return inferred;
  return copy;
}

absl::StatusOr<std::unique_ptr<Module>> WithPlainForm(const Module& module,
                                                      bool annotations) {
  absl::StatusOr<std::unique_ptr<Module>> copy = CopyModule(module);
  if (!copy.ok()) return copy.status();
  for (Computation* computation : (*copy)->computations()) {
    for (Instruction* instruction : computation->instructions()) {
      ClearLayouts(*instruction->mutable_shape());
      if (annotations) {
        instruction->metadata.reset();
        instruction->sharding.reset();
        instruction->backend_config.reset();
        instruction->statistics_viz.reset();
        instruction->origin.reset();
        instruction->frontend_attributes.clear();
      }
    }
  }
  if (auto& layout = (*copy)->config().entry_computation_layout) {
    for (Shape& parameter : layout->parameters) ClearLayouts(parameter);
    ClearLayouts(layout->result);
  }
  return copy;
}

absl::StatusOr<std::unique_ptr<Module>> WithCalleeOperand(
    const Module& module, const std::string& computation, size_t index,
    int64_t replacement) {
  absl::StatusOr<std::unique_ptr<Module>> copy = CopyModule(module);
  if (!copy.ok()) return copy.status();
  Computation* callee = (*copy)->FindComputation(computation);
  const std::vector<Instruction*> order =
      callee != nullptr ? callee->instructions() : std::vector<Instruction*>();
  if (callee == nullptr || callee == (*copy)->entry() ||
      index >= order.size() ||
      replacement >= static_cast<int64_t>(order.size())) {
    return absl::NotFoundError(absl::StrCat("no ", computation));
  }
  Instruction* old = order[index];
  if (!old->shape().IsArray() || old->opcode() == Opcode::kParameter) {
    return absl::InvalidArgumentError("not an array value to replace");
  }
  Instruction* with = nullptr;
  if (replacement >= 0) {
    with = order[replacement];
    if (with == old || with->opcode() != Opcode::kParameter ||
        !with->shape().Compatible(old->shape())) {
      return absl::InvalidArgumentError("not a parameter of that shape");
    }
  } else {
    absl::StatusOr<Literal> zero = Literal::Create(old->shape());
    if (!zero.ok()) return zero.status();
    auto constant = std::make_unique<Instruction>(
        Opcode::kConstant, old->shape(), absl::StrCat(old->name(), ".zero"));
    constant->set_literal(*std::move(zero));
    with = callee->AddInstructionBefore(std::move(constant), old);
  }
  absl::Status replaced = old->ReplaceAllUsesWith(with);
  if (!replaced.ok()) return replaced;
  if (callee->root() == old) callee->set_root(with);
  if (std::unique_ptr<Pass> dce = PassRegistry::Global().Create("dce")) {
    (void)dce->Run(**copy);
  }
  return copy;
}

namespace {

// How many instructions of `module` call `callee`.
int64_t CallersOf(const Module& module, const Computation* callee) {
  int64_t callers = 0;
  for (const Computation* computation : module.computations()) {
    for (const Instruction* instruction : computation->instructions()) {
      for (const auto& entry : instruction->attrs().entries()) {
        const auto* called = std::get_if<Computation*>(&entry.second);
        callers += called != nullptr && *called == callee ? 1 : 0;
      }
    }
  }
  return callers;
}

}  // namespace

absl::StatusOr<std::unique_ptr<Module>> WithoutSortOperand(
    const Module& module, const std::string& computation, size_t index,
    int64_t k) {
  absl::StatusOr<std::unique_ptr<Module>> copy = CopyModule(module);
  if (!copy.ok()) return copy.status();
  Computation* where = (*copy)->FindComputation(computation);
  if (where == nullptr || index >= where->instructions().size()) {
    return absl::NotFoundError(absl::StrCat("no ", computation));
  }
  Instruction* sort = where->instructions()[index];
  const int64_t n = sort->operand_count();
  Computation* const* to_apply =
      sort->attrs().Get<Computation*>(attr::kToApply);
  // Kept by value: the sort and its attributes go below.
  Computation* const comparator = to_apply != nullptr ? *to_apply : nullptr;
  if (sort->opcode() != Opcode::kSort || n < 2 || k < 0 || k >= n ||
      comparator == nullptr || sort == where->root() ||
      CallersOf(**copy, comparator) != 1 ||
      comparator->parameters().size() != static_cast<size_t>(2 * n) ||
      comparator->parameter(2 * k)->user_count() > 0 ||
      comparator->parameter(2 * k + 1)->user_count() > 0) {
    return absl::InvalidArgumentError("not a sort operand that can go");
  }
  const std::vector<Instruction*> users = sort->users();
  for (const Instruction* user : users) {
    const int64_t* element = user->attrs().Get<int64_t>(attr::kIndex);
    if (user->opcode() != Opcode::kGetTupleElement || element == nullptr ||
        *element == k) {
      return absl::InvalidArgumentError("the operand's result is read");
    }
  }
  std::vector<Shape> kept;
  for (int64_t j = 0; j < n; ++j) {
    if (j != k) kept.push_back(sort->shape().tuple_shapes()[j]);
  }
  auto smaller = std::make_unique<Instruction>(
      Opcode::kSort, kept.size() == 1 ? kept[0] : Shape::Tuple(kept),
      sort->name());
  for (int64_t j = 0; j < n; ++j) {
    if (j != k) smaller->AppendOperand(sort->operand(j));
  }
  for (const auto& [name, value] : sort->attrs().entries()) {
    smaller->mutable_attrs()->Set(name, value);
  }
  Instruction* added = where->AddInstructionBefore(std::move(smaller), sort);
  for (Instruction* user : users) {
    const int64_t element = *user->attrs().Get<int64_t>(attr::kIndex);
    if (kept.size() == 1) {
      absl::Status replaced = user->ReplaceAllUsesWith(added);
      if (!replaced.ok()) return replaced;
      continue;
    }
    user->ReplaceOperandWith(0, added);
    user->mutable_attrs()->Set(attr::kIndex, element - (element > k ? 1 : 0));
  }
  if (std::unique_ptr<Pass> dce = PassRegistry::Global().Create("dce")) {
    (void)dce->Run(**copy);
  }
  return ParseModule(
      WithoutParameterLines(PrintModule(**copy, ShortParsablePrintOptions()),
                            absl::StrCat(comparator->name(), " {"), 2 * k, 2));
}

std::string WithoutParameterLines(const std::string& text,
                                  const std::string& header, int64_t first,
                                  int64_t count) {
  std::string result;
  bool inside = false;
  for (const std::string& line :
       std::vector<std::string>(absl::StrSplit(text, '\n'))) {
    if (line == header) inside = true;
    if (inside && line == "}") inside = false;
    std::string digits;
    int64_t number = -1;
    if (inside &&
        RE2::PartialMatch(line, " parameter\\(([0-9]+)\\)$", &digits) &&
        absl::SimpleAtoi(digits, &number) && number >= first) {
      if (number < first + count) continue;
      std::string renumbered = line;
      RE2::Replace(&renumbered, " parameter\\([0-9]+\\)$",
                   absl::StrCat(" parameter(", number - count, ")"));
      absl::StrAppend(&result, renumbered, "\n");
      continue;
    }
    absl::StrAppend(&result, line, "\n");
  }
  return result;
}

}  // namespace kiln::fuzz
