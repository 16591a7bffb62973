// The loop emitter's CUDA target: grid-stride loops, and reductions by
// the two-level block scheme (threads fold strided parts of a row, warps
// combine by shuffles, warps' values meet in shared memory).
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "backends/cpu/kernel_target.h"
#include "backends/cpu/kernel_writer.h"
#include "backends/cpu/loop_emitter_ops.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/attributes.h"

namespace kiln::cpu::emitter_internal {

bool IsReassociableInteger(const Computation& reducer) {
  const Instruction* root = reducer.root();
  const ElementType type = root->shape().element_type();
  if (!IsIntegralType(type) || IsSubByteInteger(type) ||
      root->operand_count() != 2 || root->operand(0) == root->operand(1) ||
      root->operand(0)->opcode() != Opcode::kParameter ||
      root->operand(1)->opcode() != Opcode::kParameter) {
    return false;
  }
  switch (root->opcode()) {
    case Opcode::kAdd:
    case Opcode::kMultiply:
    case Opcode::kMaximum:
    case Opcode::kMinimum:
    case Opcode::kAnd:
    case Opcode::kOr:
    case Opcode::kXor:
      return true;
    default:
      return false;
  }
}

void KernelWriter::OpenGridStrideLoop(const Shape& shape, Index* index) {
  const int64_t count = flat_ ? flat_count_ : shape.ElementCount().value_or(0);
  launch_ = GridStrideLaunch(count);
  Line(ParallelLoop(target_, flat_ ? "i" : "l", count, true));
  ++depth_;
  if (flat_) {
    if (shape.rank() > 0) index->assign(shape.rank(), "i");
    return;
  }
  index->assign(shape.rank(), "");
  int64_t stride = 1;
  for (int64_t d = shape.rank() - 1; d >= 0; --d) {
    (*index)[d] = absl::StrCat("i", d);
    Line(absl::StrCat("const int64_t i", d, " = (l / ", stride, ") % ",
                      std::max<int64_t>(shape.dimension(d), 1), ";"));
    stride *= shape.dimension(d);
  }
}

void KernelWriter::OpenScanGridStrideLoop(const Shape& shape, int64_t scanned,
                                          Index* index) {
  int64_t count = 1;
  for (int64_t d = 0; d < shape.rank(); ++d) {
    if (d != scanned) count *= shape.dimension(d);
  }
  launch_ = GridStrideLaunch(count);
  Line(ParallelLoop(target_, "l", count, true));
  ++depth_;
  int64_t stride = 1;
  for (int64_t d = shape.rank() - 1; d >= 0; --d) {
    if (d == scanned) continue;
    (*index)[d] = absl::StrCat("i", d);
    Line(absl::StrCat("const int64_t i", d, " = (l / ", stride, ") % ",
                      std::max<int64_t>(shape.dimension(d), 1), ";"));
    stride *= shape.dimension(d);
  }
}

bool KernelWriter::IsBlockReduction(const Instruction& output) const {
  if (output.opcode() != Opcode::kReduce || output.operand_count() != 2 ||
      !output.shape().IsArray()) {
    return false;
  }
  const Computation& reducer =
      **output.attrs().Get<Computation*>(attr::kToApply);
  const ElementType type = output.shape().element_type();
  const int bits = BitWidth(type);
  if (WideReduction(reducer)) return true;
  // Shuffled values are 4 or 8 bytes wide (as CUDA's shuffles take them).
  if (bits != 32 && bits != 64) return false;
  return IsSum(reducer) || IsReassociableInteger(reducer);
}

void KernelWriter::CombineReduced(const Instruction* reduce,
                                  const std::string& acc,
                                  const std::string& value) {
  const Computation& reducer =
      **reduce->attrs().Get<Computation*>(attr::kToApply);
  if (const std::optional<Opcode> wide = WideReduction(reducer)) {
    Line(
        absl::StrCat(acc, *wide == Opcode::kAdd ? " += " : " *= ", value, ";"));
    return;
  }
  Combine(reducer, acc, value);
}

void KernelWriter::EmitWarpCombine(const Instruction* reduce,
                                   const std::string& type) {
  Line("for (int kiln_offset = 16; kiln_offset > 0; kiln_offset /= 2) {");
  Nested([&] {
    Line(absl::StrCat("const ", type,
                      " kiln_other = __shfl_down_sync(0xffffffffu, acc, "
                      "kiln_offset);"));
    Line(
        "const int kiln_other_has = __shfl_down_sync(0xffffffffu, has, "
        "kiln_offset);");
    // A lane past the warp's end gets its own value back: not a partner.
    Line("if (kiln_other_has && kiln_lane + kiln_offset < 32) {");
    Nested([&] {
      Line("if (has) {");
      Nested([&] { CombineReduced(reduce, "acc", "kiln_other"); });
      Line("} else {");
      Line("  acc = kiln_other;");
      Line("  has = 1;");
      Line("}");
    });
    Line("}");
  });
  Line("}");
}

void KernelWriter::EmitBlockReduction(const Instruction* reduce) {
  const Shape& shape = reduce->shape();
  const Instruction* operand = reduce->operand(0);
  const Shape& in = operand->shape();
  const std::vector<int64_t>& reduced = *Int64s(*reduce, attr::kDimensions);
  const Computation& reducer =
      **reduce->attrs().Get<Computation*>(attr::kToApply);
  const bool wide = WideReduction(reducer).has_value();
  const std::string type = wide ? "double" : Type(reduce);
  const int64_t outputs = shape.ElementCount().value_or(0);
  int64_t count = 1;
  for (int64_t d : reduced) count *= in.dimension(d);
  launch_.grid = std::clamp<int64_t>(outputs, 1, kCudaMaxGrid);
  launch_.block = std::clamp<int64_t>((count + 31) / 32 * 32, 32, kCudaBlock);
  launch_.cooperative = true;
  block_reduced_ = reduce;
  memo_.clear();
  depth_ = 1;
  HoistScalars();
  const std::string init = Value(reduce->operand(1), {});
  Line(absl::StrCat("KILN_SHARED(", type, ", kiln_partial, 32);"));
  Line("KILN_SHARED(int, kiln_partial_has, 32);");
  Line("const int kiln_lane = threadIdx.x % 32, kiln_warp = threadIdx.x / 32;");
  Line(absl::StrCat("for (int64_t l = blockIdx.x; l < ", outputs,
                    "; l += gridDim.x) {"));
  ++depth_;
  Index index(shape.rank());
  int64_t stride = 1;
  for (int64_t d = shape.rank() - 1; d >= 0; --d) {
    index[d] = absl::StrCat("i", d);
    Line(absl::StrCat("const int64_t i", d, " = (l / ", stride, ") % ",
                      std::max<int64_t>(shape.dimension(d), 1), ";"));
    stride *= shape.dimension(d);
  }
  // Each thread folds its strided share of the reduced elements; `has`
  // says whether it saw any (the init value is combined in once, at the
  // end, as the evaluator's fold starts from it).
  Line(absl::StrCat(type, " acc = ", init, ";"));
  Line("int has = 0;");
  Line(absl::StrCat("for (int64_t r = threadIdx.x; r < ", count,
                    "; r += blockDim.x) {"));
  Nested([&] {
    Index at(in.rank());
    std::vector<bool> is_reduced(in.rank(), false);
    for (int64_t d : reduced) is_reduced[d] = true;
    int64_t rstride = 1;
    for (int64_t d = in.rank() - 1; d >= 0; --d) {
      if (!is_reduced[d]) continue;
      at[d] = absl::StrCat("((r / ", rstride, ") % ",
                           std::max<int64_t>(in.dimension(d), 1), ")");
      rstride *= in.dimension(d);
    }
    size_t next = 0;
    for (int64_t d = 0; d < in.rank(); ++d) {
      if (!is_reduced[d]) at[d] = index[next++];
    }
    const std::string x = Value(operand, at);
    const std::string value =
        wide ? absl::StrCat("static_cast<double>(", x, ")") : x;
    Line("if (has) {");
    Nested([&] { CombineReduced(reduce, "acc", value); });
    Line("} else {");
    Line(absl::StrCat("  acc = ", value, ";"));
    Line("  has = 1;");
    Line("}");
  });
  Line("}");
  EmitWarpCombine(reduce, type);
  Line("if (kiln_lane == 0) {");
  Line("  kiln_partial[kiln_warp] = acc;");
  Line("  kiln_partial_has[kiln_warp] = has;");
  Line("}");
  Line("__syncthreads();");
  Line("if (kiln_warp == 0) {");
  Nested([&] {
    Line(
        "has = kiln_lane < (blockDim.x + 31) / 32 ? "
        "kiln_partial_has[kiln_lane] : 0;");
    Line("if (has) acc = kiln_partial[kiln_lane];");
    EmitWarpCombine(reduce, type);
    Line("if (kiln_lane == 0) {");
    Nested([&] {
      const std::string result = Fresh("result");
      Line(absl::StrCat(type, " ", result, " = ", init, ";"));
      Line("if (has) {");
      Nested([&] { CombineReduced(reduce, result, "acc"); });
      Line("}");
      const ElementType element = shape.element_type();
      std::string value = result;
      if (wide) {
        value = element == ElementType::kF32
                    ? absl::StrCat("static_cast<float>(", result, ")")
                    : absl::StrCat("kiln_cpu::RoundFromF64(",
                                   FloatFormat(element), ", ", result, ")");
      }
      Line(absl::StrCat("o0[", Linear(index, shape),
                        "] = ", Store(element, value), ";"));
    });
    Line("}");
  });
  Line("}");
  // The shared values are read before the next output overwrites them.
  Line("__syncthreads();");
  --depth_;
  Line("}");
}

}  // namespace kiln::cpu::emitter_internal
