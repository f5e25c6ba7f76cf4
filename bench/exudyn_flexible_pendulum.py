#!/usr/bin/python3
"""An independent check of jointdyn's flexible bodies against Exudyn (issue 20), in one run.

Planar (default): a steel strip 0.4 x 0.02 m, 1 mm thick (plane stress, quad4 40 x 2),
pinned at its left edge (a rigid edge turning about its centre), released horizontally under
gravity, 0.5 s. Spatial (--3d): a steel beam 0.4 x 0.02 x 0.01 m (hex8 20 x 2 x 2) on a
spherical joint at the centre of its end face, released horizontally under gravity along -z
while turning about the vertical at 4 rad/s, 0.3 s. Fixed steps of 1e-4 s and the
trapezoidal rule (HHT alpha = 0). jointdyn exports K, M, the nodes and node sets (analysis:
modal, export: matrix_market); both codes start from those matrices:

  jointdyn   analysis: multibody, the body reduced by Craig-Bampton on the pin and the tip
             (10 fixed-interface modes + static modes - rigid-body modes), and unreduced
             (full: true, every DOF a coordinate: the reference);
  Exudyn     ObjectFFRFreducedOrder from the same matrices (planar: embedded in its 3 DOFs
             per node, z decoupled) on an Euler-parameter node, Hurty-Craig-Bampton with the
             pin face as an RBE2 interface and 10 fixed-interface modes, a spherical joint at
             the pin (planar: the out-of-plane rotations locked), its trapezoidal index-2
             solver with modified Newton. (Its Tait-Bryan node, RotationRxyz, leaves out the
             G_t terms of the angular acceleration in Exudyn 1.11's C++ object: right about
             one axis, 0.15 m off in the 3D case.)

Reports the tip's (the far end's centre) largest distance between the runs, and the CPU
time per step of each time integration (Exudyn's without its setup) and their ratio.

    PYTHONPATH=build/python /usr/bin/python3 bench/exudyn_flexible_pendulum.py [--3d] [OUT]

Exudyn is found at $EXUDYN_SITE (default /work/exudyn/site; it builds from its public
repository without graphics, see docs/model_files.md); its part runs in a subprocess:
    PYTHONPATH=$EXUDYN_SITE /usr/bin/python3 bench/exudyn_flexible_pendulum.py --exudyn DIR [--3d]
"""
import json
import os
import pathlib
import subprocess
import sys
import time

import numpy as np

H, OUTPUT = 1e-4, 1e-3
STEEL = {"E": 210.0e9, "nu": 0.3, "rho": 7850.0}
# Per case: the FE model, the pin (the pivot's point) and tip [m], gravity, the initial
# angular velocity [rad/s] about the pivot, the end time [s] and the dimension.
CASES = {
    "2d": {"fe": {"mesh": {"generate": {"structure": "rectangle", "element": "quad4",
                                        "dimensions": [0.4, 0.02], "divisions": [40, 2]}},
                  "materials": {"rectangle": dict(STEEL, thickness=1.0e-3)}},
           "pin": [0.0, 0.01, 0.0], "tip": [0.4, 0.01, 0.0], "gravity": [0, -9.81, 0],
           "omega": [0, 0, 0], "t_end": 0.5, "dimension": 2},
    "3d": {"fe": {"mesh": {"generate": {"structure": "box", "element": "hex8",
                                        "dimensions": [0.4, 0.02, 0.01],
                                        "divisions": [20, 2, 2]}},
                  "materials": {"box": STEEL}},
           "pin": [0.0, 0.01, 0.005], "tip": [0.4, 0.01, 0.005], "gravity": [0, 0, -9.81],
           "omega": [0, 0, 4.0], "t_end": 0.3, "dimension": 3},
}


def origin_velocity(case):
    """The FE model's origin's velocity omega x (origin - pin) [m/s]."""
    return list(np.cross(case["omega"], -np.asarray(case["pin"])))


def jointdyn_runs(out, case):
    """The export and the reduced and unreduced multibody runs; tip paths and CPU per step."""
    import jointdyn
    dim = case["dimension"]
    jointdyn.run(jointdyn.Model(dict(case["fe"], analysis="modal", export="matrix_market",
                                     modes={"count": 4, "shift": -1.0})), out=str(out / "export"))
    body = {"name": "beam", "type": "flexible", "position": [0] * dim,
            "fe": dict(case["fe"], reference_nodes=[{"name": "pin", "at": "xmin"},
                                                    {"name": "tip", "at": "xmax"}],
                       couplings=[{"type": "rigid", "reference": "pin", "set": "xmin"},
                                  {"type": "rigid", "reference": "tip", "set": "xmax"}]),
            "interface": ["pin", "tip"]}
    if dim == 3:
        body.update(velocity=origin_velocity(case), angular_velocity=case["omega"])
    model = {"analysis": "multibody", "dimension": dim, "gravity": case["gravity"][:dim],
             "bodies": [body],
             "markers": [{"name": "pivot", "body": "ground", "position": case["pin"][:dim]},
                         {"name": "pin", "body": "beam", "node": "pin"},
                         {"name": "tip", "body": "beam", "node": "tip"}],
             "joints": [{"name": "pin", "type": "revolute" if dim == 2 else "spherical",
                         "markers": ["pivot", "pin"]}],
             "integrator": {"scheme": "hht", "alpha": 0.0, "t_end": case["t_end"], "dt": H,
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
        runs[name] = {"t": c["time"], "p": np.column_stack(
                          [c[f"p{x}_tip"] if f"p{x}_tip" in c else 0 * c["time"] for x in "xyz"]),
                      "step_cpu": r["cpu_seconds"] / r["accepted_steps"],
                      "coordinates": r["flexible_bodies"][0]["modes"]}
    return runs


def exudyn_matrices(export, dim):
    """Exudyn's FEM interface from the exported files: 3 DOFs per node (planar: z gets the x
    mass and a decoupled stiffness, only to keep K_ii regular; the in-plane modes have no z
    part); the node sets."""
    import scipy.io
    import scipy.sparse as sp
    from exudyn.FEM import FEMinterface
    lines = [l.split() for l in open(export / "model_nodes.txt") if not l.startswith("%")]
    nodes = np.array([[float(v) for v in l] for l in lines[1:]])
    n = len(nodes)
    words = [w for l in open(export / "model_sets.txt") if not l.startswith("%") for w in l.split()]
    sets, i = {}, 0
    while i < len(words):
        count = int(words[i + 1])
        sets[words[i]] = [int(v) - 1 for v in words[i + 2:i + 2 + count]]
        i += 2 + count
    m = sp.csr_matrix(scipy.io.mmread(export / "model_M.mtx"))
    k = sp.csr_matrix(scipy.io.mmread(export / "model_K.mtx"))
    fem = FEMinterface()
    fem.nodes = {"Position": np.column_stack([nodes[:, :dim], np.zeros((n, 3 - dim))])}
    if dim == 3:
        fem.massMatrix, fem.stiffnessMatrix = m, k
        return fem, sets
    xy = sp.csr_matrix((np.ones(2 * n), ([3 * (j // 2) + j % 2 for j in range(2 * n)],
                                         range(2 * n))), shape=(3 * n, 2 * n))
    z = sp.csr_matrix((np.ones(n), (3 * np.arange(n) + 2, range(n))), shape=(3 * n, n))
    fem.massMatrix = (xy @ m @ xy.T + z @ m[0::2, 0::2] @ z.T).tocsr()
    fem.stiffnessMatrix = (xy @ k @ xy.T + 1e4 * (z @ k[0::2, 0::2] @ z.T)).tocsr()
    return fem, sets


def exudyn_run(export, case):
    """Exudyn's run from the exported files (in the subprocess); writes exudyn.json."""
    import exudyn as exu
    import exudyn.itemInterface as eii
    from exudyn.FEM import HCBstaticModeSelection, ObjectFFRFreducedOrderInterface
    fem, sets = exudyn_matrices(export, case["dimension"])
    pin = sets["xmin"]
    fem.ComputeHurtyCraigBamptonModes(boundaryNodesList=[pin], nEigenModes=10,
                                      useSparseSolver=True,
                                      computationMode=HCBstaticModeSelection.RBE2)
    cms = ObjectFFRFreducedOrderInterface(fem,
                                          rigidBodyNodeType=exu.NodeType.RotationEulerParameters)
    system = exu.SystemContainer()
    mbs = system.AddSystem()
    body = cms.AddObjectFFRFreducedOrder(mbs, positionRef=[0, 0, 0],
                                         initialVelocity=origin_velocity(case),
                                         initialAngularVelocity=case["omega"],
                                         gravity=case["gravity"])
    ground = mbs.AddObject(eii.ObjectGround())
    pivot = mbs.AddMarker(eii.MarkerBodyPosition(bodyNumber=ground,
                                                 localPosition=list(fem.GetNodePositionsMean(pin))))
    pin_marker = mbs.AddMarker(eii.MarkerSuperElementPosition(
        bodyNumber=body["oFFRFreducedOrder"], meshNodeNumbers=pin,
        weightingFactors=np.ones(len(pin)) / len(pin)))
    mbs.AddObject(eii.SphericalJoint(markerNumbers=[pivot, pin_marker]))
    if case["dimension"] == 2:  # planar: the frame's rotations about x and y locked (e1 = e2 = 0)
        fixed = mbs.AddMarker(eii.MarkerNodeCoordinate(
            nodeNumber=mbs.AddNode(eii.NodePointGround()), coordinate=0))
        for c in (4, 5):
            rotation = mbs.AddMarker(eii.MarkerNodeCoordinate(nodeNumber=body["nRigidBody"],
                                                              coordinate=c))
            mbs.AddObject(eii.CoordinateConstraint(markerNumbers=[fixed, rotation]))
    positions = fem.GetNodePositionsAsArray()
    tip = int(np.argmin(np.linalg.norm(positions - np.asarray(case["tip"]), axis=1)))
    sensor = mbs.AddSensor(eii.SensorSuperElement(
        bodyNumber=body["oFFRFreducedOrder"], meshNodeNumber=tip, storeInternal=True,
        outputVariableType=exu.OutputVariableType.Position))
    mbs.Assemble()
    settings = exu.SimulationSettings()
    ti = settings.timeIntegration
    t_end = case["t_end"]
    ti.numberOfSteps, ti.endTime, ti.verboseMode, ti.adaptiveStep = round(t_end / H), t_end, 0, False
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
    json.dump({"t": path[:, 0].tolist(), "p": path[:, 1:4].tolist(),
               "step_cpu": cpu / ti.numberOfSteps, "coordinates": 10, "version": exu.__version__,
               "newton_iterations": int(solver.it.newtonStepsCount)},
              open(export.parent / "exudyn.json", "w"))


def largest_distance(a, b):
    """The largest distance between two tip paths over their common samples [m]."""
    n = min(len(a["t"]), len(b["t"]))
    return float(np.max(np.linalg.norm(np.asarray(a["p"][:n]) - np.asarray(b["p"][:n]), axis=1)))


def main():
    args = sys.argv[1:]
    case_name = "3d" if "--3d" in args else "2d"
    args = [a for a in args if a != "--3d"]
    case = CASES[case_name]
    if args and args[0] == "--exudyn":
        exudyn_run(pathlib.Path(args[1]), case)
        return 0
    default = "out/exudyn_pendulum" + ("_3d" if case_name == "3d" else "")
    out = pathlib.Path(args[0] if args else default).resolve()
    out.mkdir(parents=True, exist_ok=True)
    runs = jointdyn_runs(out, case)
    site = os.environ.get("EXUDYN_SITE", "/work/exudyn/site")
    flags = ["--3d"] if case_name == "3d" else []
    subprocess.run([sys.executable, __file__, "--exudyn", str(out / "export")] + flags,
                   check=True, env=dict(os.environ, PYTHONPATH=site))
    runs["Exudyn"] = json.load(open(out / "exudyn.json"))
    reference = runs["jointdyn unreduced"]
    for name, r in runs.items():
        r["max_tip_distance_m"] = largest_distance(r, reference)
        print(f"{name:20s} {r['coordinates']:4d} elastic coordinates: tip within "
              f"{r['max_tip_distance_m']:.2e} m of the unreduced run, "
              f"{1e6 * r['step_cpu']:9.1f} us CPU per step")
    ratio = runs["jointdyn reduced"]["step_cpu"] / runs["Exudyn"]["step_cpu"]
    between = largest_distance(runs["Exudyn"], runs["jointdyn reduced"])
    travel = float(np.max(np.linalg.norm(np.asarray(reference["p"]) - reference["p"][0], axis=1)))
    print(f"{case_name}: jointdyn reduced against Exudyn: tip within {between:.2e} m (the tip "
          f"travels up to {travel:.3f} m); CPU per step jointdyn / Exudyn = {ratio:.2f}")
    summary = {name: {k: v for k, v in r.items() if k not in ("t", "p")}
               for name, r in runs.items()}
    summary["case"] = case_name
    summary["reduced_vs_exudyn_max_tip_distance_m"] = between
    summary["cpu_per_step_ratio_jointdyn_to_exudyn"] = ratio
    json.dump(summary, open(out / "summary.json", "w"), indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
