// The modal analysis of an FE model: the model assembled, its contact surfaces paired, and
// optionally its lowest eigenfrequencies and mode shapes (solvers/eigen_solver.h) on the
// free DOFs of its DofMap.
#pragma once

#include <string>
#include <vector>

#include "analysis/observer.h"
#include "core/status.h"
#include "fe/fe_model.h"
#include "solvers/eigen_solver.h"

namespace jointdyn::analysis {

struct ModalOptions {
  std::string title;
  fe::FeModelSpec fe;
  int mode_count = 0;                 // eigenpairs wanted (0: none)
  double shift_frequency = -1.0;      // [Hz] signed: sigma = sign(f) (2 pi f)^2
  bool export_matrix_market = false;  // K and M as Matrix Market files (for the report)
};

struct ModalResult {
  Status status;                       // the eigen solver's failure
  fe::FeModel model;                   // mesh, K, M, DofMap, contact pairs
  solvers::EigenResult eigen;          // eigenvalues omega^2 [rad^2/s^2], vectors on the free DOFs
  std::vector<double> frequencies_hz;  // SignedFrequency of each eigenvalue
  double eigen_seconds = 0.0;
  double wall_seconds = 0.0;
};

// The eigenvalue shift sigma [rad^2/s^2] of a signed shift frequency [Hz].
double ShiftEigenvalue(double shift_frequency);
// The signed frequency [Hz] of an eigenvalue lambda = omega^2: sign(lambda) sqrt|lambda| / 2 pi
// (a slightly negative rigid-body eigenvalue gives a small negative frequency, not NaN).
double SignedFrequency(double eigenvalue);

// Throws InputError at "modes" when mode_count is not below the free DOFs. Progress: the FE
// model's stages, "eigenpairs".
ModalResult RunModal(const ModalOptions& options, Observer& observer);

}  // namespace jointdyn::analysis
