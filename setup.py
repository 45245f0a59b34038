"""Build script: only the compiled core; all metadata lives in pyproject.toml."""
import glob
import os
import platform
import sys

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


def _x86_64_target():
    """Is the build for x86-64 (not a cross build for another architecture)?"""
    if sys.platform == "darwin":
        # universal2 / arm64 wheels are cross builds on an x86-64 runner
        return os.environ.get("ARCHFLAGS", "-arch x86_64").split()[-1] == "x86_64" \
            and "arm64" not in os.environ.get("ARCHFLAGS", "")
    return platform.machine().lower() in ("x86_64", "amd64")


class BuildExt(build_ext):
    """Compiler flags by compiler (gf_port.h holds the rest of the portability)."""

    def build_extensions(self):
        if self.compiler.compiler_type == "msvc":
            flags = ["/O2"]
        else:
            # the search counts bits a lot (rank masks): the POPCNT
            # instruction instead of a library call on x86-64 (every x86-64
            # CPU since 2008)
            flags = ["-O3"] + (["-mpopcnt"] if _x86_64_target() else [])
        for ext in self.extensions:
            ext.extra_compile_args = flags + list(ext.extra_compile_args or [])
        super().build_extensions()


extensions = [
    Extension(
        "guandan_fast._core",
        ["src/guandan_fast/_core.pyx"],
        depends=sorted(glob.glob("src/guandan_fast/*.pxi") + glob.glob("src/guandan_fast/*.h")),
    )
]

setup(
    cmdclass={"build_ext": BuildExt},
    ext_modules=cythonize(
        extensions,
        compiler_directives={
            "language_level": 3,
            "boundscheck": False,
            "wraparound": False,
            "initializedcheck": False,
            "cdivision": True,
        },
    ),
)
