// Normal contact laws p(g, g_dot) (normal_law.h): the penalty family of seed 003
// (section 2.4.2, derivatives in appendix E.2), the Lankarani-Nikravesh spring-damper of
// seed 002 (eq. 9) and the unilateral law with static preload of seed 004 (eq. 13); and the
// bilateral bonded law of a tied interface.
//
// Sign convention (normal_law.h): g > 0 open, g < 0 penetration, p > 0 in compression.
// Every contact law returns exactly p = 0 (and zero tangents and energy) for g >= onset,
// never a negative pressure, and stored_energy = int_g^onset p(g', 0) dg' in closed form
// (the bonded law: the same energy, and tension for g > 0).
//
// Shared kernels: the linear, multi-stage linear and preload laws are one piecewise-
// linear pressure (LinearStages); the power and Lankarani-Nikravesh laws share the
// power-function elastic part; the exponential (Abaqus) law is the joint-adapted
// exponential law with eps = p0 / ((e - 1) g0), lambda = 1 / g0.
#pragma once

#include <string_view>
#include <vector>

#include "laws/normal_law.h"

namespace jointdyn::laws {

namespace detail {

// Continuous pressure made of linear stages: stage j acts for g below onset_gap(j)
// (strictly decreasing onsets) with stiffness eps_j, p = intercept_j - eps_j g.
// The first intercept is given (it fixes where the pressure starts from zero); the others
// follow from value continuity. Not a law by itself.
class LinearStages {
 public:
  // onset_gaps strictly decreasing, stiffnesses > 0, same size >= 1 (validated by the
  // laws). first_intercept = eps_0 g_0 mathematically; laws pass the form of their seed.
  LinearStages(std::vector<double> onset_gaps, std::vector<double> stiffnesses,
               double first_intercept);

  double onset() const { return onset_gaps_.front(); }
  NormalResponse Evaluate(double gap) const;

 private:
  std::vector<double> onset_gaps_;       // g_j [m]
  std::vector<double> stiffnesses_;      // eps_j [Pa/m]
  std::vector<double> intercepts_;       // a_j: p = a_j - eps_j g in stage j [Pa]
  std::vector<double> onset_pressures_;  // p(g_j) [Pa]
  std::vector<double> onset_energies_;   // int_{g_j}^{g_0} p dg [J/m^2]
};

}  // namespace detail

// Linear penalty (seed 003, eq. 2.106): p = eps (-g) for g < 0.
struct LinearPenaltyParams {
  double eps = 0.0;  // penalty stiffness eps_N [Pa/m], > 0
};

class LinearPenaltyLaw final : public NormalLaw {
 public:
  explicit LinearPenaltyLaw(const LinearPenaltyParams& params);

  std::string_view type() const override { return "linear"; }
  double contact_onset_gap() const override { return 0.0; }
  NormalResponse Evaluate(double gap, double gap_rate) const override;

  const LinearPenaltyParams& params() const { return params_; }

 private:
  LinearPenaltyParams params_;
  detail::LinearStages stages_;
};

// Bonded (tied) interface: a bilateral linear spring p = eps (-g) for every gap, tension
// (p < 0) when the surfaces are pulled apart. With a stiff eps (and the tangential
// "elastic" law) a joint acts as the surfaces glued together: the limit eps -> inf is the
// merged (conforming) mesh, approached as O(1 / eps).
struct BondedParams {
  double eps = 0.0;  // normal stiffness [Pa/m], > 0
};

class BondedLaw final : public NormalLaw {
 public:
  explicit BondedLaw(const BondedParams& params);

  std::string_view type() const override { return "bonded"; }
  double contact_onset_gap() const override { return 0.0; }
  bool bilateral() const override { return true; }
  NormalResponse Evaluate(double gap, double gap_rate) const override;

 private:
  BondedParams params_;
};

// Multi-stage linear penalty with any number of stages (generalizes seed 003, eq. 2.107):
//   p = 0                                          g >= g_0
//   p = sum_{i<j} eps_i (g_i - g_{i+1}) + eps_j (g_j - g)   g_{j+1} < g <= g_j
// (the last stage extends to g -> -inf). Continuous in value, the slope jumps from
// -eps_{j-1} to -eps_j at g_j. Seed 003 uses two stiffening stages (eps_1 > eps_0);
// any positive stiffnesses give a valid monotone law, so stiffening is not required.
struct MultiStageLinearParams {
  std::vector<double> onset_gaps;   // g_0 > g_1 > ... [m], finite, strictly decreasing
  std::vector<double> stiffnesses;  // eps_0, eps_1, ... [Pa/m], > 0, one per onset gap
};

class MultiStageLinearLaw final : public NormalLaw {
 public:
  explicit MultiStageLinearLaw(const MultiStageLinearParams& params);

  std::string_view type() const override { return "multi_stage_linear"; }
  double contact_onset_gap() const override { return stages_.onset(); }
  NormalResponse Evaluate(double gap, double gap_rate) const override;

  const MultiStageLinearParams& params() const { return params_; }

 private:
  MultiStageLinearParams params_;
  detail::LinearStages stages_;
};

// Unilateral spring with static preload (seed 004, eq. 13): f_n = max(n0 + k_n v, 0) with
// the normal approach v = -g, i.e. p = max(n0 - k_n g, 0). Contact starts at g = n0 / k_n:
// n0 > 0 is a preload (in contact at g = 0), n0 < 0 an initial gap -n0 / k_n.
// Point law: with k_n in N/m and n0 in N the "pressure" is a force [N].
struct UnilateralPreloadParams {
  double k_n = 0.0;  // normal stiffness [Pa/m] (point law: [N/m]), > 0
  double n0 = 0.0;   // static normal preload at g = 0 [Pa] (point law: [N]), finite, any sign
};

class UnilateralPreloadLaw final : public NormalLaw {
 public:
  explicit UnilateralPreloadLaw(const UnilateralPreloadParams& params);

  std::string_view type() const override { return "unilateral_preload"; }
  double contact_onset_gap() const override { return stages_.onset(); }
  NormalResponse Evaluate(double gap, double gap_rate) const override;

  const UnilateralPreloadParams& params() const { return params_; }

 private:
  UnilateralPreloadParams params_;
  detail::LinearStages stages_;
};

// Power-function penalty (seed 003, eq. 2.108): p = eps |g|^m for g < 0.
struct PowerPenaltyParams {
  double eps = 0.0;  // coefficient eps_N [Pa/m^m], > 0
  double m = 0.0;    // exponent [-], >= 1 (m < 1 has an infinite tangent at contact onset)
};

class PowerPenaltyLaw final : public NormalLaw {
 public:
  explicit PowerPenaltyLaw(const PowerPenaltyParams& params);

  std::string_view type() const override { return "power"; }
  double contact_onset_gap() const override { return 0.0; }
  NormalResponse Evaluate(double gap, double gap_rate) const override;

  const PowerPenaltyParams& params() const { return params_; }

 private:
  PowerPenaltyParams params_;
};

// Combined quadratic-linear penalty (seed 003, eq. 2.109), g_1 < g_0:
//   p = eps (g - g_0)^2 / (2 (g_0 - g_1))    g_1 < g < g_0
//   p = eps ((g_0 + g_1) / 2 - g)            g <= g_1
// Value and slope are continuous at g_0 and g_1.
struct QuadraticLinearParams {
  double eps = 0.0;  // stiffness of the linear part eps_N [Pa/m], > 0
  double g0 = 0.0;   // contact onset gap g_N0 [m], finite
  double g1 = 0.0;   // start of the linear part g_N1 [m], finite, < g0
};

class QuadraticLinearLaw final : public NormalLaw {
 public:
  explicit QuadraticLinearLaw(const QuadraticLinearParams& params);

  std::string_view type() const override { return "quadratic_linear"; }
  double contact_onset_gap() const override { return params_.g0; }
  NormalResponse Evaluate(double gap, double gap_rate) const override;

  const QuadraticLinearParams& params() const { return params_; }

 private:
  QuadraticLinearParams params_;
};

// Joint-adapted exponential penalty (seed 003, modified form eq. 2.112), z = lambda (g0 - g):
//   p = eps (g0 - g) (exp(lambda (g0 - g)) - 1) = (eps / lambda) z (e^z - 1)   g < g0.
// Value and slope are continuous at g0. For z > ~709 exp overflows and the law returns
// +inf (never NaN); the interface has no status to report it (see normal_law.h).
struct JointExponentialParams {
  double eps = 0.0;     // stiffness eps_N [Pa/m], > 0
  double lambda = 0.0;  // roughness parameter lambda_N = 1 / sigma [1/m], > 0
  double g0 = 0.0;      // contact onset gap g_N0 [m], finite (usually 0 or slightly < 0)
};

class JointExponentialLaw final : public NormalLaw {
 public:
  explicit JointExponentialLaw(const JointExponentialParams& params);

  std::string_view type() const override { return "joint_exponential"; }
  double contact_onset_gap() const override { return params_.g0; }
  NormalResponse Evaluate(double gap, double gap_rate) const override;

  const JointExponentialParams& params() const { return params_; }

 private:
  JointExponentialParams params_;
};

// Exponential penalty as in Abaqus (seed 003, eq. 2.110), x = 1 - g / g0:
//   p = p0 / (e - 1) x (e^x - 1)   g < g0,
// so p(0) = p0 and p(g0) = 0. This is the joint-adapted exponential law with
// lambda = 1 / g0 and eps = p0 / ((e - 1) g0); both are evaluated by one kernel.
struct ExponentialParams {
  double p0 = 0.0;  // pressure at zero gap p_N0 [Pa], > 0
  double g0 = 0.0;  // clearance at which contact starts g_N0 [m], > 0
};

class ExponentialLaw final : public NormalLaw {
 public:
  explicit ExponentialLaw(const ExponentialParams& params);

  std::string_view type() const override { return "exponential"; }
  double contact_onset_gap() const override { return params_.g0; }
  NormalResponse Evaluate(double gap, double gap_rate) const override;

  const ExponentialParams& params() const { return params_; }

 private:
  ExponentialParams params_;
};

// Lankarani-Nikravesh spring-damper (seed 002, eq. 9), penetration d = -g > 0, its rate
// d_dot = -g_dot:
//   p = max(k_c d^n + (d_c + chi d^n) d_dot, 0)    g < 0.
// d_c is the constant damping seed 002 uses; chi is the original Lankarani-Nikravesh
// hysteresis damping factor, chi = 3 k_c (1 - e^2) / (4 v_impact) for a coefficient of
// restitution e at impact speed v_impact (HysteresisDampingFactor). The clamp at 0 (no
// adhesion while the surfaces separate fast) also zeroes both tangents. stored_energy is
// the elastic part k_c d^(n+1) / (n+1).
struct LankaraniNikraveshParams {
  double k_c = 0.0;  // contact stiffness [Pa/m^n], > 0
  double n = 1.0;    // exponent [-], >= 1 (1.5 Hertz point contact, 1 seed 002 belt drive)
  double d_c = 0.0;  // constant damping [Pa s/m], >= 0
  double chi = 0.0;  // hysteresis damping factor [Pa s/m^(n+1)], >= 0
};

class LankaraniNikraveshLaw final : public NormalLaw {
 public:
  explicit LankaraniNikraveshLaw(const LankaraniNikraveshParams& params);

  // chi = 3 k_c (1 - e^2) / (4 v_impact) [Pa s/m^(n+1)] (Lankarani and Nikravesh 1989):
  // restitution e in [0, 1], impact speed v_impact [m/s] > 0, k_c > 0.
  static double HysteresisDampingFactor(double k_c, double restitution, double impact_speed);

  std::string_view type() const override { return "lankarani_nikravesh"; }
  double contact_onset_gap() const override { return 0.0; }
  NormalResponse Evaluate(double gap, double gap_rate) const override;

  const LankaraniNikraveshParams& params() const { return params_; }

 private:
  LankaraniNikraveshParams params_;
};

}  // namespace jointdyn::laws
