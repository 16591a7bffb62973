#include "backends/pjrt/probes.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"

namespace kiln::pjrt::internal {
namespace {

constexpr const char* kUnary[] = {
    "abs",
    "cbrt",
    "ceil",
    "count-leading-zeros",
    "cosine",
    "erf",
    "exponential",
    "exponential-minus-one",
    "floor",
    "imag",
    "is-finite",
    "log",
    "log-plus-one",
    "logistic",
    "negate",
    "not",
    "popcnt",
    "real",
    "round-nearest-afz",
    "round-nearest-even",
    "rsqrt",
    "sign",
    "sine",
    "sqrt",
    "tan",
    "tanh",
};

constexpr const char* kBinary[] = {
    "add",
    "and",
    "atan2",
    "complex",
    "divide",
    "maximum",
    "minimum",
    "multiply",
    "or",
    "power",
    "remainder",
    "shift-left",
    "shift-right-arithmetic",
    "shift-right-logical",
    "subtract",
    "xor",
};

struct Template {
  const char* op;
  const char* body;  // The entry computation; $T is the type.
};

constexpr Template kTemplates[] = {
    {"compare",
     "  p0 = $T[4] parameter(0)\n  p1 = $T[4] parameter(1)\n"
     "  ROOT r = pred[4] compare(p0, p1), direction=LT\n"},
    {"select",
     "  p0 = pred[4] parameter(0)\n  p1 = $T[4] parameter(1)\n"
     "  p2 = $T[4] parameter(2)\n  ROOT r = $T[4] select(p0, p1, p2)\n"},
    {"clamp",
     "  p0 = $T[4] parameter(0)\n  p1 = $T[4] parameter(1)\n"
     "  p2 = $T[4] parameter(2)\n  ROOT r = $T[4] clamp(p0, p1, p2)\n"},
    {"convert",
     "  p0 = $T[4] parameter(0)\n  c = f32[4] convert(p0)\n"
     "  ROOT r = $T[4] convert(c)\n"},
    {"broadcast",
     "  p0 = $T[4] parameter(0)\n"
     "  ROOT r = $T[3,4] broadcast(p0), dimensions={1}\n"},
    {"reshape", "  p0 = $T[4] parameter(0)\n  ROOT r = $T[2,2] reshape(p0)\n"},
    {"transpose",
     "  p0 = $T[2,3] parameter(0)\n"
     "  ROOT r = $T[3,2] transpose(p0), dimensions={1,0}\n"},
    {"slice",
     "  p0 = $T[4] parameter(0)\n  ROOT r = $T[2] slice(p0), "
     "slice={[1:3]}\n"},
    {"concatenate",
     "  p0 = $T[4] parameter(0)\n"
     "  ROOT r = $T[8] concatenate(p0, p0), dimensions={0}\n"},
    {"reverse",
     "  p0 = $T[4] parameter(0)\n  ROOT r = $T[4] reverse(p0), "
     "dimensions={0}\n"},
    {"pad",
     "  p0 = $T[4] parameter(0)\n  z = $T[] constant(0)\n"
     "  ROOT r = $T[6] pad(p0, z), padding=1_1\n"},
    {"iota", "  ROOT r = $T[4] iota(), iota_dimension=0\n"},
    {"dot",
     "  p0 = $T[2,3] parameter(0)\n  p1 = $T[3,2] parameter(1)\n"
     "  ROOT r = $T[2,2] dot(p0, p1), lhs_contracting_dims={1}, "
     "rhs_contracting_dims={0}\n"},
};

}  // namespace

std::optional<std::string> OpProbe(Opcode opcode, ElementType type) {
  const absl::string_view name = OpcodeName(opcode);
  std::string body;
  for (const char* op : kUnary) {
    if (name == op) {
      body =
          absl::StrCat("  p0 = $T[4] parameter(0)\n  ROOT r = ", op, "(p0)\n");
    }
  }
  for (const char* op : kBinary) {
    if (name == op) {
      body = absl::StrCat(
          "  p0 = $T[4] parameter(0)\n  p1 = $T[4] parameter(1)\n"
          "  ROOT r = ",
          op, "(p0, p1)\n");
    }
  }
  for (const Template& t : kTemplates) {
    if (name == t.op) body = t.body;
  }
  if (body.empty()) return std::nullopt;
  return absl::StrReplaceAll(
      absl::StrCat("HloModule probe\n\nENTRY e {\n", body, "}\n"),
      {{"$T", ElementTypeName(type)}});
}

std::optional<std::string> TypeProbe(ElementType type) {
  if (!IsArrayType(type)) return std::nullopt;
  const ElementTypeInfo& info = GetElementTypeInfo(type);
  std::string mlir_type;
  switch (info.kind) {
    case TypeKind::kPred:
      mlir_type = "i1";
      break;
    case TypeKind::kSigned:
      mlir_type = absl::StrCat("i", info.bit_width);
      break;
    case TypeKind::kUnsigned:
      mlir_type = absl::StrCat("ui", info.bit_width);
      break;
    case TypeKind::kComplex:
      mlir_type = type == ElementType::kC64 ? "complex<f32>" : "complex<f64>";
      break;
    default: {
      // Floats: MLIR spells f8e4m3fn as f8E4M3FN (the letters after the
      // first 'e' upper case), bf16/f16/f32/f64 as they are.
      std::string name(ElementTypeName(type));
      const size_t e = name.find('e');
      if (e != std::string::npos) {
        for (size_t i = e; i < name.size(); ++i) {
          name[i] = static_cast<char>(std::toupper(name[i]));
        }
      }
      mlir_type = name;
    }
  }
  const std::string t = absl::StrCat("tensor<2x", mlir_type, ">");
  return absl::StrCat(
      "module @probe {\n  func.func @main(%a: tensor<2xf32>) -> "
      "tensor<2xf32> {\n    %0 = stablehlo.convert %a : (tensor<2xf32>) -> ",
      t, "\n    %1 = stablehlo.convert %0 : (", t,
      ") -> tensor<2xf32>\n    return %1 : tensor<2xf32>\n  }\n}\n");
}

}  // namespace kiln::pjrt::internal
