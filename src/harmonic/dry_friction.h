// Rigid (pure) Coulomb friction f = F_s sgn(r_dot) on one relative displacement r, in
// harmonic balance with its Fourier coefficients and Jacobian in closed form: sampling the
// discontinuous force at N points (the march of nonlinear_force.h) would leave errors of
// order 1 / N, and a stiff Jenkins element approaches the rigid law only as k_t^(-1/2).
//
// With r(theta) the series of the coefficients X (fourier.h), the velocity is
// r_dot = omega r'(theta), so (omega > 0) the force is F_s sgn(r'(theta)): piecewise
// constant +-F_s, switching at the crossings theta_i where r' changes sign. The jump there
// is J_i = +2 F_s (r' rising through zero) or -2 F_s, and the coefficients of the force are
// integrals between the crossings:
//   c0 = F_s s_0 - (1 / 2 pi) sum_i J_i theta_i   (s_0 = sgn r' just after theta = 0),
//   a_k = -(1 / (pi k)) sum_i J_i sin(k theta_i),   b_k = (1 / (pi k)) sum_i J_i cos(k theta_i).
// The crossings are bracketed between the N samples of r' (samples of r'' split an interval
// at the extremum of r' inside it, so that a pair of crossings closer than a sample spacing
// is found too: this assumes at most one extremum of r' between neighbouring samples, safe
// for N well above 2 H) and refined to rounding by Newton's method on r' safeguarded by
// bisection. A trigonometric polynomial without static term has zero mean and its N >= 2 H
// + 1 samples sum to zero, so any motion has crossings.
//
// Jacobian. A coefficient with basis function phi_c changes by -(w_c / pi) J_i phi_c(theta_i)
// per unit shift of crossing i (w_0 = 1/2, else 1), and the crossing moves by
// d theta_i / d X_c' = -phi'_c'(theta_i) / r''(theta_i), so
//   d F_c / d X_c' = (w_c / pi) sum_i (J_i / r''(theta_i)) phi_c(theta_i) phi'_c'(theta_i),
// J_i / r''(theta_i) = 2 F_s / |r''(theta_i)| at a transversal crossing. The force is rate
// independent (it depends on sgn(omega r')), so d f / d omega = 0 at fixed X. Through the
// velocity alone (Hill's method: a velocity perturbation v(theta) moves the crossing by
// -v(theta_i) / (omega r''(theta_i))) the rate Jacobian is
//   d F_c / d V_c' = (w_c / (pi omega)) sum_i (J_i / r''(theta_i)) phi_c(theta_i) phi_c'(theta_i),
// with d vec(f) / d X = (rate Jacobian) omega DerivativeMatrix.
//
// Degenerate cases:
// - No motion (r' identically zero: no harmonic, or a static offset only). The force is
//   set-valued there (any value in [-F_s, F_s]); Evaluate returns zero force, zero Jacobian
//   and zero rate Jacobian: the element is transparent at rest, so the linearized start of
//   HarmonicBalance::LinearizedSolution is the linear system without the friction element.
//   The force is homogeneous of degree 0 in the harmonics and its Jacobian of degree -1, so
//   any motion, however small, has a well-defined force.
// - Tangential roots. A crossing pair that coincides to rounding (r' touching zero: a double
//   root) switches the force for no time: both crossings are dropped (the force is
//   unchanged, and the Jacobian is the one-sided derivative towards the perturbations that
//   do not open the pair). A crossing where r'' vanishes too (a sign change of higher order)
//   has no finite phase derivative: its |r''| is floored at kTangentFloor times
//   sum_k k^2 (|a_k| + |b_k|) (a bound of |r''|), so the Jacobian stays finite (large).
// Never NaN: non-finite coefficients are a Status failure.
#pragma once

#include <string>
#include <vector>

#include "core/status.h"
#include "core/types.h"
#include "harmonic/fourier.h"
#include "harmonic/nonlinear_force.h"

namespace jointdyn::harmonic {

// Floor of |r''| at a crossing, relative to the bound sum_k k^2 (|a_k| + |b_k|) [-].
constexpr double kTangentFloor = 1e-10;

class DryFrictionForce final : public NonlinearForce {
 public:
  // slip_force F_s [N], finite and > 0 (checked: an internal error; user input is validated
  // by the reader); `name` names the element in failure messages.
  explicit DryFrictionForce(double slip_force, std::string name = "");

  // A sign change of r' and what the force does there.
  struct Crossing {
    double theta = 0.0;      // phase in [0, 2 pi) [rad]
    double jump = 0.0;       // force after minus force before: +-2 F_s [N]
    double curvature = 0.0;  // r''(theta) [m/rad^2]
  };

  int num_inputs() const override { return 1; }
  Status Evaluate(Aft& aft, double omega, const MatX& x, MatX& f, MatX* jacobian,
                  MatX* d_omega) override;
  int last_periods() const override { return 1; }
  bool has_rate_jacobian() const override { return true; }
  Status RateJacobian(Aft& aft, double omega, const MatX& x, MatX& jacobian) override;

  // The crossings of the last evaluation, in increasing phase.
  const std::vector<Crossing>& crossings() const { return crossings_; }

 private:
  // Finds crossings_ for the coefficients x (nc x 1), or fails on non-finite input.
  Status Locate(Aft& aft, const MatX& x);
  // J_i / r''(theta_i) with the tangential floor [N rad^2/m].
  double Weight(const Crossing& crossing) const;

  double slip_force_;  // F_s [N]
  std::string name_;
  std::vector<Crossing> crossings_;
  double curvature_floor_ = 0.0;  // [m/rad^2]
  // Workspace: coefficients and samples of r' and r''.
  VecX slope_, curvature_, slope_samples_, curvature_samples_;
};

}  // namespace jointdyn::harmonic
