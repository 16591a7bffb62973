"""kiln_pass_test: a pass's unit test, `<name>.cc`, with the dependencies
every pass test uses (the IR, the text format, the pass framework, the
evaluator test helpers, pass_test_util, Abseil and gtest_main)."""

_COMMON_DEPS = [
    "//passes:pass_test_util",
    "//compiler/evaluator/testing:eval_test_util",
    "//compiler/ir",
    "//compiler/ir:literal",
    "//compiler/pass",
    "//compiler/text",
    "@com_google_absl//:absl",
    "@com_google_googletest//:gtest_main",
]

def kiln_pass_test(name, deps = [], **kwargs):
    native.cc_test(
        name = name,
        srcs = [name + ".cc"],
        deps = deps + [d for d in _COMMON_DEPS if d not in deps],
        **kwargs
    )
