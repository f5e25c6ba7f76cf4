#include "laws/bouc_wen.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/error.h"
#include "laws/increment.h"
#include "laws/param_check.h"

namespace jointdyn::laws {
namespace {

constexpr int kMaxIterations = 200;
constexpr double kEps = std::numeric_limits<double>::epsilon();

// rho = |z| on the loading branch: root of G(rho) = rho + q (rho / R_G)^n - c on (0, c],
// with its partial derivatives. Requires c > 0, q > 0, R_G >= 0, n >= 1.
// x^n for x >= 0: binary powering for integral n (the usual exponents 1, 2, 8, ...), which
// is several times faster than std::pow in the local Newton loop; std::pow otherwise.
double Power(double x, double n) {
  if (n != std::floor(n) || n > 64.0) return std::pow(x, n);
  double result = 1.0, base = x;
  for (unsigned e = static_cast<unsigned>(n); e != 0; e >>= 1, base *= base)
    if (e & 1u) result *= base;
  return result;
}

struct RadialUpdate {
  double rho = 0.0;
  double rho_c = 0.0;  // d rho / d c
  double rho_q = 0.0;  // d rho / d q
  double rho_r = 0.0;  // d rho / d R_G
};

bool SolveRadius(double c, double q, double r_g, double n, RadialUpdate& u) {
  if (r_g == 0.0) {  // no friction capacity: the slider carries nothing while loading
    u.rho = 0.0;
    u.rho_c = u.rho_q = 0.0;
    u.rho_r = std::pow(c / q, 1.0 / n);  // limit of d rho / d R_G as R_G -> 0+
    return std::isfinite(u.rho_r);
  }
  const auto g = [&](double rho, double& slope) {
    const double y = Power(rho / r_g, n);
    slope = 1.0 + n * q * y / rho;
    return rho + q * y - c;
  };
  // The root is at most R_G (c/q)^(1/n) and at least half of it (n >= 1), and at most c.
  // The bound is raised by 1e-12 so that rounding cannot put the root above it: then
  // G(hi) >= c n 1e-12 > 0, and G(c) = q (c/R_G)^n < c stays finite when hi = c.
  double hi = std::min(c, r_g * std::exp((std::log(c) - std::log(q)) / n) * (1.0 + 1e-12));
  double lo = 0.45 * hi;
  double slope = 0.0;
  if (!(g(lo, slope) <= 0.0)) lo = 0.0;  // G(0) = -c < 0
  // Safeguarded Newton (Newton from the right is monotone on this convex G; bisection when
  // a step leaves the bracket or does not halve the previous one).
  double rho = hi;
  double value = g(rho, slope);
  double step_old = hi - lo, step = step_old;
  for (int it = 1;; ++it) {
    if (std::isnan(value) || it > kMaxIterations) return false;
    if (value == 0.0) break;
    if (value > 0.0)
      hi = rho;
    else
      lo = rho;
    const double newton = rho - value / slope;
    if (!(newton > lo && newton < hi) || !(std::abs(2.0 * value) <= std::abs(step_old * slope))) {
      step_old = step;
      step = 0.5 * (hi - lo);
      rho = lo + step;
    } else {
      step_old = step;
      step = value / slope;
      rho = newton;
    }
    value = g(rho, slope);
    if (std::abs(step) <= 4.0 * kEps * rho || hi - lo <= 4.0 * kEps * hi) break;
  }
  if (!(rho > 0.0)) return false;
  const double y = Power(rho / r_g, n);
  const double den = rho + n * q * y;  // rho dG/drho
  u.rho = rho;
  u.rho_c = rho / den;
  u.rho_q = -y * rho / den;
  u.rho_r = n * q * y * (rho / r_g) / den;
  return std::isfinite(u.rho_c) && std::isfinite(u.rho_q) && std::isfinite(u.rho_r);
}

}  // namespace

BoucWenLaw::BoucWenLaw(std::string_view type, double c1, double c2, double mu, double n, int dim)
    : type_(type), c1_(c1), c2_(c2), mu_(mu), n_(n), dim_(dim) {
  RequirePositive("c1", c1);
  RequireNonNegative("c2", c2);
  RequireNonNegative("mu", mu);
  Require(n >= 1.0 && std::isfinite(n), "n", n, "must be >= 1 and finite");
  RequireDim(dim);
}

BoucWenLaw::BoucWenLaw(const BoucWenParams& params, int dim)
    : BoucWenLaw("bouc_wen", params.c1, params.c2, params.mu, params.n, dim) {}

BoucWenLaw::BoucWenLaw(const MasingParams& params, int dim)
    : BoucWenLaw("masing", params.c1, 0.0, params.mu, params.n, dim) {}

Status BoucWenLaw::Evaluate(const TangentialInput& in, std::span<const double> committed,
                            std::span<double> trial, TangentialResponse& out) const {
  SlipIncrement increment;
  if (!BeginIncrement(dim_, in, committed, trial, out, increment)) return Status::Ok();
  const auto& [mask, s, s_n, z_n] = increment;
  const double r_g = mu_ * in.pressure;
  const Vec2 ds = s - s_n;
  const Vec2 t = z_n + c1_ * ds;  // elastic predictor
  Vec2 z = t;
  Mat2 dz_ds = c1_ * Mat2::Identity();
  Vec2 dz_dr = Vec2::Zero();
  out.state = ContactState::kStick;
  if (t.dot(ds) > 0.0) {  // loading: radial return along t
    const double c = t.norm();
    const Vec2 t_hat = t / c;
    const double q = c1_ * t_hat.dot(ds);
    RadialUpdate u;
    if (!(q > 0.0) || !SolveRadius(c, q, r_g, n_, u))
      return IncrementFailure(type_, "local Newton for the loading branch failed", s, in.pressure);
    z = u.rho * t_hat;
    const Mat2 proj = Mat2::Identity() - t_hat * t_hat.transpose();
    // dc = c1 t_hat^T, dq = c1 t_hat^T + c1^2 (proj ds)^T / c, d t_hat = c1 proj / c.
    const Eigen::RowVector2d dq_ds =
        c1_ * t_hat.transpose() + (c1_ * c1_ / c) * (proj * ds).transpose();
    dz_ds =
        t_hat * (u.rho_c * c1_ * t_hat.transpose() + u.rho_q * dq_ds) + (u.rho * c1_ / c) * proj;
    dz_dr = u.rho_r * t_hat;
    if (r_g == 0.0 || Power(u.rho / r_g, n_) > 0.5) out.state = ContactState::kSlip;
  }
  if (!FinishSliderIncrement(c1_, c2_, mu_, increment, z, dz_ds, dz_dr, trial, out))
    return IncrementFailure(type_, "non-finite traction or tangent", s, in.pressure);
  return Status::Ok();
}

}  // namespace jointdyn::laws
