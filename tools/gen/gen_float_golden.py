#!/usr/bin/env python3
"""Golden data for conversions between doubles and every narrow float type.

Writes compiler/ir/testdata/float_golden/<type>.txt, one file per narrow float
type of ml_dtypes (plus numpy's float16), and float32.txt/float64.txt with
only T lines. Line format ('#' lines are comments):

  V <bits> <f64>   bit pattern -> exact value. <bits>: the type's bits in hex
                   (width of the type); <f64>: the value's float64 bit pattern,
                   16 hex digits, or "nan" / "-nan" for NaN (sign of the NaN
                   as numpy reports it). Every bit pattern of the type appears.
  D <f64> <bits>   float64 bit pattern -> the double rounded ONCE to the type
                   (nearest, ties to even; derived from ml_dtypes' float32
                   casts, see single_rounding). numpy's own float64 astype
                   rounds through float32 for every type but float16.
  F <f32> <bits>   float32 bit pattern -> bits of
                   np.array(x, np.float32).astype(type), listed only where
                   that differs from D of the double x it came from.
  M <f64> <bits>   np.array(x, np.float64).astype(type) where it differs
                   from D (numpy's double rounding). Informational.
  X <f64> <bits>   XLA CPU's convert f64->type where it differs from D, for
                   |x| >= 2^-125 (needs JAX). Informational.
  T <bits> <text>  how XLA prints that value in HLO text (needs JAX).

The header also records which of the two paths (direct from f64, or through
f32) XLA's CPU `convert` f64->type takes, measured with JAX (x64 enabled) on
the D inputs when JAX is installed.

Run from the repository root:
  /tmp/xlavenv/bin/python tools/gen/gen_float_golden.py
"""

import argparse
import os
import re
import sys

import ml_dtypes
import numpy as np

TYPES = [
    "bfloat16", "float16", "float8_e5m2", "float8_e4m3", "float8_e4m3fn",
    "float8_e4m3b11fnuz", "float8_e3m4", "float8_e5m2fnuz", "float8_e4m3fnuz",
    "float4_e2m1fn", "float8_e8m0fnu", "float6_e3m2fn", "float6_e2m3fn",
]

BIT_WIDTH = {"bfloat16": 16, "float16": 16, "float4_e2m1fn": 4,
             "float6_e3m2fn": 6, "float6_e2m3fn": 6}

# For 16-bit types, the D inputs come from every STRIDE-th value plus the
# EDGE smallest and largest magnitudes (every value would be ~1M lines).
STRIDE_16 = 61
EDGE_16 = 300
RANDOM_INPUTS = 2000


def dtype_of(name):
  return np.float16 if name == "float16" else getattr(ml_dtypes, name)


def bit_width(name):
  return BIT_WIDTH.get(name, 8)


def hex_digits(name):
  return (bit_width(name) + 3) // 4


def storage_uint(name):
  return np.uint16 if bit_width(name) == 16 else np.uint8


def all_values(name):
  """float64 value of every bit pattern, index = bit pattern."""
  count = 1 << bit_width(name)
  bits = np.arange(count, dtype=storage_uint(name))
  return bits.view(dtype_of(name)).astype(np.float64)


def f64_bits(values):
  return np.asarray(values, np.float64).view(np.uint64)


def to_type_bits(name, values, via):
  """Bits of values (float64 array) converted to the type from `via`."""
  src = np.asarray(values, np.float64).astype(via)
  with np.errstate(all="ignore"):
    out = src.astype(dtype_of(name))
  return out.view(storage_uint(name)).astype(np.uint64)


def ulp_neighbours(x):
  return [np.nextafter(x, -np.inf), np.nextafter(x, np.inf)]


def tricky_inputs(name, values):
  """The float64 inputs of the D section, deduplicated, in a stable order."""
  finite = np.unique(values[np.isfinite(values)])
  positive = finite[finite > 0]
  if bit_width(name) == 16:
    picked = np.unique(np.concatenate(
        [positive[::STRIDE_16], positive[:EDGE_16], positive[-EDGE_16:]]))
  else:
    picked = positive
  # A virtual next value above the maximum: the midpoint to it decides
  # overflow (round to max vs. to inf/NaN).
  top = positive[-1] + (positive[-1] - positive[-2])
  ladder = np.concatenate([[0.0], positive, [top]])
  index = np.searchsorted(ladder, picked)
  mids = (ladder[index] + ladder[np.minimum(index + 1, len(ladder) - 1)]) / 2
  mids = np.concatenate([mids, (ladder[:-1][:EDGE_16] + ladder[1:][:EDGE_16]) / 2])
  inputs = [picked, mids]
  inputs += ulp_neighbours(mids) + ulp_neighbours(picked)
  inputs.append(np.array([top, top * 2, positive[-1] * 1.0001, 1e308,
                          np.finfo(np.float64).max, np.inf, np.nan,
                          positive[0] / 2, positive[0] / 4, positive[0] * 0.75,
                          1e-300, 5e-324, 1e-45, 2.0**-149, 2.0**-126,
                          2.0**-24, 2.0**-14, 65504.0, 65520.0, 3.0e38,
                          np.float64(np.finfo(np.float32).max), 1.0, 0.1]))
  rng = np.random.RandomState(12345)
  lo, hi = np.log2(positive[0]) - 4, np.log2(positive[-1]) + 2
  inputs.append(2.0 ** rng.uniform(lo, hi, RANDOM_INPUTS))
  positive_inputs = np.concatenate(inputs)
  both = np.concatenate([positive_inputs, -positive_inputs, [0.0, -0.0]])
  _, first = np.unique(f64_bits(both), return_index=True)
  return both[np.sort(first)]


def value_text(v):
  if np.isnan(v):
    return "-nan" if np.signbit(v) else "nan"
  return "%016x" % int(f64_bits([v])[0])


def single_rounding(name, inputs):
  """Bits of each double rounded once (nearest, ties to even) to the type.

  ml_dtypes' numpy casts from float64 go through float32, so they are not
  used directly. Every midpoint (and overflow threshold) of a narrow type is
  a float32, so if a = float32(|x|) != |x|, |x| lies strictly between a and
  its float32 neighbour n towards |x|, and no midpoint lies strictly between
  them: |x| rounds like a unless a itself is a midpoint (a's two float32
  neighbours round differently), in which case it rounds like n. Checked by
  the generator's outputs: float16 agrees with numpy's direct f64 cast and
  the float8 types with XLA CPU's direct convert (header lines).
  """
  x = np.asarray(inputs, np.float64)
  with np.errstate(all="ignore"):
    mag = np.abs(x)
    a = mag.astype(np.float32)
    exact = a.astype(np.float64) == mag
    toward = np.where(a.astype(np.float64) < mag, np.inf, -np.inf)
    n = np.nextafter(a, toward.astype(np.float32))
    below = np.nextafter(a, np.float32(0))
    above = np.nextafter(a, np.float32(np.inf))
    is_mid = (to_type_bits(name, below, np.float32) !=
              to_type_bits(name, above, np.float32)) & (below > 0)
    # A nonzero double that float32 flushes to zero rounds like the smallest
    # float32 subnormal (matters only for f8e8m0fnu, which has no zero).
    keep_a = exact | ~np.isfinite(mag) | (~is_mid & (a > 0))
    chosen = np.where(keep_a, a, n)
    signed = np.where(np.signbit(x), -chosen.astype(np.float64),
                      chosen.astype(np.float64))
    signed = np.where(np.isnan(x), x, signed)
  return to_type_bits(name, signed, np.float32)


def xla_convert(name, inputs):
  """XLA CPU's f64->type convert (via JAX, x64), or None without JAX."""
  try:
    import jax  # pylint: disable=g-import-not-at-top
    jax.config.update("jax_enable_x64", True)
    jax.config.update("jax_platforms", "cpu")
    import jax.numpy as jnp  # pylint: disable=g-import-not-at-top
  except ImportError:
    return None, "jax absent"
  convert = jax.jit(lambda v: v.astype(dtype_of(name)))
  try:
    got = np.asarray(convert(jnp.asarray(inputs, jnp.float64)))
  except jax.errors.JaxRuntimeError as e:  # e.g. f6 types on CPU
    print(f"{name}: XLA CPU cannot convert: {str(e).splitlines()[0]}",
          file=sys.stderr)
    return None, f"jax {jax.__version__} (XLA CPU: type unsupported)"
  return got.view(storage_uint(name)).astype(np.uint64), f"jax {jax.__version__}"


def path_verdict(direct, via_f32, xla, comparable):
  """Which rounding path XLA's results match on the comparable inputs."""
  if xla is None:
    return "unknown (no XLA result)"
  is_direct = np.array_equal(xla[comparable], direct[comparable])
  is_via = np.array_equal(xla[comparable], via_f32[comparable])
  return {(True, True): "both (no input tells them apart)",
          (True, False): "direct from f64 (single rounding)",
          (False, True): "through f32 (double rounding)",
          (False, False): "neither (%d inputs differ from single rounding)"
                          % int(np.sum(xla[comparable] != direct[comparable]))
         }[(is_direct, is_via)]


# For 16-bit types, T lines cover every TEXT_STRIDE_16-th bit pattern.
TEXT_STRIDE_16 = 3

HLO_NAME = {
    "bfloat16": "bf16", "float16": "f16", "float32": "f32", "float64": "f64",
    "float8_e5m2": "f8e5m2", "float8_e4m3": "f8e4m3",
    "float8_e4m3fn": "f8e4m3fn", "float8_e4m3b11fnuz": "f8e4m3b11fnuz",
    "float8_e3m4": "f8e3m4", "float8_e5m2fnuz": "f8e5m2fnuz",
    "float8_e4m3fnuz": "f8e4m3fnuz", "float8_e8m0fnu": "f8e8m0fnu",
    "float4_e2m1fn": "f4e2m1fn", "float6_e3m2fn": "f6e3m2fn",
    "float6_e2m3fn": "f6e2m3fn",
}


def xla_literal_text(name, values):
  """XLA's own spelling of each element of `values` (an array of the type),
  read from the constant JAX lowers it to; None without JAX or support."""
  try:
    import jax  # pylint: disable=g-import-not-at-top
    jax.config.update("jax_enable_x64", True)
    jax.config.update("jax_platforms", "cpu")
    import jax.numpy as jnp  # pylint: disable=g-import-not-at-top
    text = jax.jit(lambda: jnp.asarray(values)).lower().as_text(dialect="hlo")
  except Exception as e:  # pylint: disable=broad-except
    print(f"{name}: no XLA literal text: {str(e).splitlines()[0]}",
          file=sys.stderr)
    return None
  pattern = r"= %s\[%d\][^ ]* constant\(\{(.*?)\}\)" % (
      HLO_NAME[name], len(values))
  match = re.search(pattern, text)
  if match is None:
    return None
  return [token.strip() for token in match.group(1).split(",")]


def text_lines(name, bits, values):
  """T lines: bit pattern -> XLA's text for it."""
  texts = xla_literal_text(name, values)
  if texts is None or len(texts) != len(bits):
    return []
  digits = hex_digits(name)
  return ["T %0*x %s" % (digits, int(b), t) for b, t in zip(bits, texts)]


def narrow_text_lines(name):
  if name.startswith("float6_"):
    return []  # XLA (jaxlib 0.10.2) CHECK-fails lowering f6 constants.
  count = 1 << bit_width(name)
  stride = TEXT_STRIDE_16 if bit_width(name) == 16 else 1
  bits = np.arange(0, count, stride, dtype=storage_uint(name))
  return text_lines(name, bits, bits.view(dtype_of(name)))


WIDE_SAMPLES = 4000


def wide_text_file(name):
  """float32/float64: only T lines, for special and random bit patterns."""
  dtype = np.float32 if name == "float32" else np.float64
  uint = np.uint32 if name == "float32" else np.uint64
  info = np.finfo(dtype)
  special = np.array([0.0, 1.0, 0.1, 1 / 3, 2 / 3, 0.5, 1e10, 1e-10, 123456789,
                      1e6, 1e7, 1e15, 1e16, 1e17, 1e-5, 1e-4, 9.999999e-5,
                      float(info.max), float(info.tiny), float(info.eps),
                      float(info.smallest_subnormal), np.inf, np.nan, np.pi,
                      np.e, 65504.0, 448.0, 57344.0, 3.4e38, 1e-40, 1e-310,
                      5e-324, 1e300, 4294967296.0, 16777217.0, 2.0**53 + 2],
                     np.float64)
  with np.errstate(all="ignore"):
    values = special.astype(dtype)
  values = np.concatenate([values, -values])
  rng = np.random.RandomState(2024)
  width = np.dtype(dtype).itemsize * 8
  random_bits = rng.randint(0, 2**32, WIDE_SAMPLES, dtype=np.uint64)
  if width == 64:
    random_bits = (random_bits << np.uint64(32)) | rng.randint(
        0, 2**32, WIDE_SAMPLES, dtype=np.uint64)
  values = np.concatenate([values, random_bits.astype(uint).view(dtype)])
  # Values that print with few digits: k * 10^e.
  for exponent in range(-12, 13, 3):
    for k in (1, 2, 5, 123, 999999, 1234567):
      values = np.append(values, dtype(k * 10.0**exponent))
  _, first = np.unique(values.view(uint), return_index=True)
  values = values[np.sort(first)]
  bits = values.view(uint)
  digits = width // 4
  texts = xla_literal_text(name, values)
  if texts is None or len(texts) != len(values):
    return None
  return ["# Generated by tools/gen/gen_float_golden.py (do not edit).",
          f"# type {name}: XLA's literal text only.",
          "# T <bits> <text>: how XLA prints that value in HLO text (a constant",
          "#   lowered by JAX, as_text(dialect='hlo')).",
          ] + ["T %0*x %s" % (digits, int(b), t) for b, t in zip(bits, texts)]


def header(name, xla_verdict, numpy_verdict, jax_version):
  import importlib.metadata as md  # pylint: disable=g-import-not-at-top
  return [
      "# Generated by tools/gen/gen_float_golden.py (do not edit).",
      f"# type {name}, {bit_width(name)} bits.",
      f"# ml_dtypes {md.version('ml_dtypes')}, numpy {np.__version__}, "
      f"{jax_version}, python {sys.version.split()[0]}.",
      "# V <bits> <f64 bits|nan|-nan>: value of every bit pattern.",
      "# D <f64 bits> <bits>: the double rounded ONCE to nearest, ties to even",
      "#   (the reference FloatToBits must match).",
      "# F <f32 bits> <bits>: ml_dtypes float32 -> type (single rounding from",
      "#   that float32), where it differs from D of the original double.",
      "# M <f64 bits> <bits>: np.array(x, np.float64).astype(type) where it",
      f"#   differs from D. numpy/ml_dtypes f64->{name}: {numpy_verdict}.",
      "# X <f64 bits> <bits>: XLA CPU convert f64->type (jax, x64) where it",
      "#   differs from D, for |x| >= 2^-125 only (XLA's CPU code flushes",
      f"#   float32 subnormals). XLA CPU f64->{name}: {xla_verdict}.",
      "# T <bits> <text>: how XLA prints that value in HLO text (a constant",
      "#   lowered by JAX, as_text(dialect='hlo')); every pattern, or every",
      f"#   {TEXT_STRIDE_16}rd for 16-bit types. Absent where XLA lacks the type.",
  ]


def generate(name):
  values = all_values(name)
  digits = hex_digits(name)
  inputs = tricky_inputs(name, values)
  direct = single_rounding(name, inputs)
  numpy_f64 = to_type_bits(name, inputs, np.float64)
  via_f32 = to_type_bits(name, inputs, np.float32)
  xla, jax_version = xla_convert(name, inputs)
  comparable = ~(np.abs(inputs) < 2.0**-125)
  lines = ["V %0*x %s" % (digits, bits, value_text(v))
           for bits, v in enumerate(values)]
  for x, r in zip(f64_bits(inputs), direct):
    lines.append("D %016x %0*x" % (int(x), digits, int(r)))
  with np.errstate(all="ignore"):
    as_f32 = inputs.astype(np.float32).view(np.uint32)
  seen = set()
  for x32, r_direct, r_via in zip(as_f32, direct, via_f32):
    if r_direct != r_via and int(x32) not in seen:
      seen.add(int(x32))
      lines.append("F %08x %0*x" % (int(x32), digits, int(r_via)))
  for tag, other, mask in (("M", numpy_f64, None), ("X", xla, comparable)):
    if other is None:
      continue
    for i in np.nonzero(other != direct)[0]:
      if mask is None or mask[i]:
        lines.append("%s %016x %0*x" % (tag, int(f64_bits([inputs[i]])[0]),
                                         digits, int(other[i])))
  lines += narrow_text_lines(name)
  everything = np.ones_like(comparable)
  xla_verdict = path_verdict(direct, via_f32, xla, comparable)
  numpy_verdict = path_verdict(direct, via_f32, numpy_f64, everything)
  return header(name, xla_verdict, numpy_verdict, jax_version) + lines, (
      xla_verdict, numpy_verdict)


def main():
  parser = argparse.ArgumentParser(description=__doc__)
  parser.add_argument("--out", default="compiler/ir/testdata/float_golden")
  args = parser.parse_args()
  os.makedirs(args.out, exist_ok=True)
  for name in TYPES:
    lines, verdict = generate(name)
    with open(os.path.join(args.out, name + ".txt"), "w") as f:
      f.write("\n".join(lines) + "\n")
    print(f"{name}: {len(lines)} lines; f64->{name}: XLA CPU {verdict[0]}; "
          f"numpy {verdict[1]}")
  for name in ("float32", "float64"):
    lines = wide_text_file(name)
    if lines is None:
      print(f"{name}: skipped (no JAX)")
      continue
    with open(os.path.join(args.out, name + ".txt"), "w") as f:
      f.write("\n".join(lines) + "\n")
    print(f"{name}: {len(lines)} lines")


if __name__ == "__main__":
  main()
