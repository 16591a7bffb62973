// Internal to backends/pjrt: the probe modules behind PjrtBackend::Supports.
// A plugin says what it supports only by compiling, so Supports(op, type)
// compiles a minimal module using `op` on `type` once per plugin (the answer
// is cached in the Plugin).
#ifndef KILN_BACKENDS_PJRT_PROBES_H_
#define KILN_BACKENDS_PJRT_PROBES_H_

#include <optional>
#include <string>

#include "compiler/ir/element_type.h"
#include "compiler/ir/opcode.h"

namespace kiln::pjrt::internal {

// A minimal HLO module applying `opcode` to values of `type`, or nullopt
// when there is no template for the op (then only the type is probed).
// The module may fail to verify (the op is not defined on the type).
std::optional<std::string> OpProbe(Opcode opcode, ElementType type);

// StableHLO text converting f32 to `type` and back: whether the plugin
// knows the element type at all. nullopt for non-array types.
std::optional<std::string> TypeProbe(ElementType type);

}  // namespace kiln::pjrt::internal

#endif  // KILN_BACKENDS_PJRT_PROBES_H_
