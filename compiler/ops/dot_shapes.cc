#include "compiler/ops/dot_shapes.h"

#include <cinttypes>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ops/computation_rules.h"
#include "compiler/ops/shape_rule_util.h"

namespace kiln {
namespace ops_internal {
namespace {

constexpr absl::string_view kDot = "operation_semantics.md, DotGeneral";
constexpr absl::string_view kRaggedDot = "operation_semantics.md, RaggedDot";
constexpr absl::string_view kScaledDot = "operation_semantics.md, ScaledDot";

const std::vector<int64_t>& ListOrEmpty(const Instruction& instruction,
                                        absl::string_view name) {
  static const std::vector<int64_t>* const kEmpty = new std::vector<int64_t>;
  const std::vector<int64_t>* list = Int64ListAttr(instruction, name);
  return list == nullptr ? *kEmpty : *list;
}

struct DotDims {
  std::vector<int64_t> lhs_batch, lhs_contracting;
  std::vector<int64_t> rhs_batch, rhs_contracting;
};

DotDims ReadDotDims(const Instruction& instruction) {
  return DotDims{ListOrEmpty(instruction, attr::kLhsBatchDims),
                 ListOrEmpty(instruction, attr::kLhsContractingDims),
                 ListOrEmpty(instruction, attr::kRhsBatchDims),
                 ListOrEmpty(instruction, attr::kRhsContractingDims)};
}

// One side's batch and contracting dims: in range, and no dim used twice.
absl::Status CheckSide(const Instruction& instruction, absl::string_view side,
                       const std::vector<int64_t>& batch,
                       const std::vector<int64_t>& contracting, int64_t rank,
                       absl::string_view section) {
  std::vector<int64_t> all = batch;
  all.insert(all.end(), contracting.begin(), contracting.end());
  return CheckDimsUnique(
      instruction,
      absl::StrCat(side, "_batch_dims + ", side, "_contracting_dims"), all,
      rank, section);
}

// Sizes of lhs[lhs_dims[i]] and rhs[rhs_dims[i]] agree pairwise.
absl::Status CheckPairedSizes(const Instruction& instruction,
                              absl::string_view what, const Shape& lhs,
                              const std::vector<int64_t>& lhs_dims,
                              const Shape& rhs,
                              const std::vector<int64_t>& rhs_dims,
                              absl::string_view section) {
  if (lhs_dims.size() != rhs_dims.size()) {
    return RuleError(instruction,
                     absl::StrCat("lhs has ", lhs_dims.size(), " ", what,
                                  " dims but rhs has ", rhs_dims.size()),
                     section);
  }
  for (size_t i = 0; i < lhs_dims.size(); ++i) {
    const int64_t l = lhs.dimension(lhs_dims[i]);
    const int64_t r = rhs.dimension(rhs_dims[i]);
    // An unbounded size ('?') is compatible with any size.
    const bool unbounded =
        l == Shape::kUnboundedSize || r == Shape::kUnboundedSize;
    if (l != r && !unbounded) {
      return RuleError(
          instruction,
          absl::StrCat(what, " dimension sizes differ: lhs dimension ",
                       lhs_dims[i], " is ", l, ", rhs dimension ", rhs_dims[i],
                       " is ", r),
          section);
    }
  }
  return absl::OkStatus();
}

absl::Status CheckDotDims(const Instruction& instruction, const Shape& lhs,
                          const Shape& rhs, const DotDims& dims,
                          absl::string_view section) {
  absl::Status ok = CheckSide(instruction, "lhs", dims.lhs_batch,
                              dims.lhs_contracting, lhs.rank(), section);
  if (ok.ok()) {
    ok = CheckSide(instruction, "rhs", dims.rhs_batch, dims.rhs_contracting,
                   rhs.rank(), section);
  }
  if (ok.ok()) {
    ok = CheckPairedSizes(instruction, "batch", lhs, dims.lhs_batch, rhs,
                          dims.rhs_batch, section);
  }
  if (ok.ok()) {
    ok = CheckPairedSizes(instruction, "contracting", lhs, dims.lhs_contracting,
                          rhs, dims.rhs_contracting, section);
  }
  return ok;
}

// Appends the dims of `shape` not in `used` nor equal to `skip`.
void AppendFreeDims(const Shape& shape, const std::vector<int64_t>& batch,
                    const std::vector<int64_t>& contracting, int64_t skip,
                    std::vector<int64_t>* dims, std::vector<bool>* dynamic) {
  for (int64_t d = 0; d < shape.rank(); ++d) {
    if (d == skip || absl::c_linear_search(batch, d) ||
        absl::c_linear_search(contracting, d)) {
      continue;
    }
    dims->push_back(shape.dimension(d));
    dynamic->push_back(shape.is_dynamic_dimension(d));
  }
}

// batch + lhs free + rhs free (without rhs dim `rhs_skip`).
Shape DotResult(ElementType type, const Shape& lhs, const Shape& rhs,
                const DotDims& dims, int64_t rhs_skip) {
  std::vector<int64_t> result;
  std::vector<bool> dynamic;
  for (int64_t d : dims.lhs_batch) {
    result.push_back(lhs.dimension(d));
    dynamic.push_back(lhs.is_dynamic_dimension(d));
  }
  AppendFreeDims(lhs, dims.lhs_batch, dims.lhs_contracting, -1, &result,
                 &dynamic);
  AppendFreeDims(rhs, dims.rhs_batch, dims.rhs_contracting, rhs_skip, &result,
                 &dynamic);
  return ArrayResult(type, std::move(result), std::move(dynamic));
}

struct Operands {
  const Shape* lhs;
  const Shape* rhs;
};

absl::StatusOr<Operands> LhsRhs(const Instruction& instruction,
                                absl::string_view section) {
  absl::StatusOr<const Shape*> lhs = ArrayOperand(instruction, 0, section);
  if (!lhs.ok()) return lhs.status();
  absl::StatusOr<const Shape*> rhs = ArrayOperand(instruction, 1, section);
  if (!rhs.ok()) return rhs.status();
  return Operands{*lhs, *rhs};
}

}  // namespace

absl::StatusOr<ElementType> ContractionResultType(
    const Instruction& instruction, const Shape& lhs, const Shape& rhs,
    absl::string_view spec_section) {
  const Shape& declared = instruction.shape();
  if (declared.IsArray()) return declared.element_type();
  if (lhs.element_type() != rhs.element_type()) {
    return RuleError(
        instruction,
        absl::StrCat("lhs ", ShapeText(lhs), " and rhs ", ShapeText(rhs),
                     " differ in element type and no result "
                     "type is declared"),
        spec_section);
  }
  return lhs.element_type();
}

namespace {

// sparsity=L.1@2:4 (optionally several, joined by '_'): dimension 1 of lhs
// is stored with n=2 of every m=4 values, so its logical size is
// stored * m / n. Rewrites `lhs` / `rhs` to their logical shapes.
absl::Status ApplySparsity(const Instruction& instruction, Shape* lhs,
                           Shape* rhs) {
  const RawText* text = instruction.attrs().Get<RawText>(attr::kSparsity);
  if (text == nullptr) return absl::OkStatus();
  for (absl::string_view part : absl::StrSplit(text->text, '_')) {
    char side = 0;
    int64_t dim = 0, n = 0, m = 0;
    const std::string descriptor(part);
    int consumed = 0;
    const bool parsed = std::sscanf(descriptor.c_str(),
                                    "%c.%" SCNd64 "@%" SCNd64 ":%" SCNd64 "%n",
                                    &side, &dim, &n, &m, &consumed) == 4 &&
                        consumed == static_cast<int>(descriptor.size()) &&
                        (side == 'L' || side == 'R') && n > 0 && m > 0;
    Shape* shape = side == 'L' ? lhs : rhs;
    if (!parsed || dim < 0 || dim >= shape->rank() ||
        shape->dimension(dim) < 0) {
      return RuleError(instruction,
                       absl::StrCat("sparsity=", text->text,
                                    " must be L.<dim>@<n>:<m> or "
                                    "R.<dim>@<n>:<m> with <dim> a static "
                                    "dimension of that operand"),
                       kDot);
    }
    absl::StatusOr<int64_t> logical =
        CheckedMul(instruction, shape->dimension(dim) / n, m, kDot);
    if (!logical.ok()) return logical.status();
    shape->set_dimension(dim, *logical, shape->is_dynamic_dimension(dim));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Shape> DotShape(const Instruction& instruction,
                               ShapeForm /*form*/) {
  absl::StatusOr<Operands> operands = LhsRhs(instruction, kDot);
  if (!operands.ok()) return operands.status();
  Shape lhs = *operands->lhs;
  Shape rhs = *operands->rhs;
  absl::Status ok = ApplySparsity(instruction, &lhs, &rhs);
  if (!ok.ok()) return ok;
  const DotDims dims = ReadDotDims(instruction);
  ok = CheckDotDims(instruction, lhs, rhs, dims, kDot);
  if (!ok.ok()) return ok;
  absl::StatusOr<ElementType> type =
      ContractionResultType(instruction, lhs, rhs, kDot);
  if (!type.ok()) return type.status();
  return DotResult(*type, lhs, rhs, dims, -1);
}

namespace {

// The one dim of the single-entry list attribute `name`, or -1 when absent
// or empty.
absl::StatusOr<int64_t> OptionalSingleDim(const Instruction& instruction,
                                          absl::string_view name,
                                          int64_t rank) {
  const std::vector<int64_t>& list = ListOrEmpty(instruction, name);
  if (list.empty()) return -1;
  if (list.size() != 1) {
    return RuleError(instruction,
                     absl::StrCat(name, "=", DimsToString(list),
                                  " must name exactly one dimension"),
                     kRaggedDot);
  }
  absl::Status ok = CheckDimsInRange(instruction, name, list, rank, kRaggedDot);
  if (!ok.ok()) return ok;
  return list[0];
}

}  // namespace

// lhs_ragged_dims names one lhs dim. Ragged in a free dim: rhs has a group
// dim (rhs_group_dims) that the result drops. Ragged in a contracting dim:
// the result gains a leading group dim. Ragged in a batch dim: a plain dot.
absl::StatusOr<Shape> RaggedDotShape(const Instruction& instruction,
                                     ShapeForm /*form*/) {
  absl::StatusOr<Operands> operands = LhsRhs(instruction, kRaggedDot);
  if (!operands.ok()) return operands.status();
  const Shape& lhs = *operands->lhs;
  const Shape& rhs = *operands->rhs;
  absl::StatusOr<const Shape*> group_sizes =
      ArrayOperand(instruction, 2, kRaggedDot);
  if (!group_sizes.ok()) return group_sizes.status();
  const Shape& groups = **group_sizes;
  if (!IsIntegralType(groups.element_type()) || groups.rank() < 1) {
    return RuleError(instruction,
                     absl::StrCat("group_sizes is ", ShapeText(groups),
                                  ", expected an integer array"),
                     kRaggedDot);
  }
  const int64_t group_count = groups.dimension(groups.rank() - 1);
  DotDims dims = ReadDotDims(instruction);
  absl::StatusOr<int64_t> ragged =
      OptionalSingleDim(instruction, attr::kLhsRaggedDims, lhs.rank());
  if (!ragged.ok()) return ragged.status();
  absl::StatusOr<int64_t> group =
      OptionalSingleDim(instruction, attr::kRhsGroupDims, rhs.rank());
  if (!group.ok()) return group.status();
  if (*ragged < 0) {
    return RuleError(instruction, "lhs_ragged_dims must name one dimension",
                     kRaggedDot);
  }
  const bool in_contracting =
      absl::c_linear_search(dims.lhs_contracting, *ragged);
  const bool in_batch = absl::c_linear_search(dims.lhs_batch, *ragged);
  const bool needs_group = !in_contracting && !in_batch;
  if (needs_group != (*group >= 0)) {
    return RuleError(instruction,
                     needs_group
                         ? "lhs_ragged_dims names a non-contracting, non-batch "
                           "dimension, so rhs_group_dims must name rhs's group "
                           "dimension"
                         : "lhs_ragged_dims names a contracting or batch "
                           "dimension, so rhs_group_dims must be empty",
                     kRaggedDot);
  }
  // Check the dot dims on rhs without its group dim by marking it batch-like
  // for the uniqueness check only.
  std::vector<int64_t> rhs_used = dims.rhs_batch;
  if (*group >= 0) rhs_used.push_back(*group);
  absl::Status ok = CheckSide(instruction, "rhs", rhs_used,
                              dims.rhs_contracting, rhs.rank(), kRaggedDot);
  if (ok.ok()) {
    ok = CheckSide(instruction, "lhs", dims.lhs_batch, dims.lhs_contracting,
                   lhs.rank(), kRaggedDot);
  }
  if (ok.ok()) {
    ok = CheckPairedSizes(instruction, "batch", lhs, dims.lhs_batch, rhs,
                          dims.rhs_batch, kRaggedDot);
  }
  if (ok.ok()) {
    ok = CheckPairedSizes(instruction, "contracting", lhs, dims.lhs_contracting,
                          rhs, dims.rhs_contracting, kRaggedDot);
  }
  if (!ok.ok()) return ok;
  if (*group >= 0 && rhs.dimension(*group) != group_count) {
    return RuleError(
        instruction,
        absl::StrCat("rhs group dimension ", *group, " has size ",
                     rhs.dimension(*group), " but group_sizes ",
                     ShapeText(groups), " has ", group_count, " groups"),
        kRaggedDot);
  }
  absl::StatusOr<ElementType> type =
      ContractionResultType(instruction, lhs, rhs, kRaggedDot);
  if (!type.ok()) return type.status();
  Shape result = DotResult(*type, lhs, rhs, dims, *group);
  if (!in_contracting) return result;
  std::vector<int64_t> with_groups = {group_count};
  with_groups.insert(with_groups.end(), result.dimensions().begin(),
                     result.dimensions().end());
  std::vector<bool> dynamic = {false};
  dynamic.insert(dynamic.end(), result.dynamic_dimensions().begin(),
                 result.dynamic_dimensions().end());
  return ArrayResult(*type, std::move(with_groups), std::move(dynamic));
}

namespace {

// A block scale: a scalar, or the operand's rank with equal non-contracting
// sizes and a contracting size that divides the operand's.
absl::Status CheckScale(const Instruction& instruction, absl::string_view side,
                        const Shape& operand, const Shape& scale,
                        const std::vector<int64_t>& contracting) {
  if (scale.IsScalar()) return absl::OkStatus();
  bool ok = scale.rank() == operand.rank();
  for (int64_t d = 0; ok && d < operand.rank(); ++d) {
    const int64_t size = operand.dimension(d);
    const int64_t scale_size = scale.dimension(d);
    ok = absl::c_linear_search(contracting, d)
             ? scale_size > 0 && size % scale_size == 0
             : scale_size == size;
  }
  if (ok) return absl::OkStatus();
  return RuleError(
      instruction,
      absl::StrCat(side, "_scale is ", ShapeText(scale), " for ", side, " ",
                   ShapeText(operand),
                   ", expected a scalar or the same dimensions with each "
                   "contracting size dividing ",
                   side, "'s"),
      kScaledDot);
}

}  // namespace

absl::StatusOr<Shape> ScaledDotShape(const Instruction& instruction,
                                     ShapeForm /*form*/) {
  absl::StatusOr<Operands> operands = LhsRhs(instruction, kScaledDot);
  if (!operands.ok()) return operands.status();
  const DotDims dims = ReadDotDims(instruction);
  absl::Status ok = CheckDotDims(instruction, *operands->lhs, *operands->rhs,
                                 dims, kScaledDot);
  if (!ok.ok()) return ok;
  for (int side = 0; side < 2; ++side) {
    absl::StatusOr<const Shape*> scale =
        ArrayOperand(instruction, 2 + side, kScaledDot);
    if (!scale.ok()) return scale.status();
    ok = CheckScale(instruction, side == 0 ? "lhs" : "rhs",
                    side == 0 ? *operands->lhs : *operands->rhs, **scale,
                    side == 0 ? dims.lhs_contracting : dims.rhs_contracting);
    if (!ok.ok()) return ok;
  }
  absl::StatusOr<ElementType> type = ContractionResultType(
      instruction, *operands->lhs, *operands->rhs, kScaledDot);
  if (!type.ok()) return type.status();
  return DotResult(*type, *operands->lhs, *operands->rhs, dims, -1);
}

}  // namespace ops_internal
}  // namespace kiln
