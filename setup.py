"""pip install . : the Python module jointdyn, built by the project's CMake.

build_ext configures (only a folder without a CMakeCache.txt) and builds the CMake target
_jointdyn, then copies the built _jointdyn*.so next to python/jointdyn/__init__.py in the
wheel's package jointdyn. The CMake build folder is $JOINTDYN_BUILD_DIR if set, else
build-pip/ (so a developer's build/ is left alone). setuptools' own intermediate files
(build_base, egg-info) go to its subfolder setuptools/, not to a build/ and an egg-info of
their own in the repository root (setuptools' default build/ would mix with CMake's).
"""
import os
import pathlib
import re
import subprocess
import sys
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent
BUILD_DIR = pathlib.Path(os.environ.get("JOINTDYN_BUILD_DIR") or ROOT / "build-pip").resolve()
SETUPTOOLS_DIR = BUILD_DIR / "setuptools"


def cmake_project_version():
    """The VERSION of project(jointdyn ...) in the top CMakeLists.txt."""
    text = (ROOT / "CMakeLists.txt").read_text()
    match = re.search(r"project\(\s*jointdyn\s+VERSION\s+([0-9.]+)", text)
    if not match:
        sys.exit("setup.py: no project(jointdyn VERSION ...) in CMakeLists.txt")
    return match.group(1)


def run(command):
    """Runs a command (its output goes to pip's log); a failure stops with a clear message."""
    print("setup.py:", " ".join(command), flush=True)
    try:
        subprocess.run(command, cwd=ROOT, check=True)
    except FileNotFoundError:
        sys.exit(f"setup.py: {command[0]} not found (Debian: apt-get install cmake "
                 f"ninja-build)")
    except subprocess.CalledProcessError as error:
        sys.exit(f"setup.py: building the module with CMake failed (exit status "
                 f"{error.returncode}) in {BUILD_DIR}: {' '.join(command)}\n"
                 f"see CMake's and the compiler's messages above")


class CMakeBuild(build_ext):
    """Builds the extension jointdyn._jointdyn with CMake instead of setuptools' compiler."""

    def build_extension(self, ext):
        # Configure only a new folder: an existing one (e.g. a developer's build/ given as
        # JOINTDYN_BUILD_DIR) keeps its options, and `cmake --build` reconfigures it if needed.
        if not (BUILD_DIR / "CMakeCache.txt").exists():
            run(["cmake", "-S", str(ROOT), "-B", str(BUILD_DIR), "-G", "Ninja",
                 "-DCMAKE_BUILD_TYPE=Release", "-DJOINTDYN_BUILD_TESTS=OFF"])
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        run(["cmake", "--build", str(BUILD_DIR), "--target", "_jointdyn", "-j", jobs])

        # The module CMake built for this interpreter (the name carries its ABI tag).
        package = BUILD_DIR / "python" / "jointdyn"
        built = package / ("_jointdyn" + sysconfig.get_config_var("EXT_SUFFIX"))
        if not built.exists():
            found = sorted(p.name for p in package.glob("_jointdyn*.so"))
            sys.exit(f"setup.py: CMake built no {built.name} in {built.parent} (found: "
                     f"{', '.join(found) or 'none'}); the build folder's Python3_EXECUTABLE "
                     f"must be this interpreter, {sys.executable}")
        target = pathlib.Path(self.get_ext_fullpath(ext.name))  # in the wheel's jointdyn/
        target.parent.mkdir(parents=True, exist_ok=True)
        self.copy_file(str(built), str(target))


SETUPTOOLS_DIR.mkdir(parents=True, exist_ok=True)  # egg_info wants its folder to exist
setup(
    version=cmake_project_version(),
    packages=["jointdyn"],
    package_dir={"jointdyn": "python/jointdyn"},  # __init__.py; the .so comes from CMake
    ext_modules=[Extension("jointdyn._jointdyn", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": str(SETUPTOOLS_DIR)},
             "egg_info": {"egg_base": str(SETUPTOOLS_DIR)}},
    zip_safe=False,
)
