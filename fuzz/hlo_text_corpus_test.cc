// Runs the seed corpus of //fuzz:hlo_text_fuzzer through the fuzz target in
// the normal test build, so every seed (and every crash reproducer added to
// the corpus) is a regression test. Seeds named *.hlo must also parse.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/text/parser.h"
#include "fuzz/fuzz_target.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

constexpr char kCorpus[] = "fuzz/corpus/hlo_text";

std::vector<std::filesystem::path> CorpusFiles() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(kCorpus)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream contents;
  contents << file.rdbuf();
  return contents.str();
}

TEST(HloTextCorpusTest, EverySeedRunsThroughTheFuzzTarget) {
  std::vector<std::filesystem::path> files = CorpusFiles();
  ASSERT_GE(files.size(), 10u) << "seed corpus missing from runfiles";
  for (const auto& path : files) {
    SCOPED_TRACE(path.string());
    std::string data = ReadFile(path);
    // Aborts (failing the test) if a round-trip property is violated.
    EXPECT_EQ(LLVMFuzzerTestOneInput(
                  reinterpret_cast<const uint8_t*>(data.data()), data.size()),
              0);
  }
}

TEST(HloTextCorpusTest, HloSeedsAreValidModules) {
  int modules = 0;
  for (const auto& path : CorpusFiles()) {
    if (path.extension() != ".hlo") continue;
    ParseOptions options;
    options.filename = path.string();
    absl::StatusOr<std::unique_ptr<Module>> module =
        ParseModule(ReadFile(path), options);
    EXPECT_TRUE(module.ok()) << module.status();
    ++modules;
  }
  EXPECT_GE(modules, 5);
}

}  // namespace
}  // namespace kiln
