#include "time/time_function.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/error.h"

namespace jointdyn::time {
namespace {

void Require(bool ok, const std::string& key, double value, const char* rule) {
  if (!ok) throw InputError(key, FormatValue(value), rule);
}
void RequireFinite(const char* key, double value) {
  Require(std::isfinite(value), key, value, "must be finite");
}
void RequirePositive(const char* key, double value) {
  Require(value > 0.0 && std::isfinite(value), key, value, "must be > 0 and finite");
}

}  // namespace

TimeFunction TimeFunction::Constant(double value) {
  RequireFinite("value", value);
  TimeFunction f;
  f.value_ = value;
  return f;
}

TimeFunction TimeFunction::Ramp(double value, double rate) {
  RequireFinite("value", value);
  RequireFinite("rate", rate);
  TimeFunction f;
  f.kind_ = Kind::kRamp;
  f.value_ = value;
  f.rate_ = rate;
  return f;
}

TimeFunction TimeFunction::Sinusoid(double amplitude, double frequency, double phase, double mean) {
  RequireFinite("amplitude", amplitude);
  RequirePositive("frequency", frequency);
  RequireFinite("phase", phase);
  RequireFinite("mean", mean);
  TimeFunction f;
  f.kind_ = Kind::kSinusoid;
  f.amplitude_ = amplitude;
  f.omega_ = 2.0 * M_PI * frequency;
  f.phase_ = phase;
  f.value_ = mean;
  return f;
}

TimeFunction TimeFunction::SmoothStep0(double f0, double period) {
  RequireFinite("f0", f0);
  RequirePositive("period", period);
  TimeFunction f;
  f.kind_ = Kind::kSmoothStep0;
  f.value_ = f0;
  f.period_ = period;
  f.omega_ = 2.0 * M_PI / period;
  return f;
}

TimeFunction TimeFunction::SmoothStep1(double f0, double period) {
  TimeFunction f = SmoothStep0(f0, period);
  f.kind_ = Kind::kSmoothStep1;
  return f;
}

TimeFunction TimeFunction::Table(std::vector<double> times, std::vector<double> values) {
  if (times.size() < 2 || times.size() != values.size())
    throw InputError("points", std::to_string(times.size()) + " rows",
                     "needs at least two rows (t, value)");
  for (size_t i = 0; i < times.size(); ++i) {
    const std::string row = "points[" + std::to_string(i) + "]";
    Require(std::isfinite(times[i]), row + "[0]", times[i], "must be finite");
    Require(std::isfinite(values[i]), row + "[1]", values[i], "must be finite");
    if (i > 0)
      Require(times[i] > times[i - 1], row + "[0]", times[i],
              "times must increase strictly from row to row");
  }
  TimeFunction f;
  f.kind_ = Kind::kTable;
  f.times_ = std::move(times);
  f.values_ = std::move(values);
  return f;
}

TimeFunction TimeFunction::SpeedRamp(double value, double speed, double ramp_time) {
  RequireFinite("value", value);
  RequireFinite("speed", speed);
  RequirePositive("ramp_time", ramp_time);
  TimeFunction f;
  f.kind_ = Kind::kSpeedRamp;
  f.value_ = value;
  f.rate_ = speed;
  f.period_ = ramp_time;
  f.omega_ = M_PI / ramp_time;
  return f;
}

TimeFunction TimeFunction::Delayed(double delay) const {
  if (!std::isfinite(delay)) throw InputError("delay", FormatValue(delay), "must be finite");
  TimeFunction f = *this;
  f.delay_ += delay;
  return f;
}

double TimeFunction::Value(double t) const {
  t -= delay_;
  switch (kind_) {
    case Kind::kConstant:
      return value_;
    case Kind::kRamp:
      return value_ + rate_ * t;
    case Kind::kSinusoid:
      return value_ + amplitude_ * std::sin(omega_ * t + phase_);
    case Kind::kSmoothStep0:
    case Kind::kSmoothStep1:
      if (t <= 0.0) return 0.0;
      if (t <= 0.5 * period_) return 0.5 * value_ * (1.0 - std::cos(omega_ * t));
      if (kind_ == Kind::kSmoothStep0) return value_;
      if (t <= period_) return value_ / 3.0 * (2.0 - std::cos(omega_ * t));
      return value_ / 3.0;
    case Kind::kTable: {
      if (t <= times_.front()) return values_.front();
      if (t >= times_.back()) return values_.back();
      const size_t i = std::upper_bound(times_.begin(), times_.end(), t) - times_.begin() - 1;
      const double w = (t - times_[i]) / (times_[i + 1] - times_[i]);
      return (1.0 - w) * values_[i] + w * values_[i + 1];
    }
    case Kind::kSpeedRamp:
      if (t <= 0.0) return value_;
      if (t <= period_) return value_ + 0.5 * rate_ * (t - std::sin(omega_ * t) / omega_);
      return value_ + rate_ * (t - 0.5 * period_);
  }
  return 0.0;
}

double TimeFunction::Rate(double t) const {
  t -= delay_;
  switch (kind_) {
    case Kind::kConstant:
      return 0.0;
    case Kind::kRamp:
      return rate_;
    case Kind::kSinusoid:
      return amplitude_ * omega_ * std::cos(omega_ * t + phase_);
    case Kind::kSmoothStep0:
    case Kind::kSmoothStep1:
      if (t <= 0.0) return 0.0;
      if (t <= 0.5 * period_) return 0.5 * value_ * omega_ * std::sin(omega_ * t);
      if (kind_ == Kind::kSmoothStep1 && t <= period_)
        return value_ / 3.0 * omega_ * std::sin(omega_ * t);
      return 0.0;
    case Kind::kTable: {
      if (t < times_.front() || t >= times_.back()) return 0.0;
      const size_t i = std::upper_bound(times_.begin(), times_.end(), t) - times_.begin() - 1;
      return (values_[i + 1] - values_[i]) / (times_[i + 1] - times_[i]);
    }
    case Kind::kSpeedRamp:
      if (t <= 0.0) return 0.0;
      if (t <= period_) return 0.5 * rate_ * (1.0 - std::cos(omega_ * t));
      return rate_;
  }
  return 0.0;
}

double TimeFunction::Acceleration(double t) const {
  t -= delay_;
  switch (kind_) {
    case Kind::kConstant:
    case Kind::kRamp:
    case Kind::kTable:
      return 0.0;
    case Kind::kSinusoid:
      return -amplitude_ * omega_ * omega_ * std::sin(omega_ * t + phase_);
    case Kind::kSmoothStep0:
    case Kind::kSmoothStep1:
      if (t <= 0.0) return 0.0;
      if (t <= 0.5 * period_) return 0.5 * value_ * omega_ * omega_ * std::cos(omega_ * t);
      if (kind_ == Kind::kSmoothStep1 && t <= period_)
        return value_ / 3.0 * omega_ * omega_ * std::cos(omega_ * t);
      return 0.0;
    case Kind::kSpeedRamp:
      if (t <= 0.0 || t > period_) return 0.0;
      return 0.5 * rate_ * omega_ * std::sin(omega_ * t);
  }
  return 0.0;
}

}  // namespace jointdyn::time
