// Sort comparators run as a ScalarProgram (reduction_scalar_program.h)
// against the same comparators called through the evaluator (kept there by
// an unused sine, outside the program's op set): comparators as JAX and
// XLA's tests write them (the bit-pattern total order, lexicographic keys,
// NaN canonicalisation), integer arithmetic that wraps, signed and
// unsigned and sub-byte compares, and comparators that are no order at
// all. The permutations must be identical.
#include "compiler/evaluator/reduction_scalar_program.h"

#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/ir/literal.h"
#include "compiler/text/parser.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

struct Comparator {
  std::vector<std::string> types;  // One per sort operand.
  std::string body;                // Over p0..p(2n-1); ends with ROOT.
};

std::string SortHlo(const Comparator& c, int64_t n, bool slow) {
  std::string text = "HloModule m\ncmp {\n";
  for (size_t k = 0; k < c.types.size(); ++k) {
    for (int side = 0; side < 2; ++side) {
      absl::StrAppend(&text, "  p", 2 * k + side, " = ", c.types[k],
                      "[] parameter(", 2 * k + side, ")\n");
    }
  }
  if (slow) {
    absl::StrAppend(&text,
                    "  dz = f32[] constant(0)\n  dead = f32[] sine(dz)\n");
  }
  absl::StrAppend(&text, c.body, "\n}\nENTRY e {\n");
  std::vector<std::string> names, shapes;
  for (size_t k = 0; k < c.types.size(); ++k) {
    const std::string shape = absl::StrCat(c.types[k], "[", n, "]");
    absl::StrAppend(&text, "  x", k, " = ", shape, " parameter(", k, ")\n");
    names.push_back(absl::StrCat("x", k));
    shapes.push_back(shape);
  }
  const std::string result =
      c.types.size() == 1 ? shapes[0]
                          : absl::StrCat("(", absl::StrJoin(shapes, ", "), ")");
  absl::StrAppend(&text, "  ROOT s = ", result, " sort(",
                  absl::StrJoin(names, ", "),
                  "), dimensions={0}, to_apply=cmp\n}\n");
  return text;
}

const Comparator kComparators[] = {
    // JAX's total order on f32 bit patterns, then argsort's iota.
    {{"f32", "s32"},
     R"(  ba = s32[] bitcast-convert(p0)
  z = s32[] constant(0)
  na = pred[] compare(ba, z), direction=LT
  m = u32[] constant(2147483647)
  ua = u32[] bitcast-convert(p0)
  sa = u32[] subtract(m, ua)
  fa = s32[] bitcast-convert(sa)
  ka = s32[] select(na, fa, ba)
  bb = s32[] bitcast-convert(p1)
  nb = pred[] compare(bb, z), direction=LT
  ub = u32[] bitcast-convert(p1)
  sb = u32[] subtract(m, ub)
  fb = s32[] bitcast-convert(sb)
  kb = s32[] select(nb, fb, bb)
  ROOT lt = pred[] compare(ka, kb), direction=LT)"},
    // Two keys: s32 descending, then f32 ascending.
    {{"s32", "f32"},
     R"(  kgt = pred[] compare(p0, p1), direction=GT
  keq = pred[] compare(p0, p1), direction=EQ
  vlt = pred[] compare(p2, p3), direction=LT
  tie = pred[] and(keq, vlt)
  ROOT less = pred[] or(kgt, tie))"},
    // NaNs made one NaN, then the total order (bf16 keys, f16 values).
    {{"bf16", "f16"},
     R"(  nan = bf16[] constant(nan)
  ia = pred[] compare(p0, p0), direction=NE
  ib = pred[] compare(p1, p1), direction=NE
  a = bf16[] select(ia, nan, p0)
  b = bf16[] select(ib, nan, p1)
  ROOT lt = pred[] compare(a, b), direction=LT, type=TOTALORDER)"},
    // Wrapping u8 add, and s4 negate with a signed compare.
    {{"u8", "s4"},
     R"(  c = u8[] constant(100)
  a = u8[] add(p0, c)
  b = u8[] add(p1, c)
  na = s4[] negate(p2)
  nb = s4[] negate(p3)
  first = pred[] compare(a, b), direction=LT
  eq = pred[] compare(a, b), direction=EQ
  second = pred[] compare(na, nb), direction=GE
  both = pred[] and(eq, second)
  ROOT r = pred[] or(first, both))"},
    // No order: xor of two comparisons, and not.
    {{"f64", "pred"},
     R"(  a = pred[] compare(p0, p1), direction=LE
  b = pred[] compare(p2, p3), direction=NE
  x = pred[] xor(a, b)
  ROOT r = pred[] not(x))"},
    // s64 squares (wrapping) and an unsigned compare of bit patterns.
    {{"s64"},
     R"(  a = s64[] multiply(p0, p0)
  b = s64[] multiply(p1, p1)
  ua = u64[] bitcast-convert(a)
  ub = u64[] bitcast-convert(b)
  ROOT r = pred[] compare(ua, ub), direction=GT)"},
};

double Draw(const std::string& type, std::mt19937_64& gen) {
  if (type == "pred") return static_cast<double>(gen() % 2);
  const uint64_t pick = gen() % 12;
  if (type[0] == 'f' || type == "bf16") {
    if (pick == 0) return std::nan("");
    if (pick == 1) return -std::nan("");
    if (pick == 2) return -0.0;
    if (pick == 3) return std::numeric_limits<double>::infinity();
    return static_cast<double>(gen() % 11) - 5;
  }
  if (type == "s4") return static_cast<double>(gen() % 16) - 8;
  if (type[0] == 'u') return static_cast<double>(gen() % 256);
  return static_cast<double>(gen() % 2001) * 1e15 * (gen() % 2 ? 1 : -1);
}

TEST(ScalarProgramTest, SortsAsCallingTheComparatorDoes) {
  std::mt19937_64 gen(2024);
  for (const Comparator& c : kComparators) {
    for (int64_t n : {0, 1, 7, 300}) {
      absl::StatusOr<std::unique_ptr<Module>> fast =
          ParseModule(SortHlo(c, n, false));
      absl::StatusOr<std::unique_ptr<Module>> slow =
          ParseModule(SortHlo(c, n, true));
      ASSERT_TRUE(fast.ok()) << fast.status();
      ASSERT_TRUE(slow.ok()) << slow.status();
      std::vector<ElementType> types;
      for (const Instruction* p :
           (*fast)->FindComputation("cmp")->parameters()) {
        types.push_back(p->shape().element_type());
      }
      EXPECT_TRUE(eval::ScalarProgram::Compile(*(*fast)->FindComputation("cmp"),
                                               types, ElementType::kPred)
                      .has_value())
          << c.body;
      EXPECT_FALSE(
          eval::ScalarProgram::Compile(*(*slow)->FindComputation("cmp"), types,
                                       ElementType::kPred)
              .has_value())
          << c.body;
      std::vector<Literal> arguments;
      for (size_t k = 0; k < c.types.size(); ++k) {
        Literal argument =
            *Literal::Create((*fast)->entry()->parameter(k)->shape());
        for (int64_t i = 0; i < n; ++i) {
          argument.SetDouble(i, Draw(c.types[k], gen));
        }
        arguments.push_back(std::move(argument));
      }
      absl::StatusOr<Literal> expected = Evaluate(**slow, arguments);
      absl::StatusOr<Literal> actual = Evaluate(**fast, arguments);
      ASSERT_TRUE(expected.ok()) << expected.status();
      ASSERT_TRUE(actual.ok()) << actual.status();
      EXPECT_TRUE(*expected == *actual) << c.body << "\nn=" << n;
    }
  }
}

// topk with a comparator runs it as a ScalarProgram too.
TEST(ScalarProgramTest, TopKAsCallingTheComparatorDoes) {
  const auto hlo = [](bool slow) {
    return absl::StrCat(
        "HloModule m\ngt {\n  a = f32[] parameter(0)\n  b = f32[] "
        "parameter(1)\n",
        slow ? "  dz = f32[] constant(0)\n  dead = f32[] sine(dz)\n" : "",
        "  ia = pred[] compare(a, a), direction=NE\n  nan = f32[] "
        "constant(nan)\n  x = f32[] select(ia, nan, a)\n  ROOT r = pred[] "
        "compare(x, b), direction=GT, type=TOTALORDER\n}\nENTRY e {\n  p = "
        "f32[3,60] parameter(0)\n  ROOT t = (f32[3,7], s32[3,7]) topk(p), "
        "k=7, to_apply=gt\n}\n");
  };
  absl::StatusOr<std::unique_ptr<Module>> fast = ParseModule(hlo(false));
  absl::StatusOr<std::unique_ptr<Module>> slow = ParseModule(hlo(true));
  ASSERT_TRUE(fast.ok()) << fast.status();
  ASSERT_TRUE(slow.ok()) << slow.status();
  std::mt19937_64 gen(7);
  std::vector<Literal> arguments;
  arguments.push_back(
      *Literal::Create(Shape::Array(ElementType::kF32, {3, 60})));
  for (int64_t i = 0; i < 180; ++i) {
    arguments[0].SetDouble(i, Draw("f32", gen));
  }
  absl::StatusOr<Literal> expected = Evaluate(**slow, arguments);
  absl::StatusOr<Literal> actual = Evaluate(**fast, arguments);
  ASSERT_TRUE(expected.ok()) << expected.status();
  ASSERT_TRUE(actual.ok()) << actual.status();
  EXPECT_TRUE(*expected == *actual);
}

}  // namespace
}  // namespace kiln
