#include "laws/lugre.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/error.h"
#include "core/numeric.h"
#include "laws/law_point.h"
#include "laws/test/conformance.h"

namespace jointdyn::laws {
namespace {

using conformance::CaseName;
using conformance::TangentialCase;
using conformance::TangentialConformance;

// Interface scale: bristle stiffness 1e11 Pa/m (presliding range mu_c p / sigma0 = 3 um at
// 1 MPa), sigma1 = 2 zeta sqrt(sigma0 m) for about 80 kg/m^2 of plate and zeta ~ 0.5,
// F_s / F_c = 1.5 and v_s = 1 mm/s as in seed 002's LuGre example, sigma2 / F_c = 0.3 s/m.
// Dissipative while sigma1 |v| <= 4 g, i.e. up to |v| = 0.4 m/s at 1 MPa.
const LuGreParams kParams{
    .sigma0 = 1e11, .sigma1 = 3e6, .sigma2 = 1e5, .mu_c = 0.3, .mu_s = 0.45, .v_s = 1e-3};

std::vector<TangentialCase> Cases() {
  std::vector<TangentialCase> cases;
  for (int dim : {1, 2}) {
    // Increments of ~1e-5 m over 1e-2 s: speeds around v_s, across the Stribeck drop.
    cases.push_back({"lugre_" + std::to_string(dim) + "d",
                     [dim] { return std::make_unique<LuGreLaw>(kParams, dim); }, 1e-5, 1e6, 1e-2});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(LuGre, TangentialConformance, ::testing::ValuesIn(Cases()), CaseName());

// Steady sliding friction g(v) of the model definition (Stribeck curve).
double SteadyFriction(double speed, double p) {
  return p * (kParams.mu_c +
              (kParams.mu_s - kParams.mu_c) * std::exp(-std::pow(speed / kParams.v_s, 2)));
}

TEST(LuGre, SteadySlidingGivesStribeckCurvePlusViscous) {
  const double p = 1e6, dt = 1e-3;
  for (int dim : {1, 2}) {
    const LuGreLaw law(kParams, dim);
    const Vec2 direction = dim == 1 ? Vec2(1.0, 0.0) : Vec2(0.6, -0.8);
    for (const double v : {1e-4, -1e-4, 5e-4, 1e-3, -2e-3, 1e-2, 0.1}) {
      LawPoint point(law);
      TangentialResponse r;
      // z converges by the factor g / (g + sigma0 |v| dt) per step: <= 0.98 here, so 5000
      // steps bring the transient below 1e-40.
      for (int i = 1; i <= 5000; ++i)
        ASSERT_TRUE(point.Step({i * v * dt * direction, p, dt}, r).ok);
      const Vec2 expected =
          (SteadyFriction(std::abs(v), p) * Sign(v) + kParams.sigma2 * v) * direction;
      EXPECT_NEAR((r.traction - expected).norm(), 0.0, 1e-9 * expected.norm())
          << dim << "d v = " << v;
      EXPECT_EQ(r.state, ContactState::kSlip);
    }
  }
}

TEST(LuGre, SmallDisplacementStiffnessIsSigma0) {
  // From rest, a quasi-static displacement d (dt = 1000 s) gives tau / d = sigma0 up to the
  // bristle saturation sigma0 d / g (1e-4 here) and the rate terms (sigma1 + sigma2) /
  // (sigma0 dt) ~ 3e-8.
  const double p = 1e6, d = 1e-4 * kParams.mu_s * p / kParams.sigma0;
  for (int dim : {1, 2}) {
    const LuGreLaw law(kParams, dim);
    LawPoint point(law);
    TangentialResponse r;
    const Vec2 direction = dim == 1 ? Vec2(-1.0, 0.0) : Vec2(0.8, 0.6);
    ASSERT_TRUE(point.Step({d * direction, p, 1e3}, r).ok);
    EXPECT_NEAR(r.traction.dot(direction) / d / kParams.sigma0, 1.0, 1.5e-4) << dim << "d";
    EXPECT_EQ(r.state, ContactState::kStick);
  }
}

TEST(LuGre, OpenContactCarriesNothingAndRelaxesTheBristles) {
  const LuGreLaw law(kParams, 2);
  LawPoint point(law);
  TangentialResponse r;
  for (int i = 1; i <= 10; ++i) ASSERT_TRUE(point.Step({Vec2(i * 1e-6, 0.0), 1e6, 1e-3}, r).ok);
  ASSERT_NE(point.committed()[2], 0.0);
  for (const double p : {0.0, -1e5}) {
    ASSERT_TRUE(point.Step({Vec2(2e-5, 1e-5), p, 1e-3}, r).ok);
    EXPECT_EQ(r.state, ContactState::kOpen);
    EXPECT_EQ(r.traction.norm(), 0.0);
    EXPECT_EQ(r.stored_energy, 0.0);
    EXPECT_EQ(point.committed()[2], 0.0);
    EXPECT_EQ(point.committed()[3], 0.0);
  }
  // Re-contact without motion: unloaded bristles, zero traction.
  ASSERT_TRUE(point.Step({Vec2(2e-5, 1e-5), 1e6, 1e-3}, r).ok);
  EXPECT_EQ(r.traction.norm(), 0.0);
}

TEST(LuGre, RejectsBadParameters) {
  auto with = [](auto change) {
    LuGreParams p = kParams;
    change(p);
    return p;
  };
  EXPECT_THROW(LuGreLaw(with([](LuGreParams& p) { p.sigma0 = 0; }), 1), InputError);
  EXPECT_THROW(LuGreLaw(with([](LuGreParams& p) { p.sigma1 = -1; }), 1), InputError);
  EXPECT_THROW(LuGreLaw(with([](LuGreParams& p) { p.sigma2 = -1; }), 1), InputError);
  EXPECT_THROW(LuGreLaw(with([](LuGreParams& p) { p.mu_c = 0; }), 1), InputError);
  EXPECT_THROW(LuGreLaw(with([](LuGreParams& p) { p.v_s = 0; }), 1), InputError);
  EXPECT_THROW(LuGreLaw(kParams, 0), InputError);
  try {
    LuGreLaw(with([](LuGreParams& p) { p.mu_s = 0.2; }), 1);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "mu_s = 0.2: must be >= mu_c and finite");
  }
}

}  // namespace
}  // namespace jointdyn::laws
