#include "compiler/builder/builder.h"

#include <atomic>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/ops/shape_inference.h"

namespace kiln {

XlaComputation::XlaComputation(std::unique_ptr<Module> module)
    : module_(std::move(module)) {
  static std::atomic<uint64_t> next_id{1};
  id_ = next_id.fetch_add(1);
}

std::vector<Shape> XlaComputation::parameter_shapes() const {
  std::vector<Shape> shapes;
  for (const Instruction* parameter : computation().parameters()) {
    shapes.push_back(parameter->shape());
  }
  return shapes;
}

const Shape& XlaComputation::result_shape() const {
  return computation().root()->shape();
}

XlaBuilder::XlaBuilder(std::string name)
    : name_(std::move(name)),
      module_(std::make_unique<Module>(name_)),
      computation_(std::make_unique<Computation>(name_)) {}

std::unique_ptr<XlaBuilder> XlaBuilder::CreateSubBuilder(
    absl::string_view name) {
  ++sub_builder_count_;
  return std::make_unique<XlaBuilder>(
      absl::StrCat(name_, ".", name, ".", sub_builder_count_));
}

absl::StatusOr<Shape> XlaBuilder::GetShape(XlaOp op) const {
  if (!first_error_.ok()) return first_error_;
  if (!op.valid()) return absl::InvalidArgumentError("invalid XlaOp");
  if (op.builder() != this) {
    return absl::InvalidArgumentError(
        absl::StrCat("op ", op.instruction()->name(), " belongs to builder ",
                     op.builder()->name(), ", not ", name_));
  }
  return op.instruction()->shape();
}

XlaOp XlaBuilder::ReportError(absl::Status status) {
  if (first_error_.ok() && !status.ok()) first_error_ = std::move(status);
  return XlaOp();
}

absl::Status XlaBuilder::SetBackendConfig(XlaOp op, RawText config) {
  if (absl::Status s = CheckOperands({op}, "backend_config"); !s.ok()) {
    return s;
  }
  op.instruction_->backend_config = std::move(config);
  return absl::OkStatus();
}

XlaBuilder* XlaBuilder::BuilderOf(absl::Span<const XlaOp> operands) {
  for (const XlaOp& op : operands) {
    if (op.builder() != nullptr) return op.builder();
  }
  return nullptr;
}

absl::Status XlaBuilder::CheckOperands(absl::Span<const XlaOp> operands,
                                       absl::string_view what) {
  if (!first_error_.ok()) return first_error_;
  for (size_t i = 0; i < operands.size(); ++i) {
    const XlaOp& op = operands[i];
    if (!op.valid()) {
      ReportError(absl::InvalidArgumentError(
          absl::StrCat(what, ": operand ", i, " is an invalid XlaOp")));
      return first_error_;
    }
    if (op.builder() != this) {
      ReportError(absl::InvalidArgumentError(absl::StrCat(
          what, ": operand ", i, " (", op.instruction()->name(),
          ") belongs to builder ", op.builder()->name(), ", not ", name_)));
      return first_error_;
    }
  }
  return absl::OkStatus();
}

std::string XlaBuilder::FreshName(const std::string& base) {
  int64_t& count = name_counts_[base];
  std::string name = count == 0 ? base : absl::StrCat(base, ".", count);
  ++count;
  return name;
}

XlaOp XlaBuilder::Finish(std::unique_ptr<Instruction> instruction) {
  last_ = computation_->AddInstruction(std::move(instruction));
  return XlaOp(this, last_);
}

XlaOp XlaBuilder::AddInstruction(Opcode opcode,
                                 absl::Span<const XlaOp> operands,
                                 AttributeMap attrs,
                                 std::optional<Shape> declared) {
  const std::string base(OpcodeName(opcode));
  if (!CheckOperands(operands, base).ok()) return XlaOp();
  if (declared.has_value()) {
    if (absl::Status valid = declared->Validate(); !valid.ok()) {
      return ReportError(absl::InvalidArgumentError(
          absl::StrCat(base, ": the requested shape ", declared->ToString(),
                       " is invalid: ", valid.message())));
    }
  }
  auto instruction = std::make_unique<Instruction>(
      opcode, declared.has_value() ? *declared : Shape::Tuple({}),
      FreshName(base));
  instruction->mutable_shape()->SetDefaultLayoutIfMissing();
  for (const XlaOp& op : operands) {
    instruction->AppendOperand(op.instruction_);
  }
  *instruction->mutable_attrs() = std::move(attrs);
  absl::StatusOr<Shape> inferred = InferShape(*instruction, ShapeForm::kClient);
  if (inferred.ok() && declared.has_value() &&
      !declared->Compatible(*inferred)) {
    inferred = absl::InvalidArgumentError(
        absl::StrCat(instruction->name(), ": the requested shape ",
                     declared->ToString(false),
                     " differs from the shape the op's rule gives, ",
                     inferred->ToString(false)));
  }
  if (!inferred.ok()) {
    instruction->DetachOperands();
    return ReportError(inferred.status());
  }
  if (!declared.has_value()) instruction->set_shape(*std::move(inferred));
  return Finish(std::move(instruction));
}

XlaOp XlaBuilder::AddParameter(int64_t number, const Shape& shape,
                               absl::string_view name) {
  if (!first_error_.ok()) return XlaOp();
  const std::string label = name.empty()
                                ? absl::StrCat("parameter(", number, ")")
                                : absl::StrCat("parameter '", name, "'");
  if (number < 0) {
    return ReportError(absl::InvalidArgumentError(
        absl::StrCat(label, ": parameter number ", number, " is negative")));
  }
  if (number < static_cast<int64_t>(computation_->parameters().size()) &&
      computation_->parameter(number) != nullptr) {
    return ReportError(absl::InvalidArgumentError(
        absl::StrCat(label, ": parameter number ", number, " is already ",
                     computation_->parameter(number)->name())));
  }
  if (absl::Status valid = shape.Validate(); !valid.ok()) {
    return ReportError(absl::InvalidArgumentError(
        absl::StrCat(label, ": invalid shape: ", valid.message())));
  }
  auto instruction = std::make_unique<Instruction>(
      Opcode::kParameter, shape,
      FreshName(name.empty() ? std::string("parameter") : std::string(name)));
  instruction->mutable_shape()->SetDefaultLayoutIfMissing();
  instruction->set_parameter_number(number);
  return Finish(std::move(instruction));
}

XlaOp XlaBuilder::AddConstant(Literal literal) {
  if (!first_error_.ok()) return XlaOp();
  auto instruction = std::make_unique<Instruction>(
      Opcode::kConstant, literal.shape(), FreshName("constant"));
  instruction->mutable_shape()->SetDefaultLayoutIfMissing();
  instruction->set_literal(std::move(literal));
  absl::StatusOr<Shape> inferred = InferShape(*instruction, ShapeForm::kClient);
  if (!inferred.ok()) return ReportError(inferred.status());
  return Finish(std::move(instruction));
}

absl::StatusOr<Computation*> XlaBuilder::ImportComputation(
    const XlaComputation& computation) {
  if (!first_error_.ok()) return first_error_;
  for (const auto& [source, copy] : imported_) {
    if (source == computation.id()) return copy;
  }
  // Callees first, so that every copy's calls can be remapped to copies.
  absl::StatusOr<std::vector<Computation*>> order =
      computation.module().PostOrderComputations();
  if (!order.ok()) return order.status();
  std::vector<std::pair<const Computation*, Computation*>> copies;
  for (const Computation* source : *order) {
    std::unique_ptr<Computation> copy = source->Clone(source->name());
    copy->set_execution_thread(source->execution_thread());
    for (Instruction* instruction : copy->instructions()) {
      instruction->RemapCalledComputations([&](Computation* callee) {
        for (const auto& [from, to] : copies) {
          if (from == callee) return to;
        }
        return callee;
      });
    }
    copies.emplace_back(source, module_->AddComputation(std::move(copy)));
  }
  Computation* entry = copies.back().second;
  imported_.emplace_back(computation.id(), entry);
  return entry;
}

Computation* XlaBuilder::Import(const XlaComputation& computation) {
  absl::StatusOr<Computation*> imported = ImportComputation(computation);
  if (!imported.ok()) {
    ReportError(imported.status());
    return nullptr;
  }
  return *imported;
}

absl::StatusOr<XlaComputation> XlaBuilder::Build() {
  if (!first_error_.ok()) return first_error_;
  if (last_ == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("builder ", name_, ": no op to be the ROOT"));
  }
  return Build(XlaOp(this, last_));
}

absl::StatusOr<XlaComputation> XlaBuilder::Build(XlaOp root) {
  if (!CheckOperands({root}, absl::StrCat("builder ", name_, " ROOT")).ok()) {
    return first_error_;
  }
  if (computation_ == nullptr) {
    return absl::FailedPreconditionError(
        absl::StrCat("builder ", name_, " was already built"));
  }
  const auto& parameters = computation_->parameters();
  for (size_t i = 0; i < parameters.size(); ++i) {
    if (parameters[i] == nullptr) {
      return ReportError(absl::InvalidArgumentError(
                 absl::StrCat("builder ", name_, ": parameter ", i,
                              " is missing; parameters must be numbered 0..",
                              parameters.size() - 1))),
             first_error_;
    }
  }
  computation_->set_root(root.instruction_);
  module_->AddEntryComputation(std::move(computation_));
  // Imported computations were added first, so the entry prints last, as
  // in XLA's text (callees before callers).
  ComputationLayout layout;
  for (const Instruction* parameter : module_->entry()->parameters()) {
    layout.parameters.push_back(parameter->shape());
  }
  layout.result = root.instruction_->shape();
  module_->config().entry_computation_layout = std::move(layout);
  return XlaComputation(std::move(module_));
}

XlaOp Parameter(XlaBuilder* builder, int64_t number, const Shape& shape,
                absl::string_view name) {
  return builder->AddParameter(number, shape, name);
}

XlaOp ConstantLiteral(XlaBuilder* builder, Literal literal) {
  return builder->AddConstant(std::move(literal));
}

}  // namespace kiln
