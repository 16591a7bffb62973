// An HLO module: computations (entry last in printing order unless
// scheduled), the entry computation, and the module config from the header
// line of XLA's text.
#ifndef KILN_COMPILER_IR_MODULE_H_
#define KILN_COMPILER_IR_MODULE_H_

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/computation.h"

namespace kiln {

// entry_computation_layout={(f32[2]{0}, s32[])->f32[2]{0}}
struct ComputationLayout {
  std::vector<Shape> parameters;
  Shape result;
  bool operator==(const ComputationLayout& o) const {
    return parameters == o.parameters && result == o.result;
  }
};

// input_output_alias={ {0}: (0, {}, may-alias), {1}: (1, {0}, must-alias) }
struct InputOutputAlias {
  std::vector<int64_t> output_index;
  int64_t parameter_number = 0;
  std::vector<int64_t> parameter_index;
  bool must_alias = false;
  bool operator==(const InputOutputAlias& o) const {
    return output_index == o.output_index &&
           parameter_number == o.parameter_number &&
           parameter_index == o.parameter_index && must_alias == o.must_alias;
  }
};

// buffer_donor={ (0, {}), (1, {0}) }
struct BufferDonor {
  int64_t parameter_number = 0;
  std::vector<int64_t> parameter_index;
  bool operator==(const BufferDonor& o) const {
    return parameter_number == o.parameter_number &&
           parameter_index == o.parameter_index;
  }
};

struct ModuleConfig {
  int64_t replica_count = 1;
  int64_t num_partitions = 1;
  std::optional<ComputationLayout> entry_computation_layout;
  std::vector<InputOutputAlias> input_output_alias;
  std::vector<BufferDonor> buffer_donor;
  bool is_scheduled = false;
  std::vector<std::pair<std::string, std::string>> frontend_attributes;
  // Other header attributes XLA writes (allow_spmd_sharding_propagation_*,
  // spmd_output_sharding, ...), kept verbatim in the written order.
  std::vector<std::pair<std::string, RawText>> extra_attributes;
  bool operator==(const ModuleConfig& o) const;
};

class Module {
 public:
  explicit Module(std::string name);
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }

  ModuleConfig& config() { return config_; }
  const ModuleConfig& config() const { return config_; }

  // Where the module's text begins (its HloModule line, or its first
  // computation without one); unknown (line 0) for modules built in
  // memory. Errors about the module as a whole point here.
  const SourceLocation& location() const { return location_; }
  void set_location(SourceLocation location) {
    location_ = std::move(location);
  }

  // Takes ownership; makes the computation name and its instruction names
  // unique within the module.
  Computation* AddComputation(std::unique_ptr<Computation> computation);
  Computation* AddEntryComputation(std::unique_ptr<Computation> computation);
  Computation* entry() const { return entry_; }
  void set_entry(Computation* entry) { entry_ = entry; }

  // In stable order: the order they were added (the text order).
  std::vector<Computation*> computations() const;
  // O(1) expected; falls back to a scan for renamed computations.
  Computation* FindComputation(absl::string_view name) const;

  // Callees before callers, entry last; error on recursion.
  absl::StatusOr<std::vector<Computation*>> PostOrderComputations() const;

  // Deep-clones `computation` and every computation it calls (transitively),
  // remapping calls to the clones; names get `suffix` (e.g. ".clone").
  absl::StatusOr<Computation*> CloneComputation(const Computation* computation,
                                                const std::string& suffix);
  // Removes computations not reachable from the entry. Returns how many.
  int64_t RemoveDeadComputations();
  absl::Status RemoveComputation(Computation* computation);

  // Deep copy of the whole module.
  std::unique_ptr<Module> Clone() const;

  // Instruction names: a fresh name "base" or "base.N" unused by any
  // instruction of this module (and reserves it). Like XLA, instruction and
  // computation names are separate name spaces: text such as
  // "add { ... ROOT add = ... }" keeps both names. Names of removed
  // instructions stay reserved unless released.
  std::string UniqueName(const std::string& base);
  // Computation names: a fresh "base" or "base.N" unused by any computation
  // of this module (and reserves it).
  std::string UniqueComputationName(const std::string& base);
  void ReserveName(const std::string& name) { names_.insert(name); }
  void ReleaseName(const std::string& name) { names_.erase(name); }
  bool IsNameUsed(const std::string& name) const {
    return names_.contains(name);
  }

  // Whether a fusion instruction of this module calls `computation`
  // (Computation::is_fusion_computation). The set of fusion callees is
  // built by one scan of the module and kept until InvalidateFusionCallees,
  // which the IR calls when computations or fusion instructions are added
  // or removed, or a fusion's attributes may change.
  bool IsFusionCallee(const Computation* computation) const;
  void InvalidateFusionCallees() const { fusion_callees_valid_ = false; }

 private:
  void RebuildComputationIndex();

  std::string name_;
  ModuleConfig config_;
  SourceLocation location_;
  std::vector<std::unique_ptr<Computation>> computations_;
  Computation* entry_ = nullptr;
  absl::flat_hash_set<std::string> names_;
  absl::flat_hash_set<std::string> computation_names_;
  // Lookup cache for FindComputation, keyed by the name at insertion; every
  // hit is re-checked against the current name (Computation::set_name may
  // have changed it) and removals rebuild it.
  absl::flat_hash_map<std::string, Computation*> computation_by_name_;
  // Per-root ".N" counters so uniquing is O(1) amortized.
  absl::flat_hash_map<std::string, int64_t> next_suffix_;
  absl::flat_hash_map<std::string, int64_t> next_computation_suffix_;
  mutable bool fusion_callees_valid_ = false;
  mutable absl::flat_hash_set<const Computation*> fusion_callees_;
};

}  // namespace kiln

#endif  // KILN_COMPILER_IR_MODULE_H_
