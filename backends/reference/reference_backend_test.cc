#include "backends/reference/reference_backend.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "backends/backend.h"
#include "compiler/ir/literal_text.h"
#include "compiler/text/parser.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

std::string Text(const Literal& literal) {
  return absl::StrCat(literal.shape().ToString(false), " ",
                      LiteralValueToString(literal));
}

std::unique_ptr<Module> Parse(absl::string_view text) {
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(text);
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? *std::move(module) : nullptr;
}

std::unique_ptr<Executable> Compile(absl::string_view text,
                                    const CompileOptions& options = {}) {
  std::unique_ptr<Module> module = Parse(text);
  if (module == nullptr) return nullptr;
  ReferenceBackend backend;
  absl::StatusOr<std::unique_ptr<Executable>> executable =
      backend.Compile(*module, options);
  EXPECT_TRUE(executable.ok()) << executable.status();
  // The executable keeps its own copy: the module goes away here.
  return executable.ok() ? *std::move(executable) : nullptr;
}

constexpr absl::string_view kAddMultiply = R"(
HloModule m
ENTRY e {
  p0 = f32[2] parameter(0)
  p1 = f32[2] parameter(1)
  sum = f32[2] add(p0, p1)
  product = f32[2] multiply(p0, p1)
  ROOT t = (f32[2], f32[2]) tuple(sum, product)
})";

TEST(ReferenceBackendTest, IsRegisteredAsReference) {
  absl::StatusOr<std::unique_ptr<Backend>> backend =
      BackendRegistry::Global().Create("reference");
  ASSERT_TRUE(backend.ok()) << backend.status();
  EXPECT_EQ((*backend)->name(), "reference");
  EXPECT_TRUE((*backend)->accepts_client_form());
  EXPECT_EQ(BackendRegistry::Global().Create("reference:x").status().message(),
            "backend 'reference' takes no argument (got 'x')");
}

TEST(ReferenceBackendTest, SupportsOpsWithKernels) {
  ReferenceBackend backend;
  EXPECT_TRUE(backend.Supports(Opcode::kParameter, ElementType::kF32));
  EXPECT_TRUE(backend.Supports(Opcode::kTuple, ElementType::kTuple));
  EXPECT_TRUE(backend.Supports(Opcode::kConstant, ElementType::kF8E4M3FN));
  EXPECT_TRUE(backend.Supports(Opcode::kAdd, ElementType::kBF16));
  EXPECT_FALSE(backend.Supports(Opcode::kAdd, ElementType::kInvalid));
}

TEST(ReferenceBackendTest, RunsTheEntryOnLiterals) {
  std::unique_ptr<Executable> executable = Compile(kAddMultiply);
  ASSERT_NE(executable, nullptr);
  ASSERT_EQ(executable->parameter_shapes().size(), 2u);
  EXPECT_EQ(executable->device_count(), 1);
  std::vector<Literal> arguments;
  arguments.push_back(Literal::VectorF32({1, 2}));
  arguments.push_back(Literal::VectorF32({3, 4}));
  absl::StatusOr<Literal> result = executable->Run(arguments);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(Text(*result), "(f32[2], f32[2]) ( {4, 6}, {3, 8} )");
  // Running again gives the same value.
  absl::StatusOr<Literal> again = executable->Run(arguments);
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(*again == *result);
}

TEST(ReferenceBackendTest, AcceptsClientForm) {
  std::unique_ptr<Executable> executable = Compile(R"(
HloModule m
ENTRY e {
  x = f32[2,3] parameter(0)
  v = f32[3] parameter(1)
  ROOT sum = f32[2,3] add(x, v), broadcast_dimensions={1}
})");
  ASSERT_NE(executable, nullptr);
  std::vector<Literal> arguments;
  arguments.push_back(*ParseLiteral("f32[2,3] {{1, 2, 3}, {4, 5, 6}}"));
  arguments.push_back(*ParseLiteral("f32[3] {10, 20, 30}"));
  absl::StatusOr<Literal> result = executable->Run(arguments);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(Text(*result), "f32[2,3] { { 11, 22, 33 }, { 14, 25, 36 } }");
}

TEST(ReferenceBackendTest, ChecksArguments) {
  std::unique_ptr<Executable> executable = Compile(kAddMultiply);
  ASSERT_NE(executable, nullptr);
  std::vector<Literal> one;
  one.push_back(Literal::VectorF32({1, 2}));
  EXPECT_EQ(executable->Run(one).status().message(),
            "the entry computation takes 2 parameters but 1 argument was "
            "given");
  std::vector<Literal> wrong;
  wrong.push_back(Literal::VectorF32({1, 2}));
  wrong.push_back(Literal::VectorF32({1, 2, 3}));
  EXPECT_EQ(executable->Run(wrong).status().message(),
            "argument 1 has shape f32[3] but parameter 1 has shape f32[2]");
}

TEST(ReferenceBackendTest, CompileRefusesModulesThatDoNotVerify) {
  std::unique_ptr<Module> module = Parse(R"(
HloModule m
ENTRY e {
  p0 = f32[2] parameter(0)
  n = f32[2] negate(p0)
  ROOT r = f32[2] negate(n)
})");
  ASSERT_NE(module, nullptr);
  // Break it after parsing: a declared shape its rule does not infer.
  *module->entry()->FindInstruction("n")->mutable_shape() =
      Shape::Array(ElementType::kF32, {3});
  ReferenceBackend backend;
  absl::StatusOr<std::unique_ptr<Executable>> executable =
      backend.Compile(*module, {});
  EXPECT_FALSE(executable.ok());
  EXPECT_NE(executable.status().message().find("n: declared shape f32[3]"),
            std::string::npos)
      << executable.status();

  CompileOptions no_devices;
  no_devices.replica_count = 0;
  EXPECT_EQ(backend.Compile(*Parse(kAddMultiply), no_devices).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(ReferenceBackendTest, HonoursTheWhileIterationCap) {
  CompileOptions options;
  options.max_while_iterations = 100;
  std::unique_ptr<Executable> executable = Compile(R"(
HloModule m
cond {
  c = s32[] parameter(0)
  ROOT yes = pred[] constant(true)
}
body {
  b = s32[] parameter(0)
  one = s32[] constant(1)
  ROOT next = s32[] add(b, one)
}
ENTRY e {
  zero = s32[] constant(0)
  ROOT loop = s32[] while(zero), condition=cond, body=body
})",
                                                   options);
  ASSERT_NE(executable, nullptr);
  absl::StatusOr<Literal> result = executable->Run({});
  EXPECT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("loop"), std::string::npos)
      << result.status();
  EXPECT_NE(result.status().message().find("100"), std::string::npos)
      << result.status();
}

TEST(ReferenceBackendTest, RunsReplicasWithTheirOwnArguments) {
  CompileOptions options;
  options.replica_count = 2;
  std::unique_ptr<Executable> executable = Compile(R"(
HloModule m, replica_count=2
ENTRY e {
  p = f32[2] parameter(0)
  ROOT twice = f32[2] add(p, p)
})",
                                                   options);
  ASSERT_NE(executable, nullptr);
  EXPECT_EQ(executable->device_count(), 2);
  std::vector<std::vector<Literal>> arguments(2);
  arguments[0].push_back(Literal::VectorF32({1, 2}));
  arguments[1].push_back(Literal::VectorF32({3, 4}));
  EXPECT_EQ(executable->Run(arguments[0]).status().code(),
            absl::StatusCode::kInvalidArgument);
  absl::StatusOr<std::vector<Literal>> results =
      executable->RunReplicated(arguments);
  ASSERT_TRUE(results.ok()) << results.status();
  ASSERT_EQ(results->size(), 2u);
  EXPECT_EQ(Text((*results)[0]), "f32[2] {2, 4}");
  EXPECT_EQ(Text((*results)[1]), "f32[2] {6, 8}");

  arguments.pop_back();
  EXPECT_EQ(executable->RunReplicated(arguments).status().message(),
            "compiled for 2 devices but given 1 argument lists");
}

}  // namespace
}  // namespace kiln
