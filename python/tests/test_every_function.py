"""Every public callable of every trnsci Python package, called with wrong dtypes, shapes, ranks and
sizes: each call returns or raises a Python exception — never crashes the interpreter, never hangs — and an
exception is the suite's (trncore.Error, whose message names the function) or the TypeError pybind11 and
the keyword check raise for a wrong argument count or type.

Each package runs in a child interpreter that prints the call it is about to make, so a crash names the
function and the arguments that caused it.
"""
import os
import subprocess
import sys

import pytest

PACKAGES = ["trncore", "trnblas", "trnfft", "trnrand", "trnsolver", "trnsparse", "trntensor"]

CHILD = r'''
import importlib, inspect, sys, warnings
import numpy as np
import trncore

name = sys.argv[1]
module = importlib.import_module(name)
public = getattr(module, "__all__", [n for n in dir(module) if not n.startswith("_")])

BAD = [
    (),
    (None,),
    (np.array(["a", "b"]),),
    (np.zeros((2, 2, 2)),),
    (np.zeros((2, 3)), np.zeros((4, 5))),
    (np.zeros((2, 2), dtype=np.float16), np.zeros((2, 2), dtype=np.float16)),
    (np.zeros(3, dtype=object),),
    (np.zeros((3, 3)), np.zeros(7)),
    (np.zeros((0, 0)), np.zeros(0)),
    (-1,),
    (-1, -1),
    (2 ** 62, 2 ** 62),
    ("", ""),
    (1.0, np.zeros((2, 3)), np.zeros((4, 5))),
    (1.0, np.zeros((2, 2), dtype=np.complex64), np.zeros((2, 2), dtype=np.float32)),
]
KWARGS = [{}, {"backend": "gpu"}, {"mode": "no-such-mode"}, {"no_such_keyword": 1}, {"threads": -3}]

allowed = (trncore.Error, TypeError)
bad = []
calls = 0
for attr in sorted(public):
    obj = getattr(module, attr)
    if not callable(obj) or attr in ("set_backend",):
        continue
    for args in BAD:
        for kwargs in KWARGS:
            print(f"{name}.{attr}{args!r:.120} {kwargs}", flush=True)
            calls += 1
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    obj(*args, **kwargs)
            except allowed as e:
                if isinstance(e, trncore.Error) and not str(e):
                    bad.append(f"{name}.{attr}{args!r:.80} {kwargs}: empty message")
            except Exception as e:  # noqa: BLE001 - the point is to classify everything else
                bad.append(f"{name}.{attr}{args!r:.80} {kwargs}: {type(e).__name__}: {str(e)[:200]}")
print(f"DONE {calls} calls", flush=True)
for line in bad:
    print("UNEXPECTED", line)
sys.exit(1 if bad else 0)
'''


@pytest.mark.parametrize("package", PACKAGES)
def test_bad_input_never_crashes(package):
    try:
        done = subprocess.run([sys.executable, "-c", CHILD, package], capture_output=True, text=True,
                              timeout=240, env=dict(os.environ))
    except subprocess.TimeoutExpired as e:
        last = (e.stdout or b"").decode(errors="replace").strip().splitlines()[-1:] if e.stdout else []
        pytest.fail(f"{package}: a call hung (no return in 240 s); last call: {last}")
    lines = done.stdout.strip().splitlines()
    if done.returncode < 0 or not any(l.startswith("DONE") for l in lines):
        last = [l for l in lines if not l.startswith("UNEXPECTED")][-1:] or ["(none)"]
        pytest.fail(f"{package}: the interpreter died (status {done.returncode}) during {last[0]}\n"
                    f"{done.stderr[-2000:]}")
    unexpected = [l for l in lines if l.startswith("UNEXPECTED")]
    assert not unexpected, "\n".join(unexpected[:40])
