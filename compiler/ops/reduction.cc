// Reductions and ops that apply a computation over windows or sequences:
// reduce, reduce-window, select-and-scatter, sort, topk, scan. Their
// schemas and shape rules (with the checks on the called computations).
#include <string>
#include <utility>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/computation.h"
#include "compiler/ops/computation_rules.h"
#include "compiler/ops/schema_registry.h"
#include "compiler/ops/shape_inference.h"
#include "compiler/ops/shape_rule_util.h"

namespace kiln {
namespace ops_internal {

namespace {

constexpr absl::string_view kReduce = "operation_semantics.md, Reduce";
constexpr absl::string_view kReduceWindow =
    "operation_semantics.md, ReduceWindow";
constexpr absl::string_view kSelectAndScatter =
    "operation_semantics.md, SelectAndScatter";
constexpr absl::string_view kSort = "operation_semantics.md, Sort";
constexpr absl::string_view kTopK = "operation_semantics.md, TopK";
constexpr absl::string_view kScan = "operation_semantics.md, Scan";

// Operands 0..N-1 (arrays of equal dimensions) and N..2N-1 (scalar inits) of
// reduce and reduce-window.
struct InputsAndInits {
  std::vector<const Shape*> inputs;
  std::vector<const Shape*> inits;
};

absl::StatusOr<InputsAndInits> SplitInputsAndInits(
    const Instruction& instruction, absl::string_view section) {
  const int64_t count = instruction.operand_count();
  if (count == 0 || count % 2 != 0) {
    return RuleError(instruction,
                     absl::StrCat("takes N inputs then N init values, got ",
                                  count, " operands"),
                     section);
  }
  InputsAndInits split;
  for (int64_t i = 0; i < count; ++i) {
    absl::StatusOr<const Shape*> shape = ArrayOperand(instruction, i, section);
    if (!shape.ok()) return shape.status();
    (i < count / 2 ? split.inputs : split.inits).push_back(*shape);
  }
  const Shape& first = *split.inputs[0];
  for (size_t i = 0; i < split.inputs.size(); ++i) {
    const Shape& input = *split.inputs[i];
    if (input.dimensions() != first.dimensions()) {
      return RuleError(instruction,
                       absl::StrCat("input ", i, " is ", ShapeText(input),
                                    ", expected the dimensions of input 0 ",
                                    ShapeText(first)),
                       section);
    }
    const Shape& init = *split.inits[i];
    if (!init.IsScalar() || init.element_type() != input.element_type()) {
      return RuleError(
          instruction,
          absl::StrCat("init value ", i, " is ", ShapeText(init),
                       ", expected a scalar of input ", i, "'s type ",
                       ElementTypeName(input.element_type())),
          section);
    }
  }
  return split;
}

// to_apply: (T_0..T_{N-1}, T_0..T_{N-1}) -> Collate(T_0..T_{N-1}).
absl::Status CheckReducer(const Instruction& instruction,
                          const InputsAndInits& split,
                          absl::string_view section) {
  absl::StatusOr<const Computation*> reducer =
      RequiredComputationAttr(instruction, attr::kToApply, section);
  if (!reducer.ok()) return reducer.status();
  std::vector<Shape> accumulators = ScalarsOf(split.inits);
  std::vector<Shape> params = accumulators;
  params.insert(params.end(), accumulators.begin(), accumulators.end());
  return CheckSignature(instruction, "to_apply", **reducer, params,
                        SingleOrTuple(accumulators), section);
}

// One result per input: `dims` of the input, typed like its init.
Shape CollateResults(const InputsAndInits& split,
                     const std::vector<int64_t>& dims,
                     const std::vector<bool>& dynamic) {
  std::vector<Shape> results;
  for (const Shape* init : split.inits) {
    results.push_back(ArrayResult(init->element_type(), dims, dynamic));
  }
  return SingleOrTuple(std::move(results));
}

absl::StatusOr<Shape> ReduceShape(const Instruction& instruction,
                                  ShapeForm /*form*/) {
  absl::StatusOr<InputsAndInits> split =
      SplitInputsAndInits(instruction, kReduce);
  if (!split.ok()) return split.status();
  absl::StatusOr<const std::vector<int64_t>*> reduced =
      RequiredInt64ListAttr(instruction, attr::kDimensions, kReduce);
  if (!reduced.ok()) return reduced.status();
  const Shape& input = *split->inputs[0];
  absl::Status dims_ok = CheckDimsUnique(instruction, attr::kDimensions,
                                         **reduced, input.rank(), kReduce);
  if (!dims_ok.ok()) return dims_ok;
  absl::Status reducer_ok = CheckReducer(instruction, *split, kReduce);
  if (!reducer_ok.ok()) return reducer_ok;
  std::vector<int64_t> dims;
  std::vector<bool> dynamic;
  for (int64_t d = 0; d < input.rank(); ++d) {
    if (absl::c_linear_search(**reduced, d)) continue;
    dims.push_back(input.dimension(d));
    dynamic.push_back(input.is_dynamic_dimension(d));
  }
  return CollateResults(*split, dims, dynamic);
}

// The dimensions of `input` after `window` slid over it.
absl::StatusOr<std::vector<int64_t>> WindowedDims(
    const Instruction& instruction, const Shape& input, const Window& window,
    absl::string_view section) {
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < input.rank(); ++d) {
    absl::StatusOr<int64_t> size = WindowedSize(
        instruction, input.dimension(d), window.dimensions[d], d, section);
    if (!size.ok()) return size.status();
    dims.push_back(*size);
  }
  return dims;
}

absl::StatusOr<Shape> ReduceWindowShape(const Instruction& instruction,
                                        ShapeForm /*form*/) {
  absl::StatusOr<InputsAndInits> split =
      SplitInputsAndInits(instruction, kReduceWindow);
  if (!split.ok()) return split.status();
  const Shape& input = *split->inputs[0];
  absl::StatusOr<Window> window =
      WindowAttr(instruction, input.rank(), kReduceWindow);
  if (!window.ok()) return window.status();
  absl::StatusOr<std::vector<int64_t>> dims =
      WindowedDims(instruction, input, *window, kReduceWindow);
  if (!dims.ok()) return dims.status();
  absl::Status reducer_ok = CheckReducer(instruction, *split, kReduceWindow);
  if (!reducer_ok.ok()) return reducer_ok;
  // A dynamic input dimension stays dynamic: the evaluator windows over
  // the valid elements (docs/evaluator_dynamic.md), as XLA's dynamic
  // dimension inference gives the result a dynamic size there.
  return CollateResults(*split, *dims, input.dynamic_dimensions());
}

absl::StatusOr<Shape> SelectAndScatterShape(const Instruction& instruction,
                                            ShapeForm /*form*/) {
  const absl::string_view section = kSelectAndScatter;
  std::vector<const Shape*> shapes;
  for (int64_t i = 0; i < 3; ++i) {
    absl::StatusOr<const Shape*> shape = ArrayOperand(instruction, i, section);
    if (!shape.ok()) return shape.status();
    shapes.push_back(*shape);
  }
  const Shape& operand = *shapes[0];
  const Shape& source = *shapes[1];
  const Shape& init = *shapes[2];
  const Shape element = Shape::Scalar(operand.element_type());
  if (!init.Compatible(element)) {
    return RuleError(instruction,
                     absl::StrCat("init value is ", ShapeText(init),
                                  ", expected ", ShapeText(element)),
                     section);
  }
  absl::StatusOr<Window> window =
      WindowAttr(instruction, operand.rank(), section);
  if (!window.ok()) return window.status();
  absl::StatusOr<std::vector<int64_t>> dims =
      WindowedDims(instruction, operand, *window, section);
  if (!dims.ok()) return dims.status();
  if (source.element_type() != operand.element_type() ||
      source.dimensions() != *dims) {
    return RuleError(
        instruction,
        absl::StrCat("source is ", ShapeText(source),
                     ", expected the windowed operand shape ",
                     ShapeText(Shape::Array(operand.element_type(), *dims))),
        section);
  }
  for (absl::string_view name : {"select", "scatter"}) {
    absl::StatusOr<const Computation*> computation =
        RequiredComputationAttr(instruction, name, section);
    if (!computation.ok()) return computation.status();
    const Shape result =
        name == "select" ? Shape::Scalar(ElementType::kPred) : element;
    absl::Status ok = CheckSignature(instruction, name, **computation,
                                     {element, element}, result, section);
    if (!ok.ok()) return ok;
  }
  Shape result = operand;
  result.clear_layout();
  result.SetDefaultLayoutIfMissing();
  return result;
}

// Operands that must share dimensions (sort, scan inputs); returns them.
absl::StatusOr<std::vector<const Shape*>> SameDimsOperands(
    const Instruction& instruction, int64_t count, absl::string_view section) {
  std::vector<const Shape*> shapes;
  for (int64_t i = 0; i < count; ++i) {
    absl::StatusOr<const Shape*> shape = ArrayOperand(instruction, i, section);
    if (!shape.ok()) return shape.status();
    if ((*shape)->dimensions() !=
        instruction.operand(0)->shape().dimensions()) {
      return RuleError(instruction,
                       absl::StrCat("operand ", i, " is ", ShapeText(**shape),
                                    ", expected the dimensions of operand 0 ",
                                    ShapeText(instruction.operand(0)->shape())),
                       section);
    }
    shapes.push_back(*shape);
  }
  return shapes;
}

// The single dimension of dimensions={d} (sort, scan), checked against rank.
absl::StatusOr<int64_t> SingleDimension(const Instruction& instruction,
                                        int64_t rank,
                                        absl::string_view section) {
  return SingleDimensionAttr(instruction, {rank}, section);
}

// Each shape with its default layout.
Shape WithDefaultLayout(const Shape& shape) {
  Shape copy = shape;
  copy.clear_layout();
  copy.SetDefaultLayoutIfMissing();
  return copy;
}

absl::StatusOr<Shape> SortShape(const Instruction& instruction,
                                ShapeForm /*form*/) {
  absl::StatusOr<std::vector<const Shape*>> operands =
      SameDimsOperands(instruction, instruction.operand_count(), kSort);
  if (!operands.ok()) return operands.status();
  absl::StatusOr<int64_t> dim =
      SingleDimension(instruction, (*operands)[0]->rank(), kSort);
  if (!dim.ok()) return dim.status();
  absl::StatusOr<const Computation*> comparator =
      RequiredComputationAttr(instruction, attr::kToApply, kSort);
  if (!comparator.ok()) return comparator.status();
  std::vector<Shape> params;
  std::vector<Shape> results;
  for (const Shape* operand : *operands) {
    params.push_back(Shape::Scalar(operand->element_type()));
    params.push_back(Shape::Scalar(operand->element_type()));
    results.push_back(WithDefaultLayout(*operand));
  }
  absl::Status ok =
      CheckSignature(instruction, "to_apply", **comparator, params,
                     Shape::Scalar(ElementType::kPred), kSort);
  if (!ok.ok()) return ok;
  return SingleOrTuple(std::move(results));
}

absl::StatusOr<Shape> TopKShape(const Instruction& instruction,
                                ShapeForm /*form*/) {
  absl::StatusOr<const Shape*> operand = ArrayOperand(instruction, 0, kTopK);
  if (!operand.ok()) return operand.status();
  absl::StatusOr<int64_t> k = RequiredInt64Attr(instruction, attr::kK, kTopK);
  if (!k.ok()) return k.status();
  const Shape& shape = **operand;
  if (shape.rank() < 1) {
    return RuleError(instruction,
                     absl::StrCat("operand is ", ShapeText(shape),
                                  ", expected at least one dimension"),
                     kTopK);
  }
  if (IsComplexType(shape.element_type())) {
    // XLA's TopK compares with gt, which complex types lack.
    return RuleError(instruction,
                     absl::StrCat("topk of a complex type: complex numbers "
                                  "have no order (operand ",
                                  ShapeText(shape), ")"),
                     kTopK);
  }
  const int64_t last = shape.dimension(shape.rank() - 1);
  if (*k < 0 || (last >= 0 && *k > last)) {
    return RuleError(
        instruction,
        absl::StrCat("k=", *k, " must be in [0, size of the last dimension ",
                     last, "]"),
        kTopK);
  }
  if (instruction.attrs().Has(attr::kToApply)) {
    absl::StatusOr<const Computation*> comparator =
        RequiredComputationAttr(instruction, attr::kToApply, kTopK);
    if (!comparator.ok()) return comparator.status();
    const Shape element = Shape::Scalar(shape.element_type());
    absl::Status ok = CheckSignature(instruction, "to_apply", **comparator,
                                     {element, element},
                                     Shape::Scalar(ElementType::kPred), kTopK);
    if (!ok.ok()) return ok;
  }
  std::vector<int64_t> dims = shape.dimensions();
  std::vector<bool> dynamic = shape.dynamic_dimensions();
  dims.back() = *k;
  dynamic.back() = false;
  return Shape::Tuple({ArrayResult(shape.element_type(), dims, dynamic),
                       ArrayResult(ElementType::kS32, dims, dynamic)});
}

// `shape` with dimension `dim` removed (a scan input's per-step element).
Shape DropDimension(const Shape& shape, int64_t dim) {
  std::vector<int64_t> dims = shape.dimensions();
  std::vector<bool> dynamic = shape.dynamic_dimensions();
  dims.erase(dims.begin() + dim);
  dynamic.erase(dynamic.begin() + dim);
  return Shape::DynamicArray(shape.element_type(), dims, dynamic);
}

// `shape` (a scan step's output) with a dimension of `size` inserted at `dim`.
absl::StatusOr<Shape> InsertDimension(const Instruction& instruction,
                                      const Shape& shape, int64_t dim,
                                      int64_t size) {
  if (!shape.IsArray() || dim > shape.rank()) {
    return RuleError(instruction,
                     absl::StrCat("to_apply output ", ShapeText(shape),
                                  " cannot take the scan dimension ", dim),
                     kScan);
  }
  std::vector<int64_t> dims = shape.dimensions();
  std::vector<bool> dynamic = shape.dynamic_dimensions();
  dims.insert(dims.begin() + dim, size);
  dynamic.insert(dynamic.begin() + dim, false);
  return ArrayResult(shape.element_type(), dims, dynamic);
}

absl::StatusOr<Shape> ScanShape(const Instruction& instruction,
                                ShapeForm /*form*/) {
  const int64_t* carries_attr =
      instruction.attrs().Get<int64_t>(attr::kNumCarries);
  const int64_t carries = carries_attr == nullptr ? 0 : *carries_attr;
  const int64_t inputs = instruction.operand_count() - carries;
  if (carries < 0 || inputs < 1) {
    return RuleError(instruction,
                     absl::StrCat("num_carries=", carries, " with ",
                                  instruction.operand_count(),
                                  " operands leaves no input to scan"),
                     kScan);
  }
  absl::StatusOr<std::vector<const Shape*>> input_shapes =
      SameDimsOperands(instruction, inputs, kScan);
  if (!input_shapes.ok()) return input_shapes.status();
  const Shape& first = *(*input_shapes)[0];
  absl::StatusOr<int64_t> dim =
      SingleDimension(instruction, first.rank(), kScan);
  if (!dim.ok()) return dim.status();
  absl::StatusOr<const Computation*> body =
      RequiredComputationAttr(instruction, attr::kToApply, kScan);
  if (!body.ok()) return body.status();
  std::vector<Shape> params;
  for (const Shape* input : *input_shapes) {
    params.push_back(DropDimension(*input, *dim));
  }
  std::vector<Shape> init_shapes;
  for (int64_t i = inputs; i < instruction.operand_count(); ++i) {
    init_shapes.push_back(instruction.operand(i)->shape());
    params.push_back(init_shapes.back());
  }
  const Shape& root = (*body)->root()->shape();
  const int64_t outputs = root.IsTuple() ? root.tuple_size() - carries : -1;
  if (outputs < 0) {
    return RuleError(instruction,
                     absl::StrCat("to_apply returns ", ShapeText(root),
                                  ", expected a tuple of outputs then ",
                                  carries, " carries"),
                     kScan);
  }
  std::vector<Shape> returns(root.tuple_shapes().begin(),
                             root.tuple_shapes().begin() + outputs);
  returns.insert(returns.end(), init_shapes.begin(), init_shapes.end());
  absl::Status ok = CheckSignature(instruction, "to_apply", **body, params,
                                   Shape::Tuple(returns), kScan);
  if (!ok.ok()) return ok;
  std::vector<Shape> results;
  for (int64_t j = 0; j < outputs; ++j) {
    absl::StatusOr<Shape> output =
        InsertDimension(instruction, returns[j], *dim, first.dimension(*dim));
    if (!output.ok()) return output.status();
    results.push_back(*std::move(output));
  }
  for (const Shape& init : init_shapes) {
    results.push_back(WithDefaultLayout(init));
  }
  return Shape::Tuple(std::move(results));
}

}  // namespace

void RegisterReductionSchemas(SchemaTable* table) {
  // Operands: inputs then init values (an even count).
  Define(table, Opcode::kReduce, 2, kVariadic,
         {Required("dimensions", AttrKind::kInt64List),
          Required("to_apply", AttrKind::kComputation)});
  Define(table, Opcode::kReduceWindow, 2, kVariadic,
         {Optional("window", AttrKind::kWindow),
          Required("to_apply", AttrKind::kComputation)});
  Define(table, Opcode::kSelectAndScatter, 3, 3,
         {Optional("window", AttrKind::kWindow),
          Required("select", AttrKind::kComputation),
          Required("scatter", AttrKind::kComputation)});
  Define(table, Opcode::kSort, 1, kVariadic,
         {Required("dimensions", AttrKind::kInt64List),
          Optional("is_stable", AttrKind::kBool),
          Required("to_apply", AttrKind::kComputation)});
  // Newer XLA gives topk an optional comparator computation.
  Define(table, Opcode::kTopK, 1, 1,
         {Required("k", AttrKind::kInt64), Optional("largest", AttrKind::kBool),
          Optional("is_stable", AttrKind::kBool),
          Optional("to_apply", AttrKind::kComputation)});
  // XLA prints scan(inputs..., inits...), dimensions={d}, num_carries=k,
  // is_reverse=, is_associative=, to_apply=. The spec's scan_dimension is
  // XLA's dimensions={d}.
  Define(table, Opcode::kScan, 1, kVariadic,
         {Required("dimensions", AttrKind::kInt64List),
          Optional("num_carries", AttrKind::kInt64),
          Optional("is_reverse", AttrKind::kBool),
          Optional("is_associative", AttrKind::kBool),
          Required("to_apply", AttrKind::kComputation)});
  SetShapeRule(table, Opcode::kReduce, ReduceShape);
  SetShapeRule(table, Opcode::kReduceWindow, ReduceWindowShape);
  SetShapeRule(table, Opcode::kSelectAndScatter, SelectAndScatterShape);
  SetShapeRule(table, Opcode::kSort, SortShape);
  SetShapeRule(table, Opcode::kTopK, TopKShape);
  SetShapeRule(table, Opcode::kScan, ScanShape);
}

}  // namespace ops_internal
}  // namespace kiln
