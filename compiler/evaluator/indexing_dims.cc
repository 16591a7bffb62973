#include "compiler/evaluator/indexing_dims.h"

#include <string>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/evaluator/kernel.h"
#include "compiler/ir/attr_names.h"

namespace kiln {
namespace eval {
namespace {

std::vector<int64_t> ListOrEmpty(const Instruction& instruction,
                                 absl::string_view name) {
  const std::vector<int64_t>* list =
      instruction.attrs().Get<std::vector<int64_t>>(name);
  return list == nullptr ? std::vector<int64_t>() : *list;
}

absl::Status BadList(const Instruction& instruction, absl::string_view name,
                     const std::vector<int64_t>& list, absl::string_view why) {
  return KernelError(
      instruction,
      absl::StrCat(name, "={", absl::StrJoin(list, ","), "} ", why));
}

// Every entry in [0, bound), no repeats; `increasing` also asks for order.
absl::Status CheckList(const Instruction& instruction, absl::string_view name,
                       const std::vector<int64_t>& list, int64_t bound,
                       bool increasing) {
  std::vector<bool> seen(bound > 0 ? bound : 0, false);
  for (size_t i = 0; i < list.size(); ++i) {
    const int64_t d = list[i];
    if (d < 0 || d >= bound || seen[d]) {
      return BadList(
          instruction, name, list,
          absl::StrCat("needs distinct dimensions in [0, ", bound, ")"));
    }
    if (increasing && i > 0 && d < list[i - 1]) {
      return BadList(instruction, name, list, "must be increasing");
    }
    seen[d] = true;
  }
  return absl::OkStatus();
}

absl::Status CheckDisjoint(const Instruction& instruction,
                           absl::string_view a_name,
                           const std::vector<int64_t>& a,
                           absl::string_view b_name,
                           const std::vector<int64_t>& b) {
  for (int64_t d : a) {
    if (absl::c_linear_search(b, d)) {
      return KernelError(instruction,
                         absl::StrCat("dimension ", d, " is in both ", a_name,
                                      " and ", b_name));
    }
  }
  return absl::OkStatus();
}

// The checks on the operand side: window/collapsed/batching partition it.
absl::Status CheckOperandSide(const Instruction& instruction,
                              const IndexedDimNames& n, const IndexedDims& d,
                              int64_t rank, int64_t window_rank) {
  absl::Status ok =
      CheckList(instruction, n.window, d.window, window_rank, true);
  if (ok.ok())
    ok = CheckList(instruction, n.collapsed, d.collapsed, rank, true);
  if (ok.ok()) {
    ok = CheckList(instruction, n.operand_batching, d.operand_batching, rank,
                   true);
  }
  if (ok.ok()) {
    ok = CheckDisjoint(instruction, n.collapsed, d.collapsed,
                       n.operand_batching, d.operand_batching);
  }
  if (!ok.ok()) return ok;
  if (static_cast<int64_t>(d.window.size() + d.collapsed.size() +
                           d.operand_batching.size()) != rank) {
    return KernelError(
        instruction,
        absl::StrCat(n.window, ", ", n.collapsed, " and ", n.operand_batching,
                     " must together count the operand rank ", rank));
  }
  return absl::OkStatus();
}

// The checks on the indices side: the index vector and the batching dims.
absl::Status CheckIndicesSide(const Instruction& instruction,
                              const IndexedDimNames& n, const IndexedDims& d,
                              const Shape& operand, const Shape& indices) {
  const int64_t ivd = d.index_vector_dim;
  const int64_t vector_size =
      ivd == indices.rank() ? 1 : indices.dimension(ivd);
  if (static_cast<int64_t>(d.index_map.size()) != vector_size) {
    return BadList(instruction, n.index_map, d.index_map,
                   absl::StrCat("needs one entry per index vector element (",
                                vector_size, ")"));
  }
  absl::Status ok =
      CheckList(instruction, n.index_map, d.index_map, operand.rank(), false);
  if (ok.ok()) {
    ok = CheckDisjoint(instruction, n.index_map, d.index_map,
                       n.operand_batching, d.operand_batching);
  }
  if (ok.ok()) {
    ok = CheckList(instruction, n.index_batching, d.index_batching,
                   indices.rank(), false);
  }
  if (!ok.ok()) return ok;
  if (d.index_batching.size() != d.operand_batching.size() ||
      absl::c_linear_search(d.index_batching, ivd)) {
    return BadList(instruction, n.index_batching, d.index_batching,
                   absl::StrCat("must match ", n.operand_batching,
                                " in size and leave out index_vector_dim"));
  }
  for (size_t i = 0; i < d.index_batching.size(); ++i) {
    if (operand.dimension(d.operand_batching[i]) !=
        indices.dimension(d.index_batching[i])) {
      return KernelError(
          instruction,
          absl::StrCat("operand batching dimension ", d.operand_batching[i],
                       " and indices batching dimension ", d.index_batching[i],
                       " differ in size"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<IndexedDims> ReadIndexedDims(const Instruction& instruction,
                                            const IndexedDimNames& names,
                                            const Shape& operand,
                                            const Shape& indices,
                                            int64_t window_rank) {
  IndexedDims d;
  d.window = ListOrEmpty(instruction, names.window);
  d.collapsed = ListOrEmpty(instruction, names.collapsed);
  d.operand_batching = ListOrEmpty(instruction, names.operand_batching);
  d.index_batching = ListOrEmpty(instruction, names.index_batching);
  d.index_map = ListOrEmpty(instruction, names.index_map);
  const int64_t* ivd = instruction.attrs().Get<int64_t>(attr::kIndexVectorDim);
  if (!IsIntegralType(indices.element_type())) {
    return KernelError(instruction, "the indices must be integers");
  }
  if (ivd == nullptr || *ivd < 0 || *ivd > indices.rank()) {
    return KernelError(
        instruction,
        absl::StrCat("index_vector_dim must be in [0, ", indices.rank(), "]"));
  }
  d.index_vector_dim = *ivd;
  for (int64_t i = 0; i < indices.rank(); ++i) {
    if (i != *ivd) d.batch.push_back(i);
  }
  if (static_cast<int64_t>(d.window.size() + d.batch.size()) != window_rank) {
    return KernelError(
        instruction,
        absl::StrCat("rank ", window_rank, " must be ", names.window,
                     " size + the indices' ", "batch dimensions (",
                     d.window.size() + d.batch.size(), ")"));
  }
  absl::Status ok =
      CheckOperandSide(instruction, names, d, operand.rank(), window_rank);
  if (ok.ok()) ok = CheckIndicesSide(instruction, names, d, operand, indices);
  if (!ok.ok()) return ok;
  for (int64_t i = 0; i < operand.rank(); ++i) {
    if (!absl::c_linear_search(d.collapsed, i) &&
        !absl::c_linear_search(d.operand_batching, i)) {
      d.window_operand.push_back(i);
    }
  }
  if (*ivd < indices.rank()) {
    d.vector_stride = Strides(indices.dimensions())[*ivd];
  }
  return d;
}

std::vector<int64_t> NonWindowDims(const IndexedDims& dims,
                                   int64_t window_rank) {
  std::vector<int64_t> result;
  for (int64_t i = 0; i < window_rank; ++i) {
    if (!absl::c_linear_search(dims.window, i)) result.push_back(i);
  }
  return result;
}

}  // namespace eval
}  // namespace kiln
