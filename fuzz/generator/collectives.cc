// Collectives over the module's replicas (explicit replica groups of equal
// size), replica-id and partition-id, and the random ops.
#include "compiler/builder/collectives.h"

#include "compiler/builder/data_movement.h"
#include "compiler/builder/random_io.h"
#include "compiler/ops/attr_enums.h"
#include "fuzz/generator/ops.h"

namespace kiln::fuzzgen {
namespace {

// The replicas split into groups of one size that divides their count.
std::vector<std::vector<int64_t>> Groups(Context& c) {
  const int64_t replicas = c.replicas();
  std::vector<int64_t> sizes;
  for (int64_t s = 1; s <= replicas; ++s) {
    if (replicas % s == 0) sizes.push_back(s);
  }
  const int64_t size = c.d().Chance(50) ? replicas : c.d().Pick(sizes);
  std::vector<int64_t> order = c.d().Permutation(replicas);
  std::vector<std::vector<int64_t>> groups(replicas / size);
  for (int64_t i = 0; i < replicas; ++i) groups[i / size].push_back(order[i]);
  return groups;
}

XlaOp GenAllReduce(Context& c) {
  XlaOp operand = c.Any(kAnyClass);
  return AllReduce(operand, c.Combiner(c.TypeOf(operand)), Groups(c));
}

XlaOp GenAllGather(Context& c) {
  XlaOp operand = c.Any(kAnyClass, 1);
  const auto groups = Groups(c);
  return AllGather(operand, c.d().Below(c.DimsOf(operand).size()),
                   groups[0].size(), groups);
}

XlaOp GenReduceScatter(Context& c) {
  const auto groups = Groups(c);
  const int64_t shards = groups[0].size();
  const ElementType type = c.Type(kAnyClass);
  std::vector<int64_t> dims = c.Dims(1, 3);
  const int64_t dimension = c.d().Below(dims.size());
  dims[dimension] = shards * c.Dim();
  return ReduceScatter(c.Value(type, dims), c.Combiner(type), dimension, shards,
                       groups);
}

XlaOp GenAllToAll(Context& c) {
  const auto groups = Groups(c);
  const int64_t shards = groups[0].size();
  std::vector<int64_t> dims = c.Dims(1, 3);
  const int64_t split = c.d().Below(dims.size());
  dims[split] = shards * c.Dim();
  XlaOp operand = c.Value(c.Type(kAnyClass), dims);
  return AllToAll(operand, split, c.d().Below(dims.size()), shards, groups);
}

XlaOp GenCollectivePermute(Context& c) {
  XlaOp operand = c.Any(kAnyClass);
  std::vector<int64_t> targets = c.d().Permutation(c.replicas());
  std::vector<std::pair<int64_t, int64_t>> pairs;
  for (int64_t source = 0; source < c.replicas(); ++source) {
    if (c.d().Chance(75)) pairs.push_back({source, targets[source]});
  }
  return CollectivePermute(operand, pairs);
}

XlaOp GenCollectiveBroadcast(Context& c) {
  return CollectiveBroadcast(c.Any(kAnyClass), Groups(c));
}

XlaOp GenReplicaId(Context& c) { return ReplicaId(c.b()); }
XlaOp GenPartitionId(Context& c) { return PartitionId(c.b()); }

XlaOp GenRng(Context& c) {
  const std::vector<int64_t> dims = c.Dims(0, 2);
  if (c.d().Chance(50)) {
    const ElementType type =
        c.d().Chance(50) ? ElementType::kF32 : ElementType::kF64;
    return RngNormal(c.ScalarConstant(type, 0), c.ScalarConstant(type, 1),
                     Shape::Array(type, dims));
  }
  const ElementType type = c.Type(kSignedClass | kFloatClass);
  const double lo = c.d().Range(-4, 0);
  return RngUniform(c.ScalarConstant(type, lo),
                    c.ScalarConstant(type, lo + c.d().Range(1, 8)),
                    Shape::Array(type, dims));
}

XlaOp GenRngBitGenerator(Context& c) {
  const bool philox = c.d().Chance(50);
  XlaOp state =
      c.Value(ElementType::kU64, {philox && c.d().Chance(50) ? 3 : 2});
  const ElementType type =
      c.d().Chance(50) ? ElementType::kU32 : ElementType::kU64;
  XlaOp result = RngBitGenerator(
      philox ? RandomAlgorithm::kPhilox : RandomAlgorithm::kThreeFry, state,
      Shape::Array(type, c.Dims(1, 2)));
  return GetTupleElement(result, c.d().Below(2));
}

XlaOp GenRngGetAndUpdateState(Context& c) {
  return RngGetAndUpdateState(c.b(), c.d().Range(1, 64));
}

}  // namespace

void AddCollectiveGenerators(std::vector<OpGenerator>* g) {
  g->insert(g->end(),
            {
                {"all-reduce", true, GenAllReduce},
                {"all-gather", true, GenAllGather},
                {"reduce-scatter", true, GenReduceScatter},
                {"all-to-all", true, GenAllToAll},
                {"collective-permute", true, GenCollectivePermute},
                {"collective-broadcast", true, GenCollectiveBroadcast},
                {"replica-id", true, GenReplicaId},
                {"partition-id", false, GenPartitionId},
                {"rng", false, GenRng},
                {"rng-bit-generator", false, GenRngBitGenerator},
                {"rng-get-and-update-state", false, GenRngGetAndUpdateState},
            });
}

}  // namespace kiln::fuzzgen
