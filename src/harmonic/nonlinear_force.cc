#include "harmonic/nonlinear_force.h"

#include <Eigen/QR>
#include <cmath>
#include <numbers>
#include <string>
#include <utility>

#include "core/error.h"
#include "solvers/option_check.h"

namespace jointdyn::harmonic {
namespace {

using solvers::CheckOption;

// Relative step of the forward difference in omega for dt-dependent kernels: truncation
// about 1e-7 relative, rounding about 1e-9, closure about closure_tolerance / 1e-7.
constexpr double kOmegaStep = 1e-7;
// Relative step of the central differences in the history and the inputs.
constexpr double kHistoryStep = 1e-6;
// Periods marched before shooting on the start history, and the rank tolerance of
// I - Phi (Phi's eigenvalue 1 of a stuck contact: every start is periodic there).
constexpr int kShootAfter = 3;
constexpr double kShootRankTolerance = 1e-10;

// The force scale of the closure test (MarchOptions): the largest variation of a force
// component over the period, at least 1e-6 of the largest force.
double ClosureScale(const MatX& force) {
  const double range = (force.colwise().maxCoeff() - force.colwise().minCoeff()).maxCoeff();
  return std::max(range, 1e-6 * force.cwiseAbs().maxCoeff());
}

}  // namespace

Status MarchOptions::Validate() const {
  for (const Status& status : {
           CheckOption(closure_tolerance > 0.0 && closure_tolerance < 1.0,
                       "harmonic.closure_tolerance", closure_tolerance, "must be in (0, 1)"),
           CheckOption(jacobian_tolerance > 0.0 && jacobian_tolerance < 1.0,
                       "harmonic.jacobian_tolerance", jacobian_tolerance, "must be in (0, 1)"),
           CheckOption(max_periods >= 2, "harmonic.max_periods", max_periods, "must be >= 2"),
       }) {
    if (!status) return status;
  }
  return Status::Ok();
}

Status NonlinearForce::RateJacobian(Aft&, double, const MatX&, MatX&) {
  JD_CHECK(false, "NonlinearForce::RateJacobian called on a force without rate dependence");
  return Status::Ok();
}

MarchedForce::MarchedForce(std::unique_ptr<PointKernel> kernel, const MarchOptions& options)
    : kernel_(std::move(kernel)), options_(options) {
  JD_CHECK(kernel_ != nullptr, "MarchedForce needs a kernel");
  JD_CHECK(kernel_->num_inputs() >= 1 && kernel_->num_inputs() <= kMaxKernelInputs,
           "MarchedForce: kernel inputs out of range");
  const Status status = options_.Validate();
  JD_CHECK(status.ok, "MarchedForce: invalid options: " + status.message);
}

Status MarchedForce::March(Aft& aft, double omega, const MatX& x, bool jacobian_rows) {
  const int n = aft.num_samples();
  const int nc = aft.num_coefficients();
  const int nin = kernel_->num_inputs();
  const int states = kernel_->state_size();
  const int m = nc * nin;  // unknowns X; column m of the rows is omega
  JD_CHECK(x.rows() == nc && x.cols() == nin, "MarchedForce: coefficient matrix shape");
  r_.resize(n, nin);
  r_dot_.resize(n, nin);
  for (int i = 0; i < nin; ++i) {
    aft.ToTime(x.col(i), r_.col(i));
    aft.ToTimeDerivative(x.col(i), r_dot_.col(i));
  }
  r_dot_ *= omega;
  force_.resize(n, nin);
  previous_.resize(n, nin);
  if (kernel_->uses_rates()) rate_tangents_.resize(n, nin * nin);
  committed_.assign(states, 0.0);
  trial_.assign(states, 0.0);
  const MatX& e = aft.basis_samples();
  const MatX& e_dot = aft.derivative_samples();

  const bool exact = kernel_->has_history_sensitivity();
  const bool history = jacobian_rows && options_.history_sensitivity && states > 0 &&
                       (exact || states <= kMaxDifferencedHistory);
  kernel_->PeriodicStart(r_, committed_, history ? &d_start_ : nullptr);
  if (history) {
    d_history_.setZero(states, m + 1);
    if (d_start_.size() > 0) {  // the start's dependence on the samples: d r_j = E_j d X
      for (int k = 0; k < nin; ++k)
        d_history_.middleCols(k * nc, nc).noalias() = d_start_.middleCols(k * n, n) * e;
    }
  }
  if (history && !exact) {
    history_scale_.assign(states, 0.0);
    input_scale_ = r_.cwiseAbs().colwise().maxCoeff().transpose();
    rate_scale_ = r_dot_.cwiseAbs().colwise().maxCoeff().transpose();
  }

  KernelInput in;
  in.dt = 2.0 * std::numbers::pi / (omega * n);
  KernelResponse response;
  const int max_periods = states == 0 ? 1 : options_.max_periods;
  double change = 0.0, scale = 0.0;
  bool forces_closed = false;
  // Shooting on the start history (see Accelerate) for kernels with exact sensitivities.
  const bool shoot = exact && states > 0;
  for (int period = 1; period <= max_periods; ++period) {
    periods_ = period;
    const bool track = shoot && period >= kShootAfter;
    if (track) {
      period_map_.setIdentity(states, states);
      start_history_ = committed_;
      if (history) start_sensitivity_ = d_history_;
    }
    if (jacobian_rows) rows_.resize(n, nin * (m + 1));  // fully written below
    for (int j = 0; j < n; ++j) {
      in.r = r_.row(j).transpose();
      in.r_dot = r_dot_.row(j).transpose();
      if (Status status = kernel_->Evaluate(in, committed_, trial_, response); !status) {
        return Status::Failure("nonlinear force at sample " + std::to_string(j) + " of period " +
                               std::to_string(period) + ": " + status.message);
      }
      force_.row(j) = response.force.transpose();
      if (kernel_->uses_rates()) {
        for (int i = 0; i < nin; ++i) {
          for (int k = 0; k < nin; ++k)
            rate_tangents_(j, i * nin + k) = response.d_force_d_r_dot(i, k);
        }
      }
      if (jacobian_rows) {
        // Local part: K_j E_j + C_j omega E'_j; the omega column is C_j r_dot_j / omega.
        for (int i = 0; i < nin; ++i) {
          auto row = rows_.row(j).segment(i * (m + 1), m + 1);
          for (int k = 0; k < nin; ++k) {
            row.segment(k * nc, nc) = response.d_force_d_r(i, k) * e.row(j) +
                                      (omega * response.d_force_d_r_dot(i, k)) * e_dot.row(j);
          }
          row(m) = response.d_force_d_r_dot.row(i).dot(in.r_dot) / omega;
        }
      }
      if (history || track) {
        if (exact) {
          kernel_->Sensitivity(in, committed_, response, sensitivity_);
        } else {
          DifferenceSensitivity(in);
        }
      }
      // The products below write into members (noalias, no temporaries): this loop runs
      // per sample of every period of every element.
      if (track) {
        map_next_.noalias() = sensitivity_.d_history_d_history * period_map_;
        period_map_.swap(map_next_);
      }
      if (history) {
        for (int i = 0; i < nin; ++i) {
          rows_.row(j).segment(i * (m + 1), m + 1).noalias() +=
              sensitivity_.d_force_d_history.row(i) * d_history_;
        }
        d_history_next_.noalias() = sensitivity_.d_history_d_history * d_history_;
        for (int k = 0; k < nin; ++k) {
          rate_column_ = omega * sensitivity_.d_history_d_r_dot.col(k);
          d_history_next_.middleCols(k * nc, nc).noalias() +=
              sensitivity_.d_history_d_r.col(k) * e.row(j);
          d_history_next_.middleCols(k * nc, nc).noalias() += rate_column_ * e_dot.row(j);
        }
        d_history_next_.col(m).noalias() += sensitivity_.d_history_d_r_dot * (in.r_dot / omega);
        d_history_.swap(d_history_next_);
      }
      std::swap(committed_, trial_);
    }
    if (states == 0) return Status::Ok();
    if (period > 1) {
      change = (force_ - previous_).cwiseAbs().maxCoeff();
      scale = ClosureScale(force_);
      // With the Jacobian, its rows must have settled too (MarchOptions).
      const bool rows_closed =
          !jacobian_rows || (rows_ - previous_rows_).cwiseAbs().maxCoeff() <=
                                options_.jacobian_tolerance * rows_.cwiseAbs().maxCoeff();
      forces_closed = change <= options_.closure_tolerance * scale;
      if (forces_closed && rows_closed) return Status::Ok();
      if (track) Accelerate(history);
    }
    if (period == max_periods) break;  // force_ and rows_ keep the last period
    previous_.swap(force_);
    if (jacobian_rows) previous_rows_.swap(rows_);
  }
  if (forces_closed) return Status::Ok();  // the rows of the last period (MarchOptions)
  return Status::Failure("the hysteresis loop did not close within " +
                         std::to_string(options_.max_periods) +
                         " periods: force samples of the last two periods differ by " +
                         FormatValue(change) + " N (force variation " + FormatValue(scale) +
                         " N, closure tolerance " + FormatValue(options_.closure_tolerance) + ")");
}

void MarchedForce::DifferenceSensitivity(const KernelInput& in) {
  const int nin = kernel_->num_inputs();
  const int states = kernel_->state_size();
  HistorySensitivity& out = sensitivity_;
  out.d_force_d_history.setZero(nin, states);
  out.d_history_d_history.setZero(states, states);
  out.d_history_d_r.setZero(states, nin);
  out.d_history_d_r_dot.setZero(states, nin);
  perturbed_trial_[0].resize(states);
  perturbed_trial_[1].resize(states);
  // Central difference of the kernel around (committed_, in) after `perturb` moved one
  // entry by +step and -step; a failed evaluation leaves the column zero (local tangent).
  auto difference = [&](double step, auto&& perturb, auto&& store) {
    for (int side = 0; side < 2; ++side) {
      perturbed_committed_ = committed_;
      perturbed_input_ = in;
      perturb(side == 0 ? step : -step);
      if (!kernel_->Evaluate(perturbed_input_, perturbed_committed_, perturbed_trial_[side],
                             perturbed_response_[side])) {
        return;
      }
    }
    const Eigen::Map<const VecX> plus(perturbed_trial_[0].data(), states);
    const Eigen::Map<const VecX> minus(perturbed_trial_[1].data(), states);
    store((plus - minus) / (2.0 * step),
          (perturbed_response_[0].force - perturbed_response_[1].force) / (2.0 * step));
  };
  for (int i = 0; i < states; ++i) {
    history_scale_[i] = std::max(history_scale_[i], std::abs(committed_[i]));
    // Entries that never left zero take the scale of the inputs (slip-like histories).
    const double size = history_scale_[i] > 0.0 ? history_scale_[i] : input_scale_.maxCoeff();
    difference(
        kHistoryStep * (size > 0.0 ? size : 1.0),
        [&](double step) { perturbed_committed_[i] += step; },
        [&](const VecX& d_history, const KernelVec& d_force) {
          out.d_history_d_history.col(i) = d_history;
          out.d_force_d_history.col(i) = d_force;
        });
  }
  for (int k = 0; k < nin; ++k) {
    for (bool rate : {false, true}) {
      if (rate && !kernel_->uses_rates()) continue;
      const double size = rate ? rate_scale_(k) : input_scale_(k);
      difference(
          kHistoryStep * (size > 0.0 ? size : 1.0),
          [&](double step) { (rate ? perturbed_input_.r_dot : perturbed_input_.r)(k) += step; },
          [&](const VecX& d_history, const KernelVec&) {
            (rate ? out.d_history_d_r_dot : out.d_history_d_r).col(k) = d_history;
          });
    }
  }
}

Status MarchedForce::Evaluate(Aft& aft, double omega, const MatX& x, MatX& f, MatX* jacobian,
                              MatX* d_omega) {
  JD_CHECK(omega > 0.0 && std::isfinite(omega), "MarchedForce: omega must be > 0");
  const int nc = aft.num_coefficients();
  const int nin = kernel_->num_inputs();
  const int m = nc * nin;
  MatX f_shifted;
  if (d_omega != nullptr && kernel_->dt_dependent()) {
    // The dt dependence has no analytic derivative here: forward difference (done first,
    // so that the main march below leaves its samples and rows in place).
    const double step = kOmegaStep * omega;
    if (Status status = March(aft, omega + step, x, false); !status) return status;
    f_shifted.resize(nc, nin);
    for (int i = 0; i < nin; ++i) aft.ToFrequency(force_.col(i), f_shifted.col(i));
    f_shifted /= step;
  }
  const bool rows = jacobian != nullptr || (d_omega != nullptr && f_shifted.size() == 0);
  if (Status status = March(aft, omega, x, rows); !status) return status;
  f.resize(nc, nin);
  for (int i = 0; i < nin; ++i) aft.ToFrequency(force_.col(i), f.col(i));
  if (jacobian != nullptr) {
    jacobian->resize(m, m);
    for (int i = 0; i < nin; ++i) {
      for (int col = 0; col < m; ++col) {
        aft.ToFrequency(rows_.col(i * (m + 1) + col), jacobian->col(col).segment(i * nc, nc));
      }
    }
  }
  if (d_omega != nullptr) {
    d_omega->resize(nc, nin);
    if (f_shifted.size() > 0) {
      *d_omega = f_shifted - f / (kOmegaStep * omega);
    } else {
      for (int i = 0; i < nin; ++i) aft.ToFrequency(rows_.col(i * (m + 1) + m), d_omega->col(i));
    }
  }
  return Status::Ok();
}

Status MarchedForce::RateJacobian(Aft& aft, double omega, const MatX& x, MatX& jacobian) {
  JD_CHECK(omega > 0.0 && std::isfinite(omega), "MarchedForce: omega must be > 0");
  JD_CHECK(kernel_->uses_rates(), "MarchedForce::RateJacobian: the kernel uses no rates");
  if (Status status = March(aft, omega, x, false); !status) return status;
  const int nc = aft.num_coefficients();
  const int nin = kernel_->num_inputs();
  const MatX& e = aft.basis_samples();
  jacobian.resize(nc * nin, nc * nin);
  VecX column(aft.num_samples());
  for (int i = 0; i < nin; ++i) {
    for (int k = 0; k < nin; ++k) {
      for (int c = 0; c < nc; ++c) {
        column = rate_tangents_.col(i * nin + k).cwiseProduct(e.col(c));
        aft.ToFrequency(column, jacobian.col(k * nc + c).segment(i * nc, nc));
      }
    }
  }
  return Status::Ok();
}

void MarchedForce::Accelerate(bool sensitivity) {
  const int states = static_cast<int>(committed_.size());
  const Eigen::Map<const VecX> start(start_history_.data(), states);
  Eigen::Map<VecX> end(committed_.data(), states);
  const MatX contraction = MatX::Identity(states, states) - period_map_;
  Eigen::CompleteOrthogonalDecomposition<MatX> solver(contraction);
  solver.setThreshold(kShootRankTolerance);
  const VecX step = solver.solve(VecX(end - start));
  if (!step.allFinite()) return;
  end = start + step;
  if (sensitivity)
    d_history_ = start_sensitivity_ + solver.solve(MatX(d_history_ - start_sensitivity_));
}

}  // namespace jointdyn::harmonic
