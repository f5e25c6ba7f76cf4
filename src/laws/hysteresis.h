// Hysteresis analysis: drive an interface law with a prescribed relative displacement
// and measure its loop (dissipated energy per cycle, secant stiffness), optionally over
// a sweep of amplitudes with the fitted log-log slope of dissipation against amplitude.
#pragma once

#include <functional>
#include <vector>

#include "core/status.h"
#include "core/types.h"
#include "laws/law_point.h"
#include "laws/normal_law.h"
#include "laws/tangential_law.h"

namespace jointdyn::laws {

enum class PathKind {
  kSinusoid,  // s = A_x sin(2 pi f t) along x (and A_y sin(...) along y when A_y != 0)
  kEllipse,   // s = (A_x sin(2 pi f t), A_y cos(2 pi f t)); a circle when A_x == A_y
  kTable,     // piecewise-linear s(t) through given points
};

struct SlipPath {
  PathKind kind = PathKind::kSinusoid;
  double amplitude_x = 0.0;        // [m]
  double amplitude_y = 0.0;        // [m]
  double frequency = 1.0;          // [Hz], > 0
  int cycles = 1;                  // number of periods, >= 1
  int samples_per_cycle = 400;     // >= 8
  std::vector<double> table_time;  // [s], strictly increasing (kTable)
  std::vector<Vec2> table_slip;    // [m] (kTable)

  // Sample times and slips of the whole path (the first sample is t = 0).
  void Sample(std::vector<double>& time, std::vector<Vec2>& slip) const;
  // Scales the amplitudes (or table slips) by `factor`.
  SlipPath Scaled(double factor) const;
};

// Normal gap g(t) = mean + amplitude sin(2 pi f t + phase) with the path frequency f, or,
// when `table` is not empty, the gap at each sample of a table slip path (same length).
struct GapPath {
  double mean = 0.0;          // [m]
  double amplitude = 0.0;     // [m]
  double phase = 0.0;         // [rad]
  std::vector<double> table;  // [m]; gap rate by backward differences
};

struct HysteresisOptions {
  const TangentialLaw* law = nullptr;  // may be null when only a normal law is driven
  const NormalLaw* normal = nullptr;   // null: constant pressure
  double pressure = 0.0;               // constant normal pressure when normal == null [Pa]
  SlipPath path;
  GapPath gap;  // used with a normal law
  PostNewtonOptions post_newton;
};

struct HysteresisSample {
  double time = 0.0;
  Vec2 slip = Vec2::Zero();
  Vec2 traction = Vec2::Zero();
  double gap = 0.0;
  double pressure = 0.0;
  ContactState state = ContactState::kStick;
  double stored_energy = 0.0;  // tangential + normal [J/m^2]
  double work = 0.0;           // cumulative work done on the interface [J/m^2]
};

struct HysteresisResult {
  Status status;  // failure: where and why; samples so far are kept
  std::vector<HysteresisSample> samples;
  std::vector<double> dissipation_per_cycle;  // work minus change of stored energy [J/m^2]
  double secant_stiffness = 0.0;              // last cycle, along x: delta tau_x / delta s_x [Pa/m]
  double max_traction = 0.0;                  // max |tau| [Pa]
  int evaluations = 0;                        // law evaluations (post-Newton passes included)
};

HysteresisResult RunHysteresis(const HysteresisOptions& options);

struct SweepResult {
  Status status;
  std::vector<double> amplitude;    // [m]
  std::vector<double> dissipation;  // last-cycle dissipation per amplitude [J/m^2]
  std::vector<double> secant_stiffness;
  double slope = 0.0;      // least-squares slope of log D against log A
  double intercept = 0.0;  // log D = intercept + slope log A
};

// Runs the analysis at each amplitude (path scaled so that amplitude_x equals it).
// `progress(done, total)` is called after each amplitude.
SweepResult RunAmplitudeSweep(const HysteresisOptions& options,
                              const std::vector<double>& amplitudes,
                              const std::function<void(int, int)>& progress = {});

}  // namespace jointdyn::laws
