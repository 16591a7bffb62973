// main() for fuzz targets in a normal (non-libFuzzer) build: runs the target
// once on each file given, or on each file in each directory given. Use it to
// replay a crash found by tools/fuzz.sh under gdb or a plain build:
//   bazel run //fuzz:hlo_text_fuzzer -- /path/to/crash-1234
// --random_seconds=N instead runs the target on random inputs (a fixed
// pseudo-random stream, sizes 0..512) for N seconds, without coverage
// guidance: a bounded CI run of the sanitized build (tools/fuzz.sh).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "fuzz/fuzz_target.h"

namespace {

bool RunOnFile(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    std::fprintf(stderr, "%s: cannot open\n", path.c_str());
    return false;
  }
  std::stringstream contents;
  contents << file.rdbuf();
  std::string data = contents.str();
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(data.data()),
                         data.size());
  return true;
}

// Random inputs for `seconds`; returns how many ran (a crash aborts).
long RunRandom(double seconds) {
  uint64_t state = 0x9E3779B97F4A7C15ULL;
  auto next = [&state]() {  // SplitMix64.
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  };
  const auto stop =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  long runs = 0;
  std::string data;
  while (std::chrono::steady_clock::now() < stop) {
    data.resize(next() % 513);
    for (char& c : data) c = static_cast<char>(next());
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(data.data()),
                           data.size());
    ++runs;
  }
  return runs;
}

}  // namespace

int main(int argc, char** argv) {
  constexpr char kRandom[] = "--random_seconds=";
  if (argc == 2 && std::strncmp(argv[1], kRandom, sizeof(kRandom) - 1) == 0) {
    const double seconds = std::atof(argv[1] + sizeof(kRandom) - 1);
    const long runs = RunRandom(seconds);
    std::fprintf(stderr, "ran %ld random input(s) in %g s without a crash\n",
                 runs, seconds);
    return 0;
  }
  int inputs = 0;
  bool ok = true;
  for (int i = 1; i < argc; ++i) {
    std::filesystem::path path(argv[i]);
    std::error_code error;
    if (std::filesystem::is_directory(path, error)) {
      for (const auto& entry : std::filesystem::directory_iterator(path)) {
        if (!entry.is_regular_file()) continue;
        ok &= RunOnFile(entry.path());
        ++inputs;
      }
    } else {
      ok &= RunOnFile(path);
      ++inputs;
    }
  }
  std::fprintf(stderr, "ran %d input(s) without a crash\n", inputs);
  return ok ? 0 : 1;
}
