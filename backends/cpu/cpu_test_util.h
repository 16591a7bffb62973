// Shared by the CPU backend's tests (cpu_backend_test, cpu_types_test,
// cpu_ops_test): modules run on the cpu and reference backends on the
// same random arguments and compared under the conformance tolerances.
#ifndef KILN_BACKENDS_CPU_CPU_TEST_UTIL_H_
#define KILN_BACKENDS_CPU_CPU_TEST_UTIL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "backends/backend.h"
#include "compiler/ir/element_type.h"
#include "compiler/ir/module.h"
#include "gtest/gtest.h"
#include "tools/conform/tolerance.h"

namespace kiln::cpu {

// Points the kernel cache at the test's temporary directory.
class CpuBackendTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TEST_TMPDIR");
    setenv("KILN_CACHE_DIR", tmp != nullptr ? tmp : "/tmp/kiln-test-cache", 1);
  }
};

// `text` parsed without shape checks (null, with a failure, if it does
// not parse).
std::unique_ptr<Module> Parse(const std::string& text);

// The suite's default tolerance for `type`, widened when the module also
// computes in a narrower float type: rounding differences of a narrow dot
// or reduction (an f32 GEMM with FMA against the evaluator's sequential
// sum) carry into results converted to a wider type.
conform::Tolerance MixedPrecisionTolerance(const Module& module,
                                           ElementType type);

// What CompareWithReference did: `not_compared` says why the values were
// not compared (the reference backend cannot compile or run the module;
// then the cpu backend must refuse it too); `stats` is the cpu
// executable's --emit=stats text when they were.
struct ReferenceComparison {
  std::string not_compared;
  std::string stats;
};

// Runs `module` on both backends with random arguments drawn from `seed`
// and compares under MixedPrecisionTolerance (a failure of the test when
// they differ or the cpu backend fails where the reference runs).
ReferenceComparison CompareWithReference(const Module& module, uint64_t seed,
                                         const std::string& what);

// CompareWithReference for any backend (the GPU backends' tests share it);
// `stats` then holds the executable's Emit(`emit`) text.
ReferenceComparison CompareBackendWithReference(Backend& backend,
                                                const Module& module,
                                                uint64_t seed,
                                                const std::string& what,
                                                const std::string& emit);

// `text` run on `backend` and the reference backend with random arguments
// drawn from `seed`: a failure unless both run and the results are the
// same bits (for kernels that compute exactly as the evaluator does).
// Returns the executable's Emit(`emit`) text.
std::string ExpectBitIdenticalToReference(Backend& backend,
                                          const std::string& text,
                                          uint64_t seed,
                                          const std::string& emit = "stats");

// CompareWithReference, and a failure when the values could not be
// compared. Returns the cpu executable's stats.
std::string ExpectSameAsReference(const Module& module, uint64_t seed,
                                  const std::string& what);
void ExpectSameAsReference(const std::string& text, uint64_t seed = 1);

// `module` compiled by the cpu backend with default options, and its
// Emit(`what`) text ("" with a failure when either step fails).
std::string Emitted(const Module& module, const std::string& what);

// In `--emit=thunks` text, the step whose line first contains `marker`
// ("(w) in=[", or "(s1" for a name the pipeline may suffix): its first
// input slot and its output slots, as text. Fails the test when missing.
std::pair<std::string, std::string> StepSlots(const std::string& thunks,
                                              const std::string& marker);

}  // namespace kiln::cpu

#endif  // KILN_BACKENDS_CPU_CPU_TEST_UTIL_H_
