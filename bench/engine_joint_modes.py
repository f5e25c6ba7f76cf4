#!/usr/bin/python3
"""The dynamic convergence of joint modes in the running engine (seed 003 sections
4.2.1-4.2.3, figs. 4.20-4.22, 4.26-4.29; issue 22) on
examples/multibody/engine_flexible_rod.yaml: the flexible, bolted connecting rod (CMS basis
v = 20, s = 16) with g joint modes, the crank ramped to 10 000 rpm (or 1000 rpm) in 0.25 s.
Runs are named <rpm>rpm_<plm>_<method>_<g>, plm one of

    related  the preload mode (PLM) in the basis, joint modes of the preload-related TVDs
    all      the PLM in the basis, joint modes of all TVDs
    none     no PLM, joint modes of all TVDs

and compared by the gap norm ||g||(t) of the big-end joint (column gap_rod) with the
reference run of their speed (PLM, all TVDs, wPOD with the largest g of G):

    e(t) = |gap(t) - gap_ref(t)| / max_t gap_ref,

reported as its maximum and mean over the run, with the CPU time of the run, its
preprocessing stages (mesh, assembly, Craig-Bampton, preload, TVDs, POD; summary.json's
times_s) and the peak memory of the process that ran it (each run in its own process).
Studies:

    methods  the three methods without PLM at 10 000 rpm (figs. 4.20-4.22)
    preload  wPOD with related / all / none at 10 000 rpm (figs. 4.26-4.28)
    speed    the same at 1000 rpm (fig. 4.29: the PLM's advantage at low dynamics)

    PYTHONPATH=build/python /usr/bin/python3 bench/engine_joint_modes.py [OUT] [T_SIM] \
        [coarse|seed] [G,G,..] [methods,preload,speed]

`seed` meshes the rod as the seed (tet4, 3.6 / 1.7 mm: 631 pairs); `coarse` is the
example's (tet4, 8 mm, 100 pairs). Writes engine_gap_<rpm>rpm.png (the gap norms),
engine_error_<study>.png (e(t) per run), engine_max_error.png (max e over g),
engine_study.json and prints the table.
"""
import copy
import json
import math
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
PLMS = ["related", "all", "none"]
STUDIES = ["methods", "preload", "speed"]
MESHES = {"coarse": {"size": 8.0e-3}, "seed": {"size": 3.6e-3, "joint_size": 1.7e-3}}


def variant(base, rpm, plm, method, g):
    model = copy.deepcopy(base)
    drive = next(j for j in model["joints"] if j["name"] == "drive")
    drive["motion"]["speed"] = rpm * math.pi / 30.0
    body = next(b for b in model["bodies"] if b["name"] == "rod")
    body["joint_modes"].update({"method": method, "modes": g})
    body["preload"]["mode"] = plm != "none"
    body["preload"]["tvds"] = "preload_related" if plm == "related" else "all"
    return model


def name(rpm, plm, method, g):
    return f"{rpm}rpm_{plm}_{method}_{g}"


def study_runs(study, counts):
    """(rpm, plm, method, g) of a study's runs."""
    if study == "methods":
        return [(10000, "none", m, g) for m in METHODS for g in counts if g > 0 or m == METHODS[0]]
    rpm = 10000 if study == "preload" else 1000
    return [(rpm, plm, "wpod_tvd", g) for plm in PLMS for g in counts
            if g > 0 or plm != "all"]  # g = 0: related and all are the same basis


def run(job):
    name, model = job
    start = time.perf_counter()
    try:
        r = jointdyn.analyze(jointdyn.Model(model))
    except jointdyn.InputError as error:  # e.g. more joint modes than the TVDs give
        return name, {"ok": False, "message": str(error)}
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


def plot(path, title, ylabel, curves, log=False, xlabel="time t [s]"):
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for label, (t, y) in curves.items():
        ax.plot(t, y, label=label, linewidth=1.0)
    if log:
        ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main():
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "out/engine_study")
    t_sim = float(sys.argv[2]) if len(sys.argv) > 2 else 0.3
    mesh = sys.argv[3] if len(sys.argv) > 3 else "coarse"
    counts = [int(g) for g in sys.argv[4].split(",")] if len(sys.argv) > 4 else [0, 5, 10, 20, 40]
    studies = sys.argv[5].split(",") if len(sys.argv) > 5 else STUDIES
    if mesh not in MESHES or any(s not in STUDIES for s in studies):
        print(f"choose a mesh from {list(MESHES)} and studies from {STUDIES}")
        return 2
    base = yaml.safe_load(EXAMPLE.read_text())
    base["integrator"]["t_end"] = t_sim
    base["output"]["frames"] = 0
    base["output"].pop("plots", None)
    rod = next(b for b in base["bodies"] if b["name"] == "rod")
    rod["fe"]["mesh"]["generate"].update(MESHES[mesh])
    g_ref = counts[-1]
    runs = {s: study_runs(s, counts) for s in studies}
    speeds = sorted({r[0] for rs in runs.values() for r in rs})
    references = {rpm: (rpm, "all", "wpod_tvd", g_ref) for rpm in speeds}
    keys = list(dict.fromkeys(list(references.values()) + [r for rs in runs.values() for r in rs]))
    jobs = [(name(*k), variant(base, *k)) for k in keys]
    out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    with multiprocessing.Pool(2, maxtasksperchild=1) as pool:  # a process per run: its memory
        results = dict(pool.map(run, jobs, chunksize=1))
    wall = time.perf_counter() - start
    failed = {k: v["message"] for k, v in results.items() if not v["ok"]}
    for key, message in failed.items():
        print(f"FAILED {key}: {message}")
    results = {k: v for k, v in results.items() if v["ok"]}
    keys = [k for k in keys if name(*k) in results]
    table = {}
    print(f"{mesh} mesh, T = {t_sim} s, references {[name(*r) for r in references.values()]}")
    print(f"{'run':>28} {'modes':>5} {'max e':>9} {'mean e':>9} {'CPU [s]':>8} "
          f"{'prep [s]':>8} {'peak MB':>8}")
    for k in keys:
        r, reference = results[name(*k)], results[name(*references[k[0]])]
        t, e = errors(r, reference)
        prep = sum(r["times_s"].values())
        entry = {f: r[f] for f in ("modes", "joint_modes", "cpu_seconds", "wall_seconds",
                                   "steps", "times_s", "peak_memory_mb", "preload")}
        entry.update({"max_error": float(e.max()), "mean_error": float(e.mean()),
                      "preprocessing_s": prep, "gap_max_m": float(np.max(r["gap"]))})
        table[name(*k)] = entry
        print(f"{name(*k):>28} {r['modes']:>5} {e.max():9.2e} {e.mean():9.2e} "
              f"{r['cpu_seconds']:8.1f} {prep:8.1f} {r['peak_memory_mb']:8.0f}")
    for rpm in speeds:
        shown = (f"{rpm}rpm_all_wpod", f"{rpm}rpm_none_wpod")
        plot(out / f"engine_gap_{rpm}rpm.png", f"Gap norm of the big-end joint, {rpm} rpm",
             "||g|| [m]", {n: (r["time"], r["gap"]) for n, r in results.items()
                           if n.startswith(shown)})
    for study, keys_of in runs.items():
        plot(out / f"engine_error_{study}.png", f"Gap-norm error, {study} ({mesh} mesh)",
             "e(t) [-]", {name(*k): errors(results[name(*k)], results[name(*references[k[0]])])
                          for k in keys_of if name(*k) in results}, log=True)
    curves, keys_ref = {}, set(references.values())  # the references' error is 0
    for study, keys_of in runs.items():
        for (rpm, plm, method, g) in keys_of:
            if name(rpm, plm, method, g) not in table or (rpm, plm, method, g) in keys_ref:
                continue
            label = f"{rpm} rpm, {plm}, {method}"
            t, y = curves.setdefault(label, ([], []))
            t.append(g)
            y.append(table[name(rpm, plm, method, g)]["max_error"])
    plot(out / "engine_max_error.png", f"Largest gap-norm error over the run ({mesh} mesh)",
         "max e [-]", curves, log=True, xlabel="joint modes g")
    study = {"mesh": mesh, "t_sim_s": t_sim, "g_ref": g_ref, "wall_seconds": wall,
             "failed": failed, "runs": table}
    with open(out / "engine_study.json", "w") as f:
        json.dump(study, f, indent=1)
    print(f"{len(jobs)} runs in {wall:.0f} s; results in {out}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
