// The spatial multibody system (spatial_model.h) as a SecondOrderSystem for the index-3
// integrator (time/integrator.h, seed 003 eq. 2.55-2.61).
//
// A rigid body's orientation is given by Euler parameters p = (p0, e) (Nikravesh; Shabana
// section 2.1): A(p) = (2 p0^2 - 1) I + 2 (e e' + p0 e~), the angular velocity in the body
// frame w' = 2 G'(p) p' with G'(p) = [-e, -e~ + p0 I], in the global frame w = 2 G(p) p'
// with G(p) = [-e, e~ + p0 I]. Its inertia force on p is
//   f_p = 4 G'(p)^T J G'(p) a + 8 G'(v)^T J G'(p) v + c p (p.a + v.v)
// (v = dp/dt, a = d2p/dt2; from Lagrange's equations of T = w'^T J w' / 2). The last term
// vanishes on the normalization constraint's acceleration level p.a + v.v = 0 and makes the
// mass matrix regular (4 G'^T J G' alone is singular along p); c = trace(J) is its scale. The
// normalization p' p = 1 is a constraint row per body (rigid or flexible), after the joints'
// rows. A flexible body's frame has the same coordinates, followed by its modal coordinates;
// its inertia force is spatial_flexible_inertia.h's, its elastic and joint forces act on
// the modal coordinates (flexible_forces.h).
//
// Every element (a joint's rows, a spring, a load) touches at most two bodies and is
// evaluated by forward differentiation (jet.h: second order, where (C_q' lambda)_q, the
// acceleration term or a spring's stiffness are wanted; dual.h: first order, for c and C_q
// in every residual) on thirteen intermediate coordinates per body (x, y, z, p0..p3 of its
// frame, the marker's point in the body frame and its elastic rotation) and one for the
// explicit time dependence (the value of a driver's motion f(t), its rate f'(t)): C_q,
// (C_q' lambda)_q, the acceleration term Q_c = -z'' H z' - c_f f''(t) (z' the intermediate
// rates, f included) and C_t = c_f f'(t) come out exact.
//
// Constraint forces are reported per joint (JointForces) as the force and moment the joint
// exerts on marker b's body: spherical, revolute, rigid fx, fy, fz in the global frame [N];
// moments mx, my, mz about marker a's axes [N m] (revolute mx, my; driven revolute also mz,
// the driving torque); prismatic fy, fz along a's y and z axes [N] and mx, my, mz;
// distance the tension [N]; prescribed the driving force on the coordinate [N].
#pragma once

#include <string>
#include <vector>

#include "mbs/flexible_forces.h"
#include "mbs/matrix_assembly.h"
#include "mbs/spatial_model.h"
#include "time/second_order_system.h"

namespace jointdyn::mbs::spatial {

using solvers::Matrix;
using solvers::SparseMatrix;

class SpatialSystem final : public time::SecondOrderSystem {
 public:
  // Validates (InputError). Storage: dense up to `dense_coordinates` coordinates, sparse
  // beyond (an unreduced flexible body).
  explicit SpatialSystem(SpatialModel model, int dense_coordinates = kDenseCoordinates);

  const SpatialModel& model() const { return model_; }
  int size() const override { return size_; }
  const Matrix& mass() const override { return mass_; }
  const Matrix& damping() const override { return damping_; }
  Status InternalForce(const time::StepPoint& point, VecX& f, Matrix* stiffness,
                       Matrix* damping_tangent) override;
  void ExternalForce(double t, VecX& f) const override;
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

  // The global index of a body's first coordinate (x).
  int FirstCoordinate(int body) const { return first_[body]; }
  // The first constraint row of joint j.
  int JointRow(int j) const { return joint_rows_[j]; }

  VecX InitialPositions() const { return InitialState(false); }
  VecX InitialVelocities() const { return InitialState(true); }
  // Makes (q, v) consistent at time t (consistent_state.h).
  Status ConsistentInitialState(double t, VecX& q, VecX& v, double tolerance, double& correction);

  // Outputs at a state.
  Vec3 MarkerPosition(const VecX& q, int marker) const;                 // [m]
  Vec3 MarkerVelocity(const VecX& q, const VecX& v, int marker) const;  // [m/s]
  // A rigid body's rotation matrix A(p) (body axes in the global frame) and its angular
  // velocity in the global frame [rad/s].
  Mat3 Orientation(int body, const VecX& q) const;
  Vec3 AngularVelocity(int body, const VecX& q, const VecX& v) const;
  // The angular momentum of all bodies about the global origin [kg m^2/s].
  Vec3 AngularMomentum(const VecX& q, const VecX& v) const;
  // The force of joint j on marker b's body from the multipliers (see the top of the file).
  std::vector<double> JointForces(int j, const VecX& q, const VecX& lambda) const;
  // The global positions of flexible body b's mesh nodes at q (nodes x 3 [m]).
  MatX FlexibleMeshPositions(int body, const VecX& q) const;
  // The joints inside the flexible bodies (after the last evaluation) and their bodies.
  const std::vector<joint::JointOperator>& flexible_joints() const { return flexible_.joints(); }
  const std::vector<int>& flexible_joint_bodies() const { return flexible_.joint_bodies(); }
  // Tension of spring s [N], moment of rotational spring s on b [N m].
  double SpringForce(int s, const VecX& q, const VecX& v) const;
  double RotationalSpringMoment(int s, const VecX& q, const VecX& v) const;

 private:
  VecX InitialState(bool rates) const;
  void AddFlexibleGravity(const VecX& q, VecX& f, MatrixAssembly& tangent) const;

  SpatialModel model_;
  bool mass_varies_ = false;
  bool flexible_gravity_ = false;  // gravity acts on a flexible body's elastic coordinates
  FlexibleForces flexible_;        // elastic forces and joints inside the flexible bodies
  int size_ = 0, rows_ = 0;
  std::vector<int> first_;       // per body: index of its x coordinate
  std::vector<int> joint_rows_;  // per joint: its first constraint row (then the bodies')
  VecX units_;
  Matrix mass_, damping_;  // mass_: at the initial positions (the storage of the tangents)
  double stored_energy_ = 0.0;
};

}  // namespace jointdyn::mbs::spatial
