// Backend layout constraints for layout-assignment: what layout a backend
// needs for an instruction's operands and result ("dot operands row-major",
// "convolution NHWC"), and a registry of constraint sets by backend name.
//
//   std::shared_ptr<const LayoutConstraints> cpu =
//       LayoutConstraintsRegistry::Global().Create("cpu");
//   pipeline->AddPass(MakeLayoutAssignmentPass(cpu));
//
// A constraint is hard: layout-assignment inserts a `copy` wherever a value
// reaches a constrained operand in another layout, and it propagates the
// requirement backwards so that producers are laid out to fit when they can.
#ifndef KILN_PASSES_LAYOUT_CONSTRAINTS_H_
#define KILN_PASSES_LAYOUT_CONSTRAINTS_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/layout.h"

namespace kiln {

// The layouts one instruction needs. nullopt (or a missing trailing entry)
// leaves the choice to layout-assignment. Only array operands and array
// results can be constrained; each layout must be a plain minor_to_major
// permutation of that array's rank, or layout-assignment reports an error.
struct LayoutRequirement {
  std::vector<std::optional<Layout>> operands;
  std::optional<Layout> result;
  bool empty() const;
};

class LayoutConstraints {
 public:
  virtual ~LayoutConstraints() = default;
  // The backend's name, used in error messages ("cpu").
  virtual absl::string_view name() const = 0;
  // What `instruction` (with its operands' dimensions as they are) needs.
  // Called once per instruction per run; must not look at layouts, which
  // are being reassigned.
  virtual LayoutRequirement Requirement(
      const Instruction& instruction) const = 0;
};

using LayoutConstraintsFactory =
    std::function<std::unique_ptr<LayoutConstraints>()>;

// Constraint sets by backend name. Registration at static initialization
// (KILN_REGISTER_LAYOUT_CONSTRAINTS), lookups afterwards.
class LayoutConstraintsRegistry {
 public:
  static LayoutConstraintsRegistry& Global();
  // False (and no change) if `name` is already registered.
  bool Register(std::string name, LayoutConstraintsFactory factory);
  // Null when `name` is unknown.
  std::unique_ptr<LayoutConstraints> Create(absl::string_view name) const;
  // Every registered name, sorted.
  std::vector<std::string> Names() const;

 private:
  std::vector<std::pair<std::string, LayoutConstraintsFactory>> factories_;
};

#define KILN_REGISTER_LAYOUT_CONSTRAINTS(ident, name, factory)         \
  static const bool kiln_layout_constraints_##ident [[maybe_unused]] = \
      ::kiln::LayoutConstraintsRegistry::Global().Register(name, factory)

// The rules the example sets are made of.
struct StandardLayoutRules {
  // dot: both operands and the result row-major (the default layout).
  bool dot_row_major = true;
  // convolution: input and output NHWC (batch most major, feature most
  // minor), kernel HWIO (spatial most major, output feature most minor),
  // read through the instruction's dim_labels.
  bool convolution_nhwc = true;
};

// A constraint set built from StandardLayoutRules. "cpu" and "gpu" are
// registered with every rule on (the gpu set is to be tuned later).
class StandardLayoutConstraints : public LayoutConstraints {
 public:
  StandardLayoutConstraints(std::string name, StandardLayoutRules rules)
      : name_(std::move(name)), rules_(rules) {}
  absl::string_view name() const override { return name_; }
  LayoutRequirement Requirement(const Instruction& instruction) const override;

 private:
  std::string name_;
  StandardLayoutRules rules_;
};

// The NHWC / HWIO layouts of a convolution's input, kernel and output.
Layout ConvolutionInputNhwcLayout(const ConvolutionDimensionNumbers& dnums);
Layout ConvolutionKernelHwioLayout(const ConvolutionDimensionNumbers& dnums);
Layout ConvolutionOutputNhwcLayout(const ConvolutionDimensionNumbers& dnums);

}  // namespace kiln

#endif  // KILN_PASSES_LAYOUT_CONSTRAINTS_H_
