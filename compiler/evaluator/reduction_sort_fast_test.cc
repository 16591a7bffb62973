// Sort's fast comparator (reduction_comparator.h) against calling the
// comparator (the general path) on random sorts: 1 to 3 operands of
// random types, keys drawn with many duplicates, NaNs and signed zeros,
// comparators compare(p2k, p2k+1) or compare(p2k+1, p2k) on a random
// operand k with every direction and comparison type, along either
// dimension of a matrix. The permutations must be identical, also for the
// comparators that are not strict weak orders.
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

// The sort module; with `dead`, the comparator has an unused instruction,
// which keeps the sort on the general path.
std::string SortHlo(const std::vector<std::string>& types,
                    const std::string& dims, int dimension, int lhs, int rhs,
                    const std::string& direction, bool dead) {
  std::string text = "HloModule m\ncmp {\n";
  for (size_t k = 0; k < types.size(); ++k) {
    for (int side = 0; side < 2; ++side) {
      const size_t index = 2 * k + side;
      absl::StrAppend(&text, "  p", index, " = ", types[k], "[] parameter(",
                      index, ")\n");
    }
  }
  if (dead) absl::StrAppend(&text, "  dead = pred[] constant(true)\n");
  absl::StrAppend(&text, "  ROOT c = pred[] compare(p", lhs, ", p", rhs,
                  "), direction=", direction, "\n}\nENTRY e {\n");
  std::vector<std::string> names, shapes;
  for (size_t k = 0; k < types.size(); ++k) {
    const std::string shape = absl::StrCat(types[k], "[", dims, "]");
    absl::StrAppend(&text, "  x", k, " = ", shape, " parameter(", k, ")\n");
    names.push_back(absl::StrCat("x", k));
    shapes.push_back(shape);
  }
  const std::string result =
      types.size() == 1 ? shapes[0]
                        : absl::StrCat("(", absl::StrJoin(shapes, ", "), ")");
  absl::StrAppend(&text, "  ROOT s = ", result, " sort(",
                  absl::StrJoin(names, ", "), "), dimensions={", dimension,
                  "}, to_apply=cmp\n}\n");
  return text;
}

TEST(SortFastComparatorTest, AgreesWithCallingTheComparator) {
  const std::vector<std::string> key_types = {"f32", "bf16", "f64",  "s32",
                                              "u8",  "s64",  "pred", "f16"};
  const std::vector<std::string> directions = {"LT", "GT", "LE",
                                               "GE", "EQ", "NE"};
  std::mt19937_64 gen(1313);
  int compared = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int count = 1 + static_cast<int>(gen() % 3);
    std::vector<std::string> types;
    for (int k = 0; k < count; ++k) {
      types.push_back(key_types[gen() % key_types.size()]);
    }
    const int k = static_cast<int>(gen() % count);
    const bool swapped = gen() % 2 == 1;
    const int lhs = 2 * k + (swapped ? 1 : 0);
    const int rhs = 2 * k + (swapped ? 0 : 1);
    std::string direction = directions[gen() % directions.size()];
    const bool is_float = types[k][0] == 'f' || types[k] == "bf16";
    if (is_float && gen() % 2 == 0)
      absl::StrAppend(&direction, ", type=TOTALORDER");
    const bool matrix = gen() % 2 == 0;
    const std::string dims =
        matrix ? absl::StrCat(1 + gen() % 4, ",", 1 + gen() % 40)
               : absl::StrCat(gen() % 200);
    const int dimension = matrix ? static_cast<int>(gen() % 2) : 0;
    absl::StatusOr<std::unique_ptr<Module>> fast = ParseModule(
        SortHlo(types, dims, dimension, lhs, rhs, direction, false));
    absl::StatusOr<std::unique_ptr<Module>> slow =
        ParseModule(SortHlo(types, dims, dimension, lhs, rhs, direction, true));
    ASSERT_TRUE(fast.ok()) << fast.status();
    ASSERT_TRUE(slow.ok()) << slow.status();
    std::vector<Literal> arguments;
    for (int o = 0; o < count; ++o) {
      absl::StatusOr<Literal> argument =
          Literal::Create((*fast)->entry()->parameter(o)->shape());
      ASSERT_TRUE(argument.ok());
      for (int64_t i = 0; i < argument->element_count(); ++i) {
        if (types[o] == "pred") {
          argument->SetBits(i, gen() % 2);
          continue;
        }
        const uint64_t pick = gen() % 16;
        double value = static_cast<double>(gen() % 9) - 4;
        if (types[o][0] == 'u') value = static_cast<double>(gen() % 9);
        if (types[o][0] == 'f' || types[o] == "bf16") {
          if (pick == 0) value = std::nan("");
          if (pick == 1) value = -std::nan("");
          if (pick == 2) value = -0.0;
          if (pick == 3) value = -std::numeric_limits<double>::infinity();
        }
        argument->SetDouble(i, value);
      }
      arguments.push_back(*std::move(argument));
    }
    absl::StatusOr<Literal> expected = Evaluate(**slow, arguments);
    absl::StatusOr<Literal> actual = Evaluate(**fast, arguments);
    ASSERT_TRUE(expected.ok()) << expected.status();
    ASSERT_TRUE(actual.ok()) << actual.status();
    ASSERT_TRUE(*expected == *actual)
        << absl::StrJoin(types, ",") << " [" << dims << "] dim " << dimension
        << " compare(p" << lhs << ", p" << rhs << "), direction=" << direction;
    ++compared;
  }
  EXPECT_EQ(compared, 300);
}

}  // namespace
}  // namespace kiln
