#include "harmonic/point_kernel.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/error.h"

namespace jointdyn::harmonic {
namespace {

// Derivatives of the Coulomb return mapping (laws/coulomb.cc) with respect to the
// committed slider position, the slip and the pressure, in the branch the law took.
struct CoulombDerivatives {
  Mat2 d_traction_d_slider = Mat2::Zero();  // d tau / d committed slider [N/m]
  Mat2 d_slider_d_slider = Mat2::Zero();    // d trial slider / d committed slider [-]
  Mat2 d_slider_d_slip = Mat2::Zero();      // d trial slider / d slip [-]
  Vec2 d_slider_d_pressure = Vec2::Zero();  // d trial slider / d pressure [m/N]
};

CoulombDerivatives CoulombHistoryDerivatives(const laws::CoulombLaw& law, const Vec2& slip,
                                             double pressure, std::span<const double> committed,
                                             laws::ContactState state) {
  const laws::CoulombParams& p = law.params();
  const Mat2 mask = law.dim() == 1 ? Mat2(Vec2(1.0, 0.0).asDiagonal()) : Mat2::Identity();
  CoulombDerivatives d;
  switch (state) {
    case laws::ContactState::kOpen:  // the slider follows the slip
      d.d_slider_d_slip = mask;
      break;
    case laws::ContactState::kStick:  // tau = c1 (s - slider) + c2 s, slider kept
      d.d_traction_d_slider = -p.c1 * mask;
      d.d_slider_d_slider = Mat2::Identity();
      break;
    case laws::ContactState::kSlip: {  // tau1 = mu p n, slider = s - tau1 / c1
      const Vec2 tau_trial = p.c1 * (mask * slip - Vec2(committed[0], committed[1]));
      const double norm = tau_trial.norm();
      const Vec2 n = tau_trial / norm;
      const Mat2 projection = (p.mu * pressure / norm) * (mask - n * n.transpose());
      d.d_traction_d_slider = -p.c1 * projection;
      d.d_slider_d_slider = projection;
      d.d_slider_d_slip = mask - projection;
      d.d_slider_d_pressure = -(p.mu / p.c1) * n;
      break;
    }
  }
  return d;
}

void ResizeSensitivity(int inputs, int states, HistorySensitivity& out) {
  out.d_force_d_history.setZero(inputs, states);
  out.d_history_d_history.setZero(states, states);
  out.d_history_d_r.setZero(states, inputs);
  out.d_history_d_r_dot.setZero(states, inputs);
}

}  // namespace

void PointKernel::PeriodicStart(const MatX&, std::span<double> state, MatX* d_state) const {
  InitState(state);
  if (d_state) d_state->resize(0, 0);
}

void PointKernel::Sensitivity(const KernelInput&, std::span<const double>, const KernelResponse&,
                              HistorySensitivity&) const {
  JD_CHECK(false, "PointKernel::Sensitivity called on a kernel without history sensitivity");
}

PolynomialKernel::PolynomialKernel(std::vector<double> coefficients)
    : coefficients_(std::move(coefficients)) {
  JD_CHECK(!coefficients_.empty(), "PolynomialKernel needs at least one coefficient");
}

Status PolynomialKernel::Evaluate(const KernelInput& in, std::span<const double>, std::span<double>,
                                  KernelResponse& out) const {
  const double r = in.r(0);
  double f = 0.0, df = 0.0;  // Horner for the value and the derivative
  for (auto c = coefficients_.rbegin(); c != coefficients_.rend(); ++c) {
    df = df * r + f;
    f = f * r + *c;
  }
  out.force.setConstant(1, f);
  out.d_force_d_r.setConstant(1, 1, df);
  out.d_force_d_r_dot.setZero(1, 1);
  out.state = laws::ContactState::kStick;
  if (!std::isfinite(f) || !std::isfinite(df))
    return Status::Failure("polynomial force overflows at r = " + FormatValue(r) + " m");
  return Status::Ok();
}

TangentialKernel::TangentialKernel(std::shared_ptr<const laws::TangentialLaw> law,
                                   double normal_force)
    : law_(std::move(law)),
      normal_force_(normal_force),
      coulomb_(dynamic_cast<const laws::CoulombLaw*>(law_.get())) {
  JD_CHECK(law_ != nullptr, "TangentialKernel needs a law");
  JD_CHECK(std::isfinite(normal_force), "TangentialKernel: normal force must be finite");
}

Status TangentialKernel::Evaluate(const KernelInput& in, std::span<const double> committed,
                                  std::span<double> trial, KernelResponse& out) const {
  const int dim = law_->dim();
  const Vec2 slip(in.r(0), dim == 2 ? in.r(1) : 0.0);
  laws::TangentialResponse response;
  if (Status status = law_->Evaluate({slip, normal_force_, in.dt}, committed, trial, response);
      !status) {
    return status;
  }
  out.force = response.traction.head(dim);
  out.d_force_d_r = response.d_traction_d_slip.topLeftCorner(dim, dim);
  out.d_force_d_r_dot.setZero(dim, dim);
  out.state = response.state;
  return Status::Ok();
}

void TangentialKernel::Sensitivity(const KernelInput& in, std::span<const double> committed,
                                   const KernelResponse& response, HistorySensitivity& out) const {
  const int dim = law_->dim();
  const Vec2 slip(in.r(0), dim == 2 ? in.r(1) : 0.0);
  const CoulombDerivatives d =
      CoulombHistoryDerivatives(*coulomb_, slip, normal_force_, committed, response.state);
  ResizeSensitivity(dim, 2, out);
  out.d_force_d_history = d.d_traction_d_slider.topRows(dim);
  out.d_history_d_history = d.d_slider_d_slider;
  out.d_history_d_r = d.d_slider_d_slip.leftCols(dim);
}

ContactKernel::ContactKernel(laws::ContactPoint point)
    : point_(std::move(point)),
      coulomb_(dynamic_cast<const laws::CoulombLaw*>(&point_.tangential_law())) {}

Status ContactKernel::Evaluate(const KernelInput& in, std::span<const double> committed,
                               std::span<double> trial, KernelResponse& out) const {
  const int dim = point_.dim();
  const laws::ContactInput contact{.slip = Vec2(in.r(0), dim == 2 ? in.r(1) : 0.0),
                                   .gap = -in.r(dim),
                                   .gap_rate = -in.r_dot(dim),
                                   .dt = in.dt};
  laws::ContactResponse response;
  if (Status status = point_.Evaluate(contact, committed, trial, response); !status) {
    return status;
  }
  // Component i of the kernel is row / column i of the law's (s_x, s_y, g) for i < dim and
  // the normal (row / column 2, with v = -g) for i = dim.
  auto law_index = [dim](int i) { return i < dim ? i : 2; };
  const int n = dim + 1;
  out.force.resize(n);
  out.d_force_d_r.resize(n, n);
  out.d_force_d_r_dot.setZero(n, n);
  for (int i = 0; i < n; ++i) {
    out.force(i) = i < dim ? response.traction(i) : response.pressure;
    for (int j = 0; j < n; ++j) {
      out.d_force_d_r(i, j) = (j < dim ? 1.0 : -1.0) * response.tangent(law_index(i), law_index(j));
    }
    out.d_force_d_r_dot(i, dim) =
        -(i < dim ? response.d_traction_d_gap_rate(i) : response.d_pressure_d_gap_rate);
  }
  out.state = response.state;
  return Status::Ok();
}

void ContactKernel::Sensitivity(const KernelInput& in, std::span<const double> committed,
                                const KernelResponse& response, HistorySensitivity& out) const {
  const int dim = point_.dim();
  const Vec2 slip(in.r(0), dim == 2 ? in.r(1) : 0.0);
  const double pressure = response.force(dim);
  const CoulombDerivatives d =
      CoulombHistoryDerivatives(*coulomb_, slip, pressure, committed, response.state);
  ResizeSensitivity(dim + 1, 2, out);
  out.d_force_d_history.topRows(dim) = d.d_traction_d_slider.topRows(dim);
  out.d_history_d_history = d.d_slider_d_slider;
  out.d_history_d_r.leftCols(dim) = d.d_slider_d_slip.leftCols(dim);
  // The pressure is the kernel's normal force: dp/dv and dp/dv_dot are its tangents.
  out.d_history_d_r.col(dim) = d.d_slider_d_pressure * response.d_force_d_r(dim, dim);
  out.d_history_d_r_dot.col(dim) = d.d_slider_d_pressure * response.d_force_d_r_dot(dim, dim);
}

PairKernel::PairKernel(std::shared_ptr<const laws::ContactPair> pair, double initial_gap,
                       double area, std::vector<double> initial_history)
    : pair_(std::move(pair)),
      initial_gap_(initial_gap),
      area_(area),
      initial_history_(std::move(initial_history)),
      coulomb_(pair_ && pair_->point()
                   ? dynamic_cast<const laws::CoulombLaw*>(&pair_->point()->tangential_law())
                   : nullptr) {
  JD_CHECK(pair_ != nullptr, "PairKernel needs a pair");
  JD_CHECK(std::isfinite(area) && area >= 0.0, "PairKernel: area must be finite and >= 0");
  JD_CHECK(static_cast<int>(initial_history_.size()) == pair_->state_size(),
           "PairKernel: initial history size");
}

bool PairKernel::dt_dependent() const {
  return pair_->point() != nullptr && !pair_->point()->tangential_law().rate_independent();
}

void PairKernel::InitState(std::span<double> state) const {
  const int size = pair_->state_size();
  std::copy(initial_history_.begin(), initial_history_.end(), state.begin());
  std::fill(state.begin() + size, state.end(), 0.0);
  state.back() = 1.0;  // no one-sample opening on record
}

void PairKernel::PeriodicStart(const MatX& r, std::span<double> state, MatX* d_state) const {
  InitState(state);
  const int size = pair_->state_size();
  if (!pair_->PeriodicStart(state.first(size), r, initial_gap_, d_state)) {
    if (d_state) d_state->resize(0, 0);
  } else if (d_state) {  // the record does not depend on the samples
    d_state->conservativeResize(state_size(), Eigen::NoChange);
    d_state->bottomRows(size).setZero();
  }
}

laws::PairInput PairKernel::Input(const KernelInput& in) const {
  return {.z = in.r, .gap_rate = in.r_dot(2), .initial_gap = initial_gap_, .dt = in.dt};
}

double PairKernel::ReclosingWeight(const KernelInput& in, std::span<const double> committed) const {
  const double theta =
      pair_->ClosingBetween(committed[pair_->state_size() - 1], initial_gap_ + in.r(2)).theta;
  return theta == 0.0 ? 1.0 : std::min(1.0, committed.back() + theta);
}

std::vector<double> PairKernel::KeptHistory(std::span<const double> committed) const {
  const int size = pair_->state_size();
  std::vector<double> kept(committed.begin() + size, committed.end());
  kept.back() = pair_->normal_law().contact_onset_gap();
  return kept;
}

Status PairKernel::EvaluatePair(const KernelInput& in, std::span<const double> committed,
                                std::span<double> trial, KernelResponse& out,
                                laws::ContactPair::Release& release) const {
  release = {};
  laws::PairResponse response;
  if (Status status = pair_->Evaluate(Input(in), committed, trial, response); !status)
    return status;
  out.force = area_ * response.stress;
  out.d_force_d_r = area_ * response.tangent;
  out.d_force_d_r_dot = area_ * response.rate_tangent;
  out.state = response.state;
  if (response.state != laws::ContactState::kOpen) return Status::Ok();
  // The first open sample carries the fraction of the increment the pair was still closed
  // for times the traction it released (laws::ContactPair::ReleaseBetween).
  if (Status status = pair_->ReleaseBetween(committed, Input(in), release); !status) return status;
  out.force.head<2>() = area_ * release.theta * release.traction;
  out.d_force_d_r.topLeftCorner<2, 2>() = area_ * release.theta * release.d_traction_d_slip;
  out.d_force_d_r.block<2, 1>(0, 2) = area_ * release.d_gap * release.traction;
  return Status::Ok();
}

Status PairKernel::Evaluate(const KernelInput& in, std::span<const double> committed,
                            std::span<double> trial, KernelResponse& out) const {
  const int size = pair_->state_size();
  const std::span<double> record = trial.subspan(size);
  std::fill(record.begin(), record.end(), 0.0);
  record.back() = 1.0;
  laws::ContactPair::Release release;
  const double rho = ReclosingWeight(in, committed);
  if (rho == 1.0) {
    if (Status status = EvaluatePair(in, committed.first(size), trial.first(size), out, release);
        !status)
      return status;
    if (release.theta > 0.0) {  // the first open sample: the record of the opening
      const int law = pair_->law_state_size();
      std::copy(release.law_state.begin(), release.law_state.end(), record.begin());
      record[law] = committed[law];
      record[law + 1] = committed[law + 1];
      record.back() = 1.0 - release.theta;
    }
    return Status::Ok();
  }
  // Reclosing after a one-sample opening: rho times the pair's own, 1 - rho times kept; the
  // tangent without rho's derivative (ReclosingSensitivity).
  const std::vector<double> kept_history = KeptHistory(committed);
  std::vector<double> kept_trial(size);
  KernelResponse kept;
  if (Status status = EvaluatePair(in, kept_history, kept_trial, kept, release); !status)
    return status;
  if (Status status = EvaluatePair(in, committed.first(size), trial.first(size), out, release);
      !status)
    return status;
  out.force = rho * out.force + (1.0 - rho) * kept.force;
  out.d_force_d_r = rho * out.d_force_d_r + (1.0 - rho) * kept.d_force_d_r;
  out.d_force_d_r_dot = rho * out.d_force_d_r_dot + (1.0 - rho) * kept.d_force_d_r_dot;
  for (int i = 0; i < size; ++i) trial[i] = rho * trial[i] + (1.0 - rho) * kept_trial[i];
  return Status::Ok();
}

// History h = [slider (2), offset s* (2), gap g (1)]. Closed: slip = u_t - s with
// s = s*_c + theta (u_t - s*_c) (theta > 0 only when the pair closed since the committed
// state: laws::ContactPair), so the force and the slider depend on s*_c as on -u_t, and on
// g_c through theta; the trial offset is s. Open: the slider reset to its virgin (constant)
// value, s* = u_t, no force but at the first open sample the released traction, which
// depends on s*_c and g_c. The trial gap is g = g0 + u_n.
void PairKernel::PairSensitivity(const KernelInput& in, std::span<const double> committed,
                                 const KernelResponse& response, HistorySensitivity& out) const {
  ResizeSensitivity(3, 5, out);
  out.d_history_d_r(4, 2) = 1.0;
  // A pair of no area has no force whatever its history (left without derivatives).
  if (area_ == 0.0) return;
  if (!pair_->normal_law().bilateral() && response.state == laws::ContactState::kOpen) {
    out.d_history_d_r.block<2, 2>(2, 0).setIdentity();
    // A released traction depends on the committed offset and gap (on the slider not: the
    // Coulomb law at p -> 0+ slides); Evaluate has checked the law's status.
    laws::ContactPair::Release release;
    (void)pair_->ReleaseBetween(committed, Input(in), release);
    out.d_force_d_history.block<2, 2>(0, 2) = -area_ * release.theta * release.d_traction_d_slip;
    out.d_force_d_history.block<2, 1>(0, 4) = area_ * release.d_committed_gap * release.traction;
    return;
  }
  const Vec2 committed_offset(committed[2], committed[3]);
  const Vec2 opened = in.r.head<2>() - committed_offset;
  const laws::ContactPair::Closing closing =
      pair_->ClosingBetween(committed[4], initial_gap_ + in.r(2));
  const Vec2 slip = (1.0 - closing.theta) * opened;
  // The pressure and d p / d (un, un_dot) from the normal row (force = -A p).
  const double pressure = -response.force(2) / area_;
  const double dp_dr = -response.d_force_d_r(2, 2) / area_;
  const double dp_dr_dot = -response.d_force_d_r_dot(2, 2) / area_;
  const CoulombDerivatives d =
      CoulombHistoryDerivatives(*coulomb_, slip, pressure, committed, response.state);
  // d slip / d g_c (d slip / d s*_c = -(1 - theta) I = -d slip / d u_t, and d slip / d g
  // is in the response's tangent already).
  const Vec2 slip_d_committed_gap = -closing.d_committed_gap * opened;
  const Mat2 d_slip_d_u = (1.0 - closing.theta) * Mat2::Identity();
  out.d_force_d_history.topLeftCorner<2, 2>() = area_ * d.d_traction_d_slider;
  out.d_force_d_history.block<3, 2>(0, 2) = -response.d_force_d_r.leftCols<2>();
  out.d_force_d_history.block<2, 1>(0, 4) =
      response.d_force_d_r.topLeftCorner<2, 2>() / (1.0 - closing.theta) * slip_d_committed_gap;
  out.d_history_d_history.topLeftCorner<2, 2>() = d.d_slider_d_slider;
  out.d_history_d_history.block<2, 2>(0, 2) = -d.d_slider_d_slip * d_slip_d_u;
  out.d_history_d_history.block<2, 1>(0, 4) = d.d_slider_d_slip * slip_d_committed_gap;
  out.d_history_d_history.block<2, 2>(2, 2) = (1.0 - closing.theta) * Mat2::Identity();
  out.d_history_d_history.block<2, 1>(2, 4) = closing.d_committed_gap * opened;
  out.d_history_d_r.topLeftCorner<2, 2>() = d.d_slider_d_slip * d_slip_d_u;
  out.d_history_d_r.block<2, 1>(0, 2) =
      d.d_slider_d_pressure * dp_dr - closing.d_gap * (d.d_slider_d_slip * opened);
  out.d_history_d_r.block<2, 2>(2, 0) = closing.theta * Mat2::Identity();
  out.d_history_d_r.block<2, 1>(2, 2) = closing.d_gap * opened;
  out.d_history_d_r_dot.block<2, 1>(0, 2) = d.d_slider_d_pressure * dp_dr_dot;
}

// History [pair (5), record (5): slider at contact (2), offset before (2), open fraction].
// The pair's part as PairSensitivity; the record written at a first open sample: the
// slider at contact follows the slip u_t - s*_c (the Coulomb law at p -> 0+), the offset
// is s*_c; constant elsewhere. The open fraction only sets rho, whose derivative is left
// out (below).
void PairKernel::Sensitivity(const KernelInput& in, std::span<const double> committed,
                             const KernelResponse& response, HistorySensitivity& out) const {
  const double rho = ReclosingWeight(in, committed);
  if (rho < 1.0) return ReclosingSensitivity(in, committed, rho, out);
  HistorySensitivity pair;
  PairSensitivity(in, committed.first(5), response, pair);
  ResizeSensitivity(3, 10, out);
  out.d_force_d_history.leftCols<5>() = pair.d_force_d_history;
  out.d_history_d_history.topLeftCorner<5, 5>() = pair.d_history_d_history;
  out.d_history_d_r.topRows<5>() = pair.d_history_d_r;
  out.d_history_d_r_dot.topRows<5>() = pair.d_history_d_r_dot;
  if (area_ == 0.0 || response.state != laws::ContactState::kOpen) return;
  laws::ContactPair::Release release;
  (void)pair_->ReleaseBetween(committed.first(5), Input(in), release);
  if (release.theta == 0.0) return;
  const Mat2 mask =
      CoulombHistoryDerivatives(*coulomb_, Vec2::Zero(), 0.0, committed, laws::ContactState::kOpen)
          .d_slider_d_slip;
  out.d_history_d_r.block<2, 2>(5, 0) = mask;
  out.d_history_d_history.block<2, 2>(5, 2) = -mask;
  out.d_history_d_history.block<2, 2>(7, 2).setIdentity();
}

// A reclosing after a one-sample opening: rho times the pair's own (from its history) plus
// 1 - rho times the kept one (from the record's slider and offset; its gap entry the onset,
// constant), rho held: its derivative through the gaps (rho goes from 0 to 1 over the
// gap's drop to the neighbouring samples, a fraction of a nanometre on the friction bar)
// is left out of the Jacobian, as Evaluate's tangent leaves it out. With it the Newton
// steps followed these narrow ramps: from the friction bar's linearized guess the line
// search failed at 36 Hz (scaled residual 9.2 after 20 iterations, g = 20 and 60); without
// it Newton converges there as before the rule, and the g = 60 curve passes 41.23 Hz. The
// record after it is constant.
void PairKernel::ReclosingSensitivity(const KernelInput& in, std::span<const double> committed,
                                      double rho, HistorySensitivity& out) const {
  const std::vector<double> kept_history = KeptHistory(committed);
  std::vector<double> own_trial(5), kept_trial(5);
  KernelResponse own, kept;
  laws::ContactPair::Release release;
  // Evaluate has checked both evaluations' status (their responses are needed here).
  (void)EvaluatePair(in, committed.first(5), own_trial, own, release);
  (void)EvaluatePair(in, kept_history, kept_trial, kept, release);
  HistorySensitivity own_d, kept_d;
  PairSensitivity(in, committed.first(5), own, own_d);
  PairSensitivity(in, kept_history, kept, kept_d);
  ResizeSensitivity(3, 10, out);
  out.d_force_d_history.leftCols<5>() = rho * own_d.d_force_d_history;
  out.d_force_d_history.middleCols<4>(5) = (1.0 - rho) * kept_d.d_force_d_history.leftCols<4>();
  out.d_history_d_history.topLeftCorner<5, 5>() = rho * own_d.d_history_d_history;
  out.d_history_d_history.block<5, 4>(0, 5) =
      (1.0 - rho) * kept_d.d_history_d_history.leftCols<4>();
  out.d_history_d_r.topRows<5>() = rho * own_d.d_history_d_r + (1.0 - rho) * kept_d.d_history_d_r;
  out.d_history_d_r_dot.topRows<5>() =
      rho * own_d.d_history_d_r_dot + (1.0 - rho) * kept_d.d_history_d_r_dot;
}

}  // namespace jointdyn::harmonic
