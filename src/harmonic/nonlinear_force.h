// The nonlinear forces of harmonic balance in the frequency domain: given the harmonic
// coefficients of an element's relative displacements, the coefficients of its forces and
// their Jacobian (seed 004, eq. 25: J_r, with respect to the relative coordinates; the
// assembly applies eq. 26-27).
//
// MarchedForce evaluates a pointwise kernel (point_kernel.h) by AFT: the relative
// displacements and velocities are sampled at N points of the period, the kernel is
// marched through the samples with its history committed at each one (dt = T / N), the
// period is repeated until the hysteresis loop closes (the force samples of two
// consecutive periods agree; with the Jacobian also its rows below), and the force
// samples of the last period are transformed back. The march starts from the kernel's
// periodic start history (PointKernel::PeriodicStart: its initial history, or one set by the
// period's samples) at the first sample of every evaluation, so the coefficients are a
// function of the displacement coefficients.
//
// Jacobian. With x_j = E_j X the samples of the relative displacement and
// r_dot_j = omega E'_j X (the Aft sample tables), the derivative of the force sample j is
//   d f_j / d X = K_j E_j + omega C_j E'_j + (d f_j / d h_{j-1}) (d h_{j-1} / d X),
// K_j and C_j the kernel's tangents, h the committed history, and the force coefficients'
// Jacobian is the AFT forward transform of these rows (J = sum_j P_j d f_j / d X, the
// discrete form of seed 004's J_r). The last term, the sensitivity through the history
// (e.g. the slider position set at the last reversal of a Jenkins element), is propagated
// along the march, d h_j / d X = H_j d h_{j-1} / d X + (d h_j / d r) E_j + ..., from the
// start's own d h_0 / d X = sum_j (d h_0 / d r_j) E_j (PeriodicStart). The kernel
// gives H_j and the other history derivatives exactly where it can (Coulomb / Jenkins);
// otherwise the march takes them by central differences of the kernel in its committed
// history and inputs (relative step 1e-6 of each entry's largest magnitude in the march),
// for histories of at most kMaxDifferencedHistory doubles. Without the history term the
// Jacobian keeps only the local tangents, which for hysteretic laws is poor (the stick
// phase looks stiff against a static offset): Newton's line search then often fails.
// Kernels whose response depends on dt (rate-dependent laws) get d f / d omega by a
// forward difference in omega (relative step 1e-7: with the loops closed to
// closure_tolerance its relative error is about closure_tolerance / 1e-7).
//
// Slow loops. A loop that settles slowly (a 2D friction contact whose slip direction
// turns: the period map of its history contracts by a factor near 1) would need hundreds
// of periods; for kernels with exact sensitivities, from the third period on the march
// takes a Newton (shooting) step on the start history instead (Accelerate), after which
// the loop closes in two periods when its stick-slip pattern stays.
//
// Rate Jacobian (kernels that use rates): sum_j P_j C_j E_j, the AFT transform of the
// kernel's tangent d f_j / d r_dot_j at the samples of the closed loop. The sensitivity of
// the history to the velocity perturbation is neglected (Hill's ansatz e^{st} p does not
// commute with the march's memory); for memoryless kernels the matrix is exact.
#pragma once

#include <memory>
#include <vector>

#include "core/status.h"
#include "core/types.h"
#include "harmonic/fourier.h"
#include "harmonic/point_kernel.h"

namespace jointdyn::harmonic {

class NonlinearForce {
 public:
  virtual ~NonlinearForce() = default;

  virtual int num_inputs() const = 0;  // relative displacement components
  // x: num_coefficients x num_inputs() coefficients of the relative displacements [m]
  // (column i: component i). Writes f (same shape) [N]; when not null, `jacobian`
  // d vec(f) / d vec(x) ((nc num_inputs())^2, vec stacks the columns) [N/m] and `d_omega`
  // d f / d omega at fixed x (nc x num_inputs()) [N s/rad]. A failure names what failed.
  virtual Status Evaluate(Aft& aft, double omega, const MatX& x, MatX& f, MatX* jacobian,
                          MatX* d_omega) = 0;
  // Periods the last Evaluate() marched until its loop closed (1: memoryless).
  virtual int last_periods() const = 0;

  // Whether the forces depend on the relative velocities, so that Hill's method
  // (stability.h) needs RateJacobian(). Default: no (the rate Jacobian is zero).
  virtual bool has_rate_jacobian() const { return false; }
  // The rate Jacobian at x: d vec(f) / d vec(v) ((nc num_inputs())^2) [N s/m], v the
  // coefficients of a velocity perturbation added to the relative velocity omega x' at
  // fixed x (the part s p of the velocity perturbation p' + s p of Hill's ansatz e^{st} p).
  // Only called when has_rate_jacobian(); the default is an internal error.
  virtual Status RateJacobian(Aft& aft, double omega, const MatX& x, MatX& jacobian);
};

// Largest history (doubles) differentiated numerically for the Jacobian: the cost per
// sample grows with its square (e.g. an Iwan law with many Jenkins elements keeps local
// tangents only).
constexpr int kMaxDifferencedHistory = 64;

struct MarchOptions {
  // The loop is closed when max_j |f_j - f_j(previous period)| <= closure_tolerance * s
  // [-], in (0, 1), s the largest variation of a force component over the period (at least
  // 1e-6 of the largest force): relative to the force's oscillation rather than its size,
  // so that a contact pair carrying a large preload closes its loop as closely, relative
  // to the excitation, as an element about zero force.
  double closure_tolerance = 1e-10;
  // With the Jacobian, its rows (d f_j / d X) must have settled too, to this tolerance
  // relative to their largest entry [-], in (0, 1): at rest the forces close at once while
  // the sensitivities still carry the start. The Jacobian only steers Newton (a linear
  // element's first Newton step is exact to about this tolerance), and a contact pair
  // whose 2D slip direction turns settles its sensitivities slowly (bolted lap joint near
  // resonance: forces closed to 1e-13, rows not to 1e-10 after 500 periods; joint_harmonic
  // takes 1e-6). Forces closed and rows not after max_periods: the last period's rows.
  double jacobian_tolerance = 1e-10;
  int max_periods = 500;  // periods marched at most before failing [-], >= 2
  // Include the sensitivity through the history in the Jacobian (exact or differenced).
  bool history_sensitivity = true;
  Status Validate() const;
};

class MarchedForce final : public NonlinearForce {
 public:
  // `kernel` non-null; options.Validate() must pass (checked).
  MarchedForce(std::unique_ptr<PointKernel> kernel, const MarchOptions& options);

  int num_inputs() const override { return kernel_->num_inputs(); }
  Status Evaluate(Aft& aft, double omega, const MatX& x, MatX& f, MatX* jacobian,
                  MatX* d_omega) override;
  int last_periods() const override { return periods_; }
  bool has_rate_jacobian() const override { return kernel_->uses_rates(); }
  Status RateJacobian(Aft& aft, double omega, const MatX& x, MatX& jacobian) override;

  // The force samples of the last period of the last Evaluate() (N x num_inputs()) [N].
  const MatX& force_samples() const { return force_; }

 private:
  // Marches until the loop closes; with `jacobian_rows`, the rows d f_j / d [X, omega] of
  // the last period (N x num_inputs() (nc num_inputs() + 1)).
  Status March(Aft& aft, double omega, const MatX& x, bool jacobian_rows);
  // d h_j / d (h_{j-1}, r_j, r_dot_j) and d f_j / d h_{j-1} by central differences at
  // (committed_, in) into sensitivity_.
  void DifferenceSensitivity(const KernelInput& in);
  // Shooting on the start history after a period that did not close: with Phi the
  // period's d h_end / d h_start (period_map_), the start that the period maps onto
  // itself to first order, h = h_s + (I - Phi)^+ (h_e - h_s) (minimum norm: a stuck
  // contact's neutral directions stay), becomes the next period's start; the history
  // sensitivity (`sensitivity`) follows the same fixed point.
  void Accelerate(bool sensitivity);

  std::unique_ptr<PointKernel> kernel_;
  MarchOptions options_;
  int periods_ = 0;
  // Workspace.
  MatX r_, r_dot_;                   // N x nin samples
  MatX force_, previous_;            // N x nin
  MatX rate_tangents_;               // N x nin^2: d f_j / d r_dot_j, column i nin + k
  MatX rows_, previous_rows_;        // N x nin (m + 1), m = nc nin: d f_j / d [X, omega]
  MatX d_history_, d_history_next_;  // S x (m + 1)
  MatX d_start_;                     // d start history / d samples (PointKernel::PeriodicStart)
  std::vector<double> committed_, trial_;
  std::vector<double> start_history_;  // Accelerate(): the period's start
  MatX period_map_, map_next_, start_sensitivity_;
  VecX rate_column_;  // omega d h / d r_dot, column k
  HistorySensitivity sensitivity_;
  // Difference workspace: the largest |history| and |r|, |r_dot| met in the march.
  std::vector<double> history_scale_, perturbed_committed_, perturbed_trial_[2];
  KernelVec input_scale_, rate_scale_;
  KernelInput perturbed_input_;
  KernelResponse perturbed_response_[2];
};

}  // namespace jointdyn::harmonic
