// The plugin layer on XLA's own CPU plugin with hand-written StableHLO:
// loading, the version check, compiling, transfers both ways, tuples of
// results, several devices, and each failure as a clear error.
#include "backends/pjrt/plugin.h"

#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "backends/pjrt/program.h"
#include "backends/pjrt/test_plugin.h"
#include "compiler/ir/literal.h"
#include "compiler/text/parser.h"
#include "gtest/gtest.h"

namespace kiln::pjrt {
namespace {

using testing::TestPlugin;
using testing::XlaCpuPlugin;

constexpr char kAdd[] = R"(
module @add {
  func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.add %a, %b : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
})";

Literal Parse(const std::string& text) {
  absl::StatusOr<Literal> literal = ParseLiteral(text);
  EXPECT_TRUE(literal.ok()) << literal.status();
  return literal.ok() ? *std::move(literal) : Literal();
}

std::shared_ptr<Plugin> XlaCpu(const PluginOptions& options = {}) {
  absl::StatusOr<std::shared_ptr<Plugin>> plugin =
      Plugin::Get(XlaCpuPlugin(), options);
  EXPECT_TRUE(plugin.ok()) << plugin.status();
  return plugin.ok() ? *plugin : nullptr;
}

TEST(CompileOptionsTest, EncodesReplicasAndPartitions) {
  // CompileOptionsProto{executable_build_options(3) = {device_ordinal(1) =
  // -1, num_replicas(4) = 2, num_partitions(5) = 3,
  // use_spmd_partitioning(6) = true}}.
  const std::string expected =
      std::string("\x1a\x11\x08", 3) +
      std::string("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 10) +
      std::string("\x20\x02\x28\x03\x30\x01", 6);
  EXPECT_EQ(internal::EncodeCompileOptions(2, 3), expected);
}

TEST(PluginTest, LoadsXlaCpuOncePerProcess) {
  KILN_REQUIRE_XLA_CPU_PLUGIN();
  std::shared_ptr<Plugin> plugin = XlaCpu();
  ASSERT_NE(plugin, nullptr);
  EXPECT_EQ(plugin->platform(), "cpu");
  EXPECT_TRUE(absl::StartsWith(plugin->api_version(), "0."))
      << plugin->api_version();
  EXPECT_GE(plugin->Devices().size(), 1u);
  EXPECT_EQ(XlaCpu().get(), plugin.get());
}

TEST(PluginTest, CompilesAndRunsStableHlo) {
  KILN_REQUIRE_XLA_CPU_PLUGIN();
  std::shared_ptr<Plugin> plugin = XlaCpu();
  ASSERT_NE(plugin, nullptr);
  absl::StatusOr<std::unique_ptr<Program>> program =
      plugin->Compile(kAdd, 1, 1);
  ASSERT_TRUE(program.ok()) << program.status();
  Literal a = Parse("f32[4] {1, 2, 3, 4}");
  Literal b = Parse("f32[4] {10, 20, 30, 40}");
  std::vector<Shape> outputs = {Shape::Array(ElementType::kF32, {4})};
  auto result = (*program)->Execute({{&a, &b}}, outputs);
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->size(), 1u);
  ASSERT_EQ((*result)[0].size(), 1u);
  EXPECT_EQ((*result)[0][0], Parse("f32[4] {11, 22, 33, 44}"));
}

TEST(PluginTest, SeveralResultsAndElementTypes) {
  KILN_REQUIRE_XLA_CPU_PLUGIN();
  std::shared_ptr<Plugin> plugin = XlaCpu();
  ASSERT_NE(plugin, nullptr);
  // Identity on a 2x3 s4, a bf16 and a pred: the transfers keep the
  // row-major order and the one-byte-per-element storage of sub-byte types.
  constexpr char kIdentity[] = R"(
module @id {
  func.func @main(%a: tensor<2x3xi4>, %b: tensor<2xbf16>, %c: tensor<3xi1>)
      -> (tensor<2x3xi4>, tensor<2xbf16>, tensor<3xi1>) {
    return %a, %b, %c : tensor<2x3xi4>, tensor<2xbf16>, tensor<3xi1>
  }
})";
  absl::StatusOr<std::unique_ptr<Program>> program =
      plugin->Compile(kIdentity, 1, 1);
  ASSERT_TRUE(program.ok()) << program.status();
  Literal a = Parse("s4[2,3] {{-8, -1, 0}, {1, 6, 7}}");
  Literal b = Parse("bf16[2] {1.5, -3}");
  Literal c = Parse("pred[3] {true, false, true}");
  std::vector<Shape> outputs = {a.shape(), b.shape(), c.shape()};
  auto result = (*program)->Execute({{&a, &b, &c}}, outputs);
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ((*result)[0].size(), 3u);
  EXPECT_EQ((*result)[0][0], a);
  EXPECT_EQ((*result)[0][1], b);
  EXPECT_EQ((*result)[0][2], c);
}

TEST(PluginTest, CompileErrorIsThePluginsMessageAndTheProcessGoesOn) {
  KILN_REQUIRE_XLA_CPU_PLUGIN();
  std::shared_ptr<Plugin> plugin = XlaCpu();
  ASSERT_NE(plugin, nullptr);
  absl::StatusOr<std::unique_ptr<Program>> bad =
      plugin->Compile("module { func.func @main( }", 1, 1);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StartsWith(bad.status().message(), "pjrt: compile: "))
      << bad.status();
  // The plugin's own message follows (MLIR's parse error).
  EXPECT_GT(bad.status().message().size(), 30u) << bad.status();
  EXPECT_TRUE(plugin->Compile(kAdd, 1, 1).ok());
}

TEST(PluginTest, WrongArgumentShapeIsAnError) {
  KILN_REQUIRE_XLA_CPU_PLUGIN();
  std::shared_ptr<Plugin> plugin = XlaCpu();
  ASSERT_NE(plugin, nullptr);
  absl::StatusOr<std::unique_ptr<Program>> program =
      plugin->Compile(kAdd, 1, 1);
  ASSERT_TRUE(program.ok()) << program.status();
  Literal a = Parse("f32[3] {1, 2, 3}");
  Literal b = Parse("f32[4] {1, 2, 3, 4}");
  std::vector<Shape> outputs = {Shape::Array(ElementType::kF32, {4})};
  auto result = (*program)->Execute({{&a, &b}}, outputs);
  ASSERT_FALSE(result.ok());
  // Kiln's prefix, then the plugin's own message.
  const std::string prefix = "pjrt: execute: ";
  EXPECT_TRUE(absl::StartsWith(result.status().message(), prefix))
      << result.status();
  EXPECT_GT(result.status().message().size(), prefix.size() + 10)
      << result.status();
}

TEST(PluginTest, TooFewDevicesIsUnimplemented) {
  KILN_REQUIRE_XLA_CPU_PLUGIN();
  std::shared_ptr<Plugin> plugin = XlaCpu();
  ASSERT_NE(plugin, nullptr);
  const int64_t replicas = plugin->Devices().size() + 1;
  absl::StatusOr<std::unique_ptr<Program>> program =
      plugin->Compile(kAdd, replicas, 1);
  ASSERT_FALSE(program.ok());
  EXPECT_EQ(program.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_TRUE(absl::StrContains(program.status().message(), "cpu_device_count"))
      << program.status();
}

TEST(PluginTest, RunsOnSeveralDevicesWithAPluginOption) {
  KILN_REQUIRE_XLA_CPU_PLUGIN();
  std::shared_ptr<Plugin> plugin = XlaCpu({{"cpu_device_count", "4"}});
  ASSERT_NE(plugin, nullptr);
  ASSERT_EQ(plugin->Devices().size(), 4u);
  // Each device adds its replica id: 2 replicas x 2 partitions.
  constexpr char kReplicaId[] = R"(
module @rid attributes {mhlo.num_replicas = 2 : i32, mhlo.num_partitions = 2 : i32} {
  func.func @main(%a: tensor<ui32>) -> tensor<ui32> {
    %0 = stablehlo.replica_id : tensor<ui32>
    %1 = stablehlo.add %a, %0 : tensor<ui32>
    return %1 : tensor<ui32>
  }
})";
  absl::StatusOr<std::unique_ptr<Program>> program =
      plugin->Compile(kReplicaId, 2, 2);
  ASSERT_TRUE(program.ok()) << program.status();
  Literal a = Parse("u32[] 10");
  std::vector<Shape> outputs = {a.shape()};
  auto result = (*program)->Execute({{&a}, {&a}, {&a}, {&a}}, outputs);
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->size(), 4u);
  // Device d is replica d / 2.
  EXPECT_EQ((*result)[0][0], Parse("u32[] 10"));
  EXPECT_EQ((*result)[1][0], Parse("u32[] 10"));
  EXPECT_EQ((*result)[2][0], Parse("u32[] 11"));
  EXPECT_EQ((*result)[3][0], Parse("u32[] 11"));
}

TEST(PluginErrorsTest, MissingFile) {
  KILN_REQUIRE_PJRT_HEADERS();
  auto plugin = Plugin::Get("/nonexistent/plugin.so", {});
  ASSERT_FALSE(plugin.ok());
  EXPECT_EQ(plugin.status().code(), absl::StatusCode::kNotFound);
  EXPECT_TRUE(absl::StrContains(plugin.status().message(),
                                "no plugin file '/nonexistent/plugin.so'"))
      << plugin.status();
}

TEST(PluginErrorsTest, NotASharedObject) {
  KILN_REQUIRE_PJRT_HEADERS();
  const std::string path = std::string(std::getenv("TEST_TMPDIR")) + "/x.so";
  std::ofstream(path) << "not an ELF file";
  auto plugin = Plugin::Get(path, {});
  ASSERT_FALSE(plugin.ok());
  EXPECT_TRUE(
      absl::StrContains(plugin.status().message(), "as a shared object"))
      << plugin.status();
}

TEST(PluginErrorsTest, SharedObjectWithoutGetPjrtApi) {
  KILN_REQUIRE_PJRT_HEADERS();
  auto plugin = Plugin::Get(TestPlugin("no_get_api.so"), {});
  ASSERT_FALSE(plugin.ok());
  EXPECT_TRUE(absl::StrContains(plugin.status().message(),
                                "is not a PJRT plugin: it exports no "
                                "GetPjrtApi function"))
      << plugin.status();
}

TEST(PluginErrorsTest, VersionMismatch) {
  KILN_REQUIRE_PJRT_HEADERS();
  auto plugin = Plugin::Get(TestPlugin("wrong_version.so"), {});
  ASSERT_FALSE(plugin.ok());
  EXPECT_EQ(plugin.status().code(), absl::StatusCode::kFailedPrecondition);
  const std::string built = BuiltApiVersion();
  const std::string plugin_major =
      std::to_string(std::stoi(built.substr(0, built.find('.'))) + 1);
  EXPECT_TRUE(absl::StrContains(plugin.status().message(),
                                "PJRT C API version mismatch: the plugin '" +
                                    TestPlugin("wrong_version.so") +
                                    "' implements version " + plugin_major +
                                    ".0, Kiln was built against " + built))
      << plugin.status();
}

}  // namespace
}  // namespace kiln::pjrt
