// The arguments `kiln run` passes to the entry computation: literal text
// from --args or --args_file, .npy files, or random values from a seed.
// See docs/kiln_run.md for the formats.
#ifndef KILN_TOOLS_CLI_RUN_ARGS_H_
#define KILN_TOOLS_CLI_RUN_ARGS_H_

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/shape.h"

namespace kiln::cli {

// Where the arguments come from; at most one source may be set.
struct ArgumentSources {
  // --args: items separated by ';'.
  std::optional<std::string> args;
  // --args_file: a file of items (SplitArgsFile).
  std::optional<std::string> args_file;
  // --random_args=SEED.
  std::optional<uint64_t> random_seed;
  // Devices (replicas x partitions) the arguments are for.
  int64_t device_count = 1;
};

// The items of --args: split at ';' (literal text never holds one), blanks
// around each trimmed. An empty text (or only blanks) has no items.
std::vector<std::string> SplitArgsFlag(absl::string_view text);

// The items of an args file. Items are separated by blank lines; a block
// of consecutive lines that does not parse as one literal is read as one
// item per line. Lines starting with '#' are comments.
std::vector<std::string> SplitArgsFile(absl::string_view text);

// One item: "@PATH" or a path ending in ".npy" reads that file (.npy: a
// NumPy array, raw V1/V2 dtypes read as `parameter`'s element type; any
// other file: its text as one literal); anything else is literal text,
// e.g. "f32[2] {1, 2}".
absl::StatusOr<Literal> ItemToLiteral(absl::string_view item,
                                      const Shape& parameter);

// A literal of `shape` (static; dynamic dimensions take their bound) with
// random values drawn from `generator`: floats uniform in [-1, 1) rounded
// to the type ([0, 1) for types without a sign), complex parts likewise,
// signed integers in [-10, 10] and unsigned in [0, 10] (clamped to the
// type's range), pred true or false with equal odds. Tuples recursively;
// tokens carry no value.
absl::StatusOr<Literal> RandomLiteral(const Shape& shape,
                                      std::mt19937_64& generator);

// Builds each device's arguments for entry parameters of `parameters`.
// Given items, there must be one per parameter (every device gets the
// same) or one per parameter per device (device 0's first). Random
// arguments draw every device's values, device 0 first, from one generator
// seeded with the seed, so device 0's values do not depend on the device
// count. No source: only an entry without parameters runs.
absl::StatusOr<std::vector<std::vector<Literal>>> BuildArguments(
    const ArgumentSources& sources, absl::Span<const Shape> parameters);

}  // namespace kiln::cli

#endif  // KILN_TOOLS_CLI_RUN_ARGS_H_
