#include "analysis/static_basis.h"

#include <cmath>

#include "analysis/fe_setup.h"
#include "core/error.h"
#include "solvers/sparse_cholesky.h"

namespace jointdyn::analysis {
namespace {

// V: the CMS basis [+ the joint modes, whose TVDs also differentiate `load_mode`] on the
// free DOFs.
Status ReductionBasis(const StaticReduction& reduction, const fe::FeModel& model,
                      const VecX* load_mode, Observer& observer, MatX& v,
                      std::string& description) {
  const int modes = reduction.cms.vibration_modes;
  const solvers::SparseMatrix stiffness = model.ReducedStiffness(), mass = model.ReducedMass();
  const CmsBasis cms =
      BuildCmsBasis(stiffness, mass, BoundaryDofs(model, reduction.cms.boundary, modes), modes,
                    modes, reduction.cms.free_free, observer);
  if (!cms.status) return Status::Failure("CMS basis: " + cms.status.message);
  description = "CMS " + reduction::Describe(cms.cms.basis);
  if (!reduction.joint_modes) {
    v = cms.cms.basis.vectors;
    return Status::Ok();
  }
  const JointModeSpec& spec = *reduction.joint_modes;
  observer.Progress("joint modes", 0, 1);
  const JointModeStageResult stage =
      RunJointModeStage(stiffness, mass, cms.cb, cms.cms.basis, BuildJointContact(model, spec),
                        spec, load_mode, PreloadTvds::kAll, false, reduction.cms.free_free);
  observer.Progress("joint modes", 1, 1);
  if (!stage.status) return Status::Failure("joint modes: " + stage.status.message);
  v = stage.basis.vectors;
  description = "Craig-Bampton " + reduction::Describe(stage.basis) + ", joint modes by " +
                MethodKey(spec.modes.method);
  return Status::Ok();
}

// L = -K_ff^-1 K_fh E: the free DOFs' static response to unit values of each support.
Status Lift(const solvers::SparseMatrix& extended_stiffness, int free, const MatX& e, MatX& lift) {
  solvers::SparseCholesky k_ff;
  const solvers::SparseMatrix top_left = extended_stiffness.topLeftCorner(free, free);
  if (const Status status = k_ff.Factor(top_left); !status)
    return Status::Failure("the static lift of the prescribed supports: " + status.message);
  const MatX coupling = extended_stiffness.block(0, free, free, e.rows()) * e;
  k_ff.Solve(coupling, lift);
  lift = -lift;
  return Status::Ok();
}

}  // namespace

StaticBasis BuildStaticBasis(const StaticReduction& reduction,
                             const std::vector<PrescribedMotion>& prescribed,
                             const fe::FeModel& model,
                             const solvers::SparseMatrix& extended_stiffness, Observer& observer) {
  StaticBasis basis;
  const fe::DofMap& dofs = *model.dofs;
  const int free = dofs.num_free_dofs();
  const auto held = static_cast<int>(dofs.held_dofs().size());
  const auto supports = static_cast<int>(prescribed.size());
  MatX e = MatX::Zero(held, supports), lift = MatX::Zero(free, supports);
  for (int s = 0; s < supports; ++s)
    for (int h : dofs.SupportHeld(prescribed[s].support)) e(h, s) = 1.0;
  if (supports > 0 && !(basis.status = Lift(extended_stiffness, free, e, lift))) return basis;
  // The joint modes also see the lift (all supports at once, K-normalized), the structure's
  // deformation under the prescribed values, as the preload mode of a reduction.
  VecX load_mode = lift.rowwise().sum();
  const double norm =
      std::sqrt(load_mode.dot(extended_stiffness.topLeftCorner(free, free) * load_mode));
  if (norm > 0.0) load_mode /= norm;
  MatX v;
  basis.status = ReductionBasis(reduction, model, norm > 0.0 ? &load_mode : nullptr, observer, v,
                                basis.description);
  if (!basis.status) return basis;
  const auto r = static_cast<int>(v.cols());
  basis.w = MatX::Zero(free + held, r + supports);
  basis.w.topLeftCorner(free, r) = v;
  basis.w.topRightCorner(free, supports) = lift;
  basis.w.bottomRightCorner(held, supports) = e;
  for (int s = 0; s < supports; ++s) basis.held.push_back(r + s);
  if (supports > 0)
    basis.description += " + the lift of " + std::to_string(supports) + " prescribed support" +
                         (supports > 1 ? "s" : "");
  return basis;
}

}  // namespace jointdyn::analysis
