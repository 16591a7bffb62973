#include "tools/conform/spec_index.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tools/conform/coverage.h"

namespace kiln::conform {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr const char* kSpec = R"(# Operation semantics

## Add

See also [`XlaBuilder::Add`](https://example.com).

**`Add(lhs, rhs)`**

Performs element-wise addition of `lhs` and
`rhs`. Overflow wraps, e.g. for s8. Really!

| Arguments | Type | Semantics |
| --------- | ---- | --------- |
| `lhs`     | `XlaOp` | left operand of |
:           :         : type T        :

```
ROOT r = add(a, b). Not a sentence.
```

### Examples

The sum of 1 and 2 is 3.

## Max

Returns the larger value.
)";

TEST(SpecIndexTest, SectionsAndSentences) {
  SpecIndex spec = SpecIndex::Parse(kSpec);
  ASSERT_EQ(spec.sections().size(), 4);
  const SpecSection& add = spec.sections()[1];
  EXPECT_EQ(add.title, "Add");
  EXPECT_EQ(add.level, 2);
  EXPECT_EQ(add.line, 3);
  EXPECT_EQ(spec.sections()[2].parent, 1);
  std::vector<std::string> sentences;
  for (const SpecSentence& s : add.sentences) sentences.push_back(s.stripped);
  EXPECT_THAT(sentences,
              ElementsAre("Performs element-wise addition of lhs and rhs.",
                          "Overflow wraps, e.g. for s8.", "Really!",
                          "lhs XlaOp left operand of type T"));
  EXPECT_THAT(add.full_text, HasSubstr("The sum of 1 and 2 is 3."));
}

TEST(SpecIndexTest, CheckReferences) {
  SpecIndex spec = SpecIndex::Parse(kSpec);
  EXPECT_TRUE(
      spec.Check({"Add", "element-wise addition of `lhs` and `rhs`"}).ok());
  EXPECT_TRUE(spec.Check({"Add", "addition of lhs and rhs"}).ok());
  EXPECT_TRUE(spec.Check({"Add", "The sum of 1 and 2"}).ok());  // subsection
  EXPECT_TRUE(spec.Check({"Examples", "sum of 1"}).ok());
  absl::Status missing = spec.Check({"Max", "addition"});
  EXPECT_THAT(missing.message(),
              HasSubstr("the fragment 'addition' does not occur verbatim in "
                        "section 'Max'"));
  EXPECT_THAT(spec.Check({"Sum", "x"}).message(),
              HasSubstr("no section titled 'Sum'"));

  Case c;
  c.name = "c";
  c.file = "f.hlotest";
  c.spec.push_back({"Max", "Returns the larger", 4});
  c.spec.push_back({"Max", "Returns the smaller", 5});
  EXPECT_THAT(CheckSpecReferences({c}, spec).message(),
              HasSubstr("f.hlotest:5: error: case c: spec: the fragment"));
}

TEST(SpecIndexTest, CitesAndCoverage) {
  SpecIndex spec = SpecIndex::Parse(kSpec);
  const SpecSection& add = spec.sections()[1];
  EXPECT_TRUE(spec.Cites({"Add", "Overflow wraps"}, 1, add.sentences[1]));
  EXPECT_FALSE(spec.Cites({"Max", "Overflow wraps"}, 1, add.sentences[1]));
  // A reference to a parent section cites the subsection's sentences too.
  EXPECT_TRUE(spec.Cites({"Add", "The sum of 1 and 2"}, 2,
                         spec.sections()[2].sentences[0]));

  std::vector<Case> cases(2);
  cases[0].spec.push_back({"Add", "Overflow wraps"});
  cases[1].spec.push_back({"Max", "the larger value"});
  std::vector<CaseTraits> traits = {{{"add"}, {ElementType::kS8}},
                                    {{"maximum"}, {ElementType::kF32}}};
  Coverage coverage = ComputeCoverage(cases, traits, spec);
  EXPECT_EQ(coverage.spec_ops, 2);
  EXPECT_EQ(coverage.spec_ops_without_cases, 0);
  EXPECT_EQ(coverage.sentences, 6);
  EXPECT_EQ(coverage.uncited.size(), 4);
  const std::string text = CoverageText(coverage);
  EXPECT_THAT(text, HasSubstr("  maximum"));
  EXPECT_THAT(text, HasSubstr("[Add] Really!"));
  EXPECT_THAT(text, HasSubstr("[Examples] The sum of 1 and 2 is 3."));
  EXPECT_THAT(text, ::testing::Not(HasSubstr("[Add] Overflow wraps")));
  EXPECT_THAT(text, HasSubstr("coverage: 2 of 2 spec ops have cases, 2 of 6 "
                              "spec sentences are cited"));
}

TEST(CoverageTest, SectionsMapToOpcodes) {
  EXPECT_THAT(OpcodesOfSection("Add"), ElementsAre("add"));
  EXPECT_THAT(OpcodesOfSection("AllGather"), ElementsAre("all-gather"));
  EXPECT_THAT(OpcodesOfSection("Expm1"), ElementsAre("exponential-minus-one"));
  EXPECT_THAT(OpcodesOfSection("Eq"), ElementsAre("compare"));
  EXPECT_THAT(OpcodesOfSection("ConcatInDim (Concatenate)"),
              ElementsAre("concatenate"));
  EXPECT_THAT(OpcodesOfSection("RoundNearestAfz"),
              ElementsAre("round-nearest-afz"));
  EXPECT_TRUE(OpcodesOfSection("General Semantics").empty());
}

}  // namespace
}  // namespace kiln::conform
