#include "laws/bouc_wen.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <functional>
#include <limits>
#include <random>

#include "core/error.h"
#include "laws/law_point.h"
#include "laws/test/conformance.h"
#include "laws/test/rate_independent_paths.h"

namespace jointdyn::laws {
namespace {

using conformance::CaseName;
using conformance::TangentialCase;
using conformance::TangentialConformance;

// R_G = 0.3 * 1e6 = 3e5 Pa, stick range R_G / c1 = 1.5e-6 m (as in the Coulomb test).
const BoucWenParams kBoucWen{.c1 = 2e11, .c2 = 1e9, .mu = 0.3, .n = 2.0};
const MasingParams kMasing{.c1 = 2e11, .mu = 0.3, .n = 8.0};
constexpr double kPressure = 1e6;
const double kLimit = kBoucWen.mu * kPressure;  // R_G [Pa]
const double kStick = kLimit / kBoucWen.c1;     // R_G / c1 [m]
const Vec2 kDirection(std::cos(0.6), std::sin(0.6));

BoucWenParams WithN(double n) {
  BoucWenParams params = kBoucWen;
  params.n = n;
  return params;
}

MasingParams MasingWithN(double n) {
  MasingParams params = kMasing;
  params.n = n;
  return params;
}

std::vector<TangentialCase> Cases() {
  std::vector<TangentialCase> cases;
  for (int dim : {1, 2}) {
    const std::string d = std::to_string(dim) + "d";
    // n = 8 and 32 have d tau / d p ~ 1e-4 mu at states with rho < 0.3 R_G: the suite's
    // rounding floor keeps such columns from being judged below what differences resolve.
    for (double n : {1.0, 2.0, 8.0, 32.0}) {
      cases.push_back({"bouc_wen_n" + std::to_string(int(n)) + "_" + d,
                       [n, dim] { return std::make_unique<BoucWenLaw>(WithN(n), dim); }, 3e-6,
                       kPressure, 1e-3});
    }
    for (double n : {2.0, 8.0}) {
      cases.push_back({"masing_n" + std::to_string(int(n)) + "_" + d,
                       [n, dim] { return std::make_unique<BoucWenLaw>(MasingWithN(n), dim); }, 3e-6,
                       kPressure, 1e-3});
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(BoucWen, TangentialConformance, ::testing::ValuesIn(Cases()), CaseName());

TEST(BoucWen, BackboneConvergesAtFirstOrderToClosedForm) {
  // Loading from the virgin state, z' = c1 (1 - (z/R_G)^n): n = 1 gives
  // R_G (1 - exp(-c1 s / R_G)), n = 2 gives R_G tanh(c1 s / R_G) (eq. 2.122, 2.124).
  // Leading backward Euler error of an autonomous ODE: (ds/2) z' |ln(z'/c1)|, whose maximum
  // over the backbone (z'/c1 falls from 1 to 0) is h R_G / (2e) = 0.184 h R_G, h = c1 ds/R_G.
  const double s_max = 8.0 * kStick;
  const std::function<double(double)> exact[] = {[](double x) { return 1.0 - std::exp(-x); },
                                                 [](double x) { return std::tanh(x); }};
  for (int n : {1, 2}) {
    for (int dim : {1, 2}) {
      const Vec2 e = dim == 1 ? Vec2(1.0, 0.0) : kDirection;
      for (const BoucWenLaw& law : {BoucWenLaw(WithN(n), dim), BoucWenLaw(MasingWithN(n), dim)}) {
        double previous = 0.0;
        for (int steps : {200, 400, 800}) {
          const auto path = paths::Ramp(e, s_max, steps);
          const auto r = paths::Walk(law, path, kPressure);
          double error = 0.0;
          for (int j = 0; j <= steps; ++j) {
            const double s = s_max * j / steps;
            const Vec2 ref = (law.c2() * s + kLimit * exact[n - 1](s / kStick)) * e;
            error = std::max(error, (r[j].traction - ref).norm());
          }
          const double h = s_max / steps / kStick;
          EXPECT_LE(error, 0.2 * h * kLimit) << law.type() << " n " << n << " dim " << dim;
          if (previous > 0.0) {
            EXPECT_NEAR(paths::ObservedOrder(previous, error), 1.0, 0.1)
                << law.type() << " n " << n << " dim " << dim;
          }
          previous = error;
        }
      }
    }
  }
}

TEST(BoucWen, SliderSaturatesAtTheSlipLimit) {
  for (int dim : {1, 2}) {
    const Vec2 e = dim == 1 ? Vec2(1.0, 0.0) : kDirection;
    for (double n : {1.0, 2.0, 8.0}) {
      for (const BoucWenLaw& law : {BoucWenLaw(WithN(n), dim), BoucWenLaw(MasingWithN(n), dim)}) {
        const double s_max = 40.0 * kStick;
        const auto r = paths::Walk(law, paths::Ramp(e, s_max, 800), kPressure);
        // n = 1: R_G - z_k = R_G 1.05^-800; larger n converge faster (slope n c1 / R_G).
        EXPECT_NEAR((r.back().traction - law.c2() * s_max * e - kLimit * e).norm(), 0.0,
                    1e-12 * kLimit)
            << law.type() << " n " << n << " dim " << dim;
        EXPECT_EQ(r.back().state, ContactState::kSlip);
      }
    }
  }
}

// J_n = int_0^1 (1 - x) x^n / (1 - x^n) dx = int_0^1 x^n / (1 + x + ... + x^(n-1)) dx
// (integer n), by composite Simpson on a smooth integrand (error < 1e-13).
double J(int n) {
  const int intervals = 2000;
  const auto f = [n](double x) {
    double sum = 0.0, power = 1.0;
    for (int j = 0; j < n; ++j, power *= x) sum += power;
    return std::pow(x, n) / sum;
  };
  double integral = f(0.0) + f(1.0);
  for (int i = 1; i < intervals; ++i) integral += (i % 2 ? 4.0 : 2.0) * f(double(i) / intervals);
  return integral / (3.0 * intervals);
}

TEST(BoucWen, LargeAmplitudeLoopEnergyTendsToCoulombAsNGrows) {
  // Steady loop for A >> R_G / c1 (branches: elastic from -R_G to 0, then the backbone
  // s = (R_G/c1) int_0^{z/R_G} dx / (1 - x^n)), integrated level by level:
  //   W_n = 4 R_G (A - R_G/c1) - (2 R_G^2 / c1) J_n,  J_1 = 1/2, J_2 = ln 2 - 1/2,
  //   J_n ~ pi^2 / (6 n^2),
  // so W_n / W_Coulomb - 1 = -(J_n / 2) (R_G/c1) / (A - R_G/c1): the tolerance per n.
  // At A = 20 R_G / c1 that is -1.3% (n = 1), -0.51% (2), -0.17% (4), -0.05% (8),
  // -0.013% (16), -0.0034% (32). Corrections are ~exp(-2 A c1 / R_G). Backward Euler adds
  // a first-order error, checked by halving the step.
  EXPECT_NEAR(J(1), 0.5, 1e-12);
  EXPECT_NEAR(J(2), std::log(2.0) - 0.5, 1e-12);
  const double amplitude = 20.0 * kStick;
  const double coulomb = paths::CoulombLoopEnergy(kLimit, kBoucWen.c1, amplitude);
  double previous_deviation = 1.0;
  for (int n : {1, 2, 4, 8, 16, 32}) {
    const double closed = coulomb - 2.0 * kLimit * kStick * J(n);
    const double deviation = std::abs(closed / coulomb - 1.0);
    EXPECT_LT(deviation, previous_deviation) << n;
    previous_deviation = deviation;
    for (const BoucWenLaw& law : {BoucWenLaw(WithN(n), 1), BoucWenLaw(MasingWithN(n), 2)}) {
      const Vec2 e = law.dim() == 1 ? Vec2(1.0, 0.0) : kDirection;
      const double coarse = paths::LastCycleWork(law, e, amplitude, kPressure, 2000, 3);
      const double fine = paths::LastCycleWork(law, e, amplitude, kPressure, 4000, 3);
      const double order = paths::ObservedOrder(std::abs(coarse - closed), std::abs(fine - closed));
      EXPECT_NEAR(order, 1.0, 0.1) << law.type() << " n " << n;
      // Discretization error at h = c1 ds / R_G = 0.005: below 2e-4 of the loop energy.
      EXPECT_NEAR(fine / closed, 1.0, 2e-4) << law.type() << " n " << n;
      EXPECT_NEAR(std::abs(fine / coulomb - 1.0), deviation, 2e-4) << law.type() << " n " << n;
      std::printf("%-8s n = %2d  J_n = %.6f  W/W_C - 1: closed form %+.3e, measured %+.3e\n",
                  std::string(law.type()).c_str(), n, J(n), closed / coulomb - 1.0,
                  fine / coulomb - 1.0);
    }
  }
}

TEST(BoucWen, CollinearTwoDimensionalPathEqualsOneDimensionalLaw) {
  const std::vector<double> slips = {0.0,   1e-6, 3e-6,   6e-6,   5e-6, 1e-6, -4e-6, -4.5e-6,
                                     -2e-6, 2e-6, 2.2e-6, 2.5e-6, 8e-6, 8e-6, 7e-6,  9e-6};
  const std::vector<double> pressures = {1e6, 1e6, 1e6, 1.2e6, 1.2e6, 8e5, 8e5, 3e5,
                                         3e5, 1e6, 2e5, 2e5,   0.0,   1e6, 1e6, 5e5};
  for (double n : {1.0, 2.0, 8.0}) {
    for (const auto& [law1, law2] :
         {std::pair{BoucWenLaw(WithN(n), 1), BoucWenLaw(WithN(n), 2)},
          std::pair{BoucWenLaw(MasingWithN(n), 1), BoucWenLaw(MasingWithN(n), 2)}}) {
      LawPoint one(law1), two(law2);
      for (size_t i = 0; i < slips.size(); ++i) {
        TangentialResponse r1, r2;
        ASSERT_TRUE(one.Step({Vec2(slips[i], 0.0), pressures[i], 1e-3}, r1).ok);
        ASSERT_TRUE(two.Step({slips[i] * kDirection, pressures[i], 1e-3}, r2).ok);
        const double scale = std::max(r1.traction.norm(), kLimit);
        EXPECT_NEAR((r2.traction - r1.traction.x() * kDirection).norm(), 0.0, 1e-12 * scale)
            << law1.type() << " n " << n << " step " << i;
        const double k1 = r1.d_traction_d_slip(0, 0);
        EXPECT_NEAR(kDirection.dot(r2.d_traction_d_slip * kDirection), k1, 1e-12 * kBoucWen.c1)
            << law1.type() << " n " << n << " step " << i;
        EXPECT_NEAR((r2.d_traction_d_pressure - r1.d_traction_d_pressure.x() * kDirection).norm(),
                    0.0, 1e-12 * kBoucWen.mu)
            << law1.type() << " n " << n << " step " << i;
        EXPECT_NEAR(r2.stored_energy, r1.stored_energy, 1e-12 * r1.stored_energy + 1e-300);
        EXPECT_EQ(r2.state, r1.state) << law1.type() << " n " << n << " step " << i;
      }
    }
  }
}

TEST(BoucWen, SteadyCircularSlidingMatchesClosedForm) {
  // On a circle of radius rho_c with K = c1 rho_c / R_G >= 1, the 2D law has the steady
  // solution |z| = R_G with z at angle phi from the radial direction, cos(phi) = 1 / K
  // (from i Z = K (i R_G - |Z/R_G|^n Z sin(phi)), Z = |Z| e^{i phi}); independent of n.
  const double k = 3.0, radius = k * kStick;
  const std::complex<double> exact =
      kLimit * std::complex<double>(1.0 / k, std::sqrt(1 - 1 / (k * k)));
  for (double n : {1.0, 2.0, 8.0}) {
    const BoucWenLaw law(WithN(n), 2);
    double previous = 0.0;
    for (int per_revolution : {1000, 2000, 4000}) {
      const auto path = paths::Circle(radius, per_revolution, 4);
      const auto r = paths::Walk(law, path, kPressure);
      const Vec2 z = r.back().traction - law.c2() * path.back();  // theta = 0 at the end
      const double error = std::abs(std::complex<double>(z.x(), z.y()) - exact);
      if (previous > 0.0) {
        EXPECT_NEAR(paths::ObservedOrder(previous, error), 1.0, 0.1) << n;
      }
      if (per_revolution == 4000) {
        EXPECT_LE(error, 1e-2 * kLimit) << n;
      }
      previous = error;
    }
  }
}

TEST(BoucWen, VanishingSlipLimitIsSafe) {
  // R_G -> 0: loading returns rho <= R_G (|t| / q)^(1/n) <= R_G (1 + |z_n| / q); unloading
  // is elastic (stiffness c1) whatever R_G, so only loading is checked after a drop.
  const double tiny[] = {1e-300, 1e-310, std::numeric_limits<double>::denorm_min()};
  for (int dim : {1, 2}) {
    const Vec2 e = dim == 1 ? Vec2(1.0, 0.0) : kDirection;
    for (double n : {1.0, 2.0, 8.0}) {
      for (const BoucWenLaw& law : {BoucWenLaw(WithN(n), dim), BoucWenLaw(MasingWithN(n), dim)}) {
        for (double p : tiny) {
          paths::ExpectSafeFromVirginAtTinyPressure(law, e, p, 1e-12);
          paths::ExpectSafeAfterPressureDrop(law, e, kPressure, p, 1e-7);
        }
      }
    }
    paths::ExpectFrictionlessIsTheParallelSpring(
        BoucWenLaw(BoucWenParams{.c1 = 2e11, .c2 = 1e9, .mu = 0.0, .n = 2.0}, dim), e, kPressure);
  }
}

TEST(BoucWen, UnloadingIsElasticAndOpenContactRestartsVirgin) {
  const BoucWenLaw law(kBoucWen, 2);
  LawPoint point(law);
  TangentialResponse loaded, unloaded;
  ASSERT_TRUE(point.Step({Vec2(1e-5, 0.0), kPressure, 1e-3}, loaded).ok);
  ASSERT_TRUE(point.Step({Vec2(1e-5 - 1e-6, 0.0), kPressure, 1e-3}, unloaded).ok);
  // Reversal: z falls by exactly c1 ds (eq. 2.122 with sgn(s_dot z) = -1).
  EXPECT_NEAR((loaded.traction - unloaded.traction).x(), (kBoucWen.c1 + kBoucWen.c2) * 1e-6,
              1e-12 * kLimit);
  EXPECT_EQ(unloaded.state, ContactState::kStick);
  TangentialResponse r;
  ASSERT_TRUE(point.Step({Vec2(2e-5, 1e-5), 0.0, 1e-3}, r).ok);
  EXPECT_EQ(r.state, ContactState::kOpen);
  EXPECT_EQ(r.traction.norm(), 0.0);
  EXPECT_EQ(r.stored_energy, 0.0);
  ASSERT_TRUE(point.Step({Vec2(2e-5, 1e-5), kPressure, 1e-3}, r).ok);
  EXPECT_EQ(r.state, ContactState::kStick);
  EXPECT_NEAR((r.traction - kBoucWen.c2 * Vec2(2e-5, 1e-5)).norm(), 0.0, 1e-9);
}

TEST(BoucWen, MasingIsBoucWenWithoutTheParallelSpring) {
  // One kernel: the same responses as Bouc-Wen with c2 = 0 (eq. E.3 vs eq. 2.122).
  const BoucWenLaw masing(kMasing, 2);
  const BoucWenLaw bouc_wen(
      BoucWenParams{.c1 = kMasing.c1, .c2 = 0.0, .mu = kMasing.mu, .n = kMasing.n}, 2);
  EXPECT_EQ(masing.type(), "masing");
  EXPECT_EQ(bouc_wen.type(), "bouc_wen");
  const auto path = paths::Circle(5 * kStick, 100, 2);
  const auto a = paths::Walk(masing, path, kPressure), b = paths::Walk(bouc_wen, path, kPressure);
  for (size_t i = 0; i < path.size(); ++i) {
    EXPECT_EQ(a[i].traction, b[i].traction);
    EXPECT_EQ(a[i].d_traction_d_slip, b[i].d_traction_d_slip);
  }
}

TEST(BoucWen, RejectsBadParametersWithKeyValueAndRule) {
  const auto message = [](const auto& make) {
    try {
      make();
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message([] { BoucWenLaw(WithN(0.5), 1); }), "n = 0.5: must be >= 1 and finite");
  EXPECT_EQ(message([] { BoucWenLaw(WithN(INFINITY), 1); }), "n = inf: must be >= 1 and finite");
  EXPECT_EQ(message([] { BoucWenLaw(MasingWithN(0.0), 2); }), "n = 0: must be >= 1 and finite");
  EXPECT_EQ(message([] { BoucWenLaw(MasingParams{.c1 = -2, .mu = 0.3, .n = 2}, 2); }),
            "c1 = -2: must be > 0 and finite");
  EXPECT_EQ(message([] { BoucWenLaw(MasingParams{.c1 = 2e11, .mu = NAN, .n = 2}, 2); }),
            "mu = nan: must be >= 0 and finite");
  EXPECT_EQ(
      message([] { BoucWenLaw(BoucWenParams{.c1 = 2e11, .c2 = -1e9, .mu = 0.3, .n = 2}, 1); }),
      "c2 = -1e+09: must be >= 0 and finite");
  EXPECT_EQ(message([] { BoucWenLaw(kBoucWen, 0); }), "dim = 0: must be 1 or 2");
}

}  // namespace
}  // namespace jointdyn::laws
