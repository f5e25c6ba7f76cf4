// Amplitude-dependent frequency and damping ratio identified from a free decay (a "ring-
// down") of one signal, by peak fitting: the extrema of the sampled signal (refined by the
// parabola through the sample and its neighbours), made alternating (of two neighbouring
// maxima the larger is kept, of two minima the smaller), then per window of two extrema
// pairs one period apart (extrema i .. i + 3, one window per half period):
//   half-amplitudes  H_i = |y_i - y_i+1| / 2,  H_i+2 = |y_i+2 - y_i+3| / 2  (a static
//                    offset, e.g. where friction holds the structure, drops out),
//   period           T = t_i+2 - t_i,
//   log decrement    delta = ln(H_i / H_i+2),  D = delta / sqrt(4 pi^2 + delta^2),
//   frequency        the undamped one, f = 1 / (T sqrt(1 - D^2)) (what EPMC and the
//                    quasi-static route give), at the amplitude sqrt(H_i H_i+2).
// For a linear viscous decay y = C e^(-D w t) cos(w_d t + p) the extrema are T_d / 2 apart
// and both D and f are exact (up to the extrema's sampling); for a joint they are the
// frequency and damping of the current period's motion (the equivalent-linear ones).
#pragma once

#include <array>
#include <vector>

namespace jointdyn::analysis {

struct RingDownPoint {
  double amplitude = 0.0;         // [unit of the signal]
  double frequency = 0.0;         // [Hz]
  double damping_ratio = 0.0;     // [-]
  std::array<double, 4> times{};  // of the window's extrema i .. i + 3 [s]
};

// The same window's amplitude sqrt(H_i H_i+2) of another signal sampled at `time`, its
// values at the point's extrema times interpolated linearly (a signal in or against
// phase with the identified one: another DOF of the same mode).
double AmplitudeAt(const RingDownPoint& point, const std::vector<double>& time,
                   const std::vector<double>& signal);

// The points in the order of the decay (falling amplitude); none with fewer than four
// extrema. `time` ascending [s], one sample of `signal` each.
std::vector<RingDownPoint> IdentifyRingDown(const std::vector<double>& time,
                                            const std::vector<double>& signal);

}  // namespace jointdyn::analysis
