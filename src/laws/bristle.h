// Bristle friction with history variables (seed 002, eq. 20-30): a stick spring mu_k with
// a parallel velocity penalty mu_v,
//
//   f_lin = mu_v v + mu_k dx_stick,   dx_stick = s - x_stickRef,
//
// acts while |f_lin| <= mu |f_n| (f_n = the pressure p); otherwise the traction is the
// Coulomb value mu p in the slip direction. v = (s_{n+1} - s_n) / dt.
//
// The stick/slip state is switched only outside Newton, in PostNewtonUpdate (eq. 26-29):
// Evaluate() uses the switching variables of the history it is called with, so within one
// state the traction is smooth (stick: f_lin; slip: mu p d with the direction d frozen).
// PostNewtonUpdate() recomputes f_lin at the converged trial and decides the new state;
// it returns the switching error of eq. 29, | |f_lin| - mu p |, when the state changed,
// else 0. In 2D the slip direction is the direction of f_lin and varies continuously, so a
// change of direction within slip returns max(eq. 29, mu p |d_new - d_old|), the traction
// change it causes (eq. 29 alone would accept a large turn when |f_lin| ~ mu p).
//
// Pointwise use: the relative tangential displacement is the slip s itself, i.e.
// x_curStick = s. The circle arc-length wrap of eq. 25 belongs to the cable-on-sheave
// contact and is not applied here.
//
// Stick reference while slipping: the stick spring is dragged along the slip direction d;
// its stretch along d grows only by slip along d and is capped at the limit mu p / mu_k
// (x_stickRef = s - stretch d). When the spring triggered the slip it sits at the limit,
// so a stop (v = 0) re-sticks with the traction mu p d and a reversal unloads along the
// stick slope mu_k + mu_v/dt from there, as in an elastic-perfectly-plastic slider. When
// the damper term mu_v v alone triggered the slip, the spring keeps its smaller stretch:
// moving it straight to the limit would create energy. The recoverable (stored) energy is
// the stick spring energy 0.5 mu_k |s - x_stickRef|^2.
//
// Undefined state (virgin, and after the contact opens): no stick reference yet, dx_stick
// = 0 and the traction is mu_v v; the post-Newton step anchors x_stickRef at the current
// slip when sticking first starts (seed 002: initialization [0, -2, 0]). Open contact
// (p <= 0): zero traction, the state returns to undefined.
//
// History (7 doubles): s_n (2), x_slip (1: -2 undefined, 0 stick, 1 slip), the slip
// direction d (2, unit; in 1D d = +-1 along x, the sign of eq. 26's x_slip), x_stickRef (2).
#pragma once

#include "laws/tangential_law.h"

namespace jointdyn::laws {

struct BristleParams {
  double mu_k = 0.0;  // stick (bristle) stiffness [Pa/m], > 0
  double mu_v = 0.0;  // velocity penalty / friction damping in stick [Pa s/m], >= 0
  double mu = 0.0;    // friction coefficient, slip traction mu p [-], >= 0
};

class BristleLaw final : public TangentialLaw {
 public:
  BristleLaw(const BristleParams& params, int dim);

  std::string_view type() const override { return "bristle"; }
  int dim() const override { return dim_; }
  int state_size() const override { return 7; }
  bool rate_independent() const override { return false; }
  void InitState(std::span<double> state) const override;
  Status Evaluate(const TangentialInput& in, std::span<const double> committed,
                  std::span<double> trial, TangentialResponse& out) const override;
  double PostNewtonUpdate(const TangentialInput& in, std::span<const double> trial,
                          std::span<double> switching) const override;

  const BristleParams& params() const { return params_; }

 private:
  BristleParams params_;
  int dim_;
};

}  // namespace jointdyn::laws
