#!/usr/bin/env python3
"""Dumps real XLA HLO text for a varied set of JAX programs.

For every program in PROGRAMS this writes two files into the output folder
(default compiler/text/xla_dumps):

  <name>.hlo      the module JAX hands to XLA, before any pass, exactly as
                  `jax.jit(f).lower(*args).as_text(dialect="hlo")` prints it:
                  XLA's HloPrintOptions::ShortParsable() (no '%', no
                  metadata, no computation signatures, every constant in
                  full). Note compiler_ir("hlo").as_hlo_text() would elide
                  large constants as "{...}".
  <name>.opt.hlo  the CPU module after XLA's optimization passes, printed by
                  XLA's HloModule::ToString with default HloPrintOptions except
                  print_large_constants=true (so no constant is elided to
                  "{...}"); this is what --xla_dump_to writes.

Each file starts with "// " comment lines naming the generator and the exact
jax/jaxlib/numpy versions. Run from the repository root (the source path of
this script appears in the stack frame tables of the optimized dumps):

  /tmp/xlavenv/bin/python tools/gen/gen_xla_dumps.py
"""

import argparse
import os
import sys

import jax

jax.config.update("jax_enable_x64", True)
jax.config.update("jax_platforms", "cpu")
# Keep the checkout's absolute path out of the dumps' metadata: source file
# names become "tools/gen/gen_xla_dumps.py".
jax.config.update("jax_hlo_source_file_canonicalization_regex",
                  r"^.*/(?=tools/gen/)")

import jax.numpy as jnp  # noqa: E402
import jaxlib  # noqa: E402
import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402
from jaxlib import _hlo  # noqa: E402

# Files larger than this are skipped (reported on stderr).
MAX_FILE_BYTES = 96 * 1024


def _rng(seed=0):
  return np.random.RandomState(seed)


def _f32(*shape, seed=0):
  return _rng(seed).randn(*shape).astype(np.float32)


# ---------------------------------------------------------------- programs --
# Each entry: name -> (function, example arguments).


def elementwise_f32(x, y):
  z = jnp.sin(x) * jnp.exp(y) + jnp.tanh(x) / (1.0 + jnp.abs(y))
  z = z + jnp.log1p(jnp.abs(x)) + jnp.expm1(y) + lax.rsqrt(y * y + 1.0)
  z = z + jnp.cbrt(x) + jnp.arctan2(x, y) + jnp.nextafter(x, y)
  z = jnp.clip(z, -3.0, 3.0) + jnp.round(x) + jnp.floor(y) + jnp.ceil(x)
  z = z + lax.logistic(y)
  return jnp.where(x > y, z, jnp.sign(z)) ** 2, jnp.isfinite(z)


def special_functions(x, y):
  return (lax.erf(x), lax.lgamma(jnp.abs(y) + 1.0), lax.digamma(y * y + 1.0),
          lax.erf_inv(jnp.tanh(x)))


def elementwise_bf16_f16(a, b):
  c = (a.astype(jnp.float32) * 3.0).astype(jnp.bfloat16) + a
  d = jnp.sqrt(jnp.abs(b)) - b.astype(jnp.float16) * jnp.float16(0.5)
  return c, d, jnp.maximum(c.astype(jnp.float16), d)


def float8_types(x):
  outs = []
  for t in (jnp.float8_e5m2, jnp.float8_e4m3fn, jnp.float8_e4m3b11fnuz,
            jnp.float8_e5m2fnuz, jnp.float8_e4m3fnuz, jnp.float8_e4m3,
            jnp.float8_e3m4, jnp.float8_e8m0fnu, jnp.float4_e2m1fn):
    y = x.astype(t)
    outs.append((y.astype(jnp.float32) * 2.0).astype(t))
  return outs


def float8_constants():
  vals = np.array([0.0, -0.0, 1.0, 0.3, 448.0, -1e-3, 3.0, 0.125], np.float32)
  outs = []
  for t in (ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2,
            ml_dtypes.float4_e2m1fn, ml_dtypes.float8_e4m3b11fnuz):
    outs.append(jnp.asarray(vals.astype(t)).astype(jnp.float32))
  outs.append(jnp.asarray(np.array([np.nan, np.inf, -np.inf, 1.5], np.float32)
                          .astype(ml_dtypes.float8_e5m2)).astype(jnp.float32))
  return outs


def int_types(a, b, c):
  x = (a + 3) * b.astype(jnp.int8) - (a >> 1) ^ (a << 2)
  y = lax.shift_right_logical(b, jnp.uint8(2)) | (b & jnp.uint8(0x0f))
  z = lax.population_count(c) + lax.clz(c) + c // 7 + c % 5
  return x, y, z, (a.astype(jnp.int4) + jnp.int4(1)).astype(jnp.int32), \
      a.astype(jnp.uint4), lax.bitwise_not(a)


def complex_math(x, y):
  z = lax.complex(x, y)
  w = jnp.exp(z) * jnp.conj(z) + jnp.sqrt(z) / (z + 1j)
  zz = z.astype(jnp.complex128) * 2.0
  return jnp.real(w), jnp.imag(w), jnp.abs(w), jnp.angle(zz), zz


def f64_s64(x, n):
  return jnp.sin(x) * 1e300, n * jnp.int64(2**40), x.astype(jnp.int64), \
      jnp.float64(np.pi) + x.astype(jnp.float32).astype(jnp.float64)


def broadcasting(x, y, z):
  return x[:, None, :] + y[None, :, None] * z, jnp.broadcast_to(
      y, (2, 3, 5, 3))


def dot_general(a, b, c):
  return (jnp.einsum("bij,bjk->bik", a, b), jnp.dot(a[0], b[0]),
          jnp.einsum("bij,ij->b", a, c), jnp.tensordot(a, b, axes=([2], [1])),
          lax.dot_general(a.astype(jnp.bfloat16), b.astype(jnp.bfloat16),
                          (((2,), (1,)), ((0,), (0,))),
                          preferred_element_type=jnp.float32))


def conv(x, w, wg):
  y = lax.conv_general_dilated(x, w, window_strides=(2, 1),
                               padding=((1, 2), (0, 1)), lhs_dilation=(1, 1),
                               rhs_dilation=(2, 1),
                               dimension_numbers=("NCHW", "OIHW", "NCHW"))
  g = lax.conv_general_dilated(x, wg, (1, 1), "SAME",
                               feature_group_count=2,
                               dimension_numbers=("NCHW", "OIHW", "NCHW"))
  t = lax.conv_transpose(jnp.transpose(x, (0, 2, 3, 1)),
                         jnp.ones((3, 3, 4, 2), jnp.float32), (2, 2), "SAME")
  return y, g, t


def conv_nhwc_batch_group(x, w):
  return lax.conv_general_dilated(x, w, (1, 1), "VALID",
                                  dimension_numbers=("NHWC", "HWIO", "NHWC"),
                                  batch_group_count=2)


def reduce_argmax(x):
  return (jnp.sum(x, axis=1), jnp.max(x, axis=0), jnp.argmax(x, axis=1),
          jnp.argmin(x, axis=0), jnp.prod(x), jnp.any(x > 0, axis=1),
          jnp.mean(x.astype(jnp.bfloat16), axis=1))


def variadic_reduce(x, i):
  def comb(a, b):
    av, ai = a
    bv, bi = b
    take_a = av >= bv
    return lax.select(take_a, av, bv), lax.select(take_a, ai, bi)
  return lax.reduce((x, i), (jnp.float32(-np.inf), jnp.int32(0)), comb, (1,))


def reduce_window_pool(x):
  mx = lax.reduce_window(x, -jnp.inf, lax.max, (1, 1, 3, 3), (1, 1, 2, 2),
                         "SAME")
  avg = lax.reduce_window(x, 0.0, lax.add, (1, 1, 2, 2), (1, 1, 1, 1),
                          ((0, 0), (0, 0), (1, 0), (0, 1)),
                          base_dilation=(1, 1, 2, 1),
                          window_dilation=(1, 1, 1, 2))
  return mx, avg


def cumulative(x):
  return (jnp.cumsum(x, axis=0), lax.cummax(x, axis=1),
          lax.cumprod(x, axis=1, reverse=True), lax.cumlogsumexp(x, axis=0))


def sort_ops(x, k, v):
  return (jnp.sort(x, axis=1), lax.sort((k, v), num_keys=1, is_stable=True),
          jnp.argsort(x, axis=0, stable=True), lax.top_k(x, 3))


def gather_scatter(x, idx, upd):
  g = x[idx]
  s = x.at[idx].add(upd)
  m = x.at[idx, 1].max(upd[:, 0])
  t = jnp.take_along_axis(x, jnp.argsort(x, axis=1), axis=1)
  return g, s, m, t


def batched_gather_scatter(x, idx):
  def one(row, i):
    return row[i], row.at[i].set(0.0)
  return jax.vmap(one)(x, idx)


def dynamic_slicing(x, i, j):
  a = lax.dynamic_slice(x, (i, j), (2, 3))
  b = lax.dynamic_update_slice(x, jnp.ones((2, 2), x.dtype), (j, i))
  return a, b, lax.dynamic_index_in_dim(x, i, axis=1)


def pad_slice_concat(x):
  p = lax.pad(x, jnp.float32(0.5), ((1, -1, 0), (-1, 2, 1)))
  s = x[1:5:2, ::-1]
  return p, s, jnp.concatenate([x, x * 2], axis=1), jnp.transpose(x), \
      jnp.reshape(x, (-1,)), jnp.flip(x, 0)


def control_flow(x, n):
  def body(c):
    i, v = c
    return i + 1, v * 0.5 + jnp.sin(v)
  _, w = lax.while_loop(lambda c: c[0] < n, body, (0, x))
  f = lax.fori_loop(0, 5, lambda i, v: v + i, x)
  c = lax.cond(n > 2, lambda v: v * 2, lambda v: v - 1, x)
  s = lax.switch(n % 3, [jnp.sin, jnp.cos, lambda v: -v], x)
  return w, f, c, s


def scan_rnn(h, xs, w):
  def step(carry, x):
    carry = jnp.tanh(carry @ w + x)
    return carry, carry.sum()
  return lax.scan(step, h, xs)


def rng_threefry(key):
  return jax.random.normal(key, (3, 4))


def rng_rbg(seed):
  key = jax.random.key(seed, impl="rbg")
  return jax.random.uniform(key, (5,)), jax.random.bits(key, (2, 3))


def rng_bit_generator(key):
  return lax.rng_bit_generator(key, (4, 8), dtype=jnp.uint32,
                               algorithm=lax.RandomAlgorithm.RNG_PHILOX)


def rng_uniform_op(a):
  return lax.rng_uniform(jnp.float32(0), jnp.float32(1), (3,)) + a


def fft_ops(x, c):
  return (jnp.fft.fft(c), jnp.fft.ifft(c), jnp.fft.rfft(x),
          jnp.fft.irfft(jnp.fft.rfft(x)), jnp.fft.fft2(c.reshape(4, 4)))


def linalg(a, b):
  spd = a @ a.T + 4.0 * jnp.eye(4, dtype=a.dtype)
  l = jnp.linalg.cholesky(spd)
  x = lax.linalg.triangular_solve(l, b, left_side=True, lower=True)
  return l, x, jnp.linalg.solve(spd, b), jnp.linalg.det(spd)


def linalg_decomp(a):
  q, r = jnp.linalg.qr(a)
  w, v = jnp.linalg.eigh(a + a.T)
  u, s, vt = jnp.linalg.svd(a)
  return q, r, w, v, u, s, vt, jnp.linalg.inv(a)


def precision_bits(x, i):
  return (lax.reduce_precision(x, exponent_bits=5, mantissa_bits=2),
          lax.bitcast_convert_type(x, jnp.int32),
          lax.bitcast_convert_type(i, jnp.float32),
          lax.bitcast_convert_type(x, jnp.uint8),
          lax.bitcast_convert_type(x.astype(jnp.float64), jnp.uint32))


def iota_clamp_select(x, w):
  io = lax.broadcasted_iota(jnp.int32, (3, 4), 1)
  c = lax.clamp(jnp.float32(-1), x, jnp.float32(1))
  s = lax.select_n(w, x, c, -x)
  return io, c, s, jnp.arange(10, dtype=jnp.uint16), jnp.tri(3)


def mlp_train_step(params, x, y):
  def loss(p):
    h = jax.nn.relu(x @ p["w1"] + p["b1"])
    out = jax.nn.log_softmax(h @ p["w2"] + p["b2"])
    return -jnp.mean(jnp.sum(out * y, axis=-1))
  l, g = jax.value_and_grad(loss)(params)
  return l, jax.tree_util.tree_map(lambda p, gp: p - 0.1 * gp, params, g)


def attention(q, k, v):
  s = jnp.einsum("bhqd,bhkd->bhqk", q, k) / np.sqrt(q.shape[-1])
  mask = jnp.tril(jnp.ones((q.shape[2], k.shape[2]), bool))
  s = jnp.where(mask, s, -1e9)
  return jnp.einsum("bhqk,bhkd->bhqd", jax.nn.softmax(s, axis=-1), v)


def layer_norm_gelu(x, g, b):
  m = x.mean(-1, keepdims=True)
  v = ((x - m) ** 2).mean(-1, keepdims=True)
  return jax.nn.gelu((x - m) * lax.rsqrt(v + 1e-5) * g + b)


def tuples_and_tokens(x):
  y = jax.lax.optimization_barrier((x, x * 2))
  return y[0] + y[1], jnp.stack([x, x]), jnp.squeeze(x[None])


def large_constants(x):
  table = np.linspace(-1, 1, 64, dtype=np.float32).reshape(8, 8)
  ints = np.arange(-50, 50, dtype=np.int32)
  return x @ table, ints * 3, jnp.asarray(
      np.array([1e-40, np.float32(3.4e38), -0.0, np.inf, 1.0 / 3.0],
               np.float32)), jnp.asarray(
                   np.array([0.1, 1e-310, 2.0**-1074, 1e300], np.float64))


def nan_constants(x):
  c = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0], np.float32)
  h = np.array([np.nan, 65504.0, 6e-8, -np.inf], np.float16)
  b = np.array([np.nan, 3.0e38, 1e-40, -0.0], ml_dtypes.bfloat16)
  return x + c, jnp.asarray(h) * 2, jnp.asarray(b) + 1


def custom_jvp_and_checkpoint(x):
  f = jax.checkpoint(lambda v: jnp.sin(jnp.sin(v)))
  return jax.grad(lambda v: jnp.sum(f(v) * jax.nn.softplus(v)))(x)


def misc_unary(x, i):
  return (lax.is_finite(x), lax.exp2(x), lax.tan(x), lax.acos(jnp.tanh(x)),
          lax.asinh(x), lax.atanh(jnp.tanh(x) * 0.5), lax.igamma(x * x, jnp.float32(1.0)),
          lax.bessel_i1e(x), lax.rem(x, jnp.float32(0.7)), lax.pow(jnp.abs(x), jnp.float32(1.5)),
          lax.integer_pow(x, 3), lax.round(x, lax.RoundingMethod.TO_NEAREST_EVEN),
          lax.neg(i), lax.abs(i), lax.sign(i), jnp.minimum(i, 3))


def pmap_collectives(x):
  def per_device(v):
    total = lax.psum(v, "i")
    gathered = lax.all_gather(v, "i")
    return total + lax.pmean(v, "i") + lax.axis_index("i"), gathered
  return jax.pmap(per_device, axis_name="i")(x)


def host_callback(x):
  y = jax.pure_callback(lambda v: np.sin(v), jax.ShapeDtypeStruct(x.shape,
                                                                 x.dtype), x)
  jax.debug.print("x = {}", x)
  return y * 2


def sharding_constraint(x):
  mesh = jax.sharding.Mesh(np.array(jax.devices()[:1]), ("d",))
  spec = jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec("d"))
  return lax.with_sharding_constraint(x * 2, spec) + 1


def eig_nonsymmetric(a):
  w, v = jnp.linalg.eig(a)
  return w, v


def _bit_patterns(dtype, step=1):
  """Every step-th bit pattern of a float type, as an array of that type."""
  width = np.dtype(dtype).itemsize * 8
  uint = np.uint16 if width == 16 else np.uint8
  count = 16 if dtype == ml_dtypes.float4_e2m1fn else 1 << width
  return np.arange(0, count, step).astype(uint).view(dtype)


def narrow_float_literals():
  """Constants holding every value of each 8-bit (and 4-bit) float type and
  a sample of f16/bf16: ground truth for how XLA prints their literals."""
  types = [ml_dtypes.float8_e5m2, ml_dtypes.float8_e4m3, ml_dtypes.float8_e4m3fn,
           ml_dtypes.float8_e4m3b11fnuz, ml_dtypes.float8_e3m4,
           ml_dtypes.float8_e5m2fnuz, ml_dtypes.float8_e4m3fnuz,
           ml_dtypes.float8_e8m0fnu, ml_dtypes.float4_e2m1fn]
  outs = [jnp.asarray(_bit_patterns(t)) for t in types]
  outs.append(jnp.asarray(_bit_patterns(np.float16, 97)))
  outs.append(jnp.asarray(_bit_patterns(ml_dtypes.bfloat16, 97)))
  return outs


def _programs():
  r = _rng(1)
  key = jax.random.PRNGKey(0)
  mlp = {"w1": _f32(8, 16), "b1": _f32(16, seed=2), "w2": _f32(16, 4, seed=3),
         "b2": _f32(4, seed=4)}
  return {
      "elementwise_f32": (elementwise_f32, (_f32(4, 5), _f32(4, 5, seed=1))),
      "special_functions": (special_functions, (_f32(3), _f32(3, seed=1))),
      "elementwise_bf16_f16": (elementwise_bf16_f16,
                               (_f32(3, 4).astype(ml_dtypes.bfloat16),
                                _f32(3, 4, seed=1).astype(np.float16))),
      "float8_types": (float8_types, (_f32(8),)),
      "float8_constants": (float8_constants, ()),
      "narrow_float_literals": (narrow_float_literals, ()),
      "int_types": (int_types, (np.arange(12, dtype=np.int32).reshape(3, 4),
                                np.arange(12, dtype=np.uint8).reshape(3, 4),
                                np.arange(6, dtype=np.uint32))),
      "complex_math": (complex_math, (_f32(6), _f32(6, seed=1))),
      "f64_s64": (f64_s64, (r.randn(5), np.arange(5, dtype=np.int64))),
      "broadcasting": (broadcasting, (_f32(2, 5), _f32(3), _f32(3, 5))),
      "dot_general": (dot_general, (_f32(2, 3, 4), _f32(2, 4, 5),
                                    _f32(3, 4, seed=2))),
      "conv": (conv, (_f32(1, 4, 9, 8), _f32(6, 4, 3, 2, seed=1),
                      _f32(4, 2, 3, 3, seed=2))),
      "conv_nhwc_batch_group": (conv_nhwc_batch_group,
                                (_f32(4, 6, 6, 3), _f32(3, 3, 3, 4, seed=1))),
      "reduce_argmax": (reduce_argmax, (_f32(4, 6),)),
      "variadic_reduce": (variadic_reduce,
                          (_f32(3, 5), np.arange(15, dtype=np.int32)
                           .reshape(3, 5))),
      "reduce_window_pool": (reduce_window_pool, (_f32(2, 3, 8, 8),)),
      "cumulative": (cumulative, (_f32(6, 5),)),
      "sort_ops": (sort_ops, (_f32(4, 6), r.randint(0, 3, 7).astype(np.int32),
                              _f32(7))),
      "gather_scatter": (gather_scatter, (_f32(6, 3),
                                          np.array([0, 2, 2, 5], np.int32),
                                          _f32(4, 3, seed=5))),
      "batched_gather_scatter": (batched_gather_scatter,
                                 (_f32(4, 6), np.array([[0, 1], [2, 3],
                                                        [5, 5], [1, 0]],
                                                       np.int32))),
      "dynamic_slicing": (dynamic_slicing, (_f32(5, 6), np.int32(1),
                                            np.int32(2))),
      "pad_slice_concat": (pad_slice_concat, (_f32(6, 4),)),
      "control_flow": (control_flow, (_f32(3), np.int32(4))),
      "scan_rnn": (scan_rnn, (_f32(4), _f32(5, 4, seed=1), _f32(4, 4, seed=2))),
      "rng_threefry": (rng_threefry, (key,)),
      "rng_rbg": (rng_rbg, (np.uint32(7),)),
      "rng_bit_generator": (rng_bit_generator,
                            (np.array([1, 2, 3, 4], np.uint32),)),
      "rng_uniform": (rng_uniform_op, (_f32(3),)),
      "fft_ops": (fft_ops, (_f32(16), (_f32(16) + 1j * _f32(16, seed=1))
                            .astype(np.complex64))),
      "linalg": (linalg, (_f32(4, 4), _f32(4, 2, seed=1))),
      "linalg_decomp": (linalg_decomp, (_f32(4, 4),)),
      "precision_bits": (precision_bits, (_f32(4), np.arange(4, dtype=np.int32))),
      "iota_clamp_select": (iota_clamp_select,
                            (_f32(5), np.array([0, 1, 2, 1, 0], np.int32))),
      "mlp_train_step": (mlp_train_step, (mlp, _f32(5, 8, seed=6),
                                          np.eye(4, dtype=np.float32)[
                                              [0, 1, 2, 3, 0]])),
      "attention": (attention, (_f32(1, 2, 4, 8), _f32(1, 2, 4, 8, seed=1),
                                _f32(1, 2, 4, 8, seed=2))),
      "layer_norm_gelu": (layer_norm_gelu, (_f32(3, 8), _f32(8, seed=1),
                                            _f32(8, seed=2))),
      "tuples_and_tokens": (tuples_and_tokens, (_f32(3),)),
      "large_constants": (large_constants, (_f32(2, 8),)),
      "nan_constants": (nan_constants, (_f32(6),)),
      "checkpoint_grad": (custom_jvp_and_checkpoint, (_f32(5),)),
      "pmap_collectives": (pmap_collectives, (_f32(1, 4),)),
      "host_callback": (host_callback, (_f32(3),)),
      "sharding_constraint": (sharding_constraint, (_f32(4, 2),)),
      "eig_nonsymmetric": (eig_nonsymmetric, (_f32(3, 3),)),
      "misc_unary": (misc_unary, (_f32(4), np.arange(-2, 2, dtype=np.int32))),
  }


def _header(kind):
  return ("// Generated by tools/gen/gen_xla_dumps.py (do not edit).\n"
          f"// {kind}\n"
          f"// jax {jax.__version__}, jaxlib {jaxlib.__version__}, "
          f"numpy {np.__version__}, ml_dtypes {ml_dtypes.__version__}, "
          f"python {sys.version.split()[0]}, backend cpu, x64 enabled.\n")


def _print_options():
  options = _hlo.HloPrintOptions()
  options.print_large_constants = True
  return options


def _write(path, text):
  if len(text) > MAX_FILE_BYTES:
    print(f"skipped {path}: {len(text)} bytes", file=sys.stderr)
    return False
  with open(path, "w") as f:
    f.write(text)
  return True


def main():
  parser = argparse.ArgumentParser(description=__doc__)
  parser.add_argument("--out", default="compiler/text/xla_dumps")
  args = parser.parse_args()
  os.makedirs(args.out, exist_ok=True)
  failed = []
  for name, (fn, fn_args) in _programs().items():
    try:
      lowered = jax.jit(fn).lower(*fn_args)
      unoptimized = lowered.as_text(dialect="hlo")
      modules = lowered.compile().runtime_executable().hlo_modules()
    except Exception as e:  # pylint: disable=broad-except
      print(f"FAILED {name}: {type(e).__name__}: {e}", file=sys.stderr)
      failed.append(name)
      continue
    optimized = modules[0].to_string(_print_options())
    _write(os.path.join(args.out, name + ".hlo"),
           _header("Unoptimized: lower().as_text(dialect='hlo')") +
           unoptimized)
    _write(os.path.join(args.out, name + ".opt.hlo"),
           _header("Optimized for CPU: compile(), HloModule.to_string("
                   "print_large_constants=True)") + optimized)
  if failed:
    sys.exit(f"{len(failed)} programs failed: {failed}")


if __name__ == "__main__":
  main()
