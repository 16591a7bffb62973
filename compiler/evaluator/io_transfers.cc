#include "compiler/evaluator/io_transfers.h"

#include <cctype>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "compiler/evaluator/collective_hub.h"

namespace kiln {
namespace eval {
namespace {

constexpr char kPairsAttribute[] = "_xla_send_recv_source_target_pairs";

// "{{0,1},{1,2}}" (blanks allowed) as pairs, or an error.
absl::StatusOr<TransferPairs> ParsePairs(const Instruction& instruction,
                                         const std::string& text) {
  // The parser keeps the value's quotes; blanks are allowed anywhere.
  std::string compact;
  for (char c : text) {
    if (!std::isspace(static_cast<unsigned char>(c)) && c != '"') {
      compact.push_back(c);
    }
  }
  auto bad = [&]() {
    return KernelError(instruction,
                       absl::StrCat(kPairsAttribute, "=", text,
                                    " is not of the form {{s,t},...}"));
  };
  if (compact.size() < 2 || compact.front() != '{' || compact.back() != '}') {
    return bad();
  }
  TransferPairs pairs;
  size_t i = 1;
  const size_t end = compact.size() - 1;
  while (i < end) {
    if (compact[i] != '{') return bad();
    const size_t close = compact.find('}', i);
    if (close == std::string::npos || close >= end + 1) return bad();
    const std::string inner = compact.substr(i + 1, close - i - 1);
    const size_t comma = inner.find(',');
    int64_t source = 0, target = 0;
    if (comma == std::string::npos ||
        !absl::SimpleAtoi(inner.substr(0, comma), &source) ||
        !absl::SimpleAtoi(inner.substr(comma + 1), &target)) {
      return bad();
    }
    pairs.emplace_back(source, target);
    i = close + 1;
    if (i < end) {
      if (compact[i] != ',') return bad();
      ++i;
    }
  }
  return pairs;
}

// The ids the pairs use: partitions when there are several, else replicas.
struct TransferDomain {
  int64_t self = 0;
  int64_t count = 1;
  // Device number of id `id`.
  int64_t replica = 0, partition = 0, partitions = 1;
  bool by_partition = false;
  int64_t Number(int64_t id) const {
    return by_partition ? replica * partitions + id
                        : id * partitions + partition;
  }
};

TransferDomain DomainOf(const EvalContext& context) {
  const CollectiveHub& hub = *context.collectives();
  TransferDomain domain;
  domain.replica = context.device().replica;
  domain.partition = context.device().partition;
  domain.partitions = hub.num_partitions();
  domain.by_partition = hub.num_partitions() > 1;
  domain.self = domain.by_partition ? domain.partition : domain.replica;
  domain.count =
      domain.by_partition ? hub.num_partitions() : hub.replica_count();
  return domain;
}

absl::Status CheckIds(const Instruction& instruction,
                      const TransferDomain& domain, int64_t a, int64_t b) {
  for (int64_t id : {a, b}) {
    if (id < 0 || id >= domain.count) {
      return KernelError(
          instruction,
          absl::StrCat(kPairsAttribute, " names device ", id, ", outside [0, ",
                       domain.count, ") of the ",
                       domain.by_partition ? "partitions" : "replicas"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::optional<TransferPairs>> CrossDevicePairs(
    const Instruction& instruction, const EvalContext& context) {
  if (context.collectives() == nullptr) return std::nullopt;
  for (const auto& [key, value] : instruction.frontend_attributes) {
    if (key != kPairsAttribute) continue;
    absl::StatusOr<TransferPairs> pairs = ParsePairs(instruction, value);
    if (!pairs.ok()) return pairs.status();
    const TransferDomain domain = DomainOf(context);
    for (const auto& [source, target] : *pairs) {
      if (absl::Status s = CheckIds(instruction, domain, source, target);
          !s.ok()) {
        return s;
      }
    }
    return std::optional<TransferPairs>(*std::move(pairs));
  }
  return std::nullopt;
}

absl::Status SendToDevices(const Instruction& instruction, EvalContext& context,
                           const TransferPairs& pairs, int64_t channel,
                           const Literal& value) {
  const TransferDomain domain = DomainOf(context);
  for (const auto& [source, target] : pairs) {
    if (source != domain.self) continue;
    if (absl::Status s = context.collectives()->Post(
            channel, domain.Number(source), domain.Number(target), value);
        !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<Literal> ReceiveFromDevice(const Instruction& instruction,
                                          EvalContext& context,
                                          const TransferPairs& pairs,
                                          int64_t channel, const Shape& shape) {
  const TransferDomain domain = DomainOf(context);
  for (const auto& [source, target] : pairs) {
    if (target != domain.self) continue;
    absl::StatusOr<Literal> value = context.collectives()->Receive(
        instruction, channel, domain.Number(source), domain.Number(target));
    if (!value.ok()) return value.status();
    if (!value->shape().Compatible(shape)) {
      return KernelError(
          instruction,
          absl::StrCat("device ", source, " sent ",
                       value->shape().ToString(false), " on channel ", channel,
                       ", but the recv reads ", shape.ToString(false)));
    }
    return value;
  }
  // No pair targets this device: zeros, as collective-permute gives.
  return context.NewLiteral(instruction, shape);
}

}  // namespace eval
}  // namespace kiln
