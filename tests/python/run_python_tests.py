#!/usr/bin/env python3
"""Installs the Python package into a virtual environment in the build tree
and runs its pytest suite (CTest label `python`).

Exit status: pytest's (0 all passed; anything else fails the CTest test),
1 for a failed step before it, and 77, which CTest reports as a skip, only
when pip cannot reach the package index and the environment lacks a package
(nothing was tested, and nothing in the project is at fault).
"""

import argparse
import os
import pathlib
import subprocess
import sys
import tempfile
import venv

SKIP = 77
# Build requirements are installed into the environment and the package is
# built without pip's isolated build environment, so a rerun needs no
# download and reuses the CMake build folder.
REQUIREMENTS = ["numpy", "ml_dtypes>=0.5", "pytest", "scikit-build-core>=0.10", "nanobind>=2.0"]
IMPORTS = ["numpy", "ml_dtypes", "pytest", "scikit_build_core", "nanobind"]


def run(command, **kwargs):
    print("+", " ".join(str(c) for c in command), flush=True)
    return subprocess.run([str(c) for c in command], check=False, **kwargs).returncode


def index_reachable(python):
    """Whether pip can download anything at all (here: pip itself)."""
    with tempfile.TemporaryDirectory() as folder:
        return run([python, "-m", "pip", "download", "--quiet", "--no-deps",
                    "--disable-pip-version-check", "--dest", folder, "pip"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--source", required=True, type=pathlib.Path, help="python/ folder")
    parser.add_argument("--work", required=True, type=pathlib.Path, help="build-tree folder")
    parser.add_argument("--cli", help="the minifloat tool, the scalar reference")
    parser.add_argument("--warnings-as-errors", action="store_true",
                        help="compile the binding with -Werror")
    parser.add_argument("--installed-kernels", default="",
                        help="prefix of an installed minifloat whose compiled kernels the "
                             "extension links (MINIFLOAT_PYTHON_INSTALLED_KERNELS); "
                             "without it the package build compiles them")
    args = parser.parse_args()

    env_dir = args.work / "venv"
    python = env_dir / "bin" / "python"
    if not python.exists():
        print(f"creating the virtual environment {env_dir}", flush=True)
        venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)

    have = run([python, "-c", "import " + ", ".join(IMPORTS)],
               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0
    if not have:
        if run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                *REQUIREMENTS]) != 0:
            if not index_reachable(python):
                print("SKIP: pip cannot reach the package index, so "
                      f"{', '.join(REQUIREMENTS)} could not be installed into {env_dir}; "
                      "the Python package was not tested", flush=True)
                return SKIP
            print("FAIL: pip install of the test requirements failed", flush=True)
            return 1

    build_dir = args.work / "package-build"
    if run([python, "-m", "pip", "install", "--disable-pip-version-check",
            "--no-build-isolation", "--force-reinstall", "--no-deps",
            "-C", f"build-dir={build_dir}",
            "-C", "cmake.define.MINIFLOAT_PYTHON_WARNINGS_AS_ERRORS="
                  + ("ON" if args.warnings_as_errors else "OFF"),
            "-C", "cmake.define.MINIFLOAT_PYTHON_INSTALLED_KERNELS=" + args.installed_kernels,
            args.source]) != 0:
        print("FAIL: pip install of the package failed", flush=True)
        return 1

    env = dict(os.environ)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    if args.cli:
        env["MINIFLOAT_CLI"] = args.cli
    # From the build tree, so that `import minifloat` is the installed package
    # and not the source folder.
    return run([python, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
                args.source / "tests"], cwd=args.work, env=env)


if __name__ == "__main__":
    sys.exit(main())
