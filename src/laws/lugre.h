// LuGre friction (Canudas de Wit et al. 1995; seed 003 appendix E.1, seed 002 section 2.4)
// with pressure-scaled Coulomb and stiction levels F_c = mu_c p, F_s = mu_s p:
//
//   dz/dt = v - sigma0 |v| z / g(v),   g(v) = p (mu_c + (mu_s - mu_c) exp(-(|v|/v_s)^2)),
//   tau   = sigma0 z + sigma1 dz/dt + sigma2 v.
//
// z is the mean bristle deflection (a vector in 2D, |v| the norm: isotropic). Discrete:
// v = (s_{n+1} - s_n)/dt and backward Euler for z, which is explicit given v:
//
//   z_{n+1} = (z_n + ds) g / (g + sigma0 |ds|),   ds = s_{n+1} - s_n.
//
// Steady sliding at constant v gives z = g(v) v/|v| / sigma0 and tau = g(v) v/|v| +
// sigma2 v; small displacements from rest see the stiffness sigma0.
//
// Open contact (p <= 0): a separated contact transmits no shear, so the traction is zero
// (also the viscous sigma2 term, which models the lubricated contact itself) and the
// bristles relax (z = 0), so re-contact starts unloaded. The bristle part is zero in the
// limit p -> 0+ too; only sigma1 dz/dt and sigma2 v jump at p = 0.
//
// Known property of the model: with the storage 0.5 sigma0 |z|^2 the dissipation rate
// sigma0 a |z|^2 + sigma1 a z.dz/dt + sigma1 |dz/dt|^2 + sigma2 |v|^2 (a = sigma0 |v| / g)
// is non-negative for every z only while sigma1 |v| <= 4 g(v); beyond that LuGre is not
// passive for all inputs (Barabanov and Ortega 2000). Keep sigma1 moderate.
//
// History (4 doubles): the slip s_n and the bristle deflection z_n. Reported state: kSlip
// when more than half of the motion is gross sliding rather than bristle deflection,
// i.e. sigma0 z.v/|v| > g/2, else kStick (output only: LuGre does not switch).
#pragma once

#include "laws/tangential_law.h"

namespace jointdyn::laws {

struct LuGreParams {
  double sigma0 = 0.0;  // bristle stiffness [Pa/m], > 0
  double sigma1 = 0.0;  // bristle damping [Pa s/m], >= 0
  double sigma2 = 0.0;  // viscous friction coefficient [Pa s/m], >= 0
  double mu_c = 0.0;    // Coulomb friction coefficient, F_c = mu_c p [-], > 0
  double mu_s = 0.0;    // stiction coefficient, F_s = mu_s p [-], >= mu_c
  double v_s = 0.0;     // Stribeck velocity [m/s], > 0
};

class LuGreLaw final : public TangentialLaw {
 public:
  LuGreLaw(const LuGreParams& params, int dim);

  std::string_view type() const override { return "lugre"; }
  int dim() const override { return dim_; }
  int state_size() const override { return 4; }
  bool rate_independent() const override { return false; }
  Status Evaluate(const TangentialInput& in, std::span<const double> committed,
                  std::span<double> trial, TangentialResponse& out) const override;

  const LuGreParams& params() const { return params_; }

 private:
  LuGreParams params_;
  int dim_;
};

}  // namespace jointdyn::laws
