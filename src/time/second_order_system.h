// What the time integrators see: M q'' + C q' + f_int(q, q', history) = f_ext(t), with the
// consistent tangents of f_int from the interface laws, and (designed in, used by the
// multibody layer later) holonomic constraints c(q, t) = 0 with Lagrange multipliers,
// the index-3 form of seed 003 eq. 2.55.
//
// History protocol (as for the laws): InternalForce() evaluates from the committed history
// and writes a trial history inside the system; Commit() accepts it; a rejected step is
// rolled back by simply evaluating again from the committed history (Rollback() tells the
// system so, for the switching variables of PostNewtonUpdate()). The integrator evaluates
// the initial state once (q_start = q) and commits it.
#pragma once

#include "core/status.h"
#include "core/types.h"
#include "solvers/residual_model.h"

namespace jointdyn::time {

using solvers::Matrix;
using solvers::SparseMatrix;

// The end-of-increment point at which the internal force is wanted.
struct StepPoint {
  double t = 0.0;                 // time at the end of the increment [s]
  double dt = 0.0;                // increment length [s] (> 0; rate-dependent laws need it)
  const VecX* q = nullptr;        // positions at the end of the increment
  const VecX* v = nullptr;        // velocities at the end of the increment
  const VecX* q_start = nullptr;  // positions at the start of the increment (committed)
  // Energy-conserving variant: return, for the conservative elements, a discrete gradient
  // f_d(q_start, q) with f_d . (q - q_start) = V(q) - V(q_start) (for an element with
  // potential V(d) of one coordinate d: (V(d) - V(d_start)) / (d - d_start)) instead of
  // their end-point force, and its derivative with respect to q as the stiffness; the
  // other elements return their end-point force (see integrator.h).
  bool discrete_gradient = false;
};

class SecondOrderSystem {
 public:
  virtual ~SecondOrderSystem() = default;
  virtual int size() const = 0;
  // M and C in the system's natural storage, dense or sparse (solvers/matrix.h): a full
  // FE or lumped model sparse, a reduced model on modal coordinates dense.
  virtual const Matrix& mass() const = 0;     // constant, symmetric positive definite
  virtual const Matrix& damping() const = 0;  // constant linear viscous damping C

  // f_int at `point` from the committed history; when not null, K = d f_int / dq and
  // D = d f_int / dq' (consistent tangents; they come size() x size(), zero and stored as
  // mass() is (sparse: with its pattern, Matrix::SetZeroLike), so a system without
  // velocity-dependent forces leaves D alone; a system may also assign another storage).
  // `f` comes sized size(). Writes the trial history.
  virtual Status InternalForce(const StepPoint& point, VecX& f, Matrix* stiffness,
                               Matrix* damping_tangent) = 0;
  // f_ext(t); f comes sized size() and zero.
  virtual void ExternalForce(double t, VecX& f) const = 0;
  // External forces that also depend on the configuration (a force at a point of a
  // rotating body, a torque on an angle): added to f_ext(t), their work counted as external.
  // When true, ConfigurationLoad() is called at every evaluation.
  virtual bool has_configuration_loads() const { return false; }
  // f_q(t, q) (f comes sized size() and zero) and, when not null, its tangent
  // d f_q / dq (comes zero, stored as mass() is).
  virtual Status ConfigurationLoad(double t, const VecX& q, VecX& f, Matrix* tangent) {
    return Status::Ok();
  }
  // Accepts the trial history of the last InternalForce() call (and the switching
  // variables of PostNewtonUpdate()).
  virtual void Commit() = 0;
  // Post-Newton stick/slip switching (seed 002 eq. 26-29) at the converged point: updates
  // the switching variables and returns the switching error [N]; 0 when none switched.
  // The integrator then solves the step again with the new switching variables.
  virtual double PostNewtonUpdate(const StepPoint& point) { return 0.0; }
  // The step attempt since the last Commit() was rejected (Newton failure, step cut,
  // error too large): reset the switching variables to the committed ones.
  virtual void Rollback() {}
  // Configuration-dependent inertia (flexible bodies in the floating frame of reference,
  // seed 003 eq. 2.44): when true the integrator takes the inertia force from Inertia() at
  // every evaluation instead of mass() a, and the kinetic energy as v' M(q) v / 2; mass()
  // then only gives the storage (dense or sparse) of the tangents.
  virtual bool mass_varies() const { return false; }
  // The inertia force f = M(q) a - Q_v(q, v) (Q_v: the quadratic velocity vector) and, when
  // not null, M(q) and the tangents df/dq and df/dv at fixed a (each comes zero, stored as
  // mass() is). Only called when mass_varies().
  virtual Status Inertia(const VecX& q, const VecX& v, const VecX& a, VecX& f, Matrix* mass,
                         Matrix* d_dq, Matrix* d_dv) {
    return Status::Failure("SecondOrderSystem::Inertia: not a system with varying mass");
  }

  // Recoverable energy stored in f_int (springs and laws) at the last evaluated trial
  // state [J].
  virtual double StoredEnergy() const = 0;
  // The displacement per unit of each coordinate [m] (size() entries, > 0), for systems on
  // generalized coordinates: modal coordinates y of x = V y have the largest |V_ij| of
  // column j. The integrator's convergence and error tests then measure positions in
  // metres and forces in newtons whatever the normalization of the basis (mass- and
  // stiffness-normalized vectors differ by orders of magnitude). Empty (the default): the
  // coordinates are physical DOFs, unit 1.
  virtual VecX CoordinateUnits() const { return {}; }

  // Holonomic constraints c(q, t) = 0 (index-3 DAE, seed 003 eq. 2.55), enforced at
  // position level at the end of every step (eq. 2.59) with the constraint forces
  // C_q' lambda on the left-hand side of the equation of motion. Default: none.
  // The initial velocities must satisfy the velocity-level constraint C_q v0 = -C_t.
  virtual int constraint_count() const { return 0; }
  // c (constraint_count() entries, comes sized) and, when not null, C_q = dc/dq
  // (constraint_count() x size()).
  virtual Status Constraints(double t, const VecX& q, VecX& c, SparseMatrix* jacobian) {
    return Status::Ok();
  }
  // (C_q' lambda)_q: derivative of the constraint forces with respect to q at fixed
  // multipliers (seed 003 eq. 2.61), size() x size(); comes zero. Default: zero (linear
  // constraints).
  virtual Status ConstraintForceTangent(double t, const VecX& q, const VecX& lambda,
                                        SparseMatrix& tangent) {
    return Status::Ok();
  }
  // Q_c of the acceleration-level constraints C_q q'' = Q_c (seed 003 eq. 2.51-2.52), for
  // the consistent initial accelerations; comes sized and zero. Default: zero (linear,
  // time-independent constraints).
  virtual Status ConstraintAccelerationTerm(double t, const VecX& q, const VecX& v, VecX& q_c) {
    return Status::Ok();
  }
};

}  // namespace jointdyn::time
