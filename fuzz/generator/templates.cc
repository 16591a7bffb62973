// Ops the builder has no function for, or whose attributes are easiest to
// write as text: each is a small module written out for the chosen type and
// dimensions, parsed (with the parser's shape checks) and called from the
// generated computation. all-reduce-start/done, ragged-all-to-all,
// async-start/done, dynamic-reshape, fusion, domain, custom-call, infeed,
// send/recv and their dones.
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "compiler/builder/control_flow.h"
#include "compiler/text/parser.h"
#include "fuzz/generator/ops.h"

namespace kiln::fuzzgen {
namespace {

// "f32[2,3]".
std::string ShapeText(ElementType type, const std::vector<int64_t>& dims) {
  return absl::StrCat(ElementTypeName(type), "[", absl::StrJoin(dims, ","),
                      "]");
}

// Parses `text` ($S is the operands' shape text) and calls its entry on
// `operands`.
XlaOp Instantiate(Context& c, const std::string& text, const std::string& shape,
                  const std::vector<XlaOp>& operands) {
  const std::string module = absl::StrReplaceAll(text, {{"$S", shape}});
  absl::StatusOr<std::unique_ptr<Module>> parsed = ParseModule(module);
  if (!parsed.ok()) {
    return c.b()->ReportError(absl::InvalidArgumentError(
        absl::StrCat("template: ", parsed.status().message(), "\n", module)));
  }
  XlaComputation computation(*std::move(parsed));
  return Call(c.b(), computation, operands);
}

XlaOp GenAllReduceStart(Context& c) {
  XlaOp operand = c.Any(kIntClasses | kFloatClass | kComplexClass);
  const ElementType type = c.TypeOf(operand);
  const std::string t(ElementTypeName(type));
  return Instantiate(
      c,
      absl::StrCat("HloModule t\nred {\n  a = ", t, "[] parameter(0)\n  b = ",
                   t, "[] parameter(1)\n  ROOT c = ", t,
                   "[] add(a, b)\n}\nENTRY e {\n  p0 = $S parameter(0)\n"
                   "  s = $S all-reduce-start(p0), replica_groups={}, "
                   "to_apply=red\n  ROOT d = $S all-reduce-done(s)\n}\n"),
      ShapeText(type, c.DimsOf(operand)), {operand});
}

// Every device sends its first element to every device, which stores the
// one from device i at offset i.
XlaOp GenRaggedAllToAll(Context& c) {
  const int64_t r = c.replicas();
  const ElementType type = c.Type(kAnyClass);
  const int64_t n = c.Dim(true), m = r + c.Dim();
  XlaOp input = c.Value(type, {n});
  XlaOp output = c.Value(type, {m});
  std::vector<int64_t> devices(r);
  for (int64_t i = 0; i < r; ++i) devices[i] = i;
  const std::string ones =
      absl::StrCat("{", absl::StrJoin(std::vector<int64_t>(r, 1), ","), "}");
  const std::string zeros =
      absl::StrCat("{", absl::StrJoin(std::vector<int64_t>(r, 0), ","), "}");
  const std::string t(ElementTypeName(type));
  const std::string text = absl::StrCat(
      "HloModule t\nENTRY e {\n  p0 = ", t, "[", n, "] parameter(0)\n  p1 = $S",
      " parameter(1)\n  ones = s64[", r, "] constant(", ones,
      ")\n  zeros = s64[", r, "] constant(", zeros,
      ")\n  id = u32[] replica-id()\n  idc = s64[] convert(id)\n"
      "  off = s64[",
      r,
      "] broadcast(idc), dimensions={}\n"
      "  ROOT x = $S ragged-all-to-all(p0, p1, zeros, ones, off, ones), "
      "replica_groups={{",
      absl::StrJoin(devices, ","), "}}\n}\n");
  return Instantiate(c, text, ShapeText(type, {m}), {input, output});
}

XlaOp GenAsync(Context& c) {
  XlaOp operand = c.Any(kAnyClass);
  const std::string op = c.DimsOf(operand).empty() || c.d().Chance(50)
                             ? "copy(x)"
                             : "reverse(x), dimensions={0}";
  return Instantiate(
      c,
      absl::StrCat("HloModule t\nwrapped {\n  x = $S parameter(0)\n  ROOT y = "
                   "$S ",
                   op,
                   "\n}\nENTRY e {\n  p0 = $S parameter(0)\n  st = (($S), $S, "
                   "s32[]) async-start(p0), calls=wrapped\n  ROOT r = $S "
                   "async-done(st), calls=wrapped\n}\n"),
      ShapeText(c.TypeOf(operand), c.DimsOf(operand)), {operand});
}

XlaOp GenDynamicReshape(Context& c) {
  const ElementType type = c.Type(kAnyClass);
  const int64_t a = c.Dim(true), b = c.Dim(true);
  XlaOp operand = c.Value(type, {a, b});
  // Run-time sizes k0 * k1 = a * b; bounds a * b each.
  const int64_t count = a * b;
  std::vector<int64_t> divisors;
  for (int64_t f = 1; f <= count; ++f) {
    if (count % f == 0) divisors.push_back(f);
  }
  const int64_t k0 = c.d().Pick(divisors);
  const std::string t(ElementTypeName(type));
  const std::string text = absl::StrCat(
      "HloModule t\nENTRY e {\n  p0 = $S parameter(0)\n  s0 = s32[] "
      "constant(",
      k0, ")\n  s1 = s32[] constant(", count / k0, ")\n  ROOT d = ", t,
      "[<=", count, ",<=", count, "] dynamic-reshape(p0, s0, s1)\n}\n");
  return Instantiate(c, text, ShapeText(type, {a, b}), {operand});
}

XlaOp GenFusion(Context& c) {
  XlaOp a = c.Any(kAnyClass);
  XlaOp b = c.Value(c.TypeOf(a), c.DimsOf(a));
  return Instantiate(
      c,
      "HloModule t\nfused {\n  a = $S parameter(0)\n  b = $S parameter(1)\n"
      "  ROOT c = $S add(a, b)\n}\nENTRY e {\n  p0 = $S parameter(0)\n"
      "  p1 = $S parameter(1)\n  ROOT r = $S fusion(p0, p1), kind=kLoop, "
      "calls=fused\n}\n",
      ShapeText(c.TypeOf(a), c.DimsOf(a)), {a, b});
}

XlaOp GenDomain(Context& c) {
  XlaOp operand = c.Any(kAnyClass);
  return Instantiate(
      c,
      "HloModule t\nENTRY e {\n  p0 = $S parameter(0)\n  ROOT r = $S "
      "domain(p0), domain={kind=\"sharding\", entry={maximal device=0}, "
      "exit={maximal device=1}}\n}\n",
      ShapeText(c.TypeOf(operand), c.DimsOf(operand)), {operand});
}

// The target is the identity; fuzz/oracle registers it with the
// evaluator (elsewhere the module cannot run and its case is skipped).
XlaOp GenCustomCall(Context& c) {
  XlaOp operand = c.Any(kAnyClass);
  return Instantiate(
      c,
      "HloModule t\nENTRY e {\n  p0 = $S parameter(0)\n  ROOT r = "
      "$S custom-call(p0), custom_call_target=\"kiln_fuzz\"\n}\n",
      ShapeText(c.TypeOf(operand), c.DimsOf(operand)), {operand});
}

XlaOp GenInfeed(Context& c) {
  XlaOp operand = c.Any(kAnyClass);
  return Instantiate(
      c,
      "HloModule t\nENTRY e {\n  p0 = $S parameter(0)\n  t0 = token[] "
      "after-all()\n  i = ((), token[]) infeed(t0)\n  t1 = token[] "
      "get-tuple-element(i), index=1\n  ROOT r = $S add-dependency(p0, "
      "t1)\n}\n",
      ShapeText(c.TypeOf(operand), c.DimsOf(operand)), {operand});
}

// Device i sends to device i + 1 (mod the replica count).
XlaOp GenSendRecv(Context& c) {
  XlaOp operand = c.Any(kAnyClass);
  std::vector<std::string> pairs;
  for (int64_t i = 0; i < c.replicas(); ++i) {
    pairs.push_back(absl::StrCat("{", i, ",", (i + 1) % c.replicas(), "}"));
  }
  const int64_t channel = c.d().Range(1, 1 << 20);
  const std::string attrs = absl::StrCat(
      ", channel_id=", channel,
      ", frontend_attributes={_xla_send_recv_source_target_pairs=\"{",
      absl::StrJoin(pairs, ","), "}\"}");
  const std::string text = absl::StrCat(
      "HloModule t\nENTRY e {\n  p0 = $S parameter(0)\n  t0 = token[] "
      "after-all()\n  rv = ($S, u32[], token[]) recv(t0)",
      attrs, "\n  sn = ($S, u32[], token[]) send(p0, t0)", attrs,
      "\n  sd = token[] send-done(sn), channel_id=", channel,
      "\n  rd = ($S, token[]) recv-done(rv), channel_id=", channel,
      "\n  data = $S get-tuple-element(rd), index=0\n  ROOT r = $S "
      "add-dependency(data, sd)\n}\n");
  return Instantiate(c, text, ShapeText(c.TypeOf(operand), c.DimsOf(operand)),
                     {operand});
}

}  // namespace

void AddTemplateGenerators(std::vector<OpGenerator>* g) {
  g->insert(g->end(), {
                          {"all-reduce-start", true, GenAllReduceStart},
                          {"ragged-all-to-all", true, GenRaggedAllToAll},
                          {"async-start", false, GenAsync},
                          {"dynamic-reshape", false, GenDynamicReshape},
                          {"fusion", false, GenFusion},
                          {"domain", false, GenDomain},
                          {"custom-call", false, GenCustomCall},
                          {"infeed", false, GenInfeed},
                          {"send", true, GenSendRecv},
                      });
}

}  // namespace kiln::fuzzgen
