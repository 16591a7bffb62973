#include "tools/conform/sample.h"

#include <vector>

#include "gtest/gtest.h"

namespace kiln::conform {
namespace {

CaseTraits Traits(std::vector<std::string> ops,
                  std::vector<ElementType> types) {
  CaseTraits traits;
  traits.ops = std::move(ops);
  traits.types = std::move(types);
  return traits;
}

TEST(CoverSampleTest, KeepsTheFirstCaseOfEachOpAndOfEachType) {
  const std::vector<CaseTraits> traits = {
      Traits({"add"}, {ElementType::kF32}),            // new
      Traits({"add"}, {ElementType::kS32}),            // s32
      Traits({"multiply"}, {ElementType::kF32}),       // multiply
      Traits({"multiply"}, {ElementType::kS32}),       // seen
      Traits({"add", "negate"}, {ElementType::kF32}),  // negate
      Traits({"after-all"}, {}),                       // no type
  };
  EXPECT_EQ(CoverSample(traits, {0, 1, 2, 3, 4, 5}, Cover::kOpsAndTypes),
            (std::vector<size_t>{0, 1, 2, 4, 5}));
}

TEST(CoverSampleTest, KeepsTheFirstCaseOfEachOpAndTypePair) {
  const std::vector<CaseTraits> traits = {
      Traits({"add"}, {ElementType::kF32}),                     // new
      Traits({"add"}, {ElementType::kF32}),                     // seen
      Traits({"add", "multiply"}, {ElementType::kF32}),         // multiply
      Traits({"add"}, {ElementType::kS32, ElementType::kF32}),  // add s32
      Traits({"multiply"}, {ElementType::kF32}),                // seen
      Traits({"after-all"}, {}),                                // no type
      Traits({"after-all"}, {}),                                // seen
  };
  EXPECT_EQ(CoverSample(traits, {0, 1, 2, 3, 4, 5, 6}, Cover::kPairs),
            (std::vector<size_t>{0, 2, 3, 5}));
  // Only the candidates count, in their order.
  EXPECT_EQ(CoverSample(traits, {1, 4, 0}, Cover::kPairs),
            (std::vector<size_t>{1, 4}));
  EXPECT_TRUE(CoverSample(traits, {}, Cover::kPairs).empty());
}

}  // namespace
}  // namespace kiln::conform
