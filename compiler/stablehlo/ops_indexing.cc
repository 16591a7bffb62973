// Gather, scatter and the dynamic slices, with their dimension numbers.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/ir/attr_names.h"
#include "compiler/stablehlo/ops.h"
#include "compiler/stablehlo/types.h"

namespace kiln::stablehlo {
namespace {

// "name = [..]" for a list attribute, or nothing when absent or empty
// (StableHLO's printer omits empty lists too).
void AddList(const Instruction& i, absl::string_view hlo_name,
             absl::string_view mlir_name, std::vector<std::string>* parts) {
  const Int64List* list = i.attrs().Get<Int64List>(hlo_name);
  if (list == nullptr || list->empty()) return;
  parts->push_back(absl::StrCat(mlir_name, " = ", I64List(*list)));
}

std::string Flag(const Instruction& i, absl::string_view hlo_name,
                 absl::string_view mlir_name) {
  const bool* value = i.attrs().Get<bool>(hlo_name);
  return absl::StrCat(mlir_name, " = ", value && *value ? "true" : "false");
}

absl::StatusOr<Value> EmitGather(FunctionEmitter& e, const Instruction& i) {
  const int64_t* index_vector_dim =
      i.attrs().Get<int64_t>(attr::kIndexVectorDim);
  const Int64List* slice_sizes = i.attrs().Get<Int64List>(attr::kSliceSizes);
  if (index_vector_dim == nullptr || slice_sizes == nullptr) {
    return NoForm("gather without index_vector_dim or slice_sizes");
  }
  std::vector<std::string> parts;
  AddList(i, attr::kOffsetDims, "offset_dims", &parts);
  AddList(i, attr::kCollapsedSliceDims, "collapsed_slice_dims", &parts);
  AddList(i, attr::kOperandBatchingDims, "operand_batching_dims", &parts);
  AddList(i, attr::kStartIndicesBatchingDims, "start_indices_batching_dims",
          &parts);
  AddList(i, attr::kStartIndexMap, "start_index_map", &parts);
  parts.push_back(absl::StrCat("index_vector_dim = ", *index_vector_dim));
  return EmitSimple(
      e, i, "stablehlo.gather",
      absl::StrCat("dimension_numbers = #stablehlo.gather<",
                   absl::StrJoin(parts, ", "),
                   ">, slice_sizes = ", I64Array(*slice_sizes), ", ",
                   Flag(i, attr::kIndicesAreSorted, "indices_are_sorted")));
}

absl::StatusOr<Value> EmitScatter(FunctionEmitter& e, const Instruction& i) {
  const int64_t* index_vector_dim =
      i.attrs().Get<int64_t>(attr::kIndexVectorDim);
  Computation* const* update = i.attrs().Get<Computation*>(attr::kToApply);
  if (index_vector_dim == nullptr || update == nullptr) {
    return NoForm("scatter without index_vector_dim or to_apply");
  }
  std::vector<std::string> parts;
  AddList(i, attr::kUpdateWindowDims, "update_window_dims", &parts);
  AddList(i, attr::kInsertedWindowDims, "inserted_window_dims", &parts);
  AddList(i, attr::kInputBatchingDims, "input_batching_dims", &parts);
  AddList(i, attr::kScatterIndicesBatchingDims, "scatter_indices_batching_dims",
          &parts);
  AddList(i, attr::kScatterDimsToOperandDims, "scatter_dims_to_operand_dims",
          &parts);
  parts.push_back(absl::StrCat("index_vector_dim = ", *index_vector_dim));
  absl::StatusOr<std::string> region = e.Region(**update);
  if (!region.ok()) return region.status();
  return EmitSimple(
      e, i, "stablehlo.scatter",
      absl::StrCat("scatter_dimension_numbers = #stablehlo.scatter<",
                   absl::StrJoin(parts, ", "), ">, ",
                   Flag(i, attr::kIndicesAreSorted, "indices_are_sorted"), ", ",
                   Flag(i, attr::kUniqueIndices, "unique_indices")),
      {*std::move(region)});
}

absl::StatusOr<Value> EmitDynamicSlice(FunctionEmitter& e,
                                       const Instruction& i) {
  const Int64List* sizes = i.attrs().Get<Int64List>(attr::kDynamicSliceSizes);
  if (sizes == nullptr) return NoForm("dynamic-slice without sizes");
  if (i.operand_count() == 2 && !i.operand(1)->shape().IsScalar()) {
    return NoForm(
        "dynamic-slice with a vector of start indices (XLA's old "
        "form); StableHLO takes one scalar per dimension");
  }
  return EmitSimple(e, i, "stablehlo.dynamic_slice",
                    absl::StrCat("slice_sizes = ", I64Array(*sizes)));
}

absl::StatusOr<Value> EmitDynamicUpdateSlice(FunctionEmitter& e,
                                             const Instruction& i) {
  if (i.operand_count() == 3 && !i.operand(2)->shape().IsScalar()) {
    return NoForm(
        "dynamic-update-slice with a vector of start indices "
        "(XLA's old form); StableHLO takes one scalar per "
        "dimension");
  }
  return EmitSimple(e, i, "stablehlo.dynamic_update_slice");
}

}  // namespace

void AddIndexingHandlers(HandlerTable* table) {
  (*table)[Opcode::kGather] = &EmitGather;
  (*table)[Opcode::kScatter] = &EmitScatter;
  (*table)[Opcode::kDynamicSlice] = &EmitDynamicSlice;
  (*table)[Opcode::kDynamicUpdateSlice] = &EmitDynamicUpdateSlice;
}

}  // namespace kiln::stablehlo
