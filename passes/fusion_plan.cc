#include "passes/fusion_plan.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "passes/dce.h"
#include "passes/fusion_cost_model.h"

namespace kiln {
namespace {

struct Cluster {
  FusionKind kind = FusionKind::kLoop;
  std::vector<Instruction*> roots;
  std::vector<Instruction*> members;
  // Member -> whether some consumer inside reads its elements several
  // times (so an expensive producer below it would be recomputed).
  absl::flat_hash_map<const Instruction*, bool> reused;
  // Instructions outside the cluster that members read.
  absl::flat_hash_set<const Instruction*> inputs;
  // The reduce of an input fusion, the dot/convolution of an output fusion.
  const Instruction* heavy = nullptr;
  int32_t merged_into = -1;
  size_t position = 0;  // Largest post-order index of a root.
  // Place in a topological order of the graph after fusion (see
  // MergeOrderKey): 2 * post-order index of the root until merged.
  double key = 0;

  bool Contains(const Instruction* instruction) const {
    return reused.contains(instruction);
  }
};

// Where a producer's value is consumed: a cluster holding a user.
struct Site {
  int32_t cluster;
  bool reused;       // A user there reads it several times (or is reused).
  bool feeds_heavy;  // A user there is the cluster's dot/reduce.
};

struct Node {
  std::vector<int32_t> placements;  // Clusters holding a copy or the move.
  int32_t own = -1;                 // The cluster this instruction roots.
  bool kept = true;                 // Stays in the computation.
  // Copied into more than one fusion, or into one while also staying.
  bool copied = false;
};

bool IsStatic(const Instruction& instruction) {
  if (!instruction.shape().is_static()) return false;
  for (const Instruction* operand : instruction.operands()) {
    if (!operand->shape().is_static()) return false;
  }
  return true;
}

bool HasControlDeps(const Instruction& instruction) {
  return !instruction.control_predecessors().empty() ||
         !instruction.control_successors().empty();
}

bool ReducerIsPure(const Instruction& reduce) {
  for (const Computation* callee : reduce.called_computations()) {
    for (const Instruction* instruction : callee->instructions()) {
      if (HasOwnSideEffect(*instruction) ||
          !instruction->called_computations().empty()) {
        return false;
      }
    }
  }
  return true;
}

class Planner {
 public:
  Planner(const Computation& computation, const FusionPolicy& policy)
      : computation_(computation), policy_(policy), limits_(policy.limits()) {}

  absl::StatusOr<FusionPlan> Run() {
    absl::StatusOr<std::vector<Instruction*>> order = computation_.PostOrder();
    if (!order.ok()) return order.status();
    order_ = *std::move(order);
    index_.reserve(order_.size());
    for (size_t i = 0; i < order_.size(); ++i) index_[order_[i]] = i;
    nodes_.resize(order_.size());
    for (size_t i = order_.size(); i-- > 0;) Visit(i);
    if (policy_.AllowSiblingFusion()) MergeSiblings();
    return Finish();
  }

 private:
  // --- Eligibility (the pass's own rules, then the policy) ---

  bool Pure(const Instruction& instruction) const {
    return !HasOwnSideEffect(instruction) && IsStatic(instruction);
  }
  bool CanBeLoopRoot(const Instruction& p) const {
    return Pure(p) && p.called_computations().empty() &&
           policy_.IsLoopFusible(p);
  }
  bool CanBeMember(const Instruction& p) const {
    return CanBeLoopRoot(p) && !HasControlDeps(p);
  }
  bool CanBeInputRoot(const Instruction& p) const {
    return p.opcode() == Opcode::kReduce && Pure(p) &&
           policy_.AllowInputFusion(p) && ReducerIsPure(p);
  }
  bool CanJoinAsOutputHeavy(const Instruction& p) const {
    return (p.opcode() == Opcode::kDot || p.opcode() == Opcode::kConvolution) &&
           Pure(p) && !HasControlDeps(p) && policy_.AllowOutputFusion(p);
  }

  // The live cluster `cluster` was merged into (union-find with path
  // halving, so chains of merges stay short).
  int32_t Find(int32_t cluster) {
    while (clusters_[cluster].merged_into >= 0) {
      const int32_t parent = clusters_[cluster].merged_into;
      const int32_t grandparent = clusters_[parent].merged_into;
      if (grandparent >= 0) clusters_[cluster].merged_into = grandparent;
      cluster = parent;
    }
    return cluster;
  }

  // --- Producer-consumer fusion ---

  // The clusters reading `p`, whether anything outside a cluster does, and
  // whether some user of `p` was copied.
  std::vector<Site> SitesOf(const Instruction& p, bool* external,
                            bool* read_by_copies) {
    std::vector<Site> sites;
    ++stamp_;
    *external = &p == computation_.root();
    *read_by_copies = false;
    auto add = [&](int32_t cluster, const Instruction* user, bool reuse) {
      Cluster& c = clusters_[cluster];
      const bool reused = reuse || c.reused.at(user);
      const bool heavy = c.heavy == user;
      if (site_stamp_[cluster] == stamp_) {
        Site& site = sites[site_slot_[cluster]];
        site.reused |= reused;
        site.feeds_heavy |= heavy;
        return;
      }
      site_stamp_[cluster] = stamp_;
      site_slot_[cluster] = sites.size();
      sites.push_back({cluster, reused, heavy});
    };
    for (const Instruction* user : p.users()) {
      auto it = index_.find(user);
      if (it == index_.end()) {
        *external = true;
        continue;
      }
      bool reuse = false;
      for (int64_t i = 0; i < user->operand_count(); ++i) {
        if (user->operand(i) == &p) reuse |= ReusesOperandElements(*user, i);
      }
      const Node& node = nodes_[it->second];
      *read_by_copies |= node.copied;
      for (int32_t cluster : node.placements) add(cluster, user, reuse);
      if (node.own >= 0) add(node.own, user, reuse);
      if (node.kept && node.own < 0) *external = true;
    }
    return sites;
  }

  // Inputs of `c` after `p` (one of its inputs) joins it.
  int64_t InputsAfterJoin(const Cluster& c, const Instruction& p) const {
    int64_t inputs = static_cast<int64_t>(c.inputs.size()) - 1;
    const std::vector<Instruction*>& operands = p.operands();
    for (auto it = operands.begin(); it != operands.end(); ++it) {
      // Operand lists are short: a scan finds repeats without allocating.
      if (!c.inputs.contains(*it) &&
          std::find(operands.begin(), it, *it) == it) {
        ++inputs;
      }
    }
    return inputs;
  }

  bool WithinLimits(const Cluster& c, const Instruction& p) const {
    return static_cast<int64_t>(c.members.size()) + 1 <=
               limits_.max_instructions &&
           InputsAfterJoin(c, p) + static_cast<int64_t>(c.roots.size()) <=
               limits_.max_operands;
  }

  bool CanJoin(const Instruction& p, const Site& site) const {
    const Cluster& c = clusters_[site.cluster];
    if (c.kind == FusionKind::kOutput && site.feeds_heavy) return false;
    if (site.reused && policy_.IsExpensive(p)) return false;
    return WithinLimits(c, p);
  }

  void Join(Instruction* p, const Site& site) {
    Cluster& c = clusters_[site.cluster];
    c.members.push_back(p);
    c.reused[p] = site.reused;
    c.inputs.erase(p);
    for (const Instruction* operand : p->operands()) c.inputs.insert(operand);
    nodes_[index_.at(p)].placements.push_back(site.cluster);
  }

  void NewCluster(Instruction* root, FusionKind kind) {
    Cluster c;
    c.kind = kind;
    c.roots.push_back(root);
    c.members.push_back(root);
    c.reused[root] = false;
    for (const Instruction* operand : root->operands())
      c.inputs.insert(operand);
    if (kind == FusionKind::kInput) c.heavy = root;
    c.position = index_.at(root);
    c.key = 2.0 * static_cast<double>(c.position);
    nodes_[index_.at(root)].own = static_cast<int32_t>(clusters_.size());
    clusters_.push_back(std::move(c));
    site_stamp_.push_back(0);
    site_slot_.push_back(0);
  }

  // Fuses producer `p` (all of its users already decided) where it may go.
  // Returns whether it left the computation.
  bool FuseProducer(Instruction* p) {
    bool external = false;
    bool read_by_copies = false;
    const std::vector<Site> sites = SitesOf(*p, &external, &read_by_copies);
    if (sites.empty()) return false;
    if (CanBeMember(*p)) {
      if (!external && sites.size() == 1) {
        if (!CanJoin(*p, sites[0])) return false;
        Join(p, sites[0]);
        return true;
      }
      if (policy_.IsExpensive(*p)) return false;  // Never duplicated.
      // Copies are not copied again (leaves excepted: they cannot start a
      // chain). Otherwise a chain of cheap ops with fan-out would be
      // recomputed in every fusion downstream up to the size limit, making
      // the output (and the pass's time) up to max_instructions times the
      // input.
      if (read_by_copies && p->operand_count() > 0) return false;
      bool everywhere = !external;
      int64_t joined = 0;
      for (const Site& site : sites) {
        if (CanJoin(*p, site)) {
          Join(p, site);
          ++joined;
        } else {
          everywhere = false;
        }
      }
      nodes_[index_.at(p)].copied = joined > 1 || (joined == 1 && !everywhere);
      return everywhere;
    }
    if (CanJoinAsOutputHeavy(*p) && !external && sites.size() == 1) {
      Cluster& c = clusters_[sites[0].cluster];
      // A dot below a broadcast would be recomputed per broadcast element.
      if (c.kind != FusionKind::kLoop || sites[0].reused ||
          !WithinLimits(c, *p)) {
        return false;
      }
      Join(p, sites[0]);
      c.kind = FusionKind::kOutput;
      c.heavy = p;
      return true;
    }
    return false;
  }

  void Visit(size_t i) {
    Instruction* p = order_[i];
    if (FuseProducer(p)) {
      nodes_[i].kept = false;
      return;
    }
    if (CanBeLoopRoot(*p)) {
      NewCluster(p, FusionKind::kLoop);
    } else if (CanBeInputRoot(*p)) {
      NewCluster(p, FusionKind::kInput);
    }
  }

  // --- Sibling (multi-output) fusion ---

  bool Mergeable(const Cluster& c) const {
    if (c.kind != FusionKind::kLoop && c.kind != FusionKind::kInput) {
      return false;
    }
    for (const Instruction* root : c.roots) {
      if (!root->shape().IsArray()) return false;
    }
    return true;
  }

  // The index space a fusion iterates over: a loop root's dimensions, or
  // a reduce's input dimensions.
  std::vector<int64_t> IterationDims(const Cluster& c) const {
    if (c.kind == FusionKind::kInput) {
      return c.heavy->operand(0)->shape().dimensions();
    }
    return c.roots[0]->shape().dimensions();
  }

  // Sibling merging keeps a topological order of the graph after fusion:
  // every node (an instruction left alone, or a fusion) has a key, and
  // every edge goes from a smaller key to a larger one. Instructions have
  // 2 * their post-order index, a single-root fusion its root's. A merged
  // fusion gets a key strictly between the largest key it reads from and
  // the smallest key reading it; when there is no room, some path leaves
  // the merged fusion and comes back (or the order cannot tell), so the
  // merge is refused. This makes cycles impossible without any search.

  // The key of the node that produces `x`'s value after fusion.
  double ProducerKey(const Instruction* x) {
    auto it = index_.find(x);
    if (it == index_.end()) return -1;
    const Node& node = nodes_[it->second];
    if (node.own >= 0) return clusters_[Find(node.own)].key;
    return 2.0 * static_cast<double>(it->second);
  }

  // Lowers `*smallest` to the keys of the nodes that consume `x`'s
  // value after fusion (x itself if it stays, its own fusion, every fusion
  // holding a copy of it), except the clusters `a` and `b` being merged.
  void ConsumerKeys(const Instruction* x, const Cluster& a, const Cluster& b,
                    double* smallest) {
    const Node& node = nodes_[index_.at(x)];
    auto consider = [&](int32_t cluster) {
      const Cluster& c = clusters_[Find(cluster)];
      if (&c != &a && &c != &b) *smallest = std::min(*smallest, c.key);
    };
    if (node.own >= 0) {
      consider(node.own);
    } else if (node.kept) {
      *smallest = std::min(*smallest, 2.0 * static_cast<double>(index_.at(x)));
    }
    for (int32_t cluster : node.placements) consider(cluster);
  }

  // The key `a` and `b` merged would get, or nullopt when none fits.
  std::optional<double> MergeOrderKey(const Cluster& a, const Cluster& b) {
    double largest_in = -1;
    auto reads = [&](const Instruction* x) {
      if (!a.Contains(x) && !b.Contains(x)) {
        largest_in = std::max(largest_in, ProducerKey(x));
      }
    };
    double smallest_out = std::numeric_limits<double>::infinity();
    auto feeds = [&](const Instruction* user) {
      ConsumerKeys(user, a, b, &smallest_out);
    };
    for (const Cluster* c : {&a, &b}) {
      for (const Instruction* x : c->inputs) reads(x);
      for (const Instruction* root : c->roots) {
        for (const Instruction* p : root->control_predecessors()) reads(p);
        for (const Instruction* user : root->users()) feeds(user);
        for (const Instruction* s : root->control_successors()) feeds(s);
      }
    }
    if (!(largest_in < smallest_out)) return std::nullopt;
    if (std::isinf(smallest_out)) return largest_in + 1;
    const double middle = (largest_in + smallest_out) / 2;
    if (!(largest_in < middle && middle < smallest_out)) return std::nullopt;
    return middle;
  }

  enum class MergeResult { kMerged, kTooBig, kDependent };

  MergeResult TryMerge(int32_t into, int32_t from) {
    Cluster& a = clusters_[into];
    Cluster& b = clusters_[from];
    int64_t members = a.members.size();
    for (const Instruction* m : b.members) members += !a.Contains(m);
    int64_t inputs = 0;
    for (const Instruction* x : a.inputs) inputs += !b.Contains(x);
    for (const Instruction* x : b.inputs) {
      inputs += !a.inputs.contains(x) && !a.Contains(x);
    }
    const int64_t outputs = a.roots.size() + b.roots.size();
    if (members > limits_.max_instructions ||
        inputs + outputs > limits_.max_operands) {
      return MergeResult::kTooBig;
    }
    const std::optional<double> key = MergeOrderKey(a, b);
    if (!key.has_value()) return MergeResult::kDependent;
    for (Instruction* m : b.members) {
      auto [it, inserted] = a.reused.emplace(m, false);
      if (inserted) a.members.push_back(m);
    }
    for (Instruction* root : b.roots) a.roots.push_back(root);
    for (const Instruction* x : b.inputs) {
      if (!a.Contains(x)) a.inputs.insert(x);
    }
    for (const Instruction* m : b.members) a.inputs.erase(m);
    if (b.kind == FusionKind::kInput) a.kind = FusionKind::kInput;
    if (a.heavy == nullptr) a.heavy = b.heavy;
    a.position = std::max(a.position, b.position);
    a.key = *key;
    b.merged_into = into;
    return MergeResult::kMerged;
  }

  // How many cluster references (placements and own clusters, before
  // merging) the users of `x` hold, counting no further than 2.
  int ReaderClusterCountUpTo2(const Instruction* x) const {
    int count = 0;
    for (const Instruction* user : x->users()) {
      const Node& node = nodes_[index_.at(user)];
      count += static_cast<int>(node.placements.size()) + (node.own >= 0);
      if (count >= 2) return 2;
    }
    return count;
  }

  // Merges the fusions reading `x` that iterate over the same shape.
  void MergeReadersOf(const Instruction* x) {
    // Most instructions are read by at most one fusion: nothing to merge,
    // so skip building the maps below (allocations for every instruction).
    if (ReaderClusterCountUpTo2(x) < 2) return;
    std::map<std::vector<int64_t>, int32_t> base_by_dims;
    absl::flat_hash_set<int32_t> seen;
    auto consider = [&](int32_t cluster) {
      const int32_t c = Find(cluster);
      if (!seen.insert(c).second) return;
      const Cluster& candidate = clusters_[c];
      if (!Mergeable(candidate) || !candidate.inputs.contains(x)) return;
      auto [it, inserted] = base_by_dims.emplace(IterationDims(candidate), c);
      if (inserted) return;
      const int32_t base = Find(it->second);
      if (base == c) return;
      if (TryMerge(base, c) == MergeResult::kTooBig) it->second = c;
    };
    for (const Instruction* user : x->users()) {
      const Node& node = nodes_[index_.at(user)];
      for (int32_t cluster : node.placements) consider(cluster);
      if (node.own >= 0) consider(node.own);
    }
  }

  void MergeSiblings() {
    for (size_t i = 0; i < order_.size(); ++i) {
      const Instruction* x = order_[i];
      if (!nodes_[i].kept || ArrayElementCount(x->shape()) <= 1) continue;
      MergeReadersOf(x);
    }
  }

  // --- Result ---

  // Sets each fusion's `moved`: a producer that leaves the computation
  // moves into the last fusion holding it. The last, because the fusions
  // are built in order and a copy is cloned from the original's operands,
  // which moving rewires. Roots (own cluster) stay until their users are
  // rewired, so they are cloned.
  void MarkMoves(const std::vector<std::vector<size_t>>& member_indices,
                 FusionPlan* plan) const {
    std::vector<bool> claimed(order_.size(), false);
    for (size_t f = plan->fusions.size(); f-- > 0;) {
      const std::vector<size_t>& indices = member_indices[f];
      std::vector<bool>& moved = plan->fusions[f].moved;
      moved.assign(indices.size(), false);
      for (size_t m = 0; m < indices.size(); ++m) {
        const size_t i = indices[m];
        if (nodes_[i].kept || claimed[i]) continue;
        claimed[i] = true;
        moved[m] = true;
      }
    }
  }

  FusionPlan Finish() {
    FusionPlan plan;
    std::vector<int32_t> live;
    for (size_t c = 0; c < clusters_.size(); ++c) {
      if (clusters_[c].merged_into < 0 && clusters_[c].members.size() >= 2) {
        live.push_back(static_cast<int32_t>(c));
      }
    }
    std::sort(live.begin(), live.end(), [this](int32_t a, int32_t b) {
      return clusters_[a].position < clusters_[b].position;
    });
    // Sorts by post-order index, looking each index up once; returns the
    // sorted indices.
    auto sort_by_index = [this](std::vector<Instruction*>& instructions) {
      std::vector<std::pair<size_t, Instruction*>> keyed;
      keyed.reserve(instructions.size());
      for (Instruction* x : instructions) keyed.emplace_back(index_.at(x), x);
      std::sort(keyed.begin(), keyed.end());
      std::vector<size_t> indices(keyed.size());
      for (size_t i = 0; i < keyed.size(); ++i) {
        instructions[i] = keyed[i].second;
        indices[i] = keyed[i].first;
      }
      return indices;
    };
    // Per fusion, the post-order index of each member.
    std::vector<std::vector<size_t>> member_indices;
    member_indices.reserve(live.size());
    for (int32_t c : live) {
      Cluster& cluster = clusters_[c];
      PlannedFusion fusion;
      fusion.kind = cluster.kind;
      fusion.roots = std::move(cluster.roots);
      fusion.members = std::move(cluster.members);
      sort_by_index(fusion.roots);
      member_indices.push_back(sort_by_index(fusion.members));
      absl::flat_hash_set<const Instruction*> members(fusion.members.begin(),
                                                      fusion.members.end());
      for (const Instruction* member : fusion.members) {
        for (Instruction* operand : member->operands()) {
          if (!members.contains(operand)) {
            fusion.inputs.push_back(operand);
            members.insert(operand);  // Once.
          }
        }
      }
      sort_by_index(fusion.inputs);
      plan.fusions.push_back(std::move(fusion));
    }
    MarkMoves(member_indices, &plan);
    absl::flat_hash_set<const Instruction*> roots;
    for (const PlannedFusion& fusion : plan.fusions) {
      roots.insert(fusion.roots.begin(), fusion.roots.end());
    }
    for (size_t i = order_.size(); i-- > 0;) {
      if (!nodes_[i].kept || roots.contains(order_[i])) {
        plan.removed.push_back(order_[i]);
      }
    }
    return plan;
  }

  const Computation& computation_;
  const FusionPolicy& policy_;
  const FusionLimits limits_;
  std::vector<Instruction*> order_;
  absl::flat_hash_map<const Instruction*, size_t> index_;
  std::vector<Node> nodes_;
  std::vector<Cluster> clusters_;
  // Per cluster: the SitesOf call that last saw it, and its slot there.
  std::vector<uint64_t> site_stamp_;
  std::vector<size_t> site_slot_;
  uint64_t stamp_ = 0;
};

}  // namespace

absl::StatusOr<FusionPlan> PlanFusion(const Computation& computation,
                                      const FusionPolicy& policy) {
  return Planner(computation, policy).Run();
}

}  // namespace kiln
