"""Checks an installed set of trnsci Python packages: each imports from the install prefix (not the build
tree or the sources), reports the library version it was built from, and runs one small call.

Usage: python3 check_python_install.py <site-packages dir> <package>...
Run by the all-in-one build's trnsci.python.install test and the superbuild's packaging.python.installed.
"""
import importlib
import os
import sys

site, packages = os.path.realpath(sys.argv[1]), sys.argv[2:]
sys.path.insert(0, site)
import numpy as np  # noqa: E402

for name in ["trncore"] + [p for p in packages if p != "trncore"]:
    module = importlib.import_module(name)
    where = os.path.realpath(module.__file__)
    if not where.startswith(site + os.sep):
        sys.exit(f"{name} was imported from {where}, not from the install in {site}")
    ext = importlib.import_module(f"{name}._{name}")
    if not os.path.realpath(ext.__file__).startswith(site + os.sep):
        sys.exit(f"{name}._{name} was imported from {ext.__file__}, not from {site}")
    print(f"{name} {module.__version__} from {where}")

# One call through the installed extension and the exception translation.
import trncore  # noqa: E402

bits = trncore.encode(np.array([1.0, 3.0], dtype=np.float32), "bf16")
assert bits.tolist() == [0x3F80, 0x4040], bits
try:
    trncore.encode(np.ones(2), "no-such-format")
except trncore.InvalidArgument as e:
    assert "trncore.encode" in str(e)
else:
    sys.exit("trncore.encode accepted an unknown format")
print("installed Python packages OK:", ", ".join(["trncore"] + packages))
