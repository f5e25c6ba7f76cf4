// Transient model of a structure with joints (seed 003 sections 3.3.2, 4.1.1): the
// SecondOrderSystem
//   M q'' + C q' + K q + sum_j f_j(q, q'; history) = sum_k l_k a_k(t)
// for the time integrators (time/integrator.h), with f_j the joint operators
// (joint_operator.h) and external loads l_k scaled by time functions a_k(t).
//
// One class serves the full and the reduced model, each in its natural storage
// (solvers::Matrix): on the independent DOFs q of the FE model, M = T^T M T and K = T^T K T
// are sparse and the joints have a sparse R T; on modal coordinates (x = V q) the matrices
// V^T M V, V^T K V, V^T C V and the tangents are dense (the linear solver's kAuto factors
// them by dense LU) and the joints have a dense R V, the loads V^T l (Reduce() below makes
// one from the other).
//
// Layering: this is the joint layer's transient counterpart of static_solver.h, an
// assembler over joint operators, so the joint layer gains a dependency on `time`
// (joint -> laws, fe, time; time -> solvers only, so no cycle). A separate layer above joint
// and time would hold this one class; mbs (-> joint, time) can use it as it is.
// The load factors are time functions of the time layer (time/time_function.h), as the
// forces of the lumped models are.
//
// History: InternalForce() evaluates every joint from its committed history (the trial
// history stays in the joint), Commit() commits the joints; a rejected step needs no
// rollback because the next evaluation starts again from the committed history.
// Energy: StoredEnergy() = q^T K q / 2 plus the joints' law energies (penalty and stick
// springs), so the integrator's law_dissipation is the friction dissipation.
// Energy-conserving variant (StepPoint::discrete_gradient): K (q + q_start) / 2 for the
// structure; the joints return their end-point forces (friction is not conservative; the
// penalty's discrete gradient is not implemented), so the scheme conserves energy exactly
// only without contact.
#pragma once

#include <span>
#include <vector>

#include "core/types.h"
#include "joint/joint_operator.h"
#include "time/second_order_system.h"
#include "time/time_function.h"

namespace jointdyn::joint {

// f(t) = vector * factor(t).
struct TimedLoad {
  VecX vector;                // load vector on the state [N] (V^T l when reduced)
  time::TimeFunction factor;  // of t [s] [-]
};

// Sparse for the full model, dense for a reduced one (K and the joints stored alike).
struct StructureMatrices {
  solvers::Matrix mass;       // M [kg], symmetric positive definite
  solvers::Matrix stiffness;  // K [N/m], symmetric positive semi-definite
  solvers::Matrix damping;    // C [N s/m]; 0 x 0: undamped
};

// Rayleigh damping C = alpha M + beta K (stored as M and K are), alpha [1/s] >= 0,
// beta [s] >= 0 (InputError "damping.rayleigh.alpha = -1: must be >= 0" otherwise).
solvers::Matrix RayleighDamping(const solvers::Matrix& mass, const solvers::Matrix& stiffness,
                                double alpha, double beta);

// Modal damping C = (M Phi) diag(2 zeta_k omega_k) (M Phi)^T for mass-normalized modes
// Phi (columns, Phi^T M Phi = I) with circular frequencies omega_k [rad/s] and damping
// ratios zeta_k [-] >= 0: mode k gets ratio zeta_k, everything M-orthogonal to the modes
// is undamped. Dense (n^2 entries): meant for reduced models, not for n ~ 1e4.
MatX ModalDamping(const solvers::SparseMatrix& mass, const MatX& modes, const VecX& omega,
                  const VecX& ratio);

class JointedSystem final : public time::SecondOrderSystem {
 public:
  // Joints: all sparse (full model, K sparse) or all dense (reduced, K dense), each of
  // size() == K.rows();
  // load vectors of that size too (internal invariants: checked, InternalError).
  // `coordinate_units`: CoordinateUnits() (empty: physical DOFs; Reduce() sets them).
  JointedSystem(StructureMatrices matrices, std::vector<JointOperator> joints,
                std::vector<TimedLoad> loads, VecX coordinate_units = {});

  int size() const override { return static_cast<int>(matrices_.stiffness.rows()); }
  const solvers::Matrix& mass() const override { return matrices_.mass; }
  const solvers::Matrix& damping() const override { return matrices_.damping; }
  const solvers::Matrix& stiffness() const { return matrices_.stiffness; }
  // K and D stored as stiffness() is (whatever storage they come in).
  Status InternalForce(const time::StepPoint& point, VecX& f, solvers::Matrix* stiffness,
                       solvers::Matrix* damping_tangent) override;
  void ExternalForce(double t, VecX& f) const override;
  void Commit() override;
  double StoredEnergy() const override { return stored_energy_; }
  VecX CoordinateUnits() const override { return units_; }

  // The joints with the results of the last evaluation (contact fields, gap norms).
  std::span<const JointOperator> joints() const { return joints_; }
  const std::vector<TimedLoad>& loads() const { return loads_; }
  bool reduced() const { return dense_; }

 private:
  // target += the joints' Jacobians by `derivative` (kVelocity: of the rate-dependent
  // joints only); target stored as the joints are.
  void AddJointJacobians(Derivative derivative, solvers::Matrix& target);

  StructureMatrices matrices_;
  std::vector<JointOperator> joints_;
  std::vector<TimedLoad> loads_;
  bool dense_ = false;  // K dense, joints with a dense R V
  VecX units_;          // CoordinateUnits()
  double stored_energy_ = 0.0;
  // Workspaces.
  VecX joint_force_;
  solvers::SparseMatrix sparse_jacobian_;
  MatX dense_jacobian_;
};

// The reduced system on coordinates y with x = V y for a basis V (columns, full model
// size): V^T M V, V^T K V, V^T C V (dense), joints with R V (dense) and the same gaps,
// areas, laws and options and the full joints' committed history (JointOperator::
// CopyHistory: a full model preloaded statically hands its friction state on), loads V^T l
// with the same time functions; the coordinate units max_i |V_ij| (a column without motion
// keeps unit 1).
JointedSystem Reduce(const JointedSystem& full, const MatX& basis);

}  // namespace jointdyn::joint
