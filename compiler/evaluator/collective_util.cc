#include "compiler/evaluator/collective_util.h"

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/collective_hub.h"
#include "compiler/evaluator/collective_participants.h"
#include "compiler/evaluator/typed.h"
#include "compiler/ir/computation.h"
#include "compiler/util/int_lists.h"

namespace kiln {
namespace eval {
namespace {

int64_t ElementBytesOf(const Literal& literal) {
  return GetElementTypeInfo(literal.element_type()).storage_bytes;
}

// The op of a combiner that is exactly `ROOT r = op(p0, p1)` with op add or
// multiply, when `type` has a native ComputeType that is a number: such a
// fold runs as a typed loop instead of one call per element.
std::optional<Opcode> FastCombiner(const Computation& computation,
                                   ElementType type) {
  const Instruction* root = computation.root();
  if (root == nullptr || computation.parameters().size() != 2 ||
      computation.instructions().size() != 3 || root->operand_count() != 2 ||
      (root->opcode() != Opcode::kAdd && root->opcode() != Opcode::kMultiply) ||
      !root->attrs().empty()) {
    return std::nullopt;
  }
  for (const Instruction* operand : root->operands()) {
    if (operand->opcode() != Opcode::kParameter ||
        !operand->shape().IsArray() || operand->shape().rank() != 0 ||
        operand->shape().element_type() != type) {
      return std::nullopt;
    }
  }
  if (!StorageIsNative(type) || type == ElementType::kPred ||
      IsComplexType(type) || root->shape().element_type() != type) {
    return std::nullopt;
  }
  return root->opcode();
}

template <typename T>
T Apply(Opcode op, T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    // Wrapping arithmetic, free of signed overflow.
    const uint64_t x = static_cast<uint64_t>(a);
    const uint64_t y = static_cast<uint64_t>(b);
    return static_cast<T>(op == Opcode::kAdd ? x + y : x * y);
  } else {
    return op == Opcode::kAdd ? a + b : a * b;
  }
}

void FastCombine(Opcode op, const Literal& in, Literal& out) {
  DispatchByComputeType(out.element_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
      absl::Span<const T> from = Elements<T>(in);
      absl::Span<T> to = MutableElements<T>(out);
      for (size_t i = 0; i < to.size(); ++i)
        to[i] = Apply<T>(op, to[i], from[i]);
    }
  });
}

}  // namespace

Literal Pack(absl::Span<const Literal* const> operands) {
  std::vector<Literal> copies;
  copies.reserve(operands.size());
  for (const Literal* operand : operands) copies.push_back(*operand);
  return Literal::Tuple(std::move(copies));
}

size_t PositionOf(const EvalContext& context,
                  const std::vector<int64_t>& devices) {
  const int64_t self = GridOf(context).Number(context.device());
  return static_cast<size_t>(std::find(devices.begin(), devices.end(), self) -
                             devices.begin());
}

absl::StatusOr<Contributions> ExchangeWithGroup(
    const Instruction& instruction, EvalContext& context,
    const std::vector<int64_t>& devices, Literal mine) {
  CollectiveHub* hub = context.collectives();
  if (hub != nullptr) {
    return hub->Exchange(instruction, GridOf(context).Number(context.device()),
                         devices, std::move(mine));
  }
  if (devices.size() != 1) {
    return KernelError(instruction, absl::StrCat("needs ", devices.size(),
                                                 " devices; run it with "
                                                 "EvaluateReplicated"));
  }
  auto values = std::make_shared<std::vector<Literal>>();
  values->push_back(std::move(mine));
  return Contributions(std::move(values));
}

absl::Status CheckSameShapes(const Instruction& instruction,
                             const std::vector<Literal>& values,
                             const std::vector<int64_t>& devices, size_t self) {
  const Literal& mine = values[self];
  for (size_t g = 0; g < values.size(); ++g) {
    if (!values[g].shape().Compatible(mine.shape())) {
      return KernelError(
          instruction,
          absl::StrCat("device ", devices[g], " contributes ",
                       values[g].shape().ToString(false), " but device ",
                       devices[self], " contributes ",
                       mine.shape().ToString(false)));
    }
  }
  return absl::OkStatus();
}

void ConcatAlongDim(absl::Span<const Literal* const> parts, int64_t dim,
                    Literal& out) {
  const absl::Span<const int64_t> dims = out.shape().dimensions();
  const int64_t bytes = ElementBytesOf(out);
  const int64_t outer = util::Product(dims.subspan(0, dim));
  const int64_t inner = util::Product(dims.subspan(dim + 1)) * bytes;
  uint8_t* to = out.mutable_data().data();
  for (int64_t o = 0; o < outer; ++o) {
    for (const Literal* part : parts) {
      const int64_t chunk = part->shape().dimension(dim) * inner;
      if (chunk == 0) continue;
      std::memcpy(to, part->data().data() + o * chunk, chunk);
      to += chunk;
    }
  }
}

void SliceAlongDim(const Literal& in, int64_t dim, int64_t start,
                   Literal& out) {
  const absl::Span<const int64_t> dims = in.shape().dimensions();
  const int64_t bytes = ElementBytesOf(in);
  const int64_t outer = util::Product(dims.subspan(0, dim));
  const int64_t inner = util::Product(dims.subspan(dim + 1)) * bytes;
  const int64_t chunk = out.shape().dimension(dim) * inner;
  if (chunk == 0) return;
  for (int64_t o = 0; o < outer; ++o) {
    std::memcpy(out.mutable_data().data() + o * chunk,
                in.data().data() + (o * dims[dim] + start) * inner, chunk);
  }
}

absl::Status CombineInto(const Instruction& instruction, EvalContext& context,
                         const Computation& to_apply, const Literal& in,
                         Literal& out) {
  const ElementType type = out.element_type();
  if (std::optional<Opcode> op = FastCombiner(to_apply, type)) {
    FastCombine(*op, in, out);
    return absl::OkStatus();
  }
  absl::StatusOr<Literal> a =
      context.NewLiteral(instruction, Shape::Scalar(type));
  if (!a.ok()) return a.status();
  Literal b = *a;
  const int64_t bytes = ElementBytesOf(out);
  const Literal* arguments[] = {&*a, &b};
  for (int64_t i = 0; i < out.element_count(); ++i) {
    std::memcpy(a->mutable_data().data(), out.data().data() + i * bytes, bytes);
    std::memcpy(b.mutable_data().data(), in.data().data() + i * bytes, bytes);
    absl::StatusOr<Literal> r = context.Call(to_apply, arguments);
    if (!r.ok()) {
      return KernelError(instruction,
                         absl::StrCat("in to_apply: ", r.status().message()));
    }
    if (!r->shape().IsArray() || r->shape().rank() != 0 ||
        r->element_type() != type) {
      return KernelError(
          instruction,
          absl::StrCat("to_apply returned ", r->shape().ToString(false),
                       ", expected a scalar of the operands' "
                       "type"));
    }
    std::memcpy(out.mutable_data().data() + i * bytes, r->data().data(), bytes);
  }
  return absl::OkStatus();
}

Literal SingleOrTuple(std::vector<Literal> results) {
  if (results.size() == 1) return std::move(results[0]);
  return Literal::Tuple(std::move(results));
}

}  // namespace eval
}  // namespace kiln
