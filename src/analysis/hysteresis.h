// The hysteresis analysis: one contact point of an interface law driven along a slip path
// (and a gap path or a constant pressure): its traction-slip loop, the dissipation per
// cycle and the secant stiffness (laws/hysteresis.h), and optionally the dissipation per
// cycle over an amplitude sweep with its log-log slope (microslip: 2 < slope < 3,
// macroslip: 1).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "analysis/observer.h"
#include "core/status.h"
#include "laws/hysteresis.h"

namespace jointdyn::analysis {

struct HysteresisOptions {
  std::string title;
  std::shared_ptr<const laws::TangentialLaw> law;  // null: the normal law alone
  std::shared_ptr<const laws::NormalLaw> normal;   // null: constant loop.pressure
  // The path, the gap or pressure, post-Newton switching; its law pointers are set from
  // `law` and `normal` by the run.
  laws::HysteresisOptions loop;
  std::vector<double> sweep;  // slip amplitudes [m], > 0; empty: no sweep
  // The unit of the traction in plots: "Pa" (per area), "N" (point and Iwan laws).
  std::string traction_unit = "Pa";

  // Throws InputError naming the option ("law", "path", "sweep") for a set that cannot run.
  void Validate() const;
  // "coulomb", "coulomb + linear", "linear".
  std::string LawName() const;
};

struct HysteresisResult {
  Status status;                // failure: what and where (the loop's samples so far kept)
  laws::HysteresisResult loop;  // samples, dissipation per cycle, secant stiffness
  laws::SweepResult sweep;      // empty without a sweep
  double wall_seconds = 0.0;
};

// Progress: the sweep's amplitudes ("amplitude sweep").
HysteresisResult RunHysteresis(const HysteresisOptions& options, Observer& observer);

}  // namespace jointdyn::analysis
