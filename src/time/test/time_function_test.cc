// Time functions: values at known points (closed forms), rates against central differences
// of the values, continuity of the smoothed steps of seed 003 fig. 4.33, parameter errors.
#include "time/time_function.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/error.h"

namespace jointdyn::time {
namespace {

std::vector<std::pair<std::string, TimeFunction>> AllKinds() {
  return {{"constant", TimeFunction::Constant(2.5)},
          {"ramp", TimeFunction::Ramp(-1.0, 0.1)},
          {"sinusoid", TimeFunction::Sinusoid(0.2, 1.5, 0.3, 0.05)},
          {"force0", TimeFunction::SmoothStep0(5.0, 0.05)},
          {"force1", TimeFunction::SmoothStep1(5.0, 0.05)},
          {"table", TimeFunction::Table({0.0, 0.01, 0.03}, {0.0, 2.0, -1.0})},
          {"speed_ramp", TimeFunction::SpeedRamp(0.3, 20.0, 0.04)}};
}

TEST(TimeFunction, ValuesAtKnownPoints) {
  EXPECT_EQ(TimeFunction().Value(3.0), 0.0);
  EXPECT_EQ(TimeFunction::Constant(2.5).Value(-7.0), 2.5);
  EXPECT_DOUBLE_EQ(TimeFunction::Ramp(-1.0, 0.1).Value(20.0), 1.0);
  // mean + A sin(2 pi f t + phase) at t = 1 / (4 f): phase 0 gives the crest.
  EXPECT_DOUBLE_EQ(TimeFunction::Sinusoid(0.2, 2.0, 0.0, 0.05).Value(0.125), 0.25);
  // force0: f0 / 2 at T / 4, f0 from T / 2 on, 0 before the start.
  const TimeFunction step0 = TimeFunction::SmoothStep0(5.0, 0.05);
  EXPECT_EQ(step0.Value(-0.01), 0.0);
  EXPECT_DOUBLE_EQ(step0.Value(0.0125), 2.5);
  EXPECT_DOUBLE_EQ(step0.Value(0.025), 5.0);
  EXPECT_EQ(step0.Value(1.0), 5.0);
  // force1: f0 at T / 2, 2 f0 / 3 at 3T / 4, f0 / 3 from T on.
  const TimeFunction step1 = TimeFunction::SmoothStep1(6.0, 0.05);
  EXPECT_DOUBLE_EQ(step1.Value(0.025), 6.0);
  EXPECT_NEAR(step1.Value(0.0375), 4.0, 1e-14);
  EXPECT_DOUBLE_EQ(step1.Value(0.05), 2.0);
  EXPECT_EQ(step1.Value(0.2), 2.0);
  // Table: linear inside, the end values outside.
  const TimeFunction table = TimeFunction::Table({0.0, 0.01, 0.03}, {0.0, 2.0, -1.0});
  EXPECT_DOUBLE_EQ(table.Value(0.005), 1.0);
  EXPECT_NEAR(table.Value(0.02), 0.5, 1e-15);
  EXPECT_EQ(table.Value(-1.0), 0.0);
  EXPECT_EQ(table.Value(1.0), -1.0);
}

TEST(TimeFunction, StepsAreContinuousAtTheirJoints) {
  for (const auto& step :
       {TimeFunction::SmoothStep0(5.0, 0.05), TimeFunction::SmoothStep1(5.0, 0.05)})
    for (const double joint : {0.0, 0.025, 0.05}) {
      EXPECT_NEAR(step.Value(joint - 1e-12), step.Value(joint + 1e-12), 1e-9) << joint;
      EXPECT_NEAR(step.Rate(joint - 1e-12), step.Rate(joint + 1e-12), 1e-6) << joint;
    }
}

TEST(TimeFunction, RatesMatchCentralDifferences) {
  // Away from the table knots and step joints; h = 1e-7 s gives differences exact to
  // about 1e-7 relative for these smooth pieces.
  const double h = 1e-7;
  for (const auto& [name, f] : AllKinds())
    for (const double t : {0.004, 0.013, 0.0371, 0.047, 0.31}) {
      const double difference = (f.Value(t + h) - f.Value(t - h)) / (2 * h);
      EXPECT_NEAR(f.Rate(t), difference, 1e-6 * (1.0 + std::abs(difference))) << name << " t=" << t;
    }
}

TEST(TimeFunction, AccelerationsMatchCentralDifferencesOfRates) {
  const double h = 1e-7;
  for (const auto& [name, f] : AllKinds())
    for (const double t : {0.004, 0.013, 0.0371, 0.047, 0.31}) {
      const double difference = (f.Rate(t + h) - f.Rate(t - h)) / (2 * h);
      EXPECT_NEAR(f.Acceleration(t), difference, 1e-5 * (1.0 + std::abs(difference)))
          << name << " t=" << t;
    }
}

TEST(TimeFunction, SpeedRampReachesItsSpeed) {
  // Value + speed T / 2 at the end of the ramp (the haversine's mean is half the speed),
  // then linear at the speed; rate continuous at both ends.
  const TimeFunction f = TimeFunction::SpeedRamp(0.3, 20.0, 0.04);
  EXPECT_EQ(f.Value(-1.0), 0.3);
  EXPECT_NEAR(f.Value(0.04), 0.3 + 20.0 * 0.02, 1e-14);
  EXPECT_NEAR(f.Value(1.04), 0.3 + 0.4 + 20.0, 1e-12);
  EXPECT_NEAR(f.Rate(0.02), 10.0, 1e-12);
  for (const double joint : {0.0, 0.04}) {
    EXPECT_NEAR(f.Rate(joint - 1e-12), f.Rate(joint + 1e-12), 1e-6) << joint;
    EXPECT_NEAR(f.Value(joint - 1e-12), f.Value(joint + 1e-12), 1e-9) << joint;
  }
}

TEST(TimeFunction, RejectsBadParameters) {
  const auto rule_of = [](auto make) {
    try {
      make();
    } catch (const InputError& e) {
      return e.key() + " = " + e.value() + ": " + e.rule();
    }
    return std::string("accepted");
  };
  EXPECT_EQ(rule_of([] { TimeFunction::Sinusoid(1.0, 0.0, 0.0, 0.0); }),
            "frequency = 0: must be > 0 and finite");
  EXPECT_EQ(rule_of([] { TimeFunction::SmoothStep1(1.0, -2.0); }),
            "period = -2: must be > 0 and finite");
  EXPECT_EQ(rule_of([] { TimeFunction::SpeedRamp(0.0, 1.0, 0.0); }),
            "ramp_time = 0: must be > 0 and finite");
  EXPECT_EQ(rule_of([] { TimeFunction::Constant(NAN); }), "value = nan: must be finite");
  EXPECT_EQ(rule_of([] {
              TimeFunction::Table({0.0, 1.0, 1.0}, {0.0, 1.0, 2.0});
            }),
            "points[2][0] = 1: times must increase strictly from row to row");
  EXPECT_EQ(rule_of([] { TimeFunction::Table({0.0}, {0.0}); }),
            "points = 1 rows: needs at least two rows (t, value)");
}

}  // namespace
}  // namespace jointdyn::time

namespace jointdyn::time {
namespace {

TEST(TimeFunction, DelayedStartsLater) {
  const TimeFunction ramp = TimeFunction::SpeedRamp(0.5, 12.0, 0.55), late = ramp.Delayed(0.05);
  for (const double t : {0.0, 0.03, 0.05, 0.2, 0.6, 0.7}) {
    EXPECT_DOUBLE_EQ(late.Value(t), ramp.Value(t - 0.05));
    EXPECT_DOUBLE_EQ(late.Rate(t), ramp.Rate(t - 0.05));
    EXPECT_DOUBLE_EQ(late.Acceleration(t), ramp.Acceleration(t - 0.05));
  }
  EXPECT_EQ(late.Value(0.0), 0.5);  // before its start: the start value
  EXPECT_THROW(ramp.Delayed(NAN), InputError);
}

}  // namespace
}  // namespace jointdyn::time
