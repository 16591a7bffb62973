// The steps that call libraries or emitters of their own: dot (GEMM),
// convolution, sort, scatter, select-and-scatter and rng-bit-generator.
#include <algorithm>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "backends/cpu/convolution_emitter.h"
#include "backends/cpu/convolution_thunk.h"
#include "backends/cpu/lowering_internal.h"
#include "backends/cpu/rng_emitter.h"
#include "backends/cpu/scatter_emitter.h"
#include "backends/cpu/sort_emitter.h"
#include "compiler/ir/attr_names.h"

namespace kiln::cpu::lowering_internal {
namespace {

const std::vector<int64_t>& ListOrEmpty(const Instruction& instruction,
                                        absl::string_view name) {
  static const auto* const kEmpty = new std::vector<int64_t>();
  const auto* list = instruction.attrs().Get<Int64List>(name);
  return list != nullptr ? *list : *kEmpty;
}

int64_t Product(const std::vector<int64_t>& dims,
                const std::vector<int64_t>& which) {
  int64_t product = 1;
  for (int64_t d : which) product *= dims[d];
  return product;
}

// The dimensions of `rank` that are in neither list, in order.
std::vector<int64_t> FreeDimensions(int64_t rank,
                                    const std::vector<int64_t>& batch,
                                    const std::vector<int64_t>& contracting) {
  std::vector<int64_t> free;
  for (int64_t d = 0; d < rank; ++d) {
    if (std::find(batch.begin(), batch.end(), d) == batch.end() &&
        std::find(contracting.begin(), contracting.end(), d) ==
            contracting.end()) {
      free.push_back(d);
    }
  }
  return free;
}

}  // namespace

absl::StatusOr<bool> Lowerer::TryParallelScatter(
    const Instruction* instruction) {
  if (context_.target != KernelTarget::kCuda ||
      instruction->opcode() != Opcode::kScatter) {
    return false;
  }
  // In place when nothing else reads the operand; otherwise a copy kernel
  // first, whose result the update kernel then writes into. The update
  // kernel is emitted once, under the symbol it gets when it is added.
  const bool in_place = OwnsOperandSlot(instruction);
  absl::StatusOr<std::string> update = EmitParallelScatterKernel(
      *instruction, absl::StrCat("kiln_kernel_",
                                 context_.stats.kernels + (in_place ? 0 : 1)));
  if (!update.ok()) return false;  // Its updates do not commute.
  const auto emitted = [&](const std::string&) { return *std::move(update); };
  if (in_place) {
    absl::Status status = AddKernelSource(instruction, emitted, 1, true);
    if (!status.ok()) return status;
    return true;
  }
  absl::Status status = AddKernelSource(
      instruction,
      [&](const std::string& symbol) {
        return EmitScatterCopyKernel(*instruction, symbol);
      },
      0);
  if (!status.ok()) return status;
  const ValueTree copy = values_.at(instruction);
  status = AddKernelSource(instruction, emitted, 1, true, &copy);
  if (!status.ok()) return status;
  return true;
}

absl::StatusOr<bool> Lowerer::TrySortOrScatter(const Instruction* instruction,
                                               std::string* why) {
  absl::StatusOr<bool> parallel = TryParallelScatter(instruction);
  if (!parallel.ok() || *parallel) return parallel;
  using Emitter =
      absl::StatusOr<std::string> (*)(const Instruction&, absl::string_view);
  Emitter emit = nullptr;
  if (instruction->opcode() == Opcode::kSort) emit = &EmitSortKernel;
  if (instruction->opcode() == Opcode::kScatter) emit = &EmitScatterKernel;
  if (instruction->opcode() == Opcode::kSelectAndScatter) {
    emit = &EmitSelectAndScatterKernel;
  }
  if (emit == nullptr) return false;
  // Emitted once, under the symbol the kernel gets when it is added (the
  // count only advances when it is).
  absl::StatusOr<std::string> source =
      emit(*instruction, absl::StrCat("kiln_kernel_", context_.stats.kernels));
  if (!source.ok()) {
    *why = std::string(source.status().message());
    return false;
  }
  // A single-operand scatter whose operand nothing else reads updates it
  // in place (its kernel skips the copy when the two are one buffer).
  const bool in_place = instruction->opcode() == Opcode::kScatter &&
                        instruction->operand_count() == 3 &&
                        OwnsOperandSlot(instruction);
  absl::Status status = AddKernelSource(
      instruction, [&](const std::string&) { return *std::move(source); }, 1,
      in_place);
  if (!status.ok()) return status;
  return true;
}

absl::StatusOr<bool> Lowerer::TryRngBitGenerator(const Instruction* instruction,
                                                 std::string* why) {
  if (instruction->opcode() != Opcode::kRngBitGenerator) return false;
  absl::StatusOr<std::string> source = EmitRngBitGeneratorKernel(
      *instruction, absl::StrCat("kiln_kernel_", context_.stats.kernels));
  if (!source.ok()) {
    *why = std::string(source.status().message());
    return false;
  }
  absl::Status status = AddKernelSource(
      instruction, [&](const std::string&) { return *std::move(source); }, 1);
  if (!status.ok()) return status;
  return true;
}

absl::StatusOr<bool> Lowerer::TryConvolution(const Instruction* instruction,
                                             std::string* why) {
  if (instruction->opcode() != Opcode::kConvolution) return false;
  // On the host, the im2col GEMM where it applies (its matrix of one
  // execution under 1 GiB); the generated kernel for the rest, and for
  // every convolution on CUDA, where it runs on the device.
  std::string library_why;
  if (context_.target == KernelTarget::kHostCpp) {
    absl::StatusOr<bool> done =
        TryLibraryConvolution(instruction, &library_why);
    if (!done.ok() || *done) return done;
  }
  const std::string symbol =
      absl::StrCat("kiln_kernel_", context_.stats.kernels);
  absl::StatusOr<std::string> source =
      EmitConvolutionKernel(*instruction, symbol, context_.target);
  if (!source.ok()) {
    *why = library_why.empty()
               ? std::string(source.status().message())
               : absl::StrCat(library_why, "; ", source.status().message());
    return false;
  }
  absl::Status status = AddKernelSource(
      instruction, [&](const std::string&) { return *std::move(source); }, 1);
  if (!status.ok()) return status;
  return true;
}

absl::StatusOr<bool> Lowerer::TryLibraryConvolution(
    const Instruction* instruction, std::string* why) {
  std::optional<ConvolutionThunk::Plan> plan =
      ConvolutionThunk::MakePlan(*instruction, int64_t{1} << 30, why);
  if (!plan.has_value()) return false;
  const ValueTree input = values_.at(instruction->operand(0));
  const ValueTree kernel = values_.at(instruction->operand(1));
  NoteUse(input);
  NoteUse(kernel);
  absl::StatusOr<ValueTree> result = ArenaValue(instruction->shape());
  if (!result.ok()) return result.status();
  program_->thunks.push_back(std::make_unique<ConvolutionThunk>(
      *instruction, *std::move(plan), input.slot, kernel.slot, result->slot));
  values_[instruction] = *std::move(result);
  ++context_.stats.library_calls;
  ++context_.stats.native_instructions;
  return true;
}

absl::StatusOr<bool> Lowerer::TryDot(const Instruction* dot) {
  const ElementType type = dot->shape().element_type();
  if (dot->opcode() != Opcode::kDot || dot->operand_count() != 2 ||
      (type != ElementType::kF32 && type != ElementType::kF64 &&
       type != ElementType::kBF16 && type != ElementType::kF16) ||
      dot->operand(0)->shape().element_type() != type ||
      dot->operand(1)->shape().element_type() != type ||
      !dot->shape().is_static()) {
    return false;
  }
  const Shape& lhs = dot->operand(0)->shape();
  const Shape& rhs = dot->operand(1)->shape();
  const auto& lhs_batch = ListOrEmpty(*dot, attr::kLhsBatchDims);
  const auto& rhs_batch = ListOrEmpty(*dot, attr::kRhsBatchDims);
  const auto& lhs_contracting = ListOrEmpty(*dot, attr::kLhsContractingDims);
  const auto& rhs_contracting = ListOrEmpty(*dot, attr::kRhsContractingDims);
  DotThunk::Dimensions dims;
  const std::vector<int64_t> lhs_free =
      FreeDimensions(lhs.rank(), lhs_batch, lhs_contracting);
  const std::vector<int64_t> rhs_free =
      FreeDimensions(rhs.rank(), rhs_batch, rhs_contracting);
  dims.lhs_permutation = lhs_batch;
  dims.lhs_permutation.insert(dims.lhs_permutation.end(), lhs_free.begin(),
                              lhs_free.end());
  dims.lhs_permutation.insert(dims.lhs_permutation.end(),
                              lhs_contracting.begin(), lhs_contracting.end());
  dims.rhs_permutation = rhs_batch;
  dims.rhs_permutation.insert(dims.rhs_permutation.end(),
                              rhs_contracting.begin(), rhs_contracting.end());
  dims.rhs_permutation.insert(dims.rhs_permutation.end(), rhs_free.begin(),
                              rhs_free.end());
  // An operand stored as [batch, contracting, free] (lhs) or [batch, free,
  // contracting] (rhs) is read transposed by the GEMM instead of copied.
  auto in_order = [](std::vector<int64_t> first,
                     const std::vector<int64_t>& second,
                     const std::vector<int64_t>& third) {
    first.insert(first.end(), second.begin(), second.end());
    first.insert(first.end(), third.begin(), third.end());
    for (size_t i = 0; i < first.size(); ++i) {
      if (first[i] != static_cast<int64_t>(i)) return false;
    }
    return true;
  };
  if (!in_order(lhs_batch, lhs_free, lhs_contracting) &&
      in_order(lhs_batch, lhs_contracting, lhs_free)) {
    dims.transpose_lhs = true;
    dims.lhs_permutation.clear();
    for (int64_t d = 0; d < lhs.rank(); ++d) dims.lhs_permutation.push_back(d);
  }
  if (!in_order(rhs_batch, rhs_contracting, rhs_free) &&
      in_order(rhs_batch, rhs_free, rhs_contracting)) {
    dims.transpose_rhs = true;
    dims.rhs_permutation.clear();
    for (int64_t d = 0; d < rhs.rank(); ++d) dims.rhs_permutation.push_back(d);
  }
  dims.batch = Product(lhs.dimensions(), lhs_batch);
  dims.m = Product(lhs.dimensions(), lhs_free);
  dims.k = Product(lhs.dimensions(), lhs_contracting);
  dims.n = Product(rhs.dimensions(), rhs_free);
  const ValueTree& lhs_value = values_.at(dot->operand(0));
  const ValueTree& rhs_value = values_.at(dot->operand(1));
  NoteUse(lhs_value);
  NoteUse(rhs_value);
  absl::StatusOr<ValueTree> result = ArenaValue(dot->shape());
  if (!result.ok()) return result.status();
  program_->thunks.push_back(std::make_unique<DotThunk>(
      *dot, std::move(dims), lhs_value.slot, rhs_value.slot, result->slot));
  values_[dot] = *std::move(result);
  ++context_.stats.library_calls;
  ++context_.stats.native_instructions;
  return true;
}

}  // namespace kiln::cpu::lowering_internal
