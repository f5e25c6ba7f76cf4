#!/usr/bin/python3
"""The car pendulum studies of seed 003 section 4.4.1 / appendix F.2 and seed 000 section 6
(issue 20), on examples/multibody/car_pendulum_multilayer.yaml, in one run:

  convergence  the contact-force norm ||f_c||(t) for g = 0, 5, .., 40 joint modes and for
               20 added vibration modes instead (force0, linear penalty (A),
               frictionless; seed 003 fig. F.8, seed 000 fig. 17): its error against the
               largest g, ||fc_g - fc_ref||_2 / ||fc_ref||_2 over time, and the peak norm;
  friction     force1 with friction (the example): 20 added vibration modes (v = 25, no
               joint modes) and 20 joint modes against 60 (the TVDs with the tangential
               stiffness), the error of the relative displacement car - point mass
               normalized by its mean (seed 000 eq. 42, fig. 19-20);
  laws         the seven contact laws of table 4.6 (A, B, C1, C2, D, E, F) on the cases
               force0, force1 and gravity (frictionless, 20 joint modes, adaptive steps
               with dt_max = 1e-2 s, so that the error control sets them):
               CPU time, steps and factorizations (Jacobian updates) normalized to the
               linear law (seed 003 fig. 4.34).

  full         the unreduced body (full: true, every FE DOF a coordinate, all pairs
               evaluated; sparse) as the reference of the friction case over its first
               FULL_TIME: the contact-force norm and car - point mass of 20 added
               vibration modes, 20 and 60 joint modes against it, and the CPU per step
               (seed 003 appendix F.2: the reduced run with g = 60 took 0.2 % of the CPU
               time of the full one).

The gravity case releases the pendulum from horizontal (the seeds do not give its start).
Writes car_pendulum_*.csv, car_pendulum_*.svg and car_pendulum_study.json into OUT and
prints the figures.

    PYTHONPATH=build/python /usr/bin/python3 bench/car_pendulum_joint_modes.py [OUT] [T_SIM] \
        [convergence,friction,full,laws]
"""
import copy
import json
import math
import multiprocessing
import pathlib
import sys
import time

import matplotlib
import numpy as np
import yaml

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import jointdyn  # noqa: E402

SOURCE = pathlib.Path(__file__).resolve().parents[1]
EXAMPLE = SOURCE / "examples/multibody/car_pendulum_multilayer.yaml"
JOINT_MODES = [0, 5, 10, 20, 30, 40]
FULL_TIME = 0.25  # [s]: the unreduced body's run (2500 steps of 1e-4 s)
# [s]: the friction runs' step. With the example's 1e-4 s the 20 added vibration modes (25
# fixed-interface modes, up to higher frequencies than the joint modes' basis) with the stiff
# contact gain energy from 0.74 s on and blow up (peak ||f_c|| 5.4e5 N at 0.84 s, alpha =
# -0.3); with 5e-5 s the run is stable to 2.5 s (peak 86 N). The same step for all three
# (the unreduced comparison over FULL_TIME keeps the example's 1e-4 s).
FRICTION_DT = 5.0e-5
# With friction the TVDs also differentiate the closed pairs' tangential stiffness (eps_T =
# the friction law's c1): 128 TVDs then span the seed's 60 joint modes.
TANGENTIAL = 6.17e11
LINEAR = {"type": "linear", "eps": 4.0e11}
# Seed 003 table 4.6 in SI units (N/mm^3 = 1e9 Pa/m, 1 um = 1e-6 m).
LAWS = {
    "A linear": LINEAR,
    "B two-stage linear": {"type": "multi_stage_linear", "onset_gaps": [0.0, -1.25e-6],
                           "stiffnesses": [1.33e11, 6.67e11]},
    "C1 power m = 2": {"type": "power", "eps": 0.16e6 / 1e-12, "m": 2.0},
    "C2 power m = 3.3": {"type": "power", "eps": 4.86e4 / 1e-6 ** 3.3, "m": 3.3},
    "D exponential": {"type": "exponential", "p0": 1.23e2, "g0": 0.4e-6},
    "E quadratic-linear": {"type": "quadratic_linear", "eps": 5.7e5 / 1e-6, "g0": 0.0,
                           "g1": -1.5e-6},
    "F joint-adapted exponential": {"type": "joint_exponential", "eps": 6.17e11,
                                    "lambda": 2.0e5, "g0": 0.0},
}


def base_model(t_sim):
    model = yaml.safe_load(EXAMPLE.read_text())
    model["integrator"]["t_end"] = t_sim
    model["output"]["frames"] = 0
    model["output"].pop("plots", None)
    return model


def sheets(model):
    return next(b for b in model["bodies"] if b["name"] == "sheets")


def variant(t_sim, joint_modes, vibration_modes=5, normal=None, friction=True, case="force1",
            adaptive=False, tangential=None, dt=None):
    model = base_model(t_sim)
    if dt:
        model["integrator"]["dt"] = dt
    body = sheets(model)
    body["vibration_modes"] = vibration_modes
    if joint_modes is None:  # unreduced: every FE DOF a coordinate
        for key in ("vibration_modes", "rigid_ratio", "joint_modes"):
            body.pop(key)
        body["full"] = True
    elif joint_modes:  # TVDs of the normal stiffness (the seed's), or also the tangential
        body["joint_modes"]["modes"] = joint_modes
        body["joint_modes"].pop("tangential_stiffness", None)
        if tangential:
            body["joint_modes"]["tangential_stiffness"] = tangential
    else:
        del body["joint_modes"]
    joint = body["joints"][0]
    if normal is not None:
        joint["normal"] = normal
    if not friction:
        del joint["friction"]
    if case == "gravity":
        del model["loads"]
        model["gravity"] = [0.0, -9.81]
        body["angle"] = 0.0  # released from horizontal
        next(m for m in model["markers"] if m["name"] == "car_clamp")["angle"] = 0.0
        next(b for b in model["bodies"] if b["name"] == "point_mass")["position"] = [0.4, 0.0]
    else:
        model["loads"][0]["fx"]["type"] = case
    if adaptive:
        model["integrator"].update({"adaptive": True, "dt_max": 1.0e-2})
    return model


def run(job):
    name, model = job
    start = time.perf_counter()
    r = jointdyn.analyze(jointdyn.Model(model))
    c = r["column"]
    return name, {"ok": r["ok"], "message": r["message"], "cpu_seconds": r["cpu_seconds"],
                  "wall_seconds": time.perf_counter() - start, "steps": r["accepted_steps"],
                  "rejected": r["rejected_steps"], "factorizations": r["factorizations"],
                  "modes": r["flexible_bodies"][0]["modes"],
                  "joint_modes": r["flexible_bodies"][0]["joint_modes"],
                  "time": c["time"].tolist(), "fc": c["fc_sheets"].tolist(),
                  "relative": (c["x_car"] - c["x_point_mass"]).tolist(),
                  "law_dissipation": r["energy"]["law_dissipation"]}


def relative_error(values, reference):
    values, reference = np.asarray(values), np.asarray(reference)
    n = min(len(values), len(reference))
    return float(np.linalg.norm(values[:n] - reference[:n]) / np.linalg.norm(reference[:n]))


def plot(path, title, ylabel, curves):
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for label, (t, y) in curves.items():
        ax.plot(t, y, label=label, linewidth=1.0)
    ax.set_xlabel("time t [s]")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


REFERENCE = max(JOINT_MODES)
FRICTION_REFERENCE = 60  # the seed's converged basis
CASES = ("force0", "force1", "gravity")


def convergence_jobs(t_sim):
    jobs = [(f"convergence g={g}", variant(t_sim, g, normal=LINEAR, friction=False,
                                           case="force0")) for g in JOINT_MODES]
    return jobs + [("convergence 20 NM", variant(t_sim, 0, vibration_modes=25, normal=LINEAR,
                                                 friction=False, case="force0"))]


def report_convergence(results, t_sim, out):
    ref = results[f"convergence g={REFERENCE}"]
    print(f"contact-force norm, force0, linear law, frictionless, T = {t_sim} s "
          f"(error against g = {REFERENCE}):")
    study = {}
    names = [f"convergence g={g}" for g in JOINT_MODES] + ["convergence 20 NM"]
    for name in names:
        r = results[name]
        e = relative_error(r["fc"], ref["fc"])
        label = name.split(" ", 1)[1]
        study[label] = {"modes": r["modes"], "joint_modes": r["joint_modes"],
                        "peak_fc_n": max(r["fc"]), "error": e, "cpu_seconds": r["cpu_seconds"],
                        "steps": r["steps"]}
        print(f"  {label:6s} ({r['modes']} modes): peak {max(r['fc']):8.2f} N, error {e:.3f}, "
              f"CPU {r['cpu_seconds']:.1f} s")
    plot(out / "car_pendulum_convergence.svg",
         "Contact-force norm for g joint modes (force0, linear penalty)", "||f_c|| [N]",
         {name.split(" ", 1)[1]: (results[name]["time"], results[name]["fc"]) for name in names})
    return study


def friction_variants(prefix, t_sim, dt=None):
    """20 added vibration modes, 20 joint modes and the seed's 60 (force1 with friction), all
    with the step dt (None: the example's)."""
    return [(f"{prefix} 20 NM", variant(t_sim, 0, vibration_modes=25, dt=dt)),
            (f"{prefix} 20 JM", variant(t_sim, 20, tangential=TANGENTIAL, dt=dt)),
            (f"{prefix} {FRICTION_REFERENCE} JM",
             variant(t_sim, FRICTION_REFERENCE, tangential=TANGENTIAL, dt=dt))]


def friction_jobs(t_sim):
    return friction_variants("friction", t_sim, FRICTION_DT)


def report_friction(results, t_sim, out):
    ref = results[f"friction {FRICTION_REFERENCE} JM"]
    mean = abs(np.mean(ref["relative"]))
    print(f"friction (force1, mu = 0.15), error of car - point mass / |mean| = {mean:.3e} m "
          f"(seed 000 eq. 42, against {FRICTION_REFERENCE} joint modes):")
    study, curves = {}, {}
    for name in ("friction 20 NM", "friction 20 JM"):
        r = results[name]
        n = min(len(r["relative"]), len(ref["relative"]))
        eps = (np.asarray(ref["relative"][:n]) - np.asarray(r["relative"][:n])) / mean
        curves[name.split(" ", 1)[1]] = (r["time"][:n], eps)
        study[name] = {"max_error": float(np.max(np.abs(eps))),
                       "rms_error": float(np.sqrt(np.mean(eps ** 2))),
                       "cpu_seconds": r["cpu_seconds"], "law_dissipation_j": r["law_dissipation"]}
        print(f"  {name}: max |eps| {study[name]['max_error']:.3f}, rms "
              f"{study[name]['rms_error']:.3f}, CPU {r['cpu_seconds']:.1f} s")
    study["ratio_nm_to_jm_max"] = (study["friction 20 NM"]["max_error"] /
                                   study["friction 20 JM"]["max_error"])
    windows = window_ratios(curves["20 NM"], curves["20 JM"])
    study["window_ratios"] = windows
    print(f"  20 NM / 20 JM: max error ratio {study['ratio_nm_to_jm_max']:.2f} "
          f"(seed: up to about 3); per {RATIO_WINDOW} s window (largest |eps| of each): "
          + ", ".join(f"{r:.2f}" for r in windows))
    # The errors grow with time at a constant ratio: a phase drift of the dominant oscillation,
    # whose frequency each basis shifts.
    frequencies = {name: oscillation_frequency(results[f"friction {name}"])
                   for name in ("20 NM", "20 JM", f"{FRICTION_REFERENCE} JM")}
    reference = frequencies[f"{FRICTION_REFERENCE} JM"]
    study["frequencies_hz"] = frequencies
    print("  car - point mass oscillates at " + ", ".join(
        f"{f:.4f} Hz ({name})" for name, f in frequencies.items()) +
        f": frequency errors 20 NM {frequencies['20 NM'] - reference:+.4f} Hz, 20 JM "
        f"{frequencies['20 JM'] - reference:+.4f} Hz, ratio "
        f"{(frequencies['20 NM'] - reference) / (frequencies['20 JM'] - reference):.2f}")
    with open(out / "car_pendulum_friction_error.csv", "w") as f:
        f.write("time_s,eps_20_nm,eps_20_jm\n")
        for t, a, b in zip(curves["20 NM"][0], curves["20 NM"][1], curves["20 JM"][1]):
            f.write(f"{t:.6g},{a:.6e},{b:.6e}\n")
    plot(out / "car_pendulum_friction_error.svg",
         "Error of car - point mass, force1 with friction (seed 000 eq. 42)", "epsilon [-]",
         curves)
    plot(out / "car_pendulum_friction.svg", "Car - point mass, force1 with friction",
         "x_car - x_point_mass [m]",
         {name: (results[name]["time"], results[name]["relative"])
          for name in ("friction 20 NM", "friction 20 JM", f"friction {FRICTION_REFERENCE} JM")})
    return study


RATIO_WINDOW = 0.25  # [s]: about two periods of the dominant oscillation


def oscillation_frequency(run):
    """The mean frequency of car - point mass about its mean, from its upward zero crossings
    (linearly interpolated) over the run [Hz]."""
    t = np.asarray(run["time"])
    y = np.asarray(run["relative"]) - np.mean(run["relative"])
    up = np.nonzero((y[:-1] < 0.0) & (y[1:] >= 0.0))[0]
    crossings = t[up] - y[up] * (t[up + 1] - t[up]) / (y[up + 1] - y[up])
    return float((len(crossings) - 1) / (crossings[-1] - crossings[0]))


def window_ratios(nm, jm):
    """Per window of RATIO_WINDOW: the largest |eps| of 20 NM over that of 20 JM (the seed's
    "up to three times" read off fig. 20's two curves)."""
    t, a, b = np.asarray(nm[0]), np.abs(nm[1]), np.abs(jm[1])
    edges = np.arange(0.0, t[-1] + 1e-9, RATIO_WINDOW)
    ratios = []
    for lo, hi in zip(edges[:-1], edges[1:]):
        inside = (t >= lo) & (t < hi)
        if inside.any() and b[inside].max() > 0.0:
            ratios.append(float(a[inside].max() / b[inside].max()))
    return ratios


def full_jobs(t_sim):
    t = min(t_sim, FULL_TIME)
    return [("full", variant(t, None))] + friction_variants("full", t)


def report_full(results, t_sim, out):
    ref = results["full"]
    full_step = ref["cpu_seconds"] / max(ref["steps"], 1)
    scale = float(np.max(np.abs(ref["relative"])))
    study = {"coordinates": ref["modes"], "steps": ref["steps"], "cpu_seconds": ref["cpu_seconds"],
             "step_cpu_seconds": full_step, "t_end_s": ref["time"][-1],
             "peak_fc_n": max(ref["fc"]), "largest_relative_m": scale}
    print(f"unreduced body ({ref['modes']} elastic coordinates, sparse), friction case over "
          f"{ref['time'][-1]:.3g} s, {ref['steps']} steps: {1e3 * full_step:.1f} ms CPU per step; "
          f"peak ||f_c|| {max(ref['fc']):.1f} N; against it:")
    names = ["full 20 NM", "full 20 JM", f"full {FRICTION_REFERENCE} JM"]
    for name in names:
        r = results[name]
        step = r["cpu_seconds"] / r["steps"]
        n = min(len(r["relative"]), len(ref["relative"]))
        relative = float(np.max(np.abs(np.asarray(r["relative"][:n]) -
                                       np.asarray(ref["relative"][:n]))) / scale)
        study[name] = {"modes": r["modes"], "fc_error": relative_error(r["fc"], ref["fc"]),
                       "peak_fc_n": max(r["fc"]), "relative_error_max": relative,
                       "step_cpu_seconds": step, "percent_of_full": 100 * step / full_step}
        print(f"  {name} ({r['modes']} modes): ||f_c|| error {study[name]['fc_error']:.3f} "
              f"(peak {max(r['fc']):.1f} N), car - point mass max error {relative:.3f} of its "
              f"largest, {1e3 * step:.2f} ms per step = {100 * step / full_step:.2f} % of the "
              f"unreduced body's (seed: 0.2 % with g = 60)")
    plot(out / "car_pendulum_full.svg", "Contact-force norm against the unreduced body (force1)",
         "||f_c|| [N]", {name: (results[name]["time"], results[name]["fc"])
                         for name in ["full"] + names})
    return study


def laws_jobs(t_sim):
    return [(f"laws {case} {law}", variant(t_sim, 20, normal=normal, friction=False, case=case,
                                           adaptive=True))
            for case in CASES for law, normal in LAWS.items()]


def report_laws(results, t_sim, out):
    print("contact laws (frictionless, 20 joint modes, adaptive steps), relative to (A):")
    rows = []
    for case in CASES:
        base = results[f"laws {case} A linear"]
        for law in LAWS:
            r = results[f"laws {case} {law}"]
            row = {"case": case, "law": law, "ok": r["ok"], "cpu_seconds": r["cpu_seconds"],
                   "steps": r["steps"], "factorizations": r["factorizations"],
                   "cpu_pct": 100 * r["cpu_seconds"] / base["cpu_seconds"],
                   "steps_pct": 100 * r["steps"] / base["steps"],
                   "factorizations_pct": 100 * r["factorizations"] / base["factorizations"],
                   "peak_fc_n": max(r["fc"]) if r["fc"] else math.nan}
            rows.append(row)
            print(f"  {case:8s} {law:28s} CPU {row['cpu_pct']:6.1f} %  steps "
                  f"{row['steps_pct']:6.1f} %  Jacobians {row['factorizations_pct']:6.1f} %  "
                  f"({r['cpu_seconds']:.2f} s, {r['steps']} steps, peak ||f_c|| "
                  f"{row['peak_fc_n']:.1f} N)")
    with open(out / "car_pendulum_laws.csv", "w") as f:
        f.write("case,law,cpu_pct,steps_pct,factorizations_pct,cpu_seconds,steps,"
                "factorizations,peak_fc_n\n")
        for r in rows:
            f.write(f"{r['case']},{r['law']},{r['cpu_pct']:.2f},{r['steps_pct']:.2f},"
                    f"{r['factorizations_pct']:.2f},{r['cpu_seconds']:.4f},{r['steps']},"
                    f"{r['factorizations']},{r['peak_fc_n']:.4f}\n")
    plot_laws(rows, out / "car_pendulum_laws.svg")
    return rows


def plot_laws(rows, path):
    fig, axes = plt.subplots(1, 3, figsize=(13, 4.5), sharey=True)
    for ax, case in zip(axes, CASES):
        case_rows = [r for r in rows if r["case"] == case]
        x = np.arange(len(case_rows))
        for k, (key, label) in enumerate((("cpu_pct", "CPU time"), ("steps_pct", "steps"),
                                          ("factorizations_pct", "Jacobian updates"))):
            ax.bar(x + (k - 1) * 0.27, [r[key] for r in case_rows], 0.27, label=label)
        ax.set_xticks(x, [r["law"].split(" ")[0] for r in case_rows])
        ax.set_title(case)
        ax.grid(True, axis="y", alpha=0.3)
    axes[0].set_ylabel("relative to the linear law (A) [%]")
    axes[0].legend()
    fig.suptitle("Numerical efficiency of the contact laws (seed 003 fig. 4.34)")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


STUDIES = {"convergence": (convergence_jobs, report_convergence),
           "friction": (friction_jobs, report_friction),
           "full": (full_jobs, report_full),
           "laws": (laws_jobs, report_laws)}


def main():
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "out/car_pendulum_study")
    t_sim = float(sys.argv[2]) if len(sys.argv) > 2 else 2.5
    chosen = sys.argv[3].split(",") if len(sys.argv) > 3 else list(STUDIES)
    unknown = [name for name in chosen if name not in STUDIES]
    if unknown:
        print(f"unknown studies {unknown}; choose from {list(STUDIES)}")
        return 2
    out.mkdir(parents=True, exist_ok=True)
    jobs = [job for name in chosen for job in STUDIES[name][0](t_sim)]
    start = time.perf_counter()
    with multiprocessing.Pool(2) as pool:
        results = dict(pool.map(run, jobs, chunksize=1))
    wall = time.perf_counter() - start
    failed = {k: v["message"] for k, v in results.items() if not v["ok"]}
    for name, message in failed.items():
        print(f"FAILED {name}: {message}")
    study = {"t_sim_s": t_sim, "wall_seconds": wall, "failed": failed}
    if not failed:
        for name in chosen:
            study[name] = STUDIES[name][1](results, t_sim, out)
    with open(out / "car_pendulum_study.json", "w") as f:
        json.dump(study, f, indent=1)
    print(f"{len(jobs)} runs in {wall:.0f} s; results in {out}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
