#!/usr/bin/python3
"""Seed 002's belt drive timed in jointdyn and in Exudyn on the same case, in one run.

The nominal case of examples/belt_drive/seed_belt_drive.yaml: a flat belt of 240 planar ANCF
cable elements (EA 8000 N, EI 4/3e-3 N m^2, rho A 0.8288 kg/m, axial damping 1 N s, reference
strain -0.05 and a frictionless static pre-solve) round two pulleys (r = 0.09995 m, 0.1 pi m
apart, contact offset 5e-5 m); P1 run up to 12 rad/s between t = 0.05 and 0.6 s, P2 (I = 0.25
kg m^2, 2 N m s) braked by 25 N m from t = 1 to 1.5 s; contact per area (b = 0.08 m): k_c 4e9,
d_c 8e4, bristles 5e9, velocity penalty 3.22e5, mu = 0.5, 4 segments per element; gravity;
trapezoidal rule with dt = 5e-5 s and the post-Newton step.

  jointdyn   analysis: belt_drive on that file (t_end set, no profiles, no frames);
  Exudyn     its example main/pythonDev/Examples/beltDriveReevingSystem.py (improvedBelt, the
             public model of the paper behind seed 002): Cable2D elements (Lobatto 3 axial,
             Gauss 2 bending), ObjectContactFrictionCircleCable2D per element and pulley,
             TrapezoidalIndex2 with modified Newton and its discontinuous (post-Newton)
             iteration, with the nominal parameters above. Differences kept: its post-Newton
             settings (tolerance 1e-3, at most 3 iterations; jointdyn 1e-3 N, 5 passes), its
             Newton tolerances, the pulleys' 50 kg mass (their centres are fixed), its drive as
             a velocity constraint (jointdyn prescribes the angle); the example's linear speed
             ramp is replaced by jointdyn's haversine, its 960 sensors and its unused
             GeneralContact are left out.

At T_END both report the span forces F1, F2 (elastic axial force EA (eps - eps_ref) where the
belt passes the spans' middles (0.05 pi, +-0.1); Exudyn's from its element strain there), P2's
speed and the belt's torque on P2 (Exudyn: I alpha + c omega + the brake), the belt speeds
there (signed along jointdyn's numbering: +x on the top span, -x on the bottom one), the steps,
the CPU and wall time and the CPU per step of the time integration (Exudyn: SolveSteps only;
jointdyn: the run less a one-step run, i.e. without the set-up and the pre-solve), and the
ratio jointdyn / Exudyn of CPU per step. The programs run one after the other in subprocesses
(single-threaded), so they do not compete for cores.

    PYTHONPATH=build/python /usr/bin/python3 bench/exudyn_belt_drive.py [OUT] [T_END]

(OUT default out/exudyn_belt_drive, T_END default 2.45 s; writes OUT/exudyn_belt_drive.json.)
Exudyn is found at $EXUDYN_SITE (default /work/exudyn/site, built from its public repository
without graphics); the parts run as
    PYTHONPATH=build/python   /usr/bin/python3 bench/exudyn_belt_drive.py --jointdyn OUT T_END
    PYTHONPATH=$EXUDYN_SITE  /usr/bin/python3 bench/exudyn_belt_drive.py --exudyn OUT T_END
"""
import json
import os
import pathlib
import subprocess
import sys
import time
from math import cos, pi, sqrt

import numpy as np

CASE = pathlib.Path(__file__).resolve().parent.parent / "examples/belt_drive/seed_belt_drive.yaml"
TABLE4 = {"F1": 665.22, "F2": 186.65, "torque_P2": 47.68, "omega_P2": 11.3405,
          "v_top": 1.2025, "v_bottom": 1.133}
# The nominal case (seed 002; as the YAML file above).
R, DISTANCE, INERTIA, DAMPING_P2 = 0.09995, 0.1 * pi, 0.25, 2.0
EA, EI, RHO_A, DAMPING_AXIAL = 8000.0, 4.0e-3 / 3.0, 1036.0 * 0.08 * 0.01, 1.0
OFFSET, WIDTH, ELEMENTS, SEGMENTS, STRAIN_REF = 5e-5, 0.08, 240, 4, -0.05
MU, K_C, D_C, K_BRISTLE, PENALTY = 0.5, 4e9, 8e4, 5e9, 3.22e5
OMEGA, RAMP_START, RAMP_END, BRAKE, BRAKE_START, BRAKE_END = 12.0, 0.05, 0.6, 25.0, 1.0, 1.5
GRAVITY, DT = 9.81, 5e-5
PROBES = {"top": (0.05 * pi, 0.1), "bottom": (0.05 * pi, -0.1)}


def ramp_speed(t):
    """P1's speed: 0 -> OMEGA along a haversine between RAMP_START and RAMP_END."""
    if t <= RAMP_START:
        return 0.0
    if t >= RAMP_END:
        return OMEGA
    return 0.5 * OMEGA * (1.0 - cos(pi * (t - RAMP_START) / (RAMP_END - RAMP_START)))


def brake(t):
    """The braking torque's size on P2: 0 -> BRAKE along a half cosine (seed eq. 37)."""
    if t <= BRAKE_START:
        return 0.0
    if t >= BRAKE_END:
        return BRAKE
    return 0.5 * BRAKE * (1.0 - cos(pi * (t - BRAKE_START) / (BRAKE_END - BRAKE_START)))


def jointdyn_run(out, t_end):
    """jointdyn's run (in the subprocess); writes jointdyn.json."""
    import jointdyn
    import yaml

    def run(t):
        model = yaml.safe_load(open(CASE))
        model["integrator"]["t_end"] = t
        model["output"].pop("profiles", None)
        model["output"]["frames"] = 0
        model["output"].pop("plots", None)
        cpu, wall = time.process_time(), time.perf_counter()
        r = jointdyn.analyze(jointdyn.Model(model))
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        if not r["ok"]:
            raise RuntimeError(f"jointdyn: {r['message']}")
        return r, cpu, wall

    setup, setup_cpu, setup_wall = run(DT)  # set-up, pre-solve and one step
    r, cpu, wall = run(t_end)
    c = r["column"]
    steps = r["accepted_steps"] - setup["accepted_steps"]
    result = {
        "t": float(c["time"][-1]), "F1": float(c["N_top"][-1]), "F2": float(c["N_bottom"][-1]),
        "torque_P2": float(c["torque_P2"][-1]), "omega_P1": float(c["omega_P1"][-1]),
        "omega_P2": float(c["omega_P2"][-1]), "v_top": float(c["v_top"][-1]),
        "v_bottom": float(c["v_bottom"][-1]), "steps": int(r["accepted_steps"]),
        "rejected_steps": int(r["rejected_steps"]),
        "newton_iterations": int(r["newton_iterations"]),
        "cpu_s": cpu, "wall_s": wall, "cpu_s_reported": float(r["cpu_seconds"]),
        "setup_cpu_s": setup_cpu, "setup_wall_s": setup_wall,
        "ms_per_step": 1e3 * (cpu - setup_cpu) / steps,
        "wall_ms_per_step": 1e3 * (wall - setup_wall) / steps,
        "pre_solve": r["pre_solve"],
        "history": {k: c[k][::max(1, len(c["time"]) // 500)].tolist()
                    for k in ("time", "omega_P1", "omega_P2", "torque_P2", "N_top", "N_bottom")}}
    result["F1_minus_F2_times_r"] = (result["F1"] - result["F2"]) * R
    json.dump(result, open(out / "jointdyn.json", "w"))


def exudyn_run(out, t_end):
    """Exudyn's run (in the subprocess): its beltDriveReevingSystem.py example (improvedBelt)
    with the nominal parameters; writes exudyn.json."""
    import exudyn as exu
    import exudyn.itemInterface as eii
    from exudyn.beams import CreateReevingCurve, PointsAndSlopes2ANCFCable2D

    system = exu.SystemContainer()
    mbs = system.AddSystem()
    hc = 2 * OFFSET  # the belt's height (as in the example: only the contact offset uses it)
    circles = [[[0.0, 0.0], R, "L"], [[DISTANCE, 0.0], R, "L"]]
    reeving = CreateReevingCurve(circles, drawingLinesPerCircle=64, radialOffset=0.5 * hc,
                                 closedCurve=True, numberOfANCFnodes=ELEMENTS, graphicsNodeSize=0)
    ground = mbs.AddObject(eii.ObjectGround(visualization=eii.VObjectGround(show=False)))
    ground_node = mbs.AddNode(eii.NodePointGround())
    ground_coordinate = mbs.AddMarker(eii.MarkerNodeCoordinate(nodeNumber=ground_node,
                                                               coordinate=0))
    template = eii.Cable2D(physicsMassPerLength=RHO_A, physicsBendingStiffness=EI,
                           physicsAxialStiffness=EA, physicsBendingDamping=0.0,
                           physicsAxialDamping=DAMPING_AXIAL,
                           physicsReferenceAxialStrain=STRAIN_REF, physicsReferenceCurvature=0.0,
                           useReducedOrderIntegration=2, strainIsRelativeToReference=False,
                           visualization=eii.VCable2D(show=False))
    ancf = PointsAndSlopes2ANCFCable2D(mbs, reeving["ancfPointsSlopes"], reeving["elementLengths"],
                                       template, massProportionalLoad=[0, -GRAVITY, 0],
                                       fixedConstraintsNode0=[1, 0, 0, 0],  # for the pre-solve
                                       firstNodeIsLastNode=True, graphicsSizeConstraints=0)
    cables = ancf[1]
    length = reeving["totalLength"] / ELEMENTS
    area = WIDTH * length / SEGMENTS  # the contact's stiffnesses are per area, per segment
    friction_stiffness = K_BRISTLE * area

    pulley_nodes, fixed_rotations, contacts = [], [], []
    for i, (centre, radius, _) in enumerate(circles):
        node = mbs.AddNode(eii.NodeRigidBody2D(referenceCoordinates=[centre[0], centre[1], 0],
                                               initialVelocities=[0, 0, 0],
                                               visualization=eii.VNodeRigidBody2D(show=False)))
        pulley_nodes.append(node)
        body = mbs.AddObject(eii.ObjectRigidBody2D(
            physicsMass=50.0, physicsInertia=INERTIA, nodeNumber=node,
            visualization=eii.VObjectRigidBody2D(show=False)))
        for k in (0, 1):
            m = mbs.AddMarker(eii.MarkerNodeCoordinate(nodeNumber=node, coordinate=k))
            mbs.AddObject(eii.CoordinateConstraint(
                markerNumbers=[ground_coordinate, m],
                visualization=eii.VCoordinateConstraint(show=False)))
        rotation = mbs.AddMarker(eii.MarkerNodeCoordinate(nodeNumber=node, coordinate=2))
        if i == 0:
            drive = mbs.AddObject(eii.CoordinateConstraint(
                markerNumbers=[ground_coordinate, rotation], velocityLevel=True,
                offsetUserFunction_t=lambda mbs, t, itemNumber, offset: ramp_speed(t),
                visualization=eii.VCoordinateConstraint(show=False)))
        else:
            mbs.AddObject(eii.CoordinateSpringDamper(
                markerNumbers=[ground_coordinate, rotation], damping=DAMPING_P2,
                visualization=eii.VCoordinateSpringDamper(show=False)))
            mbs.AddLoad(eii.LoadCoordinate(markerNumber=rotation, load=0,
                                           loadUserFunction=lambda mbs, t, load: -brake(t)))
        fixed_rotations.append(mbs.AddObject(eii.CoordinateConstraint(
            markerNumbers=[ground_coordinate, rotation],
            visualization=eii.VCoordinateConstraint(show=False))))
        circle = mbs.AddMarker(eii.MarkerBodyRigid(bodyNumber=body))
        for cable in cables:
            shape = mbs.AddMarker(eii.MarkerBodyCable2DShape(bodyNumber=cable,
                                                             numberOfSegments=SEGMENTS,
                                                             verticalOffset=-hc / 2))
            data = mbs.AddNode(eii.NodeGenericData(
                initialCoordinates=[0.1] * SEGMENTS + [-2] * SEGMENTS + [0] * SEGMENTS,
                numberOfDataCoordinates=3 * SEGMENTS))
            contacts.append(mbs.AddObject(eii.ObjectContactFrictionCircleCable2D(
                markerNumbers=[circle, shape], nodeNumber=data, numberOfContactSegments=SEGMENTS,
                contactStiffness=K_C * area, contactDamping=D_C * area,
                frictionVelocityPenalty=PENALTY * area, frictionStiffness=friction_stiffness,
                frictionCoefficient=MU, circleRadius=radius,
                visualization=eii.VObjectContactFrictionCircleCable2D(show=False))))
    mbs.Assemble()

    settings = exu.SimulationSettings()
    settings.linearSolverType = exu.LinearSolverType.EigenSparse
    settings.solutionSettings.writeSolutionToFile = False
    settings.solutionSettings.sensorsWritePeriod = 5e-3
    settings.parallel.numberOfThreads = 1
    settings.displayStatistics = False
    settings.displayComputationTime = False
    ti = settings.timeIntegration
    ti.endTime, ti.numberOfSteps = t_end, round(t_end / DT)
    ti.verboseMode, ti.stepInformation = 0, 0
    ti.newton.useModifiedNewton = True
    ti.discontinuous.iterationTolerance = 1e-3
    ti.discontinuous.maxIterations = 3
    ti.generalizedAlpha.useNewmark = True  # Newmark 1/4, 1/2 with index-2 constraints:
    ti.generalizedAlpha.useIndex2Constraints = True  # Exudyn's TrapezoidalIndex2
    ti.generalizedAlpha.newmarkBeta, ti.generalizedAlpha.newmarkGamma = 0.25, 0.5
    static = settings.staticSolver
    static.verboseMode = 0
    static.adaptiveStep = False
    static.loadStepGeometric = True
    static.loadStepGeometricRange = 1e4
    static.numberOfLoadSteps = 10
    static.stabilizerODE2term = 1e5
    static.newton.relativeTolerance = 1e-6
    static.newton.absoluteTolerance = 1e-6

    # The frictionless static pre-solve (pulleys and node 0's x held), as in the example.
    cpu0, wall0 = time.process_time(), time.perf_counter()
    mbs.SetObjectParameter(drive, "activeConnector", False)
    for c in contacts:
        mbs.SetObjectParameter(c, "frictionCoefficient", 0.0)
        mbs.SetObjectParameter(c, "frictionStiffness", 1e-8)
    if not mbs.SolveStatic(settings, updateInitialValues=True):
        raise RuntimeError("Exudyn's static pre-solve failed")
    for c in contacts:
        mbs.SetObjectParameter(c, "frictionCoefficient", MU)
        mbs.SetObjectParameter(c, "frictionStiffness", friction_stiffness)
    for c in ancf[4]:
        mbs.SetObjectParameter(c, "activeConnector", False)
    mbs.SetObjectParameter(drive, "activeConnector", True)
    for c in fixed_rotations:
        mbs.SetObjectParameter(c, "activeConnector", False)
    presolve_cpu, presolve_wall = time.process_time() - cpu0, time.perf_counter() - wall0
    pre_forces = [EA * (float(np.ravel(mbs.GetObjectOutputBody(
        c, exu.OutputVariableType.StrainLocal, localPosition=[0, 0, 0]))[0]) - STRAIN_REF)
                  for c in cables]

    speeds = [mbs.AddSensor(eii.SensorNode(
        nodeNumber=n, storeInternal=True, outputVariableType=exu.OutputVariableType.AngularVelocity))
              for n in pulley_nodes]
    mbs.Assemble()  # the sensors (Assemble keeps the pre-solve's initial values)
    solver = exu.MainSolverImplicitSecondOrder()
    solver.InitializeSolver(mbs, settings)
    cpu, wall = time.process_time(), time.perf_counter()
    ok = solver.SolveSteps(mbs, settings)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    solver.FinalizeSolver(mbs, settings)
    if not ok:
        raise RuntimeError(f"Exudyn's solver failed at t = {mbs.systemData.GetTime()}")
    t = mbs.systemData.GetTime()

    def probe(point):
        """The belt's elastic axial force and speed where it passes point (nearest point of
        the centreline), the speed signed along +x on the top span and -x on the bottom one."""
        point = np.array(point)
        best = (np.inf, None, 0.0)
        for cable in cables:
            length_e = mbs.GetObjectParameter(cable, "physicsLength")
            for x in np.linspace(0.0, length_e, 9):
                p = mbs.GetObjectOutputBody(cable, exu.OutputVariableType.Position, [x, 0, 0])
                d = np.hypot(*(p[:2] - point))
                if d < best[0]:
                    best = (d, cable, x)
        _, cable, x0 = best
        length_e = mbs.GetObjectParameter(cable, "physicsLength")
        xs = np.clip(np.linspace(x0 - length_e / 8, x0 + length_e / 8, 201), 0.0, length_e)
        d = [np.hypot(*(mbs.GetObjectOutputBody(cable, exu.OutputVariableType.Position,
                                                [x, 0, 0])[:2] - point)) for x in xs]
        x = float(xs[int(np.argmin(d))])
        strain = float(np.ravel(mbs.GetObjectOutputBody(cable, exu.OutputVariableType.StrainLocal,
                                                        [x, 0, 0]))[0])
        velocity = mbs.GetObjectOutputBody(cable, exu.OutputVariableType.Velocity, [x, 0, 0])
        direction = 1.0 if point[1] > 0 else -1.0
        return EA * (strain - STRAIN_REF), direction * float(velocity[0]), float(min(d))

    (f1, v_top, d_top), (f2, v_bottom, d_bottom) = probe(PROBES["top"]), probe(PROBES["bottom"])
    omega = [float(mbs.GetNodeOutput(n, exu.OutputVariableType.AngularVelocity)[2])
             for n in pulley_nodes]
    alpha_p2 = float(mbs.GetNodeOutput(pulley_nodes[1],
                                       exu.OutputVariableType.AngularAcceleration)[2])
    history = mbs.GetSensorStoredData(speeds[1])
    steps = int(ti.numberOfSteps)
    result = {
        "t": t, "F1": float(f1), "F2": float(f2),
        "torque_P2": INERTIA * alpha_p2 + DAMPING_P2 * omega[1] + brake(t),
        "omega_P1": omega[0], "omega_P2": omega[1], "v_top": v_top, "v_bottom": v_bottom,
        "probe_distance_m": [d_top, d_bottom], "steps": steps,
        "newton_iterations": int(solver.it.newtonStepsCount),
        "jacobians": int(solver.it.newtonJacobiCount),
        "discontinuous_iterations": int(solver.it.discontinuousIterationsCount),
        "cpu_s": cpu, "wall_s": wall, "ms_per_step": 1e3 * cpu / steps,
        "wall_ms_per_step": 1e3 * wall / steps,
        "setup_cpu_s": presolve_cpu, "setup_wall_s": presolve_wall,
        "pre_solve": {"axial_force_min_n": min(pre_forces), "axial_force_max_n": max(pre_forces)},
        "coordinates": int(solver.GetODE2size()), "constraints": int(solver.GetAEsize()),
        "version": exu.__version__,
        "history": {"time": history[:, 0].tolist(), "omega_P2": history[:, 3].tolist()}}
    result["F1_minus_F2_times_r"] = (result["F1"] - result["F2"]) * R
    json.dump(result, open(out / "exudyn.json", "w"))


def main():
    if len(sys.argv) > 3 and sys.argv[1] in ("--exudyn", "--jointdyn"):
        out, t_end = pathlib.Path(sys.argv[2]), float(sys.argv[3])
        (exudyn_run if sys.argv[1] == "--exudyn" else jointdyn_run)(out, t_end)
        return 0
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "out/exudyn_belt_drive").resolve()
    t_end = float(sys.argv[2]) if len(sys.argv) > 2 else 2.45
    out.mkdir(parents=True, exist_ok=True)
    site = os.environ.get("EXUDYN_SITE", "/work/exudyn/site")
    runs = {}
    for name, flag, env in (("jointdyn", "--jointdyn", dict(os.environ)),
                            ("Exudyn", "--exudyn", dict(os.environ, PYTHONPATH=site))):
        # one after the other: the two runs do not compete for cores
        subprocess.run([sys.executable, __file__, flag, str(out), repr(t_end)], check=True, env=env)
        runs[name] = json.load(open(out / f"{name.lower()}.json"))
    ratio = runs["jointdyn"]["ms_per_step"] / runs["Exudyn"]["ms_per_step"]
    rows = [("F1", "N", "{:.2f}"), ("F2", "N", "{:.2f}"), ("torque_P2", "N m", "{:.3f}"),
            ("F1_minus_F2_times_r", "N m", "{:.3f}"), ("omega_P2", "rad/s", "{:.4f}"),
            ("v_top", "m/s", "{:.4f}"), ("v_bottom", "m/s", "{:.4f}"), ("steps", "", "{:d}"),
            ("newton_iterations", "", "{:d}"), ("cpu_s", "s", "{:.1f}"), ("wall_s", "s", "{:.1f}"),
            ("ms_per_step", "ms", "{:.2f}")]
    print(f"seed 002's belt drive at t = {t_end:g} s (240 elements, dt = {DT:g} s)")
    print(f"{'':26s}{'jointdyn':>12s}{'Exudyn':>12s}{'table 4':>12s}")
    for key, unit, fmt in rows:
        reference = TABLE4.get(key.replace("F1_minus_F2_times_r", "torque_P2"))
        print(f"{key + (' [' + unit + ']' if unit else ''):26s}"
              + "".join(f"{fmt.format(runs[n][key]):>12s}" for n in ("jointdyn", "Exudyn"))
              + (f"{reference:>12g}" if reference is not None and abs(t_end - 2.45) < 1e-9
                 else f"{'':>12s}"))
    print(f"CPU per step jointdyn / Exudyn = {ratio:.2f}")
    summary = {"t_end": t_end, "dt": DT, "elements": ELEMENTS, "table4_at_2.45": TABLE4,
               "cpu_per_step_ratio_jointdyn_to_exudyn": ratio,
               "wall_per_step_ratio_jointdyn_to_exudyn":
                   runs["jointdyn"]["wall_ms_per_step"] / runs["Exudyn"]["wall_ms_per_step"]}
    for name, r in runs.items():
        summary[name] = {k: v for k, v in r.items() if k != "history"}
    json.dump(summary, open(out / "exudyn_belt_drive.json", "w"), indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
