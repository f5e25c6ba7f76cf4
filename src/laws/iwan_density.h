// Slider-strength distributions of the whole-interface Iwan family (seed 001, eq. 1, 9-11).
//
// An Iwan law is a continuum of Jenkins elements in parallel: element springs share the
// stuck stiffness k_t, and the Coulomb slider strengths f* follow a density phi(f*).
// In all three laws of the family the strengths scale with the gross-slip force
// F_s = mu N, so a density is described once, by the distribution P of the normalized
// strength s = f* / F_s: a probability measure on [0, max_strength()] with mean 1 (the
// whole interface slides at T = F_s). The laws need only
//   the distribution function    F(u)  = P(s <= u),
//   the partial moments          M1(u) = int_{s <= u} s dP,  M2(u) = int_{s <= u} s^2 dP,
//   the quantile function        Q(q)  = min{s : F(s) >= q}.
// With u = k_t delta / F_s, eq. 1 becomes the normalized backbone
//   T(delta) = F_s g(u),  g(u) = M1(u) + u (1 - F(u)),  g'(u) = 1 - F(u),
//   d (F_s g(k_t delta / F_s)) / d F_s = g(u) - u g'(u) = M1(u),
// and the discrete form takes the strengths s_i = Q((i + 1/2) / N_J).
#pragma once

#include <memory>

namespace jointdyn::laws {

struct PartialMoments {
  double m0 = 0.0;  // F(u)  = P(s <= u) [-]
  double m1 = 0.0;  // M1(u) = int_{s <= u} s dP [-]
  double m2 = 0.0;  // M2(u) = int_{s <= u} s^2 dP [-]
};

class IwanDensity {
 public:
  virtual ~IwanDensity() = default;

  // Partial moments over [0, u], u >= 0 (totals for u >= max_strength()).
  virtual PartialMoments Moments(double u) const = 0;
  // Normalized strength at probability q, 0 < q < 1.
  virtual double Quantile(double q) const = 0;
  // Largest normalized strength: F(max_strength()) = 1.
  virtual double max_strength() const = 0;
};

// Original Iwan model: strengths uniform on [0, 2 F_s] (the linear-basis limit of seed
// 001, eq. 10, "the original Iwan model is a low-order form of the proposed model").
std::unique_ptr<const IwanDensity> MakeUniformDensity();

// Pressure-cone density of seed 001 (eq. 10-11): f*(x) = (6 F_s / pi) [(3 - pi) x^2 +
// (pi - 4) x + 1] with the element coordinate x = i/n uniform on [0, 1].
std::unique_ptr<const IwanDensity> MakePressureConeDensity();

// Segalman's four-parameter density (Segalman 2005): R phi^chi on [0, phi_max] plus a
// Dirac mass S at phi_max, with S = beta * (continuous mass). In normalized strengths the
// continuous mass is 1 / (1 + beta), the atom beta / (1 + beta), and
// s_max = K_T phi_max / F_S = (1 + beta) / (beta + (chi + 1) / (chi + 2)).
// Throws InputError unless -1 < chi <= 0 and beta >= 0.
std::unique_ptr<const IwanDensity> MakeSegalmanDensity(double chi, double beta);

}  // namespace jointdyn::laws
