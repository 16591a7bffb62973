#include "tools/conform/report.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kiln::conform {
namespace {

using ::testing::HasSubstr;

class ReportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cases_.resize(4);
    const char* names[] = {"add.f32.ok", "add.f32.bad", "exp.bf16.known",
                           "cholesky.f64.skip"};
    for (int i = 0; i < 4; ++i) {
      cases_[i].name = names[i];
      cases_[i].file = "s.hlotest";
      cases_[i].line = 10 * i + 1;
      cases_[i].spec.push_back({"Add", "Performs <addition>", 2});
    }
    Add(0, {"add"}, ElementType::kF32, Outcome::kPass, Status::kPassed, "");
    Add(1, {"add"}, ElementType::kF32, Outcome::kFail, Status::kFailed,
        "wrong result\n  expected: f32[1] {1}\n  actual:   f32[1] {2}");
    Add(2, {"exponential"}, ElementType::kBF16, Outcome::kFail,
        Status::kExpectedFailure, "off by 3 ULP");
    Add(3, {"cholesky"}, ElementType::kF64, Outcome::kUnsupported,
        Status::kUnsupported, "listed unsupported");
    summary_.backend = "reference";
    summary_.seconds = 1.5;
  }

  void Add(int i, std::vector<std::string> ops, ElementType type,
           Outcome outcome, Status status, std::string message) {
    ReportEntry e;
    e.c = &cases_[i];
    e.traits.ops = std::move(ops);
    e.traits.types = {type};
    e.result.outcome = outcome;
    e.result.message = std::move(message);
    e.status = status;
    summary_.entries.push_back(e);
  }

  std::vector<Case> cases_;
  RunSummary summary_;
};

TEST_F(ReportTest, CountsAndMatrix) {
  Counts totals = summary_.Totals();
  EXPECT_EQ(SummaryLine(totals),
            "1 passed, 1 failed, 1 expected-failure, 1 unsupported");
  auto matrix = summary_.Matrix();
  EXPECT_EQ(matrix["add"]["f32"].State(), "fail");
  EXPECT_EQ(matrix["add"]["f32"].counts.total(), 2);
  EXPECT_EQ(matrix["exponential"]["bf16"].State(), "xfail");
  EXPECT_EQ(matrix["cholesky"]["f64"].State(), "unsupported");
  EXPECT_EQ(summary_.Columns(),
            (std::vector<std::string>{"bf16", "f32", "f64"}));
}

TEST_F(ReportTest, Json) {
  nlohmann::json json = nlohmann::json::parse(ReportJson(summary_));
  EXPECT_EQ(json["backend"], "reference");
  EXPECT_EQ(json["summary"]["passed"], 1);
  EXPECT_EQ(json["summary"]["failed"], 1);
  EXPECT_EQ(json["summary"]["expected_failures"], 1);
  EXPECT_EQ(json["summary"]["unsupported"], 1);
  EXPECT_EQ(json["summary"]["total"], 4);
  EXPECT_EQ(json["matrix"]["add"]["f32"]["state"], "fail");
  EXPECT_EQ(json["matrix"]["add"]["f32"]["passed"], 1);
  ASSERT_EQ(json["cases"].size(), 4);
  const nlohmann::json& bad = json["cases"][1];
  EXPECT_EQ(bad["name"], "add.f32.bad");
  EXPECT_EQ(bad["status"], "failed");
  EXPECT_EQ(bad["outcome"], "fail");
  EXPECT_EQ(bad["line"], 11);
  EXPECT_EQ(bad["ops"][0], "add");
  EXPECT_EQ(bad["types"][0], "f32");
  EXPECT_EQ(bad["spec"][0]["section"], "Add");
  EXPECT_THAT(bad["message"].get<std::string>(), HasSubstr("actual:   f32[1]"));
}

TEST_F(ReportTest, Markdown) {
  const std::string md = ReportMarkdown(summary_);
  EXPECT_THAT(md, HasSubstr("| op | bf16 | f32 | f64 |"));
  EXPECT_THAT(md, HasSubstr("| add |  | FAIL 1/2 |  |"));
  EXPECT_THAT(md, HasSubstr("| exponential | xfail 1/1 |  |  |"));
  EXPECT_THAT(md, HasSubstr("| cholesky |  |  | unsupported |"));
  EXPECT_THAT(md, HasSubstr("### add.f32.bad (failed, s.hlotest:11)"));
  EXPECT_THAT(md, HasSubstr("### exp.bf16.known (expected-failure"));
  EXPECT_THAT(md, HasSubstr("  actual:   f32[1] {2}"));
}

TEST_F(ReportTest, Html) {
  const std::string html = ReportHtml(summary_);
  EXPECT_THAT(html, HasSubstr("<table id=\"matrix\">"));
  EXPECT_THAT(html, HasSubstr("<th>bf16</th><th>f32</th><th>f64</th>"));
  EXPECT_THAT(html, HasSubstr("<tr data-op=\"add\"><td class=\"op\">add</td>"
                              "<td></td><td class=\"fail\" "
                              "data-state=\"fail\">FAIL 1/2</td>"));
  EXPECT_THAT(html, HasSubstr("class=\"unsupported\""));
  EXPECT_THAT(html, HasSubstr("<details><summary>add.f32.bad (failed, "
                              "s.hlotest:11)</summary><pre>wrong result"));
  EXPECT_THAT(html, HasSubstr("function applyFilter()"));
  EXPECT_THAT(html, ::testing::Not(HasSubstr("<addition>")));
  EXPECT_THAT(html, ::testing::Not(HasSubstr("<script src")));
}

TEST_F(ReportTest, WriteReports) {
  const std::string dir =
      std::string(getenv("TEST_TMPDIR") ? getenv("TEST_TMPDIR") : "/tmp") +
      "/report_test/out";
  ASSERT_TRUE(WriteReports(summary_, dir).ok());
  for (const char* name : {"report.json", "summary.md", "report.html"}) {
    std::ifstream in(dir + "/" + name);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_FALSE(text.str().empty()) << name;
  }
}

}  // namespace
}  // namespace kiln::conform
