// ReferenceBackend::Supports must be truthful per op x element type: for
// every opcode with a template below and every array element type, a
// minimal module that parses and verifies either compiles to an
// Unimplemented "does not support" (Supports said no), or runs to a value
// on zero arguments. "Supports said yes, then the evaluator refused" is
// the failure this sweep exists to catch. Ops the verifier must refuse
// (XLA defines no semantics for them) are checked by name below.
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "backends/backend.h"
#include "backends/reference/reference_backend.h"
#include "compiler/evaluator/kernel.h"
#include "compiler/ir/element_type.h"
#include "compiler/text/parser.h"
#include "compiler/verifier/verifier.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

// $T is the swept element type; $U the unsigned type of its width (for
// random bits), $B a bound dimension. Computations may use $T too.
struct Template {
  const char* op;
  const char* module;
};

#define KILN_UNARY(name) \
  { name, "ENTRY e {\n  p0 = $T[4] parameter(0)\n  ROOT r = " name "(p0)\n}\n" }
#define KILN_BINARY(name)                                     \
  {                                                           \
    name,                                                     \
        "ENTRY e {\n  p0 = $T[4] parameter(0)\n  p1 = $T[4] " \
        "parameter(1)\n  ROOT r = " name "(p0, p1)\n}\n"      \
  }

constexpr char kAdd[] =
    "add_c {\n  a = $T[] parameter(0)\n  b = $T[] parameter(1)\n"
    "  ROOT r = $T[] add(a, b)\n}\n";
constexpr char kMax[] =
    "max_c {\n  a = $T[] parameter(0)\n  b = $T[] parameter(1)\n"
    "  ROOT r = $T[] maximum(a, b)\n}\n";
constexpr char kLess[] =
    "lt_c {\n  a = $T[] parameter(0)\n  b = $T[] parameter(1)\n"
    "  ROOT r = pred[] compare(a, b), direction=LT\n}\n";
constexpr char kGe[] =
    "ge_c {\n  a = $T[] parameter(0)\n  b = $T[] parameter(1)\n"
    "  ROOT r = pred[] compare(a, b), direction=GE\n}\n";

const Template kTemplates[] = {
    KILN_UNARY("abs"),
    KILN_UNARY("acos"),
    KILN_UNARY("acosh"),
    KILN_UNARY("asin"),
    KILN_UNARY("asinh"),
    KILN_UNARY("atan"),
    KILN_UNARY("atanh"),
    KILN_UNARY("cbrt"),
    KILN_UNARY("ceil"),
    KILN_UNARY("count-leading-zeros"),
    KILN_UNARY("copy"),
    KILN_UNARY("cosine"),
    KILN_UNARY("cosh"),
    KILN_UNARY("erf"),
    KILN_UNARY("exponential"),
    KILN_UNARY("exponential-minus-one"),
    KILN_UNARY("floor"),
    KILN_UNARY("imag"),
    KILN_UNARY("is-finite"),
    KILN_UNARY("log"),
    KILN_UNARY("log-plus-one"),
    KILN_UNARY("logistic"),
    KILN_UNARY("negate"),
    KILN_UNARY("not"),
    KILN_UNARY("popcnt"),
    KILN_UNARY("real"),
    KILN_UNARY("round-nearest-afz"),
    KILN_UNARY("round-nearest-even"),
    KILN_UNARY("rsqrt"),
    KILN_UNARY("sign"),
    KILN_UNARY("sine"),
    KILN_UNARY("sinh"),
    KILN_UNARY("sqrt"),
    KILN_UNARY("tan"),
    KILN_UNARY("tanh"),
    KILN_BINARY("add"),
    KILN_BINARY("and"),
    KILN_BINARY("atan2"),
    KILN_BINARY("complex"),
    KILN_BINARY("divide"),
    KILN_BINARY("maximum"),
    KILN_BINARY("minimum"),
    KILN_BINARY("multiply"),
    KILN_BINARY("or"),
    KILN_BINARY("power"),
    KILN_BINARY("remainder"),
    KILN_BINARY("shift-left"),
    KILN_BINARY("shift-right-arithmetic"),
    KILN_BINARY("shift-right-logical"),
    KILN_BINARY("subtract"),
    KILN_BINARY("xor"),
    {"compare",
     "ENTRY e {\n  p0 = $T[4] parameter(0)\n  p1 = $T[4] parameter(1)\n"
     "  ROOT r = pred[4] compare(p0, p1), direction=EQ\n}\n"},
    {"select",
     "ENTRY e {\n  p0 = pred[4] parameter(0)\n  p1 = $T[4] parameter(1)\n"
     "  p2 = $T[4] parameter(2)\n  ROOT r = $T[4] select(p0, p1, p2)\n}\n"},
    {"clamp",
     "ENTRY e {\n  p0 = $T[4] parameter(0)\n  p1 = $T[4] parameter(1)\n"
     "  p2 = $T[4] parameter(2)\n  ROOT r = $T[4] clamp(p0, p1, p2)\n}\n"},
    {"convert",
     "ENTRY e {\n  p0 = $T[4] parameter(0)\n  c = f32[4] convert(p0)\n"
     "  ROOT r = $T[4] convert(c)\n}\n"},
    {"bitcast-convert",
     "ENTRY e {\n  p0 = $T[4] parameter(0)\n"
     "  ROOT r = $U[4] bitcast-convert(p0)\n}\n"},
    {"reduce-precision",
     "ENTRY e {\n  p0 = $T[4] parameter(0)\n  ROOT r = $T[4] "
     "reduce-precision(p0), exponent_bits=3, mantissa_bits=2\n}\n"},
    {"stochastic-convert",
     "ENTRY e {\n  p0 = f32[4] parameter(0)\n  p1 = u32[4] parameter(1)\n"
     "  ROOT r = $T[4] stochastic-convert(p0, p1)\n}\n"},
    {"broadcast",
     "ENTRY e {\n  p0 = $T[4] parameter(0)\n"
     "  ROOT r = $T[3,4] broadcast(p0), dimensions={1}\n}\n"},
    {"reshape",
     "ENTRY e {\n  p0 = $T[4] parameter(0)\n  ROOT r = $T[2,2] "
     "reshape(p0)\n}\n"},
    {"transpose",
     "ENTRY e {\n  p0 = $T[2,3] parameter(0)\n"
     "  ROOT r = $T[3,2] transpose(p0), dimensions={1,0}\n}\n"},
    {"slice",
     "ENTRY e {\n  p0 = $T[4] parameter(0)\n"
     "  ROOT r = $T[2] slice(p0), slice={[1:3]}\n}\n"},
    {"concatenate",
     "ENTRY e {\n  p0 = $T[4] parameter(0)\n"
     "  ROOT r = $T[8] concatenate(p0, p0), dimensions={0}\n}\n"},
    {"pad",
     "ENTRY e {\n  p0 = $T[4] parameter(0)\n  z = $T[] parameter(1)\n"
     "  ROOT r = $T[7] pad(p0, z), padding=1_2\n}\n"},
    {"reverse",
     "ENTRY e {\n  p0 = $T[4] parameter(0)\n"
     "  ROOT r = $T[4] reverse(p0), dimensions={0}\n}\n"},
    {"bitcast",
     "ENTRY e {\n  p0 = $T[4] parameter(0)\n  ROOT r = $T[2,2] "
     "bitcast(p0)\n}\n"},
    {"iota", "ENTRY e {\n  ROOT r = $T[4] iota(), iota_dimension=0\n}\n"},
    {"dynamic-slice",
     "ENTRY e {\n  p0 = $T[4] parameter(0)\n  i = s32[] parameter(1)\n"
     "  ROOT r = $T[2] dynamic-slice(p0, i), dynamic_slice_sizes={2}\n}\n"},
    {"dynamic-update-slice",
     "ENTRY e {\n  p0 = $T[4] parameter(0)\n  u = $T[2] parameter(1)\n"
     "  i = s32[] parameter(2)\n"
     "  ROOT r = $T[4] dynamic-update-slice(p0, u, i)\n}\n"},
    {"gather",
     "ENTRY e {\n  p0 = $T[4,3] parameter(0)\n  i = s32[2,1] parameter(1)\n"
     "  ROOT r = $T[2,3] gather(p0, i), offset_dims={1}, "
     "collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, "
     "slice_sizes={1,3}\n}\n"},
    {"scatter",
     "$ADDENTRY e {\n  p0 = $T[4,3] parameter(0)\n  i = s32[2,1] parameter(1)\n"
     "  u = $T[2,3] parameter(2)\n  ROOT r = $T[4,3] scatter(p0, i, u), "
     "update_window_dims={1}, inserted_window_dims={0}, "
     "scatter_dims_to_operand_dims={0}, index_vector_dim=1, "
     "to_apply=add_c\n}\n"},
    {"get-dimension-size",
     "ENTRY e {\n  p0 = $T[4] parameter(0)\n"
     "  ROOT r = s32[] get-dimension-size(p0), dimensions={0}\n}\n"},
    {"reduce",
     "$ADDENTRY e {\n  p0 = $T[4,3] parameter(0)\n  z = $T[] parameter(1)\n"
     "  ROOT r = $T[3] reduce(p0, z), dimensions={0}, to_apply=add_c\n}\n"},
    {"reduce",
     "$MAXENTRY e {\n  p0 = $T[4,3] parameter(0)\n  z = $T[] parameter(1)\n"
     "  ROOT r = $T[4] reduce(p0, z), dimensions={1}, to_apply=max_c\n}\n"},
    {"reduce-window",
     "$ADDENTRY e {\n  p0 = $T[4] parameter(0)\n  z = $T[] parameter(1)\n"
     "  ROOT r = $T[3] reduce-window(p0, z), window={size=2}, "
     "to_apply=add_c\n}\n"},
    {"select-and-scatter",
     "$ADD$GEENTRY e {\n  p0 = $T[4] parameter(0)\n  s = $T[2] parameter(1)\n"
     "  z = $T[] parameter(2)\n  ROOT r = $T[4] select-and-scatter(p0, s, z), "
     "window={size=2 stride=2}, select=ge_c, scatter=add_c\n}\n"},
    {"map",
     "$ADDENTRY e {\n  p0 = $T[4] parameter(0)\n  p1 = $T[4] parameter(1)\n"
     "  ROOT r = $T[4] map(p0, p1), dimensions={0}, to_apply=add_c\n}\n"},
    {"sort",
     "$LTENTRY e {\n  p0 = $T[4] parameter(0)\n"
     "  ROOT r = $T[4] sort(p0), dimensions={0}, to_apply=lt_c\n}\n"},
    {"topk",
     "ENTRY e {\n  p0 = $T[4] parameter(0)\n"
     "  ROOT r = ($T[2], s32[2]) topk(p0), k=2, largest=true\n}\n"},
    {"dot",
     "ENTRY e {\n  p0 = $T[2,3] parameter(0)\n  p1 = $T[3,2] parameter(1)\n"
     "  ROOT r = $T[2,2] dot(p0, p1), lhs_contracting_dims={1}, "
     "rhs_contracting_dims={0}\n}\n"},
    {"convolution",
     "ENTRY e {\n  p0 = $T[1,4,1] parameter(0)\n  p1 = $T[2,1,1] parameter(1)\n"
     "  ROOT r = $T[1,3,1] convolution(p0, p1), window={size=2}, "
     "dim_labels=b0f_0io->b0f\n}\n"},
    {"cholesky",
     "ENTRY e {\n  p0 = $T[2,2] parameter(0)\n"
     "  ROOT r = $T[2,2] cholesky(p0), lower=true\n}\n"},
    {"triangular-solve",
     "ENTRY e {\n  p0 = $T[2,2] parameter(0)\n  p1 = $T[2,3] parameter(1)\n"
     "  ROOT r = $T[2,3] triangular-solve(p0, p1), left_side=true, "
     "lower=true, transpose_a=NO_TRANSPOSE\n}\n"},
    {"fft",
     "ENTRY e {\n  p0 = $T[4] parameter(0)\n"
     "  ROOT r = $T[4] fft(p0), fft_type=FFT, fft_length={4}\n}\n"},
    {"rng",
     "ENTRY e {\n  a = $T[] parameter(0)\n  b = $T[] parameter(1)\n"
     "  ROOT r = $T[4] rng(a, b), distribution=rng_uniform\n}\n"},
    {"rng-bit-generator",
     "ENTRY e {\n  s = u64[2] parameter(0)\n  ROOT r = (u64[2], $T[4]) "
     "rng-bit-generator(s), algorithm=rng_philox\n}\n"},
    {"tuple",
     "ENTRY e {\n  p0 = $T[4] parameter(0)\n  t = ($T[4]) tuple(p0)\n"
     "  ROOT r = $T[4] get-tuple-element(t), index=0\n}\n"},
    {"call",
     "$ADDENTRY e {\n  a = $T[] parameter(0)\n"
     "  ROOT r = $T[] call(a, a), to_apply=add_c\n}\n"},
    {"all-reduce",
     "$ADDENTRY e {\n  p0 = $T[4] parameter(0)\n"
     "  ROOT r = $T[4] all-reduce(p0), to_apply=add_c\n}\n"},
    {"all-gather",
     "ENTRY e {\n  p0 = $T[4] parameter(0)\n"
     "  ROOT r = $T[4] all-gather(p0), dimensions={0}\n}\n"},
    {"all-to-all",
     "ENTRY e {\n  p0 = $T[4] parameter(0)\n"
     "  ROOT r = $T[4] all-to-all(p0), dimensions={0}\n}\n"},
    {"collective-permute",
     "ENTRY e {\n  p0 = $T[4] parameter(0)\n  ROOT r = $T[4] "
     "collective-permute(p0), source_target_pairs={{0,0}}\n}\n"},
    {"reduce-scatter",
     "$ADDENTRY e {\n  p0 = $T[4] parameter(0)\n  ROOT r = $T[4] "
     "reduce-scatter(p0), dimensions={0}, to_apply=add_c\n}\n"},
};

#undef KILN_UNARY
#undef KILN_BINARY

// The name of the unsigned type of `type`'s width (u1..u64), or "".
std::string UnsignedOfWidth(ElementType type) {
  for (const ElementTypeInfo& info : AllElementTypeInfos()) {
    if (info.kind == TypeKind::kUnsigned && info.bit_width == BitWidth(type)) {
      return std::string(ElementTypeName(info.type));
    }
  }
  return "";
}

std::string Instantiate(const Template& t, ElementType type) {
  const std::string name(ElementTypeName(type));
  std::string text = absl::StrReplaceAll(
      t.module, {{"$ADD", kAdd}, {"$MAX", kMax}, {"$LT", kLess}, {"$GE", kGe}});
  text =
      absl::StrReplaceAll(text, {{"$T", name}, {"$U", UnsignedOfWidth(type)}});
  return absl::StrCat("HloModule sweep\n", text);
}

// Zero arguments for the entry's parameters.
std::vector<Literal> ZeroArguments(const Module& module) {
  std::vector<Literal> arguments;
  for (const Instruction* parameter : module.entry()->parameters()) {
    absl::StatusOr<Literal> zero = Literal::Create(parameter->shape());
    EXPECT_TRUE(zero.ok()) << zero.status();
    arguments.push_back(zero.ok() ? *std::move(zero) : Literal());
  }
  return arguments;
}

TEST(SupportsSweepTest, SupportedMeansItRuns) {
  ReferenceBackend backend;
  std::set<std::string> ops_that_verified;
  int valid = 0;
  int ran = 0;
  for (const Template& t : kTemplates) {
    for (const ElementTypeInfo& info : AllElementTypeInfos()) {
      if (!IsArrayType(info.type)) continue;
      const std::string text = Instantiate(t, info.type);
      absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(text);
      if (!module.ok()) continue;  // Not a valid module for this type.
      if (!VerifyModule(**module).ok()) continue;
      ops_that_verified.insert(t.op);
      ++valid;
      absl::StatusOr<std::unique_ptr<Executable>> executable =
          backend.Compile(**module, CompileOptions());
      if (!executable.ok()) {
        // The only acceptable refusal: Supports said no.
        EXPECT_TRUE(absl::IsUnimplemented(executable.status()) &&
                    absl::StrContains(executable.status().message(),
                                      "does not support"))
            << t.op << " " << info.name << ": " << executable.status() << "\n"
            << text;
        continue;
      }
      absl::StatusOr<Literal> result =
          (*executable)->Run(ZeroArguments(**module));
      EXPECT_TRUE(result.ok())
          << t.op << " on " << info.name
          << ": Supports says yes but the run failed: " << result.status()
          << "\n"
          << text;
      if (result.ok()) ++ran;
    }
  }
  // Every template is a valid module for at least one type (a typo in a
  // template would silently test nothing).
  for (const Template& t : kTemplates) {
    EXPECT_TRUE(ops_that_verified.count(t.op)) << t.op << " never verified";
  }
  EXPECT_GT(valid, 600);
  EXPECT_GT(ran, 600);
}

// What XLA does not define, the verifier refuses (and Supports says no),
// in the words the evaluator would use.
TEST(SupportsSweepTest, VerifierRefusesWhatXlaDoesNotDefine) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"ENTRY e {\n  a = c64[2] parameter(0)\n"
       "  ROOT r = c64[2] maximum(a, a)\n}\n",
       "maximum expects a pred, integral or floating-point element type"},
      {"ENTRY e {\n  a = c128[2] parameter(0)\n"
       "  ROOT r = c128[2] minimum(a, a)\n}\n",
       "minimum expects a pred, integral or floating-point element type"},
      {"ENTRY e {\n  a = c64[2] parameter(0)\n"
       "  ROOT r = c64[2] remainder(a, a)\n}\n",
       "remainder expects an integral or floating-point element type"},
      {"ENTRY e {\n  a = c64[4] parameter(0)\n"
       "  ROOT r = (c64[2], s32[2]) topk(a), k=2, largest=true\n}\n",
       "topk of a complex type: complex numbers have no order"},
      {"ENTRY e {\n  a = f32[4] parameter(0)\n  b = u32[4] parameter(1)\n"
       "  ROOT r = f16[4] stochastic-convert(a, b)\n}\n",
       "stochastic-convert to f16: XLA converts to integer types only"},
      {"ENTRY e {\n  a = f32[<=4,<=6] parameter(0)\n"
       "  ROOT r = f32[<=6,<=4] reshape(a)\n}\n",
       "reshape of a dynamic operand to more than one dynamic dimension"},
  };
  ReferenceBackend backend;
  for (const auto& [body, words] : cases) {
    const std::string text = absl::StrCat("HloModule m\n", body);
    ParseOptions no_checks;
    no_checks.check_shapes = false;
    absl::StatusOr<std::unique_ptr<Module>> module =
        ParseModule(text, no_checks);
    ASSERT_TRUE(module.ok()) << module.status();
    const absl::Status verified = VerifyModule(**module);
    EXPECT_TRUE(absl::StrContains(verified.message(), words))
        << verified << "\n"
        << text;
    EXPECT_FALSE(backend.Compile(**module, CompileOptions()).ok()) << text;
  }
  // No valid instruction of these ops involves a complex type.
  for (Opcode opcode : {Opcode::kMaximum, Opcode::kMinimum, Opcode::kRemainder,
                        Opcode::kTopK}) {
    EXPECT_FALSE(backend.Supports(opcode, ElementType::kC64))
        << OpcodeName(opcode);
    EXPECT_FALSE(backend.Supports(opcode, ElementType::kC128))
        << OpcodeName(opcode);
    EXPECT_TRUE(backend.Supports(opcode, ElementType::kF32))
        << OpcodeName(opcode);
  }
}

// Reshapes of dynamic operands whose result sizes are decided run: each
// dynamic result dimension passes one of the operand's through.
TEST(SupportsSweepTest, ReshapeKeepsPassThroughDynamicDimensions) {
  const std::string text =
      "HloModule m\nENTRY e {\n  a = f32[<=2,<=3] parameter(0)\n"
      "  ROOT r = f32[<=2,<=3,1] reshape(a)\n}\n";
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(text);
  ASSERT_TRUE(module.ok()) << module.status();
  ASSERT_TRUE(VerifyModule(**module).ok()) << VerifyModule(**module);
  ReferenceBackend backend;
  absl::StatusOr<std::unique_ptr<Executable>> executable =
      backend.Compile(**module, CompileOptions());
  ASSERT_TRUE(executable.ok()) << executable.status();
  absl::StatusOr<Literal> argument =
      Literal::Create(Shape::Array(ElementType::kF32, {2, 3}));
  ASSERT_TRUE(argument.ok());
  ASSERT_TRUE(argument->SetDynamicSize(0, 1).ok());
  ASSERT_TRUE(argument->SetDynamicSize(1, 2).ok());
  std::vector<Literal> arguments;
  arguments.push_back(*std::move(argument));
  absl::StatusOr<Literal> result = (*executable)->Run(arguments);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->dynamic_sizes(), (std::vector<int64_t>{1, 2, 1}));
}

}  // namespace
}  // namespace kiln
