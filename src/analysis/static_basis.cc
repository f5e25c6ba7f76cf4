#include "analysis/static_basis.h"

#include <cmath>

#include "analysis/fe_setup.h"
#include "core/error.h"
#include "reduction/joint_modes.h"
#include "solvers/sparse_cholesky.h"

namespace jointdyn::analysis {
namespace {

// V: the CMS basis, or Craig-Bampton's extended by the joint modes (whose TVDs also
// differentiate `load_mode`), on the free DOFs.
Status ReductionBasis(const StaticReduction& reduction, const fe::FeModel& model,
                      const solvers::SparseMatrix& stiffness, const VecX* load_mode,
                      Observer& observer, reduction::ReductionBasis& v) {
  const int modes = reduction.cms.vibration_modes;
  const solvers::SparseMatrix mass = model.ReducedMass();
  const CmsBasis cms =
      BuildCmsBasis(stiffness, mass, BoundaryDofs(model, reduction.cms.boundary, modes), modes,
                    modes, reduction.cms.free_free, observer);
  if (!cms.status) return Status::Failure("CMS basis: " + cms.status.message);
  if (!reduction.joint_modes) {
    v = cms.cms.basis;
    return Status::Ok();
  }
  // The load mode's part K-orthogonal to Craig-Bampton's basis (none when it is in its
  // span, e.g. loads on boundary DOFs only).
  VecX independent;
  if (load_mode) {
    const reduction::ExtendResult extended = reduction::ExtendBasis(
        cms.cb.basis, *load_mode, stiffness, reduction::VectorKind::kPreloadMode, "load");
    if (!extended.status) return Status::Failure("the load mode: " + extended.status.message);
    if (extended.dropped == 0) independent = extended.basis.vectors.rightCols(1);
  }
  const JointModeSpec& spec = *reduction.joint_modes;
  observer.Progress("joint modes", 0, 1);
  const JointModeStageResult stage =
      RunJointModeStage(stiffness, mass, cms.cb, cms.cms.basis, BuildJointContact(model, spec),
                        spec, independent.size() > 0 ? &independent : nullptr, PreloadTvds::kAll,
                        false, reduction.cms.free_free);
  observer.Progress("joint modes", 1, 1);
  if (!stage.status) return Status::Failure("joint modes: " + stage.status.message);
  v = stage.basis;
  return Status::Ok();
}

// The sum of the columns of x, each K-normalized, K-normalized (none: zero).
VecX CombinedMode(const MatX& x, const solvers::SparseMatrix& stiffness) {
  VecX sum = VecX::Zero(x.rows());
  for (Eigen::Index j = 0; j < x.cols(); ++j) {
    const double norm = std::sqrt(x.col(j).dot(stiffness * x.col(j)));
    if (norm > 0.0) sum += x.col(j) / norm;
  }
  const double norm = std::sqrt(sum.dot(stiffness * sum));
  return norm > 0.0 ? VecX(sum / norm) : sum;
}

}  // namespace

StaticBasis BuildStaticBasis(const StaticReduction& reduction, const MatX& loads,
                             const std::vector<PrescribedMotion>& prescribed,
                             const fe::FeModel& model,
                             const solvers::SparseMatrix& extended_stiffness,
                             const solvers::SparseMatrix& start_tangent, Observer& observer) {
  StaticBasis basis;
  const fe::DofMap& dofs = *model.dofs;
  const int free = dofs.num_free_dofs();
  const auto held = static_cast<int>(dofs.held_dofs().size());
  const auto supports = static_cast<int>(prescribed.size());
  const solvers::SparseMatrix stiffness = extended_stiffness.topLeftCorner(free, free);
  // K0_ff^-1 [f_i, -K0_fh E]: the load modes and the lifts.
  MatX e = MatX::Zero(held, supports);
  for (int s = 0; s < supports; ++s)
    for (int h : dofs.SupportHeld(prescribed[s].support)) e(h, s) = 1.0;
  MatX rhs(free, loads.cols() + supports), x;
  rhs << loads, -(start_tangent.block(0, free, free, held) * e);
  solvers::SparseCholesky k_ff;
  if (const Status status = k_ff.Factor(start_tangent.topLeftCorner(free, free)); !status) {
    basis.status = Status::Failure("the load modes: " + status.message);
    return basis;
  }
  k_ff.Solve(rhs, x);
  const VecX load_mode = CombinedMode(x, stiffness);
  reduction::ReductionBasis v;
  basis.status = ReductionBasis(reduction, model, stiffness,
                                load_mode.isZero(0.0) ? nullptr : &load_mode, observer, v);
  if (!basis.status) return basis;
  const reduction::ExtendResult extended = reduction::ExtendBasis(
      v, x.leftCols(loads.cols()), stiffness, reduction::VectorKind::kPreloadMode, "load");
  if (!(basis.status = extended.status)) return basis;
  const MatX& vectors = extended.basis.vectors;
  const auto r = static_cast<int>(vectors.cols());
  basis.w = MatX::Zero(free + held, r + supports);
  basis.w.topLeftCorner(free, r) = vectors;
  basis.w.topRightCorner(free, supports) = x.rightCols(supports);
  basis.w.bottomRightCorner(held, supports) = e;
  for (int s = 0; s < supports; ++s) basis.held.push_back(r + s);
  basis.description = reduction::Describe(extended.basis);
  if (supports > 0)
    basis.description += " + the lift of " + std::to_string(supports) + " prescribed support" +
                         (supports > 1 ? "s" : "");
  return basis;
}

}  // namespace jointdyn::analysis
