#include "laws/normal_laws.h"

#include <cmath>
#include <string>
#include <utility>

#include "core/error.h"
#include "laws/param_check.h"

namespace jointdyn::laws {
namespace {

// d^n, its slope n d^(n-1) and its integral d^(n+1) / (n+1) for a penetration d > 0:
// the elastic part of the power and Lankarani-Nikravesh laws.
struct PowerTerm {
  double value;
  double slope;
  double integral;
};

PowerTerm Power(double penetration, double n) {
  const double value = std::pow(penetration, n);
  return {value, n * std::pow(penetration, n - 1.0), value * penetration / (n + 1.0)};
}

// F(z) = int_0^z t (e^t - 1) dt = (z - 1) e^z + 1 - z^2 / 2. The closed form loses all
// digits to cancellation for small z (F ~ z^3 / 3), so below z = 1 sum the series
// F(z) = sum_{k>=1} z^(k+2) / ((k+2) k!), whose terms fall at least by 1/(k+1) each.
double ExponentialEnergyIntegral(double z, double ez) {
  if (z > 1.0) return (z - 1.0) * ez + 1.0 - 0.5 * z * z;
  double power_over_factorial = z * z * z;  // z^(k+2) / k! for k = 1
  double sum = 0.0;
  for (int k = 1; k < 30; ++k) {
    const double term = power_over_factorial / (k + 2);
    sum += term;
    if (term <= 1e-17 * sum) break;
    power_over_factorial *= z / (k + 1);
  }
  return sum;
}

// p = c z (e^z - 1) with z = lambda (onset - g): the joint-adapted exponential law
// (c = eps / lambda) and the Abaqus exponential law (c = p0 / (e - 1), lambda = 1 / g0).
//   dp/dg = -c lambda (z e^z + e^z - 1)
// (seed 003 eq. E.9, whose second line is a continuation of the first: -eps (e^z - 1)
// - lambda eps (g0 - g) e^z; eq. E.8 for the Abaqus form misses the overall minus sign:
// the pressure decreases with the gap, dp/dg = -p0 / ((e - 1) g0) ((2 - g/g0) e^x - 1).)
//   E = int_g^onset p dg' = (c / lambda) F(z).
// For z > ~709 the exponential overflows: p = +inf, dp/dg = -inf, E = +inf (no NaN).
NormalResponse ExponentialPressure(double c, double lambda, double onset, double gap) {
  if (gap >= onset) return {};
  const double z = lambda * (onset - gap);
  const double em1 = std::expm1(z);
  const double ez = em1 + 1.0;
  NormalResponse r;
  r.pressure = c * z * em1;
  r.d_pressure_d_gap = -c * lambda * (z * ez + em1);
  r.stored_energy = (c / lambda) * ExponentialEnergyIntegral(z, ez);
  return r;
}

std::string Indexed(const char* key, size_t i) {
  return std::string(key) + "[" + std::to_string(i) + "]";
}

}  // namespace

namespace detail {

LinearStages::LinearStages(std::vector<double> onset_gaps, std::vector<double> stiffnesses,
                           double first_intercept)
    : onset_gaps_(std::move(onset_gaps)), stiffnesses_(std::move(stiffnesses)) {
  JD_CHECK(!onset_gaps_.empty() && onset_gaps_.size() == stiffnesses_.size(),
           "LinearStages needs one stiffness per onset gap");
  const size_t n = onset_gaps_.size();
  intercepts_.resize(n);
  onset_pressures_.resize(n);
  onset_energies_.resize(n);
  intercepts_[0] = first_intercept;
  onset_pressures_[0] = 0.0;
  onset_energies_[0] = 0.0;
  for (size_t j = 1; j < n; ++j) {
    // Value continuity at g_j: stage j starts at the pressure stage j-1 reaches there.
    onset_pressures_[j] = intercepts_[j - 1] - stiffnesses_[j - 1] * onset_gaps_[j];
    intercepts_[j] = onset_pressures_[j] + stiffnesses_[j] * onset_gaps_[j];
    // Exact trapezoid of the linear stage j-1 between g_j and g_{j-1}.
    onset_energies_[j] =
        onset_energies_[j - 1] + 0.5 * (onset_gaps_[j - 1] - onset_gaps_[j]) *
                                     (onset_pressures_[j - 1] + onset_pressures_[j]);
  }
}

NormalResponse LinearStages::Evaluate(double gap) const {
  if (gap >= onset_gaps_[0]) return {};
  size_t j = 0;
  while (j + 1 < onset_gaps_.size() && gap <= onset_gaps_[j + 1]) ++j;
  const double p = intercepts_[j] - stiffnesses_[j] * gap;
  // In the first stage the intercept form can round to p <= 0 just below the onset
  // (e.g. n0 - k_n g with g = n0 / k_n rounded): that is the max(., 0) of seed 004 eq. 13.
  if (p <= 0.0) return {};
  NormalResponse r;
  r.pressure = p;
  r.d_pressure_d_gap = -stiffnesses_[j];
  r.stored_energy = onset_energies_[j] + 0.5 * (onset_gaps_[j] - gap) * (onset_pressures_[j] + p);
  return r;
}

}  // namespace detail

// Linear penalty: one stage from g = 0 with p = 0 - eps g (eq. 2.106; E.4 dp/dg = -eps).
LinearPenaltyLaw::LinearPenaltyLaw(const LinearPenaltyParams& params)
    : params_(params), stages_({0.0}, {params.eps}, 0.0) {
  RequirePositive("eps", params.eps);
}

NormalResponse LinearPenaltyLaw::Evaluate(double gap, double /*gap_rate*/) const {
  return stages_.Evaluate(gap);
}

BondedLaw::BondedLaw(const BondedParams& params) : params_(params) {
  RequirePositive("eps", params.eps);
}

NormalResponse BondedLaw::Evaluate(double gap, double /*gap_rate*/) const {
  return {.pressure = -params_.eps * gap,
          .d_pressure_d_gap = -params_.eps,
          .stored_energy = 0.5 * params_.eps * gap * gap};
}

namespace {

const MultiStageLinearParams& ValidatedMultiStage(const MultiStageLinearParams& params) {
  const size_t n = params.onset_gaps.size();
  if (n == 0) throw InputError("onset_gaps", "[]", "must have at least one entry");
  if (params.stiffnesses.size() != n)
    throw InputError("stiffnesses", std::to_string(params.stiffnesses.size()) + " entries",
                     "must have one entry per onset gap (" + std::to_string(n) + ")");
  for (size_t i = 0; i < n; ++i) {
    const std::string gap_key = Indexed("onset_gaps", i);
    RequireFinite(gap_key.c_str(), params.onset_gaps[i]);
    if (i > 0)
      Require(params.onset_gaps[i] < params.onset_gaps[i - 1], gap_key.c_str(),
              params.onset_gaps[i], "must be < the previous onset gap (strictly decreasing)");
    RequirePositive(Indexed("stiffnesses", i).c_str(), params.stiffnesses[i]);
  }
  return params;
}

}  // namespace

// Multi-stage linear: stage j has slope -eps_j (eq. E.5, whose first case should read
// g_N >= g_N0, not g_N >= 0).
MultiStageLinearLaw::MultiStageLinearLaw(const MultiStageLinearParams& params)
    : params_(ValidatedMultiStage(params)),
      stages_(params.onset_gaps, params.stiffnesses, params.stiffnesses[0] * params.onset_gaps[0]) {
}

NormalResponse MultiStageLinearLaw::Evaluate(double gap, double /*gap_rate*/) const {
  return stages_.Evaluate(gap);
}

// One stage starting at g = n0 / k_n with intercept n0, so p = n0 - k_n g is evaluated
// exactly as eq. 13 writes it (n0 + k_n v, v = -g).
UnilateralPreloadLaw::UnilateralPreloadLaw(const UnilateralPreloadParams& params)
    : params_(params), stages_({params.n0 / params.k_n}, {params.k_n}, params.n0) {
  RequirePositive("k_n", params.k_n);
  RequireFinite("n0", params.n0);
  Require(std::isfinite(params.n0 / params.k_n), "n0", params.n0,
          "must give a finite contact onset gap n0 / k_n");
}

NormalResponse UnilateralPreloadLaw::Evaluate(double gap, double /*gap_rate*/) const {
  return stages_.Evaluate(gap);
}

// Power function: p = eps d^m, dp/dg = -m eps d^(m-1) (eq. E.6), E = eps d^(m+1)/(m+1).
PowerPenaltyLaw::PowerPenaltyLaw(const PowerPenaltyParams& params) : params_(params) {
  RequirePositive("eps", params.eps);
  Require(params.m >= 1.0 && std::isfinite(params.m), "m", params.m,
          "must be >= 1 and finite (finite tangent at contact onset)");
}

NormalResponse PowerPenaltyLaw::Evaluate(double gap, double /*gap_rate*/) const {
  if (gap >= 0.0) return {};
  const PowerTerm d = Power(-gap, params_.m);
  NormalResponse r;
  r.pressure = params_.eps * d.value;
  r.d_pressure_d_gap = -params_.eps * d.slope;
  r.stored_energy = params_.eps * d.integral;
  return r;
}

QuadraticLinearLaw::QuadraticLinearLaw(const QuadraticLinearParams& params) : params_(params) {
  RequirePositive("eps", params.eps);
  RequireFinite("g0", params.g0);
  RequireFinite("g1", params.g1);
  Require(params.g1 < params.g0, "g1", params.g1, "must be < g0");
}

// Quadratic part: with w = g0 - g1 > 0 and d = g0 - g, eq. 2.109 reads
// p = eps d^2 / (2 w), dp/dg = -eps d / w (eq. E.7), E = eps d^3 / (6 w).
// Linear part: p = eps ((g0 + g1)/2 - g), dp/dg = -eps; at g1 both parts give
// p = eps w / 2 and dp/dg = -eps. E = eps w^2 / 6 + (g1 - g) (eps w / 2 + p) / 2.
NormalResponse QuadraticLinearLaw::Evaluate(double gap, double /*gap_rate*/) const {
  const double g0 = params_.g0, g1 = params_.g1, eps = params_.eps;
  if (gap >= g0) return {};
  const double w = g0 - g1;
  NormalResponse r;
  if (gap > g1) {
    const double d = g0 - gap;
    r.pressure = eps * d * d / (2.0 * w);
    r.d_pressure_d_gap = -eps * d / w;
    r.stored_energy = eps * d * d * d / (6.0 * w);
  } else {
    r.pressure = eps * (0.5 * (g0 + g1) - gap);
    r.d_pressure_d_gap = -eps;
    r.stored_energy = eps * w * w / 6.0 + 0.5 * (g1 - gap) * (0.5 * eps * w + r.pressure);
  }
  return r;
}

JointExponentialLaw::JointExponentialLaw(const JointExponentialParams& params) : params_(params) {
  RequirePositive("eps", params.eps);
  RequirePositive("lambda", params.lambda);
  RequireFinite("g0", params.g0);
}

NormalResponse JointExponentialLaw::Evaluate(double gap, double /*gap_rate*/) const {
  return ExponentialPressure(params_.eps / params_.lambda, params_.lambda, params_.g0, gap);
}

ExponentialLaw::ExponentialLaw(const ExponentialParams& params) : params_(params) {
  RequirePositive("p0", params.p0);
  RequirePositive("g0", params.g0);
}

NormalResponse ExponentialLaw::Evaluate(double gap, double /*gap_rate*/) const {
  // x = 1 - g/g0 = (g0 - g) / g0: c = p0 / (e - 1), lambda = 1 / g0.
  return ExponentialPressure(params_.p0 / std::expm1(1.0), 1.0 / params_.g0, params_.g0, gap);
}

LankaraniNikraveshLaw::LankaraniNikraveshLaw(const LankaraniNikraveshParams& params)
    : params_(params) {
  RequirePositive("k_c", params.k_c);
  Require(params.n >= 1.0 && std::isfinite(params.n), "n", params.n,
          "must be >= 1 and finite (finite tangent at contact onset)");
  RequireNonNegative("d_c", params.d_c);
  RequireNonNegative("chi", params.chi);
}

double LankaraniNikraveshLaw::HysteresisDampingFactor(double k_c, double restitution,
                                                      double impact_speed) {
  RequirePositive("k_c", k_c);
  Require(restitution >= 0.0 && restitution <= 1.0, "restitution", restitution,
          "must be in [0, 1]");
  RequirePositive("impact_speed", impact_speed);
  return 3.0 * k_c * (1.0 - restitution * restitution) / (4.0 * impact_speed);
}

// With d = -g, d_dot = -g_dot and the unclamped force q = k_c d^n + (d_c + chi d^n) d_dot:
//   dq/dg = -(k_c + chi d_dot) n d^(n-1),  dq/dg_dot = -(d_c + chi d^n).
// Where q <= 0 the pressure is the constant 0 and both tangents are 0.
NormalResponse LankaraniNikraveshLaw::Evaluate(double gap, double gap_rate) const {
  if (gap >= 0.0) return {};
  const PowerTerm d = Power(-gap, params_.n);
  const double d_dot = -gap_rate;
  NormalResponse r;
  r.stored_energy = params_.k_c * d.integral;
  const double q = params_.k_c * d.value + (params_.d_c + params_.chi * d.value) * d_dot;
  if (q <= 0.0) return r;
  r.pressure = q;
  r.d_pressure_d_gap = -(params_.k_c + params_.chi * d_dot) * d.slope;
  r.d_pressure_d_gap_rate = -(params_.d_c + params_.chi * d.value);
  return r;
}

}  // namespace jointdyn::laws
