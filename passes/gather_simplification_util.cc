#include "passes/gather_simplification_util.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/element_type.h"
#include "compiler/ir/module.h"
#include "compiler/ops/shape_inference.h"
#include "compiler/util/int_lists.h"

namespace kiln {
namespace gather_scatter {
namespace {

Dims ListOrEmpty(const Instruction& instruction, absl::string_view name) {
  const Dims* list = instruction.attrs().Get<Dims>(name);
  return list == nullptr ? Dims() : *list;
}

IndexedDims ReadDims(const Instruction& instruction, absl::string_view window,
                     absl::string_view collapsed,
                     absl::string_view operand_batching,
                     absl::string_view index_batching,
                     absl::string_view index_map) {
  IndexedDims dims;
  dims.window = ListOrEmpty(instruction, window);
  dims.collapsed = ListOrEmpty(instruction, collapsed);
  dims.operand_batching = ListOrEmpty(instruction, operand_batching);
  dims.index_batching = ListOrEmpty(instruction, index_batching);
  dims.index_map = ListOrEmpty(instruction, index_map);
  const int64_t* ivd = instruction.attrs().Get<int64_t>(attr::kIndexVectorDim);
  dims.index_vector_dim = ivd == nullptr ? 0 : *ivd;
  return dims;
}

void WriteDims(const IndexedDims& dims, absl::string_view window,
               absl::string_view collapsed, absl::string_view operand_batching,
               absl::string_view index_batching, absl::string_view index_map,
               Instruction* instruction) {
  AttributeMap* attrs = instruction->mutable_attrs();
  attrs->Set(window, dims.window);
  attrs->Set(collapsed, dims.collapsed);
  attrs->Set(index_map, dims.index_map);
  attrs->Erase(operand_batching);
  attrs->Erase(index_batching);
  if (!dims.operand_batching.empty()) {
    attrs->Set(operand_batching, dims.operand_batching);
    attrs->Set(index_batching, dims.index_batching);
  }
  attrs->Set(attr::kIndexVectorDim, dims.index_vector_dim);
}

// Parsed modules carry layouts on every array; IR built in code may not.
bool HasAnyLayout(const Shape& shape) {
  if (shape.IsTuple()) {
    for (const Shape& element : shape.tuple_shapes()) {
      if (HasAnyLayout(element)) return true;
    }
    return false;
  }
  return shape.has_layout();
}

bool ShapeIsStatic(const Shape& shape) {
  return !shape.IsArray() && !shape.IsTuple() ? true : shape.is_static();
}

}  // namespace

IndexedDims ReadGatherDims(const Instruction& gather) {
  return ReadDims(gather, attr::kOffsetDims, "collapsed_slice_dims",
                  "operand_batching_dims", "start_indices_batching_dims",
                  "start_index_map");
}

IndexedDims ReadScatterDims(const Instruction& scatter) {
  return ReadDims(scatter, attr::kUpdateWindowDims, "inserted_window_dims",
                  "input_batching_dims", "scatter_indices_batching_dims",
                  "scatter_dims_to_operand_dims");
}

void WriteGatherDims(const IndexedDims& dims, Instruction* gather) {
  WriteDims(dims, attr::kOffsetDims, "collapsed_slice_dims",
            "operand_batching_dims", "start_indices_batching_dims",
            "start_index_map", gather);
}

void WriteScatterDims(const IndexedDims& dims, Instruction* scatter) {
  WriteDims(dims, attr::kUpdateWindowDims, "inserted_window_dims",
            "input_batching_dims", "scatter_indices_batching_dims",
            "scatter_dims_to_operand_dims", scatter);
}

Dims WindowOperandDims(const IndexedDims& dims, int64_t operand_rank) {
  Dims result;
  for (int64_t d = 0; d < operand_rank; ++d) {
    if (!util::Contains(dims.collapsed, d) &&
        !util::Contains(dims.operand_batching, d)) {
      result.push_back(d);
    }
  }
  return result;
}

Dims IndexBatchDims(const IndexedDims& dims, int64_t indices_rank) {
  Dims result;
  for (int64_t d = 0; d < indices_rank; ++d) {
    if (d != dims.index_vector_dim) result.push_back(d);
  }
  return result;
}

Dims IndexBatchSizes(const IndexedDims& dims, const Shape& indices) {
  Dims sizes;
  for (int64_t d : IndexBatchDims(dims, indices.rank())) {
    sizes.push_back(indices.dimension(d));
  }
  return sizes;
}

bool AllStatic(const Instruction& instruction) {
  if (!ShapeIsStatic(instruction.shape())) return false;
  for (const Instruction* operand : instruction.operands()) {
    if (!ShapeIsStatic(operand->shape())) return false;
  }
  return true;
}

uint64_t IntegerMax(ElementType type) {
  const int bits = BitWidth(type);
  const int value_bits = IsSignedIntType(type) ? bits - 1 : bits;
  if (value_bits >= 64) return std::numeric_limits<uint64_t>::max();
  return (uint64_t{1} << value_bits) - 1;
}

int64_t ScatterArity(const Instruction& scatter) {
  return (scatter.operand_count() - 1) / 2;
}

bool IsOverwrite(const Computation& combiner, int64_t arity) {
  const Instruction* root = combiner.root();
  if (root == nullptr) return false;
  auto is_update = [&](const Instruction* value, int64_t j) {
    return value->opcode() == Opcode::kParameter &&
           value->parameter_number() == arity + j;
  };
  if (arity == 1) return is_update(root, 0);
  if (root->opcode() != Opcode::kTuple || root->operand_count() != arity) {
    return false;
  }
  for (int64_t j = 0; j < arity; ++j) {
    if (!is_update(root->operand(j), j)) return false;
  }
  return true;
}

// --- Emitter ---

Emitter::Emitter(Computation* computation, const Instruction& origin,
                 const Instruction* before)
    : computation_(computation), origin_(origin), before_(before) {}

Instruction* Emitter::Add(std::unique_ptr<Instruction> instruction) {
  bool operands_ok = status_.ok();
  for (const Instruction* operand : instruction->operands()) {
    operands_ok &= operand != nullptr;
  }
  if (!operands_ok) {
    if (status_.ok()) {
      status_ = absl::InternalError(
          absl::StrCat(origin_.name(), ": an operand of a new ",
                       OpcodeName(instruction->opcode()), " is missing"));
    }
    instruction->DetachOperands();
    return nullptr;
  }
  if (instruction->opcode() != Opcode::kParameter &&
      instruction->opcode() != Opcode::kConstant) {
    absl::StatusOr<Shape> shape = InferShape(*instruction, ShapeForm::kStrict);
    if (!shape.ok()) {
      status_ = absl::InternalError(absl::StrCat(
          "while rewriting ", origin_.name(), ": ", shape.status().message()));
      instruction->DetachOperands();
      return nullptr;
    }
    instruction->set_shape(*std::move(shape));
  }
  if (HasAnyLayout(origin_.shape())) {
    instruction->mutable_shape()->SetDefaultLayoutIfMissing();
  } else {
    instruction->mutable_shape()->clear_layout();
  }
  instruction->metadata = origin_.metadata;
  instruction->location = origin_.location;
  if (before_ != nullptr) {
    return computation_->AddInstructionBefore(std::move(instruction), before_);
  }
  return computation_->AddInstruction(std::move(instruction));
}

Instruction* Emitter::New(Opcode opcode, std::vector<Instruction*> operands,
                          AttributeMap attributes, absl::string_view name) {
  auto instruction =
      std::make_unique<Instruction>(opcode, Shape(), std::string(name));
  for (Instruction* operand : operands) {
    if (operand == nullptr) {
      instruction->DetachOperands();
      if (status_.ok()) {
        status_ = absl::InternalError(absl::StrCat(
            origin_.name(), ": an operand of a new ", name, " is missing"));
      }
      return nullptr;
    }
    instruction->AppendOperand(operand);
  }
  *instruction->mutable_attrs() = std::move(attributes);
  return Add(std::move(instruction));
}

Instruction* Emitter::Parameter(int64_t number, const Shape& shape,
                                absl::string_view name) {
  if (!status_.ok()) return nullptr;
  auto parameter = std::make_unique<Instruction>(Opcode::kParameter, shape,
                                                 std::string(name));
  parameter->set_parameter_number(number);
  parameter->metadata = origin_.metadata;
  return computation_->AddParameter(std::move(parameter));
}

Instruction* Emitter::Constant(Literal literal) {
  if (!status_.ok()) return nullptr;
  Shape shape = literal.shape();
  auto constant = std::make_unique<Instruction>(Opcode::kConstant,
                                                std::move(shape), "constant");
  constant->set_literal(std::move(literal));
  return Add(std::move(constant));
}

Instruction* Emitter::ScalarConstant(ElementType type, int64_t value) {
  Instruction*& cached = scalar_constants_[{type, value}];
  if (cached != nullptr) return cached;
  absl::StatusOr<Literal> literal = Literal::Create(Shape::Scalar(type));
  if (!literal.ok()) {
    if (status_.ok()) status_ = literal.status();
    return nullptr;
  }
  literal->SetInt64(0, value);
  cached = Constant(*std::move(literal));
  return cached;
}

Instruction* Emitter::MaxConstant(ElementType type) {
  absl::StatusOr<Literal> literal = Literal::Create(Shape::Scalar(type));
  if (!literal.ok()) {
    if (status_.ok()) status_ = literal.status();
    return nullptr;
  }
  literal->SetUint64(0, IntegerMax(type));
  return Constant(*std::move(literal));
}

Instruction* Emitter::Zeros(ElementType type, const Dims& dims) {
  absl::StatusOr<Literal> zero = Literal::Create(Shape::Scalar(type));
  if (!zero.ok()) {
    if (status_.ok()) status_ = zero.status();
    return nullptr;
  }
  Instruction* scalar = Constant(*std::move(zero));
  if (dims.empty()) return scalar;
  return Broadcast(scalar, dims, {});
}

Instruction* Emitter::Reshape(Instruction* operand, const Dims& dims) {
  if (operand == nullptr) return New(Opcode::kReshape, {nullptr}, {}, "");
  if (operand->shape().dimensions() == dims) return operand;
  if (util::Product(dims) == 0) {
    // An empty array has no values to move: a broadcast zero is the same
    // value, and keeps the evaluator's reshape from memcpy-ing the null
    // data of an empty literal (which UBSan reports).
    return Zeros(operand->shape().element_type(), dims);
  }
  auto reshape = std::make_unique<Instruction>(
      Opcode::kReshape, Shape::Array(operand->shape().element_type(), dims),
      "reshape");
  reshape->AppendOperand(operand);
  // Reshape's result comes from its declared shape, which the rule checks.
  return Add(std::move(reshape));
}

Instruction* Emitter::Transpose(Instruction* operand, const Dims& permutation) {
  if (util::IsIdentityPermutation(permutation)) return operand;
  if (operand != nullptr && util::Product(operand->shape().dimensions()) == 0) {
    Dims dims;
    for (int64_t d : permutation) dims.push_back(operand->shape().dimension(d));
    return Zeros(operand->shape().element_type(), dims);
  }
  if (operand != nullptr) {
    // Moving only size-1 dims keeps the element order: a reshape.
    const Shape& shape = operand->shape();
    Dims moved;
    int64_t last = -1;
    bool keeps_order = true;
    for (int64_t d : permutation) {
      moved.push_back(shape.dimension(d));
      if (shape.dimension(d) == 1) continue;
      keeps_order &= d > last;
      last = d;
    }
    if (keeps_order) return Reshape(operand, moved);
  }
  AttributeMap attrs;
  attrs.Set(attr::kDimensions, permutation);
  return New(Opcode::kTranspose, {operand}, std::move(attrs), "transpose");
}

Instruction* Emitter::Broadcast(Instruction* operand, const Dims& result_dims,
                                const Dims& dimensions) {
  if (operand == nullptr) return New(Opcode::kBroadcast, {nullptr}, {}, "");
  auto broadcast = std::make_unique<Instruction>(
      Opcode::kBroadcast,
      Shape::Array(operand->shape().element_type(), result_dims), "broadcast");
  broadcast->AppendOperand(operand);
  broadcast->mutable_attrs()->Set(attr::kDimensions, dimensions);
  return Add(std::move(broadcast));
}

Instruction* Emitter::Slice(Instruction* operand, const Dims& starts,
                            const Dims& limits) {
  if (operand != nullptr && starts == Dims(starts.size(), 0) &&
      limits == operand->shape().dimensions()) {
    return operand;
  }
  SliceRanges ranges;
  for (size_t i = 0; i < starts.size(); ++i) {
    ranges.ranges.push_back(SliceRange{starts[i], limits[i], 1});
  }
  AttributeMap attrs;
  attrs.Set(attr::kSlice, std::move(ranges));
  return New(Opcode::kSlice, {operand}, std::move(attrs), "slice");
}

Instruction* Emitter::Convert(Instruction* operand, ElementType type) {
  if (operand == nullptr) return New(Opcode::kConvert, {nullptr}, {}, "");
  if (operand->shape().element_type() == type) return operand;
  auto convert = std::make_unique<Instruction>(
      Opcode::kConvert, Shape::Array(type, operand->shape().dimensions()),
      "convert");
  convert->AppendOperand(operand);
  return Add(std::move(convert));
}

Instruction* Emitter::Concatenate(std::vector<Instruction*> operands,
                                  int64_t dimension) {
  if (operands.size() == 1) return operands[0];
  AttributeMap attrs;
  attrs.Set(attr::kDimensions, Dims{dimension});
  return New(Opcode::kConcatenate, std::move(operands), std::move(attrs),
             "concatenate");
}

Instruction* Emitter::Iota(ElementType type, const Dims& dims,
                           int64_t dimension) {
  if (!status_.ok()) return nullptr;
  auto iota = std::make_unique<Instruction>(Opcode::kIota,
                                            Shape::Array(type, dims), "iota");
  iota->mutable_attrs()->Set(attr::kIotaDimension, dimension);
  return Add(std::move(iota));
}

Instruction* Emitter::Binary(Opcode opcode, Instruction* lhs,
                             Instruction* rhs) {
  return New(opcode, {lhs, rhs}, {}, OpcodeName(opcode));
}

Instruction* Emitter::Compare(Instruction* lhs, Instruction* rhs,
                              absl::string_view direction) {
  AttributeMap attrs;
  attrs.Set(attr::kDirection, EnumValue{std::string(direction)});
  return New(Opcode::kCompare, {lhs, rhs}, std::move(attrs), "compare");
}

Instruction* Emitter::Select(Instruction* predicate, Instruction* on_true,
                             Instruction* on_false) {
  return New(Opcode::kSelect, {predicate, on_true, on_false}, {}, "select");
}

Instruction* Emitter::DynamicSlice(Instruction* operand,
                                   const std::vector<Instruction*>& starts,
                                   const Dims& sizes) {
  std::vector<Instruction*> operands = {operand};
  operands.insert(operands.end(), starts.begin(), starts.end());
  AttributeMap attrs;
  attrs.Set(attr::kDynamicSliceSizes, sizes);
  return New(Opcode::kDynamicSlice, std::move(operands), std::move(attrs),
             "dynamic-slice");
}

Instruction* Emitter::DynamicUpdateSlice(
    Instruction* operand, Instruction* update,
    const std::vector<Instruction*>& starts) {
  std::vector<Instruction*> operands = {operand, update};
  operands.insert(operands.end(), starts.begin(), starts.end());
  return New(Opcode::kDynamicUpdateSlice, std::move(operands), {},
             "dynamic-update-slice");
}

Instruction* Emitter::Tuple(std::vector<Instruction*> elements) {
  return New(Opcode::kTuple, std::move(elements), {}, "tuple");
}

Instruction* Emitter::GetTupleElement(Instruction* tuple, int64_t index) {
  AttributeMap attrs;
  attrs.Set(attr::kIndex, index);
  return New(Opcode::kGetTupleElement, {tuple}, std::move(attrs),
             "get-tuple-element");
}

Instruction* Emitter::Map(std::vector<Instruction*> operands,
                          Computation* to_apply) {
  AttributeMap attrs;
  if (!operands.empty() && operands[0] != nullptr) {
    Dims all(operands[0]->shape().rank());
    for (size_t d = 0; d < all.size(); ++d) all[d] = d;
    attrs.Set(attr::kDimensions, std::move(all));
  }
  attrs.Set(attr::kToApply, to_apply);
  return New(Opcode::kMap, std::move(operands), std::move(attrs), "map");
}

Instruction* Emitter::Call(std::vector<Instruction*> operands,
                           Computation* to_apply) {
  AttributeMap attrs;
  attrs.Set(attr::kToApply, to_apply);
  return New(Opcode::kCall, std::move(operands), std::move(attrs), "call");
}

Instruction* Emitter::While(Instruction* init, Computation* condition,
                            Computation* body) {
  AttributeMap attrs;
  attrs.Set(attr::kCondition, condition);
  attrs.Set(attr::kBody, body);
  return New(Opcode::kWhile, {init}, std::move(attrs), "while");
}

Instruction* Emitter::Element(Instruction* vector, int64_t index) {
  if (vector == nullptr) return Reshape(nullptr, {});
  if (vector->shape().rank() == 1 && vector->shape().dimension(0) > 1) {
    vector = Slice(vector, {index}, {index + 1});
  }
  return Reshape(vector, {});
}

Instruction* Emitter::IndicesAsS64(Instruction* indices) {
  if (indices == nullptr) return Convert(nullptr, ElementType::kS64);
  const ElementType type = indices->shape().element_type();
  if (type == ElementType::kU64) {
    Instruction* cap =
        ScalarConstant(ElementType::kU64, std::numeric_limits<int64_t>::max());
    Instruction* caps = Broadcast(cap, indices->shape().dimensions(), {});
    indices = Binary(Opcode::kMinimum, indices, caps);
  }
  return Convert(indices, ElementType::kS64);
}

// --- Index vectors ---

Instruction* IndexVectorLast(Emitter& emitter, Instruction* indices,
                             int64_t index_vector_dim) {
  const Shape& shape = indices->shape();
  if (index_vector_dim == shape.rank()) {
    Dims dims = shape.dimensions();
    dims.push_back(1);
    return emitter.Reshape(indices, dims);
  }
  Dims permutation;
  for (int64_t d = 0; d < shape.rank(); ++d) {
    if (d != index_vector_dim) permutation.push_back(d);
  }
  permutation.push_back(index_vector_dim);
  return emitter.Transpose(indices, permutation);
}

Instruction* MakeBatchingExplicit(Emitter& emitter, Instruction* indices,
                                  IndexedDims* dims) {
  const Dims batch_dims = IndexBatchDims(*dims, indices->shape().rank());
  const bool empty_vectors = dims->index_map.empty();
  Instruction* vectors = nullptr;
  if (empty_vectors) {
    // Nothing to read: an empty array of the right shape (Reshape makes
    // it without moving the empty indices).
    Dims shape = IndexBatchSizes(*dims, indices->shape());
    shape.push_back(0);
    vectors = emitter.Zeros(indices->shape().element_type(), shape);
  } else {
    vectors = IndexVectorLast(emitter, indices, dims->index_vector_dim);
  }
  if (vectors == nullptr) return nullptr;
  Dims sizes = vectors->shape().dimensions();
  const int64_t last = static_cast<int64_t>(sizes.size()) - 1;
  dims->index_vector_dim = last;
  if (dims->operand_batching.empty()) return vectors;
  int64_t largest = 0;
  for (int64_t d : dims->index_batching) {
    largest = std::max(largest, indices->shape().dimension(d) - 1);
  }
  ElementType type = vectors->shape().element_type();
  if (static_cast<uint64_t>(largest) > IntegerMax(type)) {
    type = ElementType::kS64;
    vectors = emitter.Convert(vectors, type);
  }
  std::vector<Instruction*> parts;
  if (!empty_vectors) parts.push_back(vectors);
  sizes[last] = 1;
  for (size_t i = 0; i < dims->operand_batching.size(); ++i) {
    const int64_t position = std::find(batch_dims.begin(), batch_dims.end(),
                                       dims->index_batching[i]) -
                             batch_dims.begin();
    parts.push_back(emitter.Iota(type, sizes, position));
    dims->index_map.push_back(dims->operand_batching[i]);
    dims->collapsed.push_back(dims->operand_batching[i]);
  }
  std::sort(dims->collapsed.begin(), dims->collapsed.end());
  dims->operand_batching.clear();
  dims->index_batching.clear();
  return emitter.Concatenate(std::move(parts), last);
}

// --- Loops and combiners ---

LoopState UnpackLoopState(Emitter& emitter, const Shape& state_shape) {
  LoopState state;
  state.parameter = emitter.Parameter(0, state_shape, "state");
  for (int64_t i = 0; i < state_shape.tuple_size(); ++i) {
    state.elements.push_back(emitter.GetTupleElement(state.parameter, i));
  }
  return state;
}

absl::StatusOr<Computation*> AddCounterCondition(Computation* caller,
                                                 const Instruction& origin,
                                                 const Shape& state_shape,
                                                 int64_t trip_count) {
  Module* module = caller->parent();
  Computation* condition = module->AddComputation(
      std::make_unique<Computation>(absl::StrCat(origin.name(), ".condition")));
  Emitter emitter(condition, origin, nullptr);
  Instruction* state = emitter.Parameter(0, state_shape, "state");
  Instruction* counter = emitter.GetTupleElement(state, 0);
  Instruction* limit = emitter.ScalarConstant(ElementType::kS64, trip_count);
  condition->set_root(emitter.Compare(counter, limit, "LT"));
  if (!emitter.status().ok()) return emitter.status();
  return condition;
}

Instruction* BatchCoordinate(Emitter& emitter, Instruction* linear,
                             const Dims& sizes, int64_t position) {
  int64_t stride = 1;
  for (size_t k = position + 1; k < sizes.size(); ++k) stride *= sizes[k];
  Instruction* coordinate = linear;
  if (stride != 1) {
    coordinate =
        emitter.Binary(Opcode::kDivide, coordinate,
                       emitter.ScalarConstant(ElementType::kS64, stride));
  }
  if (position > 0) {
    coordinate = emitter.Binary(
        Opcode::kRemainder, coordinate,
        emitter.ScalarConstant(ElementType::kS64, sizes[position]));
  }
  return coordinate;
}

absl::StatusOr<std::vector<Computation*>> PerOutputCombiners(
    Computation* combiner, int64_t arity, const Instruction& origin) {
  if (arity == 1) return std::vector<Computation*>{combiner};
  std::vector<Computation*> result;
  Module* module = combiner->parent();
  for (int64_t j = 0; j < arity; ++j) {
    Computation* wrapper = module->AddComputation(std::make_unique<Computation>(
        absl::StrCat(combiner->name(), ".output", j)));
    Emitter emitter(wrapper, origin, nullptr);
    std::vector<Instruction*> parameters;
    for (int64_t p = 0; p < 2 * arity; ++p) {
      parameters.push_back(emitter.Parameter(p, combiner->parameter(p)->shape(),
                                             absl::StrCat("p", p)));
    }
    Instruction* call = emitter.Call(parameters, combiner);
    wrapper->set_root(emitter.GetTupleElement(call, j));
    if (!emitter.status().ok()) return emitter.status();
    result.push_back(wrapper);
  }
  return result;
}

Instruction* FlatIndexVectorsS64(Emitter& emitter, Instruction* indices,
                                 const IndexedDims& dims) {
  const int64_t vector_size = dims.index_map.size();
  if (vector_size == 0) return nullptr;
  const int64_t count = util::Product(IndexBatchSizes(dims, indices->shape()));
  Instruction* vectors =
      IndexVectorLast(emitter, indices, dims.index_vector_dim);
  return emitter.Reshape(emitter.IndicesAsS64(vectors), {count, vector_size});
}

std::vector<Instruction*> LoopStarts(Emitter& emitter, Instruction* counter,
                                     Instruction* vectors,
                                     const IndexedDims& dims,
                                     const Dims& batch_sizes,
                                     int64_t indices_rank,
                                     int64_t operand_rank) {
  Instruction* zero = emitter.ScalarConstant(ElementType::kS64, 0);
  Instruction* row = nullptr;
  if (vectors != nullptr) {
    const int64_t vector_size = dims.index_map.size();
    // One entry reads as a scalar directly.
    row = emitter.Reshape(
        emitter.DynamicSlice(vectors, {counter, zero}, {1, vector_size}),
        vector_size == 1 ? Dims() : Dims{vector_size});
  }
  const Dims batch_dims = IndexBatchDims(dims, indices_rank);
  std::vector<Instruction*> starts(operand_rank, zero);
  for (size_t k = 0; k < dims.index_map.size(); ++k) {
    starts[dims.index_map[k]] = emitter.Element(row, k);
  }
  for (size_t j = 0; j < dims.operand_batching.size(); ++j) {
    const int64_t position = std::find(batch_dims.begin(), batch_dims.end(),
                                       dims.index_batching[j]) -
                             batch_dims.begin();
    starts[dims.operand_batching[j]] =
        BatchCoordinate(emitter, counter, batch_sizes, position);
  }
  return starts;
}

Dims ScatterWindowShape(const IndexedDims& dims, const Shape& operand,
                        const Shape& updates) {
  Dims window(operand.rank(), 1);
  const Dims window_operand = WindowOperandDims(dims, operand.rank());
  for (size_t k = 0; k < dims.window.size() && k < window_operand.size(); ++k) {
    window[window_operand[k]] = updates.dimension(dims.window[k]);
  }
  return window;
}

namespace {

Instruction* Conjoin(Emitter& emitter, Instruction* all, Instruction* check) {
  return all == nullptr ? check : emitter.Binary(Opcode::kAnd, all, check);
}

Instruction* S64(Emitter& emitter, int64_t value) {
  return emitter.ScalarConstant(ElementType::kS64, value);
}

// Window size 1 in dim d: the element lands iff 0 <= start < dim.
Instruction* SingleElementInBounds(Emitter& emitter, Instruction* start,
                                   int64_t dim) {
  const ElementType type = start->shape().element_type();
  Instruction* check = nullptr;
  if (IsSignedIntType(type)) {
    check = emitter.Compare(start, emitter.ScalarConstant(type, 0), "GE");
  }
  if (static_cast<uint64_t>(dim - 1) < IntegerMax(type)) {
    check = Conjoin(
        emitter, check,
        emitter.Compare(start, emitter.ScalarConstant(type, dim - 1), "LE"));
  }
  return check;
}

// Realigns dim d (see WindowPlacement): returns the pred[window] mask of
// that dim and sets `*update_start` to size + c - s'.
Instruction* RealignDim(Emitter& emitter, Instruction* start, int64_t d,
                        int64_t dim, const Dims& window,
                        Instruction** update_start) {
  const int64_t size = window[d];
  Instruction* s = emitter.IndicesAsS64(start);
  Instruction* kept =
      emitter.Binary(Opcode::kMinimum,
                     emitter.Binary(Opcode::kMaximum, s, S64(emitter, -size)),
                     S64(emitter, dim));
  Instruction* clamped = emitter.Binary(
      Opcode::kMaximum,
      emitter.Binary(Opcode::kMinimum, kept, S64(emitter, dim - size)),
      S64(emitter, 0));
  Instruction* shift = emitter.Binary(Opcode::kSubtract, clamped, kept);
  *update_start = emitter.Binary(Opcode::kAdd, shift, S64(emitter, size));
  Instruction* element =
      emitter.Binary(Opcode::kAdd, emitter.Iota(ElementType::kS64, window, d),
                     emitter.Broadcast(shift, window, {}));
  Instruction* low = emitter.Compare(
      element, emitter.Broadcast(S64(emitter, 0), window, {}), "GE");
  Instruction* high = emitter.Compare(
      element, emitter.Broadcast(S64(emitter, size), window, {}), "LT");
  return emitter.Binary(Opcode::kAnd, low, high);
}

}  // namespace

WindowPlacement PlaceWindow(Emitter& emitter,
                            const std::vector<Instruction*>& starts,
                            const IndexedDims& dims, const Shape& operand,
                            const Dims& window) {
  WindowPlacement placement;
  Instruction* scalar = nullptr;  // The size-1 dims' checks.
  Instruction* mask = nullptr;    // The realigned dims' masks.
  std::vector<Instruction*> update_starts(operand.rank(), nullptr);
  for (int64_t d : dims.index_map) {
    Instruction* start = starts[d];
    if (start == nullptr) {  // An earlier emitter error: keep it failing.
      placement.mask = emitter.Compare(nullptr, nullptr, "GE");
      return placement;
    }
    const ElementType type = start->shape().element_type();
    const int64_t limit = operand.dimension(d) - window[d];
    if (!IsSignedIntType(type) &&
        static_cast<uint64_t>(limit) >= IntegerMax(type)) {
      continue;  // Every value of the type fits.
    }
    if (window[d] == 1) {
      Instruction* check =
          SingleElementInBounds(emitter, start, operand.dimension(d));
      if (check != nullptr) scalar = Conjoin(emitter, scalar, check);
      continue;
    }
    mask = Conjoin(emitter, mask,
                   RealignDim(emitter, start, d, operand.dimension(d), window,
                              &update_starts[d]));
    placement.realigned.push_back(d);
  }
  if (scalar != nullptr) {
    mask = Conjoin(emitter, mask, emitter.Broadcast(scalar, window, {}));
  }
  placement.mask = mask;
  if (!placement.realigned.empty()) {
    for (Instruction*& start : update_starts) {
      if (start == nullptr) start = S64(emitter, 0);
    }
    placement.update_starts = std::move(update_starts);
  }
  return placement;
}

namespace {

// `update` (window-shaped) moved to the clamped window: concatenated three
// times along each realigned dim, then sliced at the placement's starts.
Instruction* Realign(Emitter& emitter, Instruction* update,
                     const WindowPlacement& placement) {
  if (update == nullptr || placement.realigned.empty()) return update;
  const Dims window = update->shape().dimensions();
  Instruction* tripled = update;
  for (int64_t d : placement.realigned) {
    tripled = emitter.Concatenate({tripled, tripled, tripled}, d);
  }
  return emitter.DynamicSlice(tripled, placement.update_starts, window);
}

}  // namespace

std::vector<Instruction*> ApplyUpdateWindow(
    Emitter& emitter, const std::vector<Instruction*>& operands,
    const std::vector<Instruction*>& updates,
    const std::vector<Instruction*>& starts, const WindowPlacement& placement,
    const std::vector<Computation*>& combiners, bool overwrite) {
  const size_t arity = operands.size();
  std::vector<Instruction*> realigned;
  for (Instruction* update : updates) {
    realigned.push_back(Realign(emitter, update, placement));
  }
  std::vector<Instruction*> current;
  if (!overwrite || placement.mask != nullptr) {
    for (size_t j = 0; j < arity; ++j) {
      current.push_back(emitter.DynamicSlice(
          operands[j], starts,
          updates[j] == nullptr ? Dims() : updates[j]->shape().dimensions()));
    }
  }
  std::vector<Instruction*> combined = realigned;
  if (!overwrite) {
    std::vector<Instruction*> arguments = current;
    arguments.insert(arguments.end(), realigned.begin(), realigned.end());
    for (size_t j = 0; j < arity; ++j) {
      combined[j] = emitter.Map(arguments, combiners[j]);
    }
  }
  std::vector<Instruction*> result;
  for (size_t j = 0; j < arity; ++j) {
    Instruction* window = combined[j];
    if (placement.mask != nullptr && window != nullptr) {
      window = emitter.Select(placement.mask, window, current[j]);
    }
    result.push_back(emitter.DynamicUpdateSlice(operands[j], window, starts));
  }
  return result;
}

Dims GatherResultPermutation(const IndexedDims& dims, int64_t result_rank) {
  const int64_t batch_count = result_rank - dims.window.size();
  Dims permutation;
  int64_t next_batch = 0;
  int64_t next_window = 0;
  for (int64_t o = 0; o < result_rank; ++o) {
    if (util::Contains(dims.window, o)) {
      permutation.push_back(batch_count + next_window++);
    } else {
      permutation.push_back(next_batch++);
    }
  }
  return permutation;
}

int64_t ConstantIndex(const Literal& literal, int64_t i) {
  if (IsUnsignedIntType(literal.element_type())) {
    const uint64_t value = literal.GetUint64(i);
    constexpr uint64_t kMax = std::numeric_limits<int64_t>::max();
    return value > kMax ? static_cast<int64_t>(kMax)
                        : static_cast<int64_t>(value);
  }
  return literal.GetInt64(i);
}

Instruction* SingleVectorEntry(Emitter& emitter, Instruction* indices,
                               int64_t k, int64_t vector_size) {
  if (vector_size == 1) return emitter.Reshape(indices, {});
  return emitter.Element(emitter.Reshape(indices, {vector_size}), k);
}

Instruction* WithShape(Emitter& emitter, Instruction* value,
                       const Shape& shape) {
  if (value == nullptr || value->shape() == shape) return value;
  auto copy = std::make_unique<Instruction>(Opcode::kCopy, shape, "copy");
  copy->AppendOperand(value);
  Instruction* added = emitter.Add(std::move(copy));
  if (added != nullptr) added->set_shape(shape);
  return added;
}

absl::Status ReplaceAndOrder(Instruction* old_instruction,
                             Instruction* replacement) {
  return old_instruction->parent()->ReplaceInstruction(old_instruction,
                                                       replacement);
}

}  // namespace gather_scatter
}  // namespace kiln
