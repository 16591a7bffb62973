// What the loop emitter lowers: the element types and ops a kernel
// handles (CheckEmittable), and the small helpers the emitter and its
// checks share (loop_emitter_ops.h).
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "backends/cpu/loop_emitter.h"
#include "backends/cpu/loop_emitter_ops.h"
#include "compiler/evaluator/indexing_dims.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/float_convert.h"
#include "compiler/ir/layout.h"
#include "compiler/ir/literal.h"
#include "compiler/ops/attr_enums.h"

namespace kiln::cpu {
namespace emitter_internal {

absl::Status NotEmittable(const Instruction& instruction,
                          absl::string_view why) {
  return absl::UnimplementedError(absl::StrCat(
      instruction.name(), " (", OpcodeName(instruction.opcode()), "): ", why));
}

bool IsNarrowFloat(ElementType type) {
  return IsFloatType(type) && type != ElementType::kF32 &&
         type != ElementType::kF64;
}

bool IsSubByteInteger(ElementType type) {
  return IsIntegralType(type) && BitWidth(type) < 8;
}

// Arrays a kernel handles: static, of a native type, a narrow float
// (stored as bits, computed in float) or a sub-byte integer (stored in a
// byte, computed in 8 bits).
bool IsNativeArray(const Shape& shape) {
  const ElementType type = shape.element_type();
  return shape.IsArray() && shape.is_static() &&
         (NativeCType(type).has_value() || IsNarrowFloat(type) ||
          IsSubByteInteger(type) || IsComplexType(type));
}

std::string FloatFormat(ElementType type) {
  const kiln_float::Format f = FloatFormatOf(type);
  auto flag = [](bool value) { return value ? "true" : "false"; };
  return absl::StrCat("kiln_float::Format{", f.exponent_bits, ", ",
                      f.mantissa_bits, ", ", f.exponent_bias, ", ",
                      static_cast<int>(f.encoding), ", ", flag(f.is_signed),
                      ", ", flag(f.has_nan), ", ", flag(f.has_negative_zero),
                      "}");
}

namespace {

bool IsHalf(ElementType type) {
  return type == ElementType::kBF16 || type == ElementType::kF16;
}
bool IsSigned(ElementType type) {
  return GetElementTypeInfo(type).kind == TypeKind::kSigned;
}
// A sub-byte integer wrapped to its width.
std::string Wrap(ElementType type, const std::string& value) {
  return absl::StrCat(
      "kiln_cpu::", IsSigned(type) ? "WrapSigned<" : "WrapUnsigned<",
      BitWidth(type), ">(", value, ")");
}

}  // namespace

std::string ComputeType(ElementType type) {
  if (type == ElementType::kC64) return "std::complex<float>";
  if (type == ElementType::kC128) return "std::complex<double>";
  if (IsNarrowFloat(type)) return "float";
  if (IsSubByteInteger(type)) return IsSigned(type) ? "int8_t" : "uint8_t";
  return *NativeCType(type);
}
std::string TotalOrderKeyFunction(ElementType type) {
  // Kernels hold narrow floats as float, where the one NaN of an fnuz type
  // is an ordinary NaN; its own bits (those of -0) sit just below +0.
  return GetElementTypeInfo(type).encoding == FloatEncoding::kFiniteUnsignedZero
             ? "kiln_cpu::FnuzTotalOrderKey"
             : "kiln_cpu::TotalOrderKey";
}

std::string StorageType(ElementType type) {
  if (IsComplexType(type)) return ComputeType(type);  // Same layout.
  if (IsHalf(type)) return "uint16_t";
  if (IsNarrowFloat(type) || IsSubByteInteger(type)) return "uint8_t";
  return *NativeCType(type);
}
// An element read from storage, as its compute type.
std::string Load(ElementType type, const std::string& element) {
  if (type == ElementType::kBF16) {
    return absl::StrCat("kiln_cpu::BF16ToF32(", element, ")");
  }
  if (type == ElementType::kF16) {
    return absl::StrCat("kiln_cpu::F16ToF32(", element, ")");
  }
  if (IsNarrowFloat(type)) {
    return absl::StrCat("kiln_cpu::NarrowToF32(", FloatFormat(type), ", ",
                        element, ")");
  }
  if (IsSubByteInteger(type)) return Wrap(type, element);
  return element;
}
// A computed value as stored.
std::string Store(ElementType type, const std::string& value) {
  if (type == ElementType::kBF16) {
    return absl::StrCat("kiln_cpu::F32ToBF16(", value, ")");
  }
  if (type == ElementType::kF16) {
    return absl::StrCat("kiln_cpu::F32ToF16(", value, ")");
  }
  if (IsNarrowFloat(type)) {
    return absl::StrCat("kiln_cpu::F32ToNarrow(", FloatFormat(type), ", ",
                        value, ")");
  }
  if (IsSubByteInteger(type)) {
    return absl::StrCat("kiln_cpu::WrapUnsigned<", BitWidth(type), ">(", value,
                        ")");
  }
  return value;
}
// A computed value rounded to its type (the evaluator rounds every op).
std::string Round(ElementType type, const std::string& value) {
  if (type == ElementType::kBF16) {
    return absl::StrCat("kiln_cpu::RoundBF16(", value, ")");
  }
  if (type == ElementType::kF16) {
    return absl::StrCat("kiln_cpu::RoundF16(", value, ")");
  }
  if (IsNarrowFloat(type)) {
    return absl::StrCat("kiln_cpu::RoundNarrow(", FloatFormat(type), ", ",
                        value, ")");
  }
  if (IsSubByteInteger(type)) return Wrap(type, value);
  return value;
}

const std::vector<int64_t>* Int64s(const Instruction& instruction,
                                   absl::string_view name) {
  return instruction.attrs().Get<Int64List>(name);
}

// A layout of dimension order only (no tiles, sub-byte packing or memory
// space), or none (the default).
bool HasPlainLayout(const Shape& shape) {
  return !shape.has_layout() || shape.layout().HasOnlyMinorToMajor();
}

std::vector<int64_t> MinorToMajor(const Shape& shape) {
  if (shape.has_layout() &&
      static_cast<int64_t>(shape.layout().minor_to_major().size()) ==
          shape.rank()) {
    return shape.layout().minor_to_major();
  }
  return Layout::Default(shape.rank()).minor_to_major();
}

// Ops whose only job is to map an output index to operand indices (or to
// compute from the index itself), with the attributes they need.
bool IsIndexOp(const Instruction& instruction) {
  switch (instruction.opcode()) {
    case Opcode::kBroadcast:
      return Int64s(instruction, attr::kDimensions) != nullptr;
    case Opcode::kTranspose:
    case Opcode::kReverse:
      return Int64s(instruction, attr::kDimensions) != nullptr;
    case Opcode::kConcatenate: {
      const auto* dims = Int64s(instruction, attr::kDimensions);
      return dims != nullptr && dims->size() == 1;
    }
    case Opcode::kSlice:
      return instruction.attrs().Get<SliceRanges>(attr::kSlice) != nullptr;
    case Opcode::kPad:
      return instruction.attrs().Get<PaddingConfig>(attr::kPadding) != nullptr;
    case Opcode::kIota:
      return instruction.attrs().Get<int64_t>(attr::kIotaDimension) != nullptr;
    case Opcode::kGather: {
      // The evaluator's own reading of the dimension numbers decides.
      const auto* sizes = Int64s(instruction, attr::kSliceSizes);
      if (sizes == nullptr || instruction.operand_count() != 2 ||
          static_cast<int64_t>(sizes->size()) !=
              instruction.operand(0)->shape().rank()) {
        return false;
      }
      return eval::ReadIndexedDims(instruction, eval::kGatherDimNames,
                                   instruction.operand(0)->shape(),
                                   instruction.operand(1)->shape(),
                                   instruction.shape().rank())
          .ok();
    }
    case Opcode::kBitcast:
      return HasPlainLayout(instruction.shape()) &&
             HasPlainLayout(instruction.operand(0)->shape()) &&
             instruction.shape().element_type() ==
                 instruction.operand(0)->shape().element_type();
    case Opcode::kReshape:
    case Opcode::kDynamicSlice:
    case Opcode::kDynamicUpdateSlice:
    case Opcode::kCopy:
    case Opcode::kConvert:
    case Opcode::kSelect:
    case Opcode::kClamp:
    case Opcode::kIsFinite:
    case Opcode::kParameter:
    case Opcode::kConstant:
      return true;
    case Opcode::kReal:
    case Opcode::kImag:
      return IsComplexType(instruction.operand(0)->shape().element_type()) ||
             IsFloatType(instruction.operand(0)->shape().element_type());
    case Opcode::kComplex:
      return IsComplexType(instruction.shape().element_type());
    case Opcode::kBitcastConvert: {
      // Of one width only (other widths add or drop a dimension), and not
      // of the float types of 8 bits or fewer: kernels hold those as
      // float values, and a NaN's payload does not survive the round trip
      // through float (kiln fuzz: f8e3m4 -nan(0xf) bitcast to f8e5m2).
      const ElementType to = instruction.shape().element_type();
      const ElementType from = instruction.operand(0)->shape().element_type();
      auto held_as_float = [](ElementType type) {
        return IsNarrowFloat(type) && BitWidth(type) <= 8;
      };
      return BitWidth(to) == BitWidth(from) && !held_as_float(to) &&
             !held_as_float(from);
    }
    default:
      return false;
  }
}

absl::Status CheckCompare(const Instruction& compare) {
  const EnumValue* direction = compare.attrs().Get<EnumValue>(attr::kDirection);
  if (direction == nullptr ||
      !ParseComparisonDirection(direction->spelling).has_value()) {
    return NotEmittable(compare, "no comparison direction");
  }
  const EnumValue* type = compare.attrs().Get<EnumValue>(attr::kType);
  if (type != nullptr && type->spelling == "TOTALORDER" &&
      !IsFloatType(compare.operand(0)->shape().element_type())) {
    return NotEmittable(compare, "total order of a non-float type");
  }
  return absl::OkStatus();
}

// The to_apply of a reduce or reduce-window: a scalar function of two
// parameters whose every instruction the emitter handles.
absl::Status CheckReducer(const Instruction& reduce) {
  const auto* to_apply = reduce.attrs().Get<Computation*>(attr::kToApply);
  if (to_apply == nullptr || *to_apply == nullptr) {
    return NotEmittable(reduce, "no to_apply");
  }
  const Computation& reducer = **to_apply;
  if (reducer.parameters().size() != 2 || reducer.root() == nullptr ||
      !reducer.root()->shape().IsScalar()) {
    return NotEmittable(reduce, "the reducer is not a scalar binary function");
  }
  for (const Instruction* inner : reducer.instructions()) {
    if (inner->opcode() == Opcode::kReduce ||
        inner->opcode() == Opcode::kReduceWindow) {
      return NotEmittable(reduce, "nested reduce in a reducer");
    }
    if (absl::Status status = CheckEmittable(*inner); !status.ok()) {
      return NotEmittable(reduce, absl::StrCat("reducer: ", status.message()));
    }
  }
  return absl::OkStatus();
}

// map: a scalar computation of as many parameters as the map has
// operands, applied at every index (XLA maps over every dimension).
absl::Status CheckMap(const Instruction& map) {
  const auto* to_apply = map.attrs().Get<Computation*>(attr::kToApply);
  if (to_apply == nullptr || *to_apply == nullptr) {
    return NotEmittable(map, "no to_apply");
  }
  const Computation& function = **to_apply;
  if (static_cast<int64_t>(function.parameters().size()) !=
          map.operand_count() ||
      function.root() == nullptr || !function.root()->shape().IsScalar()) {
    return NotEmittable(map,
                        "the mapped computation is not a scalar "
                        "function of the operands");
  }
  for (const Instruction* operand : map.operands()) {
    if (operand->shape().dimensions() != map.shape().dimensions()) {
      return NotEmittable(map, "operands of other dimensions");
    }
  }
  for (const Instruction* inner : function.instructions()) {
    if (inner->opcode() == Opcode::kReduce ||
        inner->opcode() == Opcode::kReduceWindow) {
      return NotEmittable(map, "a reduce in the mapped computation");
    }
    if (absl::Status status = CheckEmittable(*inner); !status.ok()) {
      return NotEmittable(
          map, absl::StrCat("mapped computation: ", status.message()));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckReduce(const Instruction& reduce) {
  if (reduce.operand_count() != 2 || !reduce.shape().IsArray() ||
      Int64s(reduce, attr::kDimensions) == nullptr) {
    return NotEmittable(reduce, "only single-operand reduces are emitted");
  }
  return CheckReducer(reduce);
}

absl::Status CheckReduceWindow(const Instruction& reduce_window) {
  const Window* window = reduce_window.attrs().Get<Window>(attr::kWindow);
  if (reduce_window.operand_count() != 2 || !reduce_window.shape().IsArray() ||
      window == nullptr ||
      static_cast<int64_t>(window->dimensions.size()) !=
          reduce_window.operand(0)->shape().rank()) {
    return NotEmittable(reduce_window,
                        "only single-operand reduce-windows with a window "
                        "per dimension are emitted");
  }
  for (const WindowDimension& w : window->dimensions) {
    if (w.size < 1 || w.stride < 1 || w.window_dilation < 1 ||
        w.base_dilation < 1) {
      return NotEmittable(reduce_window, "window fields out of range");
    }
  }
  return CheckReducer(reduce_window);
}

std::optional<Opcode> WideReduction(const Computation& reducer) {
  const Instruction* root = reducer.root();
  const ElementType type = root->shape().element_type();
  if ((root->opcode() != Opcode::kAdd && root->opcode() != Opcode::kMultiply) ||
      !IsFloatType(type) || type == ElementType::kF64 ||
      root->operand_count() != 2) {
    return std::nullopt;
  }
  const Instruction* a = root->operand(0);
  const Instruction* b = root->operand(1);
  if (a == b || a->opcode() != Opcode::kParameter ||
      b->opcode() != Opcode::kParameter) {
    return std::nullopt;
  }
  return root->opcode();
}

// A reducer that adds its two parameters, on a type other than pred.
bool IsSum(const Computation& reducer) {
  const Instruction* root = reducer.root();
  // Narrow sums round (or wrap) every step: they cannot be reassociated.
  // (An OpenMP sum reduction of std::complex does not exist either.)
  if (root->opcode() != Opcode::kAdd ||
      root->shape().element_type() == ElementType::kPred ||
      IsComplexType(root->shape().element_type()) ||
      IsNarrowFloat(root->shape().element_type()) ||
      IsSubByteInteger(root->shape().element_type())) {
    return false;
  }
  const Instruction* a = root->operand(0);
  const Instruction* b = root->operand(1);
  return a != b && a->opcode() == Opcode::kParameter &&
         b->opcode() == Opcode::kParameter;
}

namespace {

// Whether `init op init == init` for the scan reducers: any value of an
// idempotent op, 0 for add and 1 for multiply.
bool InitIsIdempotent(Opcode op, const Instruction& init) {
  if (op == Opcode::kMaximum || op == Opcode::kMinimum || op == Opcode::kAnd ||
      op == Opcode::kOr) {
    return true;
  }
  if (init.opcode() != Opcode::kConstant || !init.has_literal() ||
      init.literal().element_count() != 1) {
    return false;
  }
  const ElementType type = init.literal().element_type();
  if (!IsFloatType(type) && !IsIntegralType(type)) return false;
  const double value = init.literal().GetDouble(0);
  return op == Opcode::kAdd ? value == 0 : value == 1;
}

}  // namespace

std::optional<Scan> AsScan(const Instruction& instruction) {
  if (instruction.opcode() != Opcode::kReduceWindow ||
      instruction.operand_count() != 2) {
    return std::nullopt;
  }
  const Window* window = instruction.attrs().Get<Window>(attr::kWindow);
  Computation* const* reducer =
      instruction.attrs().Get<Computation*>(attr::kToApply);
  if (window == nullptr || reducer == nullptr) return std::nullopt;
  const Instruction* root = (*reducer)->root();
  const Opcode op = root->opcode();
  if (op != Opcode::kAdd && op != Opcode::kMultiply && op != Opcode::kMaximum &&
      op != Opcode::kMinimum && op != Opcode::kAnd && op != Opcode::kOr) {
    return std::nullopt;
  }
  if (root->operand_count() != 2 || root->operand(0) == root->operand(1) ||
      root->operand(0)->opcode() != Opcode::kParameter ||
      root->operand(1)->opcode() != Opcode::kParameter ||
      !InitIsIdempotent(op, *instruction.operand(1))) {
    return std::nullopt;
  }
  const Shape& shape = instruction.operand(0)->shape();
  std::optional<Scan> scan;
  for (int64_t d = 0; d < shape.rank(); ++d) {
    const WindowDimension& w = window->dimensions[d];
    if (w.stride != 1 || w.window_dilation != 1 || w.base_dilation != 1) {
      return std::nullopt;
    }
    if (w.size == 1 && w.padding_low == 0 && w.padding_high == 0) continue;
    if (scan.has_value() || w.size < shape.dimension(d)) return std::nullopt;
    if (w.padding_low == w.size - 1 && w.padding_high == 0) {
      scan = Scan{d, false};
    } else if (w.padding_low == 0 && w.padding_high == w.size - 1) {
      scan = Scan{d, true};
    } else {
      return std::nullopt;
    }
  }
  return scan;
}

// C++ spelling of a comparison direction.
const char* CompareOperator(ComparisonDirection direction) {
  switch (direction) {
    case ComparisonDirection::kEq:
      return "==";
    case ComparisonDirection::kNe:
      return "!=";
    case ComparisonDirection::kLt:
      return "<";
    case ComparisonDirection::kLe:
      return "<=";
    case ComparisonDirection::kGt:
      return ">";
    case ComparisonDirection::kGe:
      return ">=";
  }
  return "==";
}

// The computation's outputs: the root, or the root tuple's elements.
std::vector<const Instruction*> Outputs(const Computation& computation) {
  const Instruction* root = computation.root();
  if (root->opcode() == Opcode::kTuple) {
    return {root->operands().begin(), root->operands().end()};
  }
  return {root};
}

// True when every output element depends only on the operand elements of
// the same row-major position (or on single-element values), so one flat
// loop over the element count computes the kernel.
bool IsFlat(const Computation& computation, int64_t count) {
  for (const Instruction* instruction : computation.instructions()) {
    if (instruction->opcode() == Opcode::kTuple) continue;
    absl::StatusOr<int64_t> n = instruction->shape().ElementCount();
    if (!n.ok() || (*n != count && *n != 1)) return false;
    switch (instruction->opcode()) {
      case Opcode::kParameter:
      case Opcode::kConstant:
      case Opcode::kReshape:
      case Opcode::kCopy:
      case Opcode::kConvert:
      case Opcode::kCompare:
      case Opcode::kIsFinite:
        continue;
      case Opcode::kBroadcast: {
        absl::StatusOr<int64_t> m =
            instruction->operand(0)->shape().ElementCount();
        if (!m.ok() || *m != 1) return false;
        continue;
      }
      case Opcode::kSelect:
      case Opcode::kClamp:
        for (const Instruction* operand : instruction->operands()) {
          if (operand->shape().IsScalar() && *n != 1) return false;
        }
        continue;
      default:
        if (FindFunctorOp(instruction->opcode()) == nullptr) return false;
    }
  }
  return true;
}

}  // namespace emitter_internal

using emitter_internal::CheckCompare;
using emitter_internal::CheckMap;
using emitter_internal::CheckReduce;
using emitter_internal::CheckReduceWindow;
using emitter_internal::FindFunctorOp;
using emitter_internal::FunctorOp;
using emitter_internal::IsIndexOp;
using emitter_internal::IsNarrowFloat;
using emitter_internal::IsNativeArray;
using emitter_internal::IsSubByteInteger;
using emitter_internal::NotEmittable;
using emitter_internal::Outputs;

std::optional<std::string> NativeCType(ElementType type) {
  switch (type) {
    case ElementType::kPred:
      return "bool";
    case ElementType::kS8:
      return "int8_t";
    case ElementType::kS16:
      return "int16_t";
    case ElementType::kS32:
      return "int32_t";
    case ElementType::kS64:
      return "int64_t";
    case ElementType::kU8:
      return "uint8_t";
    case ElementType::kU16:
      return "uint16_t";
    case ElementType::kU32:
      return "uint32_t";
    case ElementType::kU64:
      return "uint64_t";
    case ElementType::kF32:
      return "float";
    case ElementType::kF64:
      return "double";
    default:
      return std::nullopt;
  }
}

absl::Status CheckEmittable(const Instruction& instruction) {
  if (!IsNativeArray(instruction.shape())) {
    return NotEmittable(
        instruction,
        absl::StrCat("result ", instruction.shape().ToString(false),
                     " is not a static array of a native type"));
  }
  for (const Instruction* operand : instruction.operands()) {
    if (!IsNativeArray(operand->shape())) {
      return NotEmittable(
          instruction, absl::StrCat("operand ", operand->name(),
                                    " is not a static array of a native type"));
    }
  }
  if (instruction.opcode() == Opcode::kAbs &&
      IsComplexType(instruction.operand(0)->shape().element_type())) {
    return absl::OkStatus();  // |z|, computed by std::abs as the evaluator.
  }
  if (const FunctorOp* op = FindFunctorOp(instruction.opcode())) {
    ElementType type = instruction.operand_count() > 0
                           ? instruction.operand(0)->shape().element_type()
                           : ElementType::kInvalid;
    if (IsNarrowFloat(type)) type = ElementType::kF32;  // Computed in float.
    if (IsSubByteInteger(type)) {                       // Computed in 8 bits.
      type = GetElementTypeInfo(type).kind == TypeKind::kSigned
                 ? ElementType::kS8
                 : ElementType::kU8;
    }
    if (instruction.operand_count() != op->arity || !op->supports(type)) {
      return NotEmittable(instruction, "no scalar functor for this type");
    }
    for (const Instruction* operand : instruction.operands()) {
      if (operand->shape().dimensions() != instruction.shape().dimensions()) {
        return NotEmittable(instruction, "implicit broadcasting (client form)");
      }
    }
    return absl::OkStatus();
  }
  if (IsNarrowFloat(instruction.shape().element_type())) {
    // One rounding into bf16/f16 needs the value exact in float first.
    if (instruction.opcode() == Opcode::kConvert) {
      const ElementType from = instruction.operand(0)->shape().element_type();
      if (from == ElementType::kF64 ||
          (IsIntegralType(from) && BitWidth(from) > 16)) {
        return NotEmittable(instruction, "a convert that would round twice");
      }
    }
    if (instruction.opcode() == Opcode::kIota) {
      for (int64_t size : instruction.shape().dimensions()) {
        if (size > (int64_t{1} << 24)) {
          return NotEmittable(instruction, "an iota past float's integers");
        }
      }
    }
  }
  if (instruction.opcode() == Opcode::kCompare) {
    return CheckCompare(instruction);
  }
  if (instruction.opcode() == Opcode::kReduce) return CheckReduce(instruction);
  if (instruction.opcode() == Opcode::kMap) return CheckMap(instruction);
  if (instruction.opcode() == Opcode::kReduceWindow) {
    return CheckReduceWindow(instruction);
  }
  if (instruction.opcode() == Opcode::kIsFinite &&
      !IsFloatType(instruction.operand(0)->shape().element_type())) {
    return NotEmittable(instruction, "is-finite of a non-float");
  }
  if (instruction.opcode() == Opcode::kConstant && !instruction.has_literal()) {
    return NotEmittable(instruction, "constant without a literal");
  }
  if (!IsIndexOp(instruction)) {
    return NotEmittable(instruction, "no loop lowering for this op");
  }
  return absl::OkStatus();
}

absl::Status CheckEmittable(const Computation& computation) {
  if (computation.root() == nullptr) {
    return absl::InvalidArgumentError("computation without a root");
  }
  const std::vector<const Instruction*> outputs = Outputs(computation);
  if (outputs.empty()) {
    return absl::UnimplementedError("kernel without outputs");
  }
  for (const Instruction* instruction : computation.instructions()) {
    if (instruction == computation.root() &&
        instruction->opcode() == Opcode::kTuple) {
      continue;
    }
    if (instruction->opcode() == Opcode::kTuple) {
      return NotEmittable(*instruction, "tuple inside a kernel");
    }
    if (absl::Status status = CheckEmittable(*instruction); !status.ok()) {
      return status;
    }
  }
  for (const Instruction* output : outputs) {
    if (output->opcode() == Opcode::kParameter) {
      return NotEmittable(*output, "a parameter as a kernel output");
    }
  }
  return absl::OkStatus();
}

bool IsFlatKernel(const Computation& computation) {
  const Instruction* root = computation.root();
  std::vector<const Instruction*> outputs = {root};
  if (root->opcode() == Opcode::kTuple) {
    outputs.assign(root->operands().begin(), root->operands().end());
  }
  if (outputs.empty()) return false;
  for (const Instruction* output : outputs) {
    if (!output->shape().IsArray() ||
        output->shape().dimensions() != outputs[0]->shape().dimensions()) {
      return false;
    }
  }
  absl::StatusOr<int64_t> count = outputs[0]->shape().ElementCount();
  return count.ok() && emitter_internal::IsFlat(computation, *count);
}

}  // namespace kiln::cpu
