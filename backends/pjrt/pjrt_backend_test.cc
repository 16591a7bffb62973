// The `pjrt:` backend through the registry, on XLA's own CPU plugin: HLO
// modules are exported, compiled and run with the right values (tuples,
// several devices), Supports probes, and each failure is a clear error.
#include "backends/pjrt/pjrt_backend.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "backends/backend.h"
#include "backends/pjrt/support_file.h"
#include "backends/pjrt/test_plugin.h"
#include "compiler/ir/literal.h"
#include "compiler/text/parser.h"
#include "gtest/gtest.h"

namespace kiln::pjrt {
namespace {

using testing::XlaCpuPlugin;

Literal Parse(const std::string& text) {
  absl::StatusOr<Literal> literal = ParseLiteral(text);
  EXPECT_TRUE(literal.ok()) << literal.status();
  return literal.ok() ? *std::move(literal) : Literal();
}

std::unique_ptr<Backend> XlaCpu(const std::string& options = "") {
  absl::StatusOr<std::unique_ptr<Backend>> backend =
      BackendRegistry::Global().Create("pjrt:" + XlaCpuPlugin() + options);
  EXPECT_TRUE(backend.ok()) << backend.status();
  return backend.ok() ? *std::move(backend) : nullptr;
}

absl::StatusOr<std::vector<Literal>> CompileAndRun(
    Backend& backend, const std::string& hlo,
    const std::vector<std::vector<Literal>>& arguments,
    const CompileOptions& options = {}) {
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(hlo);
  if (!module.ok()) return module.status();
  absl::StatusOr<std::unique_ptr<Executable>> executable =
      backend.Compile(**module, options);
  if (!executable.ok()) return executable.status();
  return (*executable)->RunReplicated(arguments);
}

TEST(PjrtArgumentTest, PathThenOptions) {
  absl::StatusOr<BackendArgument> parsed =
      ParseBackendArgument("/p/x.so,cpu_device_count=4,name=a=b");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->path, "/p/x.so");
  ASSERT_EQ(parsed->options.size(), 2u);
  EXPECT_EQ(parsed->options[0].first, "cpu_device_count");
  EXPECT_EQ(parsed->options[0].second, "4");
  EXPECT_EQ(parsed->options[1].second, "a=b");
  EXPECT_TRUE(absl::StrContains(ParseBackendArgument("").status().message(),
                                "needs a plugin"));
  EXPECT_TRUE(absl::StrContains(
      ParseBackendArgument("/p/x.so,verbose").status().message(),
      "plugin option 'verbose' is not key=value"));
}

TEST(PjrtBackendTest, MissingPluginIsAClearError) {
  absl::StatusOr<std::unique_ptr<Backend>> backend =
      BackendRegistry::Global().Create("pjrt:/nonexistent/plugin.so");
  ASSERT_FALSE(backend.ok());
  // Without the headers the error says so instead.
  EXPECT_TRUE(absl::StrContains(backend.status().message(), "no plugin file") ||
              absl::StrContains(backend.status().message(), "without the PJRT"))
      << backend.status();
}

TEST(PjrtBackendTest, RunsAModule) {
  KILN_REQUIRE_XLA_CPU_PLUGIN();
  std::unique_ptr<Backend> backend = XlaCpu();
  ASSERT_NE(backend, nullptr);
  EXPECT_EQ(backend->name(), "pjrt");
  std::vector<std::vector<Literal>> arguments(1);
  arguments[0].push_back(Parse("f32[2,2] {{1, 2}, {3, 4}}"));
  arguments[0].push_back(Parse("f32[2,2] {{10, 20}, {30, 40}}"));
  auto results = CompileAndRun(*backend, R"(
HloModule m
ENTRY e {
  a = f32[2,2] parameter(0)
  b = f32[2,2] parameter(1)
  s = f32[2,2] add(a, b)
  t = f32[2,2] transpose(s), dimensions={1,0}
  ROOT r = (f32[2,2], f32[2,2]) tuple(s, t)
})",
                               arguments);
  ASSERT_TRUE(results.ok()) << results.status();
  ASSERT_EQ(results->size(), 1u);
  EXPECT_EQ((*results)[0], Parse("(f32[2,2], f32[2,2]) ({{11, 22}, {33, 44}}, "
                                 "{{11, 33}, {22, 44}})"));
}

// The argument of a parameter with a non-default entry layout is the same
// logical value (kiln fuzz found XLA reading row-major bytes in the
// compiled {0,2,1} layout); from the host and from device buffers.
TEST(PjrtBackendTest, NonDefaultEntryLayoutsKeepArgumentValues) {
  KILN_REQUIRE_XLA_CPU_PLUGIN();
  std::unique_ptr<Backend> backend = XlaCpu();
  ASSERT_NE(backend, nullptr);
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(R"(
HloModule m, entry_computation_layout={(f32[2,1,3]{0,2,1})->f32[2,1,3]{2,1,0}}
ENTRY e {
  p = f32[2,1,3]{0,2,1} parameter(0)
  ROOT n = f32[2,1,3]{2,1,0} negate(p)
})");
  ASSERT_TRUE(module.ok()) << module.status();
  absl::StatusOr<std::unique_ptr<Executable>> executable =
      backend->Compile(**module, {});
  ASSERT_TRUE(executable.ok()) << executable.status();
  const Literal argument = Parse("f32[2,1,3] {{{1, 2, 3}}, {{4, 5, 6}}}");
  const Literal expected = Parse("f32[2,1,3] {{{-1, -2, -3}}, {{-4, -5, -6}}}");
  absl::StatusOr<Literal> result = (*executable)->Run({argument});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(*result, expected);
  auto buffer = backend->TransferToDevice(argument);
  ASSERT_TRUE(buffer.ok()) << buffer.status();
  ExecuteResult executed = (*executable)->Execute({buffer->get()}).get();
  ASSERT_TRUE(executed.ok()) << executed.status();
  ASSERT_EQ(executed->size(), 1u);
  absl::StatusOr<Literal> back = backend->TransferToHost(*(*executed)[0]);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, expected);
}

TEST(PjrtBackendTest, ExecutesOnDeviceBuffers) {
  KILN_REQUIRE_XLA_CPU_PLUGIN();
  std::unique_ptr<Backend> backend = XlaCpu();
  ASSERT_NE(backend, nullptr);
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(R"(
HloModule m
ENTRY e {
  a = s32[3] parameter(0)
  b = s32[3] parameter(1)
  s = s32[3] add(a, b)
  ROOT r = (s32[3], s32[3]) tuple(s, a)
})");
  ASSERT_TRUE(module.ok()) << module.status();
  auto executable = backend->Compile(**module, {});
  ASSERT_TRUE(executable.ok()) << executable.status();
  auto a = backend->TransferToDevice(Parse("s32[3] {1, 2, 3}"));
  auto b = backend->TransferToDevice(Parse("s32[3] {10, 20, 30}"));
  ASSERT_TRUE(a.ok() && b.ok());
  // Not host buffers: the values live in the plugin's memory.
  EXPECT_EQ(dynamic_cast<HostBuffer*>(a->get()), nullptr);
  std::vector<DeviceBuffer*> arguments = {a->get(), b->get()};
  ExecuteOptions options;
  options.donated = {1};
  ExecuteResult result = (*executable)->Execute(arguments, options).get();
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->size(), 2u);
  auto sum = backend->TransferToHost(*(*result)[0]);
  ASSERT_TRUE(sum.ok()) << sum.status();
  EXPECT_EQ(*sum, Parse("s32[3] {11, 22, 33}"));
  auto same = backend->TransferToHost(*(*result)[1]);
  ASSERT_TRUE(same.ok()) << same.status();
  EXPECT_EQ(*same, Parse("s32[3] {1, 2, 3}"));
  EXPECT_FALSE((*a)->is_deleted());
  EXPECT_TRUE((*b)->is_deleted());
  EXPECT_FALSE(backend->TransferToHost(**b).ok());
}

TEST(PjrtBackendTest, WrongArgumentShapeIsAnError) {
  KILN_REQUIRE_XLA_CPU_PLUGIN();
  std::unique_ptr<Backend> backend = XlaCpu();
  ASSERT_NE(backend, nullptr);
  std::vector<std::vector<Literal>> arguments(1);
  arguments[0].push_back(Parse("s32[3] {1, 2, 3}"));
  auto results = CompileAndRun(*backend, R"(
HloModule m
ENTRY e {
  a = s32[2] parameter(0)
  ROOT r = s32[2] negate(a)
})",
                               arguments);
  ASSERT_FALSE(results.ok());
  EXPECT_TRUE(absl::StrContains(
      results.status().message(),
      "argument 0 has shape s32[3] but parameter 0 has shape s32[2]"))
      << results.status();
}

TEST(PjrtBackendTest, PluginCompileErrorIsAnErrorAndTheProcessGoesOn) {
  KILN_REQUIRE_XLA_CPU_PLUGIN();
  std::unique_ptr<Backend> backend = XlaCpu();
  ASSERT_NE(backend, nullptr);
  // The exporter writes the custom call; XLA's CPU compiler has no target
  // of that name.
  auto results = CompileAndRun(*backend, R"(
HloModule m
ENTRY e {
  a = f32[2] parameter(0)
  ROOT r = f32[2] custom-call(a), custom_call_target="kiln_no_such_target"
})",
                               {{Parse("f32[2] {1, 2}")}});
  ASSERT_FALSE(results.ok());
  // Kiln's prefix, then XLA's own words naming the target.
  EXPECT_TRUE(absl::StartsWith(results.status().message(), "pjrt: compile: "))
      << results.status();
  EXPECT_TRUE(
      absl::StrContains(results.status().message(), "kiln_no_such_target"))
      << results.status();
  std::vector<std::vector<Literal>> arguments(1);
  arguments[0].push_back(Parse("s32[2] {1, -2}"));
  auto after = CompileAndRun(*backend, R"(
HloModule m
ENTRY e {
  a = s32[2] parameter(0)
  ROOT r = s32[2] negate(a)
})",
                             arguments);
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_EQ((*after)[0], Parse("s32[2] {-1, 2}"));
}

TEST(PjrtBackendTest, WhatCannotCrossIsUnimplemented) {
  KILN_REQUIRE_XLA_CPU_PLUGIN();
  std::unique_ptr<Backend> backend = XlaCpu();
  ASSERT_NE(backend, nullptr);
  // A dynamic result: host buffers carry static arrays only.
  auto results = CompileAndRun(*backend, R"(
HloModule m
ENTRY e {
  a = f32[4] parameter(0)
  n = s32[] constant(2)
  ROOT r = f32[<=4] set-dimension-size(a, n), dimensions={0}
})",
                               {{Parse("f32[4] {1, 2, 3, 4}")}});
  ASSERT_FALSE(results.ok());
  EXPECT_EQ(results.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_TRUE(absl::StrContains(results.status().message(),
                                "entry results of type f32[<=4]"))
      << results.status();
}

TEST(SupportFileTest, AnswersSurviveTheProcess) {
  setenv("KILN_CACHE_DIR", std::getenv("TEST_TMPDIR"), 1);
  const std::string self = "/proc/self/exe";
  const std::string path = internal::SupportFilePath(self);
  ASSERT_FALSE(path.empty());
  EXPECT_TRUE(absl::StartsWith(
      path, absl::StrCat(std::getenv("TEST_TMPDIR"), "/pjrt-supports/")));
  EXPECT_EQ(internal::SupportFilePath(self), path);  // Stable.
  EXPECT_TRUE(internal::ReadSupportFile(path).empty());
  internal::AppendSupport(path, "add f32", true);
  internal::AppendSupport(path, "add s1", false);
  std::ofstream(path, std::ios::app) << "torn line without a tab\n";
  internal::AppendSupport(path, "bad\tkey", true);  // Refused.
  const std::vector<std::pair<std::string, bool>> expected = {
      {"add f32", true}, {"add s1", false}};
  EXPECT_EQ(internal::ReadSupportFile(path), expected);
  EXPECT_TRUE(internal::SupportFilePath("/nonexistent/plugin.so").empty());
  setenv("KILN_PJRT_SUPPORT_CACHE", "0", 1);
  EXPECT_TRUE(internal::SupportFilePath(self).empty());
  unsetenv("KILN_PJRT_SUPPORT_CACHE");
}

TEST(PjrtBackendTest, SupportsProbesAndCaches) {
  KILN_REQUIRE_XLA_CPU_PLUGIN();
  setenv("KILN_CACHE_DIR", std::getenv("TEST_TMPDIR"), 1);
  std::unique_ptr<Backend> backend = XlaCpu();
  ASSERT_NE(backend, nullptr);
  EXPECT_TRUE(backend->Supports(Opcode::kTanh, ElementType::kF64));
  EXPECT_TRUE(backend->Supports(Opcode::kAdd, ElementType::kF32));
  EXPECT_TRUE(backend->Supports(Opcode::kAdd, ElementType::kF32));
  EXPECT_TRUE(backend->Supports(Opcode::kTuple, ElementType::kTuple));
  EXPECT_TRUE(backend->Supports(Opcode::kAfterAll, ElementType::kToken));
  EXPECT_FALSE(backend->Supports(Opcode::kAdd, ElementType::kOpaque));
  // A second backend on the same plugin shares the client and the memo.
  std::unique_ptr<Backend> other = XlaCpu();
  ASSERT_NE(other, nullptr);
  EXPECT_EQ(&static_cast<PjrtBackend&>(*other).plugin(),
            &static_cast<PjrtBackend&>(*backend).plugin());
  // The answers are on disk for the next process.
  const std::vector<std::pair<std::string, bool>> file =
      internal::ReadSupportFile(internal::SupportFilePath(XlaCpuPlugin()));
  EXPECT_NE(std::find(file.begin(), file.end(),
                      std::make_pair(std::string("tanh f64"), true)),
            file.end());
}

TEST(PjrtBackendTest, ReplicasRunOnThePluginsDevices) {
  KILN_REQUIRE_XLA_CPU_PLUGIN();
  std::unique_ptr<Backend> backend = XlaCpu(",cpu_device_count=4");
  ASSERT_NE(backend, nullptr);
  EXPECT_EQ(backend->Devices().size(), 4u);
  CompileOptions options;
  options.replica_count = 4;
  std::vector<std::vector<Literal>> arguments(4);
  for (int d = 0; d < 4; ++d) {
    arguments[d].push_back(Parse("f32[] " + std::to_string(d + 1)));
  }
  auto results = CompileAndRun(*backend, R"(
HloModule m, replica_count=4
sum {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY e {
  a = f32[] parameter(0)
  ROOT r = f32[] all-reduce(a), replica_groups={}, to_apply=sum
})",
                               arguments, options);
  ASSERT_TRUE(results.ok()) << results.status();
  ASSERT_EQ(results->size(), 4u);
  for (const Literal& result : *results) EXPECT_EQ(result, Parse("f32[] 10"));
}

}  // namespace
}  // namespace kiln::pjrt
