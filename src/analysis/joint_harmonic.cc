#include "analysis/joint_harmonic.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>
#include <tuple>
#include <utility>

#include "analysis/fe_setup.h"
#include "core/clock.h"
#include "core/error.h"
#include "harmonic/point_kernel.h"

namespace jointdyn::analysis {
namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;
constexpr int kLinearModes = 10;

// Row `row` of a pair projection as DOF weights (the sparse pattern's entries, or every
// coordinate of a dense one).
std::vector<harmonic::DofWeight> RowTerms(const joint::PairProjection& relative, int row) {
  std::vector<harmonic::DofWeight> terms;
  if (relative.is_sparse()) {
    for (joint::SparseRows::InnerIterator it(relative.sparse(), row); it; ++it)
      terms.push_back({static_cast<int>(it.col()), it.value()});
  } else {
    for (int col = 0; col < relative.cols(); ++col)
      terms.push_back({col, relative.dense()(row, col)});
  }
  return terms;
}

// One nonlinear element per pair of `joint`: the pair kernel on the pair's three rows,
// its march starting from the pair's committed history.
void AddPairElements(const joint::JointOperator& joint, const harmonic::MarchOptions& march,
                     std::vector<harmonic::NonlinearElement>& elements) {
  const auto pair = std::make_shared<const laws::ContactPair>(joint.pair());
  for (int i = 0; i < joint.num_pairs(); ++i) {
    const std::span<const double> history = joint.CommittedHistory(i);
    auto kernel =
        std::make_unique<harmonic::PairKernel>(pair, joint.initial_gap()(i), joint.area()(i),
                                               std::vector<double>(history.begin(), history.end()));
    harmonic::NonlinearElement element{
        std::make_unique<harmonic::MarchedForce>(std::move(kernel), march), {}};
    for (int r = 0; r < 3; ++r) element.terms.push_back(RowTerms(joint.relative(), 3 * i + r));
    elements.push_back(std::move(element));
  }
}

solvers::SparseMatrix AsSparse(const solvers::Matrix& m) {
  if (!m.is_dense()) return m.sparse();
  return m.dense().sparseView(0.0, 0.0);
}

// A load vector's non-zero entries as excitation terms of harmonic k:
// F cos(k omega t + phase) = F cos(phase) cos - F sin(phase) sin.
void AddExcitation(const VecX& load, int k, double phase,
                   std::vector<harmonic::ExcitationTerm>& terms) {
  for (int dof = 0; dof < load.size(); ++dof) {
    if (load(dof) == 0.0) continue;
    terms.push_back({.dof = dof,
                     .harmonic = k,
                     .cos_amplitude = load(dof) * std::cos(phase),
                     .sin_amplitude = -load(dof) * std::sin(phase)});
  }
}

// The harmonic-balance system of `system` (full or reduced) about its joints' committed
// history at its state `start` (the preloaded one, or zero): M, C, K, one element per pair, the
// excitation (loads[i]: excitation[i]'s load vector on the system's state, V^T l when reduced) and
// the system's constant loads (the locked bolts) as static forces.
harmonic::HarmonicSystem MakeHarmonicSystem(const joint::JointedSystem& system, const VecX& start,
                                            const std::vector<HarmonicLoad>& excitation,
                                            const std::vector<VecX>& loads,
                                            const harmonic::MarchOptions& march) {
  harmonic::HarmonicSystem hb;
  hb.rest = start;
  hb.mass = AsSparse(system.mass());
  hb.stiffness = AsSparse(system.stiffness());
  hb.damping = system.damping().rows() == 0 ? solvers::SparseMatrix(system.size(), system.size())
                                            : AsSparse(system.damping());
  for (size_t i = 0; i < excitation.size(); ++i)
    AddExcitation(loads[i], excitation[i].harmonic, excitation[i].phase, hb.excitation);
  for (const joint::TimedLoad& load : system.loads())
    AddExcitation(load.vector * load.factor.Value(0.0), 0, 0.0, hb.excitation);
  for (const joint::JointOperator& joint : system.joints())
    AddPairElements(joint, march, hb.elements);
  return hb;
}

// The CMS basis extended by g joint modes of the method (reduced analyses).
Status BuildReducedBasis(const JointHarmonicOptions& options, const fe::FeModel& model,
                         const joint::JointedSystem& full, MatX& basis, JointHarmonicResult& result,
                         Observer& observer) {
  const std::vector<reduction::BoundaryDof> boundary =
      BoundaryDofs(model, options.cms.boundary, options.cms.vibration_modes);
  const int v = options.cms.vibration_modes;
  const Clock::time_point t = Clock::now();
  const CmsBasis cms = BuildCmsBasis(full.stiffness().sparse(), full.mass().sparse(), boundary, v,
                                     v, options.cms.free_free, observer);
  result.times["craig_bampton"] = Seconds(t);
  if (!cms.status) return Status::Failure("CMS basis: " + cms.status.message);
  result.basis = reduction::Describe(cms.cms.basis);
  const int g = options.joint_modes.modes.modes;
  if (options.joint_modes.none() || g == 0) {
    basis = cms.cms.basis.vectors;
    return Status::Ok();
  }
  const Clock::time_point t_modes = Clock::now();
  const JointContact contact = BuildJointContact(model, options.joint_modes);
  const reduction::TvdResult tvd = ComputeCmsTvds(cms, contact, options.joint_modes.tvd, observer);
  if (!tvd.status) return Status::Failure("trial vector derivatives: " + tvd.status.message);
  JointModeExtension extension =
      ExtendByJointModes(tvd, full.stiffness().sparse(), cms, options.joint_modes.modes.method, g);
  result.times["joint_modes"] = Seconds(t_modes);
  if (!extension.status) return extension.status;
  if (!extension.note.empty()) observer.Note(extension.note);
  basis = std::move(extension.extended.basis.vectors);
  result.basis += " + " + std::to_string(extension.kept) + " " +
                  MethodKey(options.joint_modes.modes.method) + " joint modes";
  return Status::Ok();
}

// The frequency-response curve of each level, progress per point over the range.
void RunCurves(const JointHarmonicOptions& options, harmonic::HarmonicBalance& hb,
               JointHarmonicResult& result, Observer& observer) {
  // The range in Hz as the model file gave it (rounded to 1e-9 Hz: rad/s back to Hz).
  const auto hz = [](double omega) { return std::round(1e9 * omega / kTwoPi) / 1e9; };
  const double f0 = hz(options.continuation.start), f1 = hz(options.continuation.end);
  for (const double level : options.levels) {
    harmonic::ContinuationOptions curve = options.continuation;
    curve.parameter = harmonic::ContinuationParameter::kFrequency;
    curve.fixed = level;
    const std::string task = "frequency response, level " + FormatValue(level) + ", " +
                             FormatValue(f0) + " to " + FormatValue(f1) + " Hz";
    curve.on_point = [&](const harmonic::SolutionPoint& point) {
      const double done = (point.omega / kTwoPi - f0) / (f1 - f0);
      observer.Progress(task, std::clamp(static_cast<int>(std::lround(1000.0 * done)), 0, 1000),
                        1000);
    };
    result.curves.push_back({level, harmonic::Continue(hb, curve)});
    const harmonic::ContinuationResult& done = result.curves.back().continuation;
    observer.Note("level " + FormatValue(level) + ": " + std::to_string(done.points.size()) +
                  " points, " + std::to_string(done.newton_iterations) + " Newton iterations, " +
                  std::to_string(done.turning_points) + " turning points, " + done.stop_reason +
                  " (" + FormatValue(done.seconds) + " s)");
    if (!done.status) {
      result.status = Status::Failure("level " + FormatValue(level) + ": " + done.status.message);
      return;
    }
  }
}

// The basis functions of `basis` at phase theta: [1, cos theta, sin theta, cos 2 theta, ...].
VecX BasisAt(const harmonic::HarmonicBasis& basis, double theta) {
  VecX e(basis.size());
  if (basis.has_static()) e(0) = 1.0;
  for (int p = 0; p < basis.num_pairs(); ++p) {
    const double k = basis.PairHarmonic(p);
    e(basis.CosIndex(p)) = std::cos(k * theta);
    e(basis.CosIndex(p) + 1) = std::sin(k * theta);
  }
  return e;
}

// PeriodSnapshots of the point (coefficients on the system's coordinates).
Status MarchJoints(const joint::JointedSystem& system, const harmonic::HarmonicBasis& basis,
                   int samples, const harmonic::SolutionPoint& point, int phases,
                   PeriodSnapshots& out) {
  constexpr int kMaxPeriods = 50;
  constexpr double kClosure = 1e-6;
  std::vector<joint::JointOperator> joints(system.joints().begin(), system.joints().end());
  const int per_phase = (samples + phases - 1) / phases, n = per_phase * phases;
  const double dt = kTwoPi / (point.omega * n);
  MatX states(point.coefficients.rows(), n);  // x at the samples
  for (int j = 0; j < n; ++j) states.col(j) = point.coefficients * BasisAt(basis, kTwoPi * j / n);
  for (joint::JointOperator& joint : joints) joint.StartPeriod(states);
  VecX previous, forces, force;
  for (out.periods = 1; out.periods <= kMaxPeriods; ++out.periods) {
    out.joints.clear();
    out.times.clear();
    forces.resize(0);
    for (int j = 0; j < n; ++j) {
      const VecX x = states.col(j);
      for (joint::JointOperator& joint : joints)
        if (Status status = joint.Evaluate(x, nullptr, dt); !status)
          return Status::Failure("sample " + std::to_string(j) + ": " + status.message);
      if (j % per_phase == 0) {
        out.times.push_back(j * dt);
        out.joints.push_back(joints);
        for (joint::JointOperator& joint : joints) {
          joint.Forces(force);
          forces.conservativeResize(forces.size() + force.size());
          forces.tail(force.size()) = force;
        }
      }
      for (joint::JointOperator& joint : joints) joint.Commit();
    }
    const double largest = forces.size() > 0 ? forces.cwiseAbs().maxCoeff() : 0.0;
    if (previous.size() == forces.size() &&
        (forces - previous).cwiseAbs().maxCoeff() <= kClosure * largest)
      return Status::Ok();
    previous.swap(forces);
  }
  --out.periods;
  return Status::Ok();  // the last period's, not closed to kClosure
}

// The contact fields of the points nearest the chosen frequencies on every curve.
void RunContactFields(const JointHarmonicOptions& options, const JointHarmonicSystem& built,
                      JointHarmonicResult& result) {
  for (const HarmonicCurve& curve : result.curves) {
    const auto& points = curve.continuation.points;
    if (points.empty()) continue;
    for (const double omega : options.contact_fields->frequencies) {
      const auto nearest = std::min_element(points.begin(), points.end(), [&](auto& a, auto& b) {
        return std::abs(a.omega - omega) < std::abs(b.omega - omega);
      });
      if (!result.contact_fields.empty() && result.contact_fields.back().level == curve.fixed &&
          result.contact_fields.back().omega == nearest->omega)
        continue;  // two frequencies nearest to the same point
      PeriodSnapshots snapshots{.level = curve.fixed, .omega = nearest->omega};
      if (Status status =
              MarchJoints(*built.system, options.harmonics.basis, options.harmonics.samples,
                          *nearest, options.contact_fields->phases, snapshots);
          !status) {
        if (result.status)
          result.status = Status::Failure("contact fields at " + FormatValue(omega / kTwoPi) +
                                          " Hz: " + status.message);
        return;
      }
      result.contact_fields.push_back(std::move(snapshots));
    }
  }
}

// The nonlinear mode's backbones, one per method (the first failure in result.status).
void RunBackbones(const JointHarmonicOptions& options, JointHarmonicSystem& built,
                  Observer& observer) {
  const NonlinearModeSpec& spec = *options.nonlinear_mode;
  JointHarmonicResult& result = built.result;
  StartMode start;
  if (Status status =
          MakeStartMode(spec, built.modes, result.output_map, options.output_dofs[0].name(), start);
      !status) {
    if (result.status) result.status = status;
    return;
  }
  result.mode_frequency = start.omega / kTwoPi;
  if (spec.epmc)
    result.backbones.push_back(EpmcBackbone(*built.hb, *built.system, built.start, start, spec,
                                            result.output_map, observer));
  if (spec.quasi_static)
    result.backbones.push_back(
        QuasiStaticBackbone(*built.system, built.start, start, spec, result.output_map, observer));
  if (spec.ring_down)
    result.backbones.push_back(
        RingDownBackbone(*built.system, built.start, start, spec, result.output_map, observer));
  for (const Backbone& b : result.backbones) {
    observer.Note("nonlinear mode " + std::to_string(spec.mode) + " (" + b.method + "): " +
                  std::to_string(b.size()) + " amplitudes, " + std::to_string(b.iterations) +
                  " Newton iterations (" + FormatValue(b.seconds) + " s)" +
                  (b.size() > 0 ? ", " + FormatValue(b.frequency.front()) + " to " +
                                      FormatValue(b.frequency.back()) + " Hz"
                                : std::string()) +
                  (b.status ? "" : "; stopped: " + b.status.message));
    if (!b.status && result.status)
      result.status = Status::Failure("nonlinear mode (" + b.method + "): " + b.status.message);
  }
}

}  // namespace

void JointHarmonicOptions::Validate() const {
  ValidateStructure();
  if (const Status status = harmonics.Validate(); !status)
    throw InputError("harmonics", "", status.message);
  if (const Status status = march.Validate(); !status)
    throw InputError("march", "", status.message);
  if (nonlinear_mode) nonlinear_mode->Validate();
  if (excitation.empty() && !nonlinear_mode)
    throw InputError("excitation", "", "must list at least one load (or give nonlinear_mode)");
  if (output_dofs.empty()) throw InputError("output.dofs", "", "must list at least one DOF");
  if (contact_fields && excitation.empty())
    throw InputError("output.contact_fields", "", "needs a frequency response (excitation)");
  if (contact_fields && contact_fields->phases < 2)
    throw InputError("output.contact_fields.phases", std::to_string(contact_fields->phases),
                     "must be >= 2");
  if (excitation.empty()) return;
  for (size_t i = 0; i < excitation.size(); ++i)
    if (!harmonics.basis.Contains(excitation[i].harmonic))
      throw InputError("excitation[" + std::to_string(i) + "].harmonic",
                       std::to_string(excitation[i].harmonic),
                       "is not in the basis (harmonics.count, harmonics.odd_only)");
  if (levels.empty()) throw InputError("levels", "", "must list at least one level");
  harmonic::ContinuationOptions curve = continuation;
  curve.parameter = harmonic::ContinuationParameter::kFrequency;
  if (const Status status = curve.Validate(); !status)
    throw InputError("continuation", "", status.message);
}

MatX OutputCoefficients(const JointHarmonicResult& result, const harmonic::SolutionPoint& point) {
  return result.output_map * point.coefficients;
}

JointHarmonicSystem BuildJointHarmonicSystem(const JointHarmonicOptions& options,
                                             Observer& observer) {
  const Clock::time_point start = Clock::now();
  options.Validate();
  JointedStructure built = BuildJointedStructure(options, {}, observer);
  JointHarmonicResult result;
  result.joint_pairs = built.joint_pairs;
  const fe::FeModel& model = built.model;
  result.times["fe_model"] = model.times.mesh + model.times.assembly + model.times.pairing;
  std::vector<int> outputs;
  for (size_t i = 0; i < options.output_dofs.size(); ++i)
    outputs.push_back(
        fe::FreeDofIndex(model, options.output_dofs[i], "output.dofs[" + std::to_string(i) + "]"));
  std::vector<VecX> loads;
  for (size_t i = 0; i < options.excitation.size(); ++i) {
    const HarmonicLoad& load = options.excitation[i];
    loads.push_back(
        fe::AssembleLoads(model, load.loads, "excitation[" + std::to_string(i) + "].loads"));
    if (!load.base_acceleration.isZero())
      loads.back() -=
          built.system->mass().sparse() * fe::RigidTranslation(model, load.base_acceleration);
  }
  if (!options.full) (void)BuildJointContact(model, options.joint_modes);  // InputErrors first
  VecX x0 = built.Start();
  result.preload = std::move(built.preload);
  JointHarmonicSystem out;
  const auto finish = [&](Status status) {
    result.status = std::move(status);
    result.model = std::move(built.model);
    result.wall_seconds = Seconds(start);
    out.result = std::move(result);
    return std::move(out);
  };
  if (result.preload) {
    if (!result.preload->status)
      return finish(Status::Failure("the preload step: " + result.preload->status.message));
    result.times["preload"] = result.preload->solve.seconds;
  }
  result.output_map.setZero(static_cast<Eigen::Index>(outputs.size()), built.system->size());
  for (size_t o = 0; o < outputs.size(); ++o) result.output_map(o, outputs[o]) = 1.0;
  if (!options.full) {
    MatX v;
    if (Status status = BuildReducedBasis(options, model, *built.system, v, result, observer);
        !status)
      return finish(status);
    const Eigen::Index columns = v.cols();
    std::tie(v, x0) = WithStart(std::move(v), x0, built.system->mass().sparse());
    if (v.cols() > columns) result.basis += " + the preload mode";
    out.system = std::make_unique<joint::JointedSystem>(joint::Reduce(*built.system, v));
    for (VecX& load : loads) load = v.transpose() * load;
    result.output_map = result.output_map * v;
    observer.Note("basis: " + result.basis + " (" + std::to_string(v.cols()) + " coordinates)");
  }
  if (!out.system) out.system = std::move(built.system);
  const joint::JointedSystem& system = *out.system;
  result.coordinates = system.size();
  out.modes = StuckModes(system, x0, kLinearModes);
  for (const double omega : out.modes.omega) result.linear_frequencies.push_back(omega / kTwoPi);
  harmonic::HarmonicOptions harmonics = options.harmonics;
  harmonics.condense = harmonics.condense && !options.nonlinear_mode;
  out.hb = std::make_unique<harmonic::HarmonicBalance>(
      MakeHarmonicSystem(system, x0, options.excitation, loads, options.march), harmonics);
  out.start = std::move(x0);
  result.unknowns = out.hb->num_unknowns();
  result.elements = static_cast<int>(out.hb->system().elements.size());
  observer.Note("harmonic balance: " + std::to_string(result.coordinates) + " DOFs, " +
                std::to_string(result.elements) + " contact pairs, " +
                std::to_string(result.unknowns) + " unknowns");
  return finish(Status::Ok());
}

JointHarmonicResult RunJointHarmonic(const JointHarmonicOptions& options, Observer& observer) {
  const Clock::time_point start = Clock::now();
  JointHarmonicSystem built = BuildJointHarmonicSystem(options, observer);
  JointHarmonicResult& result = built.result;
  if (built.hb && !options.excitation.empty()) {
    const Clock::time_point t = Clock::now();
    RunCurves(options, *built.hb, result, observer);
    if (options.contact_fields) RunContactFields(options, built, result);
    result.times["curves"] = Seconds(t);
  }
  if (built.hb && options.nonlinear_mode) {
    const Clock::time_point t = Clock::now();
    RunBackbones(options, built, observer);
    result.times["nonlinear_mode"] = Seconds(t);
  }
  result.wall_seconds = Seconds(start);
  return std::move(result);
}

}  // namespace jointdyn::analysis
