#include "laws/hysteresis.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>

namespace jointdyn::laws {

void SlipPath::Sample(std::vector<double>& time, std::vector<Vec2>& slip) const {
  time.clear();
  slip.clear();
  if (kind == PathKind::kTable) {
    time = table_time;
    slip = table_slip;
    return;
  }
  const int n = cycles * samples_per_cycle;
  for (int i = 0; i <= n; ++i) {
    const double t = static_cast<double>(i) / (samples_per_cycle * frequency);
    const double phase = 2.0 * M_PI * i / samples_per_cycle;
    time.push_back(t);
    if (kind == PathKind::kSinusoid)
      slip.emplace_back(amplitude_x * std::sin(phase), amplitude_y * std::sin(phase));
    else
      slip.emplace_back(amplitude_x * std::sin(phase), amplitude_y * std::cos(phase));
  }
}

SlipPath SlipPath::Scaled(double factor) const {
  SlipPath scaled = *this;
  scaled.amplitude_x *= factor;
  scaled.amplitude_y *= factor;
  for (Vec2& s : scaled.table_slip) s *= factor;
  return scaled;
}

namespace {

std::string Where(const HysteresisSample& sample, size_t index, int samples_per_cycle) {
  std::ostringstream out;
  out << "at t = " << sample.time << " s (sample " << index;
  if (samples_per_cycle > 0) out << ", cycle " << index / samples_per_cycle + 1;
  out << ")";
  return out.str();
}

}  // namespace

HysteresisResult RunHysteresis(const HysteresisOptions& options) {
  HysteresisResult result;
  std::vector<double> time;
  std::vector<Vec2> slip;
  options.path.Sample(time, slip);
  const bool periodic = options.path.kind != PathKind::kTable;
  const double omega = 2.0 * M_PI * options.path.frequency;
  const GapPath& gap = options.gap;

  std::optional<LawPoint> point;
  if (options.law) point.emplace(*options.law);
  HysteresisSample previous;  // the virgin state just before the first sample
  previous.time = time.empty() ? 0.0 : time.front();
  if (options.normal) {
    previous.gap =
        gap.table.empty() ? gap.mean + gap.amplitude * std::sin(gap.phase) : gap.table.front();
    const NormalResponse n = options.normal->Evaluate(previous.gap, 0.0);
    previous.pressure = n.pressure;
    previous.stored_energy = n.stored_energy;
  }
  const double first_dt = time.size() > 1
                              ? time[1] - time[0]
                              : 1.0 / (options.path.samples_per_cycle * options.path.frequency);
  for (size_t i = 0; i < time.size(); ++i) {
    HysteresisSample sample;
    sample.time = time[i];
    sample.slip = slip[i];
    sample.pressure = options.pressure;
    double normal_energy = 0.0;
    if (options.normal) {
      double gap_rate;
      if (gap.table.empty()) {
        const double phase = omega * time[i] + gap.phase;
        sample.gap = gap.mean + gap.amplitude * std::sin(phase);
        gap_rate = gap.amplitude * omega * std::cos(phase);
      } else {
        sample.gap = gap.table[i];
        gap_rate = i == 0 ? 0.0 : (gap.table[i] - gap.table[i - 1]) / (time[i] - time[i - 1]);
      }
      const NormalResponse n = options.normal->Evaluate(sample.gap, gap_rate);
      sample.pressure = n.pressure;
      normal_energy = n.stored_energy;
      if (!std::isfinite(n.pressure) || !std::isfinite(n.stored_energy)) {
        std::ostringstream out;
        out << options.normal->type() << " normal law gave a non-finite pressure at gap "
            << sample.gap << " m "
            << Where(sample, i, periodic ? options.path.samples_per_cycle : 0);
        result.status = Status::Failure(out.str());
        break;
      }
    }
    sample.stored_energy = normal_energy;
    if (point) {
      const double dt = i == 0 ? first_dt : time[i] - time[i - 1];
      TangentialResponse r;
      const Status status = point->Step({sample.slip, sample.pressure, dt}, r, options.post_newton);
      if (!status || !r.traction.allFinite()) {
        result.status =
            Status::Failure(std::string(options.law->type()) + " law failed " +
                            Where(sample, i, periodic ? options.path.samples_per_cycle : 0) + ": " +
                            (status ? "non-finite traction" : status.message));
        break;
      }
      sample.traction = r.traction;
      sample.state = r.state;
      sample.stored_energy += r.stored_energy;
    }
    sample.work = previous.work +
                  0.5 * (previous.traction + sample.traction).dot(sample.slip - previous.slip) -
                  0.5 * (previous.pressure + sample.pressure) * (sample.gap - previous.gap);
    result.max_traction = std::max(result.max_traction, sample.traction.norm());
    result.samples.push_back(sample);
    previous = sample;
  }
  if (!result.status || result.samples.empty()) return result;

  const auto& s = result.samples;
  const int per_cycle = periodic ? options.path.samples_per_cycle : int(s.size()) - 1;
  const int cycles = periodic ? options.path.cycles : 1;
  for (int k = 0; k < cycles; ++k) {
    const HysteresisSample& a = s[k * per_cycle];
    const HysteresisSample& b = s[(k + 1) * per_cycle];
    result.dissipation_per_cycle.push_back((b.work - a.work) - (b.stored_energy - a.stored_energy));
  }
  // Secant stiffness of the last cycle along x.
  const auto begin = s.end() - (per_cycle + 1);
  const auto [lo, hi] = std::minmax_element(
      begin, s.end(), [](const auto& x, const auto& y) { return x.slip.x() < y.slip.x(); });
  const double span = hi->slip.x() - lo->slip.x();
  if (span > 0.0) result.secant_stiffness = (hi->traction.x() - lo->traction.x()) / span;
  return result;
}

SweepResult RunAmplitudeSweep(const HysteresisOptions& options,
                              const std::vector<double>& amplitudes,
                              const std::function<void(int, int)>& progress) {
  SweepResult sweep;
  double reference = options.path.amplitude_x;
  if (options.path.kind == PathKind::kTable)
    for (const Vec2& s : options.path.table_slip) reference = std::max(reference, s.norm());
  if (reference <= 0.0) {
    sweep.status = Status::Failure("amplitude sweep needs a path with a nonzero x amplitude");
    return sweep;
  }
  for (size_t i = 0; i < amplitudes.size(); ++i) {
    HysteresisOptions scaled = options;
    scaled.path = options.path.Scaled(amplitudes[i] / reference);
    const HysteresisResult r = RunHysteresis(scaled);
    if (!r.status) {
      std::ostringstream out;
      out << "amplitude " << amplitudes[i] << " m: " << r.status.message;
      sweep.status = Status::Failure(out.str());
      return sweep;
    }
    sweep.amplitude.push_back(amplitudes[i]);
    // Dissipation below round-off of the loop work counts as none (pure stick).
    const double d = r.dissipation_per_cycle.back();
    sweep.dissipation.push_back(d > 1e-9 * r.max_traction * amplitudes[i] ? d : 0.0);
    sweep.secant_stiffness.push_back(r.secant_stiffness);
    if (progress) progress(int(i) + 1, int(amplitudes.size()));
  }
  // Least-squares line through (log A, log D) over the points with D > 0.
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (size_t i = 0; i < sweep.amplitude.size(); ++i) {
    if (sweep.dissipation[i] <= 0.0) continue;
    const double x = std::log(sweep.amplitude[i]), y = std::log(sweep.dissipation[i]);
    n += 1;
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  const double denominator = n * sxx - sx * sx;
  if (n < 2 || denominator <= 0.0) {
    sweep.status = Status::Failure(
        "cannot fit the dissipation slope: fewer than two distinct amplitudes dissipate energy");
    return sweep;
  }
  sweep.slope = (n * sxy - sx * sy) / denominator;
  sweep.intercept = (sy - sweep.slope * sx) / n;
  return sweep;
}

}  // namespace jointdyn::laws
