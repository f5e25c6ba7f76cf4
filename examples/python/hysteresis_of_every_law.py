#!/usr/bin/python3
"""The hysteresis loop of every tangential law of jointdyn on one figure.

Each law is stepped along two cycles of a sinusoidal slip of its documented example
amplitude at its example pressure (docs/laws.md), with jointdyn.evaluate_law; the loops
are drawn normalized (slip / amplitude, traction / peak traction) so that laws in Pa and
in N share the axes. Writes OUT/hysteresis_of_every_law.png and prints the dissipated
energy per cycle of each law (the loop's area, in its own units).

    PYTHONPATH=build/python /usr/bin/python3 examples/python/hysteresis_of_every_law.py [OUT]
"""
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import yaml  # noqa: E402

import jointdyn  # noqa: E402


def main(out):
    out.mkdir(parents=True, exist_ok=True)
    fig, ax = plt.subplots(figsize=(8, 6))
    ax.set_prop_cycle(color=plt.cm.tab20(np.linspace(0.0, 1.0, 20)))
    results = {}
    phase = np.linspace(0.0, 4.0 * np.pi, 801)   # two cycles
    for law in jointdyn.laws():
        if law["kind"] != "tangential":
            continue
        params = yaml.safe_load(law["example"])
        params["type"] = law["type"]
        if law["has_dim"]:
            params["dim"] = 1
        amplitude = law["example_slip"]
        slip = amplitude * np.sin(phase)
        dt = (phase[1] - phase[0]) / (2.0 * np.pi)  # one cycle per second
        r = jointdyn.evaluate_law(params, slip, law["example_pressure"], dt)
        tau = r["traction"][:, 0]
        second = phase >= 2.0 * np.pi                 # the second, settled cycle
        area = np.trapz(tau[second], slip[second])   # the work done on the interface
        results[law["type"]] = area
        print(f"{law['type']:>20}: dissipation per cycle {area:.4g}")
        ax.plot(slip[second] / amplitude, tau[second] / np.abs(tau).max(), label=law["type"])
    ax.set_xlabel("slip / amplitude [-]")
    ax.set_ylabel("traction / peak traction [-]")
    ax.set_title("Hysteresis loops of the tangential laws (second cycle)")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    fig.tight_layout()
    fig.savefig(out / "hysteresis_of_every_law.png", dpi=120)
    print(f"wrote {out / 'hysteresis_of_every_law.png'}")
    return results


if __name__ == "__main__":
    main(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "out/python"))
