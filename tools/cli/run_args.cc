#include "tools/cli/run_args.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "compiler/ir/element_type.h"
#include "compiler/text/parser.h"
#include "tools/cli/io.h"
#include "tools/cli/npy.h"

namespace kiln::cli {
namespace {

// Half-width of the range random integers are drawn from: small, so that
// sums and products stay far from overflow and indices stay plausible.
constexpr int64_t kRandomIntRange = 10;

// Uniform in [0, 1) with 53 random bits.
double UniformUnit(std::mt19937_64& generator) {
  return static_cast<double>(generator() >> 11) * 0x1p-53;
}

// A random value for a float type, before rounding to it.
double RandomFloat(const ElementTypeInfo& info, std::mt19937_64& generator) {
  if (info.encoding == FloatEncoding::kExponentOnly) {
    // Only powers of two exist: 2^-4 .. 2^4.
    return std::ldexp(1.0, static_cast<int>(generator() % 9) - 4);
  }
  const double unit = UniformUnit(generator);
  return info.is_signed ? 2 * unit - 1 : unit;
}

int64_t RandomInt(const ElementTypeInfo& info, std::mt19937_64& generator) {
  const int bits = info.bit_width;
  int64_t low = 0, high = kRandomIntRange;
  if (info.kind == TypeKind::kSigned) {
    // s64's range (2^63) does not fit the shifts below; the clamp to
    // kRandomIntRange would win anyway.
    const int64_t half =
        bits >= 63 ? kRandomIntRange + 1 : int64_t{1} << (bits - 1);
    low = std::max<int64_t>(-kRandomIntRange, -half);
    high = std::min<int64_t>(kRandomIntRange, half - 1);
  } else if (bits < 63) {
    high = std::min<int64_t>(kRandomIntRange, (int64_t{1} << bits) - 1);
  }
  const uint64_t span = static_cast<uint64_t>(high - low) + 1;
  return low + static_cast<int64_t>(generator() % span);
}

void FillRandom(Literal& literal, std::mt19937_64& generator) {
  const ElementTypeInfo& info = GetElementTypeInfo(literal.element_type());
  const ElementTypeInfo& part = info.kind == TypeKind::kComplex
                                    ? GetElementTypeInfo(info.component)
                                    : info;
  for (int64_t i = 0; i < literal.element_count(); ++i) {
    switch (info.kind) {
      case TypeKind::kPred:
        literal.SetInt64(i, static_cast<int64_t>(generator() & 1));
        break;
      case TypeKind::kSigned:
      case TypeKind::kUnsigned:
        literal.SetInt64(i, RandomInt(info, generator));
        break;
      case TypeKind::kFloat:
        literal.SetDouble(i, RandomFloat(info, generator));
        break;
      case TypeKind::kComplex: {
        const double real = RandomFloat(part, generator);
        literal.SetComplex(i, {real, RandomFloat(part, generator)});
        break;
      }
      default:
        return;
    }
  }
}

// `shape` with every dynamic dimension at its bound (unbounded: size 1).
Shape StaticShape(const Shape& shape) {
  if (shape.IsTuple()) {
    std::vector<Shape> elements;
    for (const Shape& element : shape.tuple_shapes()) {
      elements.push_back(StaticShape(element));
    }
    return Shape::Tuple(std::move(elements));
  }
  if (!shape.IsArray()) return shape;
  std::vector<int64_t> dimensions = shape.dimensions();
  for (int64_t& size : dimensions) {
    if (size < 0) size = 1;  // unbounded
  }
  return Shape::Array(shape.element_type(), std::move(dimensions));
}

absl::Status FillRandomDeep(Literal& literal, std::mt19937_64& generator) {
  if (literal.shape().IsTuple()) {
    for (Literal& element : *literal.mutable_tuple_elements()) {
      if (absl::Status s = FillRandomDeep(element, generator); !s.ok()) {
        return s;
      }
    }
    return absl::OkStatus();
  }
  if (literal.shape().IsArray()) FillRandom(literal, generator);
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::string>> CollectItems(
    const ArgumentSources& sources) {
  if (sources.args.has_value()) return SplitArgsFlag(*sources.args);
  absl::StatusOr<std::string> text = ReadInput(*sources.args_file);
  if (!text.ok()) return text.status();
  return SplitArgsFile(*text);
}

absl::StatusOr<std::vector<std::vector<Literal>>> ItemArguments(
    const std::vector<std::string>& items, absl::Span<const Shape> parameters,
    int64_t device_count) {
  const size_t per_device = parameters.size();
  const bool shared = items.size() == per_device;
  if (!shared && items.size() != per_device * device_count) {
    std::string message = absl::StrCat(
        "the entry computation takes ", per_device, " parameter",
        per_device == 1 ? "" : "s", " but ", items.size(), " argument",
        items.size() == 1 ? " was" : "s were", " given");
    if (device_count > 1) {
      absl::StrAppend(
          &message, " (give ", per_device, ", or ", per_device * device_count,
          ": one per parameter for each ", "of ", device_count, " devices)");
    }
    return absl::InvalidArgumentError(message);
  }
  std::vector<std::vector<Literal>> arguments(device_count);
  for (size_t i = 0; i < items.size(); ++i) {
    absl::StatusOr<Literal> literal =
        ItemToLiteral(items[i], parameters[i % per_device]);
    if (!literal.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("argument ", i, ": ", literal.status().message()));
    }
    if (shared) {
      for (auto& device : arguments) device.push_back(*literal);
    } else {
      arguments[i / per_device].push_back(*std::move(literal));
    }
  }
  return arguments;
}

absl::StatusOr<std::vector<std::vector<Literal>>> RandomArguments(
    uint64_t seed, absl::Span<const Shape> parameters, int64_t device_count) {
  std::mt19937_64 generator(seed);
  std::vector<std::vector<Literal>> arguments(device_count);
  for (auto& device : arguments) {
    for (size_t i = 0; i < parameters.size(); ++i) {
      absl::StatusOr<Literal> literal = RandomLiteral(parameters[i], generator);
      if (!literal.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat("argument ", i, ": ", literal.status().message()));
      }
      device.push_back(*std::move(literal));
    }
  }
  return arguments;
}

}  // namespace

std::vector<std::string> SplitArgsFlag(absl::string_view text) {
  std::vector<std::string> items;
  if (absl::StripAsciiWhitespace(text).empty()) return items;
  for (absl::string_view item : absl::StrSplit(text, ';')) {
    items.emplace_back(absl::StripAsciiWhitespace(item));
  }
  return items;
}

std::vector<std::string> SplitArgsFile(absl::string_view text) {
  std::vector<std::string> items;
  std::vector<absl::string_view> block;
  auto flush = [&]() {
    if (block.empty()) return;
    const std::string joined = absl::StrJoin(block, "\n");
    if (block.size() == 1 || ParseLiteral(joined).ok()) {
      items.push_back(joined);
    } else {
      // Not one literal spread over lines: one literal per line.
      for (absl::string_view line : block) items.emplace_back(line);
    }
    block.clear();
  };
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    line = absl::StripAsciiWhitespace(line);
    if (absl::StartsWith(line, "#")) continue;
    if (line.empty()) {
      flush();
      continue;
    }
    block.push_back(line);
  }
  flush();
  return items;
}

absl::StatusOr<Literal> ItemToLiteral(absl::string_view item,
                                      const Shape& parameter) {
  std::string path;
  if (absl::StartsWith(item, "@")) {
    path = std::string(item.substr(1));
  } else if (absl::EndsWith(item, ".npy")) {
    path = std::string(item);
  }
  if (path.empty()) return ParseLiteral(item);
  if (absl::EndsWith(path, ".npy")) {
    NpyReadOptions options;
    if (parameter.IsArray()) options.raw_type = parameter.element_type();
    return ReadNpyFile(path, options);
  }
  absl::StatusOr<std::string> text = ReadInput(path);
  if (!text.ok()) return text.status();
  absl::StatusOr<Literal> literal = ParseLiteral(*text);
  if (!literal.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": ", literal.status().message()));
  }
  return literal;
}

absl::StatusOr<Literal> RandomLiteral(const Shape& shape,
                                      std::mt19937_64& generator) {
  absl::StatusOr<Literal> literal = Literal::Create(StaticShape(shape));
  if (!literal.ok()) return literal.status();
  if (absl::Status s = FillRandomDeep(*literal, generator); !s.ok()) return s;
  return literal;
}

absl::StatusOr<std::vector<std::vector<Literal>>> BuildArguments(
    const ArgumentSources& sources, absl::Span<const Shape> parameters) {
  const int sources_given = sources.args.has_value() +
                            sources.args_file.has_value() +
                            sources.random_seed.has_value();
  if (sources_given > 1) {
    return absl::InvalidArgumentError(
        "give at most one of --args, --args_file and --random_args");
  }
  if (sources.device_count < 1) {
    return absl::InvalidArgumentError("the device count must be at least 1");
  }
  if (sources.random_seed.has_value()) {
    return RandomArguments(*sources.random_seed, parameters,
                           sources.device_count);
  }
  if (sources_given == 0) {
    if (!parameters.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the entry computation takes ", parameters.size(), " parameter",
          parameters.size() == 1 ? "" : "s",
          "; give them with --args, --args_file or --random_args"));
    }
    return std::vector<std::vector<Literal>>(sources.device_count);
  }
  absl::StatusOr<std::vector<std::string>> items = CollectItems(sources);
  if (!items.ok()) return items.status();
  return ItemArguments(*items, parameters, sources.device_count);
}

}  // namespace kiln::cli
