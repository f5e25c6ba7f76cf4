#include "laws/coulomb.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/error.h"
#include "laws/law_point.h"
#include "laws/test/conformance.h"

namespace jointdyn::laws {
namespace {

using conformance::CaseName;
using conformance::TangentialCase;
using conformance::TangentialConformance;

const CoulombParams kParams{.c1 = 2e11, .c2 = 1e9, .mu = 0.3};  // Pa/m, Pa/m, -

std::vector<TangentialCase> Cases() {
  std::vector<TangentialCase> cases;
  for (int dim : {1, 2}) {
    // Stick range R_G / c1 = 0.3 * 1e6 / 2e11 = 1.5e-6 m.
    cases.push_back({"coulomb_" + std::to_string(dim) + "d",
                     [dim] { return std::make_unique<CoulombLaw>(kParams, dim); }, 3e-6, 1e6,
                     1e-3});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Coulomb, TangentialConformance, ::testing::ValuesIn(Cases()), CaseName());

// Work of one steady sinusoidal cycle of amplitude `amplitude` at pressure p.
double LoopEnergy(const TangentialLaw& law, double amplitude, double p, int per_cycle) {
  LawPoint point(law);
  TangentialResponse r, previous;
  double work = 0.0, s_prev = 0.0;
  for (int i = 0; i <= 2 * per_cycle; ++i) {
    const double s = amplitude * std::sin(2 * M_PI * i / per_cycle);
    EXPECT_TRUE(point.Step({Vec2(s, 0.0), p, 1e-3}, r).ok);
    if (i > per_cycle) work += 0.5 * (r.traction.x() + previous.traction.x()) * (s - s_prev);
    previous = r;
    s_prev = s;
  }
  return work;
}

TEST(Coulomb, LoopEnergyMatchesClosedForm) {
  // Closed form of the steady loop: 4 R_G (A - R_G / c1) once the slider slips.
  const double p = 1e6, r_g = kParams.mu * p;
  for (int dim : {1, 2}) {
    const CoulombLaw law(kParams, dim);
    for (const double amplitude : {2e-6, 5e-6, 4e-5}) {
      const double exact = 4 * r_g * (amplitude - r_g / kParams.c1);
      // The trapezoidal work is exact on the piecewise-linear loop when the samples hit
      // the reversal points (multiple of 4 per cycle), up to the cut corner at slip onset.
      const double work = LoopEnergy(law, amplitude, p, 40000);
      EXPECT_NEAR(work / exact, 1.0, 1e-6) << "dim " << dim << " A " << amplitude;
    }
  }
}

TEST(Coulomb, PureStickDissipatesNothing) {
  const double p = 1e6, stick_range = kParams.mu * p / kParams.c1;
  const CoulombLaw law(kParams, 2);
  const double amplitude = 0.99 * stick_range;
  // Exact zero up to round-off of the loop sum (relative to the peak work R_G A).
  EXPECT_NEAR(LoopEnergy(law, amplitude, p, 400), 0.0, 1e-12 * kParams.mu * p * amplitude);
}

TEST(Coulomb, OpenContactCarriesNothingAndRestartsInStick) {
  const CoulombLaw law(kParams, 2);
  LawPoint point(law);
  TangentialResponse r;
  ASSERT_TRUE(point.Step({Vec2(1e-4, 0.0), 1e6, 1e-3}, r).ok);
  EXPECT_EQ(r.state, ContactState::kSlip);
  ASSERT_TRUE(point.Step({Vec2(2e-4, 1e-4), 0.0, 1e-3}, r).ok);
  EXPECT_EQ(r.state, ContactState::kOpen);
  EXPECT_EQ(r.traction.norm(), 0.0);
  ASSERT_TRUE(point.Step({Vec2(2e-4, 1e-4), 1e6, 1e-3}, r).ok);
  EXPECT_EQ(r.state, ContactState::kStick);
  EXPECT_NEAR((r.traction - kParams.c2 * Vec2(2e-4, 1e-4)).norm(), 0.0, 1e-9);
}

TEST(Coulomb, RejectsBadParameters) {
  EXPECT_THROW(CoulombLaw({.c1 = -1, .c2 = 0, .mu = 0.3}, 1), InputError);
  EXPECT_THROW(CoulombLaw({.c1 = 1, .c2 = -1, .mu = 0.3}, 1), InputError);
  EXPECT_THROW(CoulombLaw({.c1 = 1, .c2 = 0, .mu = 0.3}, 3), InputError);
  try {
    CoulombLaw({.c1 = 1, .c2 = 0, .mu = -0.1}, 1);
    FAIL();
  } catch (const jointdyn::InputError& e) {
    EXPECT_STREQ(e.what(), "mu = -0.1: must be >= 0 and finite");
  }
}

}  // namespace
}  // namespace jointdyn::laws
