#include "compiler/ops/testing/rule_cases.h"

#include "absl/strings/str_cat.h"
#include "compiler/ops/testing/family_shape_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kiln {
namespace shape_test {

using ::testing::HasSubstr;
using ::testing::StartsWith;

void ExpectRuleErrors(const std::vector<RuleCase>& cases,
                      absl::string_view instruction) {
  for (const RuleCase& c : cases) {
    SCOPED_TRACE(c.constraint);
    const std::string error = InferError(c.hlo);
    EXPECT_THAT(error, HasSubstr(c.error.what));
    if (c.error.section.empty()) continue;
    EXPECT_THAT(error, StartsWith(absl::StrCat(instruction, ": ")));
    EXPECT_THAT(error, HasSubstr(absl::StrCat("(operation_semantics.md, ",
                                              c.error.section, ")")));
  }
}

}  // namespace shape_test
}  // namespace kiln
