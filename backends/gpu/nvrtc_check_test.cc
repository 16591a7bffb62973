// The offline check of the GPU backend's kernels: every distinct kernel
// translation unit the conformance suite (spec_tests) generates for the
// `gpu` backend compiles with NVRTC to PTX (compute_80), and ptxas
// assembles that PTX for sm_80 and sm_90. No device is needed.
//
// Units are deduplicated by content and compiled in batches (each
// module's kernels renamed apart). By default the test checks a
// deterministic sample: the first case of every op and of every result
// element type the suite has. KILN_NVRTC_FULL=1 checks every unit
// (tools/nvrtc_check_full.sh). Skipped when the CUDA toolkit (NVRTC,
// ptxas) is not installed.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "backends/cpu/kernel_compiler.h"
#include "backends/gpu/gpu_backend.h"
#include "backends/gpu/nvrtc_compiler.h"
#include "compiler/ir/element_type.h"
#include "compiler/text/parser.h"
#include "gtest/gtest.h"
#include "tools/conform/case_file.h"

namespace kiln::gpu {
namespace {

struct Unit {
  std::string case_name;
  std::string kernels;  // Without the prelude.
};

// The kernels of every run case (the selected ones), distinct by content.
std::vector<Unit> SuiteUnits(bool full, int* cases_seen) {
  absl::StatusOr<std::vector<std::string>> files =
      conform::FindCaseFiles({"spec_tests"});
  EXPECT_TRUE(files.ok()) << files.status();
  if (!files.ok()) return {};
  absl::StatusOr<std::vector<conform::Case>> cases = conform::LoadCases(*files);
  EXPECT_TRUE(cases.ok()) << cases.status();
  if (!cases.ok()) return {};
  std::unique_ptr<Backend> gpu = MakeDeviceBackend();
  const std::string& prelude = DevicePrelude();
  std::set<std::string> seen_units, seen_pairs;
  std::vector<Unit> units;
  for (const conform::Case& c : *cases) {
    if (c.kind != conform::CaseKind::kRun || c.device_count() != 1) continue;
    absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(c.module_text);
    if (!module.ok()) continue;
    if (!full) {
      // The first case of each op and of each result type.
      const Shape& root = (*module)->entry()->root()->shape();
      bool fresh =
          seen_pairs
              .insert(std::string(ElementTypeName(
                  root.IsTuple() ? ElementType::kTuple : root.element_type())))
              .second;
      for (const std::string& op : c.ops) {
        fresh |= seen_pairs.insert(absl::StrCat("op:", op)).second;
      }
      if (!fresh) continue;
    }
    ++*cases_seen;
    auto executable = gpu->Compile(**module, {});
    if (!executable.ok()) continue;  // Refused before lowering: no kernels.
    absl::StatusOr<std::string> cuda = (*executable)->Emit("cuda");
    EXPECT_TRUE(cuda.ok()) << c.name << ": " << cuda.status();
    if (!cuda.ok() || cuda->size() <= prelude.size()) continue;
    std::string kernels = cuda->substr(prelude.size());
    if (seen_units.insert(cpu::Fingerprint128(kernels)).second) {
      units.push_back({c.name, std::move(kernels)});
    }
  }
  return units;
}

// Assembles `ptx` with ptxas for `sm`; the error output, or "".
std::string Assemble(const std::string& ptx, const std::string& sm) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string dir = tmp != nullptr ? tmp : "/tmp";
  const std::string in = dir + "/batch.ptx", out = dir + "/batch.cubin",
                    log = dir + "/ptxas.log";
  std::ofstream(in) << ptx;
  const std::string command =
      absl::StrCat(CudaHome(), "/bin/ptxas -arch=", sm, " ", in, " -o ", out,
                   " >", log, " 2>&1");
  if (std::system(command.c_str()) == 0) return "";
  std::ifstream read(log);
  return std::string(std::istreambuf_iterator<char>(read), {});
}

TEST(NvrtcCheckTest, EveryGeneratedKernelCompilesAndAssembles) {
  if (!CompileToPtx("", "compute_80").ok()) {
    GTEST_SKIP() << "no NVRTC: " << CompileToPtx("", "compute_80").status();
  }
  const char* full_text = std::getenv("KILN_NVRTC_FULL");
  const bool full = full_text != nullptr && std::string(full_text) == "1";
  int cases = 0;
  const std::vector<Unit> units = SuiteUnits(full, &cases);
  EXPECT_GE(units.size(), full ? 500u : 50u);
  constexpr size_t kBatch = 40;
  int failed = 0;
  for (size_t start = 0; start < units.size(); start += kBatch) {
    std::string batch = DevicePrelude();
    const size_t end = std::min(units.size(), start + kBatch);
    for (size_t k = start; k < end; ++k) {
      absl::StrAppend(
          &batch,
          absl::StrReplaceAll(
              units[k].kernels,
              {{"kiln_kernel_", absl::StrCat("kiln_m", k, "_kernel_")}}));
    }
    absl::StatusOr<std::string> ptx = CompileToPtx(batch, "compute_80");
    if (!ptx.ok()) {
      // Find the units that fail on their own, and report each.
      for (size_t k = start; k < end; ++k) {
        absl::StatusOr<std::string> one =
            CompileToPtx(DevicePrelude() + units[k].kernels, "compute_80");
        EXPECT_TRUE(one.ok()) << units[k].case_name << ": " << one.status();
        failed += !one.ok();
      }
      continue;
    }
    for (const std::string sm : {"sm_80", "sm_90"}) {
      const std::string error = Assemble(*ptx, sm);
      EXPECT_EQ(error, "") << "ptxas " << sm << ", units " << start << ".."
                           << end;
    }
  }
  std::cout << cases << " cases, " << units.size() << " distinct kernel units, "
            << failed << " failed\n";
}

}  // namespace
}  // namespace kiln::gpu
