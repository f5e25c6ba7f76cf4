"""`pip install .` (pyproject.toml, setup.py) into a folder, then jointdyn from there.

Run by ctest (python_pip_install) with PYTHONPATH=<build>/python and JOINTDYN_SOURCE_DIR:
setup.py reuses that CMake build folder (JOINTDYN_BUILD_DIR), so with the build up to date
nothing is compiled and the test takes seconds. No network: --no-index, --no-deps and
--no-build-isolation (Debian's setuptools and wheel).
"""
import importlib.util
import os
import pathlib
import subprocess
import sys

import pytest

# Debian's python3-pip (it brings python3-setuptools and python3-wheel); looked up, not
# imported (setuptools replaces distutils on import).
MISSING = [name for name in ("pip", "setuptools", "wheel") if not importlib.util.find_spec(name)]
pytestmark = pytest.mark.skipif(bool(MISSING), reason=f"no {', '.join(MISSING)}: "
                                "apt-get install python3-pip")

SOURCE = pathlib.Path(os.environ["JOINTDYN_SOURCE_DIR"])
# ctest's PYTHONPATH is <build>/python: the build folder is its parent.
BUILD = pathlib.Path(os.environ["PYTHONPATH"].split(os.pathsep)[0]).resolve().parent


def test_pip_install_target_then_import(tmp_path):
    target = tmp_path / "target"
    env = dict(os.environ, JOINTDYN_BUILD_DIR=str(BUILD), PIP_DISABLE_PIP_VERSION_CHECK="1")
    env.pop("PYTHONPATH")
    install = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-deps",
         "--no-index", "--no-cache-dir", "--target", str(target), str(SOURCE)],
        env=env, cwd=tmp_path, capture_output=True, text=True, timeout=1800)
    assert install.returncode == 0, install.stdout + install.stderr
    assert list((target / "jointdyn").glob("_jointdyn*.so"))
    assert (target / "jointdyn" / "__init__.py").exists()

    # Import from the target only (-s: not the user's site-packages; cwd: not the sources).
    script = ("import jointdyn, numpy as np\n"
              "print(jointdyn.__file__)\n"
              "law = {'type': 'coulomb', 'dim': 1, 'c1': 1e11, 'mu': 0.3}\n"
              "t = jointdyn.evaluate_law(law, np.linspace(0, 1e-5, 50), 1e6)['traction'][:, 0]\n"
              "print(len(jointdyn.laws()), t[-1])\n")
    run = subprocess.run([sys.executable, "-s", "-c", script], cwd=tmp_path,
                         env=dict(env, PYTHONPATH=str(target)),
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    module_file, figures = run.stdout.splitlines()
    assert pathlib.Path(module_file).is_relative_to(target)
    count, traction = figures.split()
    assert int(count) > 0
    assert abs(float(traction) - 0.3e6) < 1e-6 * 0.3e6  # sliding: mu * pressure
