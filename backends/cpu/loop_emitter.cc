#include "backends/cpu/loop_emitter.h"

#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "backends/cpu/kernel_writer.h"
#include "backends/cpu/loop_emitter_ops.h"
#include "compiler/evaluator/indexing_dims.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/element_type.h"
#include "compiler/ir/layout.h"
#include "compiler/ir/literal.h"
#include "compiler/ops/attr_enums.h"
#include "compiler/util/seeded_bugs.h"

namespace kiln::cpu {
namespace embedded {
extern const char* const kUnaryOps;
extern const char* const kBinaryOps;
extern const char* const kFloatBits;
extern const char* const kPrelude;
extern const char* const kBitBlocks;
}  // namespace embedded

using emitter_internal::CompareOperator;
using emitter_internal::ComputeType;
using emitter_internal::FindFunctorOp;
using emitter_internal::FunctorOp;
using emitter_internal::Int64s;
using emitter_internal::IsNarrowFloat;
using emitter_internal::IsSubByteInteger;
using emitter_internal::IsSum;
using emitter_internal::Load;
using emitter_internal::MinorToMajor;
using emitter_internal::NotEmittable;
using emitter_internal::Outputs;
using emitter_internal::Round;
using emitter_internal::Scan;
using emitter_internal::StorageType;
using emitter_internal::Store;
using emitter_internal::TotalOrderKeyFunction;

namespace emitter_internal {

namespace {

// A reshape (or a bitcast, in physical order) between two shapes whose
// dimensions agree once the size-1 ones are dropped ([64,256] and
// [1,64,256]) maps each index variable to its dimension: no division or
// remainder per element, which would keep the loop from vectorizing.
// `from` holds each dimension's index and size, `to` the other shape's
// sizes, both major to minor; nullopt when they do not agree.
std::optional<Index> MatchIgnoringUnitDimensions(
    const std::vector<std::pair<std::string, int64_t>>& from,
    const std::vector<int64_t>& to) {
  Index at(to.size(), "0");
  size_t k = 0;
  for (size_t d = 0; d < to.size(); ++d) {
    if (to[d] == 1) continue;
    while (k < from.size() && from[k].second == 1) ++k;
    if (k == from.size() || from[k].second != to[d]) return std::nullopt;
    at[d] = from[k++].first;
  }
  while (k < from.size() && from[k].second == 1) ++k;
  if (k != from.size()) return std::nullopt;
  return at;
}

}  // namespace

// Elements a loop nest over `shape` touches: its own, or the largest
// parameter's when that is larger (a reduction reads more than it writes).
int64_t KernelWriter::Work(const Shape& shape) const {
  int64_t work = shape.ElementCount().value_or(0);
  for (const Instruction* parameter : computation_.parameters()) {
    work = std::max(work, parameter->shape().ElementCount().value_or(0));
  }
  return work;
}

void KernelWriter::EmitLoopNest(const std::vector<const Instruction*>& outputs,
                                std::vector<size_t> which) {
  if (which.empty()) {
    for (size_t k = 0; k < outputs.size(); ++k) which.push_back(k);
  }
  if (which.size() == 1 && !flat_) {
    if (std::optional<Scan> scan = AsScan(*outputs[which[0]])) {
      EmitScanLoopNest(outputs[which[0]], which[0], *scan);
      return;
    }
  }
  const Shape& shape = outputs[which[0]]->shape();
  memo_.clear();
  depth_ = 1;
  HoistScalars();
  if (flat_ && StreamsOutputs(outputs, which)) {
    EmitStreamingLoop(outputs, which);
    return;
  }
  Index index;
  // Large loop nests split their outermost loop over the intra-op threads
  // (each iteration writes its own output elements; everything else it
  // declares is local to it).
  const int64_t outer =
      flat_ ? flat_count_ : (shape.rank() > 0 ? shape.dimension(0) : 1);
  if (cuda()) {
    OpenGridStrideLoop(shape, &index);
  } else if (outer >= 2 && Work(shape) >= kParallelWork) {
    Line(
        "#pragma omp parallel for schedule(static) num_threads(KilnThreads())");
  }
  if (cuda()) {
    // The grid-stride loop is open.
  } else if (flat_) {
    Line(absl::StrCat("for (int64_t i = 0; i < ", flat_count_, "; ++i) {"));
    ++depth_;
    if (shape.rank() > 0) index.assign(shape.rank(), "i");
  } else {
    for (int64_t d = 0; d < shape.rank(); ++d) {
      index.push_back(absl::StrCat("i", d));
      Line(absl::StrCat("for (int64_t i", d, " = 0; i", d, " < ",
                        shape.dimension(d), "; ++i", d, ") {"));
      ++depth_;
    }
  }
  for (size_t k : which) {
    const std::string value = Value(outputs[k], index);
    Line(absl::StrCat("o", k, "[", Linear(index, outputs[k]->shape()), "] = ",
                      Store(outputs[k]->shape().element_type(), value), ";"));
  }
  while (depth_ > 1) {
    --depth_;
    Line("}");
  }
}

void KernelWriter::HoistScalars() {
  for (const Instruction* instruction : computation_.instructions()) {
    const Shape& shape = instruction->shape();
    if (shape.IsArray() && shape.rank() == 0 &&
        instruction->opcode() != Opcode::kParameter &&
        instruction != block_reduced_) {
      Value(instruction, {});
    }
  }
}

bool KernelWriter::StreamsOutputs(
    const std::vector<const Instruction*>& outputs,
    const std::vector<size_t>& which) const {
  int64_t bytes = 0;
  for (size_t k : which) {
    absl::StatusOr<int64_t> n = outputs[k]->shape().ElementCount();
    if (!n.ok() || *n != flat_count_ || flat_count_ == 1 || cuda()) {
      return false;
    }
    bytes +=
        *n *
        GetElementTypeInfo(outputs[k]->shape().element_type()).storage_bytes;
  }
  return bytes >= kStreamingStoreBytes;
}

void KernelWriter::EmitStreamingLoop(
    const std::vector<const Instruction*>& outputs,
    const std::vector<size_t>& which) {
  const int64_t blocks = (flat_count_ + kStreamBlock - 1) / kStreamBlock;
  if (blocks >= 2) {
    Line(
        "#pragma omp parallel for schedule(static) num_threads(KilnThreads())");
  }
  Line(absl::StrCat("for (int64_t blk = 0; blk < ", blocks, "; ++blk) {"));
  ++depth_;
  Line(absl::StrCat("const int64_t i0 = blk * ", kStreamBlock, ";"));
  Line(absl::StrCat("const int64_t n = std::min<int64_t>(", kStreamBlock, ", ",
                    flat_count_, " - i0);"));
  for (size_t k : which) {
    Line(absl::StrCat("alignas(64) ",
                      StorageType(outputs[k]->shape().element_type()), " s", k,
                      "[", kStreamBlock, "];"));
  }
  Line("for (int64_t j = 0; j < n; ++j) {");
  ++depth_;
  Line("const int64_t i = i0 + j;");
  const Index index(outputs[which[0]]->shape().rank(), "i");
  for (size_t k : which) {
    const std::string value = Value(outputs[k], index);
    Line(absl::StrCat("s", k, "[j] = ",
                      Store(outputs[k]->shape().element_type(), value), ";"));
  }
  --depth_;
  Line("}");
  for (size_t k : which) {
    Line(absl::StrCat("kiln_cpu::StreamStore(o", k, " + i0, s", k,
                      ", n * sizeof(s", k, "[0]));"));
  }
  --depth_;
  Line("}");
}

std::string KernelWriter::Linear(const Index& index, const Shape& shape) const {
  if (flat_) {
    absl::StatusOr<int64_t> n = shape.ElementCount();
    return (n.ok() && *n == flat_count_ && flat_count_ != 1) ? "i" : "0";
  }
  if (index.empty()) return "0";
  std::string linear = index[0];
  for (int64_t d = 1; d < shape.rank(); ++d) {
    linear =
        absl::StrCat("(", linear, ") * ", shape.dimension(d), " + ", index[d]);
  }
  return linear;
}

Index KernelWriter::Delinearize(const std::string& linear, const Shape& shape) {
  if (flat_) return Index(shape.rank(), "i");
  const std::string var = Fresh("l");
  Line(absl::StrCat("const int64_t ", var, " = ", linear, ";"));
  Index index(shape.rank());
  int64_t stride = 1;
  for (int64_t d = shape.rank() - 1; d >= 0; --d) {
    index[d] = absl::StrCat("(", var, " / ", stride, ") % ",
                            std::max<int64_t>(shape.dimension(d), 1));
    stride *= shape.dimension(d);
  }
  return index;
}

std::string KernelWriter::Value(const Instruction* instruction,
                                const Index& index) {
  auto binding = bindings_.find(instruction);
  if (binding != bindings_.end()) return binding->second;
  auto stored = materialized_.find(instruction);
  if (stored != materialized_.end()) {
    return Load(instruction->shape().element_type(),
                absl::StrCat(stored->second, "[",
                             Linear(index, instruction->shape()), "]"));
  }
  std::string key = absl::StrCat(reinterpret_cast<uintptr_t>(instruction), "@",
                                 absl::StrJoin(index, ","));
  auto found = memo_.find(key);
  if (found != memo_.end()) return found->second;
  std::string var = Compute(instruction, index);
  memo_[key] = var;
  return var;
}

// A complex constant: its parts' bits, two per element.
std::string KernelWriter::ComputeComplexConstant(const Instruction* constant,
                                                 const Index& index) {
  const Literal& literal = constant->literal();
  const bool wide = literal.element_type() == ElementType::kC128;
  std::vector<std::string> parts;
  for (int64_t i = 0; i < literal.element_count(); ++i) {
    const std::complex<double> z = literal.GetComplex(i);
    for (double part : {z.real(), z.imag()}) {
      uint64_t bits;
      if (wide) {
        std::memcpy(&bits, &part, sizeof bits);
      } else {
        const float narrow = static_cast<float>(part);  // Exact: a c64 part.
        uint32_t low;
        std::memcpy(&low, &narrow, sizeof low);
        bits = low;
      }
      parts.push_back(absl::StrCat(bits, "u"));
    }
  }
  if (parts.empty()) parts.push_back("0u");
  const std::string array = absl::StrCat(name_, "_", Fresh("c"));
  absl::StrAppend(&globals_, ConstantQualifier(),
                  wide ? "uint64_t" : "uint32_t", " ", array, "[] = {",
                  absl::StrJoin(parts, ", "), "};\n");
  const std::string at = Linear(index, constant->shape());
  const char* from_bits =
      wide ? "kiln_cpu::F64FromBits(" : "kiln_cpu::F32FromBits(";
  const std::string var = Fresh("v");
  Line(absl::StrCat("const ", Type(constant), " ", var, "(", from_bits, array,
                    "[2 * (", at, ")]), ", from_bits, array, "[2 * (", at,
                    ") + 1]));"));
  return var;
}

std::string KernelWriter::ComputeConstant(const Instruction* constant,
                                          const Index& index) {
  const Literal& literal = constant->literal();
  const ElementType type = literal.element_type();
  const int bits = BitWidth(type);
  const std::string storage = bits <= 8    ? "uint8_t"
                              : bits <= 16 ? "uint16_t"
                              : bits <= 32 ? "uint32_t"
                                           : "uint64_t";
  const std::string array = absl::StrCat(name_, "_", Fresh("c"));
  std::vector<std::string> values;
  if (IsComplexType(type)) return ComputeComplexConstant(constant, index);
  for (int64_t i = 0; i < literal.element_count(); ++i) {
    values.push_back(absl::StrCat(literal.GetBits(i), "u"));
  }
  if (values.empty()) values.push_back("0u");
  absl::StrAppend(&globals_, ConstantQualifier(), storage, " ", array, "[] = {",
                  absl::StrJoin(values, ", "), "};\n");
  const std::string element =
      absl::StrCat(array, "[", Linear(index, constant->shape()), "]");
  const std::string var = Fresh("v");
  std::string value;
  if (IsNarrowFloat(type) || IsSubByteInteger(type)) {
    value = Load(type, absl::StrCat("static_cast<", StorageType(type), ">(",
                                    element, ")"));
  } else if (type == ElementType::kF32) {
    value = absl::StrCat("kiln_cpu::F32FromBits(", element, ")");
  } else if (type == ElementType::kF64) {
    value = absl::StrCat("kiln_cpu::F64FromBits(", element, ")");
  } else {
    value = absl::StrCat("static_cast<", Type(constant), ">(", element, ")");
  }
  Line(absl::StrCat("const ", Type(constant), " ", var, " = ", value, ";"));
  return var;
}

// dynamic-update-slice at a result index: the update's element where the
// index falls in the update's window (its start clamped so that it fits,
// as the evaluator), else the operand's.
std::string KernelWriter::ComputeDynamicUpdateSlice(const Instruction* dus,
                                                    const Index& index) {
  const Shape& shape = dus->shape();
  const Shape& update = dus->operand(1)->shape();
  const std::string var = Fresh("v");
  Line(absl::StrCat(Type(dus), " ", var, ";"));
  std::vector<std::string> inside;
  Index update_index(index.size());
  for (size_t d = 0; d < index.size(); ++d) {
    const std::string start = Fresh("s");
    Line(absl::StrCat("const int64_t ", start, " = kiln_cpu::ClampStart(",
                      Value(dus->operand(2 + d), {}), ", ", shape.dimension(d),
                      ", ", update.dimension(d), ");"));
    const std::string u = Fresh("u");
    Line(absl::StrCat("const int64_t ", u, " = ", index[d], " - ", start, ";"));
    inside.push_back(
        absl::StrCat(u, " >= 0 && ", u, " < ", update.dimension(d)));
    update_index[d] = u;
  }
  if (inside.empty()) inside.push_back("true");
  Line(absl::StrCat("if (", absl::StrJoin(inside, " && "), ") {"));
  Nested([&] {
    Line(absl::StrCat(var, " = ", Value(dus->operand(1), update_index), ";"));
  });
  Line("} else {");
  Nested([&] {
    Line(absl::StrCat(var, " = ", Value(dus->operand(0), index), ";"));
  });
  Line("}");
  return var;
}

std::string KernelWriter::ComputePad(const Instruction* pad,
                                     const Index& index) {
  const PaddingConfig& config =
      *pad->attrs().Get<PaddingConfig>(attr::kPadding);
  const Shape& operand_shape = pad->operand(0)->shape();
  const std::string var = Fresh("v");
  Line(absl::StrCat(Type(pad), " ", var, ";"));
  std::vector<std::string> conditions;
  Index operand_index(index.size());
  for (size_t d = 0; d < index.size(); ++d) {
    const PaddingDimension& dim = config.dimensions[d];
    const std::string t = Fresh("t");
    Line(absl::StrCat("const int64_t ", t, " = ", index[d], " - (", dim.low,
                      ");"));
    const int64_t step = dim.interior + 1;
    conditions.push_back(absl::StrCat(t, " >= 0"));
    if (step != 1) conditions.push_back(absl::StrCat(t, " % ", step, " == 0"));
    conditions.push_back(
        absl::StrCat(t, " / ", step, " < ", operand_shape.dimension(d)));
    operand_index[d] = step == 1 ? t : absl::StrCat(t, " / ", step);
  }
  if (conditions.empty()) conditions.push_back("true");
  Line(absl::StrCat("if (", absl::StrJoin(conditions, " && "), ") {"));
  Nested([&] {
    Line(absl::StrCat(var, " = ", Value(pad->operand(0), operand_index), ";"));
  });
  Line("} else {");
  Nested(
      [&] { Line(absl::StrCat(var, " = ", Value(pad->operand(1), {}), ";")); });
  Line("}");
  return var;
}

std::string KernelWriter::ComputeConcatenate(const Instruction* concat,
                                             const Index& index) {
  const int64_t dim = (*Int64s(*concat, attr::kDimensions))[0];
  const std::string var = Fresh("v");
  Line(absl::StrCat(Type(concat), " ", var, ";"));
  int64_t offset = 0;
  bool opened = false;
  for (int64_t k = 0; k < concat->operand_count(); ++k) {
    const Instruction* operand = concat->operand(k);
    const int64_t size = operand->shape().dimension(dim);
    const bool last = k + 1 == concat->operand_count();
    if (size == 0 && !last) continue;
    Line(absl::StrCat(
        opened ? "} else " : "",
        last ? "{"
             : absl::StrCat("if (", index[dim], " < ", offset + size, ") {")));
    opened = true;
    Index operand_index = index;
    operand_index[dim] = absl::StrCat("(", index[dim], " - ", offset, ")");
    Nested([&] {
      Line(absl::StrCat(var, " = ", Value(operand, operand_index), ";"));
    });
    offset += size;
  }
  Line("}");
  return var;
}

std::string KernelWriter::Compute(const Instruction* instruction,
                                  const Index& index) {
  const Opcode opcode = instruction->opcode();
  auto operand_value = [&](int64_t k, const Index& at) {
    return Value(instruction->operand(k), at);
  };
  // Operand k at `index`, or at {} when it is a scalar (select, clamp).
  auto same_or_scalar = [&](int64_t k) {
    return operand_value(
        k, instruction->operand(k)->shape().IsScalar() ? Index{} : index);
  };
  std::string expression;
  const bool complex_operand =
      instruction->operand_count() > 0 &&
      IsComplexType(instruction->operand(0)->shape().element_type());
  if (opcode == Opcode::kAbs && complex_operand) {
    expression = absl::StrCat("std::abs(", operand_value(0, index), ")");
  } else if (opcode == Opcode::kReal || opcode == Opcode::kImag) {
    const std::string x = operand_value(0, index);
    expression =
        complex_operand
            ? absl::StrCat(x, opcode == Opcode::kReal ? ".real()" : ".imag()")
        : opcode == Opcode::kReal ? x
                                  : absl::StrCat(Type(instruction), "(0)");
  } else if (opcode == Opcode::kComplex) {
    expression = absl::StrCat(Type(instruction), "(", operand_value(0, index),
                              ", ", operand_value(1, index), ")");
  } else if (const FunctorOp* op = FindFunctorOp(opcode)) {
    const ElementType type = instruction->operand(0)->shape().element_type();
    std::vector<std::string> args;
    for (int k = 0; k < op->arity; ++k) args.push_back(operand_value(k, index));
    if (op->float_kernel != nullptr &&
        (type == ElementType::kF32 || IsNarrowFloat(type))) {
      expression = absl::StrCat("kiln_cpu::", op->float_kernel, "(",
                                absl::StrJoin(args, ", "), ")");
    } else {
      expression =
          absl::StrCat("kiln::eval::", op->functor, "{", BitWidth(type), "}(",
                       absl::StrJoin(args, ", "), ")");
    }
  } else {
    switch (opcode) {
      case Opcode::kParameter: {
        const std::string var = Fresh("v");
        Line(absl::StrCat(
            "const ", Type(instruction), " ", var, " = ",
            Load(instruction->shape().element_type(),
                 absl::StrCat(parameter_names_[instruction], "[",
                              Linear(index, instruction->shape()), "]")),
            ";"));
        return var;
      }
      case Opcode::kConstant:
        return ComputeConstant(instruction, index);
      case Opcode::kCopy:
      case Opcode::kReshape:
        if (opcode == Opcode::kCopy) return operand_value(0, index);
        if (flat_) return operand_value(0, index);
        {
          const Shape& out = instruction->shape();
          const Shape& in = instruction->operand(0)->shape();
          std::vector<std::pair<std::string, int64_t>> from;
          for (int64_t d = 0; d < out.rank(); ++d) {
            from.emplace_back(index[d], out.dimension(d));
          }
          if (std::optional<Index> at =
                  MatchIgnoringUnitDimensions(from, in.dimensions())) {
            return operand_value(0, *at);
          }
          return operand_value(0, Delinearize(Linear(index, out), in));
        }
      case Opcode::kConvert: {
        const ElementType to = instruction->shape().element_type();
        if (IsSubByteInteger(to) &&
            IsFloatType(instruction->operand(0)->shape().element_type())) {
          // Saturated to the sub-byte range, not int8's.
          expression =
              absl::StrCat("kiln_cpu::FloatToInt<", Type(instruction), ", ",
                           BitWidth(to), ">(", operand_value(0, index), ")");
          break;
        }
        expression = absl::StrCat("kiln_cpu::Convert<", Type(instruction), ", ",
                                  Type(instruction->operand(0)), ">(",
                                  operand_value(0, index), ")");
        break;
      }
      case Opcode::kIsFinite:
        expression =
            absl::StrCat("std::isfinite(", operand_value(0, index), ")");
        break;
      case Opcode::kBitcastConvert: {
        // Through the storage bits: a narrow value's bits are exactly its
        // stored form, read back as the other type's storage.
        const ElementType from =
            instruction->operand(0)->shape().element_type();
        const ElementType to = instruction->shape().element_type();
        expression =
            Load(to, absl::StrCat("kiln_cpu::BitCast<", StorageType(to), ", ",
                                  StorageType(from), ">(",
                                  Store(from, operand_value(0, index)), ")"));
        break;
      }
      case Opcode::kCompare: {
        const auto direction = *ParseComparisonDirection(
            instruction->attrs().Get<EnumValue>(attr::kDirection)->spelling);
        const EnumValue* type =
            instruction->attrs().Get<EnumValue>(attr::kType);
        if (type != nullptr && type->spelling == "TOTALORDER") {
          const std::string key = TotalOrderKeyFunction(
              instruction->operand(0)->shape().element_type());
          expression = absl::StrCat(key, "(", operand_value(0, index), ") ",
                                    CompareOperator(direction), " ", key, "(",
                                    operand_value(1, index), ")");
          break;
        }
        expression = absl::StrCat(operand_value(0, index), " ",
                                  CompareOperator(direction), " ",
                                  operand_value(1, index));
        break;
      }
      case Opcode::kSelect:
        expression = absl::StrCat(same_or_scalar(0), " ? ", same_or_scalar(1),
                                  " : ", same_or_scalar(2));
        break;
      case Opcode::kClamp: {
        const int bits = BitWidth(instruction->shape().element_type());
        expression = absl::StrCat("kiln::eval::MinimumOp{", bits,
                                  "}(kiln::eval::MaximumOp{", bits, "}(",
                                  same_or_scalar(1), ", ", same_or_scalar(0),
                                  "), ", same_or_scalar(2), ")");
        break;
      }
      case Opcode::kBroadcast: {
        const auto& dims = *Int64s(*instruction, attr::kDimensions);
        Index at;
        for (int64_t d : dims) at.push_back(flat_ ? "0" : index[d]);
        if (flat_) at.assign(instruction->operand(0)->shape().rank(), "0");
        return operand_value(0, at);
      }
      case Opcode::kBitcast: {
        // The same bytes under both layouts: the element's position in the
        // result's physical order is the operand element's position in its
        // own.
        const Shape& out = instruction->shape();
        const Shape& in = instruction->operand(0)->shape();
        {
          const std::vector<int64_t> out_order = MinorToMajor(out);
          const std::vector<int64_t> in_order = MinorToMajor(in);
          std::vector<std::pair<std::string, int64_t>> from;
          for (auto d = out_order.rbegin(); d != out_order.rend(); ++d) {
            from.emplace_back(index[*d], out.dimension(*d));
          }
          std::vector<int64_t> to;
          for (auto d = in_order.rbegin(); d != in_order.rend(); ++d) {
            to.push_back(in.dimension(*d));
          }
          if (std::optional<Index> physical =
                  MatchIgnoringUnitDimensions(from, to)) {
            Index at(in.rank());
            for (size_t k = 0; k < physical->size(); ++k) {
              at[in_order[in_order.size() - 1 - k]] = (*physical)[k];
            }
            return operand_value(0, at);
          }
        }
        std::vector<std::string> terms;
        int64_t stride = 1;
        for (int64_t d : MinorToMajor(out)) {
          terms.push_back(absl::StrCat(index[d], " * ", stride));
          stride *= out.dimension(d);
        }
        const std::string position = Fresh("b");
        Line(absl::StrCat("const int64_t ", position, " = ",
                          terms.empty() ? "0" : absl::StrJoin(terms, " + "),
                          ";"));
        Index at(in.rank());
        stride = 1;
        for (int64_t d : MinorToMajor(in)) {
          at[d] = absl::StrCat("(", position, " / ", stride, ") % ",
                               std::max<int64_t>(in.dimension(d), 1));
          stride *= in.dimension(d);
        }
        return operand_value(0, at);
      }
      case Opcode::kTranspose: {
        const auto& permutation = *Int64s(*instruction, attr::kDimensions);
        Index at(index.size());
        for (size_t d = 0; d < permutation.size(); ++d) {
          at[permutation[d]] = index[d];
        }
        return operand_value(0, at);
      }
      case Opcode::kReverse: {
        Index at = index;
        for (int64_t d : *Int64s(*instruction, attr::kDimensions)) {
          at[d] = absl::StrCat("(", instruction->shape().dimension(d) - 1,
                               " - ", index[d], ")");
        }
        return operand_value(0, at);
      }
      case Opcode::kSlice: {
        const auto& ranges =
            instruction->attrs().Get<SliceRanges>(attr::kSlice)->ranges;
        Index at(index.size());
        for (size_t d = 0; d < index.size(); ++d) {
          int64_t stride = ranges[d].stride;
#ifdef KILN_SEEDED_BUGS
          // Seeded: the innermost loop assumed unit stride.
          if (SeededBug("cpu-slice-stride") && d + 1 == index.size()) {
            stride = 1;
          }
#endif
          at[d] = absl::StrCat("(", ranges[d].start, " + ", index[d], " * ",
                               stride, ")");
        }
        return operand_value(0, at);
      }
      case Opcode::kGather:
        return ComputeGather(instruction, index);
      case Opcode::kReduceWindow:
        return ComputeReduceWindow(instruction, index);
      case Opcode::kDynamicSlice: {
        const Shape& shape = instruction->operand(0)->shape();
        Index at(index.size());
        for (size_t d = 0; d < index.size(); ++d) {
          const std::string start = Fresh("s");
          Line(absl::StrCat("const int64_t ", start, " = kiln_cpu::ClampStart(",
                            operand_value(d + 1, {}), ", ", shape.dimension(d),
                            ", ", instruction->shape().dimension(d), ");"));
          at[d] = absl::StrCat("(", start, " + ", index[d], ")");
        }
        return operand_value(0, at);
      }
      case Opcode::kDynamicUpdateSlice:
        return ComputeDynamicUpdateSlice(instruction, index);
      case Opcode::kMap: {
        // The mapped computation inlined, its parameters bound to the
        // operands' elements at `index`.
        const Computation& function =
            **instruction->attrs().Get<Computation*>(attr::kToApply);
        std::vector<std::string> args;
        for (int64_t k = 0; k < instruction->operand_count(); ++k) {
          args.push_back(operand_value(k, index));
        }
        expression = Inline(function, args);
        break;
      }
      case Opcode::kIota: {
        const int64_t d =
            *instruction->attrs().Get<int64_t>(attr::kIotaDimension);
        expression = absl::StrCat("kiln_cpu::Convert<", Type(instruction),
                                  ", int64_t>(", index[d], ")");
        break;
      }
      case Opcode::kPad:
        return ComputePad(instruction, index);
      case Opcode::kConcatenate:
        return ComputeConcatenate(instruction, index);
      case Opcode::kReduce:
        return ComputeReduce(instruction, index);
      default:
        expression = "/* unreachable */ 0";
        break;
    }
  }
  const std::string var = Fresh("v");
  Line(absl::StrCat("const ", Type(instruction), " ", var, " = ",
                    Round(instruction->shape().element_type(), expression),
                    ";"));
  return var;
}

absl::StatusOr<std::string> KernelWriter::Write() {
  const std::vector<const Instruction*> outputs = Outputs(computation_);
  const Shape& shape = outputs[0]->shape();
  absl::StatusOr<int64_t> count = shape.ElementCount();
  if (!count.ok()) return count.status();
  flat_count_ = *count;
  flat_ = IsFlatKernel(computation_);

  std::string header = KernelHeader(target_, name_);
  for (const Instruction* parameter : computation_.parameters()) {
    const std::string name = absl::StrCat("p", parameter->parameter_number());
    parameter_names_[parameter] = name;
    const std::string type = StorageType(parameter->shape().element_type());
    absl::StrAppend(&header, "  const ", type, "* const ", name,
                    " = static_cast<const ", type, "*>(in[",
                    parameter->parameter_number(), "]);\n");
  }
  for (size_t k = 0; k < outputs.size(); ++k) {
    const std::string type = StorageType(outputs[k]->shape().element_type());
    absl::StrAppend(&header, "  ", type, "* const o", k, " = static_cast<",
                    type, "*>(out[", k, "]);\n");
  }
  bool same_dimensions = true;
  for (const Instruction* output : outputs) {
    same_dimensions &= output->shape().dimensions() == shape.dimensions();
  }
  if (cuda() && outputs.size() == 1 && IsBlockReduction(*outputs[0])) {
    EmitBlockReduction(outputs[0]);
  } else if (same_dimensions) {
    EmitLoopNest(outputs, {});
  } else {
    // Outputs of different dimensions (a reduce and its consumers in one
    // multi-output fusion): one loop nest per output, in dependence
    // order; later loops read earlier outputs from their buffers instead
    // of computing them again per element.
    absl::flat_hash_map<const Instruction*, size_t> position;
    absl::StatusOr<std::vector<Instruction*>> post_order =
        computation_.PostOrder();
    if (!post_order.ok()) return post_order.status();
    for (const Instruction* instruction : *post_order) {
      position.emplace(instruction, position.size());
    }
    std::vector<size_t> order(outputs.size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return position[outputs[a]] < position[outputs[b]];
    });
    for (size_t k : order) {
      // CUDA: one block runs every nest, each after the stores of the
      // nests before it (the block's barrier).
      if (cuda() && k != order.front()) Line("__syncthreads();");
      EmitLoopNest(outputs, {k});
      materialized_.emplace(outputs[k], absl::StrCat("o", k));
    }
    launch_.grid = 1;
    launch_.block = kCudaBlock;
    launch_.cooperative = true;
  }
  return absl::StrCat(globals_, header, body_, "}\n",
                      KernelTrailer(target_, name_, launch_));
}

}  // namespace emitter_internal

using emitter_internal::KernelWriter;

absl::StatusOr<std::string> EmitKernel(const Computation& computation,
                                       absl::string_view name,
                                       KernelTarget target) {
  if (absl::Status status = CheckEmittable(computation); !status.ok()) {
    return status;
  }
  return KernelWriter(computation, std::string(name), target).Write();
}

absl::StatusOr<std::string> EmitInPlaceUpdateKernel(const Instruction& dus,
                                                    absl::string_view name) {
  const Shape& shape = dus.shape();
  const Shape& update = dus.operand(1)->shape();
  const ElementType type = shape.element_type();
  const std::string storage = StorageType(type);
  std::string text = absl::StrCat(
      "extern \"C\" void ", name,
      "(const void* const* in, void* const* out) {\n", "  ", storage,
      "* const o0 = static_cast<", storage, "*>(out[0]);\n", "  const ",
      storage, "* const p1 = static_cast<const ", storage, "*>(in[1]);\n");
  std::string at = "0", from = "0";
  for (int64_t d = 0; d < shape.rank(); ++d) {
    const ElementType index_type = dus.operand(2 + d)->shape().element_type();
    const std::string c_type = *NativeCType(index_type);
    absl::StrAppend(&text, "  const int64_t s", d,
                    " = kiln_cpu::ClampStart(*static_cast<const ", c_type,
                    "*>(in[", 2 + d, "]), ", shape.dimension(d), ", ",
                    update.dimension(d), ");\n");
  }
  std::string indent = "  ";
  for (int64_t d = 0; d < shape.rank(); ++d) {
    absl::StrAppend(&text, indent, "for (int64_t j", d, " = 0; j", d, " < ",
                    update.dimension(d), "; ++j", d, ") {\n");
    indent += "  ";
    at =
        absl::StrCat("(", at, ") * ", shape.dimension(d), " + s", d, " + j", d);
    from = absl::StrCat("(", from, ") * ", update.dimension(d), " + j", d);
  }
  absl::StrAppend(&text, indent, "o0[", at, "] = p1[", from, "];\n");
  for (int64_t d = shape.rank() - 1; d >= 0; --d) {
    indent.resize(indent.size() - 2);
    absl::StrAppend(&text, indent, "}\n");
  }
  return absl::StrCat(text, "}\n");
}

absl::StatusOr<ScalarFunction> EmitScalarFunction(
    const Computation& computation, const std::vector<std::string>& names,
    absl::string_view prefix, int depth) {
  if (computation.root() == nullptr ||
      computation.parameters().size() != names.size() ||
      !computation.root()->shape().IsScalar()) {
    return absl::UnimplementedError(
        absl::StrCat(computation.name(), " is not a scalar function of ",
                     names.size(), " parameters"));
  }
  for (const Instruction* instruction : computation.instructions()) {
    if (!instruction->shape().IsScalar()) {
      return NotEmittable(*instruction, "a non-scalar value");
    }
    if (absl::Status status = CheckEmittable(*instruction); !status.ok()) {
      return status;
    }
  }
  KernelWriter writer(computation, std::string(prefix));
  ScalarFunction function;
  function.body = writer.ScalarBody(names, depth, &function.result);
  function.globals = writer.globals();
  return function;
}

const std::string& KernelPrelude() {
  static const std::string* const prelude = new std::string(absl::StrCat(
      "// Generated by Kiln's CPU backend (backends/cpu).\n",
      embedded::kUnaryOps, embedded::kBinaryOps, embedded::kFloatBits,
      embedded::kPrelude, embedded::kBitBlocks));
  return *prelude;
}

}  // namespace kiln::cpu
