"""Build script: only the compiled core; all metadata lives in pyproject.toml."""
import platform

from Cython.Build import cythonize
from setuptools import Extension, setup

# the search counts bits a lot (rank masks): the POPCNT instruction instead
# of a library call where the machine is x86-64 (every x86-64 CPU since 2008)
FLAGS = ["-O3"] + (["-mpopcnt"] if platform.machine().lower() in ("x86_64", "amd64") else [])

extensions = [
    Extension(
        "guandan_fast._core",
        ["src/guandan_fast/_core.pyx"],
        extra_compile_args=FLAGS,
    )
]

setup(
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
