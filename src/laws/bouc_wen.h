// Bouc-Wen friction (seed 003, eq. 2.122-2.124) and the Masing approximation (appendix E.1,
// eq. E.3): one kernel, two model-file types. With A = c1 and B = gamma = A / (2 R_G^n)
// (eq. 2.124), R_G = mu p, the Bouc-Wen slider traction z obeys
//   dz/dt = c1 s_dot (1 - |z / R_G|^n (1 + sgn(s_dot z)) / 2),
// which is eq. E.3 term by term; the Masing approximation is Bouc-Wen with c2 = 0 (the seed
// says the two have the same structure). The total traction is tau = z + c2 s (eq. 2.123).
// Loading (s_dot z > 0) follows the backbone c1 (1 - |z/R_G|^n); unloading is elastic with
// stiffness c1; z saturates at R_G and the loop tends to the Coulomb loop as n grows.
//
// 2D, isotropic (documented choice): dz/dt = c1 [s_dot - |z/R_G|^n zhat max(zhat . s_dot, 0)],
// zhat = z / |z|. It reduces to the 1D law on collinear paths, keeps |z| <= R_G and
// dissipates |z| |z/R_G|^n max(zhat . s_dot, 0) >= 0 with the stored energy below.
//
// Backward Euler over ds = s - s_n (rate independent, dt unused), with the elastic
// predictor t = z_n + c1 ds: if t . ds <= 0 the step is elastic, z = t; otherwise zhat is
// the direction of t and rho = |z| solves rho + q (rho / R_G)^n = |t| with
// q = c1 (t / |t|) . ds > 0 (in 1D q = c1 |ds|): a local safeguarded Newton (bracketed,
// bisection fallback) on a convex function, whose failure is returned as a Status.
//
// History (4 doubles): s_n (2) and z_n (2). Open contact (p <= 0): zero traction, z relaxes
// to 0 and s_n follows the slip. Stored energy: |z|^2 / (2 c1) + c2 |s|^2 / 2. State: slip
// on the loading branch once the backbone stiffness c1 (1 - |z/R_G|^n) is below c1 / 2.
#pragma once

#include "laws/tangential_law.h"

namespace jointdyn::laws {

struct BoucWenParams {
  double c1 = 0.0;  // A of eq. 2.124: stick stiffness of the slider branch [Pa/m], > 0
  double c2 = 0.0;  // parallel spring, eq. 2.123 [Pa/m], >= 0
  double mu = 0.0;  // friction coefficient, R_G = mu p, B = gamma = c1 / (2 R_G^n) [-], >= 0
  double n = 0.0;   // shape exponent of eq. 2.122 [-], >= 1 and finite; large = Coulomb-like
};

struct MasingParams {
  double c1 = 0.0;  // stiffness of the series spring (eq. E.3) [Pa/m], > 0
  double mu = 0.0;  // friction coefficient, R_G = mu p [-], >= 0
  double n = 0.0;   // regularization exponent of eq. E.2 [-], >= 1 and finite
};

class BoucWenLaw final : public TangentialLaw {
 public:
  BoucWenLaw(const BoucWenParams& params, int dim);  // type "bouc_wen"
  BoucWenLaw(const MasingParams& params, int dim);   // type "masing" (c2 = 0)

  std::string_view type() const override { return type_; }
  int dim() const override { return dim_; }
  int state_size() const override { return 4; }
  bool rate_independent() const override { return true; }
  Status Evaluate(const TangentialInput& in, std::span<const double> committed,
                  std::span<double> trial, TangentialResponse& out) const override;

  double c1() const { return c1_; }
  double c2() const { return c2_; }
  double mu() const { return mu_; }
  double n() const { return n_; }

 private:
  BoucWenLaw(std::string_view type, double c1, double c2, double mu, double n, int dim);

  std::string_view type_;
  double c1_, c2_, mu_, n_;
  int dim_;
};

}  // namespace jointdyn::laws
