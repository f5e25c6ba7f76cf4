#include "laws/dahl_valanis.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/error.h"
#include "laws/increment.h"
#include "laws/param_check.h"

namespace jointdyn::laws {
namespace {

// Root w of M(w) (w - w_n) = q (r_g - w), M(w) = r_g - beta min(w, r_g), continuous with
// w_n, and its partial derivatives. Requires q > 0, r_g >= 0, 0 <= beta < 1.
struct ProjectedUpdate {
  double w = 0.0;
  double w_q = 0.0;   // dw / dq
  double w_r = 0.0;   // dw / dR_G
  double w_wn = 0.0;  // dw / dw_n
  double m = 0.0;     // M(w)
  double m_w = 0.0;   // dM / dw (at fixed R_G)
  double m_r = 0.0;   // dM / dR_G along the solution (includes dw / dR_G)
};

bool SolveProjected(double w_n, double q, double r_g, double beta, ProjectedUpdate& u) {
  if (w_n > r_g) {
    // Overstress above the current limit (after a pressure drop): M = (1 - beta) R_G, a
    // linear equation; the root stays above R_G and relaxes towards it.
    const double den = (1.0 - beta) * r_g + q;
    u.w = r_g * ((1.0 - beta) * w_n + q) / den;
    u.w_q = (r_g - u.w) / den;
    u.w_r = ((1.0 - beta) * w_n + q) * q / (den * den);
    u.w_wn = (1.0 - beta) * r_g / den;
    u.m = (1.0 - beta) * r_g;
    u.m_w = 0.0;
    u.m_r = 1.0 - beta;
    return true;
  }
  // beta w^2 - b w + c = 0 with b = R + beta w_n + q, c = R (w_n + q); its smaller root is
  // in [min(w_n, -R), R] and the larger one above R / beta. Scaled by S so that no square
  // over- or underflows; the discriminant is written as a sum of non-negative terms where
  // a difference would cancel.
  const double scale = r_g + q + std::abs(w_n);
  const double r = r_g / scale, k = q / scale, vn = w_n / scale;
  const double b = r + beta * vn + k;
  const double c = r * (vn + k);
  const double disc = vn + k <= 0.0
                          ? b * b + 4.0 * beta * r * -(vn + k)
                          : (r - beta * vn + k) * (r - beta * vn + k) - 4.0 * beta * k * (r - vn);
  const double root_disc = std::sqrt(std::max(disc, 0.0));  // = dF/dw / S, > 0 unless R = 0
  if (!(root_disc > 0.0)) return false;
  const double v = b >= 0.0 ? 2.0 * c / (b + root_disc) : (b - root_disc) / (2.0 * beta);
  u.w = scale * v;
  u.w_q = (r - v) / root_disc;
  u.w_r = (vn + k - v) / root_disc;
  u.w_wn = (r - beta * v) / root_disc;
  u.m = r_g - beta * u.w;
  u.m_w = -beta;
  u.m_r = 1.0 - beta * u.w_r;
  return true;
}

}  // namespace

DahlValanisLaw::DahlValanisLaw(const DahlParams& params, int dim)
    : type_("dahl"), c1_(params.c1), c2_(params.c2), mu_(params.mu), beta_(0.0), dim_(dim) {
  RequirePositive("c1", params.c1);
  RequireNonNegative("c2", params.c2);
  RequireNonNegative("mu", params.mu);
  RequireDim(dim);
}

DahlValanisLaw::DahlValanisLaw(const ValanisParams& params, int dim)
    : type_("valanis"), c1_(params.c1), c2_(params.c2), mu_(params.mu), dim_(dim) {
  RequirePositive("c1", params.c1);
  RequireNonNegative("c2", params.c2);
  RequireNonNegative("mu", params.mu);
  Require(params.kappa > 0.0 && params.kappa < 1.0, "kappa", params.kappa, "must be in (0, 1)");
  RequireDim(dim);
  // (E0 - Et) kappa / (E0 - kappa Et) with E0 = c1 + c2, Et = c2: the Valanis
  // kappa lambda / E0 of eq. 2.119 times R_G, lambda from eq. 2.121.
  beta_ = params.kappa * params.c1 / (params.c1 + (1.0 - params.kappa) * params.c2);
}

Status DahlValanisLaw::Evaluate(const TangentialInput& in, std::span<const double> committed,
                                std::span<double> trial, TangentialResponse& out) const {
  SlipIncrement increment;
  if (!BeginIncrement(dim_, in, committed, trial, out, increment)) return Status::Ok();
  const auto& [mask, s, s_n, z_n] = increment;
  const double r_g = mu_ * in.pressure;
  const Vec2 ds = s - s_n;
  const double length = ds.norm();
  Vec2 z = z_n;
  Mat2 dz_ds = c1_ * Mat2::Identity();  // sgn(0) = 0 at a zero increment
  Vec2 dz_dr = Vec2::Zero();
  out.state = ContactState::kStick;
  if (length > 0.0) {
    const Vec2 e = ds / length;
    const double q = c1_ * length;
    ProjectedUpdate u;
    if (!SolveProjected(e.dot(z_n), q, r_g, beta_, u))
      return IncrementFailure(type_, "degenerate projected update (zero slip limit)", s,
                              in.pressure);
    const double den = u.m + q;
    z = (u.m * z_n + r_g * q * e) / den;
    const Mat2 proj = Mat2::Identity() - e * e.transpose();
    // d(e . z_n)/d ds = (proj z_n)^T / |ds| and z_n - z = q (z_n - R_G e) / den carry the
    // 1 / |ds| of de/d ds without dividing by |ds|.
    const Eigen::RowVector2d dw_ds = u.w_q * c1_ * e.transpose();
    const Vec2 zn_minus_z_per_length = c1_ * (z_n - r_g * e) / den;
    dz_ds = (u.m_w * (z_n - z) * dw_ds +
             u.m_w * u.w_wn * zn_minus_z_per_length * (proj * z_n).transpose() +
             c1_ * (r_g * e - z) * e.transpose() + r_g * c1_ * proj) /
            den;
    dz_dr = ((z_n - z) * u.m_r + q * e) / den;
    if ((2.0 - beta_) * u.w >= r_g) out.state = ContactState::kSlip;
  }
  if (!FinishSliderIncrement(c1_, c2_, mu_, increment, z, dz_ds, dz_dr, trial, out))
    return IncrementFailure(type_, "non-finite traction or tangent", s, in.pressure);
  return Status::Ok();
}

}  // namespace jointdyn::laws
