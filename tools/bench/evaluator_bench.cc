// Benchmarks of the reference evaluator on one core, for the targets of
// issue 4: elementwise >= 100M elements/s, reduce >= 200M elements/s,
// dot >= 1 GFLOP/s. Run optimized:
//   bazel run -c opt //tools/bench:evaluator_bench
// items_per_second counts elements (the output's, or the input's for
// reduce); for dot and convolution it counts floating-point operations
// (a multiply and an add per term), also reported as the FLOP/s counter.
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/ir/literal.h"
#include "compiler/text/parser.h"
#include "tools/cli/run_args.h"

namespace kiln {
namespace {

constexpr int64_t kMillion = 1 << 20;

// A parsed module and arguments for it, drawn with a fixed seed.
struct Workload {
  std::unique_ptr<Module> module;
  std::vector<Literal> arguments;
};

// Parses `hlo` and fills each entry parameter with random values from
// `seed` (the same ranges as `kiln run --random_args`). Null on error.
std::unique_ptr<Workload> MakeWorkload(absl::string_view hlo, uint64_t seed,
                                       benchmark::State& state) {
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(hlo);
  if (!module.ok()) {
    state.SkipWithError(std::string(module.status().message()).c_str());
    return nullptr;
  }
  auto workload = std::make_unique<Workload>();
  workload->module = *std::move(module);
  std::mt19937_64 generator(seed);
  for (const Instruction* parameter : workload->module->entry()->parameters()) {
    absl::StatusOr<Literal> argument =
        cli::RandomLiteral(parameter->shape(), generator);
    if (!argument.ok()) {
      state.SkipWithError(std::string(argument.status().message()).c_str());
      return nullptr;
    }
    workload->arguments.push_back(*std::move(argument));
  }
  return workload;
}

// Evaluates `workload` once per iteration; false (and the benchmark marked
// as failed) on an error.
bool RunWorkload(const Workload& workload, benchmark::State& state) {
  for (auto _ : state) {
    absl::StatusOr<Literal> result =
        Evaluate(*workload.module, workload.arguments);
    if (!result.ok()) {
      state.SkipWithError(std::string(result.status().message()).c_str());
      return false;
    }
    benchmark::DoNotOptimize(result->data().data());
  }
  return true;
}

void ReportFlops(benchmark::State& state, double flops_per_iteration) {
  state.SetItemsProcessed(static_cast<int64_t>(flops_per_iteration) *
                          state.iterations());
  state.counters["FLOP/s"] = benchmark::Counter(
      flops_per_iteration, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_AddF32(benchmark::State& state) {
  const std::string hlo = absl::StrCat(R"(
HloModule add
ENTRY e {
  x = f32[)",
                                       kMillion, R"(] parameter(0)
  y = f32[)",
                                       kMillion, R"(] parameter(1)
  ROOT sum = f32[)",
                                       kMillion, R"(] add(x, y)
})");
  std::unique_ptr<Workload> workload = MakeWorkload(hlo, 1, state);
  if (workload == nullptr || !RunWorkload(*workload, state)) return;
  state.SetItemsProcessed(kMillion * state.iterations());
}
BENCHMARK(BM_AddF32)->Unit(benchmark::kMillisecond);

// Five elementwise ops in a loop fusion, as a fusing pipeline leaves them.
// items_per_second counts the chain's output elements (each takes 5 ops).
void BM_ElementwiseChain5(benchmark::State& state) {
  const std::string shape = absl::StrCat("f32[", kMillion, "]");
  const std::string hlo = absl::StrCat(
      "HloModule chain\n\nfused {\n  a = ", shape,
      " parameter(0)\n  b = ", shape, " parameter(1)\n  s = ", shape,
      " add(a, b)\n  m = ", shape, " multiply(s, a)\n  d = ", shape,
      " subtract(m, b)\n  x = ", shape, " maximum(d, a)\n  ROOT n = ", shape,
      " negate(x)\n}\n\nENTRY e {\n  p0 = ", shape,
      " parameter(0)\n  p1 = ", shape, " parameter(1)\n  ROOT f = ", shape,
      " fusion(p0, p1), kind=kLoop, calls=fused\n}\n");
  std::unique_ptr<Workload> workload = MakeWorkload(hlo, 2, state);
  if (workload == nullptr || !RunWorkload(*workload, state)) return;
  state.SetItemsProcessed(kMillion * state.iterations());
  state.counters["op_elements/s"] = benchmark::Counter(
      5.0 * kMillion, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_ElementwiseChain5)->Unit(benchmark::kMillisecond);

void BM_ReduceF32(benchmark::State& state) {
  const std::string hlo = absl::StrCat(R"(
HloModule reduce
sum {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  x = f32[)",
                                       kMillion, R"(] parameter(0)
  zero = f32[] constant(0)
  ROOT r = f32[] reduce(x, zero), dimensions={0}, to_apply=sum
})");
  std::unique_ptr<Workload> workload = MakeWorkload(hlo, 3, state);
  if (workload == nullptr || !RunWorkload(*workload, state)) return;
  state.SetItemsProcessed(kMillion * state.iterations());
}
BENCHMARK(BM_ReduceF32)->Unit(benchmark::kMillisecond);

void BM_Dot256(benchmark::State& state) {
  constexpr int64_t n = 256;
  const std::string hlo = R"(
HloModule dot
ENTRY e {
  a = f32[256,256] parameter(0)
  b = f32[256,256] parameter(1)
  ROOT d = f32[256,256] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})";
  std::unique_ptr<Workload> workload = MakeWorkload(hlo, 4, state);
  if (workload == nullptr || !RunWorkload(*workload, state)) return;
  ReportFlops(state, 2.0 * n * n * n);
}
BENCHMARK(BM_Dot256)->Unit(benchmark::kMillisecond);

// 3x3 convolution, same padding, 64 -> 64 features on 1x64x56x56 (NCHW).
void BM_Conv3x3(benchmark::State& state) {
  const std::string hlo = R"(
HloModule conv
ENTRY e {
  input = f32[1,64,56,56] parameter(0)
  kernel = f32[64,64,3,3] parameter(1)
  ROOT c = f32[1,64,56,56] convolution(input, kernel), window={size=3x3 pad=1_1x1_1}, dim_labels=bf01_oi01->bf01
})";
  std::unique_ptr<Workload> workload = MakeWorkload(hlo, 5, state);
  if (workload == nullptr || !RunWorkload(*workload, state)) return;
  // Every output element takes 64 input features x 9 taps, near the edges
  // fewer; the figure counts the full window, as is usual.
  ReportFlops(state, 2.0 * 64 * 56 * 56 * 64 * 9);
}
BENCHMARK(BM_Conv3x3)->Unit(benchmark::kMillisecond);

// 64k rows of 64 floats gathered from a 100000-row table.
void BM_Gather64kRows(benchmark::State& state) {
  constexpr int64_t kRows = 100000, kWidth = 64, kGathered = 65536;
  const std::string hlo = absl::StrCat(
      R"(
HloModule gather
ENTRY e {
  table = f32[)",
      kRows, ",", kWidth, R"(] parameter(0)
  rows = s32[)",
      kGathered, R"(,1] parameter(1)
  ROOT g = f32[)",
      kGathered, ",", kWidth,
      R"(] gather(table, rows), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,)",
      kWidth, R"(}
})");
  std::unique_ptr<Workload> workload = MakeWorkload(hlo, 6, state);
  if (workload == nullptr) return;
  // Row indices spread over the whole table (random arguments stay small).
  std::mt19937_64 generator(6);
  Literal& rows = workload->arguments[1];
  for (int64_t i = 0; i < rows.element_count(); ++i) {
    rows.SetInt64(i, static_cast<int64_t>(generator() % kRows));
  }
  if (!RunWorkload(*workload, state)) return;
  state.SetItemsProcessed(kGathered * kWidth * state.iterations());
  state.counters["rows/s"] = benchmark::Counter(
      kGathered, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Gather64kRows)->Unit(benchmark::kMillisecond);

// Variadic reduce: argmax over 64k (value, index) pairs. The combiner is a
// computation of 8 scalar ops run once per element (a per-element call),
// so items_per_second counts elements, i.e. combiner calls.
void BM_VariadicReduceArgmax(benchmark::State& state) {
  constexpr int64_t kElements = 65536;
  const std::string hlo = absl::StrCat(R"(
HloModule argmax
argmax {
  av = f32[] parameter(0)
  ai = s32[] parameter(1)
  bv = f32[] parameter(2)
  bi = s32[] parameter(3)
  gt = pred[] compare(av, bv), direction=GT
  eq = pred[] compare(av, bv), direction=EQ
  lt = pred[] compare(ai, bi), direction=LT
  tie = pred[] and(eq, lt)
  keep = pred[] or(gt, tie)
  v = f32[] select(keep, av, bv)
  i = s32[] select(keep, ai, bi)
  ROOT t = (f32[], s32[]) tuple(v, i)
}
ENTRY e {
  x = f32[)",
                                       kElements, R"(] parameter(0)
  idx = s32[)",
                                       kElements, R"(] iota(), iota_dimension=0
  lowest = f32[] constant(-inf)
  zero = s32[] constant(0)
  ROOT r = (f32[], s32[]) reduce(x, idx, lowest, zero), dimensions={0}, to_apply=argmax
})");
  std::unique_ptr<Workload> workload = MakeWorkload(hlo, 7, state);
  if (workload == nullptr || !RunWorkload(*workload, state)) return;
  state.SetItemsProcessed(kElements * state.iterations());
}
BENCHMARK(BM_VariadicReduceArgmax)->Unit(benchmark::kMillisecond);

// Sort of 16k (key, value) pairs with a lexicographic comparator (key
// descending, then value ascending): about n log n comparator calls of 5
// scalar ops each. items_per_second counts sorted elements.
void BM_SortPairsComparator(benchmark::State& state) {
  constexpr int64_t kElements = 16384;
  const std::string hlo = absl::StrCat(
      R"(
HloModule sort_pairs
lexicographic {
  ka = s32[] parameter(0)
  kb = s32[] parameter(1)
  va = f32[] parameter(2)
  vb = f32[] parameter(3)
  kgt = pred[] compare(ka, kb), direction=GT
  keq = pred[] compare(ka, kb), direction=EQ
  vlt = pred[] compare(va, vb), direction=LT
  tie = pred[] and(keq, vlt)
  ROOT less = pred[] or(kgt, tie)
}
ENTRY e {
  keys = s32[)",
      kElements, R"(] parameter(0)
  values = f32[)",
      kElements, R"(] parameter(1)
  ROOT s = (s32[)",
      kElements, "], f32[", kElements,
      R"(]) sort(keys, values), dimensions={0}, to_apply=lexicographic
})");
  std::unique_ptr<Workload> workload = MakeWorkload(hlo, 8, state);
  if (workload == nullptr || !RunWorkload(*workload, state)) return;
  state.SetItemsProcessed(kElements * state.iterations());
}
BENCHMARK(BM_SortPairsComparator)->Unit(benchmark::kMillisecond);

// Issue 13 §4: elementwise ops over 4M elements, f32 and bf16 (bf16
// computes in float and rounds each result once). Arg 0: 0 = f32, 1 = bf16;
// arg 1: 0 = add, 1 = multiply.
void BM_Elementwise4M(benchmark::State& state) {
  constexpr int64_t kElements = 4 * kMillion;
  const std::string type = state.range(0) == 0 ? "f32" : "bf16";
  const std::string op = state.range(1) == 0 ? "add" : "multiply";
  const std::string shape = absl::StrCat(type, "[", kElements, "]");
  const std::string hlo = absl::StrCat(
      "HloModule ew\nENTRY e {\n  x = ", shape, " parameter(0)\n  y = ", shape,
      " parameter(1)\n  ROOT r = ", shape, " ", op, "(x, y)\n}\n");
  std::unique_ptr<Workload> workload = MakeWorkload(hlo, 9, state);
  if (workload == nullptr || !RunWorkload(*workload, state)) return;
  state.SetItemsProcessed(kElements * state.iterations());
}
BENCHMARK(BM_Elementwise4M)
    ->ArgNames({"bf16", "mul"})
    ->Args({0, 0})
    ->Args({1, 0})
    ->Args({0, 1})
    ->Args({1, 1})
    ->Unit(benchmark::kMillisecond);

// A sort of 1M f32 keys, arg 0 selecting the comparator:
//   0: compare(p0, p1), direction=LT (one operand);
//   1: the same with type=TOTALORDER, sorting (keys, iota) pairs (argsort,
//      as jnp.argsort lowers it);
//   2: compare(p1, p0), direction=GT on operand 1 of (iota, keys) pairs;
//   3: a key/value lexicographic comparator (keys descending, then values
//      ascending) over 1M s32 keys drawn from 1k values: the general path.
// items_per_second counts sorted elements.
void BM_Sort1M(benchmark::State& state) {
  constexpr int64_t kElements = kMillion;
  const std::string n = absl::StrCat(kElements);
  std::string hlo;
  switch (state.range(0)) {
    case 0:
      hlo = absl::StrCat(
          "HloModule s\nlt {\n  a = f32[] parameter(0)\n  b = f32[] "
          "parameter(1)\n  ROOT c = pred[] compare(a, b), direction=LT\n}\n"
          "ENTRY e {\n  x = f32[",
          n, "] parameter(0)\n  ROOT s = f32[", n,
          "] sort(x), dimensions={0}, to_apply=lt\n}\n");
      break;
    case 1:
      hlo = absl::StrCat(
          "HloModule s\nlt {\n  a = f32[] parameter(0)\n  b = f32[] "
          "parameter(1)\n  c = s32[] parameter(2)\n  d = s32[] parameter(3)\n"
          "  ROOT r = pred[] compare(a, b), direction=LT, type=TOTALORDER\n}\n"
          "ENTRY e {\n  x = f32[",
          n, "] parameter(0)\n  i = s32[", n,
          "] iota(), iota_dimension=0\n  ROOT s = (f32[", n, "], s32[", n,
          "]) sort(x, i), dimensions={0}, to_apply=lt\n}\n");
      break;
    case 2:
      hlo = absl::StrCat(
          "HloModule s\ngt {\n  a = s32[] parameter(0)\n  b = s32[] "
          "parameter(1)\n  c = f32[] parameter(2)\n  d = f32[] parameter(3)\n"
          "  ROOT r = pred[] compare(d, c), direction=GT\n}\n"
          "ENTRY e {\n  x = f32[",
          n, "] parameter(0)\n  i = s32[", n,
          "] iota(), iota_dimension=0\n  ROOT s = (s32[", n, "], f32[", n,
          "]) sort(i, x), dimensions={0}, to_apply=gt\n}\n");
      break;
    default:
      hlo = absl::StrCat(
          "HloModule s\nlex {\n  ka = s32[] parameter(0)\n  kb = s32[] "
          "parameter(1)\n  va = f32[] parameter(2)\n  vb = f32[] "
          "parameter(3)\n  kgt = pred[] compare(ka, kb), direction=GT\n"
          "  keq = pred[] compare(ka, kb), direction=EQ\n  vlt = pred[] "
          "compare(va, vb), direction=LT\n  tie = pred[] and(keq, vlt)\n"
          "  ROOT less = pred[] or(kgt, tie)\n}\nENTRY e {\n  k = s32[",
          n, "] parameter(0)\n  v = f32[", n,
          "] parameter(1)\n  ROOT s = (s32[", n, "], f32[", n,
          "]) sort(k, v), dimensions={0}, to_apply=lex\n}\n");
      break;
  }
  std::unique_ptr<Workload> workload = MakeWorkload(hlo, 10, state);
  if (workload == nullptr) return;
  if (state.range(0) == 3) {
    std::mt19937_64 generator(10);
    Literal& keys = workload->arguments[0];
    for (int64_t i = 0; i < keys.element_count(); ++i) {
      keys.SetInt64(i, static_cast<int64_t>(generator() % 1000));
    }
  }
  if (!RunWorkload(*workload, state)) return;
  state.SetItemsProcessed(kElements * state.iterations());
}
BENCHMARK(BM_Sort1M)
    ->ArgName("comparator")
    ->DenseRange(0, 3)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

// reduce-window over 1M elements of arg 0's type (0 = f32, 1 = bf16) with
// an add reducer, arg 1 selecting the window:
//   0: size 255, stride 1, padding 127_127 (a 255-wide moving sum);
//   1: size n, padding n-1 low (a cumulative sum, n = 1M);
//   2: size 3, stride 1 (little overlap, for comparison);
//   3: a max reducer over a 2-d 1024x1024 operand, 15x15 windows, stride 1.
// items_per_second counts output elements.
void BM_ReduceWindow1M(benchmark::State& state) {
  constexpr int64_t kElements = kMillion;
  const std::string type = state.range(0) == 0 ? "f32" : "bf16";
  const std::string op = state.range(1) == 3 ? "maximum" : "add";
  const std::string n = absl::StrCat(kElements);
  std::string shape = absl::StrCat(type, "[", n, "]");
  std::string window;
  switch (state.range(1)) {
    case 0:
      window = "size=255 pad=127_127";
      break;
    case 1:
      window = absl::StrCat("size=", n, " pad=", kElements - 1, "_0");
      break;
    case 2:
      window = "size=3 pad=1_1";
      break;
    default:
      shape = absl::StrCat(type, "[1024,1024]");
      window = "size=15x15 pad=7_7x7_7";
      break;
  }
  const std::string init = state.range(1) == 3 ? "-inf" : "0";
  const std::string hlo = absl::StrCat(
      "HloModule rw\nred {\n  a = ", type, "[] parameter(0)\n  b = ", type,
      "[] parameter(1)\n  ROOT r = ", type, "[] ", op, "(a, b)\n}\n",
      "ENTRY e {\n  x = ", shape, " parameter(0)\n  z = ", type, "[] constant(",
      init, ")\n  ROOT w = ", shape, " reduce-window(x, z), window={", window,
      "}, to_apply=red\n}\n");
  std::unique_ptr<Workload> workload = MakeWorkload(hlo, 11, state);
  if (workload == nullptr || !RunWorkload(*workload, state)) return;
  state.SetItemsProcessed(kElements * state.iterations());
}
BENCHMARK(BM_ReduceWindow1M)
    ->ArgNames({"bf16", "window"})
    ->ArgsProduct({{0, 1}, {0, 1, 2, 3}})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

}  // namespace
}  // namespace kiln

BENCHMARK_MAIN();
