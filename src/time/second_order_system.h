// What the time integrators see: M q'' + C q' + f_int(q, q', history) = f_ext(t), with the
// consistent tangents of f_int from the interface laws, and (designed in, used by the
// multibody layer later) holonomic constraints c(q, t) = 0 with Lagrange multipliers,
// the index-3 form of seed 003 eq. 2.55.
//
// History protocol (as for the laws): InternalForce() evaluates from the committed history
// and writes a trial history inside the system; Commit() accepts it; a rejected step is
// rolled back by simply evaluating again from the committed history.
#pragma once

#include "core/status.h"
#include "core/types.h"
#include "solvers/residual_model.h"

namespace jointdyn::time {

using solvers::SparseMatrix;

// The end-of-increment point at which the internal force is wanted.
struct StepPoint {
  double t = 0.0;           // time at the end of the increment [s]
  double dt = 0.0;          // increment length [s] (> 0; rate-dependent laws need it)
  const VecX* q = nullptr;  // positions at the end of the increment
  const VecX* v = nullptr;  // velocities at the end of the increment
  // Energy-conserving variant: return the discrete gradient (V(q) - V(q_n)) / |dq| along
  // dq of the conservative elements instead of their end-point force (see Integrator).
  bool discrete_gradient = false;
};

class SecondOrderSystem {
 public:
  virtual ~SecondOrderSystem() = default;
  virtual int size() const = 0;
  virtual const SparseMatrix& mass() const = 0;     // constant, symmetric positive definite
  virtual const SparseMatrix& damping() const = 0;  // constant linear viscous damping C

  // f_int at `point` from the committed history; when not null, K = d f_int / dq and
  // D = d f_int / dq' (consistent tangents). Writes the trial history.
  virtual Status InternalForce(const StepPoint& point, VecX& f, SparseMatrix* stiffness,
                               SparseMatrix* damping_tangent) = 0;
  virtual void ExternalForce(double t, VecX& f) const = 0;
  // Accepts the trial history of the last InternalForce() call.
  virtual void Commit() = 0;
  // Post-Newton stick/slip switching (seed 002 eq. 26-29) at the converged point: updates
  // the switching variables and returns the switching error [N]; 0 when none switched.
  virtual double PostNewtonUpdate(const StepPoint& point) { return 0.0; }
  // Recoverable energy stored in f_int (springs and laws) at the last evaluated trial
  // state [J].
  virtual double StoredEnergy() const = 0;

  // Holonomic constraints c(q, t) = 0 (index-3 DAE). Default: none.
  virtual int constraint_count() const { return 0; }
  virtual Status Constraints(double t, const VecX& q, VecX& c, SparseMatrix* jacobian) {
    return Status::Ok();
  }
};

}  // namespace jointdyn::time
