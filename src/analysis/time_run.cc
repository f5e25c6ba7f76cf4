#include "analysis/time_run.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/error.h"

namespace jointdyn::analysis {

void ValidateIntegrator(const time::IntegratorOptions& integrator, const std::string& rule) {
  if (const Status status = integrator.Validate(); !status)
    throw InputError("integrator", "", status.message);
  if (integrator.energy_conserving) throw InputError("integrator.energy_conserving", "true", rule);
}

std::string EnergyGainWarning(const time::EnergyBalance& e, double t) {
  const double scale = std::max({std::abs(e.external_work), e.kinetic + e.stored, 1e-12});
  if (!(e.law_dissipation < -1e-3 * scale)) return "";
  char figures[96];
  std::snprintf(figures, sizeof figures, "%.3g J by t = %.6g s (%.2g %% of the energy)",
                -e.law_dissipation, t, -100.0 * e.law_dissipation / scale);
  return std::string("the springs, dampers and joint laws gained ") + figures +
         ": a numerical instability of stiff contact is building up; use more numerical damping "
         "(integrator.alpha = -0.3) or smaller steps";
}

void WatchEnergy(const time::StepRecord& step, Observer& observer,
                 std::vector<std::string>& warnings) {
  if (!warnings.empty() || !step.energy) return;
  if (std::string warning = EnergyGainWarning(*step.energy, step.t); !warning.empty()) {
    observer.Note(warning);
    warnings.push_back(std::move(warning));
  }
}

}  // namespace jointdyn::analysis
