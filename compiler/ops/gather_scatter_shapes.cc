#include "compiler/ops/gather_scatter_shapes.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ops/computation_rules.h"
#include "compiler/ops/shape_rule_util.h"

namespace kiln {
namespace ops_internal {
namespace {

constexpr absl::string_view kGather = "operation_semantics.md, Gather";
constexpr absl::string_view kScatter = "operation_semantics.md, Scatter";

// Gather and scatter name the same roles differently; `names` holds one op's
// attribute names, `values` their contents.
struct IndexedDimNames {
  absl::string_view window;            // offset_dims / update_window_dims
  absl::string_view collapsed;         // collapsed_slice_dims / inserted_...
  absl::string_view operand_batching;  // operand_batching_dims / input_...
  absl::string_view index_batching;    // start_indices_batching_dims / ...
  absl::string_view index_map;         // start_index_map / scatter_dims_to_...
  absl::string_view section;
};

constexpr IndexedDimNames kGatherNames = {
    "offset_dims",           "collapsed_slice_dims",
    "operand_batching_dims", "start_indices_batching_dims",
    "start_index_map",       kGather};
constexpr IndexedDimNames kScatterNames = {
    "update_window_dims",           "inserted_window_dims",
    "input_batching_dims",          "scatter_indices_batching_dims",
    "scatter_dims_to_operand_dims", kScatter};

struct IndexedDims {
  std::vector<int64_t> window, collapsed, operand_batching, index_batching,
      index_map;
  int64_t index_vector_dim = 0;
};

std::vector<int64_t> ListOrEmpty(const Instruction& instruction,
                                 absl::string_view name) {
  const std::vector<int64_t>* list = Int64ListAttr(instruction, name);
  return list == nullptr ? std::vector<int64_t>() : *list;
}

absl::StatusOr<IndexedDims> ReadIndexedDims(const Instruction& instruction,
                                            const IndexedDimNames& names) {
  IndexedDims dims;
  dims.window = ListOrEmpty(instruction, names.window);
  dims.collapsed = ListOrEmpty(instruction, names.collapsed);
  dims.operand_batching = ListOrEmpty(instruction, names.operand_batching);
  dims.index_batching = ListOrEmpty(instruction, names.index_batching);
  dims.index_map = ListOrEmpty(instruction, names.index_map);
  absl::StatusOr<int64_t> ivd =
      RequiredInt64Attr(instruction, attr::kIndexVectorDim, names.section);
  if (!ivd.ok()) return ivd.status();
  dims.index_vector_dim = *ivd;
  return dims;
}

absl::Status Disjoint(const Instruction& instruction, absl::string_view a_name,
                      const std::vector<int64_t>& a, absl::string_view b_name,
                      const std::vector<int64_t>& b,
                      absl::string_view section) {
  for (int64_t d : a) {
    if (absl::c_linear_search(b, d)) {
      return RuleError(instruction,
                       absl::StrCat("dimension ", d, " is in both ", a_name,
                                    " and ", b_name),
                       section);
    }
  }
  return absl::OkStatus();
}

// The dims of `indices` other than index_vector_dim, in order.
std::vector<int64_t> IndexBatchDims(const Shape& indices, int64_t ivd) {
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < indices.rank(); ++d) {
    if (d != ivd) dims.push_back(d);
  }
  return dims;
}

// The rules gather and scatter share, given the operand rank, the indices
// shape and the rank of the gathered result / scattered updates.
absl::Status CheckIndexedDims(const Instruction& instruction,
                              const IndexedDimNames& n, const IndexedDims& d,
                              const Shape& operand, const Shape& indices,
                              int64_t window_rank) {
  const absl::string_view s = n.section;
  if (!IsIntegralType(indices.element_type())) {
    return RuleError(instruction,
                     absl::StrCat("indices are ", ShapeText(indices),
                                  ", expected an integer array"),
                     s);
  }
  const int64_t ivd = d.index_vector_dim;
  if (ivd < 0 || ivd > indices.rank()) {
    return RuleError(
        instruction,
        absl::StrCat("index_vector_dim=", ivd, " must be in [0, indices rank ",
                     indices.rank(), "]"),
        s);
  }
  const int64_t rank = operand.rank();
  absl::Status ok = CheckDimsStrictlyIncreasing(instruction, n.window, d.window,
                                                window_rank, s);
  if (ok.ok()) {
    ok = CheckDimsStrictlyIncreasing(instruction, n.collapsed, d.collapsed,
                                     rank, s);
  }
  if (ok.ok()) {
    ok = CheckDimsStrictlyIncreasing(instruction, n.operand_batching,
                                     d.operand_batching, rank, s);
  }
  if (ok.ok()) {
    ok = Disjoint(instruction, n.collapsed, d.collapsed, n.operand_batching,
                  d.operand_batching, s);
  }
  if (!ok.ok()) return ok;
  const int64_t parts =
      d.window.size() + d.collapsed.size() + d.operand_batching.size();
  if (parts != rank) {
    return RuleError(
        instruction,
        absl::StrCat("operand rank ", rank, " must equal the sizes of ",
                     n.window, " + ", n.collapsed, " + ", n.operand_batching,
                     " (", parts, ")"),
        s);
  }
  const int64_t vector_size =
      ivd == indices.rank() ? 1 : indices.dimension(ivd);
  if (static_cast<int64_t>(d.index_map.size()) != vector_size) {
    return RuleError(instruction,
                     absl::StrCat(n.index_map, "=", DimsToString(d.index_map),
                                  " must have one entry per index vector "
                                  "element (",
                                  vector_size, ")"),
                     s);
  }
  ok = CheckDimsUnique(instruction, n.index_map, d.index_map, rank, s);
  if (ok.ok()) {
    ok = Disjoint(instruction, n.index_map, d.index_map, n.operand_batching,
                  d.operand_batching, s);
  }
  if (ok.ok()) {
    ok = CheckDimsUnique(instruction, n.index_batching, d.index_batching,
                         indices.rank(), s);
  }
  if (!ok.ok()) return ok;
  if (absl::c_linear_search(d.index_batching, ivd)) {
    return RuleError(instruction,
                     absl::StrCat(n.index_batching,
                                  " must not contain index_vector_dim ", ivd),
                     s);
  }
  if (d.index_batching.size() != d.operand_batching.size()) {
    return RuleError(instruction,
                     absl::StrCat(n.index_batching, " and ", n.operand_batching,
                                  " must have the same size"),
                     s);
  }
  for (size_t i = 0; i < d.index_batching.size(); ++i) {
    const int64_t a = operand.dimension(d.operand_batching[i]);
    const int64_t b = indices.dimension(d.index_batching[i]);
    if (a != b) {
      return RuleError(
          instruction,
          absl::StrCat("operand batching dimension ", d.operand_batching[i],
                       " has size ", a, " but indices batching dimension ",
                       d.index_batching[i], " has size ", b),
          s);
    }
  }
  return absl::OkStatus();
}

// Operand dims that are neither collapsed nor batching: the window dims.
std::vector<int64_t> OperandWindowDims(const IndexedDims& d, int64_t rank) {
  std::vector<int64_t> dims;
  for (int64_t i = 0; i < rank; ++i) {
    if (!absl::c_linear_search(d.collapsed, i) &&
        !absl::c_linear_search(d.operand_batching, i)) {
      dims.push_back(i);
    }
  }
  return dims;
}

absl::Status CheckSliceSizes(const Instruction& instruction,
                             const IndexedDims& d, const Shape& operand,
                             const std::vector<int64_t>& sizes) {
  if (static_cast<int64_t>(sizes.size()) != operand.rank()) {
    return RuleError(
        instruction,
        absl::StrCat("slice_sizes has ", sizes.size(),
                     " entries, expected the operand rank ", operand.rank()),
        kGather);
  }
  for (int64_t i = 0; i < operand.rank(); ++i) {
    if (sizes[i] < 0 || sizes[i] > operand.dimension(i)) {
      return RuleError(
          instruction,
          absl::StrCat("slice_sizes[", i, "]=", sizes[i], " must be in [0, ",
                       operand.dimension(i), "]"),
          kGather);
    }
    const bool collapsed = absl::c_linear_search(d.collapsed, i) ||
                           absl::c_linear_search(d.operand_batching, i);
    if (collapsed && sizes[i] > 1) {
      return RuleError(instruction,
                       absl::StrCat("slice_sizes[", i, "]=", sizes[i],
                                    " must be <= 1 for a collapsed or "
                                    "batching dimension"),
                       kGather);
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Shape> GatherShape(const Instruction& instruction,
                                  ShapeForm /*form*/) {
  absl::StatusOr<const Shape*> operand = ArrayOperand(instruction, 0, kGather);
  if (!operand.ok()) return operand.status();
  absl::StatusOr<const Shape*> indices = ArrayOperand(instruction, 1, kGather);
  if (!indices.ok()) return indices.status();
  absl::StatusOr<IndexedDims> d = ReadIndexedDims(instruction, kGatherNames);
  if (!d.ok()) return d.status();
  absl::StatusOr<const std::vector<int64_t>*> sizes =
      RequiredInt64ListAttr(instruction, attr::kSliceSizes, kGather);
  if (!sizes.ok()) return sizes.status();
  const std::vector<int64_t> batch =
      IndexBatchDims(**indices, d->index_vector_dim);
  const int64_t out_rank = d->window.size() + batch.size();
  absl::Status ok = CheckIndexedDims(instruction, kGatherNames, *d, **operand,
                                     **indices, out_rank);
  if (ok.ok()) ok = CheckSliceSizes(instruction, *d, **operand, **sizes);
  if (!ok.ok()) return ok;
  const std::vector<int64_t> window_dims =
      OperandWindowDims(*d, (*operand)->rank());
  std::vector<int64_t> dims;
  std::vector<bool> dynamic;
  size_t next_window = 0, next_batch = 0;
  for (int64_t i = 0; i < out_rank; ++i) {
    if (next_window < d->window.size() && d->window[next_window] == i) {
      // An offset dimension that takes a dynamic operand dimension whole
      // stays dynamic (XLA's dynamic dimension inference, HandleGather).
      const int64_t from = window_dims[next_window++];
      dims.push_back((**sizes)[from]);
      dynamic.push_back((*operand)->is_dynamic_dimension(from) &&
                        (**sizes)[from] == (*operand)->dimension(from));
    } else {
      const int64_t from = batch[next_batch++];
      dims.push_back((*indices)->dimension(from));
      dynamic.push_back((*indices)->is_dynamic_dimension(from));
    }
  }
  return ArrayResult((*operand)->element_type(), std::move(dims),
                     std::move(dynamic));
}

namespace {

// updates: scatter dims match the indices' batch dims; window dims fit in
// the operand's window dims.
absl::Status CheckUpdates(const Instruction& instruction, const IndexedDims& d,
                          const Shape& operand, const Shape& indices,
                          const Shape& updates) {
  const std::vector<int64_t> batch =
      IndexBatchDims(indices, d.index_vector_dim);
  const std::vector<int64_t> window_dims = OperandWindowDims(d, operand.rank());
  size_t next_window = 0, next_batch = 0;
  for (int64_t i = 0; i < updates.rank(); ++i) {
    const int64_t size = updates.dimension(i);
    if (next_window < d.window.size() && d.window[next_window] == i) {
      const int64_t bound = operand.dimension(window_dims[next_window++]);
      if (size > bound) {
        return RuleError(
            instruction,
            absl::StrCat("updates window dimension ", i, " has size ", size,
                         ", more than the operand's ", bound),
            kScatter);
      }
      continue;
    }
    const int64_t expected = indices.dimension(batch[next_batch++]);
    if (size != expected) {
      return RuleError(
          instruction,
          absl::StrCat("updates scatter dimension ", i, " has size ", size,
                       ", expected the indices' ", expected),
          kScatter);
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Shape> ScatterShape(const Instruction& instruction,
                                   ShapeForm /*form*/) {
  const int64_t count = instruction.operand_count();
  if (count < 3 || count % 2 == 0) {
    return RuleError(instruction,
                     absl::StrCat("takes N operands, the indices and N "
                                  "updates, got ",
                                  count, " operands"),
                     kScatter);
  }
  const int64_t n = (count - 1) / 2;
  std::vector<const Shape*> shapes;
  for (int64_t i = 0; i < count; ++i) {
    absl::StatusOr<const Shape*> shape = ArrayOperand(instruction, i, kScatter);
    if (!shape.ok()) return shape.status();
    shapes.push_back(*shape);
  }
  const Shape& operand = *shapes[0];
  const Shape& indices = *shapes[n];
  const Shape& updates = *shapes[n + 1];
  for (int64_t i = 0; i < n; ++i) {
    const Shape& op = *shapes[i];
    const Shape& up = *shapes[n + 1 + i];
    if (op.dimensions() != operand.dimensions() ||
        up.dimensions() != updates.dimensions() ||
        up.element_type() != op.element_type()) {
      return RuleError(
          instruction,
          absl::StrCat("operand ", i, " ", ShapeText(op), " and updates ", i,
                       " ", ShapeText(up),
                       " must share operand 0's / updates 0's dimensions and "
                       "each other's element type"),
          kScatter);
    }
  }
  absl::StatusOr<IndexedDims> d = ReadIndexedDims(instruction, kScatterNames);
  if (!d.ok()) return d.status();
  absl::Status ok = CheckIndexedDims(instruction, kScatterNames, *d, operand,
                                     indices, updates.rank());
  if (!ok.ok()) return ok;
  const int64_t expected_rank =
      d->window.size() + IndexBatchDims(indices, d->index_vector_dim).size();
  if (updates.rank() != expected_rank) {
    return RuleError(instruction,
                     absl::StrCat("updates rank ", updates.rank(),
                                  " must equal update_window_dims size + "
                                  "indices batch dims (",
                                  expected_rank, ")"),
                     kScatter);
  }
  ok = CheckUpdates(instruction, *d, operand, indices, updates);
  if (!ok.ok()) return ok;
  std::vector<const Shape*> operands(shapes.begin(), shapes.begin() + n);
  std::vector<Shape> scalars = ScalarsOf(operands);
  std::vector<Shape> params = scalars;
  params.insert(params.end(), scalars.begin(), scalars.end());
  absl::StatusOr<const Computation*> combiner =
      RequiredComputationAttr(instruction, attr::kToApply, kScatter);
  if (!combiner.ok()) return combiner.status();
  ok = CheckSignature(instruction, "to_apply", **combiner, params,
                      SingleOrTuple(scalars), kScatter);
  if (!ok.ok()) return ok;
  std::vector<Shape> results;
  for (const Shape* op : operands) {
    results.push_back(ArrayResult(op->element_type(), op->dimensions(),
                                  op->dynamic_dimensions()));
  }
  return SingleOrTuple(std::move(results));
}

}  // namespace ops_internal
}  // namespace kiln
