#include "backends/cpu/lowering.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "backends/cpu/buffer_assignment.h"
#include "backends/cpu/control_thunks.h"
#include "backends/cpu/convolution_thunk.h"
#include "backends/cpu/loop_emitter.h"
#include "backends/cpu/scatter_emitter.h"
#include "backends/cpu/sort_emitter.h"
#include "compiler/evaluator/random_bits.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/op_traits.h"

namespace kiln::cpu {
namespace {

// Whether `shape` holds a token or opaque value anywhere.
bool HasTokenOrOpaque(const Shape& shape) {
  if (shape.IsToken() || shape.IsOpaque()) return true;
  if (!shape.IsTuple()) return false;
  for (const Shape& element : shape.tuple_shapes()) {
    if (HasTokenOrOpaque(element)) return true;
  }
  return false;
}

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

// What the programs of one module share: the generated source of every
// kernel, the statistics, and the programs of computations already lowered
// (a computation called from several places is lowered once).
struct LoweringContext {
  std::string kernels;
  LoweringStats stats;
  Donation donation;
  int64_t max_while_iterations = 0;
  absl::flat_hash_map<const Computation*, std::shared_ptr<Program>> programs;
  int depth = 0;
};

// Computations nested deeper than this run on the evaluator (lowering
// recurses once per level).
constexpr int kMaxNesting = 64;

class Lowerer {
 public:
  Lowerer(LoweringContext& context, const Computation& computation,
          bool result_in_place)
      : context_(context),
        computation_(computation),
        result_in_place_(result_in_place) {}
  absl::StatusOr<std::unique_ptr<Program>> Run();

 private:
  int64_t step() const { return program_->thunks.size(); }
  int64_t NewSlot(BufferSlot slot) {
    program_->slots.push_back(std::move(slot));
    intervals_.emplace_back();
    return program_->slots.size() - 1;
  }
  absl::StatusOr<ValueTree> ArenaValue(const Shape& shape);
  // A while's state: new slots, except for the elements the body passes
  // through unchanged (its root's element i is get-tuple-element i of its
  // parameter) whose initial value is a parameter's or a constant's slot,
  // which nothing writes during the run: the state element is that slot,
  // and neither the entry into the loop nor an iteration copies it (a
  // loop reading a large array it never updates, as JAX's fori_loop
  // carries its inputs, copied it into the state on every run).
  absl::StatusOr<ValueTree> LoopState(const Shape& shape, const ValueTree& init,
                                      const Instruction& body_root,
                                      const Instruction& body_state);
  ValueTree ParameterValue(const Shape& shape, int64_t parameter,
                           std::vector<int64_t> path);
  ValueTree ConstantValue(const Literal& literal);
  void NoteUse(const ValueTree& tree);
  absl::Status Lower(const Instruction* instruction);
  // Each returns false (and says why) when it does not apply.
  absl::StatusOr<bool> TryKernel(const Instruction* instruction,
                                 std::string* why);
  absl::StatusOr<bool> TryDot(const Instruction* instruction);
  absl::Status Fallback(const Instruction* instruction, const std::string& why);
  absl::Status AddKernel(const Instruction* instruction,
                         const Computation& computation, int64_t instructions);
  // A kernel whose source `emit` writes under the symbol it is given.
  // `in_place`: the result takes operand 0's slots instead of new ones.
  absl::Status AddKernelSource(
      const Instruction* instruction,
      const std::function<absl::StatusOr<std::string>(const std::string&)>&
          emit,
      int64_t instructions, bool in_place = false);
  // A dynamic-update-slice whose operand nothing else reads: its kernel
  // writes the update's window into the operand's own slot.
  absl::StatusOr<bool> TryInPlaceUpdate(const Instruction* instruction);
  // Whether `instruction` may write its result over its operand 0: the
  // operand has a slot of its own that nothing reads afterwards.
  bool OwnsOperandSlot(const Instruction* instruction) const;
  // sort and scatter, whose kernels have emitters of their own.
  absl::StatusOr<bool> TrySortOrScatter(const Instruction* instruction,
                                        std::string* why);
  absl::StatusOr<bool> TryConvolution(const Instruction* instruction,
                                      std::string* why);
  // rng-bit-generator: the evaluator's expansion run on the slots.
  bool TryRngBitGenerator(const Instruction* instruction);
  // while, conditional and call: their computations' programs.
  absl::StatusOr<bool> TryControlFlow(const Instruction* instruction,
                                      std::string* why);
  absl::StatusOr<std::shared_ptr<Program>> ProgramOf(
      const Computation* computation, std::string* why);
  std::vector<ValueTree> UseOperands(const Instruction* instruction,
                                     int64_t first = 0);

  LoweringContext& context_;
  const Computation& computation_;
  const bool result_in_place_;
  std::unique_ptr<Program> program_ = std::make_unique<Program>();
  std::vector<BufferInterval> intervals_;
  absl::flat_hash_map<const Instruction*, ValueTree> values_;
  absl::flat_hash_set<int64_t> flat_kernels_;  // Steps of flat kernels.
};

absl::StatusOr<ValueTree> Lowerer::LoopState(const Shape& shape,
                                             const ValueTree& init,
                                             const Instruction& body_root,
                                             const Instruction& body_state) {
  if (!shape.IsTuple() || body_root.opcode() != Opcode::kTuple ||
      init.elements.size() != shape.tuple_shapes().size()) {
    return ArenaValue(shape);
  }
  ValueTree state;
  for (size_t i = 0; i < init.elements.size(); ++i) {
    const ValueTree& initial = init.elements[i];
    const Instruction& next = *body_root.operand(i);
    const int64_t* index = next.attrs().Get<int64_t>(attr::kIndex);
    const bool passes_through = next.opcode() == Opcode::kGetTupleElement &&
                                next.operand(0) == &body_state &&
                                index != nullptr &&
                                *index == static_cast<int64_t>(i);
    if (passes_through && initial.slot >= 0 &&
        program_->slots[initial.slot].kind != BufferSlot::Kind::kArena) {
      state.elements.push_back(initial);
      continue;
    }
    absl::StatusOr<ValueTree> element = ArenaValue(shape.tuple_shapes()[i]);
    if (!element.ok()) return element.status();
    state.elements.push_back(*std::move(element));
  }
  return state;
}

absl::StatusOr<ValueTree> Lowerer::ArenaValue(const Shape& shape) {
  ValueTree tree;
  if (shape.IsTuple()) {
    for (const Shape& element : shape.tuple_shapes()) {
      absl::StatusOr<ValueTree> child = ArenaValue(element);
      if (!child.ok()) return child.status();
      tree.elements.push_back(*std::move(child));
    }
    return tree;
  }
  absl::StatusOr<int64_t> bytes = shape.ByteSize();
  if (!bytes.ok()) return bytes.status();
  BufferSlot slot;
  slot.shape = shape;
  slot.bytes = *bytes;
  tree.slot = NewSlot(std::move(slot));
  intervals_[tree.slot].bytes = *bytes;
  intervals_[tree.slot].defined = step();
  return tree;
}

ValueTree Lowerer::ParameterValue(const Shape& shape, int64_t parameter,
                                  std::vector<int64_t> path) {
  ValueTree tree;
  if (shape.IsTuple()) {
    for (int64_t i = 0; i < shape.tuple_size(); ++i) {
      std::vector<int64_t> inner = path;
      inner.push_back(i);
      tree.elements.push_back(
          ParameterValue(shape.tuple_shape(i), parameter, std::move(inner)));
    }
    return tree;
  }
  BufferSlot slot;
  slot.kind = BufferSlot::Kind::kParameter;
  slot.shape = shape;
  slot.bytes = shape.ByteSize().value_or(0);
  slot.parameter = parameter;
  slot.path = std::move(path);
  tree.slot = NewSlot(std::move(slot));
  return tree;
}

ValueTree Lowerer::ConstantValue(const Literal& literal) {
  ValueTree tree;
  if (literal.shape().IsTuple()) {
    for (const Literal& element : literal.tuple_elements()) {
      tree.elements.push_back(ConstantValue(element));
    }
    return tree;
  }
  BufferSlot slot;
  slot.kind = BufferSlot::Kind::kConstant;
  slot.shape = literal.shape();
  slot.bytes = static_cast<int64_t>(literal.data().size());
  slot.constant = &literal;
  tree.slot = NewSlot(std::move(slot));
  return tree;
}

void Lowerer::NoteUse(const ValueTree& tree) {
  if (tree.slot >= 0) {
    intervals_[tree.slot].last_use =
        std::max(intervals_[tree.slot].last_use, step());
  }
  for (const ValueTree& element : tree.elements) NoteUse(element);
}

absl::Status Lowerer::AddKernel(const Instruction* instruction,
                                const Computation& computation,
                                int64_t instructions) {
  if (IsFlatKernel(computation)) flat_kernels_.insert(step());
  return AddKernelSource(
      instruction,
      [&](const std::string& symbol) {
        return EmitKernel(computation, symbol);
      },
      instructions);
}

absl::Status Lowerer::AddKernelSource(
    const Instruction* instruction,
    const std::function<absl::StatusOr<std::string>(const std::string&)>& emit,
    int64_t instructions, bool in_place) {
  const std::string symbol =
      absl::StrCat("kiln_kernel_", context_.stats.kernels);
  absl::StatusOr<std::string> source = emit(symbol);
  if (!source.ok()) return source.status();
  absl::StrAppend(&context_.kernels, "\n// ", instruction->name(), "\n",
                  *source);
  std::vector<int64_t> inputs;
  for (const Instruction* operand : instruction->operands()) {
    const ValueTree& value = values_.at(operand);
    NoteUse(value);
    inputs.push_back(value.slot);
  }
  absl::StatusOr<ValueTree> result = in_place
                                         ? values_.at(instruction->operand(0))
                                         : ArenaValue(instruction->shape());
  if (!result.ok()) return result.status();
  std::vector<int64_t> outputs;
  if (result->slot >= 0) outputs.push_back(result->slot);
  for (const ValueTree& element : result->elements) {
    outputs.push_back(element.slot);
  }
  program_->thunks.push_back(std::make_unique<KernelThunk>(
      instruction->name(), symbol, std::move(inputs), std::move(outputs)));
  values_[instruction] = *std::move(result);
  ++context_.stats.kernels;
  context_.stats.native_instructions += instructions;
  return absl::OkStatus();
}

absl::StatusOr<bool> Lowerer::TryKernel(const Instruction* instruction,
                                        std::string* why) {
  if (instruction->opcode() == Opcode::kFusion) {
    const auto* calls = instruction->attrs().Get<Computation*>(attr::kCalls);
    if (calls == nullptr || *calls == nullptr) return false;
    const Computation& fused = **calls;
    if (absl::Status status = CheckEmittable(fused); !status.ok()) {
      *why = std::string(status.message());
      return false;
    }
    int64_t count = 0;
    for (const Instruction* inner : fused.instructions()) {
      if (inner->opcode() != Opcode::kParameter &&
          !(inner == fused.root() && inner->opcode() == Opcode::kTuple)) {
        ++count;
      }
    }
    absl::Status status = AddKernel(instruction, fused, count);
    if (!status.ok()) return status;
    return true;
  }
  if (absl::Status status = CheckEmittable(*instruction); !status.ok()) {
    *why = std::string(status.message());
    return false;
  }
  // One op on its own: wrapped in a computation of its operands, parameter
  // k standing for operand k (the kernel's in[k]). A scalar constant is
  // copied in as the op's operand instead, so that the emitter sees its
  // value (a scan's init value); its parameter stays, unread.
  Computation wrapper(absl::StrCat("single.", instruction->name()));
  std::vector<Instruction*> parameters;
  for (int64_t k = 0; k < instruction->operand_count(); ++k) {
    const Instruction* operand = instruction->operand(k);
    auto parameter = std::make_unique<Instruction>(
        Opcode::kParameter, operand->shape(), absl::StrCat("param.", k));
    parameter->set_parameter_number(k);
    parameters.push_back(wrapper.AddParameter(std::move(parameter)));
    if (operand->opcode() == Opcode::kConstant && operand->has_literal() &&
        operand->shape().IsScalar()) {
      parameters.back() = wrapper.AddInstruction(
          operand->CloneWithNewOperands(operand->shape(), {}, operand->name()));
    }
  }
  wrapper.set_root(wrapper.AddInstruction(instruction->CloneWithNewOperands(
      instruction->shape(), parameters, instruction->name())));
  absl::Status status = AddKernel(instruction, wrapper, 1);
  if (!status.ok()) return status;
  return true;
}

bool Lowerer::OwnsOperandSlot(const Instruction* instruction) const {
  // The operand's slot is its own (not a parameter's, a constant's or a
  // tuple element shared with other values: those come from parameter,
  // constant, tuple and get-tuple-element, which make no slot) and no one
  // reads it after this instruction.
  const Instruction* operand = instruction->operand(0);
  const Opcode producer = operand->opcode();
  if (producer == Opcode::kParameter || producer == Opcode::kConstant ||
      producer == Opcode::kTuple || producer == Opcode::kGetTupleElement ||
      operand->users().size() != 1 || operand == computation_.root()) {
    return false;
  }
  for (int64_t i = 1; i < instruction->operand_count(); ++i) {
    if (instruction->operand(i) == operand) return false;  // Also read.
  }
  const ValueTree& value = values_.at(operand);
  return value.slot >= 0 &&
         program_->slots[value.slot].kind == BufferSlot::Kind::kArena;
}

absl::StatusOr<bool> Lowerer::TryInPlaceUpdate(const Instruction* instruction) {
  if (instruction->opcode() != Opcode::kDynamicUpdateSlice ||
      !CheckEmittable(*instruction).ok() || !OwnsOperandSlot(instruction)) {
    return false;
  }
  absl::Status status = AddKernelSource(
      instruction,
      [&](const std::string& symbol) {
        return EmitInPlaceUpdateKernel(*instruction, symbol);
      },
      1, /*in_place=*/true);
  if (!status.ok()) return status;
  return true;
}

absl::StatusOr<bool> Lowerer::TrySortOrScatter(const Instruction* instruction,
                                               std::string* why) {
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

bool Lowerer::TryRngBitGenerator(const Instruction* instruction) {
  if (instruction->opcode() != Opcode::kRngBitGenerator) return false;
  const Shape& shape = instruction->shape();
  const Shape& state = instruction->operand(0)->shape();
  const EnumValue* algorithm =
      instruction->attrs().Get<EnumValue>(attr::kAlgorithm);
  const ValueTree& operand = values_.at(instruction->operand(0));
  // A state that does not fit its algorithm is the evaluator's error.
  if (!shape.IsTuple() || shape.tuple_size() != 2 || operand.slot < 0 ||
      state.element_type() != ElementType::kU64 ||
      !eval::StateFits(
          eval::BitGeneratorNamed(algorithm == nullptr ? "rng_default"
                                                       : algorithm->spelling),
          state.ElementCount().value_or(0))) {
    return false;
  }
  NoteUse(operand);
  absl::StatusOr<ValueTree> result = ArenaValue(shape);
  if (!result.ok()) return false;
  program_->thunks.push_back(std::make_unique<RngBitGeneratorThunk>(
      *instruction, operand.slot, result->elements[0].slot,
      result->elements[1].slot));
  values_[instruction] = *std::move(result);
  ++context_.stats.library_calls;
  ++context_.stats.native_instructions;
  return true;
}

absl::StatusOr<bool> Lowerer::TryConvolution(const Instruction* instruction,
                                             std::string* why) {
  if (instruction->opcode() != Opcode::kConvolution) return false;
  // The im2col matrix of one execution stays under 1 GiB.
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

absl::Status Lowerer::Fallback(const Instruction* instruction,
                               const std::string& why) {
  std::vector<ValueTree> operands;
  for (const Instruction* operand : instruction->operands()) {
    operands.push_back(values_.at(operand));
    NoteUse(operands.back());
  }
  absl::StatusOr<ValueTree> result = ArenaValue(instruction->shape());
  if (!result.ok()) return result.status();
  const bool collective = GetOpTraits(instruction->opcode()).collective;
  program_->thunks.push_back(std::make_unique<FallbackThunk>(
      *instruction, std::move(operands), *result,
      collective ? "collective" : "fallback"));
  values_[instruction] = *std::move(result);
  LoweringStats& stats = context_.stats;
  if (collective) {
    ++stats.collectives;
    return absl::OkStatus();
  }
  const std::string op(OpcodeName(instruction->opcode()));
  ++stats.fallback_instructions;
  ++stats.fallback_by_op[op];
  stats.fallback_reason.emplace(op, why);
  return absl::OkStatus();
}

absl::Status Lowerer::Lower(const Instruction* instruction) {
  switch (instruction->opcode()) {
    case Opcode::kParameter:
      values_[instruction] = ParameterValue(
          instruction->shape(), instruction->parameter_number(), {});
      return absl::OkStatus();
    case Opcode::kConstant:
      values_[instruction] = ConstantValue(instruction->literal());
      return absl::OkStatus();
    case Opcode::kTuple: {
      ValueTree tree;
      for (const Instruction* operand : instruction->operands()) {
        tree.elements.push_back(values_.at(operand));
      }
      values_[instruction] = std::move(tree);
      return absl::OkStatus();
    }
    case Opcode::kGetTupleElement: {
      const int64_t* index = instruction->attrs().Get<int64_t>(attr::kIndex);
      const ValueTree& tuple = values_.at(instruction->operand(0));
      if (index == nullptr || *index < 0 ||
          *index >= static_cast<int64_t>(tuple.elements.size())) {
        return absl::InternalError(
            absl::StrCat(instruction->name(), ": bad tuple index"));
      }
      values_[instruction] = tuple.elements[*index];
      return absl::OkStatus();
    }
    default:
      break;
  }
  std::string why = "no native lowering";
  absl::StatusOr<bool> done = TryControlFlow(instruction, &why);
  if (!done.ok()) return done.status();
  if (*done) return absl::OkStatus();
  done = TryDot(instruction);
  if (!done.ok()) return done.status();
  if (*done) return absl::OkStatus();
  done = TryInPlaceUpdate(instruction);
  if (!done.ok()) return done.status();
  if (*done) return absl::OkStatus();
  done = TrySortOrScatter(instruction, &why);
  if (!done.ok()) return done.status();
  if (*done) return absl::OkStatus();
  done = TryConvolution(instruction, &why);
  if (!done.ok()) return done.status();
  if (*done) return absl::OkStatus();
  if (TryRngBitGenerator(instruction)) return absl::OkStatus();
  done = TryKernel(instruction, &why);
  if (!done.ok()) return done.status();
  if (*done) return absl::OkStatus();
  return Fallback(instruction, why);
}

absl::StatusOr<std::unique_ptr<Program>> Lowerer::Run() {
  absl::StatusOr<std::vector<Instruction*>> order = computation_.PostOrder();
  if (!order.ok()) return order.status();
  for (const Instruction* instruction : *order) {
    if (absl::Status status = Lower(instruction); !status.ok()) return status;
  }
  program_->result = values_.at(computation_.root());
  // The entry's result arena slots are written in place in the result
  // literal, each at the first path it appears at (a later path gets a
  // copy); a nested program's result lives in its arena to the end.
  std::vector<std::pair<const ValueTree*, std::vector<int64_t>>> pending = {
      {&program_->result, {}}};
  while (!pending.empty()) {
    auto [tree, path] = std::move(pending.back());
    pending.pop_back();
    if (tree->slot >= 0 &&
        program_->slots[tree->slot].kind == BufferSlot::Kind::kArena) {
      if (result_in_place_) {
        program_->slots[tree->slot].kind = BufferSlot::Kind::kResult;
        program_->slots[tree->slot].path = path;
      } else {
        intervals_[tree->slot].live_out = true;
      }
    }
    for (size_t i = 0; i < tree->elements.size(); ++i) {
      std::vector<int64_t> inner = path;
      inner.push_back(i);
      pending.push_back({&tree->elements[i], std::move(inner)});
    }
  }
  std::vector<BufferInterval> arena;
  std::vector<int64_t> arena_slots;
  for (size_t i = 0; i < program_->slots.size(); ++i) {
    if (program_->slots[i].kind != BufferSlot::Kind::kArena) continue;
    arena.push_back(intervals_[i]);
    arena_slots.push_back(i);
  }
  BufferPlacement placement = AssignBuffers(arena);
  for (size_t j = 0; j < arena_slots.size(); ++j) {
    program_->slots[arena_slots[j]].offset = placement.offsets[j];
  }
  program_->arena_bytes = placement.arena_bytes;
  if (result_in_place_) {
    context_.stats.arena_bytes = placement.arena_bytes;
    context_.stats.unshared_bytes = placement.unshared_bytes;
    std::vector<SlotSteps> steps;
    for (const BufferInterval& interval : intervals_) {
      steps.push_back({interval.defined, interval.last_use});
    }
    context_.donation = DonatableAliases(*computation_.parent(), *program_,
                                         steps, flat_kernels_);
  }
  return std::move(program_);
}

// Why `computation` cannot be lowered step by step (dynamic shapes, tokens,
// ...), or empty when it can.
std::string StepwiseRefusal(const Computation& computation) {
  for (const Instruction* instruction : computation.instructions()) {
    if (!instruction->shape().is_static()) {
      return absl::StrCat("dynamic shapes (", instruction->name(), ")");
    }
    if (HasTokenOrOpaque(instruction->shape())) {
      return absl::StrCat("token or opaque values (", instruction->name(), ")");
    }
  }
  return "";
}

absl::StatusOr<std::shared_ptr<Program>> Lowerer::ProgramOf(
    const Computation* computation, std::string* why) {
  auto found = context_.programs.find(computation);
  if (found != context_.programs.end()) return found->second;
  if (context_.depth >= kMaxNesting) {
    *why = absl::StrCat("computations nested more than ", kMaxNesting,
                        " deep run on the evaluator");
    return std::shared_ptr<Program>();
  }
  if (std::string refusal = StepwiseRefusal(*computation); !refusal.empty()) {
    *why = absl::StrCat(computation->name(), ": ", refusal);
    return std::shared_ptr<Program>();
  }
  ++context_.depth;
  absl::StatusOr<std::unique_ptr<Program>> program =
      Lowerer(context_, *computation, /*result_in_place=*/false).Run();
  --context_.depth;
  if (!program.ok()) return program.status();
  std::shared_ptr<Program> shared = *std::move(program);
  context_.programs[computation] = shared;
  return shared;
}

std::vector<ValueTree> Lowerer::UseOperands(const Instruction* instruction,
                                            int64_t first) {
  std::vector<ValueTree> operands;
  for (int64_t k = first; k < instruction->operand_count(); ++k) {
    operands.push_back(values_.at(instruction->operand(k)));
    NoteUse(operands.back());
  }
  return operands;
}

absl::StatusOr<bool> Lowerer::TryControlFlow(const Instruction* instruction,
                                             std::string* why) {
  const AttributeMap& attrs = instruction->attrs();
  std::vector<const Computation*> callees;
  switch (instruction->opcode()) {
    case Opcode::kCall:
      callees = {*attrs.Get<Computation*>(attr::kToApply)};
      break;
    case Opcode::kWhile:
      callees = {*attrs.Get<Computation*>(attr::kCondition),
                 *attrs.Get<Computation*>(attr::kBody)};
      break;
    case Opcode::kConditional:
      if (const auto* list =
              attrs.Get<ComputationList>(attr::kBranchComputations)) {
        callees.assign(list->begin(), list->end());
      } else {
        callees = {*attrs.Get<Computation*>(attr::kTrueComputation),
                   *attrs.Get<Computation*>(attr::kFalseComputation)};
      }
      break;
    default:
      return false;
  }
  std::vector<std::shared_ptr<Program>> programs;
  for (const Computation* callee : callees) {
    absl::StatusOr<std::shared_ptr<Program>> program = ProgramOf(callee, why);
    if (!program.ok()) return program.status();
    if (*program == nullptr) return false;
    programs.push_back(*std::move(program));
  }
  std::unique_ptr<Thunk> thunk;
  if (instruction->opcode() == Opcode::kCall) {
    std::vector<ValueTree> operands = UseOperands(instruction);
    absl::StatusOr<ValueTree> result = ArenaValue(instruction->shape());
    if (!result.ok()) return result.status();
    thunk = std::make_unique<CallThunk>(*instruction, programs[0],
                                        std::move(operands), *result);
    values_[instruction] = *std::move(result);
  } else if (instruction->opcode() == Opcode::kWhile) {
    std::vector<ValueTree> operands = UseOperands(instruction);
    absl::StatusOr<ValueTree> state =
        LoopState(instruction->shape(), operands[0], *callees[1]->root(),
                  *callees[1]->parameter(0));
    if (!state.ok()) return state.status();
    thunk = std::make_unique<WhileThunk>(*instruction, programs[0], programs[1],
                                         std::move(operands[0]), *state,
                                         context_.max_while_iterations);
    values_[instruction] = *std::move(state);
  } else {
    const ValueTree selector = values_.at(instruction->operand(0));
    NoteUse(selector);
    std::vector<ValueTree> operands = UseOperands(instruction, 1);
    absl::StatusOr<ValueTree> result = ArenaValue(instruction->shape());
    if (!result.ok()) return result.status();
    thunk = std::make_unique<ConditionalThunk>(*instruction,
                                               std::move(programs), selector,
                                               std::move(operands), *result);
    values_[instruction] = *std::move(result);
  }
  program_->thunks.push_back(std::move(thunk));
  ++context_.stats.control_flow;
  ++context_.stats.native_instructions;
  return true;
}

}  // namespace

std::string WholeModuleFallbackReason(const Module& module) {
  const Computation* entry = module.entry();
  if (entry == nullptr) return "no entry computation";
  return StepwiseRefusal(*entry);
}

absl::StatusOr<LoweredModule> LowerModule(const Module& module,
                                          int64_t max_while_iterations) {
  LoweringContext context;
  context.max_while_iterations = max_while_iterations;
  absl::StatusOr<std::unique_ptr<Program>> entry =
      Lowerer(context, *module.entry(), /*result_in_place=*/true).Run();
  if (!entry.ok()) return entry.status();
  LoweredModule lowered;
  lowered.entry = *std::move(entry);
  lowered.kernel_source = std::move(context.kernels);
  lowered.stats = std::move(context.stats);
  lowered.donation = std::move(context.donation);
  return lowered;
}

std::vector<Program*> AllPrograms(Program& program) {
  std::vector<Program*> all = {&program};
  absl::flat_hash_set<Program*> seen = {&program};
  for (size_t i = 0; i < all.size(); ++i) {
    for (const auto& thunk : all[i]->thunks) {
      for (Program* nested : thunk->NestedPrograms()) {
        if (seen.insert(nested).second) all.push_back(nested);
      }
    }
  }
  return all;
}

}  // namespace kiln::cpu
