// Tuples, calls and control flow: tuples stay element by element (tuple
// values never need to exist in StableHLO unless an op takes one whole);
// call and fusion become func.call of a private function; while, the
// conditionals and async wrappers become regions or calls; copies, domains
// and add-dependency carry their operand's value (layouts and scheduling
// are not StableHLO's concern).
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/computation.h"
#include "compiler/stablehlo/ops.h"
#include "compiler/stablehlo/types.h"

namespace kiln::stablehlo {

Value KnownTuple(std::vector<Value> elements) {
  Value value;
  std::vector<Shape> shapes;
  for (const Value& element : elements) shapes.push_back(element.shape);
  value.shape = Shape::Tuple(std::move(shapes));
  value.elements = std::move(elements);
  return value;
}

absl::StatusOr<Value> Element(FunctionEmitter& emitter, const Value& tuple,
                              int64_t index) {
  if (!tuple.shape.IsTuple() || index < 0 ||
      index >= tuple.shape.tuple_size()) {
    return NoForm("tuple index out of range");
  }
  if (!tuple.is_leaf()) return tuple.elements[index];
  Op op{"stablehlo.get_tuple_element",
        {tuple},
        absl::StrCat("index = ", index, " : i32"),
        {},
        {tuple.shape.tuple_shape(index)}};
  absl::StatusOr<std::vector<Value>> got = emitter.Emit(op, "gte");
  if (!got.ok()) return got.status();
  return (*got)[0];
}

namespace {

absl::StatusOr<Value> EmitTuple(FunctionEmitter& e, const Instruction& i) {
  std::vector<Value> elements;
  for (int64_t k = 0; k < i.operand_count(); ++k) {
    elements.push_back(e.Operand(i, k));
  }
  return KnownTuple(std::move(elements));
}

absl::StatusOr<Value> EmitGetTupleElement(FunctionEmitter& e,
                                          const Instruction& i) {
  const int64_t* index = i.attrs().Get<int64_t>(attr::kIndex);
  if (index == nullptr) return NoForm("get-tuple-element without index");
  return Element(e, e.Operand(i, 0), *index);
}

// The operand's own value: copies, domains and add-dependency.
absl::StatusOr<Value> EmitForward(FunctionEmitter& e, const Instruction& i) {
  return e.Operand(i, 0);
}

absl::StatusOr<Value> EmitCallTo(FunctionEmitter& e, const Instruction& i,
                                 const Computation* callee) {
  if (callee == nullptr) return NoForm("no called computation");
  std::string symbol = e.symbols().FunctionSymbol(callee);
  return EmitSimple(e, i, "func.call", absl::StrCat("callee = ", symbol));
}

absl::StatusOr<Value> EmitCall(FunctionEmitter& e, const Instruction& i) {
  Computation* const* callee = i.attrs().Get<Computation*>(attr::kToApply);
  return EmitCallTo(e, i, callee ? *callee : nullptr);
}

absl::StatusOr<Value> EmitFusion(FunctionEmitter& e, const Instruction& i) {
  Computation* const* callee = i.attrs().Get<Computation*>(attr::kCalls);
  return EmitCallTo(e, i, callee ? *callee : nullptr);
}

absl::StatusOr<Value> EmitWhile(FunctionEmitter& e, const Instruction& i) {
  Computation* const* condition = i.attrs().Get<Computation*>(attr::kCondition);
  Computation* const* body = i.attrs().Get<Computation*>(attr::kBody);
  if (condition == nullptr || body == nullptr) {
    return NoForm("while without condition or body");
  }
  absl::StatusOr<std::string> cond_region = e.Region(**condition);
  if (!cond_region.ok()) return cond_region.status();
  absl::StatusOr<std::string> body_region = e.Region(**body);
  if (!body_region.ok()) return body_region.status();
  return EmitSimple(e, i, "stablehlo.while", "",
                    {*std::move(cond_region), *std::move(body_region)});
}

// The branches of a conditional, in order: true then false for a pred
// selector, else branch_computations.
std::vector<Computation*> Branches(const Instruction& i) {
  if (const auto* list =
          i.attrs().Get<ComputationList>(attr::kBranchComputations)) {
    return *list;
  }
  std::vector<Computation*> branches;
  for (absl::string_view name :
       {attr::kTrueComputation, attr::kFalseComputation}) {
    if (Computation* const* c = i.attrs().Get<Computation*>(name)) {
      branches.push_back(*c);
    }
  }
  return branches;
}

absl::StatusOr<Value> EmitConditional(FunctionEmitter& e,
                                      const Instruction& i) {
  std::vector<Computation*> branches = Branches(i);
  if (static_cast<int64_t>(branches.size()) + 1 != i.operand_count()) {
    return NoForm("conditional with a branch count unlike its operands");
  }
  std::vector<std::string> regions;
  for (size_t k = 0; k < branches.size(); ++k) {
    absl::StatusOr<std::string> region =
        e.CapturingRegion(*branches[k], {e.Operand(i, k + 1)});
    if (!region.ok()) return region.status();
    regions.push_back(*std::move(region));
  }
  bool is_pred = i.operand(0)->shape().element_type() == ElementType::kPred;
  Op op{is_pred ? "stablehlo.if" : "stablehlo.case",
        {e.Operand(i, 0)},
        "",
        std::move(regions),
        LeafShapes(i.shape())};
  return e.EmitAs(op, i.shape(), i.name());
}

absl::StatusOr<Value> EmitOptimizationBarrier(FunctionEmitter& e,
                                              const Instruction& i) {
  return EmitSimple(e, i, "stablehlo.optimization_barrier");
}

absl::StatusOr<Value> EmitAfterAll(FunctionEmitter& e, const Instruction& i) {
  return EmitSimple(e, i, "stablehlo.after_all");
}

// async-start calls the wrapped computation; its value is the tuple
// ((operands), results, context) that async-update and async-done pass on.
absl::StatusOr<Value> EmitAsyncStart(FunctionEmitter& e, const Instruction& i) {
  Computation* const* callee = i.attrs().Get<Computation*>(attr::kCalls);
  if (callee == nullptr || !i.shape().IsTuple() || i.shape().tuple_size() < 2) {
    return NoForm("async-start without a wrapped computation");
  }
  absl::StatusOr<std::vector<Value>> operands = e.OperandLeaves(i);
  if (!operands.ok()) return operands.status();
  const Shape& result_shape = i.shape().tuple_shape(1);
  Op op{"func.call",
        *operands,
        absl::StrCat("callee = ", e.symbols().FunctionSymbol(*callee)),
        {},
        LeafShapes(result_shape)};
  absl::StatusOr<Value> result = e.EmitAs(op, result_shape, i.name());
  if (!result.ok()) return result.status();
  std::vector<Value> inputs;
  for (int64_t k = 0; k < i.operand_count(); ++k) {
    inputs.push_back(e.Operand(i, k));
  }
  std::vector<Value> elements = {KnownTuple(std::move(inputs)), *result};
  for (int64_t k = 2; k < i.shape().tuple_size(); ++k) {
    absl::StatusOr<Value> context = EmitZero(e, i.shape().tuple_shape(k));
    if (!context.ok()) return context.status();
    elements.push_back(*std::move(context));
  }
  return KnownTuple(std::move(elements));
}

// copy-done, async-done: element 1 of the start's tuple (copy-start's
// (destination, source, context) holds the copy in both).
absl::StatusOr<Value> EmitDoneOfStart(FunctionEmitter& e,
                                      const Instruction& i) {
  return Element(e, e.Operand(i, 0), 1);
}

absl::StatusOr<Value> EmitCopyStart(FunctionEmitter& e, const Instruction& i) {
  if (!i.shape().IsTuple() || i.shape().tuple_size() != 3) {
    return NoForm("copy-start of an unexpected shape");
  }
  absl::StatusOr<Value> context = EmitZero(e, i.shape().tuple_shape(2));
  if (!context.ok()) return context.status();
  return KnownTuple({e.Operand(i, 0), e.Operand(i, 0), *std::move(context)});
}

}  // namespace

void AddCustomCallHandler(HandlerTable* table);

void AddControlHandlers(HandlerTable* table) {
  (*table)[Opcode::kTuple] = &EmitTuple;
  (*table)[Opcode::kGetTupleElement] = &EmitGetTupleElement;
  (*table)[Opcode::kCopy] = &EmitForward;
  (*table)[Opcode::kDomain] = &EmitForward;
  (*table)[Opcode::kAddDependency] = &EmitForward;
  (*table)[Opcode::kAsyncUpdate] = &EmitForward;
  (*table)[Opcode::kCall] = &EmitCall;
  (*table)[Opcode::kFusion] = &EmitFusion;
  (*table)[Opcode::kWhile] = &EmitWhile;
  (*table)[Opcode::kConditional] = &EmitConditional;
  (*table)[Opcode::kOptimizationBarrier] = &EmitOptimizationBarrier;
  (*table)[Opcode::kAfterAll] = &EmitAfterAll;
  (*table)[Opcode::kAsyncStart] = &EmitAsyncStart;
  (*table)[Opcode::kAsyncDone] = &EmitDoneOfStart;
  (*table)[Opcode::kCopyStart] = &EmitCopyStart;
  (*table)[Opcode::kCopyDone] = &EmitDoneOfStart;
  AddCustomCallHandler(table);
}

}  // namespace kiln::stablehlo
