#!/usr/bin/python3
"""The Python module's overhead (issue 19): the same analyses called from Python and timed
in C++, in one run.

For each case the model is run N times through jointdyn.analyze; the C++ time is the
analysis' own wall time (result["wall_seconds"], measured inside RunXxx), the Python time
the whole call (reading the model, options, the run, converting the result to numpy).
Prints both medians and the overhead (Python / C++ - 1); the goal is under 5 % for runs
over 10 ms. The overhead is the copy of the result into numpy arrays: it matters when the
computation per value is as cheap as that copy (a Coulomb point: 11 values per sample).

The per-step events: the transient and multibody runs again with a callback that receives
every event (it takes the GIL and builds a dict per sample), against the same call without
one: the cost per sample and the ratio.

    PYTHONPATH=build/python /usr/bin/python3 bench/python_overhead.py [N]
"""
import pathlib
import statistics
import sys
import time

import yaml

import jointdyn

SOURCE = pathlib.Path(__file__).resolve().parents[1]


def cases():
    hysteresis = {"analysis": "hysteresis",
                  "law": {"type": "coulomb", "dim": 2, "c1": 1e11, "mu": 0.3},
                  "normal": {"pressure": 1e6},
                  "path": {"type": "sinusoid", "amplitude": 1e-5, "frequency": 1.0,
                           "cycles": 2000}}
    iwan = dict(hysteresis, law={"type": "iwan_uniform", "k_t": 2.0e7, "mu": 0.3,
                                 "elements": 100},
                normal={"pressure": 1000.0}, path={"type": "sinusoid", "amplitude": 2e-5,
                                                   "frequency": 1.0, "cycles": 200})
    harmonic = yaml.safe_load((SOURCE / "examples/harmonic/jenkins_sdof.yaml").read_text())
    transient = yaml.safe_load((SOURCE / "examples/transient/den_hartog_coulomb.yaml").read_text())
    return [("hysteresis, Coulomb 2D, 2000 cycles", hysteresis),
            ("hysteresis, Iwan 100 Jenkins elements, 200 cycles", iwan),
            ("harmonic balance, Jenkins SDOF curves", harmonic),
            ("transient, Den Hartog Coulomb oscillator", transient)]


def callback_cases():
    transient = yaml.safe_load((SOURCE / "examples/transient/den_hartog_coulomb.yaml").read_text())
    crank = yaml.safe_load((SOURCE / "examples/multibody/slider_crank.yaml").read_text())
    crank["output"]["frames"] = 0
    return [("transient, Den Hartog Coulomb oscillator", transient),
            ("multibody, slider-crank", crank)]


def median_call(model, repeats, progress=None):
    times, samples = [], 0
    for _ in range(repeats):
        start = time.perf_counter()
        result = jointdyn.analyze(model, progress)
        times.append(time.perf_counter() - start)
        assert result["ok"], result["message"]
        samples = len(result["samples"])
    return statistics.median(times), samples


def callbacks(repeats):
    for name, spec in callback_cases():
        model = jointdyn.Model(spec, name=name)
        events = []
        plain, samples = median_call(model, repeats)
        with_callback, _ = median_call(model, repeats, events.append)
        print(f"{name:45s} without callback {plain * 1e3:8.2f} ms, with {with_callback * 1e3:8.2f} ms"
              f" ({samples} samples): {1e6 * (with_callback - plain) / samples:5.2f} us per sample, "
              f"ratio {with_callback / plain:5.3f}")


def main(repeats):
    for name, spec in cases():
        model = jointdyn.Model(spec, name=name)
        python, cpp = [], []
        for _ in range(repeats):
            start = time.perf_counter()
            result = jointdyn.analyze(model)
            python.append(time.perf_counter() - start)
            cpp.append(result["wall_seconds"])
            assert result["ok"], result["message"]
        p, c = statistics.median(python), statistics.median(cpp)
        print(f"{name:45s} C++ {c * 1e3:8.2f} ms, Python {p * 1e3:8.2f} ms, "
              f"overhead {100.0 * (p / c - 1.0):5.1f} %")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
    callbacks(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
