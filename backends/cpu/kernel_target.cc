#include "backends/cpu/kernel_target.h"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace kiln::cpu {

LaunchDims GridStrideLaunch(int64_t elements) {
  LaunchDims dims;
  const int64_t n = std::max<int64_t>(elements, 1);
  // A whole number of warps, at most kCudaBlock threads.
  dims.block = std::min<int64_t>(kCudaBlock, (n + 31) / 32 * 32);
  dims.grid =
      std::min<int64_t>(kCudaMaxGrid, (n + dims.block - 1) / dims.block);
  return dims;
}

std::string KernelHeader(KernelTarget target, absl::string_view name) {
  if (target == KernelTarget::kHostCpp) {
    return absl::StrCat("extern \"C\" void ", name,
                        "(const void* const* in, void* const* out) {\n");
  }
  return absl::StrCat("extern \"C\" __global__ void __launch_bounds__(",
                      kCudaBlock, ") ", name,
                      "_gpu(const void* const* in, void* const* out) {\n");
}

std::string KernelTrailer(KernelTarget target, absl::string_view name,
                          const LaunchDims& dims) {
  if (target == KernelTarget::kHostCpp) return "";
  return absl::StrCat("KILN_LAUNCH(", name, ", ", dims.grid, ", ", dims.block,
                      ", ", dims.cooperative ? 1 : 0, ")\n");
}

std::string ParallelLoop(KernelTarget target, absl::string_view var,
                         int64_t count, bool parallel) {
  if (target == KernelTarget::kCuda) {
    return absl::StrCat("for (int64_t ", var,
                        " = static_cast<int64_t>(blockIdx.x) * blockDim.x + "
                        "threadIdx.x; ",
                        var, " < ", count, "; ", var,
                        " += static_cast<int64_t>(blockDim.x) * gridDim.x) {");
  }
  std::string text;
  if (parallel) {
    text =
        "#pragma omp parallel for schedule(static) num_threads(KilnThreads())"
        "\n";
  }
  return absl::StrCat(text, "for (int64_t ", var, " = 0; ", var, " < ", count,
                      "; ++", var, ") {");
}

std::string SerialKernel(KernelTarget target, std::string host_text,
                         absl::string_view name) {
  if (target == KernelTarget::kHostCpp) return host_text;
  const std::string entry = absl::StrCat("extern \"C\" void ", name, "(");
  const size_t at = host_text.find(entry);
  if (at == std::string::npos) return host_text;
  host_text.replace(at, entry.size(),
                    absl::StrCat("static __device__ void ", name, "_serial("));
  const LaunchDims one;
  return absl::StrCat(
      host_text, "extern \"C\" __global__ void ", name,
      "_gpu(const void* const* in, void* const* out) {\n",
      "  // Runs on one thread: a sequential algorithm (sort, scatter in the\n",
      "  // evaluator's order).\n",
      "  if (blockIdx.x == 0 && threadIdx.x == 0) ", name,
      "_serial(in, out);\n", "}\n", KernelTrailer(target, name, one));
}

std::vector<ParsedLaunch> ParseLaunches(absl::string_view source) {
  std::vector<ParsedLaunch> launches;
  for (absl::string_view line : absl::StrSplit(source, '\n')) {
    if (!absl::ConsumePrefix(&line, "KILN_LAUNCH(") ||
        !absl::ConsumeSuffix(&line, ")")) {
      continue;
    }
    std::vector<std::string> fields = absl::StrSplit(line, ", ");
    ParsedLaunch launch;
    int cooperative = 0;
    if (fields.size() != 4 || !absl::SimpleAtoi(fields[1], &launch.dims.grid) ||
        !absl::SimpleAtoi(fields[2], &launch.dims.block) ||
        !absl::SimpleAtoi(fields[3], &cooperative)) {
      continue;
    }
    launch.name = fields[0];
    launch.dims.cooperative = cooperative != 0;
    launches.push_back(std::move(launch));
  }
  return launches;
}

}  // namespace kiln::cpu
