#!/usr/bin/python3
"""The contact pressure in the connecting rod's joint under the screw preload (seed 003
figs. 4.18-4.19; issue 22): the full nonlinear static solution against the reduced ones of
examples/reduction/connecting_rod_preload_study.yaml, one map per method (wPOD of TVDs, POD
of TVDs, POD of forces, added vibration modes) with G added vectors, over the cap's split
face (x along the bolts, z along the crank pin): a row per method, a column per g of G, the
full solution at the right (as the seed's figure), each titled with its relative L2 error.

Runs the study (about 30 s) into OUT unless OUT/preload_pressures.csv exists, then writes
OUT/rod_pressure_maps.png and prints the relative L2 error of each map.

    PYTHONPATH=build/python /usr/bin/python3 bench/rod_pressure_maps.py [OUT] [G,G,..]
"""
import csv
import pathlib
import sys

import matplotlib
import numpy as np
import yaml

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.tri as mtri  # noqa: E402

SOURCE = pathlib.Path(__file__).resolve().parents[1]
EXAMPLE = SOURCE / "examples/reduction/connecting_rod_preload_study.yaml"
METHODS = {"wpod_tvd": "wPOD of TVDs", "pod_tvd": "POD of TVDs",
           "pod_forces": "POD of forces", "vibration_modes": "vibration modes"}


def read_columns(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return {k: np.array([float(r[k]) for r in rows]) for k in rows[0]}


def masked_triangulation(x, z):
    """Delaunay triangles of the pairs without those across the bore and the bolt holes
    (an edge longer than 2.5 times the median longest edge)."""
    tri = mtri.Triangulation(x, z)
    corners = np.stack([x[tri.triangles], z[tri.triangles]], axis=-1)
    edges = np.linalg.norm(corners - np.roll(corners, 1, axis=1), axis=-1).max(axis=1)
    tri.set_mask(edges > 2.5 * np.median(edges))
    return tri


def main():
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "out/rod_pressure_maps")
    counts = [int(g) for g in sys.argv[2].split(",")] if len(sys.argv) > 2 else [20, 40, 80]
    table = out / "preload_pressures.csv"
    if not table.exists():
        import jointdyn
        jointdyn.run(jointdyn.Model(yaml.safe_load(EXAMPLE.read_text())), str(out))
    c = read_columns(table)
    missing = [g for g in counts if f"wpod_tvd_{g}" not in c]
    if missing:
        print(f"g = {missing} not among the study's modes")
        return 2
    tri = masked_triangulation(c["x"] * 1e3, c["z"] * 1e3)
    full = c["full"] / 1e6
    top = max(full.max(), 1e-9)
    fig, axes = plt.subplots(len(METHODS), len(counts) + 1,
                             figsize=(3.4 * (len(counts) + 1), 1.25 * len(METHODS) + 1.0),
                             squeeze=False, constrained_layout=True)
    for row, (key, label) in enumerate(METHODS.items()):
        panels = [(f"{label}, g = {g}", c[f"{key}_{g}"] / 1e6) for g in counts]
        panels.append(("full solution", full))
        for col, (title, p) in enumerate(panels):
            ax = axes[row, col]
            m = ax.tripcolor(tri, p, shading="gouraud", vmin=0.0, vmax=top, cmap="viridis")
            relative = np.linalg.norm(p - full) / np.linalg.norm(full)
            ax.set_title(title + (f" ({relative:.1%})" if col < len(counts) else ""),
                         fontsize=8)
            ax.set_aspect("equal")
            ax.tick_params(labelsize=7)
            if col < len(counts):
                print(f"{title:>28}: pressure error {relative:.3e} (L2, relative)")
    for ax in axes[-1, :]:
        ax.set_xlabel("x [mm]", fontsize=8)
    for ax in axes[:, 0]:
        ax.set_ylabel("z [mm]", fontsize=8)
    fig.colorbar(m, ax=axes, label="contact pressure [MPa]", shrink=0.6)
    fig.suptitle("Connecting rod under the screw preload: contact pressure on the split face "
                 "(relative L2 error against the full solution)", fontsize=10)
    fig.savefig(out / "rod_pressure_maps.png", dpi=100)
    print(f"written {out / 'rod_pressure_maps.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
