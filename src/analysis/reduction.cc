#include "analysis/reduction.h"

#include <tuple>

#include "analysis/fe_setup.h"
#include "analysis/modal.h"
#include "core/clock.h"
#include "core/error.h"

namespace jointdyn::analysis {
namespace {

// `text` without its last newline (a note is one block of lines).
std::string Chomp(std::string text) {
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

FullComparison CompareFull(const fe::FeModel& model, int count, int rigid_modes,
                           Observer& observer) {
  FullComparison full;
  const Clock::time_point start = Clock::now();
  observer.Progress("full model eigenpairs", 0, 1);
  solvers::EigenOptions options;
  options.count = count + rigid_modes;
  options.shift = ShiftEigenvalue(kFullShiftHz);
  full.eigen =
      solvers::SolveGeneralizedEigen(model.ReducedStiffness(), model.ReducedMass(), options);
  for (Eigen::Index k = rigid_modes; k < full.eigen.values.size(); ++k)
    full.frequencies.push_back(SignedFrequency(full.eigen.values(k)));
  full.seconds = Seconds(start);
  observer.Progress("full model eigenpairs", 1, 1);
  return full;
}

// The preload state of reduced models (seed 003 fig. 4.12) against the full one.
Status ComparePreload(const ReductionOptions& options, const fe::FeModel& model,
                      const reduction::ReductionBasis& cms, JointReduction& joint,
                      Observer& observer) {
  const Clock::time_point start = Clock::now();
  const PreloadSpec& preload = *options.preload;
  const std::string& centre = preload.Centre(options.fe);
  joint.radii = PairRadii(model, joint.contact.contact_index, centre);
  for (Eigen::Index p = 0; p < joint.radii.size(); ++p)
    if (preload.compare_radius == 0.0 || joint.radii(p) <= preload.compare_radius)
      joint.compared.push_back(static_cast<int>(p));
  const std::vector<std::tuple<std::string, std::string, const reduction::ReductionBasis*>> cases =
      {{"cms", "CMS only", &cms},
       {"cms_plm", "CMS + preload mode", &joint.stage.tvd_basis},
       {"final", "final basis", &joint.stage.basis}};
  const std::string task = "reduced preload solutions";
  observer.Progress(task, 0, static_cast<int>(cases.size()));
  std::string errors;
  for (const auto& [name, label, basis] : cases) {
    JointReduction::Case c{name, label, basis->size(),
                           SolveReducedStatic(basis->vectors, joint.preload->stiffness,
                                              joint.contact, joint.preload->load, preload.solver),
                           0.0};
    if (!c.solution.result.status)
      return Status::Failure("reduced preload solution with the " + label + ": " +
                             c.solution.result.status.message);
    c.error = RelativePressureError(c.solution.pairs, joint.preload->pairs, joint.compared);
    errors += " " + label + " " + FormatValue(c.error) + ";";
    joint.cases.push_back(std::move(c));
    observer.Progress(task, static_cast<int>(joint.cases.size()), static_cast<int>(cases.size()));
  }
  joint.compare_seconds = Seconds(start);
  observer.Note("preload pressure error over " + std::to_string(joint.compared.size()) +
                " pairs around " + centre + ":" + errors);
  return Status::Ok();
}

// The joint-mode stages: the preload (when given), the joint modes, the preload comparison.
JointReduction ReduceJoint(const ReductionOptions& options, const ReductionResult& result,
                           const solvers::SparseMatrix& stiffness,
                           const solvers::SparseMatrix& mass, const reduction::ReductionBasis& cms,
                           Observer& observer) {
  const JointModeSpec& js = *options.joint_modes;
  JointReduction joint;
  joint.contact = BuildJointContact(result.model, js);
  double preload_seconds = 0.0;
  if (options.preload) {
    observer.Progress("preload, full nonlinear static solution", 0, 1);
    const Clock::time_point start = Clock::now();
    joint.preload = SolvePreload(result.model, stiffness, joint.contact, *options.preload,
                                 MakeBolts(options.preload->bolts, options.fe, result.model,
                                           result.model.dofs->transform()));
    preload_seconds = Seconds(start);
    observer.Progress("preload, full nonlinear static solution", 1, 1);
    if (!joint.preload->full.status) {
      joint.stage.status = joint.preload->full.status;
      return joint;
    }
  }
  observer.Progress("joint modes", 0, 1);
  joint.stage = RunJointModeStage(stiffness, mass, result.cb, cms, joint.contact, js,
                                  joint.preload ? &joint.preload->mode : nullptr,
                                  options.preload ? options.preload->tvds : PreloadTvds::kAll,
                                  options.orthogonalize, options.free_free);
  observer.Progress("joint modes", 1, 1);
  joint.stage.times.preload = preload_seconds;
  if (joint.stage.status && joint.preload)
    joint.stage.status = ComparePreload(options, result.model, cms, joint, observer);
  return joint;
}

// Throws InputError for options that do not fit the model (before any computation).
void CheckOptions(const ReductionOptions& options, const fe::FeModel& model) {
  const int free = model.dofs->num_free_dofs();
  if (options.compare_full > 0 && options.compare_full + 6 >= free)
    throw InputError("reduction.compare_full", std::to_string(options.compare_full),
                     "must be < the free DOFs less 6 (" + std::to_string(free - 6) + ")");
  CheckEigenMemory("reduction.compare_full", options.compare_full, free);
  if (options.preload && !options.joint_modes)
    throw InputError("reduction.preload", "(given)",
                     "needs joint_modes (its contact and normal_law; modes: 0 for none)");
  if (options.preload) {
    if (options.preload->loads.empty() && options.preload->bolts.empty())
      throw InputError("reduction.preload", "(given)", "needs loads, bolts or both");
    ValidatePreloads(options.preload->bolts, options.fe, "reduction.preload.bolts");
  }
}

// The final basis and its reduced K and M without joint modes: Craig-Bampton's, or its
// free-free modes.
void FinishWithoutJoint(const ReductionOptions& options, ReductionResult& result) {
  const reduction::CraigBamptonResult& cb = result.cb;
  result.frequencies.assign(
      result.free_free.frequencies.data(),
      result.free_free.frequencies.data() + result.free_free.frequencies.size());
  result.stiffness = cb.stiffness;
  result.mass = cb.mass;
  result.basis = options.orthogonalize ? result.free_free.basis : cb.basis;
  if (options.orthogonalize)
    TransformReduced(result.free_free.transform, result.stiffness, result.mass);
}

}  // namespace

ReductionResult RunReduction(const ReductionOptions& options, Observer& observer) {
  const Clock::time_point start = Clock::now();
  ReductionResult result;
  result.model = BuildModel(options.fe, observer);
  const fe::FeModel& model = result.model;
  result.boundary =
      BoundaryDofs(model, options.boundary, options.craig_bampton.fixed_interface_modes);
  CheckOptions(options, model);
  const solvers::SparseMatrix stiffness = model.ReducedStiffness();
  const solvers::SparseMatrix mass = model.ReducedMass();
  observer.Progress("Craig-Bampton", 0, 1);
  result.cb = reduction::CraigBampton(stiffness, mass, result.boundary, options.craig_bampton);
  observer.Progress("Craig-Bampton", 1, 1);
  observer.Note(Chomp(reduction::Summary(result.cb)));
  result.status = result.cb.status;
  if (result.status) {
    // The reduced eigenproblem: the free-free modes (the final basis when orthogonalizing)
    // and the reduced model's elastic frequencies either way.
    result.free_free = reduction::OrthogonalizeToFreeFree(result.cb.basis, result.cb.stiffness,
                                                          result.cb.mass, options.free_free);
    result.status = result.free_free.status;
  }
  if (result.status) observer.Note(Chomp(reduction::Summary(result.free_free)));
  if (result.status && options.preload && result.free_free.rigid_modes > 0)
    throw InputError("reduction.preload", "(given)",
                     "needs a held model for the preload's static solution, but the "
                     "Craig-Bampton basis holds " +
                         std::to_string(result.free_free.rigid_modes) +
                         " rigid-body modes: support the structure (e.g. the clamp)");
  result.rigid_modes_removed = options.orthogonalize ? result.free_free.rigid_modes : 0;
  const reduction::ReductionBasis& cms =
      options.orthogonalize ? result.free_free.basis : result.cb.basis;
  if (result.status && options.joint_modes) {
    result.joint = ReduceJoint(options, result, stiffness, mass, cms, observer);
    result.status = result.joint->stage.status;
  }
  if (result.status) {
    if (result.joint) {
      const JointModeStageResult& stage = result.joint->stage;
      result.basis = stage.basis;
      result.stiffness = stage.stiffness;
      result.mass = stage.mass;
      result.frequencies.assign(stage.frequencies.data(),
                                stage.frequencies.data() + stage.frequencies.size());
    } else {
      FinishWithoutJoint(options, result);
    }
    observer.Note("final basis: " + reduction::Describe(result.basis));
    if (options.compare_full > 0) {
      result.full =
          CompareFull(model, options.compare_full, result.free_free.rigid_modes, observer);
      result.status = result.full->eigen.status;
    }
  }
  result.wall_seconds = Seconds(start);
  return result;
}

}  // namespace jointdyn::analysis
