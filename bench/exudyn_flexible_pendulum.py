#!/usr/bin/python3
"""An independent check of jointdyn's flexible bodies against Exudyn (issue 20), in one run.

A steel strip 0.4 x 0.02 m, 1 mm thick (plane stress, quad4 40 x 2), pinned at its left
edge (a rigid edge turning about its centre), released horizontally under gravity, 0.5 s
with fixed steps of 1e-4 s and the trapezoidal rule (HHT alpha = 0). jointdyn exports K, M,
the nodes and node sets (analysis: modal, export: matrix_market); both codes start from
those matrices:

  jointdyn   analysis: multibody, the strip reduced by Craig-Bampton on the pin and the tip
             (10 fixed-interface modes + 6 static modes - 3 rigid-body modes), and unreduced
             (full: true, every DOF a coordinate: the reference);
  Exudyn     ObjectFFRFreducedOrder from the same matrices (embedded in its 3 DOFs per node:
             z decoupled), Hurty-Craig-Bampton with the pin edge as an RBE2 interface and 10
             fixed-interface modes, a spherical joint at the pin with the out-of-plane
             rotations locked, its trapezoidal index-2 solver with modified Newton.

Reports the tip's (right edge's centre) largest distance between the runs, and the CPU time
per step of each time integration (Exudyn's without its setup) and their ratio.

    PYTHONPATH=build/python /usr/bin/python3 bench/exudyn_flexible_pendulum.py [OUT]

Exudyn is found at $EXUDYN_SITE (default /work/exudyn/site; it builds from its public
repository without graphics, see docs/model_files.md); its part runs in a subprocess:
    PYTHONPATH=$EXUDYN_SITE /usr/bin/python3 bench/exudyn_flexible_pendulum.py --exudyn DIR
"""
import json
import os
import pathlib
import subprocess
import sys
import time

import numpy as np

H, T_END, OUTPUT = 1e-4, 0.5, 1e-3
FE = {"mesh": {"generate": {"structure": "rectangle", "element": "quad4",
                            "dimensions": [0.4, 0.02], "divisions": [40, 2]}},
      "materials": {"rectangle": {"E": 210.0e9, "nu": 0.3, "rho": 7850.0, "thickness": 1.0e-3}}}
TIP = (0.4, 0.01)  # the right edge's centre: mesh node 82 (1-based)


def jointdyn_runs(out):
    """The export and the reduced and unreduced multibody runs; tip paths and CPU per step."""
    import jointdyn
    jointdyn.run(jointdyn.Model(dict(FE, analysis="modal", export="matrix_market",
                                     modes={"count": 4, "shift": -1.0})), out=str(out / "export"))
    body = {"name": "strip", "type": "flexible", "position": [0, 0],
            "fe": dict(FE, reference_nodes=[{"name": "pin", "at": "xmin"},
                                            {"name": "tip", "at": "xmax"}],
                       couplings=[{"type": "rigid", "reference": "pin", "set": "xmin"},
                                  {"type": "rigid", "reference": "tip", "set": "xmax"}]),
            "interface": ["pin", "tip"]}
    model = {"analysis": "multibody", "gravity": [0, -9.81], "bodies": [body],
             "markers": [{"name": "pivot", "body": "ground", "position": [0, 0.01]},
                         {"name": "pin", "body": "strip", "node": "pin"},
                         {"name": "tip", "body": "strip", "node": "tip"}],
             "joints": [{"name": "pin", "type": "revolute", "markers": ["pivot", "pin"]}],
             "integrator": {"scheme": "hht", "alpha": 0.0, "t_end": T_END, "dt": H,
                            "position_scale": 0.4},
             "output": {"interval": OUTPUT, "markers": ["tip"], "frames": 0}}
    runs = {}
    for name, reduction in (("jointdyn reduced", {"vibration_modes": 10}),
                            ("jointdyn unreduced", {"full": True})):
        body.update(reduction)
        body.pop("vibration_modes" if "full" in reduction else "full", None)
        r = jointdyn.analyze(jointdyn.Model(model))
        if not r["ok"]:
            raise RuntimeError(f"{name}: {r['message']}")
        c = r["column"]
        runs[name] = {"t": c["time"], "x": c["px_tip"], "y": c["py_tip"],
                      "step_cpu": r["cpu_seconds"] / r["accepted_steps"],
                      "coordinates": r["flexible_bodies"][0]["modes"]}
    return runs


def exudyn_run(export):
    """Exudyn's run from the exported files (in the subprocess); writes exudyn.json."""
    import exudyn as exu
    import exudyn.itemInterface as eii
    import scipy.io
    import scipy.sparse as sp
    from exudyn.FEM import FEMinterface, HCBstaticModeSelection, ObjectFFRFreducedOrderInterface
    lines = [l.split() for l in open(export / "model_nodes.txt") if not l.startswith("%")]
    nodes = np.array([[float(v) for v in l] for l in lines[1:]])
    n = len(nodes)
    words = [w for l in open(export / "model_sets.txt") if not l.startswith("%") for w in l.split()]
    sets, i = {}, 0
    while i < len(words):
        count = int(words[i + 1])
        sets[words[i]] = [int(v) - 1 for v in words[i + 2:i + 2 + count]]
        i += 2 + count
    m2 = sp.csr_matrix(scipy.io.mmread(export / "model_M.mtx"))
    k2 = sp.csr_matrix(scipy.io.mmread(export / "model_K.mtx"))
    # 2 DOFs per node into Exudyn's 3: z gets the x mass and a decoupled stiffness (only
    # to keep K_ii regular; the in-plane modes have no z part).
    xy = sp.csr_matrix((np.ones(2 * n), ([3 * (j // 2) + j % 2 for j in range(2 * n)],
                                         range(2 * n))), shape=(3 * n, 2 * n))
    z = sp.csr_matrix((np.ones(n), (3 * np.arange(n) + 2, range(n))), shape=(3 * n, n))
    fem = FEMinterface()
    fem.nodes = {"Position": np.column_stack([nodes[:, :2], np.zeros(n)])}
    fem.massMatrix = (xy @ m2 @ xy.T + z @ m2[0::2, 0::2] @ z.T).tocsr()
    fem.stiffnessMatrix = (xy @ k2 @ xy.T + 1e4 * (z @ k2[0::2, 0::2] @ z.T)).tocsr()
    pin = sets["xmin"]
    fem.ComputeHurtyCraigBamptonModes(boundaryNodesList=[pin], nEigenModes=10,
                                      useSparseSolver=True,
                                      computationMode=HCBstaticModeSelection.RBE2)
    cms = ObjectFFRFreducedOrderInterface(fem, rigidBodyNodeType=exu.NodeType.RotationRxyz)
    system = exu.SystemContainer()
    mbs = system.AddSystem()
    body = cms.AddObjectFFRFreducedOrder(mbs, positionRef=[0, 0, 0], gravity=[0, -9.81, 0])
    ground = mbs.AddObject(eii.ObjectGround())
    pivot = mbs.AddMarker(eii.MarkerBodyPosition(bodyNumber=ground,
                                                 localPosition=list(fem.GetNodePositionsMean(pin))))
    pin_marker = mbs.AddMarker(eii.MarkerSuperElementPosition(
        bodyNumber=body["oFFRFreducedOrder"], meshNodeNumbers=pin,
        weightingFactors=np.ones(len(pin)) / len(pin)))
    mbs.AddObject(eii.SphericalJoint(markerNumbers=[pivot, pin_marker]))
    fixed = mbs.AddMarker(eii.MarkerNodeCoordinate(
        nodeNumber=mbs.AddNode(eii.NodePointGround()), coordinate=0))
    for c in (3, 4):  # planar: the frame's rotations about x and y locked
        rotation = mbs.AddMarker(eii.MarkerNodeCoordinate(nodeNumber=body["nRigidBody"],
                                                          coordinate=c))
        mbs.AddObject(eii.CoordinateConstraint(markerNumbers=[fixed, rotation]))
    tip = int(np.argmin(np.hypot(nodes[:, 0] - TIP[0], nodes[:, 1] - TIP[1])))
    sensor = mbs.AddSensor(eii.SensorSuperElement(
        bodyNumber=body["oFFRFreducedOrder"], meshNodeNumber=tip, storeInternal=True,
        outputVariableType=exu.OutputVariableType.Position))
    mbs.Assemble()
    settings = exu.SimulationSettings()
    ti = settings.timeIntegration
    ti.numberOfSteps, ti.endTime, ti.verboseMode, ti.adaptiveStep = round(T_END / H), T_END, 0, False
    ti.newton.useModifiedNewton = True
    ti.generalizedAlpha.useNewmark = True  # Newmark 1/4, 1/2: the trapezoidal rule
    ti.generalizedAlpha.useIndex2Constraints = True
    ti.generalizedAlpha.newmarkBeta, ti.generalizedAlpha.newmarkGamma = 0.25, 0.5
    settings.solutionSettings.writeSolutionToFile = False
    settings.solutionSettings.sensorsWritePeriod = OUTPUT
    solver = exu.MainSolverImplicitSecondOrder()
    solver.InitializeSolver(mbs, settings)
    start = time.process_time()
    if not solver.SolveSteps(mbs, settings):
        raise RuntimeError("Exudyn's solver failed")
    cpu = time.process_time() - start
    solver.FinalizeSolver(mbs, settings)
    path = mbs.GetSensorStoredData(sensor)
    json.dump({"t": path[:, 0].tolist(), "x": path[:, 1].tolist(), "y": path[:, 2].tolist(),
               "step_cpu": cpu / ti.numberOfSteps, "coordinates": 10, "version": exu.__version__,
               "newton_iterations": int(solver.it.newtonStepsCount)},
              open(export.parent / "exudyn.json", "w"))


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--exudyn":
        exudyn_run(pathlib.Path(sys.argv[2]))
        return 0
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "out/exudyn_pendulum").resolve()
    out.mkdir(parents=True, exist_ok=True)
    runs = jointdyn_runs(out)
    site = os.environ.get("EXUDYN_SITE", "/work/exudyn/site")
    subprocess.run([sys.executable, __file__, "--exudyn", str(out / "export")], check=True,
                   env=dict(os.environ, PYTHONPATH=site))
    runs["Exudyn"] = json.load(open(out / "exudyn.json"))
    reference = runs["jointdyn unreduced"]
    for name, r in runs.items():
        n = min(len(r["t"]), len(reference["t"]))
        distance = np.hypot(np.asarray(r["x"][:n]) - reference["x"][:n],
                            np.asarray(r["y"][:n]) - reference["y"][:n])
        r["max_tip_distance_m"] = float(distance.max())
        print(f"{name:20s} {r['coordinates']:4d} elastic coordinates: tip within "
              f"{r['max_tip_distance_m']:.2e} m of the unreduced run, "
              f"{1e6 * r['step_cpu']:9.1f} us CPU per step")
    ratio = runs["jointdyn reduced"]["step_cpu"] / runs["Exudyn"]["step_cpu"]
    n = min(len(runs["Exudyn"]["t"]), len(runs["jointdyn reduced"]["t"]))
    between = float(np.max(np.hypot(
        np.asarray(runs["Exudyn"]["x"][:n]) - runs["jointdyn reduced"]["x"][:n],
        np.asarray(runs["Exudyn"]["y"][:n]) - runs["jointdyn reduced"]["y"][:n])))
    print(f"jointdyn reduced against Exudyn: tip within {between:.2e} m; CPU per step "
          f"jointdyn / Exudyn = {ratio:.2f}")
    summary = {name: {k: v for k, v in r.items() if k not in ("t", "x", "y")}
               for name, r in runs.items()}
    summary["reduced_vs_exudyn_max_tip_distance_m"] = between
    summary["cpu_per_step_ratio_jointdyn_to_exudyn"] = ratio
    json.dump(summary, open(out / "summary.json", "w"), indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
