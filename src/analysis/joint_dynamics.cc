#include "analysis/joint_dynamics.h"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "analysis/fe_setup.h"
#include "core/clock.h"
#include "core/error.h"
#include "core/stop.h"
#include "joint/jointed_system.h"

namespace jointdyn::analysis {
namespace {

// u_ref at `t` by linear interpolation (t within the reference's time range).
double Interpolate(const std::vector<double>& times, const std::vector<double>& values, double t) {
  const auto it = std::lower_bound(times.begin(), times.end(), t);
  if (it == times.begin()) return values.front();
  if (it == times.end()) return values.back();
  const size_t i = it - times.begin();
  const double w = (t - times[i - 1]) / (times[i] - times[i - 1]);
  return (1.0 - w) * values[i - 1] + w * values[i];
}

double MaxAbs(const std::vector<double>& values) {
  double m = 0.0;
  for (double v : values) m = std::max(m, std::abs(v));
  return m;
}

// For a run that stopped in a step it could not get through (rejected steps: Newton after
// the step cuts) with a linear penalty in some joint: the measured remedy (the kink at g = 0
// lets low-pressure pairs open and close from one iteration to the next on fine meshes).
std::string LinearPenaltyHint(const JointDynamicsOptions& options,
                              const time::TransientResult& result) {
  if (result.status || result.rejected_steps == 0) return "";
  for (const JointSpec& joint : options.joints)
    if (joint.normal->type() == "linear")
      return " (hint: contact " + joint.contact +
             " has a linear penalty; if Newton cycles as pairs with almost no pressure open "
             "and close, a C1 onset over about 1 nm, normal: {type: quadratic_linear, eps: "
             "<the same>, g0: 0.0, g1: -1.0e-9}, removes the kink; docs/model_files.md, "
             "joint_dynamics, finer meshes)";
  return "";
}

// When pairs that opened dropped more than a quarter of a run's friction dissipation (see
// JointOperator::opening_energy): the warning, else "".
std::string OpeningWarning(double dropped, double law_dissipation) {
  if (!(law_dissipation > 0.0) || dropped <= 0.25 * law_dissipation) return "";
  return FormatValue(std::round(100.0 * dropped / law_dissipation)) +
         " % of the friction dissipation is tangential law energy dropped by pairs that opened "
         "(pair_openings; per pair: opening_energy in the contact fields), e.g. the parallel "
         "spring c2 |s|^2 / 2 of a coulomb law: the damping then depends on how the mesh "
         "resolves the contact boundary; a smaller c2 avoids it";
}

// What the runs share: the full system, its start, the DOFs recorded, the bases of the
// reduced runs.
struct Study {
  std::unique_ptr<joint::JointedSystem> full;
  VecX start;
  int measure_dof = 0;
  std::vector<int> output_dofs;
  std::optional<CmsBasis> basis;
  std::map<reduction::JointModeMethod, reduction::ReductionBasis> extended;
};

// The CMS basis and the joint modes of every method (for the reduced runs).
Status BuildBases(const JointDynamicsOptions& options, const fe::FeModel& model,
                  const std::vector<reduction::BoundaryDof>& boundary, Study& study,
                  JointDynamicsResult& result, Observer& observer) {
  const JointContact tvd_contact = BuildJointContact(model, options.joint_modes);
  const int v = options.cms.vibration_modes;
  study.basis = BuildCmsBasis(study.full->stiffness().sparse(), study.full->mass().sparse(),
                              boundary, v, v, options.cms.free_free, observer);
  const reduction::CraigBamptonResult& cb = study.basis->cb;
  result.times["craig_bampton"] =
      cb.factor_seconds + cb.eigen_seconds + cb.constraint_seconds + cb.projection_seconds;
  if (!study.basis->status) return Status::Failure("CMS basis: " + study.basis->status.message);
  result.m = study.basis->m();
  result.cms_basis = reduction::Describe(study.basis->cms.basis);
  result.rigid_modes_removed = study.basis->cms.rigid_modes;
  observer.Note("CMS basis " + result.cms_basis);
  const int g_max = options.modes.back();
  if (g_max == 0) return Status::Ok();
  const reduction::TvdResult tvd =
      ComputeCmsTvds(*study.basis, tvd_contact, options.joint_modes.tvd, observer);
  result.times["tvd"] = tvd.force_seconds + tvd.solve_seconds;
  if (!tvd.status) return Status::Failure("trial vector derivatives: " + tvd.status.message);
  result.tvd = TvdFigures::Of(tvd);
  for (reduction::JointModeMethod method : options.methods) {
    const Clock::time_point t = Clock::now();
    JointModeExtension extension =
        ExtendByJointModes(tvd, study.full->stiffness().sparse(), *study.basis, method, g_max);
    result.times["joint_modes_" + std::string(MethodKey(method))] = Seconds(t);
    if (!extension.status) return extension.status;
    const int kept = extension.kept;
    const Eigen::Index ratios = extension.modes.ratio.size();
    result.joint_modes.push_back(
        {method, extension.modes.rank, kept, extension.extended.dropped,
         kept > 0 ? extension.modes.ratio(std::min<Eigen::Index>(kept, ratios) - 1) : 0.0,
         extension.note});
    if (!extension.note.empty()) observer.Note(extension.note);
    study.extended[method] = std::move(extension.extended.basis);
  }
  return Status::Ok();
}

// Integrates one run, reporting its samples and contact fields.
DynamicRunResult Integrate(const JointDynamicsOptions& options, const fe::FeModel& model,
                           const DynamicRun& run, Study& study, JointDynamicsObserver& observer) {
  DynamicRunResult result;
  std::optional<joint::JointedSystem> reduced;
  MatX v;  // the basis (reduced runs)
  VecX q0 = study.start;
  if (!run.full) {
    const reduction::ReductionBasis& b =
        run.method ? study.extended.at(*run.method) : study.basis->cms.basis;
    std::tie(v, q0) = WithStart(b.vectors.leftCols(std::min(b.size(), study.basis->m() + run.g)),
                                study.start, study.full->mass().sparse());
    const Clock::time_point t = Clock::now();
    reduced.emplace(joint::Reduce(*study.full, v));
    result.reduce_seconds = Seconds(t);
  }
  joint::JointedSystem& system = run.full ? *study.full : *reduced;
  result.size = system.size();
  const auto physical = [&](const VecX& q, int dof) {
    return run.full ? q(dof) : v.row(dof).dot(q);
  };
  const time::IntegratorOptions& integrator = options.integrator;
  const bool fields = options.field_runs.count(run.name) > 0;
  double next_field = integrator.t_start;
  const int total = std::max(
      1, static_cast<int>(std::lround((integrator.t_end - integrator.t_start) / integrator.dt)));
  const std::string task = "run " + run.name + " (" + std::to_string(result.size) +
                           " coordinates), steps of " + FormatValue(integrator.dt) +
                           " s to t = " + FormatValue(integrator.t_end) + " s";
  RunHistory& h = result.history;
  const auto record = [&](const time::StepRecord& step) {
    const VecX& q = *step.q;
    const auto values = CriterionValues(physical(q, study.measure_dof), system.joints());
    VecX dofs(static_cast<Eigen::Index>(study.output_dofs.size()));
    for (size_t d = 0; d < study.output_dofs.size(); ++d)
      dofs(d) = physical(q, study.output_dofs[d]);
    h.time.push_back(step.t);
    for (int c = 0; c < kCriteria; ++c) h.criteria[c].push_back(values[c]);
    h.dofs.push_back(dofs);
    result.peak_velocity =
        std::max(result.peak_velocity, run.full ? step.v->lpNorm<Eigen::Infinity>()
                                                : (v * *step.v).lpNorm<Eigen::Infinity>());
    observer.Sample(run, step.t, values, dofs);
    if (fields && step.t >= next_field - 1e-12 * integrator.dt) {
      const VecX x = run.full ? q : VecX(v * q);
      observer.ContactField(run, result.field_steps++, step.t, system.joints(),
                            model.dofs->Expand(x).head(model.dofs->num_mesh_dofs()));
      while (next_field <= step.t + 1e-12 * integrator.dt)
        next_field += options.field_interval > 0.0 ? options.field_interval : integrator.dt;
    }
    observer.Progress(
        task,
        std::clamp(static_cast<int>(std::lround((step.t - integrator.t_start) / integrator.dt)), 0,
                   total),
        total);
  };
  observer.Note("run " + run.name + " (" + std::to_string(result.size) + " coordinates, " +
                (run.full ? "sparse" : "dense") + ") from t = " + FormatValue(integrator.t_start) +
                " s");
  const Clock::time_point t = Clock::now();
  result.transient = time::Integrate(system, integrator, q0, VecX::Zero(system.size()), record);
  result.wall_seconds = Seconds(t);
  for (const joint::JointOperator& joint : system.joints()) {
    result.pair_openings += joint.openings();
    result.opening_energy += joint.opening_energy();
  }
  result.warning = OpeningWarning(result.opening_energy, result.transient.energy.law_dissipation);
  return result;
}

// The reference run and every other run's errors against it (the runs done: an interrupted
// study has fewer results than runs).
void CompareRuns(const JointDynamicsOptions& options, JointDynamicsResult& result) {
  const std::vector<DynamicRun>& runs = result.runs;
  const size_t done = result.results.size();
  for (size_t r = 0; r < done; ++r)
    if (runs[r].full && result.results[r].transient.status) result.reference = result.full_run = r;
  if (!result.reference)
    for (size_t r = 0; r < done; ++r)
      if (!runs[r].full && result.results[r].transient.status &&
          (!result.reference || runs[r].g > runs[*result.reference].g))
        result.reference = r;
  if (!result.reference) return;
  const RunHistory& ref = result.results[*result.reference].history;
  std::array<double, kCriteria> scales;
  for (int c = 0; c < kCriteria; ++c) {
    scales[c] = MaxAbs(ref.criteria[c]);
    if (scales[c] == 0.0) scales[c] = 1.0;
  }
  for (size_t r = 0; r < done; ++r) {
    if (r == *result.reference) continue;
    DynamicRunResult& run = result.results[r];
    for (size_t i = 0; i < run.history.time.size(); ++i)
      for (int c = 0; c < kCriteria; ++c)
        run.errors[c].push_back(
            std::abs(run.history.criteria[c][i] -
                     Interpolate(ref.time, ref.criteria[c], run.history.time[i])) /
            scales[c]);
  }
}

// Appends `failure` to the status's "; "-separated list.
void AddFailure(Status& status, const std::string& failure) {
  status = Status::Failure(status.message + (status.message.empty() ? "" : "; ") + failure);
}

}  // namespace

std::vector<DynamicRun> JointDynamicsOptions::Runs() const {
  std::vector<DynamicRun> runs;
  for (int g : modes)
    if (g == 0) runs.push_back({"cms", false, std::nullopt, 0});
  for (reduction::JointModeMethod method : methods)
    for (int g : modes)
      if (g > 0) runs.push_back({MethodKey(method) + ("_" + std::to_string(g)), false, method, g});
  // The full run last: the reduced results are there early.
  if (full) runs.push_back({"full", true, std::nullopt, 0});
  return runs;
}

void JointDynamicsOptions::Validate() const {
  if (const Status status = integrator.Validate(); !status)
    throw InputError("integrator", "", status.message);
  if (modes.empty()) throw InputError("study.modes", "", "must list at least one g");
  for (size_t i = 0; i < modes.size(); ++i)
    if (modes[i] < 0 || (i > 0 && modes[i] <= modes[i - 1]))
      throw InputError("study.modes", std::to_string(modes[i]),
                       "must be >= 0, ascending and distinct");
  ValidateStructure();
  const std::vector<DynamicRun> runs = Runs();
  for (const std::string& name : field_runs)
    if (std::none_of(runs.begin(), runs.end(), [&](const DynamicRun& r) { return r.name == name; }))
      throw InputError("output.contact_fields.runs", name, "must name a run of the study");
}

JointDynamicsSystem BuildJointDynamicsSystem(const JointDynamicsOptions& options,
                                             Observer& observer) {
  options.Validate();
  JointDynamicsSystem built;
  static_cast<JointedStructure&>(built) = BuildJointedStructure(options, options.loads, observer);
  built.measure_dof = fe::FreeDofIndex(built.model, options.measure, "study.measure");
  for (size_t i = 0; i < options.output_dofs.size(); ++i)
    built.output_dofs.push_back(fe::FreeDofIndex(built.model, options.output_dofs[i],
                                                 "output.dofs[" + std::to_string(i) + "]"));
  if (built.output_dofs.empty()) built.output_dofs.push_back(built.measure_dof);
  return built;
}

JointDynamicsResult RunJointDynamics(const JointDynamicsOptions& options,
                                     JointDynamicsObserver& observer) {
  const Clock::time_point start = Clock::now();
  JointDynamicsSystem built = BuildJointDynamicsSystem(options, observer);
  JointDynamicsResult result;
  result.model = std::move(built.model);
  result.joint_pairs = built.joint_pairs;
  const fe::FeModel& model = result.model;
  const std::vector<reduction::BoundaryDof> boundary =
      BoundaryDofs(model, options.cms.boundary, options.cms.vibration_modes);
  const VecX x0 = built.Start();
  result.preload = std::move(built.preload);
  Study study{std::move(built.system), x0, built.measure_dof, built.output_dofs, {}, {}};
  (void)BuildJointContact(model, options.joint_modes);  // its InputErrors before computing
  result.runs = options.Runs();
  result.times["fe_mesh"] = model.times.mesh;
  result.times["fe_assembly"] = model.times.assembly;
  result.times["fe_pairing"] = model.times.pairing;
  observer.ModelBuilt(model);
  if (result.preload) {
    if (!result.preload->status) {
      result.status = Status::Failure(
          "the preload step: " + result.preload->status.message +
          " (preload_solver: residual_tolerance " +
          FormatValue(options.preload_solver.residual_tolerance) +
          " sets how closely the runs start at rest; increments and max_iterations help a "
          "joint that slides far)");
      result.wall_seconds = Seconds(start);
      return result;
    }
    int pairs = 0;
    for (int p : result.joint_pairs) pairs += p;
    const PreloadStart& preload = *result.preload;
    observer.Note(
        StaticStateNote("preload step", preload.solve, preload.joints, pairs, preload.bolt_forces));
    result.times["preload"] = result.preload->solve.seconds;
  }

  const bool reduced = std::any_of(result.runs.begin(), result.runs.end(),
                                   [](const DynamicRun& r) { return !r.full; });
  if (reduced) result.status = BuildBases(options, model, boundary, study, result, observer);
  if (!result.status) {
    result.wall_seconds = Seconds(start);
    return result;
  }
  for (size_t r = 0; r < result.runs.size(); ++r) {
    const DynamicRun& run = result.runs[r];
    if (StopRequested()) {  // the runs not started are left out
      AddFailure(result.status, StopReason() + " before run " + run.name);
      break;
    }
    result.results.push_back(Integrate(options, model, run, study, observer));
    const DynamicRunResult& done = result.results.back();
    if (!done.warning.empty()) observer.Note("run " + run.name + ": warning: " + done.warning);
    if (!done.transient.status)
      AddFailure(result.status, "run " + run.name + ": " + done.transient.status.message +
                                    LinearPenaltyHint(options, done.transient));
    observer.Note("run " + run.name + " " + (done.transient.status ? "reached" : "failed at") +
                  " t = " + FormatValue(done.transient.t_reached) + " s after " +
                  std::to_string(done.transient.accepted_steps) + " steps, " +
                  FormatValue(done.transient.cpu_seconds) + " s CPU");
    observer.RunFinished(result, r);
  }
  CompareRuns(options, result);
  result.wall_seconds = Seconds(start);
  return result;
}

}  // namespace jointdyn::analysis
