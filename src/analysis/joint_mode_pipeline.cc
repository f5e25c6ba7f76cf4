#include "analysis/joint_mode_pipeline.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "analysis/joints.h"
#include "core/clock.h"
#include "core/error.h"

namespace jointdyn::analysis {
namespace {

// The pair states of `joint` at the static solution x (no velocity); a failing law fails
// `status`.
std::vector<joint::PairOutput> EvaluatePairs(joint::JointOperator& joint, const VecX& x,
                                             Status& status) {
  const Status evaluated = joint.Evaluate(x);
  if (!evaluated) {
    status = Status::Failure("contact state at the static solution: " + evaluated.message);
    return {};
  }
  std::vector<joint::PairOutput> pairs(joint.num_pairs());
  for (int p = 0; p < joint.num_pairs(); ++p) pairs[p] = joint.Output(p);
  return pairs;
}

}  // namespace

const char* MethodKey(reduction::JointModeMethod method) {
  switch (method) {
    case reduction::JointModeMethod::kWeightedPodOfTvds:
      return "wpod_tvd";
    case reduction::JointModeMethod::kPodOfTvds:
      return "pod_tvd";
    case reduction::JointModeMethod::kPodOfForces:
      return "pod_forces";
  }
  return "?";
}

joint::JointOperator JointContact::Operator(const joint::PairProjection& on) const {
  return joint::JointOperator(on, mesh.initial_gap, mesh.area, {.normal = normal_law});
}

JointContact BuildJointContact(const fe::FeModel& model, const JointModeSpec& spec) {
  JointContact contact;
  contact.contact_index = model.ContactIndex(spec.contact, spec.key + ".contact");
  contact.mesh = ContactKinematicsOf(model, contact.contact_index, spec.key + ".contact");
  contact.relative = joint::OnIndependentDofs(contact.mesh.relative, *model.dofs);
  contact.normals = reduction::SelectNormalRows(contact.relative.sparse());
  contact.normal_law = spec.normal_law;
  contact.stiffness = [law = spec.normal_law, area = contact.mesh.area](int pair, double gap) {
    return std::max(0.0, -area(pair) * law->Evaluate(gap, 0.0).d_pressure_d_gap);
  };
  if (spec.tangential_stiffness > 0.0)
    contact.tangential = {.tangents = reduction::SelectTangentRows(contact.relative.sparse()),
                          .stiffness = spec.tangential_stiffness * contact.mesh.area};
  return contact;
}

const std::string& PreloadSpec::Centre(const fe::FeModelSpec& fe) const {
  return loads.empty() ? fe.beams.at(bolts.at(0).beam).a : loads.front().node;
}

PreloadSolution SolvePreload(const fe::FeModel& model, const solvers::SparseMatrix& stiffness,
                             const JointContact& contact, const PreloadSpec& spec,
                             const std::vector<Bolt>& bolts) {
  PreloadSolution preload;
  preload.stiffness = WithoutBoltStiffness(stiffness, bolts);
  preload.load = fe::AssembleLoads(model, spec.loads) + BoltLoad(bolts, true, stiffness.rows());
  std::vector<joint::JointOperator> joints;
  joints.push_back(contact.Operator(contact.relative));
  preload.full = joint::SolveStatic(preload.stiffness, joints, preload.load, spec.solver);
  if (!preload.full.status) {
    preload.full.status.message =
        "preload: the full static solution failed: " + preload.full.status.message;
    return preload;
  }
  const VecX& x = preload.full.q;
  const double energy = x.dot(stiffness * x);
  if (!(energy > 0.0)) {
    preload.full.status = Status::Failure(
        "preload: the loads do not deform the model (x^T K x = " + std::to_string(energy) + ")");
    return preload;
  }
  preload.mode = x / std::sqrt(energy);
  preload.pairs = EvaluatePairs(joints[0], x, preload.full.status);
  return preload;
}

ReducedStatic SolveReducedStatic(const MatX& basis, const solvers::SparseMatrix& stiffness,
                                 const JointContact& contact, const VecX& load,
                                 const joint::StaticOptions& options) {
  ReducedStatic reduced;
  std::vector<joint::JointOperator> joints;
  joints.push_back(contact.Operator(contact.relative.Compose(basis)));
  reduced.result = joint::SolveStatic(reduction::Project(basis, stiffness), joints,
                                      VecX(basis.transpose() * load), options);
  if (!reduced.result.status) return reduced;
  reduced.x = basis * reduced.result.q;
  reduced.pairs = EvaluatePairs(joints[0], reduced.result.q, reduced.result.status);
  return reduced;
}

namespace {

// The TVDs of result.tvd_basis -> the joint modes -> `base` extended by them (into result).
Status ExtendByStageJointModes(const solvers::SparseMatrix& stiffness,
                               const solvers::SparseMatrix& mass,
                               const reduction::CraigBamptonResult& cb,
                               const reduction::ReductionBasis& base, const JointContact& contact,
                               const JointModeSpec& spec, JointModeStageResult& result) {
  reduction::TvdResult tvd = reduction::ComputeTrialVectorDerivatives(
      result.tvd_basis.vectors, contact.normals, contact.mesh.initial_gap, contact.stiffness,
      *cb.interior_factor, cb.interior_dofs, result.focus, spec.tvd, contact.tangential);
  result.times.tvd_forces = tvd.force_seconds;
  result.times.tvd_solves = tvd.solve_seconds;
  result.k = static_cast<int>(tvd.columns.size());
  result.zero_deflections = tvd.zero_deflections;
  result.solves = tvd.solves;
  result.solves_per_second = tvd.solves_per_second();
  if (!tvd.status) return Status::Failure("trial vector derivatives: " + tvd.status.message);
  result.joint_modes =
      reduction::ComputeJointModes(tvd, *cb.interior_factor, cb.interior_dofs, spec.modes);
  result.times.pod = result.joint_modes.pod_seconds;
  result.times.joint_mode_solves = result.joint_modes.solve_seconds;
  const reduction::JointModeResult& modes = result.joint_modes;
  if (!modes.status && modes.rank > 0 && spec.modes.modes > modes.rank)
    return Status::Failure(
        spec.key + ".modes = " + std::to_string(spec.modes.modes) + ": more than the " +
        std::to_string(modes.rank) + " joint modes the " + std::to_string(tvd.solves) +
        " TVDs give (" + reduction::Name(spec.modes.method) + ", POVs above " +
        FormatValue(spec.modes.rank_tolerance) + " of the largest); ask for at most " +
        std::to_string(modes.rank) + ", or give `ratio` instead of `modes`");
  if (!modes.status) return modes.status;
  result.g = static_cast<int>(modes.modes.cols());
  if (result.g > 0) result.ratio = modes.ratio(result.g - 1);
  const Clock::time_point start = Clock::now();
  reduction::ExtendResult extended = reduction::ExtendBasis(
      base, modes.modes, stiffness, reduction::VectorKind::kJointMode, "joint", 1e-8, &mass);
  result.times.extend = Seconds(start);
  if (!extended.status) return Status::Failure("joint modes: " + extended.status.message);
  result.extended = std::move(extended.basis);
  result.dropped = extended.dropped;
  return Status::Ok();
}

}  // namespace

void TransformReduced(const MatX& y, MatX& stiffness, MatX& mass) {
  stiffness = y.transpose() * stiffness * y;
  mass = y.transpose() * mass * y;
  stiffness = 0.5 * (stiffness + stiffness.transpose()).eval();
  mass = 0.5 * (mass + mass.transpose()).eval();
}

JointModeStageResult RunJointModeStage(
    const solvers::SparseMatrix& stiffness, const solvers::SparseMatrix& mass,
    const reduction::CraigBamptonResult& cb, const reduction::ReductionBasis& cms,
    const JointContact& contact, const JointModeSpec& spec, const VecX* preload_mode,
    PreloadTvds preload_tvds, bool orthogonalize, const reduction::FreeFreeOptions& free_free) {
  JointModeStageResult result;
  result.tvd_basis = cms;
  // The joint modes extend Craig-Bampton's basis (the same span as the free-free modes and
  // the rigid-body modes of a free structure): the final orthogonalization then removes
  // the rigid-body modes and keeps every elastic vector M-orthogonal to them. Extending the
  // free-free modes instead leaves near-rigid combinations of free-free and joint modes
  // (the joint modes correct the interior of a rigid motion given by the free-free modes'
  // boundary values): 4.3 and 7.1 Hz below the first elastic 323 Hz of the free friction
  // bar, measured.
  reduction::ReductionBasis base = cb.basis;
  if (preload_mode) {
    result.tvd_basis.Append(*preload_mode, reduction::VectorKind::kPreloadMode, {"preload_1"});
    base.Append(*preload_mode, reduction::VectorKind::kPreloadMode, {"preload_1"});
    if (preload_tvds == PreloadTvds::kPreloadRelated) result.focus = {cms.size()};
  }
  result.pairs = contact.num_pairs();
  result.m = result.tvd_basis.size();
  result.extended = base;
  if (!spec.none()) {
    result.status = ExtendByStageJointModes(stiffness, mass, cb, base, contact, spec, result);
    if (!result.status) return result;
  }
  // The reduced eigenproblem of the extended basis: its frequencies either way, and its
  // free-free modes as the final basis when orthogonalizing.
  const Clock::time_point start = Clock::now();
  result.stiffness = reduction::Project(result.extended.vectors, stiffness);
  result.mass = reduction::Project(result.extended.vectors, mass);
  result.final_orthogonalization =
      reduction::OrthogonalizeToFreeFree(result.extended, result.stiffness, result.mass, free_free);
  result.times.orthogonalization = Seconds(start);
  const reduction::FreeFreeResult& ff = result.final_orthogonalization;
  if (!ff.status) {
    result.status =
        Status::Failure("orthogonalization of the extended basis: " + ff.status.message);
    return result;
  }
  result.frequencies = ff.frequencies;
  result.basis = orthogonalize ? ff.basis : result.extended;
  if (orthogonalize) TransformReduced(ff.transform, result.stiffness, result.mass);
  return result;
}

CmsBasis BuildCmsBasis(const solvers::SparseMatrix& stiffness, const solvers::SparseMatrix& mass,
                       const std::vector<reduction::BoundaryDof>& boundary, int vibration_modes,
                       int cb_modes, const reduction::FreeFreeOptions& free_free,
                       Observer& observer) {
  CmsBasis result;
  reduction::CraigBamptonOptions cb_options;
  cb_options.fixed_interface_modes = cb_modes;
  const std::string task = "Craig-Bampton (" + std::to_string(cb_modes) + " vibration modes)";
  observer.Progress(task, 0, 1);
  result.cb = reduction::CraigBampton(stiffness, mass, boundary, cb_options);
  observer.Progress(task, 1, 1);
  const reduction::CraigBamptonResult& cb = result.cb;
  if (!cb.status) {
    result.status = cb.status;
    return result;
  }
  const int b = static_cast<int>(boundary.size());
  std::vector<int> columns(vibration_modes);
  std::iota(columns.begin(), columns.end(), 0);
  for (int k = 0; k < b; ++k) columns.push_back(cb_modes + k);
  const auto size = static_cast<Eigen::Index>(columns.size());
  reduction::ReductionBasis chosen;
  MatX k(size, size), m(size, size);
  chosen.vectors.resize(cb.basis.num_dofs(), size);
  for (Eigen::Index i = 0; i < size; ++i) {
    chosen.vectors.col(i) = cb.basis.vectors.col(columns[i]);
    chosen.columns.push_back(cb.basis.columns[columns[i]]);
    for (Eigen::Index j = 0; j < size; ++j) {
      k(i, j) = cb.stiffness(columns[i], columns[j]);
      m(i, j) = cb.mass(columns[i], columns[j]);
    }
  }
  result.cms = reduction::OrthogonalizeToFreeFree(chosen, k, m, free_free);
  result.status = result.cms.status;
  return result;
}

reduction::TvdResult ComputeCmsTvds(const CmsBasis& basis, const JointContact& contact,
                                    const reduction::TvdOptions& options, Observer& observer) {
  const int m = basis.m();
  const std::string task = std::to_string(2 * m * m) + " trial vector derivatives";
  observer.Progress(task, 0, 1);
  reduction::TvdResult tvd = reduction::ComputeTrialVectorDerivatives(
      basis.cms.basis.vectors, contact.normals, contact.mesh.initial_gap, contact.stiffness,
      *basis.cb.interior_factor, basis.cb.interior_dofs, {}, options, contact.tangential);
  observer.Progress(task, 1, 1);
  return tvd;
}

JointModeExtension ExtendByJointModes(const reduction::TvdResult& tvd,
                                      const solvers::SparseMatrix& stiffness, const CmsBasis& basis,
                                      reduction::JointModeMethod method, int g_max) {
  JointModeExtension result;
  reduction::JointModeOptions options;
  options.method = method;
  options.modes = 0;  // every mode above the rank tolerance (w = 1), at most g_max
  options.target_ratio = 1.0;
  options.max_modes = g_max;
  const reduction::CraigBamptonResult& cb = basis.cb;
  result.modes = reduction::ComputeJointModes(tvd, *cb.interior_factor, cb.interior_dofs, options);
  if (!result.modes.status) {
    result.status =
        Status::Failure(std::string(reduction::Name(method)) + ": " + result.modes.status.message);
    return result;
  }
  result.extended = reduction::ExtendBasis(basis.cms.basis, result.modes.modes, stiffness,
                                           reduction::VectorKind::kJointMode, "joint");
  if (!result.extended.status) {
    result.status = Status::Failure(std::string(reduction::Name(method)) + ": " +
                                    result.extended.status.message);
    return result;
  }
  result.kept = result.extended.basis.size() - basis.cms.basis.size();
  if (result.kept < g_max)
    result.note =
        std::string(reduction::Name(method)) + ": " + std::to_string(result.kept) +
        " joint modes for g up to " + std::to_string(g_max) + " (" +
        std::to_string(result.modes.rank) + " POVs above the rank tolerance, " +
        std::to_string(result.extended.dropped) +
        " modes dependent on the CMS basis dropped): every g >= " + std::to_string(result.kept) +
        " uses these " + std::to_string(result.kept);
  return result;
}

VecX PairRadii(const fe::FeModel& model, int contact_index, const std::string& node) {
  const auto at = std::find_if(model.reference_nodes.begin(), model.reference_nodes.end(),
                               [&](const fe::ReferenceNode& r) { return r.name == node; });
  if (at == model.reference_nodes.end())
    throw InternalError("PairRadii: no reference node " + node);
  const Vec3 center = at->position;
  const auto& pairs = model.contacts[contact_index].pairs;
  VecX radii(static_cast<Eigen::Index>(pairs.size()));
  for (size_t p = 0; p < pairs.size(); ++p) {
    const Vec3 d = model.mesh.nodes.row(pairs[p].slave).transpose() - center;
    radii(static_cast<Eigen::Index>(p)) = (d - d.dot(pairs[p].n) * pairs[p].n).norm();
  }
  return radii;
}

double RelativePressureError(const std::vector<joint::PairOutput>& reduced,
                             const std::vector<joint::PairOutput>& full,
                             const std::vector<int>& selected) {
  double difference = 0.0, reference = 0.0;
  for (const int p : selected) {
    difference += std::pow(reduced[p].pressure - full[p].pressure, 2);
    reference += std::pow(full[p].pressure, 2);
  }
  if (reference == 0.0) return difference == 0.0 ? 0.0 : 1.0;
  return std::sqrt(difference / reference);
}

}  // namespace jointdyn::analysis
