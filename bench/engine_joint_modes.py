#!/usr/bin/python3
"""The dynamic convergence of joint modes in the running engine (seed 003 section 4.2.3,
figs. 4.20-4.22; issue 22) on examples/multibody/engine_flexible_rod.yaml: the flexible,
bolted connecting rod (CMS basis v = 20, s = 16, the preload mode) with g joint modes of
each method (wPOD of TVDs, POD of TVDs, POD of forces; preload-related TVDs), the crank
ramped to 10 000 rpm. For every run the gap norm ||g||(t) of the big-end joint (column
gap_rod) is compared with the reference run (wPOD with the largest g):

    e(t) = |gap(t) - gap_ref(t)| / max_t gap_ref,

reported as its maximum and mean over the run, with the CPU time of the run, its
preprocessing stages (mesh, assembly, Craig-Bampton, preload, TVDs, POD; summary.json's
times_s) and the peak memory of the process that ran it (each run in its own process).

    PYTHONPATH=build/python /usr/bin/python3 bench/engine_joint_modes.py [OUT] [T_SIM] \
        [coarse|seed] [G,G,..]

`seed` meshes the rod as the seed (tet4, 3.6 / 1.7 mm: 631 pairs); `coarse` is the
example's (tet4, 8 mm, 100 pairs). Writes engine_gap.svg (the gap norms), engine_error_
<method>.svg (e(t) per g), engine_study.json and prints the table.
"""
import copy
import json
import multiprocessing
import pathlib
import resource
import sys
import time

import matplotlib
import numpy as np
import yaml

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import jointdyn  # noqa: E402

SOURCE = pathlib.Path(__file__).resolve().parents[1]
EXAMPLE = SOURCE / "examples/multibody/engine_flexible_rod.yaml"
METHODS = ["wpod_tvd", "pod_tvd", "pod_forces"]
MESHES = {"coarse": {"size": 8.0e-3}, "seed": {"size": 3.6e-3, "joint_size": 1.7e-3}}


def variant(base, method, g):
    model = copy.deepcopy(base)
    body = next(b for b in model["bodies"] if b["name"] == "rod")
    body["joint_modes"].update({"method": method, "modes": g})
    return model


def run(job):
    name, model = job
    start = time.perf_counter()
    r = jointdyn.analyze(jointdyn.Model(model))
    body = r["flexible_bodies"][0]
    c = r["column"]
    return name, {"ok": r["ok"], "message": r["message"], "cpu_seconds": r["cpu_seconds"],
                  "wall_seconds": time.perf_counter() - start, "steps": r["accepted_steps"],
                  "modes": body["modes"], "joint_modes": body["joint_modes"],
                  "times_s": body["times_s"], "preload": body.get("preload"),
                  "peak_memory_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "time": c["time"].tolist(), "gap": c["gap_rod"].tolist(),
                  "fc": c["fc_rod"].tolist()}


def errors(run, reference):
    t, gap = np.asarray(run["time"]), np.asarray(run["gap"])
    ref = np.interp(t, reference["time"], reference["gap"])
    e = np.abs(gap - ref) / np.max(np.abs(reference["gap"]))
    return t, e


def plot(path, title, ylabel, curves, log=False):
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for label, (t, y) in curves.items():
        ax.plot(t, y, label=label, linewidth=1.0)
    if log:
        ax.set_yscale("log")
    ax.set_xlabel("time t [s]")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main():
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "out/engine_study")
    t_sim = float(sys.argv[2]) if len(sys.argv) > 2 else 0.3
    mesh = sys.argv[3] if len(sys.argv) > 3 else "coarse"
    counts = [int(g) for g in sys.argv[4].split(",")] if len(sys.argv) > 4 else [0, 5, 10, 20, 40]
    if mesh not in MESHES:
        print(f"unknown mesh {mesh}; choose from {list(MESHES)}")
        return 2
    base = yaml.safe_load(EXAMPLE.read_text())
    base["integrator"]["t_end"] = t_sim
    base["output"].update({"frames": 0, "plots": []})
    rod = next(b for b in base["bodies"] if b["name"] == "rod")
    rod["fe"]["mesh"]["generate"].update(MESHES[mesh])
    g_ref = 2 * counts[-1]
    jobs = [(f"wpod_tvd_{g_ref}", variant(base, "wpod_tvd", g_ref))]
    jobs += [(f"{m}_{g}", variant(base, m, g)) for m in METHODS for g in counts
             if g > 0 or m == METHODS[0]]
    out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    with multiprocessing.Pool(2, maxtasksperchild=1) as pool:  # a process per run: its memory
        results = dict(pool.map(run, jobs, chunksize=1))
    wall = time.perf_counter() - start
    failed = {k: v["message"] for k, v in results.items() if not v["ok"]}
    for name, message in failed.items():
        print(f"FAILED {name}: {message}")
    reference = results[jobs[0][0]]
    table = {}
    print(f"{mesh} mesh, T = {t_sim} s, reference wpod_tvd_{g_ref}")
    print(f"{'run':>16} {'modes':>5} {'max e':>9} {'mean e':>9} {'CPU [s]':>8} "
          f"{'prep [s]':>8} {'peak MB':>8}")
    for name, r in results.items():
        t, e = errors(r, reference)
        prep = sum(r["times_s"].values())
        table[name] = {k: r[k] for k in ("modes", "joint_modes", "cpu_seconds", "wall_seconds",
                                         "steps", "times_s", "peak_memory_mb", "preload")}
        table[name].update({"max_error": float(e.max()), "mean_error": float(e.mean()),
                            "preprocessing_s": prep, "gap_max_m": float(np.max(r["gap"]))})
        print(f"{name:>16} {r['modes']:>5} {e.max():9.2e} {e.mean():9.2e} "
              f"{r['cpu_seconds']:8.1f} {prep:8.1f} {r['peak_memory_mb']:8.0f}")
    plot(out / "engine_gap.svg", f"Gap norm of the big-end joint ({mesh} mesh)",
         "||g|| [m]", {n: (r["time"], r["gap"]) for n, r in results.items()
                       if n.startswith("wpod_tvd")})
    for m in METHODS:
        curves = {n: errors(r, reference) for n, r in results.items()
                  if n.startswith(m) and n != jobs[0][0]}
        plot(out / f"engine_error_{m}.svg", f"Gap-norm error, {m} ({mesh} mesh)",
             "e(t) [-]", curves, log=True)
    study = {"mesh": mesh, "t_sim_s": t_sim, "reference": jobs[0][0], "wall_seconds": wall,
             "failed": failed, "runs": table}
    with open(out / "engine_study.json", "w") as f:
        json.dump(study, f, indent=1)
    print(f"{len(jobs)} runs in {wall:.0f} s; results in {out}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
