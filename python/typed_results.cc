#include "python/typed_results.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/belt_drive.h"
#include "analysis/harmonic.h"
#include "analysis/hysteresis.h"
#include "analysis/joint_harmonic.h"
#include "analysis/multibody.h"
#include "analysis/transient.h"
#include "core/error.h"
#include "model/belt_drive_reader.h"
#include "model/harmonic_reader.h"
#include "model/hysteresis_reader.h"
#include "model/joint_dynamics_reader.h"
#include "model/joint_harmonic_reader.h"
#include "model/joint_mode_study_reader.h"
#include "model/modal_reader.h"
#include "model/multibody_reader.h"
#include "model/reduction_reader.h"
#include "model/static_reader.h"
#include "model/transient_reader.h"
#include "python/arrays.h"
#include "python/fe_arrays.h"
#include "python/python_observer.h"

namespace py = pybind11;

namespace jointdyn::python {
namespace {

using model::ModelNode;

// analysis: hysteresis: per sample time [s], slip and traction (n x 2 [m], [Pa]), gap [m],
// pressure [Pa], state (0 open, 1 stick, 2 slip), stored energy and work [J/m^2]; per
// cycle the dissipation [J/m^2]; the amplitude sweep when given. The per-sample arrays are
// strided views on the samples (moved out of the result, kept alive by the arrays): no
// copy, which would cost as much as a cheap law's evaluation (bench/python_overhead.py).
py::dict HysteresisArrays(const analysis::HysteresisOptions&, analysis::HysteresisResult& result) {
  using Sample = laws::HysteresisSample;
  static_assert(sizeof(laws::ContactState) == sizeof(int));
  auto* samples = new std::vector<Sample>(std::move(result.loop.samples));
  const py::capsule owner(samples, [](void* p) { delete static_cast<std::vector<Sample>*>(p); });
  const auto n = static_cast<py::ssize_t>(samples->size());
  const Sample empty;
  const Sample& first = n > 0 ? samples->front() : empty;
  const py::ssize_t stride = n > 0 ? static_cast<py::ssize_t>(sizeof(Sample)) : 0;
  const auto scalar = [&](const double& field) {
    return n > 0 ? py::array_t<double>({n}, {stride}, &field, owner) : py::array_t<double>(0);
  };
  const auto pair = [&](const Vec2& field) {
    return n > 0 ? py::array_t<double>({n, py::ssize_t{2}},
                                       {stride, static_cast<py::ssize_t>(sizeof(double))},
                                       field.data(), owner)
                 : py::array_t<double>(std::vector<py::ssize_t>{0, 2});
  };
  py::dict out = StatusDict(result.status, result.wall_seconds);
  out["time"] = scalar(first.time);
  out["slip"] = pair(first.slip);
  out["traction"] = pair(first.traction);
  out["gap"] = scalar(first.gap);
  out["pressure"] = scalar(first.pressure);
  out["state"] =
      n > 0 ? py::array_t<int>({n}, {stride}, reinterpret_cast<const int*>(&first.state), owner)
            : py::array_t<int>(0);
  out["stored_energy"] = scalar(first.stored_energy);
  out["work"] = scalar(first.work);
  out["dissipation_per_cycle"] = Array(result.loop.dissipation_per_cycle);
  out["secant_stiffness"] = result.loop.secant_stiffness;
  out["max_traction"] = result.loop.max_traction;
  out["evaluations"] = result.loop.evaluations;
  if (!result.sweep.amplitude.empty()) {
    py::dict sweep;
    sweep["amplitude"] = Array(result.sweep.amplitude);
    sweep["dissipation"] = Array(result.sweep.dissipation);
    sweep["secant_stiffness"] = Array(result.sweep.secant_stiffness);
    sweep["slope"] = result.sweep.slope;
    sweep["intercept"] = result.sweep.intercept;
    out["sweep"] = sweep;
  }
  return out;
}

// The samples of a sampled run: `columns` (the names of its CSV file), `samples` (one row
// per recorded sample) and `column` (each column by its name, a view of `samples`), and
// the integrator's counters and energy balance [J].
py::dict SampleArrays(const std::vector<std::string>& columns,
                      const std::vector<std::vector<double>>& rows, const time::TransientResult& r,
                      py::dict out) {
  const auto n = static_cast<py::ssize_t>(rows.size());
  const auto m = static_cast<py::ssize_t>(columns.size());
  py::array_t<double> samples({n, m});
  auto s = samples.mutable_unchecked<2>();
  for (py::ssize_t i = 0; i < n; ++i)
    for (py::ssize_t j = 0; j < m; ++j) s(i, j) = rows[i][j];
  out["columns"] = columns;
  out["samples"] = samples;
  py::dict by_name;
  for (py::ssize_t j = 0; j < m; ++j)
    by_name[py::str(columns[j])] = samples[py::make_tuple(py::slice(0, n, 1), j)];
  out["column"] = by_name;
  out["t_reached"] = r.t_reached;
  out["accepted_steps"] = r.accepted_steps;
  out["rejected_steps"] = r.rejected_steps;
  out["newton_iterations"] = r.newton_iterations;
  out["factorizations"] = r.factorizations;
  out["cpu_seconds"] = r.cpu_seconds;
  out["energy"] = EnergyDict(r.energy);
  return out;
}

// analysis: transient: the samples of transient.csv, the unknowns `dofs`, and the work of
// the prescribed motions in the energy balance.
py::dict TransientArrays(const analysis::TransientOptions&,
                         const analysis::TransientResult& result) {
  py::dict out = SampleArrays(result.columns, result.rows, result.integration,
                              StatusDict(result.status, result.wall_seconds));
  out["dofs"] = result.dofs;
  out["energy"]["prescribed_work"] = result.prescribed_work;
  return out;
}

// analysis: multibody: the samples of multibody.csv, coordinates and constraints, the
// initial correction and the largest constraint violation [m or rad]; per flexible body
// (`flexible_bodies`) its name, elastic coordinates (`modes`), joint modes, the state of its
// joints at the end (`joints_at_end`, as in summary.json), its preloaded start (`preload`,
// as in summary.json; absent: not preloaded), the wall times of its preprocessing stages
// (`times_s`) and the free-free frequencies of its basis [Hz].
py::dict MultibodyArrays(const analysis::MultibodyOptions& options,
                         const analysis::MultibodyResult& result) {
  py::dict out = SampleArrays(result.columns, result.rows, result.integration,
                              StatusDict(result.status, result.wall_seconds));
  out["coordinates"] = result.coordinates;
  out["constraints"] = result.constraints;
  out["initial_correction"] = result.initial_correction;
  out["max_constraint_violation"] = result.max_constraint_violation;
  py::list bodies;
  for (size_t i = 0; i < result.flexible_frequencies.size(); ++i) {
    py::dict body;
    body["name"] = options.BodyName(options.flexible[i].body);
    body["modes"] = result.flexible_modes[i];
    body["joint_modes"] = result.flexible_joint_modes[i];
    if (i < result.flexible_joint_state.size())  // none when the run never started
      body["joints_at_end"] = JointFiguresDict(result.flexible_joint_state[i]);
    if (i < result.flexible_preload.size() && result.flexible_preload[i]) {
      const analysis::BodyPreloadFigures& p = *result.flexible_preload[i];
      body["preload"] = py::dict(
          py::arg("start") = JointFiguresDict(p.start), py::arg("bolt_forces_n") = p.bolt_forces,
          py::arg("pressure_error_vs_full") = std::isfinite(p.pressure_error)
                                                  ? py::object(py::float_(p.pressure_error))
                                                  : py::object(py::none()),
          py::arg("iterations") = p.iterations, py::arg("full_solution_s") = p.full_seconds,
          py::arg("body_step_s") = p.reduced_seconds);
    }
    body["times_s"] = result.flexible_times[i];
    body["frequencies_hz"] = Array(result.flexible_frequencies[i]);
    bodies.append(body);
  }
  out["flexible_bodies"] = bodies;
  out["warnings"] = result.warnings;
  return out;
}

// analysis: belt_drive: the samples of belt_drive.csv, coordinates, constraints, the
// pre-solve's figures (Newton iterations, axial force range [N]), and per profile time
// (`profiles`) its time and columns (s, x, y [m], axial_force [N], speed [m/s], pressure,
// shear [Pa], state 0 free / 1 stick / 2 slip, pulley -1 none) as arrays.
py::dict BeltDriveArrays(const analysis::BeltDriveOptions&,
                         const analysis::BeltDriveResult& result) {
  py::dict out = SampleArrays(result.columns, result.rows, result.integration,
                              StatusDict(result.status, result.wall_seconds));
  out["coordinates"] = result.coordinates;
  out["constraints"] = result.constraints;
  out["pre_solve"] = py::dict(py::arg("newton_iterations") = result.pre_solve_iterations,
                              py::arg("axial_force_min_n") = result.pre_solve_force_min,
                              py::arg("axial_force_max_n") = result.pre_solve_force_max);
  py::list profiles;
  for (const analysis::BeltProfile& p : result.profiles) {
    py::dict profile;
    profile["t"] = p.t;
    const std::vector<std::vector<double>> rows = p.Rows();
    const std::vector<std::string> columns = analysis::BeltProfile::Columns();
    for (size_t c = 0; c < columns.size(); ++c) {
      VecX values(rows.size());
      for (size_t i = 0; i < rows.size(); ++i) values(i) = rows[i][c];
      profile[py::str(columns[c])] = Array(values);
    }
    profiles.append(profile);
  }
  out["profiles"] = profiles;
  out["warnings"] = result.warnings;
  return out;
}

// analysis: harmonic: `terms`, the names of the harmonic coefficients (c0, a1, b1, ...; no
// c0 with odd harmonics only); per curve its fixed parameter (level [-] or frequency
// [rad/s]), per point omega [rad/s], level [-], the coefficients (points x DOFs x terms
// [m]), the first harmonic's amplitude (points x DOFs [m]), Newton iterations, stability
// (largest real Floquet exponent [1/s]).
// The basis's coefficient names: c0 (with the static term), a1, b1, ...
py::list TermNames(const harmonic::HarmonicBasis& basis) {
  py::list terms;
  for (int c = 0; c < basis.size(); ++c) terms.append(basis.CoefficientName(c));
  return terms;
}

// The curves with the coefficients `outputs(point)` (outputs x terms) of each point.
py::list CurveArrays(const std::vector<analysis::HarmonicCurve>& curves,
                     const harmonic::HarmonicBasis& basis,
                     const std::function<MatX(const harmonic::SolutionPoint&)>& outputs) {
  py::list list;
  const int cos1 = basis.CosIndex(0);
  for (const analysis::HarmonicCurve& curve : curves) {
    using Point = harmonic::SolutionPoint;
    const std::vector<Point>& points = curve.continuation.points;
    const auto n = static_cast<py::ssize_t>(points.size());
    std::vector<MatX> values;
    for (const Point& point : points) values.push_back(outputs(point));
    const py::ssize_t dofs = n > 0 ? values[0].rows() : 0;
    const py::ssize_t terms = n > 0 ? values[0].cols() : 0;
    py::array_t<double> coefficients({n, dofs, terms}), amplitude({n, dofs});
    auto c = coefficients.mutable_unchecked<3>();
    auto a = amplitude.mutable_unchecked<2>();
    for (py::ssize_t i = 0; i < n; ++i)
      for (py::ssize_t d = 0; d < dofs; ++d) {
        for (py::ssize_t k = 0; k < terms; ++k) c(i, d, k) = values[i](d, k);
        a(i, d) = std::hypot(values[i](d, cos1), values[i](d, cos1 + 1));
      }
    py::dict entry;
    entry["fixed"] = curve.fixed;
    entry["omega"] = Column(points, [](const Point& p) { return p.omega; });
    entry["level"] = Column(points, [](const Point& p) { return p.level; });
    entry["coefficients"] = coefficients;
    entry["amplitude_h1"] = amplitude;
    entry["newton_iterations"] =
        Column(points, [](const Point& p) { return double(p.newton_iterations); });
    entry["floquet_max_real"] = Column(points, [](const Point& p) { return p.floquet_max_real; });
    entry["stop_reason"] = curve.continuation.stop_reason;
    entry["steps"] = curve.continuation.steps;
    entry["rejected_steps"] = curve.continuation.rejected_steps;
    entry["turning_points"] = curve.continuation.turning_points;
    entry["seconds"] = curve.continuation.seconds;
    list.append(entry);
  }
  return list;
}

py::dict HarmonicArrays(const analysis::HarmonicOptions& options,
                        const analysis::HarmonicResult& result) {
  py::dict out = StatusDict(result.status, result.wall_seconds);
  out["dofs"] = result.dofs;
  out["unknowns"] = result.unknowns;
  out["terms"] = TermNames(options.harmonics.basis);
  out["curves"] = CurveArrays(result.curves, options.harmonics.basis,
                              [](const harmonic::SolutionPoint& p) { return p.coefficients; });
  return out;
}

// The output DOFs' coefficients per point (`outputs`: their names <node>.<component>), the
// sizes and the stuck linear frequencies, as summary.json has them.
py::dict JointHarmonicArrays(const analysis::JointHarmonicOptions& options,
                             const analysis::JointHarmonicResult& result) {
  py::dict out = StatusDict(result.status, result.wall_seconds);
  out["basis"] = result.basis;
  out["coordinates"] = result.coordinates;
  out["unknowns"] = result.unknowns;
  out["pair_elements"] = result.elements;
  out["linear_frequencies_hz"] = result.linear_frequencies;
  py::list names;
  for (const fe::ReferenceDof& dof : options.output_dofs) names.append(dof.name());
  out["outputs"] = names;
  out["terms"] = TermNames(options.harmonics.basis);
  out["curves"] = CurveArrays(
      result.curves, options.harmonics.basis,
      [&](const harmonic::SolutionPoint& p) { return analysis::OutputCoefficients(result, p); });
  py::list backbones;
  for (const analysis::Backbone& b : result.backbones) {
    py::dict d;
    d["method"] = b.method;
    d["ok"] = static_cast<bool>(b.status);
    d["message"] = b.status.message;
    d["modal_amplitude"] = Array(b.modal_amplitude);
    d["amplitude_m"] = Array(b.output_amplitude);
    d["frequency_hz"] = Array(b.frequency);
    d["damping_ratio"] = Array(b.damping_ratio);
    d["newton_iterations"] = b.iterations;
    d["seconds"] = b.seconds;
    backbones.append(d);
  }
  out["backbones"] = backbones;
  out["mode_frequency_hz"] = result.mode_frequency;
  return out;
}

// Reads the options, runs the analysis with the GIL released, converts its result.
template <class Observer, class Read, class Run, class Convert>
py::dict Typed(const ModelNode& root, py::object progress, Read read, Run run, Convert convert) {
  const auto options = read(root);
  Observer observer(std::move(progress));
  std::optional<decltype(run(options, observer))> result;
  {
    py::gil_scoped_release release;
    StopOnInterrupt interrupt;
    result.emplace(run(options, observer));
  }
  observer.Rethrow();
  return convert(options, *result);
}

using TypedRun = py::dict (*)(const ModelNode& root, py::object progress);

const std::map<std::string, TypedRun>& TypedAnalyses() {
  static const std::map<std::string, TypedRun> analyses = {
      {"hysteresis",
       [](const ModelNode& root, py::object progress) {
         return Typed<PythonObserver<analysis::Observer>>(
             root, std::move(progress), model::ReadHysteresis, analysis::RunHysteresis,
             HysteresisArrays);
       }},
      {"transient",
       [](const ModelNode& root, py::object progress) {
         return Typed<TransientPythonObserver>(
             root, std::move(progress),
             [](const ModelNode& r) { return model::ReadTransient(r).options; },
             analysis::RunTransient, TransientArrays);
       }},
      {"multibody",
       [](const ModelNode& root, py::object progress) {
         return Typed<MultibodyPythonObserver>(
             root, std::move(progress),
             [](const ModelNode& r) { return model::ReadMultibody(r).options; },
             analysis::RunMultibody, MultibodyArrays);
       }},
      {"belt_drive",
       [](const ModelNode& root, py::object progress) {
         return Typed<BeltDrivePythonObserver>(
             root, std::move(progress),
             [](const ModelNode& r) { return model::ReadBeltDrive(r).options; },
             analysis::RunBeltDrive, BeltDriveArrays);
       }},
      {"harmonic",
       [](const ModelNode& root, py::object progress) {
         return Typed<PythonObserver<analysis::Observer>>(
             root, std::move(progress), model::ReadHarmonic, analysis::RunHarmonic, HarmonicArrays);
       }},
      {"joint_harmonic",
       [](const ModelNode& root, py::object progress) {
         return Typed<PythonObserver<analysis::Observer>>(
             root, std::move(progress), model::ReadJointHarmonic, analysis::RunJointHarmonic,
             JointHarmonicArrays);
       }},
      {"modal",
       [](const ModelNode& root, py::object progress) {
         return Typed<PythonObserver<analysis::Observer>>(
             root, std::move(progress), model::ReadModal, analysis::RunModal, ModalArrays);
       }},
      {"static",
       [](const ModelNode& root, py::object progress) {
         return Typed<StaticPythonObserver>(root, std::move(progress), model::ReadStatic,
                                            analysis::RunStatic, StaticArrays);
       }},
      {"reduction",
       [](const ModelNode& root, py::object progress) {
         return Typed<PythonObserver<analysis::Observer>>(root, std::move(progress),
                                                          model::ReadReduction,
                                                          analysis::RunReduction, ReductionArrays);
       }},
      {"joint_mode_study",
       [](const ModelNode& root, py::object progress) {
         return Typed<PythonObserver<analysis::Observer>>(
             root, std::move(progress), model::ReadJointModeStudy, analysis::RunJointModeStudy,
             JointModeStudyArrays);
       }},
      {"joint_dynamics",
       [](const ModelNode& root, py::object progress) {
         return Typed<JointDynamicsPythonObserver>(root, std::move(progress),
                                                   model::ReadJointDynamics,
                                                   analysis::RunJointDynamics, JointDynamicsArrays);
       }},
  };
  return analyses;
}

}  // namespace

py::dict Analyze(const ModelNode& root, py::object progress) {
  std::vector<std::pair<std::string, TypedRun>> choices(TypedAnalyses().begin(),
                                                        TypedAnalyses().end());
  const TypedRun run = root.Enum<TypedRun>("analysis", choices);
  try {
    return run(root, std::move(progress));
  } catch (const InputError& error) {
    throw root.Locate(error);
  }
}

}  // namespace jointdyn::python
