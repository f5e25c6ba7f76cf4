#include "laws/normal_laws.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "core/error.h"
#include "laws/test/conformance.h"

namespace jointdyn::laws {
namespace {

using conformance::CaseName;
using conformance::NormalCase;
using conformance::NormalConformance;

// Seed 003, table 4.6 (car pendulum), converted to SI: all give about 1 MPa at
// g = -2.5 um (fig. 4.31), except (D) which gives 0.73 MPa there.
const LinearPenaltyParams kTableA{.eps = 4e11};  // 400 N/mm^3
const MultiStageLinearParams kTableB{.onset_gaps = {0.0, -1.25e-6},
                                     .stiffnesses = {1.33e11, 6.67e11}};  // 133, 667 N/mm^3
const PowerPenaltyParams kTableC1{.eps = 0.16e6 * 1e12, .m = 2.0};        // 0.16 N/mm^2/um^2
const PowerPenaltyParams kTableC2{.eps = 4.86e4 * std::pow(1e6, 3.3), .m = 3.3};
const ExponentialParams kTableD{.p0 = 123.0, .g0 = 0.4e-6};  // 1.23e-4 N/mm^2, 0.4 um
const QuadraticLinearParams kTableE{.eps = 5.7e11, .g0 = 0.0, .g1 = -1.5e-6};
const JointExponentialParams kTableF{.eps = 6.17e11, .lambda = 2e5, .g0 = 0.0};
// Seed 002, table 3 (belt drive): k_c = 4e9 N/m^3, d_c = 8e4 Ns/m^3, n = 1.
const LankaraniNikraveshParams kBelt{.k_c = 4e9, .n = 1.0, .d_c = 8e4, .chi = 0.0};
// Hertz-type point contact with hysteresis damping for e = 0.8 at 1 m/s:
// chi = 3 * 1e15 * 0.36 / 4 = 2.7e14.
const LankaraniNikraveshParams kHertz{.k_c = 1e15, .n = 1.5, .d_c = 0.0, .chi = 2.7e14};
// Node-to-node element, forces in N: preload 100 N at k_n = 2e7 N/m, or a 2.5 um gap.
const UnilateralPreloadParams kPreload{.k_n = 2e7, .n0 = 100.0};
const UnilateralPreloadParams kInitialGap{.k_n = 2e7, .n0 = -50.0};

template <class Law, class Params>
std::function<std::unique_ptr<NormalLaw>()> Maker(Params params) {
  return [params] { return std::make_unique<Law>(params); };
}

std::vector<NormalCase> Cases() {
  return {
      {"linear", Maker<LinearPenaltyLaw>(kTableA), 1e-6, 1e-3},
      {"multi_stage_2", Maker<MultiStageLinearLaw>(kTableB), 1e-6, 1e-3},
      // Four stages with a positive first onset; the third stage is softer than the second.
      {"multi_stage_4",
       Maker<MultiStageLinearLaw>(
           MultiStageLinearParams{.onset_gaps = {0.2e-6, -0.5e-6, -1.5e-6, -2.5e-6},
                                  .stiffnesses = {1e11, 5e11, 3e11, 1e12}}),
       1e-6, 1e-3},
      {"power_m2", Maker<PowerPenaltyLaw>(kTableC1), 1e-6, 1e-3},
      {"power_m3_3", Maker<PowerPenaltyLaw>(kTableC2), 1e-6, 1e-3},
      {"quadratic_linear", Maker<QuadraticLinearLaw>(kTableE), 1e-6, 1e-3},
      {"quadratic_linear_offset",
       Maker<QuadraticLinearLaw>(QuadraticLinearParams{.eps = 5.7e11, .g0 = 0.5e-6, .g1 = -1e-6}),
       1e-6, 1e-3},
      {"exponential", Maker<ExponentialLaw>(kTableD), 1e-6, 1e-3},
      {"joint_exponential", Maker<JointExponentialLaw>(kTableF), 1e-6, 1e-3},
      // sigma = 0.5 um and a slightly negative onset: z = lambda (g0 - g) reaches ~6.
      {"joint_exponential_rough",
       Maker<JointExponentialLaw>(
           JointExponentialParams{.eps = 6.17e11, .lambda = 2e6, .g0 = -0.1e-6}),
       1e-6, 1e-3},
      // Belt penetrations ~10 um; at 1 cm/s the damping force exceeds the spring force for
      // d < 0.2 um, so separating states clamp at p = 0.
      {"lankarani_nikravesh_belt", Maker<LankaraniNikraveshLaw>(kBelt), 1e-5, 1e-2},
      {"lankarani_nikravesh_hertz", Maker<LankaraniNikraveshLaw>(kHertz), 1e-6, 1.0},
      {"lankarani_nikravesh_both",
       Maker<LankaraniNikraveshLaw>(
           LankaraniNikraveshParams{.k_c = 1e15, .n = 1.5, .d_c = 2e8, .chi = 2.7e14}),
       1e-6, 1.0},
      {"unilateral_preload", Maker<UnilateralPreloadLaw>(kPreload), 5e-6, 1e-3},
      {"unilateral_initial_gap", Maker<UnilateralPreloadLaw>(kInitialGap), 5e-6, 1e-3},
  };
}

INSTANTIATE_TEST_SUITE_P(NormalLaws, NormalConformance, ::testing::ValuesIn(Cases()), CaseName());

// Relative tolerance for a closed form evaluated in a different but equivalent
// arithmetic order (a few roundings plus exp/pow at ~1 ulp).
constexpr double kRoundoff = 1e-13;

void ExpectRelative(double actual, double expected, double tolerance, const char* what, double g) {
  EXPECT_NEAR(actual, expected, tolerance * std::abs(expected)) << what << " at g = " << g;
}

TEST(NormalLaws, LinearMatchesSeedEq2_106) {
  const LinearPenaltyLaw law(kTableA);
  for (const double g : {-1e-9, -0.3e-6, -2.5e-6, -1e-4}) {
    const NormalResponse r = law.Evaluate(g, 0.0);
    EXPECT_EQ(r.pressure, kTableA.eps * (-g));    // eq. 2.106, same arithmetic
    EXPECT_EQ(r.d_pressure_d_gap, -kTableA.eps);  // eq. E.4
    ExpectRelative(r.stored_energy, 0.5 * kTableA.eps * g * g, kRoundoff, "energy", g);
  }
  EXPECT_NEAR(law.Evaluate(-2.5e-6, 0.0).pressure, 1e6, 1e-12 * 1e6);  // fig. 4.31 point
  EXPECT_EQ(law.Evaluate(1e-9, 0.0).pressure, 0.0);
}

// The bonded law is the linear penalty in compression and its mirror in tension: the
// same stiffness, a negative pressure and the same energy for g > 0; only it is bilateral.
TEST(NormalLaws, BondedIsTheLinearPenaltyCarryingTension) {
  const BondedLaw bonded({.eps = kTableA.eps});
  const LinearPenaltyLaw linear(kTableA);
  EXPECT_TRUE(bonded.bilateral());
  EXPECT_FALSE(linear.bilateral());
  for (const double g : {-1e-4, -2.5e-6, -1e-9, 0.0, 1e-9, 2.5e-6, 1e-4}) {
    const NormalResponse r = bonded.Evaluate(g, 1.0);
    EXPECT_EQ(r.pressure, -kTableA.eps * g) << g;
    EXPECT_EQ(r.d_pressure_d_gap, -kTableA.eps) << g;
    EXPECT_EQ(r.d_pressure_d_gap_rate, 0.0) << g;
    if (g < 0.0) {
      EXPECT_EQ(r.pressure, linear.Evaluate(g, 0.0).pressure) << g;
    }
    ExpectRelative(r.stored_energy, bonded.Evaluate(-g, 0.0).stored_energy, kRoundoff, "energy", g);
    ExpectRelative(r.stored_energy, 0.5 * kTableA.eps * g * g, kRoundoff, "energy", g);
  }
  EXPECT_LT(bonded.Evaluate(1e-6, 0.0).pressure, 0.0);
  EXPECT_THROW(BondedLaw({.eps = 0.0}), InputError);
}

TEST(NormalLaws, TwoStageMatchesSeedEq2_107) {
  const MultiStageLinearLaw law(kTableB);
  const double e0 = 1.33e11, e1 = 6.67e11, g0 = 0.0, g1 = -1.25e-6;
  for (const double g : {-0.1e-6, -1.0e-6, -1.25e-6, -2.5e-6, -7e-6}) {
    // Eq. 2.107 as printed, for g_N0 > g_N1.
    const double seed = g > g1 ? e0 * (g0 - g) : e0 * (g0 - g1) + e1 * (g1 - g);
    const double slope = g > g1 ? -e0 : -e1;  // eq. E.5 (first case g_N >= g_N0)
    const NormalResponse r = law.Evaluate(g, 0.0);
    ExpectRelative(r.pressure, seed, kRoundoff, "pressure", g);
    EXPECT_EQ(r.d_pressure_d_gap, slope) << g;
  }
  // Table 4.6 (B) gives the same 1 MPa at -2.5 um as (A): 133e3 * 1.25 + 667e3 * 1.25 kPa.
  EXPECT_NEAR(law.Evaluate(-2.5e-6, 0.0).pressure, 1e6, 1e-12 * 1e6);
}

TEST(NormalLaws, MultiStageEnergyClosedForm) {
  // Three stages, onsets 1, -1, -3 um, stiffnesses 2, 5, 9 (x1e11 Pa/m). At g = -4 um:
  //   p(g_1) = 2e11 * 2e-6 = 4e5 Pa, p(g_2) = 4e5 + 5e11 * 2e-6 = 1.4e6 Pa,
  //   p(-4 um) = 1.4e6 + 9e11 * 1e-6 = 2.3e6 Pa,
  //   E = 2e-6 * 4e5 / 2 + 2e-6 * (4e5 + 1.4e6) / 2 + 1e-6 * (1.4e6 + 2.3e6) / 2
  //     = 0.4 + 1.8 + 1.85 = 4.05 J/m^2 (hand-computed areas under the three segments).
  const MultiStageLinearLaw law(
      {.onset_gaps = {1e-6, -1e-6, -3e-6}, .stiffnesses = {2e11, 5e11, 9e11}});
  const NormalResponse r = law.Evaluate(-4e-6, 0.0);
  EXPECT_NEAR(r.pressure, 2.3e6, 1e-12 * 2.3e6);
  EXPECT_NEAR(r.stored_energy, 4.05, 1e-12 * 4.05);
  EXPECT_EQ(law.contact_onset_gap(), 1e-6);
}

TEST(NormalLaws, MultiStageValueContinuousSlopeJumpsAtStageBoundaries) {
  const std::vector<double> gaps{0.2e-6, -0.5e-6, -1.5e-6, -2.5e-6};
  const std::vector<double> eps{1e11, 5e11, 3e11, 1e12};
  const MultiStageLinearLaw law({.onset_gaps = gaps, .stiffnesses = eps});
  for (size_t j = 1; j < gaps.size(); ++j) {
    const double b = gaps[j];
    const NormalResponse above = law.Evaluate(std::nextafter(b, 1.0), 0.0);  // stage j-1
    const NormalResponse below = law.Evaluate(b, 0.0);                       // stage j
    // One ulp of g moves p by eps * ulp(b) ~ 1e-10 Pa: value continuity to round-off.
    EXPECT_NEAR(above.pressure, below.pressure, 1e-12 * below.pressure) << "boundary " << j;
    EXPECT_NEAR(above.stored_energy, below.stored_energy, 1e-12 * below.stored_energy);
    EXPECT_EQ(above.d_pressure_d_gap, -eps[j - 1]);
    EXPECT_EQ(below.d_pressure_d_gap, -eps[j]);
  }
}

TEST(NormalLaws, PowerMatchesSeedEq2_108) {
  for (const PowerPenaltyParams& params : {kTableC1, kTableC2}) {
    const PowerPenaltyLaw law(params);
    for (const double g : {-1e-8, -0.7e-6, -2.5e-6, -6e-6}) {
      const NormalResponse r = law.Evaluate(g, 0.0);
      const double m = params.m;
      ExpectRelative(r.pressure, params.eps * std::pow(std::abs(g), m), kRoundoff, "p", g);
      // Eq. E.6.
      ExpectRelative(r.d_pressure_d_gap, -m * params.eps * std::pow(std::abs(g), m - 1), kRoundoff,
                     "dp/dg", g);
      ExpectRelative(r.stored_energy, params.eps * std::pow(-g, m + 1) / (m + 1), kRoundoff,
                     "energy", g);
    }
    // Table 4.6 (C1), (C2): 1 MPa at -2.5 um to the 3 digits of the table.
    EXPECT_NEAR(law.Evaluate(-2.5e-6, 0.0).pressure, 1e6, 5e-3 * 1e6);
  }
}

TEST(NormalLaws, QuadraticLinearMatchesSeedEq2_109) {
  for (const QuadraticLinearParams& q :
       {kTableE, QuadraticLinearParams{.eps = 5.7e11, .g0 = 0.5e-6, .g1 = -1e-6}}) {
    const QuadraticLinearLaw law(q);
    for (const double g : {q.g0 - 1e-9, 0.5 * (q.g0 + q.g1), q.g1, q.g1 - 2e-6}) {
      // Eq. 2.109 and E.7 as printed (first case g_N >= g_N0).
      const bool quadratic = g > q.g1;
      const double seed = quadratic ? -1.0 / (2 * (q.g1 - q.g0)) * q.eps * std::pow(g - q.g0, 2)
                                    : -q.eps * g + 0.5 * q.eps * (q.g1 + q.g0);
      const double slope = quadratic ? -1.0 / (q.g1 - q.g0) * q.eps * (g - q.g0) : -q.eps;
      const NormalResponse r = law.Evaluate(g, 0.0);
      ExpectRelative(r.pressure, seed, kRoundoff, "p", g);
      ExpectRelative(r.d_pressure_d_gap, slope, kRoundoff, "dp/dg", g);
    }
  }
  // Table 4.6 (E): 5.7e11 * (2.5 - 0.75) um = 0.9975 MPa at -2.5 um.
  EXPECT_NEAR(QuadraticLinearLaw(kTableE).Evaluate(-2.5e-6, 0.0).pressure, 0.9975e6, 1e-12 * 1e6);
}

TEST(NormalLaws, QuadraticLinearValueAndSlopeContinuousAtG0AndG1) {
  const QuadraticLinearParams q{.eps = 5.7e11, .g0 = 0.5e-6, .g1 = -1e-6};
  const QuadraticLinearLaw law(q);
  // At g1: the seed states a continuous slope (and value); one ulp apart on either side.
  const NormalResponse above = law.Evaluate(std::nextafter(q.g1, 1.0), 0.0);  // quadratic
  const NormalResponse below = law.Evaluate(q.g1, 0.0);                       // linear
  EXPECT_NEAR(above.pressure, below.pressure, 1e-12 * below.pressure);
  EXPECT_NEAR(above.d_pressure_d_gap, below.d_pressure_d_gap, 1e-12 * q.eps);
  EXPECT_NEAR(above.stored_energy, below.stored_energy, 1e-12 * below.stored_energy);
  // At g0 the open side has p = 0, dp/dg = 0; the contact side tends to both.
  const NormalResponse inside = law.Evaluate(std::nextafter(q.g0, -1.0), 0.0);
  EXPECT_EQ(law.Evaluate(q.g0, 0.0).pressure, 0.0);
  EXPECT_NEAR(inside.pressure, 0.0, 1e-12 * q.eps * (q.g0 - q.g1));
  EXPECT_NEAR(inside.d_pressure_d_gap, 0.0, 1e-9 * q.eps);
}

TEST(NormalLaws, ExponentialMatchesSeedEq2_110AndCorrectedE8) {
  const ExponentialLaw law(kTableD);
  const double p0 = kTableD.p0, g0 = kTableD.g0, e = std::exp(1.0);
  for (const double g : {0.39e-6, 0.2e-6, 0.0, -0.3e-6, -2.5e-6, -8e-6}) {
    const double x = -g / g0 + 1;
    const double seed = p0 / (e - 1) * (x * (std::exp(x) - 1));  // eq. 2.110
    // Eq. E.8 as printed is positive; the pressure falls with the gap, so the correct
    // derivative is its negative.
    const double printed_e8 = p0 / (e - 1) * (1 / g0 * (-g / g0 + 2) * std::exp(x) - 1 / g0);
    const NormalResponse r = law.Evaluate(g, 0.0);
    ExpectRelative(r.pressure, seed, 1e-12, "p", g);  // x e^x - x vs x expm1(x): 1e-12
    ExpectRelative(r.d_pressure_d_gap, -printed_e8, 1e-12, "dp/dg", g);
  }
  EXPECT_NEAR(law.Evaluate(0.0, 0.0).pressure, p0, 1e-14 * p0);  // p(0) = p_N0 by definition
  // Table 4.6 (D) gives 0.73 MPa, not 1 MPa, at -2.5 um: 123 / 1.71828 * 7.25 * (e^7.25 - 1).
  EXPECT_NEAR(law.Evaluate(-2.5e-6, 0.0).pressure, 7.30e5, 0.01 * 7.30e5);
}

// Composite Simpson rule of the seed's eq. 2.110 from g to g0 (independent of the law's
// closed-form energy and of its series branch).
double SimpsonEnergy(double g, int intervals) {
  const double p0 = kTableD.p0, g0 = kTableD.g0, e = std::exp(1.0);
  const auto p = [&](double t) {
    const double x = -t / g0 + 1;
    return p0 / (e - 1) * (x * (std::exp(x) - 1));
  };
  const double h = (g0 - g) / intervals;
  double sum = p(g) + p(g0);
  for (int i = 1; i < intervals; ++i) sum += (i % 2 ? 4.0 : 2.0) * p(g + i * h);
  return sum * h / 3.0;
}

TEST(NormalLaws, ExponentialEnergyMatchesQuadratureOfTheSeedPressure) {
  const ExponentialLaw law(kTableD);
  // z = 1 - g/g0 from 0.025 (series branch) to 21 (closed-form branch).
  for (const double g : {0.39e-6, 0.1e-6, 0.0, -2.5e-6, -8e-6}) {
    // Simpson error ~ (g0-g)^5 max|p''''| / (180 n^4): with 20000 intervals < 1e-12 relative.
    const double reference = SimpsonEnergy(g, 20000);
    ExpectRelative(law.Evaluate(g, 0.0).stored_energy, reference, 1e-11, "energy", g);
  }
}

TEST(NormalLaws, JointExponentialMatchesSeedEq2_112AndE9) {
  for (const JointExponentialParams& q :
       {kTableF, JointExponentialParams{.eps = 6.17e11, .lambda = 2e6, .g0 = -0.1e-6}}) {
    const JointExponentialLaw law(q);
    for (const double g : {q.g0 - 1e-9, q.g0 - 1e-7, q.g0 - 2.5e-6, q.g0 - 1e-5}) {
      const double y = -g + q.g0;
      const double seed = q.eps * y * (std::exp(q.lambda * y) - 1);  // eq. 2.112
      // Eq. E.9: both printed lines are summed.
      const double e9 =
          -q.eps * (std::exp(q.lambda * y) - 1) - q.lambda * q.eps * y * std::exp(q.lambda * y);
      const NormalResponse r = law.Evaluate(g, 0.0);
      // exp(z) - 1 vs expm1(z) differ by ~1e-16 / z relative for small z (1e-11 at z = 2e-4).
      ExpectRelative(r.pressure, seed, 1e-11, "p", g);
      ExpectRelative(r.d_pressure_d_gap, e9, 1e-11, "dp/dg", g);
    }
  }
  // Table 4.6 (F): 6.17e11 * 2.5e-6 * (e^0.5 - 1) = 1.0006 MPa at -2.5 um.
  EXPECT_NEAR(JointExponentialLaw(kTableF).Evaluate(-2.5e-6, 0.0).pressure, 1e6, 1e-3 * 1e6);
}

TEST(NormalLaws, ExponentialLawsHaveZeroSlopeAtOnset) {
  // p = c z (e^z - 1) ~ c z^2: the tangent vanishes at the onset (fig. 2.9, 2.10).
  const JointExponentialLaw law(kTableF);
  const NormalResponse r = law.Evaluate(-1e-12, 0.0);
  EXPECT_NEAR(r.d_pressure_d_gap, 0.0, 1e-5 * kTableF.eps);  // -2 eps lambda |g| = 2.5e-7 eps
  EXPECT_LT(r.d_pressure_d_gap, 0.0);
}

TEST(NormalLaws, LankaraniNikraveshMatchesSeedEq9AndNeverPulls) {
  const LankaraniNikraveshLaw law(kHertz);
  const double k = kHertz.k_c, n = kHertz.n, chi = kHertz.chi;
  // Approaching (g_dot < 0) and slowly separating: f = k d^n + chi d^n d_dot, d_dot = -g_dot.
  for (const double g : {-1e-7, -1e-6, -3e-6}) {
    for (const double g_dot : {-0.5, 0.0, 0.1}) {
      const double d = -g, d_dot = -g_dot;
      const double seed = k * std::pow(d, n) + chi * std::pow(d, n) * d_dot;  // eq. 9
      const NormalResponse r = law.Evaluate(g, g_dot);
      ExpectRelative(r.pressure, seed, kRoundoff, "p", g);
      ExpectRelative(r.d_pressure_d_gap_rate, -chi * std::pow(d, n), kRoundoff, "dp/dgdot", g);
      ExpectRelative(r.stored_energy, k * std::pow(d, n + 1) / (n + 1), kRoundoff, "E", g);
    }
  }
  // Separating faster than k / chi = 3.7 m/s: the unclamped force is negative, the
  // pressure is 0 and so are both tangents (the clamp is a constant).
  const NormalResponse fast = law.Evaluate(-1e-6, 5.0);
  EXPECT_EQ(fast.pressure, 0.0);
  EXPECT_EQ(fast.d_pressure_d_gap, 0.0);
  EXPECT_EQ(fast.d_pressure_d_gap_rate, 0.0);
  // Constant damping of seed 002 (n = 1): f = k_c g + d_c v_n.
  const LankaraniNikraveshLaw belt(kBelt);
  const NormalResponse r = belt.Evaluate(-1e-5, -0.01);
  EXPECT_NEAR(r.pressure, 4e9 * 1e-5 + 8e4 * 0.01, 1e-14 * 4.08e4);
  EXPECT_EQ(r.d_pressure_d_gap, -4e9);
  EXPECT_EQ(r.d_pressure_d_gap_rate, -8e4);
  EXPECT_EQ(belt.Evaluate(-1e-7, 0.01).pressure, 0.0);  // 400 Pa spring vs 800 Pa damper
}

TEST(NormalLaws, HysteresisDampingFactor) {
  // 3 k (1 - e^2) / (4 v): 3 * 1e15 * (1 - 0.64) / (4 * 1) = 2.7e14 (the kHertz value).
  EXPECT_NEAR(LankaraniNikraveshLaw::HysteresisDampingFactor(1e15, 0.8, 1.0), 2.7e14,
              1e-14 * 2.7e14);
  EXPECT_EQ(LankaraniNikraveshLaw::HysteresisDampingFactor(1e15, 1.0, 1.0), 0.0);
  EXPECT_THROW(LankaraniNikraveshLaw::HysteresisDampingFactor(1e15, 1.2, 1.0), InputError);
  EXPECT_THROW(LankaraniNikraveshLaw::HysteresisDampingFactor(1e15, 0.5, 0.0), InputError);
}

TEST(NormalLaws, UnilateralPreloadIsSeed004Eq13) {
  // f_n = max(n0 + k_n v, 0), v = -g: evaluated in the same arithmetic, so bit-identical.
  for (const UnilateralPreloadParams& q : {kPreload, kInitialGap}) {
    const UnilateralPreloadLaw law(q);
    EXPECT_EQ(law.contact_onset_gap(), q.n0 / q.k_n);
    for (double v = -1e-5; v <= 1e-5; v += 0.37e-6) {
      const NormalResponse r = law.Evaluate(-v, 0.0);
      const double seed = std::max(q.n0 + q.k_n * v, 0.0);
      EXPECT_EQ(r.pressure, seed) << "v = " << v;
      EXPECT_EQ(r.d_pressure_d_gap, seed > 0.0 ? -q.k_n : 0.0);
      ExpectRelative(r.stored_energy, seed * seed / (2 * q.k_n), 1e-12, "energy", -v);
    }
  }
  // Preload: in contact at g = 0 with f_n = n0; initial gap: open until v = -n0/k_n.
  EXPECT_EQ(UnilateralPreloadLaw(kPreload).Evaluate(0.0, 0.0).pressure, 100.0);
  EXPECT_EQ(UnilateralPreloadLaw(kInitialGap).Evaluate(-2.4e-6, 0.0).pressure, 0.0);
  EXPECT_GT(UnilateralPreloadLaw(kInitialGap).Evaluate(-2.6e-6, 0.0).pressure, 0.0);
}

TEST(NormalLaws, ExponentialOverflowGivesInfinityNotNaN) {
  const JointExponentialLaw law(kTableF);
  const NormalResponse r = law.Evaluate(-1e-2, 0.0);  // z = 2000
  EXPECT_EQ(r.pressure, std::numeric_limits<double>::infinity());
  EXPECT_EQ(r.d_pressure_d_gap, -std::numeric_limits<double>::infinity());
  EXPECT_EQ(r.stored_energy, std::numeric_limits<double>::infinity());
}

TEST(NormalLaws, RejectBadParameters) {
  EXPECT_THROW(LinearPenaltyLaw({.eps = 0.0}), InputError);
  EXPECT_THROW(MultiStageLinearLaw({.onset_gaps = {}, .stiffnesses = {}}), InputError);
  EXPECT_THROW(MultiStageLinearLaw({.onset_gaps = {0.0, -1e-6}, .stiffnesses = {1e11}}),
               InputError);
  EXPECT_THROW(MultiStageLinearLaw({.onset_gaps = {0.0, -1e-6}, .stiffnesses = {1e11, -1.0}}),
               InputError);
  try {
    MultiStageLinearLaw({.onset_gaps = {0.0, -1e-6, -1e-6}, .stiffnesses = {1, 2, 3}});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "onset_gaps[2] = -1e-06: must be < the previous onset gap (strictly decreasing)");
  }
  EXPECT_THROW(PowerPenaltyLaw({.eps = 1e17, .m = 0.5}), InputError);
  EXPECT_THROW(QuadraticLinearLaw({.eps = 1e11, .g0 = 0.0, .g1 = 0.0}), InputError);
  EXPECT_THROW(ExponentialLaw({.p0 = 100.0, .g0 = 0.0}), InputError);
  EXPECT_THROW(ExponentialLaw({.p0 = -1.0, .g0 = 1e-6}), InputError);
  EXPECT_THROW(JointExponentialLaw({.eps = 1e11, .lambda = 0.0, .g0 = 0.0}), InputError);
  EXPECT_THROW(LankaraniNikraveshLaw({.k_c = 1e9, .n = 0.9, .d_c = 0.0, .chi = 0.0}), InputError);
  EXPECT_THROW(LankaraniNikraveshLaw({.k_c = 1e9, .n = 1.0, .d_c = -1.0, .chi = 0.0}), InputError);
  EXPECT_THROW(UnilateralPreloadLaw({.k_n = 0.0, .n0 = 1.0}), InputError);
  EXPECT_THROW(UnilateralPreloadLaw({.k_n = 1e7, .n0 = std::nan("")}), InputError);
}

}  // namespace
}  // namespace jointdyn::laws
