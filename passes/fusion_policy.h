// The backend hook of the fusion pass: a FusionPolicy says what may fuse and
// how big a fusion may grow, and a registry keeps policies by backend name.
//
//   // In a backend's library (alwayslink):
//   static const bool kRegistered = FusionPolicyRegistry::Global().Register(
//       "cpu", [] {
//         FusionLimits limits;
//         limits.max_instructions = 64;
//         return std::make_unique<DefaultFusionPolicy>("cpu", limits);
//       });
//   // In the backend's pipeline:
//   pipeline->AddPass(*MakeFusionPassForBackend("cpu"));
//
// The registered pass `fusion` uses the policy registered as "default"
// (a DefaultFusionPolicy with default limits).
#ifndef KILN_PASSES_FUSION_POLICY_H_
#define KILN_PASSES_FUSION_POLICY_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "compiler/ir/instruction.h"

namespace kiln {

// Size limits of one fusion; the cost model of docs/passes.md.
struct FusionLimits {
  // Instructions of a fused computation, parameters and the multi-output
  // tuple not counted.
  int64_t max_instructions = 128;
  // Operands of the fusion instruction plus its outputs (roots).
  int64_t max_operands = 96;
  // A producer whose result has more elements than this is "big": it is
  // never duplicated into several fusions.
  int64_t max_cheap_elements = int64_t{1} << 20;
  // A constant with more elements than this is never fused (it stays a
  // constant in its computation and feeds fusions as an operand).
  int64_t max_fused_constant_elements = 16;
};

// What may fuse. Every hook is consulted only for instructions of
// computations the pass processes; the pass itself refuses side effects,
// control dependencies of non-roots, dynamic shapes and anything that calls
// a computation other than a reduce's reducer, whatever the policy says.
class FusionPolicy {
 public:
  virtual ~FusionPolicy() = default;
  // The backend name ("default", "cpu", ...), for messages.
  virtual absl::string_view name() const = 0;
  virtual FusionLimits limits() const = 0;
  // May `instruction` be part of a loop fusion (kLoop), as a root or as a
  // producer fused into a consumer (also inside input and output fusions)?
  virtual bool IsLoopFusible(const Instruction& instruction) const = 0;
  // May this reduce be the root of an input fusion (kInput) that absorbs its
  // loop-fusible producers?
  virtual bool AllowInputFusion(const Instruction& reduce) const = 0;
  // May this dot or convolution be fused into the loop fusion of its
  // elementwise consumers, making it an output fusion (kOutput)?
  virtual bool AllowOutputFusion(const Instruction& dot) const = 0;
  // May fusions (and single fusible ops) that read the same operand merge
  // into one multi-output fusion?
  virtual bool AllowSiblingFusion() const = 0;
  // The cost model: is `producer` too expensive to compute more than once
  // (duplicated into several fusions, or fused below a consumer that reads
  // each of its elements several times)?
  virtual bool IsExpensive(const Instruction& producer) const = 0;
};

// The default policy: the loop-fusible ops of the fusion issue
// (elementwise, broadcast, reshape, transpose, slice, pad, concatenate,
// iota, convert, dynamic-slice, plus reverse, copy and small constants),
// input fusion of reduce, output fusion of dot and convolution, sibling
// fusion, and the cost model of fusion_cost_model.h with `limits`.
class DefaultFusionPolicy : public FusionPolicy {
 public:
  explicit DefaultFusionPolicy(std::string name = "default",
                               FusionLimits limits = {})
      : name_(std::move(name)), limits_(limits) {}

  absl::string_view name() const override { return name_; }
  FusionLimits limits() const override { return limits_; }
  bool IsLoopFusible(const Instruction& instruction) const override;
  bool AllowInputFusion(const Instruction& reduce) const override;
  bool AllowOutputFusion(const Instruction& dot) const override;
  bool AllowSiblingFusion() const override { return sibling_fusion_; }
  bool IsExpensive(const Instruction& producer) const override;

  void set_sibling_fusion(bool enabled) { sibling_fusion_ = enabled; }
  void set_input_fusion(bool enabled) { input_fusion_ = enabled; }
  void set_output_fusion(bool enabled) { output_fusion_ = enabled; }

 private:
  std::string name_;
  FusionLimits limits_;
  bool sibling_fusion_ = true;
  bool input_fusion_ = true;
  bool output_fusion_ = true;
};

using FusionPolicyFactory = std::function<std::unique_ptr<FusionPolicy>()>;

// Fusion policies by backend name. Registration happens at static
// initialization, lookups afterwards (as PassRegistry).
class FusionPolicyRegistry {
 public:
  static FusionPolicyRegistry& Global();
  // False (and no change) if `backend` is already registered.
  bool Register(std::string backend, FusionPolicyFactory factory);
  // Null when `backend` is unknown.
  std::unique_ptr<FusionPolicy> Create(absl::string_view backend) const;
  // Every registered backend name, sorted.
  std::vector<std::string> Names() const;

 private:
  std::vector<std::pair<std::string, FusionPolicyFactory>> factories_;
};

}  // namespace kiln

#endif  // KILN_PASSES_FUSION_POLICY_H_
