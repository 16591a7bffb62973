#include "backends/backend.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "compiler/text/parser.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

// A backend that supports add on f32 only, and whose executable returns
// its first argument.
class FakeBackend : public Backend {
 public:
  absl::string_view name() const override { return "fake"; }
  bool Supports(Opcode opcode, ElementType type) const override {
    return (opcode == Opcode::kParameter || opcode == Opcode::kAdd) &&
           type == ElementType::kF32;
  }
  absl::StatusOr<std::unique_ptr<Executable>> Compile(
      const Module& module, const CompileOptions&) override {
    absl::StatusOr<std::vector<Shape>> shapes = EntryParameterShapes(module);
    if (!shapes.ok()) return shapes.status();
    return std::unique_ptr<Executable>(
        std::make_unique<EchoExecutable>(*std::move(shapes)));
  }

 private:
  class EchoExecutable : public Executable {
   public:
    explicit EchoExecutable(std::vector<Shape> shapes)
        : Executable(std::move(shapes), /*device_count=*/1) {}
    absl::StatusOr<Literal> Run(absl::Span<const Literal> args) override {
      if (absl::Status s = CheckArguments(parameter_shapes(), args); !s.ok()) {
        return s;
      }
      return args[0];
    }
  };
};

BackendFactory FakeFactory(std::string* seen_argument) {
  return [seen_argument](absl::string_view argument)
             -> absl::StatusOr<std::unique_ptr<Backend>> {
    *seen_argument = std::string(argument);
    return std::unique_ptr<Backend>(std::make_unique<FakeBackend>());
  };
}

std::unique_ptr<Module> Parse(absl::string_view text) {
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(text);
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? *std::move(module) : nullptr;
}

constexpr absl::string_view kAddF32 = R"(
HloModule m
ENTRY e {
  p0 = f32[2] parameter(0)
  p1 = f32[2] parameter(1)
  ROOT r = f32[2] add(p0, p1)
})";

TEST(BackendRegistryTest, CreatesRegisteredBackendsAndPassesTheArgument) {
  BackendRegistry registry;
  std::string argument = "unset";
  ASSERT_TRUE(registry.Register("fake", FakeFactory(&argument)).ok());
  absl::StatusOr<std::unique_ptr<Backend>> backend = registry.Create("fake");
  ASSERT_TRUE(backend.ok()) << backend.status();
  EXPECT_EQ((*backend)->name(), "fake");
  EXPECT_EQ(argument, "");
  ASSERT_TRUE(registry.Create("fake:some command --flag").ok());
  EXPECT_EQ(argument, "some command --flag");
}

TEST(BackendRegistryTest, RefusesUnknownDuplicateAndBadNames) {
  BackendRegistry registry;
  std::string argument;
  ASSERT_TRUE(registry.Register("b", FakeFactory(&argument)).ok());
  ASSERT_TRUE(registry.Register("a", FakeFactory(&argument)).ok());
  EXPECT_EQ(registry.Names(), (std::vector<std::string>{"a", "b"}));

  absl::Status duplicate = registry.Register("a", FakeFactory(&argument));
  EXPECT_EQ(duplicate.code(), absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(duplicate.message(), "backend 'a' is registered twice");
  EXPECT_EQ(registry.Register("", FakeFactory(&argument)).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(registry.Register("x:y", FakeFactory(&argument)).code(),
            absl::StatusCode::kInvalidArgument);

  absl::StatusOr<std::unique_ptr<Backend>> missing = registry.Create("gpu");
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(),
            "no backend named 'gpu' (registered: a, b)");
}

TEST(CheckSupportedTest, NamesTheFirstUnsupportedInstruction) {
  FakeBackend backend;
  std::unique_ptr<Module> ok = Parse(kAddF32);
  ASSERT_NE(ok, nullptr);
  EXPECT_TRUE(CheckSupported(backend, *ok).ok());

  std::unique_ptr<Module> multiply = Parse(R"(
HloModule m
ENTRY e {
  p0 = f32[2] parameter(0)
  ROOT m = f32[2] multiply(p0, p0)
})");
  ASSERT_NE(multiply, nullptr);
  absl::Status status = CheckSupported(backend, *multiply);
  EXPECT_EQ(status.code(), absl::StatusCode::kUnimplemented);
  EXPECT_EQ(status.message(),
            "m: backend 'fake' does not support multiply on f32");

  std::unique_ptr<Module> s32 = Parse(R"(
HloModule m
ENTRY e {
  p0 = s32[2] parameter(0)
  ROOT a = s32[2] add(p0, p0)
})");
  ASSERT_NE(s32, nullptr);
  EXPECT_EQ(CheckSupported(backend, *s32).message(),
            "p0: backend 'fake' does not support parameter on s32");
}

TEST(CheckArgumentsTest, ChecksCountAndShapes) {
  std::vector<Shape> parameters = {Shape::Array(ElementType::kF32, {2}),
                                   Shape::Scalar(ElementType::kS32)};
  std::vector<Literal> good;
  good.push_back(Literal::VectorF32({1, 2}));
  good.push_back(Literal::ScalarS32(3));
  EXPECT_TRUE(CheckArguments(parameters, good).ok());

  std::vector<Literal> one;
  one.push_back(Literal::VectorF32({1, 2}));
  EXPECT_EQ(CheckArguments(parameters, one).message(),
            "the entry computation takes 2 parameters but 1 argument was "
            "given");

  std::vector<Literal> swapped;
  swapped.push_back(Literal::ScalarS32(3));
  swapped.push_back(Literal::VectorF32({1, 2}));
  EXPECT_EQ(CheckArguments(parameters, swapped).message(),
            "argument 0 has shape s32[] but parameter 0 has shape f32[2]");
}

TEST(CheckArgumentsTest, DynamicDimensionsTakeSizesUpToTheBound) {
  std::vector<Shape> parameters = {
      Shape::DynamicArray(ElementType::kF32, {3}, {true})};
  std::vector<Literal> two;
  two.push_back(Literal::VectorF32({1, 2}));
  EXPECT_TRUE(CheckArguments(parameters, two).ok());
  std::vector<Literal> four;
  four.push_back(Literal::VectorF32({1, 2, 3, 4}));
  EXPECT_EQ(CheckArguments(parameters, four).message(),
            "argument 0 has shape f32[4] but parameter 0 has shape f32[<=3]");
}

TEST(ExecutableTest, DefaultRunReplicatedRunsOneDeviceAndRefusesMore) {
  FakeBackend backend;
  std::unique_ptr<Module> module = Parse(kAddF32);
  ASSERT_NE(module, nullptr);
  absl::StatusOr<std::unique_ptr<Executable>> executable =
      backend.Compile(*module, {});
  ASSERT_TRUE(executable.ok()) << executable.status();
  std::vector<std::vector<Literal>> device_args(1);
  device_args[0].push_back(Literal::VectorF32({5, 6}));
  device_args[0].push_back(Literal::VectorF32({7, 8}));
  absl::StatusOr<std::vector<Literal>> results =
      (*executable)->RunReplicated(device_args);
  ASSERT_TRUE(results.ok()) << results.status();
  ASSERT_EQ(results->size(), 1u);
  EXPECT_EQ((*results)[0], Literal::VectorF32({5, 6}));

  device_args.push_back(device_args[0]);
  EXPECT_EQ((*executable)->RunReplicated(device_args).status().code(),
            absl::StatusCode::kUnimplemented);
}

}  // namespace
}  // namespace kiln
