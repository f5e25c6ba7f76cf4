// Pointwise kernels of the nonlinear elements of harmonic balance: what the period march
// (nonlinear_force.h) evaluates at every time sample. A kernel maps the relative
// displacements r (and their rates) of one element to its forces, with the committed /
// trial history protocol of the interface laws (laws/tangential_law.h): Evaluate() reads
// the committed history and writes the trial one, and the march commits each sample.
//
// Forces act on the element's first DOF of each component and with the opposite sign on
// the second (or on ground): they enter M q'' + C q' + K q + f_nl = f_ext like an internal
// force, so a spring-like element has a positive tangent d force / d r.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "core/status.h"
#include "core/types.h"
#include "laws/contact_pair.h"
#include "laws/contact_point.h"
#include "laws/coulomb.h"
#include "laws/tangential_law.h"

namespace jointdyn::harmonic {

constexpr int kMaxKernelInputs = 3;
using KernelVec = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxKernelInputs, 1>;
using KernelMat =
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxKernelInputs, kMaxKernelInputs>;

struct KernelInput {
  KernelVec r;      // relative displacement per component at the sample [m]
  KernelVec r_dot;  // its time derivative [m/s]
  double dt = 0.0;  // time since the previous sample, T / N [s]
};

struct KernelResponse {
  KernelVec force;            // force per component [N]
  KernelMat d_force_d_r;      // consistent tangent d force / d r [N/m]
  KernelMat d_force_d_r_dot;  // d force / d r_dot [N s/m]
  laws::ContactState state = laws::ContactState::kStick;
};

// Derivatives of one sample's force and trial history with respect to the committed
// history h (state_size() entries) and the inputs, for the Jacobian of the march.
struct HistorySensitivity {
  MatX d_force_d_history;    // num_inputs() x state_size()
  MatX d_history_d_history;  // state_size() x state_size(): d trial / d committed
  MatX d_history_d_r;        // state_size() x num_inputs()
  MatX d_history_d_r_dot;    // state_size() x num_inputs()
};

class PointKernel {
 public:
  virtual ~PointKernel() = default;

  virtual int num_inputs() const = 0;  // 1 .. kMaxKernelInputs
  virtual int state_size() const = 0;  // history doubles (0: memoryless)
  // True when the response depends on dt (rate-dependent laws) at fixed r and r_dot.
  virtual bool dt_dependent() const = 0;
  virtual void InitState(std::span<double> state) const = 0;
  // The history a period march starts from, given the period's input samples r (n x
  // num_inputs()) [m]; with `d_state`, d state / d r (state_size() x (num_inputs() n),
  // column k n + j: input k at sample j), left empty where the start does not depend on
  // the samples. Default: InitState(), independent of the samples.
  virtual void PeriodicStart(const MatX& r, std::span<double> state, MatX* d_state) const;
  // Response at `in` from the committed history; writes the trial history. Spans of
  // state_size() entries, not aliased. A failure names what failed (never NaN).
  virtual Status Evaluate(const KernelInput& in, std::span<const double> committed,
                          std::span<double> trial, KernelResponse& out) const = 0;

  // Whether the response depends on r_dot (e.g. a normal law with a gap-rate term).
  virtual bool uses_rates() const { return false; }
  // Whether Sensitivity() is available (exactly, for the Coulomb / Jenkins law); otherwise
  // the march differentiates the kernel numerically (nonlinear_force.h).
  virtual bool has_history_sensitivity() const { return false; }
  // The sensitivity at the point of the last Evaluate(in, committed) that returned
  // `response`. Only called when has_history_sensitivity().
  virtual void Sensitivity(const KernelInput& in, std::span<const double> committed,
                           const KernelResponse& response, HistorySensitivity& out) const;
};

// Memoryless polynomial spring f = sum_p c_p r^p (one input): c = {0, k, 0, k3} is the
// Duffing spring k r + k3 r^3. Coefficients c_p in N/m^p.
class PolynomialKernel final : public PointKernel {
 public:
  explicit PolynomialKernel(std::vector<double> coefficients);

  int num_inputs() const override { return 1; }
  int state_size() const override { return 0; }
  bool dt_dependent() const override { return false; }
  void InitState(std::span<double>) const override {}
  Status Evaluate(const KernelInput& in, std::span<const double> committed, std::span<double> trial,
                  KernelResponse& out) const override;

 private:
  std::vector<double> coefficients_;
};

// A tangential law (1D: one input, 2D: two inputs) between two DOFs or a DOF and ground at
// a constant normal force (the law's pressure argument: N for whole-interface and point
// laws). Exact history sensitivity for laws::CoulombLaw (the Jenkins element): in stick
// the force depends on the slider position set by the last slip sample.
class TangentialKernel final : public PointKernel {
 public:
  // `law` non-null; normal_force finite [N] (the law's pressure units).
  TangentialKernel(std::shared_ptr<const laws::TangentialLaw> law, double normal_force);

  int num_inputs() const override { return law_->dim(); }
  int state_size() const override { return law_->state_size(); }
  bool dt_dependent() const override { return !law_->rate_independent(); }
  void InitState(std::span<double> state) const override { law_->InitState(state); }
  Status Evaluate(const KernelInput& in, std::span<const double> committed, std::span<double> trial,
                  KernelResponse& out) const override;
  bool has_history_sensitivity() const override { return coulomb_ != nullptr; }
  void Sensitivity(const KernelInput& in, std::span<const double> committed,
                   const KernelResponse& response, HistorySensitivity& out) const override;

 private:
  std::shared_ptr<const laws::TangentialLaw> law_;
  double normal_force_;
  const laws::CoulombLaw* coulomb_;  // law_ as a Coulomb law, or null
};

// A contact point (laws::ContactPoint: normal law + tangential law, e.g. the seed 004
// node-to-node element with normal load variation) between two nodes. Inputs: the
// tangential relative displacements (1 or 2, the tangential law's dim) and the normal
// approach v = -g (positive into contact) [m]; forces: the tangential tractions and the
// normal force p >= 0 [N] (point laws: tractions in N). Exact history sensitivity when
// the tangential law is a laws::CoulombLaw, including the normal load variation.
class ContactKernel final : public PointKernel {
 public:
  explicit ContactKernel(laws::ContactPoint point);

  int num_inputs() const override { return point_.dim() + 1; }
  int state_size() const override { return point_.state_size(); }
  bool dt_dependent() const override { return !point_.tangential_law().rate_independent(); }
  bool uses_rates() const override { return true; }
  void InitState(std::span<double> state) const override { point_.InitState(state); }
  Status Evaluate(const KernelInput& in, std::span<const double> committed, std::span<double> trial,
                  KernelResponse& out) const override;
  bool has_history_sensitivity() const override { return coulomb_ != nullptr; }
  void Sensitivity(const KernelInput& in, std::span<const double> committed,
                   const KernelResponse& response, HistorySensitivity& out) const override;

 private:
  laws::ContactPoint point_;
  const laws::CoulombLaw* coulomb_;  // the tangential law as a Coulomb law, or null
};

// A contact pair of a joint (laws::ContactPair, the kernel the joint operator loops over
// in the time domain) on its local relative displacement z = [u1, u2, un] (3 inputs) [m],
// with forces A t = A [tau1, tau2, -p] [N] (A the pair's area weight [m^2], t the pair
// stress): the element's terms are the pair's three rows of the joint's projection, so
// that the DOFs receive R_i^T A t as from JointOperator::Forces. Every march starts from
// `initial_history` (the committed pair history of the state harmonic balance expands
// about, e.g. the preloaded one: its friction state and offsets), or, for an unpressed
// start that stays pressed over the period, from laws::ContactPair::PeriodicStart (its
// offset blended from the samples near its largest gap, so that the forces are continuous
// where it starts to open). The first sample after the pair opens carries the fraction of
// the increment it was still closed for times the traction it released
// (laws::ContactPair::ReleaseBetween), so that the force coefficients are continuous where a
// sample's gap crosses the onset. A pair that was open at one sample only (its gap grazing
// the onset) is reset in proportion to the time it was open: at its reclosing, the response
// and trial history are rho times the pair's own (offset and friction state reset) plus
// 1 - rho times those it would have had had it stayed closed at vanishing pressure (from
// the friction state at contact and the offset before the opening), rho = the open time in
// sample intervals, 1 - theta_open + theta_close, at most 1. With the seed's law (c2 > 0:
// a traction c2 (u - s*) at vanishing pressure) a full reset at any opening, however
// short, made the forces jump by c2 A (u - s*) as a grazing gap's peak crossed the onset
// (the friction bar with g = 60 stopped at 41.23 Hz); with rho they are continuous, and the
// reset is the pair's own once it is open for a sample interval or more (the time domain,
// whose steps resolve the opening, keeps the law's full reset). History: the pair's
// (pair->state_size()) and the opening's record of the same size: the friction state at
// contact, the offset before and the open fraction 1 - theta_open at the first open
// sample; zeros and 1 (long open or closed) elsewhere. Exact history sensitivity for a
// laws::CoulombLaw, through the offset s* and the record as well (an open pair's offset
// follows u, a closed one's is kept), but for rho's derivative, which is left out (a narrow
// ramp in the gap: Newton followed it from the friction bar's first guess and stalled).
class PairKernel final : public PointKernel {
 public:
  // pair non-null; area finite >= 0; initial_history of pair->state_size() doubles.
  PairKernel(std::shared_ptr<const laws::ContactPair> pair, double initial_gap, double area,
             std::vector<double> initial_history);

  int num_inputs() const override { return 3; }
  int state_size() const override { return 2 * pair_->state_size(); }
  bool dt_dependent() const override;
  bool uses_rates() const override { return true; }
  void InitState(std::span<double> state) const override;
  void PeriodicStart(const MatX& r, std::span<double> state, MatX* d_state) const override;
  Status Evaluate(const KernelInput& in, std::span<const double> committed, std::span<double> trial,
                  KernelResponse& out) const override;
  bool has_history_sensitivity() const override { return coulomb_ != nullptr; }
  void Sensitivity(const KernelInput& in, std::span<const double> committed,
                   const KernelResponse& response, HistorySensitivity& out) const override;

 private:
  laws::PairInput Input(const KernelInput& in) const;
  // The blend of a reclosing after a one-sample opening, rho = open fraction + theta_close
  // (< 1), or 1.
  double ReclosingWeight(const KernelInput& in, std::span<const double> committed) const;
  // The record as a pair history: the pair kept closed (committed gap at the onset).
  std::vector<double> KeptHistory(std::span<const double> committed) const;
  // The pair's own response from its history (the first pair_->state_size() doubles); at
  // the first open sample the released traction, and `release` set.
  Status EvaluatePair(const KernelInput& in, std::span<const double> committed,
                      std::span<double> trial, KernelResponse& out,
                      laws::ContactPair::Release& release) const;
  // Its sensitivity (pair_->state_size() history entries).
  void PairSensitivity(const KernelInput& in, std::span<const double> committed,
                       const KernelResponse& response, HistorySensitivity& out) const;
  void ReclosingSensitivity(const KernelInput& in, std::span<const double> committed, double rho,
                            HistorySensitivity& out) const;

  std::shared_ptr<const laws::ContactPair> pair_;
  double initial_gap_, area_;
  std::vector<double> initial_history_;
  const laws::CoulombLaw* coulomb_;  // the friction law as a Coulomb law, or null
};

}  // namespace jointdyn::harmonic
