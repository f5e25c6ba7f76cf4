// Adapted Dahl (seed 003, eq. 2.114-2.118 with alpha = 1, plus the parallel spring of
// eq. 2.116) and Valanis (eq. 2.119-2.121) friction: smooth, rate-independent laws whose
// slider branch saturates at R_G = mu p, with the parameters of the three-parameter
// Coulomb reference (coulomb.h), so the three are directly comparable.
//
// One kernel. Write the Valanis law (eq. 2.119 without the stray "Delta", E0 = c1 + c2,
// Et = c2, lambda from eq. 2.121) for the slider traction z = tau - c2 s:
//   dz/dt = c1 [s_dot - z |s_dot| / R_G] / (1 - beta (e . z) / R_G),  e = s_dot / |s_dot|,
//   beta = kappa c1 / (c1 + (1 - kappa) c2)  in [0, 1).
// kappa = 0 (beta = 0) is exactly the adapted Dahl law dz = c1 (ds - z |ds| / R_G), so Dahl
// is this class with beta = 0. In 1D the formula is eq. 2.118 / 2.119; in 2D it is the
// isotropic vector form: the Dahl vector law (brief) with the Valanis amplification
// 1 / (1 - beta x) of the overstress x = (e . z) / R_G projected on the increment direction.
// It reduces exactly to the 1D law on collinear paths, keeps |z| <= R_G at constant
// pressure, and dissipates |ds| (|z|^2 - beta (e . z)^2) / (R_G (1 - beta x)) >= 0.
//
// Backward Euler over ds = s - s_n (rate independent, dt unused), e = ds / |ds|:
//   M (z - z_n) = q (R_G e - z) with q = c1 |ds|, M = R_G - beta min(e . z, R_G),
// so z = (M z_n + R_G q e) / (M + q), where the projection w = e . z solves the scalar
// quadratic M(w) (w - w_n) = q (R_G - w), w_n = e . z_n, in closed form (the root continuous
// with w_n; linear for Dahl). No division by R_G: safe as R_G -> 0 (traction -> c2 s).
// Extension beyond the published law, documented: when the pressure has dropped so that
// w_n > R_G (unreachable at constant pressure), the Valanis denominator is frozen at its
// value at w = R_G, M = (1 - beta) R_G; the original law would turn singular at
// w = R_G / beta and let the traction grow without bound. The frozen form is C1 at w = R_G
// and relaxes w to R_G like Dahl. It changes nothing for Dahl.
// At a zero increment sgn(0) = 0: the update is the identity and the tangent is the
// sticking stiffness c1 + c2 (the derivative with the |ds| term dropped).
//
// History (4 doubles): s_n (2) and the slider traction z_n (2). Open contact (p <= 0):
// zero traction, z relaxes to 0 and s_n follows the slip (re-contact starts virgin).
// Stored energy: |z|^2 / (2 c1) + c2 |s|^2 / 2. State: slip when the slider's stiffness
// along the motion, c1 (1 - x) / (1 - beta x), is below c1 / 2, i.e. (2 - beta) w >= R_G.
#pragma once

#include "laws/tangential_law.h"

namespace jointdyn::laws {

struct DahlParams {
  double c1 = 0.0;  // Dahl stiffness sigma_0 = c1 of eq. 2.117 (initial slope) [Pa/m], > 0
  double c2 = 0.0;  // parallel spring, eq. 2.116 [Pa/m], >= 0
  double mu = 0.0;  // friction coefficient, slip limit R_G = mu p [-], >= 0
};

struct ValanisParams {
  double c1 = 0.0;     // E0 - Et: stick stiffness of the slider branch [Pa/m], > 0
  double c2 = 0.0;     // Et: sliding stiffness [Pa/m], >= 0 (E0 = c1 + c2)
  double mu = 0.0;     // friction coefficient, R_G = mu p; lambda from eq. 2.121 [-], >= 0
  double kappa = 0.0;  // transition shape of eq. 2.119 [-], in (0, 1); high = sharper
};

class DahlValanisLaw final : public TangentialLaw {
 public:
  DahlValanisLaw(const DahlParams& params, int dim);     // type "dahl"
  DahlValanisLaw(const ValanisParams& params, int dim);  // type "valanis"

  std::string_view type() const override { return type_; }
  int dim() const override { return dim_; }
  int state_size() const override { return 4; }
  bool rate_independent() const override { return true; }
  Status Evaluate(const TangentialInput& in, std::span<const double> committed,
                  std::span<double> trial, TangentialResponse& out) const override;

  double c1() const { return c1_; }
  double c2() const { return c2_; }
  double mu() const { return mu_; }
  double beta() const { return beta_; }  // 0 for Dahl, kappa c1 / (c1 + (1 - kappa) c2)

 private:
  std::string_view type_;
  double c1_, c2_, mu_, beta_;
  int dim_;
};

}  // namespace jointdyn::laws
