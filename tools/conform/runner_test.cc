#include "tools/conform/runner.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tools/conform/case_file.h"

namespace kiln::conform {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr const char* kCases = R"(op: add
case ok
spec: Add :: x
source: hand
module:
  HloModule m
  ENTRY e {
    a = f32[2] parameter(0)
    ROOT r = f32[2] add(a, a)
  }
arg: f32[2] {1, 2}
expect: f32[2] {2, 4}

case wrong
spec: Add :: x
source: hand
module:
  HloModule m
  ENTRY e {
    a = f32[2] parameter(0)
    ROOT r = f32[2] add(a, a)
  }
arg: f32[2] {1, 2}
expect: f32[2] {2, 5}

case reject.parse
spec: Add :: x
module:
  HloModule m
  ENTRY e {
    a = f32[2] parameter(0)
    ROOT r = f32[3] add(a, a)
  }
reject: parse declared shape

case reject.wrong_rule
spec: Add :: x
module:
  HloModule m
  ENTRY e {
    a = f32[2] parameter(0)
    ROOT r = f32[3] add(a, a)
  }
reject: parse no.such.rule

case reject.accepted
spec: Add :: x
module:
  HloModule m
  ENTRY e {
    a = f32[2] parameter(0)
    ROOT r = f32[2] add(a, a)
  }
reject: verify anything

case reject.verify
spec: Add :: x
module:
  HloModule m
  ENTRY e {
    a = f32[2] parameter(0)
    ROOT r = f32[3] add(a, a)
  }
reject: verify declared shape

case impl
op: divide
spec: Div :: x
module:
  HloModule m
  ENTRY e {
    a = s32[] parameter(0)
    z = s32[] constant(0)
    ROOT r = s32[] divide(a, z)
  }
arg: s32[] 5
implementation-defined: division by zero

case bad.args
spec: Add :: x
source: hand
module:
  HloModule m
  ENTRY e {
    a = f32[2] parameter(0)
    ROOT r = f32[2] add(a, a)
  }
arg: s32[2] {1, 2}
expect: f32[2] {2, 4}

case replicas
op: all-reduce
spec: AllReduce :: x
source: hand
replicas: 2
module:
  HloModule m, replica_count=2
  sum {
    x = s32[] parameter(0)
    y = s32[] parameter(1)
    ROOT s = s32[] add(x, y)
  }
  ENTRY e {
    a = s32[] parameter(0)
    ROOT r = s32[] all-reduce(a), replica_groups={{0,1}}, to_apply=sum
  }
arg[0]: s32[] 1
arg[1]: s32[] 2
expect[0]: s32[] 3
expect[1]: s32[] 3
)";

class RunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::vector<Case>> cases =
        ParseCaseFile(kCases, "r.hlotest");
    ASSERT_TRUE(cases.ok()) << cases.status();
    cases_ = *std::move(cases);
  }
  const Case& Named(const std::string& name) {
    for (const Case& c : cases_) {
      if (c.name == name) return c;
    }
    ADD_FAILURE() << name;
    return cases_[0];
  }
  BackendSpec Reference() {
    absl::StatusOr<BackendSpec> spec =
        BackendSpec::Parse("reference", 10, false);
    EXPECT_TRUE(spec.ok()) << spec.status();
    return *spec;
  }
  BackendSpec Exec(const std::string& command, double limit = 10) {
    absl::StatusOr<BackendSpec> spec =
        BackendSpec::Parse("exec:" + command, limit, false);
    EXPECT_TRUE(spec.ok()) << spec.status();
    return *spec;
  }
  std::vector<Case> cases_;
};

TEST_F(RunnerTest, ReferenceOutcomes) {
  const BackendSpec ref = Reference();
  EXPECT_EQ(RunCase(Named("ok"), ref).outcome, Outcome::kPass);
  CaseResult wrong = RunCase(Named("wrong"), ref);
  EXPECT_EQ(wrong.outcome, Outcome::kFail);
  EXPECT_THAT(wrong.message, HasSubstr("first difference at [1]: expected 5, "
                                       "actual 4"));
  EXPECT_EQ(RunCase(Named("reject.parse"), ref).outcome, Outcome::kPass);
  CaseResult rule = RunCase(Named("reject.wrong_rule"), ref);
  EXPECT_EQ(rule.outcome, Outcome::kFail);
  EXPECT_THAT(rule.message, HasSubstr("does not name 'no.such.rule'"));
  CaseResult accepted = RunCase(Named("reject.accepted"), ref);
  EXPECT_EQ(accepted.outcome, Outcome::kFail);
  EXPECT_THAT(accepted.message, HasSubstr("the module verified"));
  EXPECT_EQ(RunCase(Named("reject.verify"), ref).outcome, Outcome::kPass);
  EXPECT_EQ(RunCase(Named("impl"), ref).outcome, Outcome::kPass);
  CaseResult args = RunCase(Named("bad.args"), ref);
  EXPECT_EQ(args.outcome, Outcome::kFail);
  EXPECT_THAT(args.message, HasSubstr("arg: values do not fit the module"));
  EXPECT_EQ(RunCase(Named("replicas"), ref).outcome, Outcome::kPass);
}

TEST_F(RunnerTest, Traits) {
  CaseTraits ok = ComputeTraits(Named("ok"));
  EXPECT_THAT(ok.ops, ElementsAre("add"));
  EXPECT_THAT(ok.types, ElementsAre(ElementType::kF32));
  CaseTraits impl = ComputeTraits(Named("impl"));
  EXPECT_THAT(impl.ops, ElementsAre("divide"));
  EXPECT_THAT(impl.types, ElementsAre(ElementType::kS32));
  Case inferred = Named("ok");
  inferred.ops.clear();
  EXPECT_THAT(ComputeTraits(inferred).ops, ElementsAre("add"));
}

TEST_F(RunnerTest, RunCasesInParallelKeepsOrder) {
  RunOptions options;
  options.jobs = 3;
  int64_t last_done = 0;
  options.progress = [&](int64_t done, int64_t total, int64_t failures) {
    EXPECT_EQ(total, static_cast<int64_t>(cases_.size()));
    last_done = done;
  };
  SuiteRun run = RunCases(cases_, Reference(), options);
  ASSERT_EQ(run.results.size(), cases_.size());
  EXPECT_EQ(last_done, static_cast<int64_t>(cases_.size()));
  EXPECT_FALSE(run.abandoned_threads);
  EXPECT_EQ(run.results[0].outcome, Outcome::kPass);
  EXPECT_EQ(run.results[1].outcome, Outcome::kFail);
  EXPECT_EQ(run.results[8].outcome, Outcome::kPass);
}

TEST_F(RunnerTest, ExecProtocol) {
  // A fake toolchain: checks its inputs exist and answers from a table.
  const std::string answer =
      "test -s {module} && test -f {args} && "
      "grep -q 'f32\\[2\\] {1, 2}' {args} && echo 'f32[2] {2, 4}' > {out}";
  EXPECT_EQ(RunCase(Named("ok"), Exec(answer)).outcome, Outcome::kPass);
  CaseResult wrong = RunCase(Named("wrong"), Exec(answer));
  EXPECT_EQ(wrong.outcome, Outcome::kFail);
  EXPECT_THAT(wrong.message, HasSubstr("expected 5, actual 4"));
  // .npy results are read when there is no result.txt.
  EXPECT_EQ(RunCase(Named("ok"), Exec("cp {dir}/arg_0.npy {dir}/result_0.npy"))
                .outcome,
            Outcome::kFail);
  // Several devices: "device D" lines.
  EXPECT_EQ(
      RunCase(Named("replicas"),
              Exec("printf 'device 0:\\ns32[] 3\\ndevice 1:\\ns32[] 3\\n' "
                   "> {out}"))
          .outcome,
      Outcome::kPass);
  // Reject cases: the command must refuse the module.
  EXPECT_EQ(RunCase(Named("reject.parse"), Exec("exit 1")).outcome,
            Outcome::kPass);
  CaseResult accepted = RunCase(Named("reject.parse"), Exec("true"));
  EXPECT_EQ(accepted.outcome, Outcome::kFail);
  EXPECT_THAT(accepted.message, HasSubstr("accepted a module"));
}

TEST_F(RunnerTest, ExecFailures) {
  CaseResult crash = RunCase(Named("ok"), Exec("kill -SEGV $$"));
  EXPECT_EQ(crash.outcome, Outcome::kFail);
  EXPECT_THAT(crash.message, HasSubstr("crashed (signal 11"));
  CaseResult exit3 = RunCase(Named("ok"), Exec("echo oops >&2; exit 3"));
  EXPECT_THAT(exit3.message, HasSubstr("exit status 3; stderr: oops"));
  EXPECT_EQ(RunCase(Named("ok"), Exec("exit 77")).outcome,
            Outcome::kUnsupported);
  CaseResult missing = RunCase(Named("ok"), Exec("/no/such/tool"));
  EXPECT_THAT(missing.message, HasSubstr("could not run the command"));
  CaseResult hang = RunCase(Named("ok"), Exec("sleep 20", 0.3));
  EXPECT_EQ(hang.outcome, Outcome::kFail);
  EXPECT_THAT(hang.message, HasSubstr("time limit of 0.3 s"));
  EXPECT_LT(hang.seconds, 5);
  CaseResult garbage = RunCase(Named("ok"), Exec("echo nonsense > {out}"));
  EXPECT_THAT(garbage.message, HasSubstr("bad literal 'nonsense'"));
}

TEST_F(RunnerTest, UnknownBackend) {
  absl::StatusOr<BackendSpec> spec = BackendSpec::Parse("nope", 1, false);
  EXPECT_FALSE(spec.ok());
  EXPECT_FALSE(BackendSpec::Parse("exec:", 1, false).ok());
}

}  // namespace
}  // namespace kiln::conform
