"""Build configuration beyond pyproject.toml: the optional C extension.

``termscribe._speedups`` is optional: without a C compiler the build goes on
and the package uses the pure-Python code it mirrors (same results, slower
on floods of C1 controls).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "termscribe._speedups",
            sources=[
                "src/termscribe/_speedups.c",
                "src/termscribe/_speedups_cells.c",
                "src/termscribe/_speedups_lines.c",
            ],
            depends=["src/termscribe/_speedups.h"],
            optional=True,
        )
    ]
)
