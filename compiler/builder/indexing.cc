#include "compiler/builder/indexing.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/attributes.h"

namespace kiln {
namespace {

// Optional lists are left out when empty, as XLA does not print them.
void SetListIfNotEmpty(AttributeMap* attrs, absl::string_view name,
                       const std::vector<int64_t>& list) {
  if (!list.empty()) attrs->Set(name, list);
}

// The hints default to false and are printed only when true.
void SetFlagIfTrue(AttributeMap* attrs, absl::string_view name, bool flag) {
  if (flag) attrs->Set(name, true);
}

AttributeMap GatherAttrs(const GatherDimensionNumbers& dnums,
                         absl::Span<const int64_t> slice_sizes,
                         bool indices_are_sorted) {
  AttributeMap attrs;
  attrs.Set(attr::kOffsetDims, dnums.offset_dims);
  attrs.Set(attr::kCollapsedSliceDims, dnums.collapsed_slice_dims);
  attrs.Set(attr::kStartIndexMap, dnums.start_index_map);
  SetListIfNotEmpty(&attrs, attr::kOperandBatchingDims,
                    dnums.operand_batching_dims);
  SetListIfNotEmpty(&attrs, attr::kStartIndicesBatchingDims,
                    dnums.start_indices_batching_dims);
  attrs.Set(attr::kIndexVectorDim, dnums.index_vector_dim);
  attrs.Set(attr::kSliceSizes,
            std::vector<int64_t>(slice_sizes.begin(), slice_sizes.end()));
  SetFlagIfTrue(&attrs, attr::kIndicesAreSorted, indices_are_sorted);
  return attrs;
}

AttributeMap ScatterAttrs(const ScatterDimensionNumbers& dnums,
                          bool indices_are_sorted, bool unique_indices) {
  AttributeMap attrs;
  attrs.Set(attr::kUpdateWindowDims, dnums.update_window_dims);
  attrs.Set(attr::kInsertedWindowDims, dnums.inserted_window_dims);
  attrs.Set(attr::kScatterDimsToOperandDims,
            dnums.scatter_dims_to_operand_dims);
  SetListIfNotEmpty(&attrs, attr::kInputBatchingDims,
                    dnums.input_batching_dims);
  SetListIfNotEmpty(&attrs, attr::kScatterIndicesBatchingDims,
                    dnums.scatter_indices_batching_dims);
  attrs.Set(attr::kIndexVectorDim, dnums.index_vector_dim);
  SetFlagIfTrue(&attrs, attr::kIndicesAreSorted, indices_are_sorted);
  SetFlagIfTrue(&attrs, attr::kUniqueIndices, unique_indices);
  return attrs;
}

}  // namespace

XlaOp Gather(XlaOp operand, XlaOp start_indices,
             const GatherDimensionNumbers& dimension_numbers,
             absl::Span<const int64_t> slice_sizes, bool indices_are_sorted) {
  XlaBuilder* builder = XlaBuilder::BuilderOf({operand, start_indices});
  if (builder == nullptr) return XlaOp();
  return builder->AddInstruction(
      Opcode::kGather, {operand, start_indices},
      GatherAttrs(dimension_numbers, slice_sizes, indices_are_sorted));
}

XlaOp Scatter(absl::Span<const XlaOp> operands, XlaOp scatter_indices,
              absl::Span<const XlaOp> updates,
              const XlaComputation& update_computation,
              const ScatterDimensionNumbers& dimension_numbers,
              bool indices_are_sorted, bool unique_indices) {
  std::vector<XlaOp> all(operands.begin(), operands.end());
  all.push_back(scatter_indices);
  all.insert(all.end(), updates.begin(), updates.end());
  XlaBuilder* builder = XlaBuilder::BuilderOf(all);
  if (builder == nullptr) return XlaOp();
  // The operand list is read as N inputs, the indices, N updates; with
  // unequal counts it would be split at the wrong place.
  if (operands.empty() || operands.size() != updates.size()) {
    return builder->ReportError(absl::InvalidArgumentError(
        absl::StrCat("scatter: takes N >= 1 operands and as many updates, got ",
                     operands.size(), " operands and ", updates.size(),
                     " updates (operation_semantics.md, Scatter)")));
  }
  if (!builder->CheckOperands(all, "scatter").ok()) return XlaOp();
  Computation* to_apply = builder->Import(update_computation);
  if (to_apply == nullptr) return XlaOp();
  AttributeMap attrs =
      ScatterAttrs(dimension_numbers, indices_are_sorted, unique_indices);
  attrs.Set(attr::kToApply, to_apply);
  return builder->AddInstruction(Opcode::kScatter, all, std::move(attrs));
}

XlaOp Scatter(XlaOp operand, XlaOp scatter_indices, XlaOp updates,
              const XlaComputation& update_computation,
              const ScatterDimensionNumbers& dimension_numbers,
              bool indices_are_sorted, bool unique_indices) {
  return Scatter(absl::Span<const XlaOp>(&operand, 1), scatter_indices,
                 absl::Span<const XlaOp>(&updates, 1), update_computation,
                 dimension_numbers, indices_are_sorted, unique_indices);
}

}  // namespace kiln
