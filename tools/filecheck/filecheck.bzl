"""filecheck_tests: one sh_test per FileCheck test file (LLVM lit style).

Each file's `// RUN:` lines are the single source of truth for how it is
tested; the runner (run_filecheck.sh) executes them with `kiln`, `FileCheck`
and `not` available. A file `dce.hlo` becomes the test `:dce`.
"""

def filecheck_tests(name, srcs, kiln = "//tools:kiln", size = "small", tags = []):
    tests = []
    for src in srcs:
        test_name = src.rsplit(".", 1)[0].replace("/", "_")
        native.sh_test(
            name = test_name,
            srcs = ["//tools/filecheck:run_filecheck.sh"],
            args = ["$(location %s)" % kiln, "$(location %s)" % src],
            data = [kiln, src],
            size = size,
            tags = tags,
        )
        tests.append(test_name)
    native.test_suite(name = name, tests = tests)
