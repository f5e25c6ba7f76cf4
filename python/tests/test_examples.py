"""The Python example scripts (examples/python/) run as tests, with what each must show."""
import importlib.util
import os
import pathlib

import numpy as np

SOURCE = pathlib.Path(os.environ["JOINTDYN_SOURCE_DIR"])


def example(name):
    spec = importlib.util.spec_from_file_location(name, SOURCE / "examples/python" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_hysteresis_of_every_law(tmp_path):
    dissipation = example("hysteresis_of_every_law").main(tmp_path)
    assert (tmp_path / "hysteresis_of_every_law.png").stat().st_size > 10_000
    assert len(dissipation) >= 14
    # Every law dissipates over a closed cycle, the elastic spring nothing (rounding).
    scale = max(abs(d) for d in dissipation.values())
    assert all(d >= -1e-9 * scale for d in dissipation.values()), dissipation
    assert abs(dissipation["elastic"]) <= 1e-12 * scale
    for law in ("coulomb", "dahl", "valanis", "bouc_wen", "masing", "lugre", "iwan_uniform"):
        assert dissipation[law] > 0.0, law


def test_bolted_oscillator_frf(tmp_path):
    peaks = example("bolted_oscillator_frf").main(tmp_path)
    assert (tmp_path / "bolted_oscillator_frf.png").stat().st_size > 10_000
    levels, frequencies, amplitudes = map(np.array, zip(*peaks))
    # Seed 001, fig. 14: the resonance moves down and the receptance falls as the level
    # grows (more microslip: softer and more damped).
    assert np.all(np.diff(frequencies) < 0.0)
    assert np.all(np.diff(amplitudes / levels) < 0.0)


def test_friction_bar_mu_sweep(tmp_path):
    runs = example("friction_bar_mu_sweep").main(tmp_path)
    assert (tmp_path / "friction_bar_mu_sweep.png").stat().st_size > 10_000
    mus = sorted(runs)
    dissipation = [runs[mu]["energy"]["law_dissipation"] for mu in mus]
    deflection = [abs(runs[mu]["measure"][-1]) for mu in mus]
    # More friction: more energy dissipated in the joint, a stiffer joint (less deflection).
    assert all(d > 0.0 for d in dissipation)
    assert np.all(np.diff(dissipation) > 0.0)
    assert np.all(np.diff(deflection) < 0.0)
