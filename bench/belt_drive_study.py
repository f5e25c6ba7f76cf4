#!/usr/bin/python3
"""Seed 002's belt drive studies (section 4, figs. 14-24) on
examples/belt_drive/seed_belt_drive.yaml, through the Python module as a user's runs:

  elements    60, 120 and 240 (nominal) elements: the profiles along the belt at t = 2.45 s
              (normal and tangential contact stress, axial force, axial velocity; figs.
              14-17) and the figures of table 4;
  parameters  the nominal case with 8 segments per element, mu = 0.3, k_c / 4 (d_c / 2)
              and mu_k / 10 (figs. 18-21);
  schemes     60 elements to t = 1 s with the integration schemes a, b and c: the axial
              force along the belt (fig. 22: a and b oscillate, c is smooth), measured by
              its second differences between neighbouring segments in the spans and on the
              arcs;
  capstan     the nominal profile at 2.45 s in P1's contact zone against the capstan
              formula F = F2 e^(mu phi) on the slip arc beta = ln(F1 / F2) / mu (eq. 42-44,
              fig. 24: the seed's largest relative error 2.5 %), and the slip arcs of both
              pulleys.

Each run is a full 2.45 s (49 000 steps at 240 elements), several minutes; the runs go two
at a time. Writes belt_*.svg and belt_drive_study.json into OUT and prints the figures.

    PYTHONPATH=build/python /usr/bin/python3 bench/belt_drive_study.py [OUT] [T_END] \
        [elements,parameters,schemes]
"""
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
EXAMPLE = SOURCE / "examples/belt_drive/seed_belt_drive.yaml"
TABLE4 = {"F1": 665.22, "F2": 186.65, "torque": 47.68, "omega_P2": 11.3405, "v1": 1.2025,
          "v2": 1.133}


def variant(t_end, elements=240, **changes):
    model = yaml.safe_load(EXAMPLE.read_text())
    model["belt"]["elements"] = elements
    model["integrator"]["t_end"] = t_end
    model["output"].update({"profiles": [t_end], "frames": 0})
    model["output"].pop("plots", None)
    for key, value in changes.items():
        section, name = key.split(".")
        model[section][name] = value
    return model


def jobs_elements(t_end):
    return [(f"{n} elements", variant(t_end, n)) for n in (60, 120, 240)]


def jobs_parameters(t_end):
    return [("8 segments", variant(t_end, **{"contact.segments": 8})),
            ("mu = 0.3", variant(t_end, **{"contact.friction": 0.3})),
            ("k_c / 4", variant(t_end, **{"contact.normal_stiffness": 1.0e9,
                                          "contact.normal_damping": 4.0e4})),
            ("mu_k / 10", variant(t_end, **{"contact.bristle_stiffness": 5.0e8}))]


def jobs_schemes(t_end):
    return [(f"scheme {s}", variant(min(t_end, 1.0), 60, **{"section.integration": s}))
            for s in ("a", "b", "c")]


def run(job):
    name, model = job
    start = time.perf_counter()
    r = jointdyn.analyze(jointdyn.Model(model))
    c = r["column"]
    profile = r["profiles"][-1] if r["profiles"] else {}
    return name, {"ok": r["ok"], "message": r["message"], "cpu_seconds": r["cpu_seconds"],
                  "wall_seconds": time.perf_counter() - start, "steps": r["accepted_steps"],
                  "F1": float(c["N_top"][-1]), "F2": float(c["N_bottom"][-1]),
                  "torque": float(c["drive_P1"][-1]), "omega_P2": float(c["omega_P2"][-1]),
                  "v1": abs(float(c["v_top"][-1])), "v2": abs(float(c["v_bottom"][-1])),
                  "profile": {k: np.asarray(v).tolist() for k, v in profile.items()
                              if k != "t"}}


def table4(results, names):
    rows = {}
    for name in names:
        r = results[name]
        rows[name] = {k: r[k] for k in TABLE4}
        rows[name]["deviation_percent"] = {k: 100 * (r[k] / v - 1) for k, v in TABLE4.items()}
        rows[name]["step_ms"] = 1e3 * r["cpu_seconds"] / r["steps"]
        d = rows[name]["deviation_percent"]
        print(f"  {name}: F1 {r['F1']:.2f} ({d['F1']:+.2f} %), F2 {r['F2']:.2f} "
              f"({d['F2']:+.2f} %), torque {r['torque']:.3f} ({d['torque']:+.2f} %), omega_P2 "
              f"{r['omega_P2']:.4f} ({d['omega_P2']:+.2f} %), v {r['v1']:.4f} / {r['v2']:.4f}; "
              f"{rows[name]['step_ms']:.1f} ms per step")
    return rows


def profile_plots(results, names, out, stem, title):
    quantities = [("pressure", "normal contact stress [Pa]"), ("axial_force", "axial force [N]"),
                  ("speed", "axial velocity [m/s]"), ("shear", "tangential contact stress [Pa]")]
    for key, label in quantities:
        fig, ax = plt.subplots(figsize=(8, 4.5))
        for name in names:
            p = results[name]["profile"]
            values = np.abs(p[key]) if key == "speed" else np.asarray(p[key])
            ax.plot(p["s"], values, label=name, lw=1)
        ax.set_xlabel("arc length s_l [m]")
        ax.set_ylabel(label)
        ax.set_title(f"{title}: {label.split(' [')[0]}")
        ax.grid(True, alpha=0.3)
        ax.legend()
        fig.tight_layout()
        fig.savefig(out / f"belt_{stem}_{key}.svg")
        plt.close(fig)


def capstan(result):
    """P1's slip zone against F = F2 e^(mu phi) (eq. 42-44) and both slip arcs."""
    p = {k: np.asarray(v) for k, v in result["profile"].items()}
    f1, f2, mu, radius = result["F1"], result["F2"], 0.5, 0.09995 + 5e-5
    segment = p["s"][1] - p["s"][0]
    beta = math.log(f1 / f2) / mu
    arcs = {pulley: float(np.sum((p["pulley"] == pulley) & (p["state"] == 2)) * segment / radius)
            for pulley in (0, 1)}
    # P1 (index 0) is entered from the slack span: the slip zone's first segments follow the
    # bottom span; phi from the start of P1's slipping segments.
    on_p1 = np.flatnonzero((p["pulley"] == 0) & (p["state"] == 2))
    phi = (p["s"][on_p1] - p["s"][on_p1[0]]) / radius
    theory = f2 * np.exp(mu * phi)
    inside = phi <= beta
    error = np.abs(p["axial_force"][on_p1][inside] - theory[inside])
    study = {"beta_rad": beta, "slip_arc_rad": arcs,
             "max_abs_error_n": float(np.max(error)),
             "max_rel_error": float(np.max(error / theory[inside]))}
    print(f"capstan: beta = ln(F1 / F2) / mu = {beta:.3f} rad; slip arcs P1 {arcs[0]:.3f}, P2 "
          f"{arcs[1]:.3f} rad; P1's axial force against F2 e^(mu phi): largest error "
          f"{study['max_abs_error_n']:.2f} N ({100 * study['max_rel_error']:.2f} %; seed 13.60 N, "
          f"2.5 %)")
    return study


def schemes(results, out):
    """The axial force's roughness along the belt: the second differences between
    neighbouring segments (4 per element), median and 90th percentile, in the spans and on
    the arcs."""
    study = {}
    for name in ("scheme a", "scheme b", "scheme c"):
        p = {k: np.asarray(v) for k, v in results[name]["profile"].items()}
        f, pulley = p["axial_force"], p["pulley"]
        second = np.abs(f[2:] - 2 * f[1:-1] + f[:-2])
        same = (pulley[2:] == pulley[1:-1]) & (pulley[:-2] == pulley[1:-1])
        study[name] = {}
        for zone, mask in (("spans", same & (pulley[1:-1] < 0)),
                           ("arcs", same & (pulley[1:-1] >= 0))):
            study[name][zone] = {"median_n": float(np.median(second[mask])),
                                 "p90_n": float(np.percentile(second[mask], 90))}
        print(f"  {name}: axial force's second differences between segments: spans median "
              f"{study[name]['spans']['median_n']:.3f} N, 90 % {study[name]['spans']['p90_n']:.3f}"
              f" N; arcs median {study[name]['arcs']['median_n']:.3f} N, 90 % "
              f"{study[name]['arcs']['p90_n']:.3f} N")
    profile_plots(results, ["scheme a", "scheme b", "scheme c"], out, "schemes",
                  "60 elements at t = 1 s")
    return study


def main():
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "out/belt_drive_study")
    t_end = float(sys.argv[2]) if len(sys.argv) > 2 else 2.45
    chosen = sys.argv[3].split(",") if len(sys.argv) > 3 else ["elements", "parameters",
                                                               "schemes"]
    makers = {"elements": jobs_elements, "parameters": jobs_parameters, "schemes": jobs_schemes}
    out.mkdir(parents=True, exist_ok=True)
    jobs = [job for name in chosen for job in makers[name](t_end)]
    if "parameters" in chosen and "elements" not in chosen:
        jobs.append(("240 elements", variant(t_end)))
    start = time.perf_counter()
    with multiprocessing.Pool(2) as pool:
        results = dict(pool.map(run, jobs, chunksize=1))
    failed = {k: v["message"] for k, v in results.items() if not v["ok"]}
    for name, message in failed.items():
        print(f"FAILED {name}: {message}")
    study = {"t_end_s": t_end, "wall_seconds": time.perf_counter() - start, "failed": failed}
    if not failed:
        if "elements" in chosen:
            print(f"elements (t = {t_end} s; seed table 4 in brackets of the deviations):")
            names = ["60 elements", "120 elements", "240 elements"]
            study["elements"] = table4(results, names)
            profile_plots(results, names, out, "elements", f"t = {t_end} s")
        if "parameters" in chosen:
            print("parameters (240 elements):")
            names = ["240 elements", "8 segments", "mu = 0.3", "k_c / 4", "mu_k / 10"]
            study["parameters"] = table4(results, names)
            profile_plots(results, names, out, "parameters", f"t = {t_end} s")
        if "240 elements" in results:
            study["capstan"] = capstan(results["240 elements"])
        if "schemes" in chosen:
            print("integration schemes (60 elements, t = 1 s):")
            study["schemes"] = schemes(results, out)
    with open(out / "belt_drive_study.json", "w") as f:
        json.dump(study, f, indent=1)
    print(f"{len(jobs)} runs in {study['wall_seconds']:.0f} s; results in {out}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
