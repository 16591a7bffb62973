"""local_defines of the libraries holding seeded-bug hooks (seeded_bugs.h)."""

SEEDED_BUGS_DEFINES = select({
    "//compiler/util:seeded_bugs_enabled": ["KILN_SEEDED_BUGS"],
    "//conditions:default": [],
})
