#!/usr/bin/env python3
"""Fetches the PJRT C API headers and XLA's CPU PJRT plugin from PyPI.

Usage: fetch_pjrt.py [--cache=DIR] [--dest=DIR]

Both come out of pinned wheels, checked against their sha256 before
anything is extracted, and are cached under DIR (default
${XDG_CACHE_HOME:-~/.cache}/kiln/pjrt), so a second run downloads nothing:

  - tensorflow-cpu==2.21.0 ships the PJRT C API headers under
    tensorflow/include/xla/pjrt/c/. Only pjrt_c_api.h and the extension
    headers that need nothing but it are extracted (the wheel is 274 MB; it
    is deleted once the headers are out).
  - lammps-jax-pjrt-cpu==0.11.2 ships XLA's own CPU PJRT plugin,
    pjrt_c_api_cpu_plugin.so: Kiln's pjrt tests and XLA's scoreboard run on it.

Then --dest (default third_party/pjrt of this checkout) gets include/ (a copy
of the headers) and lib/xla_cpu_plugin.so (a link into the cache): the
@pjrt_c_api repository of WORKSPACE. Idempotent. Exit status 1 when a
download or a checksum fails; tools/setup.sh then goes on without the pjrt
backend (its tests say they were skipped and why).
"""

import argparse
import hashlib
import os
import shutil
import sys
import tempfile
import urllib.request
import zipfile

_FILES = "https://files.pythonhosted.org/packages"

# name: (url, sha256, {member in the wheel: path under the cache entry}).
_HEADER_DIR = "tensorflow/include/xla/pjrt/c/"
_HEADERS = [
    "pjrt_c_api.h",
    "pjrt_c_api_ffi_extension.h",
    "pjrt_c_api_layouts_extension.h",
    "pjrt_c_api_memory_descriptions_extension.h",
    "pjrt_c_api_phase_compile_extension.h",
    "pjrt_c_api_stream_extension.h",
    "pjrt_c_api_tpu_topology_extension.h",
]
WHEELS = {
    "tensorflow-cpu-2.21.0": (
        _FILES + "/59/03/9a99555a762de8cd4a405efbd39a732d926d8e58791441889560"
        "b7675b3e/tensorflow_cpu-2.21.0-cp311-cp311-manylinux_2_27_x86_64.whl",
        "2b847d217b02ee7731ed91431daf3250daa0196c3c94614d23be27232e6e5b6c",
        {_HEADER_DIR + h: "include/xla/pjrt/c/" + h for h in _HEADERS},
    ),
    "lammps-jax-pjrt-cpu-0.11.2": (
        _FILES + "/e5/90/f04e5ea9e56f01965b4cd56bc3cf4801a563cd47b74d4ded578"
        "0f19c3a7c/lammps_jax_pjrt_cpu-0.11.2-py3-none-manylinux_2_27_x86_64"
        ".whl",
        "1319390d948b39f69f7dade496b7c385149d9ca6097a6b62114da113216d9ad1",
        {"lammps_jax_pjrt_cpu/pjrt_c_api_cpu_plugin.so":
         "lib/pjrt_c_api_cpu_plugin.so"},
    ),
}


def sha256_of(path):
    digest = hashlib.sha256()
    with open(path, "rb") as data:
        for block in iter(lambda: data.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fetch(name, cache):
    """Returns the cache entry of wheel `name`, extracting it if needed."""
    url, sha256, members = WHEELS[name]
    entry = os.path.join(cache, name)
    stamp = os.path.join(entry, ".complete")
    if os.path.exists(stamp):
        return entry
    os.makedirs(cache, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache) as scratch:
        wheel = os.path.join(scratch, "wheel.whl")
        print(f"fetch_pjrt: downloading {url.rsplit('/', 1)[1]}",
              file=sys.stderr)
        with urllib.request.urlopen(url, timeout=120) as response, \
                open(wheel, "wb") as out:
            shutil.copyfileobj(response, out, 1 << 20)
        actual = sha256_of(wheel)
        if actual != sha256:
            raise ValueError(f"{name}: sha256 {actual}, expected {sha256}")
        staged = os.path.join(scratch, "entry")
        with zipfile.ZipFile(wheel) as archive:
            for member, target in members.items():
                path = os.path.join(staged, target)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with archive.open(member) as src, open(path, "wb") as dst:
                    shutil.copyfileobj(src, dst, 1 << 20)
        if os.path.exists(entry):
            shutil.rmtree(entry)
        os.rename(staged, entry)
    with open(stamp, "w", encoding="utf-8") as out:
        out.write(sha256 + "\n")
    return entry


def install(headers, plugin, dest):
    """Fills dest/include (a copy) and dest/lib (a link to the plugin)."""
    include = os.path.join(dest, "include")
    if os.path.exists(include):
        shutil.rmtree(include)
    shutil.copytree(os.path.join(headers, "include"), include)
    lib = os.path.join(dest, "lib")
    os.makedirs(lib, exist_ok=True)
    link = os.path.join(lib, "xla_cpu_plugin.so")
    target = os.path.join(plugin, "lib", "pjrt_c_api_cpu_plugin.so")
    if os.path.islink(link) or os.path.exists(link):
        if os.path.realpath(link) == os.path.realpath(target):
            return
        os.remove(link)
    os.symlink(target, link)


def main(argv):
    default_cache = os.path.join(
        os.environ.get("XDG_CACHE_HOME",
                       os.path.join(os.path.expanduser("~"), ".cache")),
        "kiln", "pjrt")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cache", default=default_cache)
    parser.add_argument("--dest", default=os.path.join(root, "third_party",
                                                       "pjrt"))
    args = parser.parse_args(argv[1:])
    try:
        headers = fetch("tensorflow-cpu-2.21.0", args.cache)
        plugin = fetch("lammps-jax-pjrt-cpu-0.11.2", args.cache)
        install(headers, plugin, args.dest)
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as error:
        print(f"fetch_pjrt: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
