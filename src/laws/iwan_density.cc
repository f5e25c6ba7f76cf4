#include "laws/iwan_density.h"

#include <cmath>
#include <numbers>

#include "laws/param_check.h"

namespace jointdyn::laws {
namespace {

// Strengths with a quadratic quantile function Q(q) = c1 q + c2 q^2 (c1 > 0,
// c1 + 2 c2 >= 0 so Q increases on [0, 1]). Mean c1 / 2 + c2 / 3 = 1.
class QuadraticQuantileDensity final : public IwanDensity {
 public:
  QuadraticQuantileDensity(double c1, double c2) : c1_(c1), c2_(c2) {}

  PartialMoments Moments(double u) const override {
    // F(u) solves c1 y + c2 y^2 = u; this root form has no cancellation near u = 0.
    const double y =
        u >= max_strength() ? 1.0 : 2.0 * u / (c1_ + std::sqrt(c1_ * c1_ + 4.0 * c2_ * u));
    const double y2 = y * y, y3 = y2 * y;
    return {y, c1_ * y2 / 2.0 + c2_ * y3 / 3.0,
            c1_ * c1_ * y3 / 3.0 + c1_ * c2_ * y3 * y / 2.0 + c2_ * c2_ * y3 * y2 / 5.0};
  }
  double Quantile(double q) const override { return c1_ * q + c2_ * q * q; }
  double max_strength() const override { return c1_ + c2_; }

 private:
  double c1_;
  double c2_;
};

class SegalmanDensity final : public IwanDensity {
 public:
  SegalmanDensity(double chi, double beta)
      : chi_(chi),
        continuous_(1.0 / (1.0 + beta)),
        atom_(beta / (1.0 + beta)),
        s_max_((1.0 + beta) / (beta + (chi + 1.0) / (chi + 2.0))) {}

  PartialMoments Moments(double u) const override {
    // Continuous part: density r s^chi, r = continuous (chi + 1) / s_max^(chi + 1).
    const double t = std::min(u / s_max_, 1.0);
    const double tc = std::pow(t, chi_ + 1.0);
    PartialMoments m{continuous_ * tc, continuous_ * (chi_ + 1.0) / (chi_ + 2.0) * s_max_ * tc * t,
                     continuous_ * (chi_ + 1.0) / (chi_ + 3.0) * s_max_ * s_max_ * tc * t * t};
    if (u >= s_max_) {  // the Dirac mass at s_max
      m.m0 += atom_;
      m.m1 += atom_ * s_max_;
      m.m2 += atom_ * s_max_ * s_max_;
    }
    return m;
  }
  double Quantile(double q) const override {
    return q < continuous_ ? s_max_ * std::pow(q / continuous_, 1.0 / (chi_ + 1.0)) : s_max_;
  }
  double max_strength() const override { return s_max_; }

 private:
  double chi_;
  double continuous_;  // mass of the power-law part [-]
  double atom_;        // mass of the Dirac delta at s_max [-]
  double s_max_;       // K_T phi_max / F_S [-]
};

}  // namespace

std::unique_ptr<const IwanDensity> MakeUniformDensity() {
  return std::make_unique<QuadraticQuantileDensity>(2.0, 0.0);
}

std::unique_ptr<const IwanDensity> MakePressureConeDensity() {
  // Eq. 10 with x = 1 - q: f*/F_s = (6/pi) [(pi - 2) q + (3 - pi) q^2].
  constexpr double pi = std::numbers::pi;
  return std::make_unique<QuadraticQuantileDensity>(6.0 * (pi - 2.0) / pi, 6.0 * (3.0 - pi) / pi);
}

std::unique_ptr<const IwanDensity> MakeSegalmanDensity(double chi, double beta) {
  Require(chi > -1.0 && chi <= 0.0, "chi", chi, "must be in (-1, 0]");
  RequireNonNegative("beta", beta);
  return std::make_unique<SegalmanDensity>(chi, beta);
}

}  // namespace jointdyn::laws
