// Scalar functions of time with their derivatives: external forces, prescribed motions,
// prescribed normal pressures and gaps of lumped-parameter models (lumped/), load factors
// of jointed structures (joint/jointed_system.h).
//
// Immutable after construction; the named constructors validate their parameters and
// throw InputError naming the parameter, value and rule (like the laws). The unit is the
// unit of what the function describes (N for forces, m for motions and gaps).
#pragma once

#include <vector>

namespace jointdyn::time {

class TimeFunction {
 public:
  enum class Kind { kConstant, kRamp, kSinusoid, kSmoothStep0, kSmoothStep1, kTable, kSpeedRamp };

  TimeFunction() = default;  // the constant 0

  // f(t) = value.
  static TimeFunction Constant(double value);
  // f(t) = value + rate t.
  static TimeFunction Ramp(double value, double rate);
  // f(t) = mean + amplitude sin(2 pi frequency t + phase); frequency [Hz] > 0, phase [rad].
  static TimeFunction Sinusoid(double amplitude, double frequency, double phase, double mean);
  // Seed 003 fig. 4.33 `force0`: a half-wave cosine step from 0 to f0 over period / 2,
  //   f = f0 / 2 (1 - cos(2 pi t / period)) for 0 <= t <= period / 2, f0 after, 0 before.
  static TimeFunction SmoothStep0(double f0, double period);
  // Seed 003 fig. 4.33 `force1`: up to f0 as force0, then down to f0 / 3,
  //   f = 2 f0 / 3 - f0 / 3 cos(2 pi t / period) for period / 2 < t <= period, f0 / 3 after.
  static TimeFunction SmoothStep1(double f0, double period);
  // Piecewise linear through (times[i], values[i]); times strictly increasing, at least two
  // points; constant (the end values) outside [times.front(), times.back()].
  static TimeFunction Table(std::vector<double> times, std::vector<double> values);
  // A prescribed angle (or position) whose rate rises from 0 to `speed` along a haversine
  // over ramp_time (> 0) and stays there (a crank run up to speed):
  //   f' = speed (1 - cos(pi t / ramp_time)) / 2 for 0 <= t <= ramp_time, speed after, 0 before;
  //   f = value + the integral of f' from 0.
  static TimeFunction SpeedRamp(double value, double speed, double ramp_time);

  // f(t - delay): the function started `delay` [s] later (finite).
  TimeFunction Delayed(double delay) const;

  Kind kind() const { return kind_; }
  double Value(double t) const;
  // df/dt; at a table knot the slope of the segment that starts there.
  double Rate(double t) const;
  // d2f/dt2 (0 on a table and at the kinks of the steps; the prescribed motions of
  // multibody constraints need it for consistent initial accelerations).
  double Acceleration(double t) const;

 private:
  Kind kind_ = Kind::kConstant;
  double value_ = 0.0;      // constant; ramp: value at t = 0; sinusoid: mean; steps: f0
  double rate_ = 0.0;       // ramp slope
  double amplitude_ = 0.0;  // sinusoid
  double omega_ = 0.0;      // sinusoid: 2 pi frequency; steps: 2 pi / period [rad/s]
  double phase_ = 0.0;      // sinusoid [rad]
  double period_ = 0.0;     // steps [s]
  double delay_ = 0.0;      // Delayed() [s]
  std::vector<double> times_, values_;
};

}  // namespace jointdyn::time
