// Literals as MLIR dense attributes: pred as true/false (MLIR packs i1 bits
// in its raw form), every other type as its raw little-endian bytes in hex,
// which is exact for every float encoding and NaN payload. Kiln's literals
// store one byte per sub-byte element, as MLIR's raw form does.
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/ir/literal.h"
#include "compiler/stablehlo/ops.h"
#include "compiler/stablehlo/types.h"

namespace kiln::stablehlo {
namespace {

// Nested "[[true, false], ...]" of a pred literal, from element `*next`.
std::string PredList(const Literal& literal, int64_t dimension, int64_t* next) {
  const Shape& shape = literal.shape();
  if (dimension == shape.rank()) {
    return literal.GetBits((*next)++) != 0 ? "true" : "false";
  }
  std::vector<std::string> parts;
  for (int64_t i = 0; i < shape.dimension(dimension); ++i) {
    parts.push_back(PredList(literal, dimension + 1, next));
  }
  return absl::StrCat("[", absl::StrJoin(parts, ", "), "]");
}

// Whether every element has the bytes of the first.
bool IsSplat(absl::Span<const uint8_t> data, size_t element_bytes) {
  for (size_t i = element_bytes; i < data.size(); i += element_bytes) {
    if (std::memcmp(data.data(), data.data() + i, element_bytes) != 0) {
      return false;
    }
  }
  return true;
}

std::string Hex(absl::Span<const uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string out = "\"0x";
  out.reserve(bytes.size() * 2 + 4);
  for (uint8_t byte : bytes) {
    out.push_back(kDigits[byte >> 4]);
    out.push_back(kDigits[byte & 15]);
  }
  out.push_back('"');
  return out;
}

}  // namespace

absl::StatusOr<std::string> DenseAttr(const Literal& literal) {
  const Shape& shape = literal.shape();
  if (!shape.IsArray() || !shape.is_static()) {
    return NoForm("only static array literals become dense attributes");
  }
  absl::StatusOr<std::string> type = TypeString(shape);
  if (!type.ok()) return type.status();
  if (literal.element_count() == 0) {
    return absl::StrCat("dense<> : ", *type);
  }
  absl::Span<const uint8_t> data = literal.data();
  size_t element_bytes = data.size() / literal.element_count();
  bool splat = IsSplat(data, element_bytes);
  std::string value;
  if (shape.element_type() == ElementType::kPred) {
    int64_t next = 0;
    value = splat ? (literal.GetBits(0) != 0 ? "true" : "false")
                  : PredList(literal, 0, &next);
  } else {
    value = Hex(splat ? data.subspan(0, element_bytes) : data);
  }
  return absl::StrCat("dense<", value, "> : ", *type);
}

}  // namespace kiln::stablehlo
