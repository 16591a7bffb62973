#include "tools/conform/expectations.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kiln::conform {
namespace {

using ::testing::HasSubstr;

Case NamedCase(const std::string& name) {
  Case c;
  c.name = name;
  return c;
}

CaseTraits Traits(std::vector<std::string> ops,
                  std::vector<ElementType> types) {
  return CaseTraits{std::move(ops), std::move(types)};
}

CaseResult Result(Outcome outcome, std::string message = "") {
  return CaseResult{outcome, std::move(message), 0};
}

constexpr const char* kFile = R"(# comment
xfail a.known: wrong rounding
unsupported b.skip: no tuples here
unsupported op=cholesky: not implemented
unsupported type=f8e4m3fn: no fp8
)";

TEST(ExpectationsTest, ParseAndFind) {
  absl::StatusOr<Expectations> e = Expectations::Parse(kFile, "r.txt");
  ASSERT_TRUE(e.ok()) << e.status();
  ASSERT_EQ(e->entries().size(), 4);
  const Expectation* known = e->Find(NamedCase("a.known"), Traits({}, {}));
  ASSERT_NE(known, nullptr);
  EXPECT_EQ(known->kind, ExpectationKind::kXfail);
  EXPECT_EQ(known->reason, "wrong rounding");
  EXPECT_EQ(known->line, 2);
  EXPECT_TRUE(e->SkipsCase(NamedCase("b.skip"), Traits({}, {})));
  EXPECT_TRUE(e->SkipsCase(NamedCase("c"), Traits({"cholesky"}, {})));
  EXPECT_TRUE(
      e->SkipsCase(NamedCase("d"), Traits({"add"}, {ElementType::kF8E4M3FN})));
  EXPECT_FALSE(
      e->SkipsCase(NamedCase("d"), Traits({"add"}, {ElementType::kF32})));
  EXPECT_FALSE(e->SkipsCase(NamedCase("a.known"), Traits({}, {})));
}

TEST(ExpectationsTest, Classify) {
  absl::StatusOr<Expectations> e = Expectations::Parse(kFile, "r.txt");
  ASSERT_TRUE(e.ok());
  const CaseTraits none = Traits({}, {});
  EXPECT_EQ(e->Classify(NamedCase("a.known"), none, Result(Outcome::kFail)),
            Status::kExpectedFailure);
  EXPECT_EQ(e->Classify(NamedCase("a.known"), none, Result(Outcome::kPass)),
            Status::kUnexpectedPass);
  EXPECT_EQ(e->Classify(NamedCase("new"), none, Result(Outcome::kFail)),
            Status::kFailed);
  EXPECT_EQ(e->Classify(NamedCase("new"), none, Result(Outcome::kPass)),
            Status::kPassed);
  EXPECT_EQ(e->Classify(NamedCase("new"), none, Result(Outcome::kUnsupported)),
            Status::kUnsupported);
  EXPECT_TRUE(IsUnexpected(Status::kUnexpectedPass));
  EXPECT_TRUE(IsUnexpected(Status::kFailed));
  EXPECT_FALSE(IsUnexpected(Status::kExpectedFailure));
}

TEST(ExpectationsTest, Errors) {
  EXPECT_THAT(Expectations::Parse("skip x: y\n", "r.txt").status().message(),
              HasSubstr("r.txt:1: error: expected 'xfail CASE: reason'"));
  EXPECT_THAT(Expectations::Parse("\nxfail x\n", "r.txt").status().message(),
              HasSubstr("r.txt:2: error: every entry needs a reason"));
  EXPECT_THAT(
      Expectations::Parse("xfail op=add: y\n", "r.txt").status().message(),
      HasSubstr("op= and type= go with unsupported"));
  EXPECT_THAT(Expectations::Parse("xfail a: y\nunsupported a: z\n", "r.txt")
                  .status()
                  .message(),
              HasSubstr("r.txt:2: error: case 'a' is listed twice"));
}

TEST(ExpectationsTest, StaleAndUpdated) {
  absl::StatusOr<Expectations> e = Expectations::Parse(kFile, "r.txt");
  ASSERT_TRUE(e.ok());
  std::vector<Case> all = {NamedCase("a.known"), NamedCase("fixed"),
                           NamedCase("broken"), NamedCase("other")};
  std::vector<const Expectation*> stale = e->Stale(all);
  ASSERT_EQ(stale.size(), 1);
  EXPECT_EQ(stale[0]->target, "b.skip");

  std::vector<const Case*> ran = {&all[0], &all[2]};
  std::vector<CaseResult> results = {
      Result(Outcome::kFail, "still wrong"),
      Result(Outcome::kFail, "wrong result\n  details")};
  const std::string text = e->Updated(ran, results, all, "reference");
  EXPECT_THAT(text, HasSubstr("# Expectations of the reference backend"));
  EXPECT_THAT(text, HasSubstr("\nunsupported op=cholesky: not implemented\n"));
  EXPECT_THAT(text, HasSubstr("\nxfail a.known: wrong rounding\n"));
  EXPECT_THAT(text, HasSubstr("\nxfail broken: wrong result\n"));
  // The stale entry is dropped; re-reading gives the same entries.
  EXPECT_THAT(text, ::testing::Not(HasSubstr("b.skip")));
  absl::StatusOr<Expectations> again = Expectations::Parse(text, "new.txt");
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->entries().size(), 4);

  // A pass removes the entry.
  std::vector<CaseResult> pass = {Result(Outcome::kPass)};
  std::vector<const Case*> ran_known = {&all[0]};
  EXPECT_THAT(e->Updated(ran_known, pass, all, "reference"),
              ::testing::Not(HasSubstr("a.known")));
}

}  // namespace
}  // namespace kiln::conform
