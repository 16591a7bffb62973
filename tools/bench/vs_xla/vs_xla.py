"""Kiln's cpu backend against XLA's CPU backend on the same workloads.

Each workload is a JAX function. JAX lowers it to HLO text, which Kiln
runs with `kiln bench --backend=cpu --json` on the same inputs (.npy
files); XLA runs the compiled function in this process. Rounds interleave
the two sides, each round taking the median of --runs runs, and the table
reports the median over rounds. Both sides are pinned to the same cores
(--cores, taskset / sched_setaffinity). Run through run.sh, which makes
the venv with the pinned jaxlib.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kiln")
    parser.add_argument("--write_hlo", metavar="DIR",
                        help="only write each workload's HLO (JAX's "
                        "lowering) as DIR/<slug>.hlo, for pjrt.sh, and exit")
    parser.add_argument("--cores", default="0",
                        help="cores both sides run on (taskset list)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", default="", help="regex of workloads")
    parser.add_argument("--timeout", type=float, default=120,
                        help="seconds per kiln bench call")
    return parser.parse_args()


def cores_list(text):
    cores = set()
    for part in text.split(","):
        if "-" in part:
            a, b = part.split("-")
            cores.update(range(int(a), int(b) + 1))
        else:
            cores.add(int(part))
    return sorted(cores)


ARGS = parse_args()
CORES = cores_list(ARGS.cores)
os.sched_setaffinity(0, CORES)
# XLA's intra-op pool takes as many threads as the cores it may use.
os.environ.setdefault(
    "XLA_FLAGS",
    f"--xla_cpu_multi_thread_eigen={'true' if len(CORES) > 1 else 'false'}")

import jax  # noqa: E402 (after the affinity and XLA_FLAGS are set)
import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402

jax.config.update("jax_platforms", "cpu")
RNG = np.random.default_rng(0)


def normal(*shape, dtype=np.float32):
    return RNG.standard_normal(shape).astype(dtype)


def elementwise_chain(x, y):
    return jnp.tanh((x * y + x) * 0.5 - y) * y + 1.0


def layer_norm(x, g, b):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return (x - mean) * lax.rsqrt(var + 1e-5) * g + b


def attention(q, k, v):
    s = q @ k.T / np.sqrt(q.shape[-1]).astype(np.float32)
    return jax.nn.softmax(s, axis=-1) @ v


def mlp_loss(params, x):
    h = x
    for w in params[:-1]:
        h = jnp.maximum(h @ w, 0)
    return jnp.sum((h @ params[-1]) ** 2)


def mlp_forward_backward(w1, w2, w3, x):
    return jax.grad(mlp_loss)((w1, w2, w3), x)


def conv3x3(x, w):
    return lax.conv_general_dilated(x, w, (1, 1), "SAME",
                                    dimension_numbers=("NCHW", "OIHW", "NCHW"))


def rnn(h, w, xs):
    def step(i, h):
        return jnp.tanh(h @ w + xs[i])
    return lax.fori_loop(0, xs.shape[0], step, h)


def scatter_add(base, idx, vals):
    return base.at[idx].add(vals)


WORKLOADS = [
    ("elementwise 16M f32", elementwise_chain,
     lambda: (normal(1 << 24), normal(1 << 24))),
    ("elementwise add 16M f32", lambda x, y: x + y,
     lambda: (normal(1 << 24), normal(1 << 24))),
    ("softmax 1024x1024", lambda x: jax.nn.softmax(x, axis=-1),
     lambda: (normal(1024, 1024),)),
    ("layer norm 1024x1024", layer_norm,
     lambda: (normal(1024, 1024), normal(1024), normal(1024))),
    ("sum 16M f32", jnp.sum, lambda: (normal(1 << 24),)),
    ("dot 512^3 f32", jnp.matmul, lambda: (normal(512, 512),
                                           normal(512, 512))),
    ("dot 2048^3 f32", jnp.matmul, lambda: (normal(2048, 2048),
                                            normal(2048, 2048))),
    ("dot 512^3 bf16", jnp.matmul,
     lambda: (normal(512, 512, dtype=jnp.bfloat16),
              normal(512, 512, dtype=jnp.bfloat16))),
    ("conv 3x3 1x64x56x56", conv3x3,
     lambda: (normal(1, 64, 56, 56), normal(64, 64, 3, 3))),
    ("attention 512x64", attention,
     lambda: (normal(512, 64), normal(512, 64), normal(512, 64))),
    ("mlp fwd+bwd 3 layers", mlp_forward_backward,
     lambda: (normal(256, 512), normal(512, 512), normal(512, 10),
              normal(128, 256))),
    ("transpose 4096x4096", lambda x: x.T.copy() + 0,
     lambda: (normal(4096, 4096),)),
    ("embedding gather", lambda t, i: t[i],
     lambda: (normal(50000, 128),
              RNG.integers(0, 50000, 4096).astype(np.int32))),
    ("scatter-add", scatter_add,
     lambda: (np.zeros((10000, 64), np.float32),
              RNG.integers(0, 10000, 4096).astype(np.int32),
              normal(4096, 64))),
    ("sort 1M f32", jnp.sort, lambda: (normal(1 << 20),)),
    ("cumsum 1024x1024", lambda x: jnp.cumsum(x, axis=1),
     lambda: (normal(1024, 1024),)),
    ("while-loop rnn", rnn,
     lambda: (normal(64, 256), normal(256, 256) * 0.05,
              normal(100, 64, 256))),
]


def time_xla(compiled, args, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        jax.block_until_ready(compiled(*args))
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def kiln_bench(hlo_path, arg_paths, runs):
    command = ["taskset", "-c", ARGS.cores, ARGS.kiln, "bench",
               "--backend=cpu", "--json", f"--runs={runs}",
               "--args=" + ";".join("@" + p for p in arg_paths), hlo_path]
    try:
        out = subprocess.run(command, capture_output=True, text=True,
                             timeout=ARGS.timeout)
    except subprocess.TimeoutExpired:
        return None, "timeout"
    if out.returncode != 0:
        return None, out.stderr.strip().splitlines()[-1][:80]
    return json.loads(out.stdout), ""


def kiln_stats(hlo_path):
    out = subprocess.run([ARGS.kiln, "compile", "--backend=cpu",
                          "--emit=stats", hlo_path],
                         capture_output=True, text=True)
    native = re.search(r"native instructions: (\d+)", out.stdout)
    fallback = re.search(r"fallback instructions: (\d+)", out.stdout)
    ops = re.findall(r"^  fallback (\S+): \d+", out.stdout, re.MULTILINE)
    if not native or not fallback:
        return "?"
    text = f"{native.group(1)}/{fallback.group(1)}"
    return text + (f" ({','.join(sorted(set(ops)))})" if ops else "")


# Bytes each memory-bound workload moves (inputs read, result written),
# for its bandwidth beside memcpy's.
MEMORY_BOUND_BYTES = {"elementwise add 16M f32": 3 * 4 * (1 << 24)}
# The dot workloads measured beside Eigen's own GEMM: name -> N.
EIGEN_PEERS = {"dot 512^3 f32": 512, "dot 2048^3 f32": 2048}


def eigen_gemm_binary(workdir):
    """Compiles eigen_gemm.cc as Kiln's host library is compiled."""
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                          "eigen_gemm.cc")
    binary = os.path.join(workdir, "eigen_gemm")
    subprocess.run(["g++", "-std=c++17", "-O3", "-march=native", "-fopenmp",
                    "-DNDEBUG", "-I/usr/include/eigen3", source, "-o",
                    binary], check=True)
    return binary


def eigen_gemm(binary, n, runs):
    env = dict(os.environ, OMP_NUM_THREADS=str(len(CORES)))
    out = subprocess.run(["taskset", "-c", ARGS.cores, binary, str(n),
                          str(runs)], capture_output=True, text=True,
                         check=True, env=env)
    return float(out.stdout.split()[0])


def memcpy_bandwidth():
    a = np.ones(1 << 26, np.uint8)
    b = np.empty_like(a)
    best = min(_timed(lambda: np.copyto(b, a)) for _ in range(10))
    return 2 * a.nbytes / best / 1e9


def _timed(fn):
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def slug_of(name):
    return re.sub(r"[^a-z0-9]+", "_", name.lower())


def write_hlo(directory):
    """The workloads as HLO files (the inputs of pjrt.sh, no JAX there)."""
    os.makedirs(directory, exist_ok=True)
    for name, fn, make_args in WORKLOADS:
        hlo = jax.jit(fn).lower(*make_args()).as_text(dialect="hlo")
        with open(os.path.join(directory, slug_of(name) + ".hlo"), "w") as f:
            f.write(f"// {name}: written by vs_xla.py --write_hlo "
                    f"(jax {jax.__version__})\n{hlo}")
    return 0


def main():
    if ARGS.write_hlo:
        return write_hlo(ARGS.write_hlo)
    if not ARGS.kiln:
        sys.exit("vs_xla.py: --kiln is required")
    workdir = tempfile.mkdtemp(prefix="kiln-vs-xla.")
    print(f"cores {ARGS.cores}; {ARGS.rounds} rounds x {ARGS.runs} runs; "
          f"jax {jax.__version__}; files in {workdir}", flush=True)
    rows = []
    eigen = {}  # name -> median seconds over rounds of Eigen's GEMM.
    gemm = eigen_gemm_binary(workdir)
    for name, fn, make_args in WORKLOADS:
        if ARGS.only and not re.search(ARGS.only, name):
            continue
        args = make_args()
        slug = slug_of(name)
        jitted = jax.jit(fn)
        hlo = jitted.lower(*args).as_text(dialect="hlo")
        hlo_path = os.path.join(workdir, slug + ".hlo")
        with open(hlo_path, "w") as f:
            f.write(hlo)
        arg_paths = []
        for i, a in enumerate(args):
            path = os.path.join(workdir, f"{slug}.{i}.npy")
            np.save(path, np.asarray(a))
            arg_paths.append(path)
        start = time.perf_counter()
        compiled = jitted.lower(*args).compile()
        xla_compile = time.perf_counter() - start
        xla_times, kiln_times, kiln_compile, error = [], [], None, ""
        eigen_times = []
        for _ in range(ARGS.rounds):
            xla_times.append(time_xla(compiled, args, ARGS.runs))
            if name in EIGEN_PEERS:
                eigen_times.append(
                    eigen_gemm(gemm, EIGEN_PEERS[name], ARGS.runs))
            result, error = kiln_bench(hlo_path, arg_paths, ARGS.runs)
            if result is None:
                break
            kiln_times.append(result["run_median_s"])
            kiln_compile = (result["compile_cold_s"], result["compile_warm_s"])
        xla = statistics.median(xla_times)
        kiln = statistics.median(kiln_times) if kiln_times else None
        if eigen_times:
            eigen[name] = statistics.median(eigen_times)
        rows.append((name, kiln, xla, kiln_compile, xla_compile,
                     kiln_stats(hlo_path), error))
        print(f"  {name}: kiln {kiln} s, xla {xla} s {error}", flush=True)

    bandwidth = memcpy_bandwidth()
    print()
    print(f"memcpy bandwidth (numpy copy, read+write): {bandwidth:.2f} GB/s")
    print()
    print("| workload | Kiln ms | XLA ms | speed vs XLA | Kiln compile "
          "cold/warm ms | XLA compile ms | native/fallback instructions |")
    print("|---|---|---|---|---|---|---|")
    ratios = []
    for name, kiln, xla, kiln_compile, xla_compile, stats, error in rows:
        if kiln is None:
            print(f"| {name} | {error} | {xla * 1e3:.3f} | - | - | "
                  f"{xla_compile * 1e3:.0f} | {stats} |")
            ratios.append(None)
            continue
        ratio = xla / kiln
        ratios.append(ratio)
        print(f"| {name} | {kiln * 1e3:.3f} | {xla * 1e3:.3f} | "
              f"{ratio:.2f}x | {kiln_compile[0] * 1e3:.0f}/"
              f"{kiln_compile[1] * 1e3:.1f} | {xla_compile * 1e3:.0f} | "
              f"{stats} |")
    print()
    for name, kiln, *_ in rows:
        if kiln is not None and name in MEMORY_BOUND_BYTES:
            rate = MEMORY_BOUND_BYTES[name] / kiln / 1e9
            print(f"{name}: Kiln {rate:.2f} GB/s, "
                  f"{100 * rate / bandwidth:.0f}% of memcpy's")
    for name, kiln, *_ in rows:
        if kiln is not None and name in eigen:
            print(f"{name}: Kiln {kiln * 1e3:.3f} ms, Eigen's GEMM "
                  f"{eigen[name] * 1e3:.3f} ms: Kiln at "
                  f"{100 * eigen[name] / kiln:.0f}% of Eigen's speed")
    measured = [r for r in ratios if r]
    if measured:
        geomean = float(np.exp(np.mean(np.log(measured))))
        print(f"\ngeometric mean speed vs XLA: {geomean:.3f}x over "
              f"{len(measured)} workloads ({len(ratios) - len(measured)} "
              "did not finish)")


if __name__ == "__main__":
    sys.exit(main())
