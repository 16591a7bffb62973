// convert between every pair of real array types, cross-checked against
// Literal's own setters (SetDouble/SetInt64/SetUint64, which implement the
// same rules independently in compiler/ir). This is only a cross-check: the
// golden values of each rule are in conversion_kernels_test.cc.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "compiler/text/parser.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

// Sample values: small integers, halves, signs, out-of-range and specials.
constexpr double kSamples[] = {0,   -0.0, 1,     -1,   2.5,   -3.75, 7,
                               100, -129, 300.5, 1e10, -1e10, 1e-3};

std::vector<ElementType> RealArrayTypes() {
  std::vector<ElementType> types;
  for (const ElementTypeInfo& info : AllElementTypeInfos()) {
    if (IsArrayType(info.type) && info.kind != TypeKind::kComplex) {
      types.push_back(info.type);
    }
  }
  return types;
}

// The samples stored into `type` (saturated, wrapped or rounded by it).
Literal SampleLiteral(ElementType type) {
  const int64_t count = sizeof(kSamples) / sizeof(kSamples[0]);
  Literal literal = *Literal::Create(Shape::Array(type, {count}));
  for (int64_t i = 0; i < count; ++i) literal.SetDouble(i, kSamples[i]);
  return literal;
}

// What Literal's setters make of `from` in `to`.
Literal SetterConversion(const Literal& from, ElementType to) {
  Literal out = *Literal::Create(Shape::Array(to, from.shape().dimensions()));
  const TypeKind kind = GetElementTypeInfo(from.element_type()).kind;
  const TypeKind to_kind = GetElementTypeInfo(to).kind;
  const bool to_integer =
      to_kind == TypeKind::kSigned || to_kind == TypeKind::kUnsigned;
  for (int64_t i = 0; i < from.element_count(); ++i) {
    if (kind == TypeKind::kFloat || !to_integer) {
      out.SetDouble(i, from.GetDouble(i));  // Exact for these samples.
    } else if (kind == TypeKind::kSigned) {
      out.SetInt64(i, from.GetInt64(i));
    } else {
      out.SetUint64(i, from.GetUint64(i));
    }
  }
  return out;
}

TEST(ConvertCrossCheckTest, EveryPairOfRealTypesAgreesWithLiteralSetters) {
  int pairs = 0;
  for (ElementType from : RealArrayTypes()) {
    const Literal input = SampleLiteral(from);
    for (ElementType to : RealArrayTypes()) {
      const std::string from_shape =
          absl::StrCat(ElementTypeName(from), "[", input.element_count(), "]");
      const std::string to_shape =
          absl::StrCat(ElementTypeName(to), "[", input.element_count(), "]");
      absl::StatusOr<std::unique_ptr<Module>> module =
          ParseModule(eval_test::EntryModule(
              {from_shape},
              absl::StrCat("ROOT r = ", to_shape, " convert(p0)")));
      ASSERT_TRUE(module.ok()) << module.status();
      absl::StatusOr<Literal> result = Evaluate(**module, {input});
      ASSERT_TRUE(result.ok())
          << from_shape << " -> " << to_shape << ": " << result.status();
      EXPECT_EQ(eval_test::LiteralText(*result),
                eval_test::LiteralText(SetterConversion(input, to)))
          << from_shape << " -> " << to_shape;
      ++pairs;
    }
  }
  EXPECT_GE(pairs, 29 * 29);
}

}  // namespace
}  // namespace kiln
