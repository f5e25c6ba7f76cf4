// What the time-domain analyses of multibody systems and cables share (multibody.h,
// belt_drive.h): the check of their integrator options and the watch on the energy balance.
#pragma once

#include <string>
#include <vector>

#include "analysis/observer.h"
#include "time/integrator.h"

namespace jointdyn::analysis {

// Throws InputError at `integrator` for options that cannot run, and at
// integrator.energy_conserving with `rule` ("is not available for ..") when it is asked for.
void ValidateIntegrator(const time::IntegratorOptions& integrator, const std::string& rule);

// A warning when the dissipation of the springs, dampers and joint laws has turned negative
// beyond 0.1 % of the energy at time t [s] (they gained energy: a numerical instability of
// stiff contact with little numerical damping building up, which ends in a blow-up); empty
// otherwise.
std::string EnergyGainWarning(const time::EnergyBalance& energy, double t);

// At each recorded step: the first EnergyGainWarning of the run, given to the observer as a
// note and kept in `warnings`.
void WatchEnergy(const time::StepRecord& step, Observer& observer,
                 std::vector<std::string>& warnings);

}  // namespace jointdyn::analysis
