// main() for fuzz targets in a normal (non-libFuzzer) build: runs the target
// once on each file given, or on each file in each directory given. Use it to
// replay a crash found by tools/fuzz.sh under gdb or a plain build:
//   bazel run //fuzz:hlo_text_fuzzer -- /path/to/crash-1234
#include <cstdio>
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

}  // namespace

int main(int argc, char** argv) {
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
