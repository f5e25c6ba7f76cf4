// The planar multibody system (planar_model.h) as a SecondOrderSystem for the index-3
// integrator (time/integrator.h, seed 003 eq. 2.55-2.61): constant block-diagonal mass,
// springs and dampers as internal forces, forces at markers as configuration loads,
// gravity as the external force, and the joints as constraints c(q, t) = 0.
//
// Every element (a joint's rows, a spring, a load) touches at most two bodies; it is
// evaluated on their six local coordinates with second-order forward differentiation
// (jet.h), which gives C_q, (C_q' lambda)_q, Q_c and the spring tangents exactly. This
// class is the one assembler that loops over the elements and scatters into the system.
//
// Constraint forces are reported per joint as the force the joint exerts on marker b's
// body (JointForces): revolute fx, fy [N]; rigid fx, fy [N] and the moment [N m];
// prismatic the moment [N m] and the force along a's normal [N]; distance the tension [N];
// prescribed the driving force or torque on the coordinate [N or N m].
#pragma once

#include <string>
#include <vector>

#include "mbs/flexible_forces.h"
#include "mbs/matrix_assembly.h"
#include "mbs/planar_model.h"
#include "time/second_order_system.h"

namespace jointdyn::mbs {

using solvers::Matrix;
using solvers::SparseMatrix;

class PlanarSystem final : public time::SecondOrderSystem {
 public:
  // Validates (InputError). Storage: dense up to `dense_coordinates` coordinates, sparse
  // beyond.
  explicit PlanarSystem(PlanarModel model, int dense_coordinates = kDenseCoordinates);

  const PlanarModel& model() const { return model_; }
  int size() const override { return size_; }
  const Matrix& mass() const override { return mass_; }
  const Matrix& damping() const override { return damping_; }
  Status InternalForce(const time::StepPoint& point, VecX& f, Matrix* stiffness,
                       Matrix* damping_tangent) override;
  void ExternalForce(double t, VecX& f) const override;
  // Flexible bodies make the inertia configuration dependent (flexible_inertia.h); rigid
  // bodies and point masses have the constant diag(m, m, J) on their centre of mass.
  bool mass_varies() const override { return mass_varies_; }
  Status Inertia(const VecX& q, const VecX& v, const VecX& a, VecX& f, Matrix* mass, Matrix* d_dq,
                 Matrix* d_dv) override;
  bool has_configuration_loads() const override {
    return !model_.loads.empty() || flexible_gravity_;
  }
  Status ConfigurationLoad(double t, const VecX& q, VecX& f, Matrix* tangent) override;
  void Commit() override;
  double StoredEnergy() const override { return stored_energy_; }
  VecX CoordinateUnits() const override { return units_; }

  int constraint_count() const override { return rows_; }
  Status Constraints(double t, const VecX& q, VecX& c, SparseMatrix* jacobian) override;
  Status ConstraintForceTangent(double t, const VecX& q, const VecX& lambda,
                                SparseMatrix& tangent) override;
  Status ConstraintAccelerationTerm(double t, const VecX& q, const VecX& v, VecX& q_c) override;

  // The global index of a body's coordinate (-1: a point mass has no angle).
  int CoordinateIndex(int body, Coordinate coordinate) const;
  // The first constraint row of joint j.
  int JointRow(int j) const { return joint_rows_[j]; }

  VecX InitialPositions() const { return InitialState(false); }
  VecX InitialVelocities() const { return InitialState(true); }
  // Makes (q, v) consistent at time t: q moved by the smallest mass-weighted correction
  // onto c(q, t) = 0 (Newton, to tolerance [m] on |c|), then v projected onto
  // C_q v = -C_t. Fails naming the joints when the constraints are redundant or cannot be
  // met. `correction` gets the largest position change [m or rad].
  Status ConsistentInitialState(double t, VecX& q, VecX& v, double tolerance, double& correction);

  // Outputs at a state.
  Vec2 MarkerPosition(const VecX& q, int marker) const;                 // [m]
  Vec2 MarkerVelocity(const VecX& q, const VecX& v, int marker) const;  // [m/s]
  // The force of joint j on marker b's body from the multipliers (see the top of the file).
  std::vector<double> JointForces(int j, const VecX& q, const VecX& lambda) const;
  // The global positions of flexible body b's mesh nodes at q (nodes x 2 [m]).
  MatX FlexibleMeshPositions(int body, const VecX& q) const;
  // The joints inside the flexible bodies (after the last evaluation) and their bodies.
  const std::vector<joint::JointOperator>& flexible_joints() const { return flexible_.joints(); }
  const std::vector<int>& flexible_joint_bodies() const { return flexible_.joint_bodies(); }
  // Tension of spring s [N], moment of rotational spring s on b [N m].
  double SpringForce(int s, const VecX& q, const VecX& v) const;
  double RotationalSpringMoment(int s, const VecX& q, const VecX& v) const;
  // Force of bushing s on marker b's body, k (p_a - p_b) + c (v_a - v_b) [N].
  Vec2 BushingForce(int s, const VecX& q, const VecX& v) const;

 private:
  VecX InitialState(bool rates) const;
  void AddFlexibleGravity(const VecX& q, VecX& f, MatrixAssembly& tangent) const;

  PlanarModel model_;
  bool mass_varies_ = false;
  bool flexible_gravity_ = false;  // gravity acts on a flexible body's elastic coordinates
  FlexibleForces flexible_;        // elastic forces and joints inside the flexible bodies
  int size_ = 0, rows_ = 0;
  std::vector<int> first_;       // per body: index of its x coordinate
  std::vector<int> joint_rows_;  // per joint: its first constraint row
  VecX units_;
  Matrix mass_, damping_;  // mass_: at the initial positions (the storage of the tangents)
  double stored_energy_ = 0.0;
};

}  // namespace jointdyn::mbs
