#!/usr/bin/python3
"""A friction-coefficient sweep of the friction bar's reduced transient (seed 003).

Loads examples/dynamics/friction_bar_step.yaml (the bolted friction bar under a smoothed
step load at its tip, reduced to the CMS basis and 20 joint modes) as a dict, shortens the
run to T_END seconds and runs it for each friction coefficient with jointdyn.analyze; plots
the tip deflection over time, one curve per mu, and prints each run's final deflection
and the energy the friction dissipated. Writes OUT/friction_bar_mu_sweep.png.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/friction_bar_mu_sweep.py [OUT]
"""
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import yaml  # noqa: E402

import jointdyn  # noqa: E402

MODEL = pathlib.Path(__file__).resolve().parents[1] / "dynamics" / "friction_bar_step.yaml"
T_END = 0.02  # [s]
MUS = [0.05, 0.15, 0.6]


def main(out):
    out.mkdir(parents=True, exist_ok=True)
    spec = yaml.safe_load(MODEL.read_text())
    spec["integrator"]["t_end"] = T_END
    spec["output"].pop("contact_fields", None)  # analyze writes no files
    fig, ax = plt.subplots(figsize=(8, 5))
    results = {}
    for mu in MUS:
        spec["joints"][0]["friction"]["mu"] = mu
        result = jointdyn.analyze(jointdyn.Model(spec, name=f"{MODEL} (mu = {mu})"))
        if not result["ok"]:
            raise SystemExit(result["message"])
        (name, run), = result["runs"].items()
        results[mu] = run
        print(f"mu = {mu:4.2f} ({name}, {run['coordinates']} coordinates): tip deflection "
              f"{run['measure'][-1]:.4e} m at t = {run['time'][-1]:.3f} s, friction "
              f"dissipation {run['energy']['law_dissipation']:.4e} J")
        ax.plot(run["time"] * 1e3, run["measure"] * 1e3, label=f"mu = {mu:g}")
    ax.set_xlabel("time [ms]")
    ax.set_ylabel("tip deflection [mm]")
    ax.set_title("Friction bar under a step load: the friction coefficient's effect")
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out / "friction_bar_mu_sweep.png", dpi=120)
    print(f"wrote {out / 'friction_bar_mu_sweep.png'}")
    return results


if __name__ == "__main__":
    main(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "out/python"))
