#include "analysis/modal.h"

#include <cmath>
#include <numbers>

#include "analysis/fe_setup.h"
#include "core/clock.h"
#include "core/error.h"

namespace jointdyn::analysis {

double ShiftEigenvalue(double shift_frequency) {
  const double omega = 2.0 * std::numbers::pi * shift_frequency;
  return std::copysign(omega * omega, shift_frequency);
}

double SignedFrequency(double eigenvalue) {
  return std::copysign(std::sqrt(std::abs(eigenvalue)), eigenvalue) / (2.0 * std::numbers::pi);
}

ModalResult RunModal(const ModalOptions& options, Observer& observer) {
  const Clock::time_point start = Clock::now();
  ModalResult result;
  result.model = BuildModel(options.fe, observer);
  const fe::FeModel& model = result.model;
  const int free = model.dofs->num_free_dofs();
  if (options.mode_count >= free)
    throw InputError("modes", std::to_string(options.mode_count),
                     "count must be < the free DOFs (" + std::to_string(free) + ")");
  CheckEigenMemory("modes", options.mode_count, free);
  if (options.mode_count > 0) {
    const Clock::time_point eigen_start = Clock::now();
    observer.Progress("eigenpairs", 0, 1);
    solvers::EigenOptions eigen;
    eigen.count = options.mode_count;
    eigen.shift = ShiftEigenvalue(options.shift_frequency);
    result.eigen =
        solvers::SolveGeneralizedEigen(model.ReducedStiffness(), model.ReducedMass(), eigen);
    result.eigen_seconds = Seconds(eigen_start);
    observer.Progress("eigenpairs", 1, 1);
    result.status = result.eigen.status;
  }
  for (const double lambda : result.eigen.values)
    result.frequencies_hz.push_back(SignedFrequency(lambda));
  result.wall_seconds = Seconds(start);
  return result;
}

}  // namespace jointdyn::analysis
