#include "compiler/builder/constants.h"

#include <cmath>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/float_convert.h"
#include "compiler/ir/opcode.h"

namespace kiln {
namespace constants_internal {

XlaOp MakeConstant(XlaBuilder* builder, absl::string_view what,
                   ElementType type, absl::Span<const int64_t> dimensions,
                   absl::FunctionRef<void(Literal*)> fill) {
  if (builder == nullptr) return XlaOp();
  if (!builder->ok()) return XlaOp();
  absl::StatusOr<Literal> literal = Literal::Create(Shape::Array(
      type, std::vector<int64_t>(dimensions.begin(), dimensions.end())));
  if (!literal.ok()) {
    return builder->ReportError(
        absl::Status(literal.status().code(),
                     absl::StrCat(what, ": ", literal.status().message())));
  }
  fill(&*literal);
  return ConstantLiteral(builder, *std::move(literal));
}

XlaOp Fail(XlaBuilder* builder, absl::string_view what,
           absl::string_view message, absl::string_view section) {
  return builder->ReportError(absl::InvalidArgumentError(
      absl::StrCat(what, ": ", message, " (", section, ")")));
}

absl::Status CheckValueFitsType(absl::string_view what, ElementType type,
                                bool value_is_float, bool value_is_complex) {
  const bool float_target = IsFloatType(type) || IsComplexType(type);
  if (!IsArrayType(type) || (value_is_float && !float_target) ||
      (value_is_complex && !IsComplexType(type))) {
    return absl::InvalidArgumentError(absl::StrCat(
        what, ": a ",
        value_is_complex ? "complex"
                         : (value_is_float ? "floating-point" : "integral"),
        " value cannot become a ", ElementTypeName(type), " scalar"));
  }
  return absl::OkStatus();
}

}  // namespace constants_internal

namespace {

using constants_internal::Fail;
using constants_internal::MakeConstant;

// Which element types a named scalar is defined for.
enum class Defined { kArrays, kReal, kFloats };

bool IsDefinedFor(Defined defined, ElementType type) {
  switch (defined) {
    case Defined::kArrays:
      return IsArrayType(type);
    case Defined::kReal:
      return IsArrayType(type) && !IsComplexType(type);
    case Defined::kFloats:
      return IsFloatType(type);
  }
  return false;
}

absl::string_view DefinedText(Defined defined) {
  switch (defined) {
    case Defined::kArrays:
      return "an array element type";
    case Defined::kReal:
      return "a pred, integral or floating-point type (complex numbers have "
             "no order)";
    case Defined::kFloats:
      return "a floating-point type";
  }
  return "";
}

// A scalar of `type` whose one element `set` stores; an error naming `what`
// when `type` is not one `defined` allows.
XlaOp NamedScalar(XlaBuilder* builder, absl::string_view what, ElementType type,
                  Defined defined, absl::FunctionRef<void(Literal*)> set) {
  if (builder == nullptr) return XlaOp();
  if (!IsDefinedFor(defined, type)) {
    return Fail(
        builder, what,
        absl::StrCat(ElementTypeName(type), " is not ", DefinedText(defined)),
        "XLA's constants library");
  }
  return MakeConstant(builder, what, type, {}, set);
}

// The bit patterns of the least and greatest values of an integral or pred
// type (pred: false and true).
uint64_t LowestIntBits(ElementType type) {
  if (!IsSignedIntType(type)) return 0;
  return uint64_t{1} << (BitWidth(type) - 1);  // The sign bit alone.
}
uint64_t HighestIntBits(ElementType type) {
  if (type == ElementType::kPred) return 1;
  if (!IsSignedIntType(type)) return ~uint64_t{0};  // Masked to the width.
  return (uint64_t{1} << (BitWidth(type) - 1)) - 1;
}

// The lowest finite float: -max, or for an unsigned format (f8e8m0fnu) its
// smallest value, whose bit pattern is all zeros.
void SetLowestFiniteFloat(Literal* literal) {
  const ElementType type = literal->element_type();
  if (GetElementTypeInfo(type).is_signed) {
    literal->SetDouble(0, -FloatMax(type));
  } else {
    literal->SetBits(0, 0);
  }
}

void SetLowestFinite(Literal* literal) {
  if (IsFloatType(literal->element_type())) {
    SetLowestFiniteFloat(literal);
  } else {
    literal->SetBits(0, LowestIntBits(literal->element_type()));
  }
}

void SetHighestFinite(Literal* literal) {
  const ElementType type = literal->element_type();
  if (IsFloatType(type)) {
    literal->SetDouble(0, FloatMax(type));
  } else {
    literal->SetBits(0, HighestIntBits(type));
  }
}

}  // namespace

XlaOp Zero(XlaBuilder* builder, ElementType type) {
  // The zero-filled literal is 0 of every type (f8e8m0fnu: 2^-127).
  return NamedScalar(builder, "Zero", type, Defined::kArrays, [](Literal*) {});
}

XlaOp One(XlaBuilder* builder, ElementType type) {
  return NamedScalar(builder, "One", type, Defined::kArrays,
                     [](Literal* literal) { literal->SetInt64(0, 1); });
}

XlaOp Epsilon(XlaBuilder* builder, ElementType type) {
  return NamedScalar(
      builder, "Epsilon", type, Defined::kFloats, [](Literal* literal) {
        const int mantissa_bits =
            GetElementTypeInfo(literal->element_type()).mantissa_bits;
        literal->SetDouble(0, std::ldexp(1.0, -mantissa_bits));
      });
}

XlaOp MinValue(XlaBuilder* builder, ElementType type) {
  return NamedScalar(
      builder, "MinValue", type, Defined::kReal, [](Literal* literal) {
        const ElementTypeInfo& info =
            GetElementTypeInfo(literal->element_type());
        if (info.kind == TypeKind::kFloat && info.has_inf) {
          literal->SetDouble(0, -std::numeric_limits<double>::infinity());
        } else {
          SetLowestFinite(literal);
        }
      });
}

XlaOp MinFiniteValue(XlaBuilder* builder, ElementType type) {
  return NamedScalar(builder, "MinFiniteValue", type, Defined::kReal,
                     &SetLowestFinite);
}

XlaOp MinPositiveNormalValue(XlaBuilder* builder, ElementType type) {
  return NamedScalar(builder, "MinPositiveNormalValue", type, Defined::kFloats,
                     [](Literal* literal) {
                       literal->SetDouble(
                           0, FloatMinNormal(literal->element_type()));
                     });
}

XlaOp MaxValue(XlaBuilder* builder, ElementType type) {
  return NamedScalar(
      builder, "MaxValue", type, Defined::kReal, [](Literal* literal) {
        const ElementTypeInfo& info =
            GetElementTypeInfo(literal->element_type());
        if (info.kind == TypeKind::kFloat && info.has_inf) {
          literal->SetDouble(0, std::numeric_limits<double>::infinity());
        } else {
          SetHighestFinite(literal);
        }
      });
}

XlaOp MaxFiniteValue(XlaBuilder* builder, ElementType type) {
  return NamedScalar(builder, "MaxFiniteValue", type, Defined::kReal,
                     &SetHighestFinite);
}

XlaOp NanValue(XlaBuilder* builder, ElementType type) {
  if (builder != nullptr && IsFloatType(type) &&
      !GetElementTypeInfo(type).has_nan) {
    return Fail(builder, "NanValue",
                absl::StrCat(ElementTypeName(type), " has no NaN"),
                "XLA's constants library");
  }
  return NamedScalar(
      builder, "NanValue", type, Defined::kFloats, [](Literal* literal) {
        literal->SetDouble(0, std::numeric_limits<double>::quiet_NaN());
      });
}

XlaOp Iota(XlaBuilder* builder, const Shape& shape, int64_t iota_dimension) {
  if (builder == nullptr) return XlaOp();
  // The core takes a declared shape as given; sizes must be valid first.
  if (absl::Status valid = shape.Validate(); !valid.ok()) {
    return Fail(builder, "iota",
                absl::StrCat("invalid shape: ", valid.message()),
                "operation_semantics.md, Iota");
  }
  AttributeMap attrs;
  attrs.Set(attr::kIotaDimension, iota_dimension);
  return builder->AddInstruction(Opcode::kIota, {}, std::move(attrs), shape);
}

XlaOp Iota(XlaBuilder* builder, ElementType type, int64_t size) {
  return Iota(builder, Shape::Array(type, {size}), 0);
}

}  // namespace kiln
