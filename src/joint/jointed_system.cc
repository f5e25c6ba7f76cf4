#include "joint/jointed_system.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "core/error.h"

namespace jointdyn::joint {
namespace {

using solvers::Matrix;
using solvers::SparseMatrix;

void CheckCoefficient(const std::string& key, double value, const std::string& unit_rule) {
  if (!(value >= 0.0 && std::isfinite(value))) throw InputError(key, FormatValue(value), unit_rule);
}

// V^T A V (dense).
MatX Project(const Matrix& a, const MatX& v) {
  return v.transpose() * (a.is_dense() ? MatX(a.dense() * v) : MatX(a.sparse() * v));
}

}  // namespace

Matrix RayleighDamping(const Matrix& mass, const Matrix& stiffness, double alpha, double beta) {
  CheckCoefficient("damping.rayleigh.alpha", alpha, "must be finite and >= 0 [1/s]");
  CheckCoefficient("damping.rayleigh.beta", beta, "must be finite and >= 0 [s]");
  JD_CHECK(mass.rows() == stiffness.rows() && mass.cols() == stiffness.cols(),
           "RayleighDamping: M and K differ in size");
  Matrix c;
  c.SetZeroLike(mass);
  c.AddScaled(alpha, mass);
  c.AddScaled(beta, stiffness);
  return c;
}

MatX ModalDamping(const SparseMatrix& mass, const MatX& modes, const VecX& omega,
                  const VecX& ratio) {
  JD_CHECK(
      modes.rows() == mass.rows() && omega.size() == modes.cols() && ratio.size() == modes.cols(),
      "ModalDamping: one frequency and ratio per mode, modes of M's size");
  for (int k = 0; k < ratio.size(); ++k) {
    CheckCoefficient("damping.modal.ratios[" + std::to_string(k) + "]", ratio(k),
                     "must be finite and >= 0");
    CheckCoefficient("damping.modal.omega[" + std::to_string(k) + "]", omega(k),
                     "must be finite and >= 0 [rad/s]");
  }
  const MatX m_phi = mass * modes;
  return m_phi * (2.0 * ratio.cwiseProduct(omega)).asDiagonal() * m_phi.transpose();
}

JointedSystem::JointedSystem(StructureMatrices matrices, std::vector<JointOperator> joints,
                             std::vector<TimedLoad> loads, VecX coordinate_units)
    : matrices_(std::move(matrices)),
      joints_(std::move(joints)),
      loads_(std::move(loads)),
      units_(std::move(coordinate_units)) {
  const int n = size();
  JD_CHECK(units_.size() == 0 ||
               (units_.size() == n && (units_.array() > 0.0).all() && units_.allFinite()),
           "JointedSystem: coordinate units must be empty or one finite value > 0 per coordinate");
  JD_CHECK(
      matrices_.stiffness.cols() == n && matrices_.mass.rows() == n && matrices_.mass.cols() == n,
      "JointedSystem: M and K must be square of one size");
  if (matrices_.damping.rows() == 0) matrices_.damping.SetZeroLike(matrices_.mass);
  JD_CHECK(matrices_.damping.rows() == n && matrices_.damping.cols() == n,
           "JointedSystem: C must have the size of K");
  dense_ = matrices_.stiffness.is_dense();
  for (const JointOperator& joint : joints_) {
    JD_CHECK(joint.size() == n, "JointedSystem: a joint's state size differs from K's");
    JD_CHECK(joint.relative().is_sparse() != dense_,
             "JointedSystem: joints must be sparse with a sparse K, dense with a dense K");
  }
  for (const TimedLoad& load : loads_)
    JD_CHECK(load.vector.size() == n, "JointedSystem: a load needs a vector of the state size");
  if (dense_) dense_jacobian_ = MatX::Zero(n, n);
}

Status JointedSystem::InternalForce(const time::StepPoint& point, VecX& f, Matrix* stiffness,
                                    Matrix* damping_tangent) {
  JD_CHECK(point.q != nullptr && point.v != nullptr, "StepPoint without q or v");
  const VecX& q = *point.q;
  const Matrix& k = matrices_.stiffness;
  // Energy-conserving variant: the discrete gradient of q^T K q / 2 is K (q + q_start) / 2.
  const bool midpoint = point.discrete_gradient && point.q_start != nullptr;
  f = midpoint ? VecX(0.5 * (k * VecX(q + *point.q_start))) : k * q;
  stored_energy_ = 0.5 * q.dot(k * q);
  bool any_rate = false;
  for (std::size_t j = 0; j < joints_.size(); ++j) {
    JointOperator& joint = joints_[j];
    if (Status status = joint.Evaluate(q, point.v, point.dt); !status)
      return Status::Failure("joint " + std::to_string(j) + ": " + status.message +
                             " at t = " + FormatValue(point.t) + " s");
    joint.Forces(joint_force_);
    f += joint_force_;
    stored_energy_ += joint.StoredEnergy();
    any_rate = any_rate || joint.rate_dependent();
  }
  if (stiffness) {
    stiffness->SetZeroLike(k);
    stiffness->AddScaled(midpoint ? 0.5 : 1.0, k);
    AddJointJacobians(Derivative::kDisplacement, *stiffness);
  }
  if (damping_tangent && any_rate) {  // zero unless a joint is rate-dependent
    damping_tangent->SetZeroLike(k);
    AddJointJacobians(Derivative::kVelocity, *damping_tangent);
  }
  if (!f.allFinite() || !std::isfinite(stored_energy_))
    return Status::Failure("non-finite internal force at t = " + FormatValue(point.t) + " s");
  return Status::Ok();
}

void JointedSystem::AddJointJacobians(Derivative derivative, Matrix& target) {
  for (JointOperator& joint : joints_) {
    if (derivative == Derivative::kVelocity && !joint.rate_dependent()) continue;
    if (dense_) {
      joint.Jacobian(dense_jacobian_, derivative);
      target.dense() += dense_jacobian_;
    } else {
      joint.Jacobian(sparse_jacobian_, derivative);
      target.sparse() += sparse_jacobian_;
    }
  }
}

void JointedSystem::ExternalForce(double t, VecX& f) const {
  f.setZero(size());
  for (const TimedLoad& load : loads_) f += load.factor.Value(t) * load.vector;
}

void JointedSystem::Commit() {
  for (JointOperator& joint : joints_) joint.Commit();
}

JointedSystem Reduce(const JointedSystem& full, const MatX& basis) {
  JD_CHECK(basis.rows() == full.size(), "Reduce: basis rows differ from the state size");
  StructureMatrices reduced{.mass = Project(full.mass(), basis),
                            .stiffness = Project(full.stiffness(), basis),
                            .damping = Project(full.damping(), basis)};
  std::vector<JointOperator> joints;
  for (const JointOperator& joint : full.joints()) joints.push_back(joint.Reduced(basis));
  std::vector<TimedLoad> loads;
  for (const TimedLoad& load : full.loads())
    loads.push_back({VecX(basis.transpose() * load.vector), load.factor});
  VecX units = basis.cwiseAbs().colwise().maxCoeff().transpose();
  for (Eigen::Index j = 0; j < units.size(); ++j) {
    if (!(units(j) > 0.0) || !std::isfinite(units(j))) units(j) = 1.0;
  }
  return JointedSystem(std::move(reduced), std::move(joints), std::move(loads), std::move(units));
}

}  // namespace jointdyn::joint
