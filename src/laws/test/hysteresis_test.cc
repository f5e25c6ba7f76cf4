#include "laws/hysteresis.h"

#include <gtest/gtest.h>

#include <cmath>

#include "laws/coulomb.h"
#include "laws/normal_laws.h"

namespace jointdyn::laws {
namespace {

const CoulombParams kParams{.c1 = 2e11, .c2 = 0.0, .mu = 0.3};
constexpr double kPressure = 1e6;
constexpr double kStickRange = 0.3 * kPressure / 2e11;  // R_G / c1 [m]

HysteresisOptions Sinusoid(const TangentialLaw& law, double amplitude) {
  HysteresisOptions options;
  options.law = &law;
  options.pressure = kPressure;
  options.path.amplitude_x = amplitude;
  options.path.frequency = 10.0;
  options.path.cycles = 2;
  options.path.samples_per_cycle = 4000;
  return options;
}

TEST(Hysteresis, DissipationPerCycleAndSecantStiffnessOfCoulomb) {
  const CoulombLaw law(kParams, 1);
  const double a = 4 * kStickRange, r_g = 0.3 * kPressure;
  const HysteresisResult r = RunHysteresis(Sinusoid(law, a));
  ASSERT_TRUE(r.status.ok) << r.status.message;
  ASSERT_EQ(r.dissipation_per_cycle.size(), 2u);
  // Closed form 4 R_G (A - R_G/c1); the sampled slip onset costs O(1/samples^2).
  EXPECT_NEAR(r.dissipation_per_cycle[1] / (4 * r_g * (a - kStickRange)), 1.0, 1e-5);
  EXPECT_NEAR(r.secant_stiffness, r_g / a, 1e-9 * r_g / a);
  EXPECT_DOUBLE_EQ(r.max_traction, r_g);
  EXPECT_EQ(r.samples.size(), 2u * 4000 + 1);
}

TEST(Hysteresis, DenseTablePathReproducesTheSinusoid) {
  const CoulombLaw law(kParams, 1);
  HysteresisOptions sine = Sinusoid(law, 3 * kStickRange);
  HysteresisOptions table = sine;
  table.path.kind = PathKind::kTable;
  sine.path.Sample(table.path.table_time, table.path.table_slip);
  const HysteresisResult a = RunHysteresis(sine), b = RunHysteresis(table);
  ASSERT_EQ(a.samples.size(), b.samples.size());
  for (size_t i = 0; i < a.samples.size(); ++i)
    EXPECT_EQ(a.samples[i].traction, b.samples[i].traction);
  // A table is one "cycle": its dissipation is that of the whole path.
  ASSERT_EQ(b.dissipation_per_cycle.size(), 1u);
  EXPECT_NEAR(b.dissipation_per_cycle[0], a.dissipation_per_cycle[0] + a.dissipation_per_cycle[1],
              1e-9 * b.dissipation_per_cycle[0]);
}

TEST(Hysteresis, GapTableReproducesTheSinusoidalGapOfANodeToNodeElement) {
  // Node-to-node element (seed 004 eq. 13-14): unilateral preload + Coulomb with c2 = 0.
  const CoulombLaw tangential({.c1 = 1e7, .c2 = 0.0, .mu = 0.4}, 2);
  const UnilateralPreloadLaw normal({.k_n = 2e7, .n0 = 100.0});
  HysteresisOptions sine;
  sine.law = &tangential;
  sine.normal = &normal;
  sine.gap = {.mean = 0.0, .amplitude = 8e-6, .phase = M_PI / 2};
  sine.path = {.kind = PathKind::kEllipse,
               .amplitude_x = 1e-5,
               .amplitude_y = 4e-6,
               .frequency = 50.0,
               .cycles = 2,
               .samples_per_cycle = 720};
  const HysteresisResult a = RunHysteresis(sine);
  ASSERT_TRUE(a.status.ok);
  HysteresisOptions table = sine;
  table.gap = {};
  table.path.kind = PathKind::kTable;
  sine.path.Sample(table.path.table_time, table.path.table_slip);
  for (const HysteresisSample& s : a.samples) table.gap.table.push_back(s.gap);
  const HysteresisResult b = RunHysteresis(table);
  ASSERT_TRUE(b.status.ok);
  ASSERT_EQ(a.samples.size(), b.samples.size());
  int open = 0, stick = 0, slip = 0;
  for (size_t i = 0; i < a.samples.size(); ++i) {
    EXPECT_EQ(a.samples[i].traction, b.samples[i].traction);
    EXPECT_EQ(a.samples[i].pressure, b.samples[i].pressure);
    open += a.samples[i].state == ContactState::kOpen;
    stick += a.samples[i].state == ContactState::kStick;
    slip += a.samples[i].state == ContactState::kSlip;
  }
  EXPECT_GT(open, 0);  // the history goes through all three states
  EXPECT_GT(stick, 0);
  EXPECT_GT(slip, 0);
}

TEST(Hysteresis, SweepOfCoulombApproachesSlopeOneInMacroslip) {
  const CoulombLaw law(kParams, 1);
  // D = 4 R_G (A - R_G/c1): the local log-log slope is A / (A - R_G/c1) -> 1.
  const SweepResult sweep =
      RunAmplitudeSweep(Sinusoid(law, 1.0), {1e3 * kStickRange, 2e3 * kStickRange});
  ASSERT_TRUE(sweep.status.ok) << sweep.status.message;
  EXPECT_NEAR(sweep.slope, 1.0, 1e-3);
}

TEST(Hysteresis, SweepInPureStickCannotFitASlope) {
  const CoulombLaw law(kParams, 1);
  const SweepResult sweep =
      RunAmplitudeSweep(Sinusoid(law, 1.0), {0.2 * kStickRange, 0.5 * kStickRange});
  EXPECT_FALSE(sweep.status.ok);
  EXPECT_EQ(sweep.dissipation, (std::vector<double>{0.0, 0.0}));
}

// A law that fails beyond a slip threshold, to check failure reporting.
class FailingLaw final : public TangentialLaw {
 public:
  std::string_view type() const override { return "failing"; }
  int dim() const override { return 1; }
  int state_size() const override { return 0; }
  bool rate_independent() const override { return true; }
  Status Evaluate(const TangentialInput& in, std::span<const double>, std::span<double>,
                  TangentialResponse& out) const override {
    if (in.slip.x() > 0.5) return Status::Failure("local Newton diverged");
    out.traction = in.slip;
    return Status::Ok();
  }
};

TEST(Hysteresis, FailureSaysWhereAndKeepsTheSamplesSoFar) {
  const FailingLaw law;
  HysteresisOptions options = Sinusoid(law, 1.0);
  options.path.samples_per_cycle = 12;  // s = sin(2 pi i / 12): first above 0.5 at i = 2
  const HysteresisResult r = RunHysteresis(options);
  EXPECT_FALSE(r.status.ok);
  EXPECT_EQ(r.status.message,
            "failing law failed at t = 0.0166667 s (sample 2, cycle 1): local Newton diverged");
  EXPECT_EQ(r.samples.size(), 2u);
}

}  // namespace
}  // namespace jointdyn::laws
