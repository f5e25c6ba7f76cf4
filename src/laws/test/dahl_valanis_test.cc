#include "laws/dahl_valanis.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <functional>
#include <limits>

#include "core/error.h"
#include "laws/law_point.h"
#include "laws/test/conformance.h"
#include "laws/test/rate_independent_paths.h"

namespace jointdyn::laws {
namespace {

using conformance::CaseName;
using conformance::TangentialCase;
using conformance::TangentialConformance;

// Same physical scales as the Coulomb reference test: R_G = 0.3 * 1e6 = 3e5 Pa, stick range
// R_G / c1 = 1.5e-6 m.
const DahlParams kDahl{.c1 = 2e11, .c2 = 1e9, .mu = 0.3};
const ValanisParams kValanis{.c1 = 2e11, .c2 = 1e9, .mu = 0.3, .kappa = 0.9};
constexpr double kPressure = 1e6;
const double kLimit = kDahl.mu * kPressure;           // R_G [Pa]
const double kStick = kLimit / kDahl.c1;              // R_G / c1 [m]
const Vec2 kDirection(std::cos(0.6), std::sin(0.6));  // a general direction for 2D paths

std::vector<TangentialCase> Cases() {
  std::vector<TangentialCase> cases;
  for (int dim : {1, 2}) {
    const std::string d = std::to_string(dim) + "d";
    cases.push_back({"dahl_" + d, [dim] { return std::make_unique<DahlValanisLaw>(kDahl, dim); },
                     3e-6, kPressure, 1e-3});
    for (double kappa : {0.5, 0.9}) {
      ValanisParams params = kValanis;
      params.kappa = kappa;
      cases.push_back({"valanis_kappa" + std::to_string(int(kappa * 10)) + "_" + d,
                       [params, dim] { return std::make_unique<DahlValanisLaw>(params, dim); },
                       3e-6, kPressure, 1e-3});
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(DahlValanis, TangentialConformance, ::testing::ValuesIn(Cases()),
                         CaseName());

// Valanis slider-branch backbone from an independent RK4 integration of the ORIGINAL
// eq. 2.119 (E0 = c1 + c2, Et = c2, lambda from eq. 2.121, s_dot > 0), not of the reduced
// form the law uses: tau' = E0 [1 + l (Et s - tau)] / [1 + kappa l (Et s - tau)], l = lambda/E0.
// Returns tau - c2 s at s_max * j / intervals, j = 0..intervals (16 RK4 steps each).
std::vector<double> ValanisBackboneRk4(const ValanisParams& p, double r_g, double s_max,
                                       int intervals) {
  const double e0 = p.c1 + p.c2, et = p.c2;
  const double lambda = e0 * (e0 - et) / (r_g * (e0 - p.kappa * et));  // eq. 2.121
  const double l = lambda / e0;
  const auto rate = [&](double s, double tau) {
    const double over = et * s - tau;
    return e0 * (1.0 + l * over) / (1.0 + p.kappa * l * over);
  };
  std::vector<double> slider{0.0};
  double s = 0.0, tau = 0.0;
  const int sub = 16;
  const double h = s_max / (intervals * sub);
  for (int j = 1; j <= intervals; ++j) {
    for (int k = 0; k < sub; ++k) {
      const double k1 = rate(s, tau), k2 = rate(s + h / 2, tau + h / 2 * k1);
      const double k3 = rate(s + h / 2, tau + h / 2 * k2), k4 = rate(s + h, tau + h * k3);
      tau += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
      s += h;
    }
    slider.push_back(tau - p.c2 * s_max * j / intervals);
  }
  return slider;
}

// Largest |tau - (c2 s + reference(s)) e| along a monotonic ramp of `steps` steps to s_max in
// direction e; reference(j, steps) is the exact slider traction at s_max * j / steps.
double BackboneError(const DahlValanisLaw& law, const Vec2& e, double s_max, int steps,
                     const std::function<double(int, int)>& reference) {
  const auto path = paths::Ramp(e, s_max, steps);
  const auto r = paths::Walk(law, path, kPressure);
  double error = 0.0;
  for (int j = 0; j <= steps; ++j) {
    const Vec2 exact = (law.c2() * s_max * j / steps + reference(j, steps)) * e;
    error = std::max(error, (r[j].traction - exact).norm());
  }
  return error;
}

TEST(DahlValanis, DahlBackboneConvergesAtFirstOrderToClosedForm) {
  // Closed form of eq. 2.118 for s_dot > 0 from the virgin state:
  // tau_D = R_G (1 - exp(-c1 s / R_G)). Backward Euler gives R_G - z_k = R_G (1 + h)^-k with
  // h = c1 ds / R_G, whose leading error (h/2) x exp(-x) R_G, x = c1 s / R_G, peaks at
  // h R_G / (2e) = 0.184 h R_G.
  const double s_max = 8.0 * kStick;
  for (int dim : {1, 2}) {
    const DahlValanisLaw law(kDahl, dim);
    const Vec2 e = dim == 1 ? Vec2(1.0, 0.0) : kDirection;
    const auto exact = [&](int j, int steps) {
      return kLimit * (1.0 - std::exp(-kDahl.c1 * s_max * j / steps / kLimit));
    };
    double previous = 0.0;
    for (int steps : {200, 400, 800}) {
      const double h = kDahl.c1 * s_max / steps / kLimit;
      const double error = BackboneError(law, e, s_max, steps, exact);
      EXPECT_LE(error, 0.2 * h * kLimit) << "dim " << dim << " steps " << steps;
      if (previous > 0.0) {
        EXPECT_NEAR(paths::ObservedOrder(previous, error), 1.0, 0.1) << "dim " << dim;
      }
      previous = error;
    }
  }
}

TEST(DahlValanis, ValanisBackboneConvergesAtFirstOrderToRk4OfEq2119) {
  // Reference: RK4 of the original eq. 2.119 on 12800 x 16 steps (its error is ~1e-12 R_G).
  // Leading backward Euler error of an autonomous ODE z' = f(z): (ds/2) z' |ln(z'/z'(0))|;
  // z'/c1 falls from 1 to 0 along the backbone, so its maximum is h R_G / (2e) = 0.184 h R_G
  // with h = c1 ds / R_G, as for Dahl.
  const double s_max = 8.0 * kStick;
  const int fine = 12800;
  for (double kappa : {0.5, 0.9}) {
    ValanisParams params = kValanis;
    params.kappa = kappa;
    const std::vector<double> reference = ValanisBackboneRk4(params, kLimit, s_max, fine);
    const auto exact = [&](int j, int steps) { return reference[j * (fine / steps)]; };
    for (int dim : {1, 2}) {
      const DahlValanisLaw law(params, dim);
      const Vec2 e = dim == 1 ? Vec2(1.0, 0.0) : kDirection;
      double previous = 0.0;
      for (int steps : {200, 400, 800}) {
        const double h = kDahl.c1 * s_max / steps / kLimit;
        const double error = BackboneError(law, e, s_max, steps, exact);
        EXPECT_LE(error, 0.2 * h * kLimit)
            << "kappa " << kappa << " dim " << dim << " steps " << steps;
        if (previous > 0.0) {
          EXPECT_NEAR(paths::ObservedOrder(previous, error), 1.0, 0.1)
              << "kappa " << kappa << " dim " << dim;
        }
        previous = error;
      }
    }
  }
}

TEST(DahlValanis, SliderSaturatesAtTheSlipLimit) {
  // Dahl: z -> R_G. Valanis: the fixed point of eq. 2.119 with lambda from eq. 2.121 is
  // tau - Et s = E0 (E0 - Et) / (lambda (E0 - kappa Et)) = R_G; equivalently the slip
  // asymptote c2 s + R_G meets the stick line E0 s at the equivalent limit H_V of eq. 2.120.
  const double s_max = 40.0 * kStick;
  for (int dim : {1, 2}) {
    const Vec2 e = dim == 1 ? Vec2(1.0, 0.0) : kDirection;
    for (const DahlValanisLaw& law : {DahlValanisLaw(kDahl, dim), DahlValanisLaw(kValanis, dim)}) {
      const auto r = paths::Walk(law, paths::Ramp(e, s_max, 800), kPressure);
      // Backward Euler: R_G - z_k <= R_G (1 + h)^-k = R_G 1.05^-800 ~ 1e-17 R_G.
      EXPECT_NEAR((r.back().traction - law.c2() * s_max * e - kLimit * e).norm(), 0.0,
                  1e-12 * kLimit)
          << law.type() << " dim " << dim;
      EXPECT_EQ(r.back().state, ContactState::kSlip);
    }
  }
  const double e0 = kValanis.c1 + kValanis.c2, et = kValanis.c2, kappa = kValanis.kappa;
  const double lambda = e0 * (e0 - et) / (kLimit * (e0 - kappa * et));  // eq. 2.121
  const double h_v = e0 / (lambda * (1.0 - kappa * et / e0));           // eq. 2.120
  const double meet = kLimit / (e0 - et);                               // c2 s + R_G = E0 s
  EXPECT_NEAR(h_v, e0 * meet, 1e-12 * h_v);
}

TEST(DahlValanis, DahlLoopEnergyConvergesToClosedForm) {
  // Steady Dahl loop of amplitude A (integrating eq. 2.118 up and down the branches):
  // W = 4 R_G (A - (R_G / c1) tanh(c1 A / R_G)); it tends to the Coulomb 4 R_G (A - R_G/c1).
  for (int dim : {1, 2}) {
    const DahlValanisLaw law(kDahl, dim);
    const Vec2 e = dim == 1 ? Vec2(1.0, 0.0) : kDirection;
    for (double a : {0.5, 2.0, 10.0}) {
      const double amplitude = a * kStick;
      const double exact = 4 * kLimit * (amplitude - kStick * std::tanh(a));
      double previous = 0.0;
      for (int per_quarter : {100, 200, 400}) {
        const double error =
            std::abs(paths::LastCycleWork(law, e, amplitude, kPressure, per_quarter, 20) - exact);
        // First order in the step: at 400 steps per quarter, below 1% of the loop energy.
        if (per_quarter == 400) {
          EXPECT_LE(error, 1e-2 * exact) << "A/stick " << a;
        }
        if (previous > 0.0) {
          EXPECT_NEAR(paths::ObservedOrder(previous, error), 1.0, 0.1) << "A/stick " << a;
        }
        previous = error;
      }
    }
  }
}

TEST(DahlValanis, ValanisLargeAmplitudeLoopTendsToCoulomb) {
  // Integrating the Valanis branches between +-R_G gives, for A >> R_G / c1, the loop
  // energy 4 A R_G - (R_G^2/c1) [4 beta - (1 - beta) int_{-1}^{1} ln((1 - x^2)/4) dx]
  // = 4 R_G (A - R_G / c1), the Coulomb value (corrections ~exp(-2 A c1 / R_G)).
  // The backward Euler error is first order in the step.
  for (int dim : {1, 2}) {
    const DahlValanisLaw law(kValanis, dim);
    const Vec2 e = dim == 1 ? Vec2(1.0, 0.0) : kDirection;
    const double amplitude = 10.0 * kStick;
    const double exact = paths::CoulombLoopEnergy(kLimit, kValanis.c1, amplitude);
    double previous = 0.0;
    for (int per_quarter : {200, 400, 800}) {
      const double error =
          std::abs(paths::LastCycleWork(law, e, amplitude, kPressure, per_quarter, 3) - exact);
      if (previous > 0.0) {
        EXPECT_NEAR(paths::ObservedOrder(previous, error), 1.0, 0.1);
      }
      if (per_quarter == 800) {
        EXPECT_LE(error, 2e-3 * exact);
      }
      previous = error;
    }
  }
}

TEST(DahlValanis, CollinearTwoDimensionalPathEqualsOneDimensionalLaw) {
  // Reversals, a pressure drop below the committed overstress (the frozen-denominator
  // branch of Valanis), an opening and a re-contact, all along kDirection.
  const std::vector<double> slips = {0.0,   1e-6, 3e-6,   6e-6,   5e-6, 1e-6, -4e-6, -4.5e-6,
                                     -2e-6, 2e-6, 2.2e-6, 2.5e-6, 8e-6, 8e-6, 7e-6,  9e-6};
  const std::vector<double> pressures = {1e6, 1e6, 1e6, 1.2e6, 1.2e6, 8e5, 8e5, 3e5,
                                         3e5, 1e6, 2e5, 2e5,   0.0,   1e6, 1e6, 5e5};
  for (const auto& [law1, law2] :
       {std::pair{DahlValanisLaw(kDahl, 1), DahlValanisLaw(kDahl, 2)},
        std::pair{DahlValanisLaw(kValanis, 1), DahlValanisLaw(kValanis, 2)}}) {
    LawPoint one(law1), two(law2);
    for (size_t i = 0; i < slips.size(); ++i) {
      TangentialResponse r1, r2;
      ASSERT_TRUE(one.Step({Vec2(slips[i], 0.0), pressures[i], 1e-3}, r1).ok);
      ASSERT_TRUE(two.Step({slips[i] * kDirection, pressures[i], 1e-3}, r2).ok);
      const double scale = std::max(r1.traction.norm(), kLimit);
      EXPECT_NEAR((r2.traction - r1.traction.x() * kDirection).norm(), 0.0, 1e-12 * scale)
          << law1.type() << " step " << i;
      const double k1 = r1.d_traction_d_slip(0, 0);
      EXPECT_NEAR(kDirection.dot(r2.d_traction_d_slip * kDirection), k1,
                  1e-12 * std::abs(k1) + 1e-12 * kDahl.c1)
          << law1.type() << " step " << i;
      EXPECT_NEAR((r2.d_traction_d_pressure - r1.d_traction_d_pressure.x() * kDirection).norm(),
                  0.0, 1e-12 * kDahl.mu)
          << law1.type() << " step " << i;
      EXPECT_NEAR(r2.stored_energy, r1.stored_energy, 1e-12 * r1.stored_energy + 1e-300);
      EXPECT_EQ(r2.state, r1.state) << law1.type() << " step " << i;
    }
  }
}

// Steady sliding on a circle of radius rho_c (K = c1 rho_c / R_G): in the frame of the
// radial direction, z = Z e^{i theta} is constant. The 2D law gives i Z m = K (i R_G - Z),
// m = 1 - beta Im(Z) / R_G, so Z = R_G (K m + i K^2) / (K^2 + m^2) with
// m = 1 - beta K^2 / (K^2 + m^2) (Dahl: m = 1). Solved for m by bisection on [1 - beta, 1].
std::complex<double> SteadyCircle(double beta, double k) {
  double lo = 1.0 - beta, hi = 1.0;
  for (int i = 0; i < 200; ++i) {
    const double m = 0.5 * (lo + hi);
    (m - 1.0 + beta * k * k / (k * k + m * m) < 0.0 ? lo : hi) = m;
  }
  const double m = 0.5 * (lo + hi);
  return kLimit * std::complex<double>(k * m, k * k) / (k * k + m * m);
}

TEST(DahlValanis, SteadyCircularSlidingMatchesClosedForm) {
  const double k = 3.0, radius = k * kStick;
  for (const DahlValanisLaw& law : {DahlValanisLaw(kDahl, 2), DahlValanisLaw(kValanis, 2)}) {
    const std::complex<double> exact = SteadyCircle(law.beta(), k);
    double previous = 0.0;
    for (int per_revolution : {1000, 2000, 4000}) {
      const auto path = paths::Circle(radius, per_revolution, 4);
      const auto r = paths::Walk(law, path, kPressure);
      const Vec2 z = r.back().traction - law.c2() * path.back();  // theta = 0 at the end
      const double error = std::abs(std::complex<double>(z.x(), z.y()) - exact);
      if (previous > 0.0) {
        EXPECT_NEAR(paths::ObservedOrder(previous, error), 1.0, 0.1) << law.type();
      }
      if (per_revolution == 4000) {
        EXPECT_LE(error, 1e-2 * kLimit) << law.type();
      }
      previous = error;
    }
    // Large circle: the slider traction magnitude tends to R_G (|Z| = R_G K / sqrt(K^2 + m^2)).
    const auto r = paths::Walk(law, paths::Circle(100 * kStick, 40000, 2), kPressure);
    const Vec2 z = r.back().traction - law.c2() * Vec2(100 * kStick, 0.0);
    EXPECT_NEAR(z.norm(), std::abs(SteadyCircle(law.beta(), 100.0)), 1e-3 * kLimit);
    EXPECT_NEAR(z.norm(), kLimit, 1e-3 * kLimit);
  }
}

TEST(DahlValanis, VanishingSlipLimitIsSafe) {
  // R_G -> 0 (p -> 0+): no division by R_G anywhere; the traction tends to c2 s. From the
  // update z = (M z_n + R_G q e) / (M + q), M <= R_G: |z| <= R_G (1 + |z_n| / q).
  const double tiny[] = {1e-300, 1e-310, std::numeric_limits<double>::denorm_min()};
  for (int dim : {1, 2}) {
    const Vec2 e = dim == 1 ? Vec2(1.0, 0.0) : kDirection;
    for (const DahlValanisLaw& law : {DahlValanisLaw(kDahl, dim), DahlValanisLaw(kValanis, dim)}) {
      for (double p : tiny) {
        paths::ExpectSafeFromVirginAtTinyPressure(law, e, p, 0.0);
        for (double ds : {1e-7, -1e-7}) {
          if (law.beta() > 0.0 && ds < 0.0) continue;  // Valanis reverses with stiffness c1/beta
          paths::ExpectSafeAfterPressureDrop(law, e, kPressure, p, ds);
        }
      }
    }
    paths::ExpectFrictionlessIsTheParallelSpring(
        DahlValanisLaw(DahlParams{.c1 = 2e11, .c2 = 1e9, .mu = 0.0}, dim), e, kPressure);
  }
}

TEST(DahlValanis, OpenContactCarriesNothingAndRestartsVirgin) {
  for (const DahlValanisLaw& law : {DahlValanisLaw(kDahl, 2), DahlValanisLaw(kValanis, 2)}) {
    LawPoint point(law);
    TangentialResponse r;
    ASSERT_TRUE(point.Step({Vec2(1e-5, 0.0), kPressure, 1e-3}, r).ok);
    ASSERT_TRUE(point.Step({Vec2(2e-5, 1e-5), 0.0, 1e-3}, r).ok);
    EXPECT_EQ(r.state, ContactState::kOpen);
    EXPECT_EQ(r.traction.norm(), 0.0);
    EXPECT_EQ(r.stored_energy, 0.0);
    // Re-contact at the same slip: the slider is relaxed, only the parallel spring acts.
    ASSERT_TRUE(point.Step({Vec2(2e-5, 1e-5), kPressure, 1e-3}, r).ok);
    EXPECT_EQ(r.state, ContactState::kStick);
    EXPECT_NEAR((r.traction - law.c2() * Vec2(2e-5, 1e-5)).norm(), 0.0, 1e-9);
  }
}

TEST(DahlValanis, RejectsBadParametersWithKeyValueAndRule) {
  const auto message = [](const auto& make) {
    try {
      make();
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message([] { DahlValanisLaw(DahlParams{.c1 = 0, .c2 = 1e9, .mu = 0.3}, 1); }),
            "c1 = 0: must be > 0 and finite");
  EXPECT_EQ(message([] { DahlValanisLaw(DahlParams{.c1 = 2e11, .c2 = -1, .mu = 0.3}, 1); }),
            "c2 = -1: must be >= 0 and finite");
  EXPECT_EQ(message([] { DahlValanisLaw(DahlParams{.c1 = 2e11, .c2 = 1e9, .mu = -0.1}, 2); }),
            "mu = -0.1: must be >= 0 and finite");
  EXPECT_EQ(message([] { DahlValanisLaw(kDahl, 3); }), "dim = 3: must be 1 or 2");
  for (double kappa : {0.0, 1.0, -0.5, 1.5}) {
    ValanisParams params = kValanis;
    params.kappa = kappa;
    EXPECT_EQ(message([&] { DahlValanisLaw(params, 1); }),
              "kappa = " + FormatValue(kappa) + ": must be in (0, 1)");
  }
  EXPECT_EQ(message([] {
              DahlValanisLaw(ValanisParams{.c1 = 2e11, .c2 = 1e9, .mu = 0.3, .kappa = NAN}, 1);
            }),
            "kappa = nan: must be in (0, 1)");
  EXPECT_EQ(DahlValanisLaw(kDahl, 1).type(), "dahl");
  EXPECT_EQ(DahlValanisLaw(kValanis, 2).type(), "valanis");
}

}  // namespace
}  // namespace jointdyn::laws
