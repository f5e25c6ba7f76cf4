#include "solvers/eigen_solver.h"

#include <Spectra/MatOp/SparseSymMatProd.h>
#include <Spectra/SymGEigsShiftSolver.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <string>

#include "core/clock.h"
#include "core/error.h"
#include "solvers/option_check.h"
#include "solvers/sparse_cholesky.h"

namespace jointdyn::solvers {
namespace {

// y = (K - sigma M)^-1 x through the Cholesky factor (Spectra's shift-invert operation):
// either a factor of its own, made when Spectra sets the shift, or one the caller made.
class ShiftInvert {
 public:
  using Scalar = double;
  // Factors K - sigma M itself when Spectra sets the shift.
  ShiftInvert(const SparseMatrix& k, const SparseMatrix& m) : k_(&k), m_(&m), factor_(&owned_) {}
  // Uses `factor` (of K - sigma M for the solver's sigma, made by the caller).
  explicit ShiftInvert(const SparseCholesky& factor) : factor_(&factor) {}

  Eigen::Index rows() const { return factor_->factored() ? factor_->size() : k_->rows(); }
  Eigen::Index cols() const { return rows(); }
  // Spectra sets the shift once, in the solver's constructor.
  void set_shift(double sigma) {
    if (k_ == nullptr) return;  // the caller's factor
    const auto start = Clock::now();
    SparseMatrix shifted = *k_ - sigma * *m_;
    shifted.makeCompressed();
    status_ = owned_.Factor(shifted);
    factor_seconds_ = Seconds(start);
  }
  void perform_op(const double* x_in, double* y_out) const {
    ++applications_;
    if (!status_) {  // the solver is abandoned after the constructor; keep it finite
      std::fill(y_out, y_out + rows(), 0.0);
      return;
    }
    const Eigen::Map<const VecX> x(x_in, rows());
    Eigen::Map<VecX>(y_out, rows()) = factor_->Solve(VecX(x));
  }

  const Status& status() const { return status_; }
  int applications() const { return applications_; }
  double factor_seconds() const { return factor_seconds_; }

 private:
  const SparseMatrix* k_ = nullptr;  // null: the caller's factor
  const SparseMatrix* m_ = nullptr;
  SparseCholesky owned_;
  const SparseCholesky* factor_;
  Status status_;
  mutable int applications_ = 0;
  double factor_seconds_ = 0.0;
};

// The Lanczos iteration on `op` (size n) with the mass matrix, after the checks.
EigenResult RunLanczos(ShiftInvert& op, const SparseMatrix& mass, const EigenOptions& options) {
  EigenResult result;
  if (result.status = options.Validate(); !result.status) return result;
  const int n = static_cast<int>(mass.rows());
  if (options.count >= n) {
    result.status =
        Status::Failure("eigen.count = " + std::to_string(options.count) +
                        ": must be below the number of DOFs (" + std::to_string(n) + ")");
    return result;
  }
  const int ncv =
      std::min(n, options.subspace > 0 ? options.subspace : std::max(2 * options.count + 1, 20));
  Spectra::SparseSymMatProd<double> mass_op(mass);
  const auto start = Clock::now();
  Spectra::SymGEigsShiftSolver<ShiftInvert, Spectra::SparseSymMatProd<double>,
                               Spectra::GEigsMode::ShiftInvert>
      solver(op, mass_op, options.count, ncv, options.shift);
  result.factor_seconds = op.factor_seconds();
  if (!op.status()) {
    result.status = Status::Failure("eigenvalues above the shift " + FormatValue(options.shift) +
                                    ": K - shift M: " + op.status().message +
                                    " (for a free structure use a negative shift)");
    return result;
  }
  try {
    solver.init();
    // Largest |nu| of nu = 1 / (lambda - sigma): the eigenvalues nearest the shift.
    result.converged =
        static_cast<int>(solver.compute(Spectra::SortRule::LargestMagn, options.max_iterations,
                                        options.tolerance, Spectra::SortRule::SmallestAlge));
  } catch (const std::exception& e) {  // Spectra reports breakdowns by exceptions
    result.status = Status::Failure(std::string("the eigensolver failed above the shift ") +
                                    FormatValue(options.shift) + ": " + e.what() +
                                    " (K - shift M nearly singular? for a free structure use a "
                                    "negative shift)");
    return result;
  }
  result.solve_seconds = Seconds(start) - result.factor_seconds;
  result.operator_applications = op.applications();
  if (solver.info() != Spectra::CompInfo::Successful) {
    result.status = Status::Failure(
        "the eigensolver converged " + std::to_string(result.converged) + " of " +
        std::to_string(options.count) + " eigenpairs in " + std::to_string(options.max_iterations) +
        " restarts (raise eigen.max_iterations or eigen.subspace)");
    return result;
  }
  result.values = solver.eigenvalues();
  result.vectors = solver.eigenvectors();
  return result;
}

}  // namespace

Status EigenOptions::Validate() const {
  for (const Status& status :
       {CheckOption(count >= 1, "eigen.count", count, "must be >= 1"),
        CheckOption(subspace == 0 || subspace > count, "eigen.subspace", subspace,
                    "must be 0 (automatic) or > count"),
        CheckOption(std::isfinite(shift), "eigen.shift", shift, "must be finite"),
        CheckOption(tolerance > 0.0 && tolerance < 1.0, "eigen.tolerance", tolerance,
                    "must be in (0, 1)"),
        CheckOption(max_iterations >= 1, "eigen.max_iterations", max_iterations, "must be >= 1")}) {
    if (!status) return status;
  }
  return Status::Ok();
}

EigenResult SolveGeneralizedEigen(const SparseMatrix& stiffness, const SparseMatrix& mass,
                                  const EigenOptions& options) {
  const int n = static_cast<int>(stiffness.rows());
  JD_CHECK(stiffness.cols() == n && mass.rows() == n && mass.cols() == n,
           "SolveGeneralizedEigen: K and M must be square and of the same size");
  ShiftInvert op(stiffness, mass);
  return RunLanczos(op, mass, options);
}

EigenResult SolveGeneralizedEigen(const SparseCholesky& shifted, const SparseMatrix& mass,
                                  const EigenOptions& options) {
  JD_CHECK(shifted.factored() && mass.rows() == shifted.size() && mass.cols() == shifted.size(),
           "SolveGeneralizedEigen: factor K - shift M first; M of the same size");
  ShiftInvert op(shifted);
  return RunLanczos(op, mass, options);
}

}  // namespace jointdyn::solvers
