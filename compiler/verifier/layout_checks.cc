// Layout checks beyond Shape::Validate (which checks minor_to_major is a
// permutation, tile sizes, split configs and the scalar fields): an
// explicit element size must hold a whole element, and the entry
// computation layout must be a valid layout whose minor_to_major agrees
// with the entry's parameters and ROOT wherever both carry one.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/element_type.h"
#include "compiler/verifier/verifier_internal.h"

namespace kiln::verifier_internal {
namespace {

std::string IndexText(const std::vector<int64_t>& index) {
  return absl::StrCat("{", absl::StrJoin(index, ","), "}");
}

// The first array subshape (depth first) whose E(n) is too small for its
// element type, with its index; empty message when none.
std::string ElementSizeProblem(const Shape& shape,
                               std::vector<int64_t>* index) {
  if (shape.IsTuple()) {
    for (int64_t i = 0; i < shape.tuple_size(); ++i) {
      index->push_back(i);
      std::string problem = ElementSizeProblem(shape.tuple_shape(i), index);
      if (!problem.empty()) return problem;
      index->pop_back();
    }
    return "";
  }
  if (!shape.IsArray() || !shape.has_layout()) return "";
  const int64_t bits = shape.layout().element_size_in_bits;
  const int needed = BitWidth(shape.element_type());
  if (bits == 0 || bits >= needed) return "";
  return absl::StrCat("layout element size E(", bits, ") of ", shape.ToString(),
                      " at ", IndexText(*index), " cannot hold a ", needed,
                      "-bit ", ElementTypeName(shape.element_type()),
                      " element");
}

void CheckElementSizes(const Module& module, VerifyReport* report) {
  for (const Computation* computation : module.computations()) {
    for (const Instruction* instruction : computation->instructions()) {
      std::vector<int64_t> index;
      std::string problem = ElementSizeProblem(instruction->shape(), &index);
      if (problem.empty()) continue;
      report->errors.push_back(
          InstructionError(*instruction, problem, "layout.element_size"));
    }
  }
}

// Where `declared` (entry layout) and `actual` (instruction) are arrays that
// both carry a layout, their minor_to_major must be the same; tiles and memory
// spaces may differ (the entry layout describes the caller's buffers, and XLA
// leaves tiling and memory placement to the backend).
std::string MinorToMajorProblem(const Shape& declared, const Shape& actual,
                                std::vector<int64_t>* index) {
  if (declared.IsTuple() && actual.IsTuple() &&
      declared.tuple_size() == actual.tuple_size()) {
    for (int64_t i = 0; i < declared.tuple_size(); ++i) {
      index->push_back(i);
      std::string problem = MinorToMajorProblem(declared.tuple_shape(i),
                                                actual.tuple_shape(i), index);
      if (!problem.empty()) return problem;
      index->pop_back();
    }
    return "";
  }
  if (!declared.IsArray() || !actual.IsArray() || !declared.has_layout() ||
      !actual.has_layout()) {
    return "";
  }
  // An invalid instruction layout is shape.valid's to report.
  if (declared.layout().minor_to_major() == actual.layout().minor_to_major() ||
      !actual.Validate().ok()) {
    return "";
  }
  return absl::StrCat("at ", IndexText(*index), " is ", declared.ToString(),
                      " but the entry's is ", actual.ToString());
}

void CheckEntryLayoutShape(const Module& module, const Shape& layout_shape,
                           const Shape* entry_shape, const std::string& what,
                           VerifyReport* report) {
  constexpr absl::string_view kRule = "layout.entry";
  if (absl::Status valid = layout_shape.Validate(); !valid.ok()) {
    report->errors.push_back(MakeError(
        module.location(), module.name(),
        absl::StrCat("entry_computation_layout ", what, " ",
                     layout_shape.ToString(), " is invalid: ", valid.message()),
        kRule));
    return;
  }
  if (entry_shape == nullptr) return;
  std::vector<int64_t> index;
  std::string problem = MinorToMajorProblem(layout_shape, *entry_shape, &index);
  if (problem.empty()) return;
  report->errors.push_back(MakeError(
      module.location(), module.name(),
      absl::StrCat("entry_computation_layout ", what, " ", problem), kRule));
}

void CheckEntryLayout(const Module& module, VerifyReport* report) {
  const Computation* entry = module.entry();
  const auto& layout = module.config().entry_computation_layout;
  if (entry == nullptr || !layout.has_value()) return;
  for (size_t i = 0; i < layout->parameters.size(); ++i) {
    const Shape* parameter = i < entry->parameters().size()
                                 ? &entry->parameters()[i]->shape()
                                 : nullptr;
    CheckEntryLayoutShape(module, layout->parameters[i], parameter,
                          absl::StrCat("parameter ", i), report);
  }
  const Shape* root =
      entry->root() != nullptr ? &entry->root()->shape() : nullptr;
  CheckEntryLayoutShape(module, layout->result, root, "result", report);
}

}  // namespace

void CheckLayouts(const Module& module, VerifyReport* report) {
  CheckElementSizes(module, report);
  CheckEntryLayout(module, report);
}

}  // namespace kiln::verifier_internal
