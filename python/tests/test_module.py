"""The Python module against the command line and against closed forms.

Run by ctest (python_module) with PYTHONPATH at the built module, JOINTDYN_SOURCE_DIR and
JOINTDYN_CLI (the jointdyn executable).
"""
import json
import math
import os
import pathlib
import subprocess

import numpy as np
import pytest
import yaml

import jointdyn

SOURCE = pathlib.Path(os.environ["JOINTDYN_SOURCE_DIR"])
CLI = os.environ["JOINTDYN_CLI"]

# Quick examples of several analyses (each well under a second).
EXAMPLES = [
    "examples/hysteresis/coulomb_2d_circle.yaml",
    "examples/hysteresis/iwan_pressure_sweep.yaml",
    "examples/transient/den_hartog_coulomb.yaml",
    "examples/harmonic/jenkins_sdof.yaml",
    "examples/multibody/pendulum.yaml",
    "examples/multibody/flexible_car_pendulum.yaml",
]

# Summary entries that differ from run to run: timings, the process, the files' paths.
VOLATILE = {"times_s", "wall_seconds", "cpu_seconds", "seconds", "process", "model", "out",
            "files", "partial", "started", "finished", "version"}


def figures(value, path=""):
    """The summary's numbers, strings and booleans by key path, without volatile entries."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key not in VOLATILE and not key.endswith(("_seconds", "time_s", "per_second",
                                                         "cpu_ratio_to_full")):
                out.update(figures(item, f"{path}.{key}"))
        return out
    if isinstance(value, list):
        out = {}
        for i, item in enumerate(value):
            out.update(figures(item, f"{path}[{i}]"))
        return out
    return {path: value}


def cli_run(model, out):
    result = subprocess.run([CLI, "run", str(model), "--out", str(out)], capture_output=True,
                            text=True, check=False)
    return result.returncode, result.stderr


def without_timings(csv):
    """The CSV's rows without its timing columns (`seconds`, as in study.csv)."""
    rows = [line.split(",") for line in csv.read_text().splitlines()]
    keep = [j for j, name in enumerate(rows[0]) if "seconds" not in name]
    return [[row[j] for j in keep if j < len(row)] for row in rows]


def assert_python_gives_the_command_lines_results(model, tmp_path):
    """The model run by the command line and by jointdyn.run: the same summary figures
    (1e-12) and the same CSV files, timings aside."""
    code, stderr = cli_run(model, tmp_path / "cli")
    assert code == 0, stderr
    expected = figures(json.loads((tmp_path / "cli" / "summary.json").read_text()))
    result = jointdyn.run(jointdyn.load(str(model)), str(tmp_path / "py"))
    assert result["ok"], result["message"]
    got = figures(result["summary"])
    assert got.keys() == expected.keys()
    for key, value in expected.items():
        if isinstance(value, float):
            assert got[key] == pytest.approx(value, rel=1e-12, abs=1e-300), key
        else:
            assert got[key] == value, key
    cli_files = sorted(p.name for p in (tmp_path / "cli").iterdir() if p.suffix == ".csv")
    py_files = sorted(p.name for p in (tmp_path / "py").iterdir() if p.suffix == ".csv")
    assert cli_files == py_files
    for name in cli_files:
        assert without_timings(tmp_path / "cli" / name) == without_timings(tmp_path / "py" / name)


@pytest.mark.parametrize("example", EXAMPLES)
def test_run_gives_the_command_lines_results(example, tmp_path):
    assert_python_gives_the_command_lines_results(SOURCE / example, tmp_path)


def test_a_dict_is_the_model_file(tmp_path):
    path = SOURCE / "examples/hysteresis/coulomb_2d_circle.yaml"
    from_file = jointdyn.run(jointdyn.load(str(path)), str(tmp_path / "file"))
    model = jointdyn.Model(yaml.safe_load(path.read_text()))
    assert model.analysis == "hysteresis"
    from_dict = jointdyn.run(model, str(tmp_path / "dict"))
    assert figures(from_dict["summary"]).keys() == figures(from_file["summary"]).keys()
    for name in ("dissipation_per_cycle", "max_traction_pa"):
        if name in from_file["summary"]:
            assert from_dict["summary"][name] == from_file["summary"][name]


@pytest.mark.parametrize("bad", ["unknown_law_key.yaml", "static_bonded_eps.yaml",
                                 "static_pressure_set.yaml"])
def test_input_errors_raise_the_command_lines_message(bad, tmp_path):
    path = SOURCE / "tests/bad_models" / bad
    code, stderr = cli_run(path, tmp_path / "cli")
    assert code == 2
    message = stderr.strip().splitlines()[-1].removeprefix("jointdyn: error: ")
    with pytest.raises(jointdyn.InputError) as raised:
        jointdyn.run(jointdyn.load(str(path)), str(tmp_path / "py"))
    assert str(raised.value) == message
    assert not (tmp_path / "py" / "summary.json").exists()


def test_a_bad_dict_names_the_key():
    model = jointdyn.Model({"analysis": "hysteresis",
                            "law": {"type": "coulomb", "c1": -1.0, "mu": 0.3},
                            "path": {"type": "sinusoid", "amplitude": 1e-5, "frequency": 1.0},
                            "normal": {"pressure": 1e6}})
    with pytest.raises(jointdyn.InputError, match=r"law\.c1 = -1: must be > 0"):
        jointdyn.run(model, "/nonexistent/never/written")


def test_coulomb_law_sticks_then_slides_at_mu_p():
    # Coulomb with stick stiffness c1 and no parallel spring: tau = c1 s up to mu p, then
    # mu p; back from the turning point elastically with slope c1.
    c1, mu, p = 1e11, 0.3, 1e6
    slip = np.concatenate([np.linspace(0.0, 1e-5, 101), np.linspace(1e-5, 0.0, 101)[1:]])
    r = jointdyn.evaluate_law({"type": "coulomb", "dim": 1, "c1": c1, "mu": mu}, slip, p)
    limit = mu * p
    s_stick = limit / c1
    loading = slip[:101]
    expected = np.minimum(c1 * loading, limit)
    assert np.allclose(r["traction"][:101, 0], expected, rtol=1e-12, atol=1e-9 * limit)
    unloading = slip[101:]
    expected_back = np.maximum(limit - c1 * (1e-5 - unloading), -limit)
    assert np.allclose(r["traction"][101:, 0], expected_back, rtol=1e-12, atol=1e-9 * limit)
    assert r["state"][5] == 1 and r["state"][100] == 2      # stick, then slip
    assert r["tangent"][5, 0, 0] == pytest.approx(c1)
    assert r["stored_energy"][5] == pytest.approx(0.5 * c1 * slip[5] ** 2, rel=1e-12)
    assert s_stick < 1e-5


def test_a_bad_law_raises():
    with pytest.raises(jointdyn.InputError, match="mu"):
        jointdyn.evaluate_law({"type": "coulomb", "dim": 1, "c1": 1e11, "mu": -1.0},
                              np.zeros(3), 1e6)


def test_analyze_gives_the_runs_figures_as_arrays(tmp_path):
    model = jointdyn.load(str(SOURCE / "examples/hysteresis/iwan_pressure_sweep.yaml"))
    summary = jointdyn.run(model, str(tmp_path / "files"))["summary"]
    events = []
    loop = jointdyn.analyze(model, progress=events.append)
    assert loop["ok"], loop["message"]
    n = summary["samples"]
    assert loop["time"].shape == (n,) and loop["slip"].shape == (n, 2)
    assert loop["traction"].shape == (n, 2) and loop["state"].shape == (n,)
    assert list(loop["dissipation_per_cycle"]) == summary["dissipation_per_cycle"]
    assert loop["secant_stiffness"] == summary["secant_stiffness"]
    assert loop["max_traction"] == summary["max_traction"]
    assert list(loop["sweep"]["amplitude"]) == summary["sweep"]["amplitudes"]
    assert any(e["kind"] == "progress" for e in events)
    # The energy balance from the arrays: the work done on the interface is the
    # trapezoidal sum of traction . d slip.
    work = np.concatenate([[0.0], np.cumsum(0.5 * np.sum(
        (loop["traction"][1:] + loop["traction"][:-1]) * np.diff(loop["slip"], axis=0), axis=1))])
    assert np.allclose(loop["work"] - loop["work"][0], work, rtol=1e-9,
                       atol=1e-12 * np.abs(work).max())


def test_a_callback_that_raises_stops_the_run():
    model = jointdyn.load(str(SOURCE / "examples/hysteresis/iwan_pressure_sweep.yaml"))

    class Stop(Exception):
        pass

    def progress(event):
        if event["kind"] == "progress" and event["done"] > 0:
            raise Stop("enough")

    with pytest.raises(Stop, match="enough"):
        jointdyn.analyze(model, progress=progress)
    # The next run is not stopped by the earlier request.
    assert jointdyn.analyze(model)["ok"]


def test_transient_arrays_are_the_csv(tmp_path):
    model = jointdyn.load(str(SOURCE / "examples/transient/den_hartog_coulomb.yaml"))
    jointdyn.run(model, str(tmp_path))
    header = (tmp_path / "transient.csv").read_text().splitlines()[0].split(",")
    csv = np.loadtxt(tmp_path / "transient.csv", delimiter=",", skiprows=1)
    result = jointdyn.analyze(model)
    assert result["ok"], result["message"]
    assert result["columns"] == header
    assert np.array_equal(result["samples"], csv)
    assert np.array_equal(result["column"]["time"], csv[:, 0])
    e = result["energy"]
    assert e["law_dissipation"] > 0.0
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert result["accepted_steps"] == summary["accepted_steps"]


def shortened_multibody(name, t_end, out):
    """The multibody example `name` from a dict, over [0, t_end] without frames, run into
    `out` (its files) and returned as a Model."""
    spec = yaml.safe_load((SOURCE / f"examples/multibody/{name}.yaml").read_text())
    spec["integrator"]["t_end"] = t_end
    spec["output"]["frames"] = 0
    model = jointdyn.Model(spec, name=name)
    jointdyn.run(model, str(out))
    return model


def test_multibody_arrays_are_the_csv(tmp_path):
    # A slider-crank from a dict: the samples equal multibody.csv, the slider follows the
    # closed form, and the constraint work is the driver's (gravity's work aside).
    model = shortened_multibody("slider_crank", 0.6, tmp_path)
    header = (tmp_path / "multibody.csv").read_text().splitlines()[0].split(",")
    csv = np.loadtxt(tmp_path / "multibody.csv", delimiter=",", skiprows=1)
    events = []
    result = jointdyn.analyze(model, events.append)
    assert result["ok"], result["message"]
    assert result["columns"] == header
    assert np.array_equal(result["samples"], csv)
    assert len([e for e in events if e["kind"] == "sample"]) == len(csv)
    assert result["coordinates"] == 9 and result["constraints"] == 9
    t, x = result["column"]["time"], result["column"]["x_slider"]
    phi = np.where(t <= 0.5, 10.0 * (t - 0.5 / np.pi * np.sin(np.pi * t / 0.5)), 20.0 * (t - 0.25))
    exact = 0.1 * np.cos(phi) + np.sqrt(0.35**2 - (0.1 * np.sin(phi))**2)
    assert np.max(np.abs(x - exact)) < 1e-9
    e = result["energy"]
    assert e["constraint_work"] > 0.0
    assert abs(e["constraint_work"] + e["external_work"] - e["kinetic"] - e["numerical_dissipation"]) < 1e-9


def test_flexible_bodies_are_the_summarys(tmp_path):
    # The flexible car pendulum over 0.05 s from a dict: its flexible body's figures (elastic
    # coordinates, joint modes, free-free frequencies, warnings) equal summary.json's, and the
    # elastic coordinates asked for in output.modal are columns.
    model = shortened_multibody("flexible_car_pendulum", 0.05, tmp_path)
    summary = json.loads((tmp_path / "summary.json").read_text())
    result = jointdyn.analyze(model)
    assert result["ok"], result["message"]
    body, expected = result["flexible_bodies"][0], summary["flexible_bodies"][0]
    assert body["name"] == expected["name"] == "strip"
    assert body["modes"] == expected["modes"] == 8
    assert body["joint_modes"] == expected["joint_modes"] == 0
    assert np.array_equal(body["frequencies_hz"], expected["frequencies_hz"])
    assert result["warnings"] == summary["warnings"] == []
    assert [c for c in result["columns"] if c.endswith("_strip") and c[0] == "q"] == [
        f"q{k}_strip" for k in range(1, 9)]


def test_spatial_multibody_arrays_give_the_tops_precession(tmp_path):
    # The 3D heavy top over 0.2 s from a dict: Euler parameters and angular velocities are
    # columns, the Euler parameters stay unit, and the centre of mass circles the vertical
    # through the tip at the closed-form precession rate (8.4503 rad/s).
    model = shortened_multibody("heavy_top", 0.2, tmp_path)
    result = jointdyn.analyze(model)
    assert result["ok"], result["message"]
    assert result["coordinates"] == 7 and result["constraints"] == 4
    c = result["column"]
    p = np.stack([c[f"e{k}_top"] for k in range(4)])
    assert np.max(np.abs(np.linalg.norm(p, axis=0) - 1.0)) < 1e-12
    azimuth = np.unwrap(np.arctan2(c["y_top"], c["x_top"]))
    rate = (azimuth[-1] - azimuth[0]) / (c["time"][-1] - c["time"][0])
    assert abs(rate / 8.450253150782263 - 1.0) < 1e-4
    assert np.allclose(c["fz_pivot"][20:], 0.5 * 9.81, rtol=1e-4)


def test_spatial_flexible_body_is_the_summarys(tmp_path):
    # The 3D flexible beam over 0.02 s from a dict: its body's figures equal summary.json's
    # (16 elastic coordinates: 10 + 12 - 6), its frame's Euler parameters stay unit and the
    # pivot holds the beam's point at the origin.
    model = shortened_multibody("flexible_beam_3d", 0.02, tmp_path)
    summary = json.loads((tmp_path / "summary.json").read_text())
    result = jointdyn.analyze(model)
    assert result["ok"], result["message"]
    body, expected = result["flexible_bodies"][0], summary["flexible_bodies"][0]
    assert body["name"] == expected["name"] == "beam"
    assert body["modes"] == expected["modes"] == 16
    assert np.array_equal(body["frequencies_hz"], expected["frequencies_hz"])
    c = result["column"]
    p = np.stack([c[f"e{k}_beam"] for k in range(4)])
    assert np.max(np.abs(np.linalg.norm(p, axis=0) - 1.0)) < 1e-12
    assert result["max_constraint_violation"] < 1e-12
    assert [k for k in c if k.startswith("q") and k.endswith("_beam")] == [
        f"q{k}_beam" for k in range(1, 5)]


def test_belt_drive_arrays_and_profiles(tmp_path):
    # The belt drive at rest after its pre-solve (60 elements, 10 ms): the samples are
    # belt_drive.csv's, the profile along the belt carries the pre-tension 400 N and the
    # membrane's pressure N / (R b) on the wrapped arcs.
    model = yaml.safe_load((SOURCE / "examples/belt_drive/seed_belt_drive.yaml").read_text())
    model["belt"]["elements"] = 60
    model["integrator"].update({"t_end": 0.01, "dt": 1.0e-4})
    model["output"].update({"profiles": [0.01], "frames": 0})
    result = jointdyn.analyze(jointdyn.Model(model))
    assert result["ok"], result["message"]
    jointdyn.run(jointdyn.Model(model), out=str(tmp_path))
    csv = np.loadtxt(tmp_path / "belt_drive.csv", delimiter=",", skiprows=1)
    assert np.allclose(result["samples"], csv, rtol=1e-12, atol=1e-12)
    # 4 per node, x, y, angle per pulley; the pulleys' bearings (2 rows each) and P1's drive
    assert result["coordinates"] == 4 * 60 + 2 * 3 and result["constraints"] == 2 * 2 + 1
    assert abs(result["pre_solve"]["axial_force_min_n"] - 400.0) < 6.0
    profile = result["profiles"][0]
    assert len(profile["s"]) == 60 * 4
    wrapped = (profile["pulley"] >= 0) & (np.abs(profile["x"] - 0.05 * np.pi) > 0.2)
    membrane = profile["axial_force"][wrapped] / ((0.09995 + 5e-5) * 0.08)
    assert np.median(np.abs(profile["pressure"][wrapped] / membrane - 1.0)) < 0.02


def test_quasi_static_circle_on_a_beam(tmp_path):
    # Seed 002 section 3 quasi-statically (16 elements): the circle's centre and the belt's
    # force on it by column, the beam's axial force at its middle; the same as the CLI's.
    model = yaml.safe_load((SOURCE / "examples/belt_drive/circle_on_beam.yaml").read_text())
    model["cable"]["elements"] = 16
    model["output"]["frames"] = 0
    result = jointdyn.analyze(jointdyn.Model(model))
    assert result["ok"], result["message"]
    jointdyn.run(jointdyn.Model(model), out=str(tmp_path))
    csv = np.loadtxt(tmp_path / "belt_drive.csv", delimiter=",", skiprows=1)
    assert np.allclose(result["samples"], csv, rtol=1e-12, atol=1e-12)
    column = result["column"]
    assert column["time"][-1] == 1.0 and "E_kinetic" not in column
    y = column["y_C"][-1]
    assert abs(y - -0.19148) < 1e-4  # the string limit -0.19192 and the 16 elements' 4.4e-4
    assert abs(column["Fy_C"][-1] - (200.0 + y - 0.35)) < 1e-6
    assert abs(column["N_middle"][-1] - 113.43) < 0.05
    assert result["profiles"][0]["pressure"].max() > 0.0


def test_harmonic_arrays_give_the_frequency_response(tmp_path):
    model = jointdyn.load(str(SOURCE / "examples/harmonic/jenkins_sdof.yaml"))
    jointdyn.run(model, str(tmp_path))
    csv = np.loadtxt(tmp_path / "frequency_response.csv", delimiter=",", skiprows=1)
    result = jointdyn.analyze(model)
    assert result["ok"], result["message"]
    omega = np.concatenate([c["omega"] for c in result["curves"]])
    coefficients = np.concatenate([c["coefficients"] for c in result["curves"]])
    a1, b1 = result["terms"].index("a1"), result["terms"].index("b1")
    amplitude = np.hypot(coefficients[:, 0, a1], coefficients[:, 0, b1])   # DOF x
    h1 = np.concatenate([c["amplitude_h1"][:, 0] for c in result["curves"]])
    assert np.array_equal(amplitude, h1)
    assert np.allclose(omega / (2.0 * math.pi), csv[:, 1], rtol=1e-14)
    assert np.allclose(amplitude, csv[:, 3], rtol=1e-12)


def test_joint_harmonic_arrays_are_the_csv_and_the_summary(tmp_path):
    # The bolted lap joint's frequency response over a narrow band at one level (a dict
    # edit of the example): the module's arrays are the files' figures.
    spec = yaml.safe_load((SOURCE / "examples/harmonic/bolted_lap_joint_frf.yaml").read_text())
    spec["mesh"]["file"] = str(SOURCE / "tests/models/lap_joint.msh")
    spec["levels"] = [0.3]
    spec["continuation"]["from"], spec["continuation"]["to"] = 900.0, 960.0
    model = jointdyn.Model(spec)
    summary = jointdyn.run(model, str(tmp_path))["summary"]
    csv = np.loadtxt(tmp_path / "frequency_response.csv", delimiter=",", skiprows=1)
    result = jointdyn.analyze(model)
    assert result["ok"], result["message"]
    assert result["outputs"] == ["tip.uz"] == summary["outputs"]
    assert result["linear_frequencies_hz"] == summary["linear_frequencies_hz"]
    assert result["coordinates"] == summary["coordinates"] == 31
    (curve,) = result["curves"]
    assert np.allclose(curve["omega"] / (2.0 * math.pi), csv[:, 1], rtol=1e-14)
    assert np.allclose(curve["amplitude_h1"][:, 0], csv[:, 3], rtol=1e-12)
    peak = np.argmax(curve["amplitude_h1"][:, 0])
    assert curve["omega"][peak] / (2.0 * math.pi) == pytest.approx(
        summary["curves"][0]["peak_frequency_hz"], rel=1e-12)


def test_backbone_arrays_are_the_csv_and_the_summary(tmp_path):
    # The lap joint's nonlinear mode at five amplitudes by EPMC and quasi-static modal
    # analysis (a dict edit of the example): the module's arrays are backbone.csv's rows.
    spec = yaml.safe_load(
        (SOURCE / "examples/harmonic/bolted_lap_joint_backbone.yaml").read_text())
    spec["mesh"]["file"] = str(SOURCE / "tests/models/lap_joint.msh")
    spec["nonlinear_mode"]["amplitudes"] = {"from": 1.0e-8, "to": 1.0e-6, "count": 5}
    spec["nonlinear_mode"]["methods"] = ["epmc", "quasi_static"]
    model = jointdyn.Model(spec)
    summary = jointdyn.run(model, str(tmp_path))["summary"]
    rows = np.loadtxt(tmp_path / "backbone.csv", delimiter=",", skiprows=1,
                      usecols=(1, 2, 3, 4))
    result = jointdyn.analyze(model)
    assert result["ok"], result["message"]
    assert [b["method"] for b in result["backbones"]] == ["epmc", "quasi_static"]
    assert result["mode_frequency_hz"] == summary["nonlinear_mode"]["linear_frequency_hz"]
    arrays = np.vstack([np.column_stack((b["modal_amplitude"], b["amplitude_m"][:, 0],
                                         b["frequency_hz"], b["damping_ratio"]))
                        for b in result["backbones"]])
    assert np.allclose(arrays, rows, rtol=1e-12)
    epmc = result["backbones"][0]
    # The requested tip amplitudes (EPMC prescribes them through the stuck mode's shape;
    # at 1e-6 m the joint slips and the shape changes a little).
    assert epmc["amplitude_m"][0, 0] == pytest.approx(1.0e-8, rel=1e-5)
    assert epmc["frequency_hz"][-1] < epmc["frequency_hz"][0] - 5.0


def test_modal_arrays_and_the_fe_model(tmp_path):
    model = jointdyn.load(str(SOURCE / "examples/fe/friction_bar_modal.yaml"))
    summary = jointdyn.run(model, str(tmp_path))["summary"]
    result = jointdyn.analyze(model)
    assert result["ok"], result["message"]
    # Bitwise: each mesh is made by a fresh Gmsh (fe/gmsh_session.cc; before, a second mesh
    # in one process differed at rounding and the frequencies by 1e-9).
    assert np.array_equal(result["frequencies_hz"], summary["frequencies_hz"])
    fe = result["model"]
    assert fe["nodes"].shape == (summary["nodes"], 3)
    assert fe["stiffness"].nnz == summary["nnz_stiffness"]
    k, m, v = fe["free_stiffness"], fe["free_mass"], result["modes"]
    assert k.shape == (fe["free_dofs"], fe["free_dofs"])
    # M-orthonormal modes with K v = omega^2 M v.
    assert np.allclose(v.T @ (m @ v), np.eye(v.shape[1]), atol=1e-9)
    omega2 = (2.0 * math.pi * np.asarray(result["frequencies_hz"])) ** 2
    assert np.allclose(np.diag(v.T @ (k @ v)), omega2, rtol=1e-8)
    # The consistent mass of the mesh: e_x^T M e_x is the mass of its blocks (no beams).
    ex = np.zeros(fe["mass"].shape[0])
    ex[0::fe["dim"]] = 1.0
    assert ex @ (fe["mass"] @ ex) == pytest.approx(sum(summary["mass_blocks"].values()), rel=1e-9)
    joint = next(iter(fe["contacts"].values()))
    assert joint["point"].shape[1] == 3 and joint["area"].sum() > 0.0


def test_static_arrays_of_a_dict_model():
    # A hex20 cantilever clamped at x = 0 under 1e5 Pa on its top face: the clamp carries
    # p times the face's area, downwards pushed means an upward reaction.
    p, length, width = 1e5, 0.2, 0.02
    model = jointdyn.Model({
        "analysis": "static",
        "mesh": {"generate": {"structure": "box", "element": "hex20",
                              "dimensions": [length, width, 0.01], "divisions": [10, 2, 1]}},
        "materials": {"box": {"E": 210e9, "nu": 0.3, "rho": 7850.0}},
        "supports": [{"set": "xmin"}],
        "pressures": [{"set": "zmax", "pressure": p}],
    })
    result = jointdyn.analyze(model)
    assert result["ok"], result["message"]
    step = result["steps"][-1]
    assert step["force_n"][0] == pytest.approx([0.0, 0.0, p * length * width], abs=1e-6)
    assert result["displacement"].shape == (result["model"]["nodes"].shape[0], 3)
    assert result["displacement"][:, 2].min() < 0.0


def test_joint_dynamics_histories_are_the_csv(tmp_path):
    model = jointdyn.load(str(SOURCE / "examples/dynamics/bolted_lap_joint_preload.yaml"))
    jointdyn.run(model, str(tmp_path))
    lines = (tmp_path / "histories.csv").read_text().splitlines()
    header = lines[0].split(",")
    rows = [line.split(",") for line in lines[1:]]
    result = jointdyn.analyze(model)
    assert result["ok"], result["message"]
    assert set(result["runs"]) == {row[0] for row in rows}
    for name, run in result["runs"].items():
        csv = np.array([[float(v) for v in row[1:]] for row in rows if row[0] == name])
        assert np.array_equal(run["time"], csv[:, header.index("time") - 1]), name
        for column in ("measure", "gap_norm_m", "normal_force_n"):
            assert np.array_equal(run[column], csv[:, header.index(column) - 1]), (name, column)


def test_reduction_basis_and_reduced_matrices(tmp_path):
    model = jointdyn.load(str(SOURCE / "examples/reduction/friction_bar_cb.yaml"))
    result = jointdyn.analyze(model)
    assert result["ok"], result["message"]
    v, k, m = result["basis"], result["stiffness"], result["mass"]
    fe = result["model"]
    assert v.shape == (fe["free_dofs"], len(result["columns"]))
    # The reduced matrices are the projections of the free-DOF K and M.
    assert np.allclose(v.T @ (fe["free_stiffness"] @ v), k, rtol=1e-9, atol=1e-9 * abs(k).max())
    assert np.allclose(v.T @ (fe["free_mass"] @ v), m, rtol=1e-9, atol=1e-9 * abs(m).max())
    elastic = np.sort(np.linalg.eigvals(np.linalg.solve(m, k)).real)
    elastic = elastic[elastic > (2 * math.pi * 1.0) ** 2]
    assert np.allclose(np.sqrt(elastic[: len(result["frequencies_hz"])]) / (2 * math.pi),
                       result["frequencies_hz"], rtol=1e-8)


def test_joint_mode_study_curves():
    # The static convergence study of the friction bar, made small: 5 mm elements, two
    # methods, g = 0, 5, 10. The wPOD curve's gap-norm error falls from g = 0 to g = 10.
    path = SOURCE / "examples/reduction/friction_bar_joint_mode_study.yaml"
    spec = yaml.safe_load(path.read_text())
    spec["mesh"]["generate"]["size"] = 5.0e-3
    spec["study"]["methods"] = ["wpod_tvd", "vibration_modes"]
    spec["study"]["modes"] = [0, 5, 10]
    result = jointdyn.analyze(jointdyn.Model(spec, name=str(path)))
    assert result["ok"], result["message"]
    assert set(result["pov_ratio"]) >= {"wpod_tvd"}
    for case in result["cases"].values():
        wpod = next(c for c in case["curves"] if c["method"] == "wpod_tvd")
        assert list(wpod["g"]) == [0, 5, 10]
        assert wpod["gap_norm_error"][2] < wpod["gap_norm_error"][0]
        # The pressure per pair (as <case>_pressures.csv): closer to the full one at g = 10.
        p = case["pressures_pa"]
        assert p["full"].shape == (result["pair_positions_m"].shape[0],)
        assert (np.linalg.norm(p["wpod_tvd_10"] - p["full"])
                < np.linalg.norm(p["wpod_tvd_0"] - p["full"]))


def test_unknown_analysis_names_the_choices():
    with pytest.raises(jointdyn.InputError, match=r"analysis = spinning: must be one of"):
        jointdyn.analyze(jointdyn.Model({"analysis": "spinning"}))


def test_per_step_events():
    transient = jointdyn.load(str(SOURCE / "examples/transient/den_hartog_coulomb.yaml"))
    rows = []
    result = jointdyn.analyze(transient, progress=lambda e: e["kind"] == "sample" and rows.append(e["row"]))
    assert np.array_equal(np.array(rows), result["samples"])
    steps = []
    static = jointdyn.Model({
        "analysis": "static",
        "mesh": {"generate": {"structure": "box", "element": "hex8",
                              "dimensions": [0.1, 0.01, 0.01], "divisions": [4, 1, 1]}},
        "materials": {"box": {"E": 210e9, "nu": 0.3, "rho": 7850.0}},
        "reference_nodes": [{"name": "tip", "at": "xmax"}],
        "couplings": [{"type": "rigid", "reference": "tip", "set": "xmax"}],
        "supports": [{"set": "xmin"}, {"set": "tip", "components": ["uz"], "value": 1e-3}],
        "static": {"steps": 3},
    })
    result = jointdyn.analyze(static, progress=lambda e: e["kind"] == "step" and steps.append(e))
    assert [e["index"] for e in steps] == [1, 2, 3]
    assert steps[-1]["force_n"][1][2] == pytest.approx(result["steps"][-1]["force_n"][1][2])


def test_ctrl_c_stops_a_run_and_keeps_its_results(tmp_path):
    # A transient far too long to finish, interrupted by SIGINT while C++ computes: the run
    # ends at its next step, the result says so and keeps the samples so far.
    import signal
    import sys
    import time

    script = f"""
import json, yaml, jointdyn
spec = yaml.safe_load(open({str(SOURCE / 'examples/transient/den_hartog_coulomb.yaml')!r}).read())
spec["integrator"]["t_end"] = 1.0e4
print("start", flush=True)
r = jointdyn.analyze(jointdyn.Model(spec))
print(json.dumps({{"ok": r["ok"], "message": r["message"], "samples": len(r["samples"])}}))
"""
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=os.environ.copy())
    assert process.stdout.readline().strip() == "start"
    time.sleep(1.5)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    result = json.loads(out.strip().splitlines()[-1])
    assert not result["ok"]
    assert "interrupted by SIGINT" in result["message"]
    assert result["samples"] > 10


def test_no_memory_growth_over_repeated_runs():
    # 1000 small analyses in one process: the resident set stays within 5 % after warm-up.
    def rss_kb():
        for line in pathlib.Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise RuntimeError("no VmRSS")

    model = jointdyn.Model({"analysis": "hysteresis",
                            "law": {"type": "coulomb", "dim": 2, "c1": 1e11, "mu": 0.3},
                            "normal": {"pressure": 1e6},
                            "path": {"type": "sinusoid", "amplitude": 1e-5, "frequency": 1.0,
                                     "cycles": 2}})
    for _ in range(100):
        jointdyn.analyze(model)
    before = rss_kb()
    for _ in range(1000):
        result = jointdyn.analyze(model)
        assert result["ok"]
    after = rss_kb()
    print(f"RSS {before} kB after 100 runs, {after} kB after 1100")
    assert after <= 1.05 * before
