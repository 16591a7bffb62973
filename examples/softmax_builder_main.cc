// Prints the HLO text of the softmax example: `bazel run
// //examples:softmax_builder`.
#include <cstdio>

#include "examples/softmax_builder.h"

int main() {
  absl::StatusOr<std::string> text = kiln::SoftmaxHlo();
  if (!text.ok()) {
    std::fprintf(stderr, "%s\n", std::string(text.status().message()).c_str());
    return 1;
  }
  std::fputs(text->c_str(), stdout);
  return 0;
}
