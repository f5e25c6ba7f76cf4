#!/usr/bin/python3
"""Seed 002 section 3 (fig. 9-10): convergence of the quasi-static circle pressed onto a beam
(examples/belt_drive/circle_on_beam.yaml) in the number of elements and of contact segments
per element, through the Python module as a user's runs. The error of the circle centre's
y-coordinate and of the axial force at the beam's middle against the seed's reference
discretization (128 elements, 12 segments), and the reference against the closed form of the
string limit (EI -> 0: straight spans tangent to the circle, uniform tension, the penalty's
uniform penetration T / (rho b k_c)). Writes circle_on_beam.svg and circle_on_beam.json
into OUT and prints the figures.

    PYTHONPATH=build/python /usr/bin/python3 bench/circle_on_beam_study.py [OUT]
"""
import json
import math
import pathlib
import sys
import time

import matplotlib
import yaml

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import jointdyn  # noqa: E402

SOURCE = pathlib.Path(__file__).resolve().parents[1]
EXAMPLE = SOURCE / "examples/belt_drive/circle_on_beam.yaml"
ELEMENTS = (2, 4, 8, 16, 32, 64)
SEGMENTS = (2, 4, 8, 12)
REFERENCE = (128, 12)


def variant(elements, segments):
    model = yaml.safe_load(EXAMPLE.read_text())
    model["cable"]["elements"] = elements
    model["contact"]["segments"] = segments
    model["output"]["frames"] = 0
    for key in ("profiles", "plots"):
        model["output"].pop(key, None)
    return model


def run(elements, segments):
    start = time.perf_counter()
    r = jointdyn.analyze(jointdyn.Model(variant(elements, segments)))
    if not r["ok"]:
        raise RuntimeError(f"{elements} elements, {segments} segments: {r['message']}")
    c = r["column"]
    return {"y": float(c["y_C"][-1]), "N": float(c["N_middle"][-1]),
            "steps": r["accepted_steps"], "newton": r["newton_iterations"],
            "wall_seconds": time.perf_counter() - start}


def string_limit(model):
    """The centre's y and the tension of the string limit (fixed point in the penetration)."""
    ea = model["section"]["axial_stiffness"]
    (x0, _), (x1, _) = model["cable"]["start"], model["cable"]["end"]
    pulley = model["pulleys"][0]
    r, k = pulley["radius"], pulley["moving"]["stiffness"]
    y0 = pulley["centre"][1]
    force = -pulley["moving"]["force_y"]["rate"]  # at t = 1
    width, kc = (float(model["contact"][key]) for key in ("width", "normal_stiffness"))
    span = x1 - x0

    def balance(y, rho):
        d = math.hypot(span / 2, y)
        phi = math.asin(rho / d) - math.atan2(y, span / 2)  # the spans' angle below horizontal
        length = 2 * math.sqrt(d * d - rho * rho) + 2 * phi * rho
        tension = ea * (length / span - 1)
        return 2 * tension * math.sin(phi) + k * (y0 - y) - force, tension

    rho = r
    for _ in range(50):
        low, high = -2.0 * r, y0
        for _ in range(200):
            mid = 0.5 * (low + high)
            low, high = (mid, high) if balance(mid, rho)[0] > 0 else (low, mid)
        y, tension = 0.5 * (low + high), balance(0.5 * (low + high), rho)[1]
        rho = r - tension / (rho * width * kc)
    return y, tension


def main():
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "circle_on_beam_study")
    out.mkdir(parents=True, exist_ok=True)
    reference = run(*REFERENCE)
    y_string, n_string = string_limit(variant(*REFERENCE))
    print(f"reference {REFERENCE[0]} elements x {REFERENCE[1]} segments: y_C = {reference['y']:.7f} m,"
          f" N = {reference['N']:.5f} N; string limit y_C = {y_string:.7f} m, N = {n_string:.5f} N"
          f" (differences {reference['y'] - y_string:.2e} m, {reference['N'] - n_string:.2e} N)")
    runs = {}
    for s in SEGMENTS:
        for e in ELEMENTS:
            r = run(e, s)
            r["error_y"] = abs(r["y"] - reference["y"])
            r["error_N"] = abs(r["N"] - reference["N"])
            runs[f"{e}x{s}"] = r
            print(f"{e:4d} elements x {s:2d} segments: y_C {r['y']:.7f} (error {r['error_y']:.2e} m),"
                  f" N {r['N']:.5f} (error {r['error_N']:.2e} N), {r['steps']} steps,"
                  f" {r['newton']} Newton iterations, {r['wall_seconds']:.2f} s")
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for ax, key, label in ((axes[0], "error_y", "error of y_C [m]"),
                           (axes[1], "error_N", "error of N at the middle [N]")):
        for s in SEGMENTS:
            ax.loglog(ELEMENTS, [max(runs[f"{e}x{s}"][key], 1e-16) for e in ELEMENTS], "o-",
                      label=f"{s} segments")
        ax.set_xlabel("elements")
        ax.set_ylabel(label)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    fig.suptitle(f"Circle on a beam: errors against {REFERENCE[0]} elements x {REFERENCE[1]} segments")
    fig.tight_layout()
    fig.savefig(out / "circle_on_beam.svg")
    (out / "circle_on_beam.json").write_text(json.dumps(
        {"reference": reference, "string_limit": {"y": y_string, "N": n_string}, "runs": runs},
        indent=1))
    print(f"written {out / 'circle_on_beam.svg'}, {out / 'circle_on_beam.json'}")


if __name__ == "__main__":
    main()
