#include "joint/jointed_system.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "core/error.h"

namespace jointdyn::joint {
namespace {

using solvers::SparseMatrix;

void CheckCoefficient(const std::string& key, double value, const std::string& unit_rule) {
  if (!(value >= 0.0 && std::isfinite(value))) throw InputError(key, FormatValue(value), unit_rule);
}

// Every entry of a dense matrix as a sparse one (a fixed, full pattern).
SparseMatrix FullPattern(const MatX& a) {
  SparseMatrix s(a.rows(), a.cols());
  s.reserve(Eigen::VectorXi::Constant(a.cols(), static_cast<int>(a.rows())));
  for (int j = 0; j < a.cols(); ++j)
    for (int i = 0; i < a.rows(); ++i) s.insert(i, j) = a(i, j);
  s.makeCompressed();
  return s;
}

// V^T A V as a full-pattern matrix.
SparseMatrix Project(const SparseMatrix& a, const MatX& v) {
  return FullPattern(MatX(v.transpose() * (a * v)));
}

// Copies the values of dense `a` into full-pattern `s` (same shape): no allocation.
void CopyValues(const MatX& a, SparseMatrix& s) {
  JD_CHECK(s.nonZeros() == a.size(), "JointedSystem: full-pattern matrix expected");
  std::copy(a.data(), a.data() + a.size(), s.valuePtr());
}

}  // namespace

SparseMatrix RayleighDamping(const SparseMatrix& mass, const SparseMatrix& stiffness, double alpha,
                             double beta) {
  CheckCoefficient("damping.rayleigh.alpha", alpha, "must be finite and >= 0 [1/s]");
  CheckCoefficient("damping.rayleigh.beta", beta, "must be finite and >= 0 [s]");
  JD_CHECK(mass.rows() == stiffness.rows() && mass.cols() == stiffness.cols(),
           "RayleighDamping: M and K differ in size");
  SparseMatrix c = alpha * mass + beta * stiffness;
  c.makeCompressed();
  return c;
}

SparseMatrix ModalDamping(const SparseMatrix& mass, const MatX& modes, const VecX& omega,
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
  return FullPattern(
      MatX(m_phi * (2.0 * ratio.cwiseProduct(omega)).asDiagonal() * m_phi.transpose()));
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
  if (matrices_.damping.size() == 0) matrices_.damping.resize(n, n);
  JD_CHECK(matrices_.damping.rows() == n && matrices_.damping.cols() == n,
           "JointedSystem: C must have the size of K");
  dense_ = !joints_.empty() && !joints_.front().relative().is_sparse();
  for (const JointOperator& joint : joints_) {
    JD_CHECK(joint.size() == n, "JointedSystem: a joint's state size differs from K's");
    JD_CHECK(joint.relative().is_sparse() != dense_,
             "JointedSystem: joints must be all sparse or all dense");
  }
  for (const TimedLoad& load : loads_)
    JD_CHECK(load.vector.size() == n && load.factor,
             "JointedSystem: a load needs a vector of the state size and a time function");
  if (dense_) {
    dense_stiffness_ = MatX(matrices_.stiffness);
    dense_sum_ = MatX::Zero(n, n);
    dense_jacobian_ = MatX::Zero(n, n);
  }
}

Status JointedSystem::InternalForce(const time::StepPoint& point, VecX& f, SparseMatrix* stiffness,
                                    SparseMatrix* damping_tangent) {
  JD_CHECK(point.q != nullptr && point.v != nullptr, "StepPoint without q or v");
  const VecX& q = *point.q;
  const SparseMatrix& k = matrices_.stiffness;
  // Energy-conserving variant: the discrete gradient of q^T K q / 2 is K (q + q_start) / 2.
  const bool midpoint = point.discrete_gradient && point.q_start != nullptr;
  f = midpoint ? VecX(0.5 * (k * (q + *point.q_start))) : VecX(k * q);
  stored_energy_ = 0.5 * q.dot(k * q);
  const double k_weight = midpoint ? 0.5 : 1.0;
  if (stiffness) {
    if (dense_) {
      dense_sum_ = k_weight * dense_stiffness_;
    } else {
      *stiffness = k_weight * k;
    }
  }
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
    if (!stiffness) continue;
    if (dense_) {
      joint.Jacobian(dense_jacobian_);
      dense_sum_ += dense_jacobian_;
    } else {
      joint.Jacobian(sparse_jacobian_);
      *stiffness += sparse_jacobian_;
    }
  }
  if (stiffness && dense_) {
    if (stiffness->nonZeros() != dense_sum_.size()) *stiffness = FullPattern(dense_sum_);
    CopyValues(dense_sum_, *stiffness);
  }
  if (damping_tangent && any_rate) {  // comes zero: only rate-dependent joints add to it
    if (dense_) dense_sum_.setZero();
    for (JointOperator& joint : joints_) {
      if (!joint.rate_dependent()) continue;
      if (dense_) {
        joint.Jacobian(dense_jacobian_, Derivative::kVelocity);
        dense_sum_ += dense_jacobian_;
      } else {
        joint.Jacobian(sparse_jacobian_, Derivative::kVelocity);
        *damping_tangent += sparse_jacobian_;
      }
    }
    if (dense_) *damping_tangent = FullPattern(dense_sum_);
  }
  if (!f.allFinite() || !std::isfinite(stored_energy_))
    return Status::Failure("non-finite internal force at t = " + FormatValue(point.t) + " s");
  return Status::Ok();
}

void JointedSystem::ExternalForce(double t, VecX& f) const {
  f.setZero(size());
  for (const TimedLoad& load : loads_) f += load.factor(t) * load.vector;
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
  for (const JointOperator& joint : full.joints())
    joints.emplace_back(joint.relative().Compose(basis), joint.initial_gap(), joint.area(),
                        joint.laws(), joint.options());
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
