#include "laws/contact_pair.h"

#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"

namespace jointdyn::laws {

ContactPair::ContactPair(std::shared_ptr<const NormalLaw> normal,
                         std::shared_ptr<const TangentialLaw> tangential, double touch_band)
    : normal_(std::move(normal)), touch_band_(touch_band) {
  JD_CHECK(normal_ != nullptr, "ContactPair needs a normal law");
  JD_CHECK(touch_band >= 0.0, "ContactPair: touch band must be >= 0");
  if (tangential != nullptr) {
    law_state_size_ = tangential->state_size();
    point_.emplace(normal_, std::move(tangential));
  }
}

void ContactPair::InitState(std::span<double> state) const {
  if (point_) point_->InitState(state.first(law_state_size_));
  state[law_state_size_] = state[law_state_size_ + 1] = 0.0;
  state[law_state_size_ + 2] = normal_->contact_onset_gap();
}

ContactPair::Closing ContactPair::ClosingBetween(double committed_gap, double gap) const {
  const double onset = normal_->contact_onset_gap();
  if (normal_->bilateral() || !(committed_gap > onset && gap < onset)) return {};
  const double span = committed_gap - gap;
  return {.theta = (committed_gap - onset) / span,
          .d_gap = (committed_gap - onset) / (span * span),
          .d_committed_gap = (onset - gap) / (span * span)};
}

Status ContactPair::ReleaseBetween(std::span<const double> committed, const PairInput& in,
                                   Release& out) const {
  out = Release{};
  const double onset = normal_->contact_onset_gap();
  const double committed_gap = committed[law_state_size_ + 2];
  const double gap = in.initial_gap + in.z(2);
  if (!point_ || normal_->bilateral() || !(committed_gap < onset && gap >= onset))
    return Status::Ok();
  const Vec2 offset(committed[law_state_size_], committed[law_state_size_ + 1]);
  std::vector<double> trial(law_state_size_);
  TangentialResponse at_contact;
  if (Status status =
          point_->tangential_law().Evaluate({.slip = in.z.head<2>() - offset,
                                             .pressure = std::numeric_limits<double>::min(),
                                             .dt = in.dt},
                                            committed.first(law_state_size_), trial, at_contact);
      !status)
    return status;
  const double span = gap - committed_gap;
  out = {.theta = (onset - committed_gap) / span,
         .d_gap = -(onset - committed_gap) / (span * span),
         .d_committed_gap = (onset - gap) / (span * span),
         .traction = at_contact.traction,
         .d_traction_d_slip = at_contact.d_traction_d_slip,
         .law_state = std::move(trial)};
  return Status::Ok();
}

bool ContactPair::PeriodicStart(std::span<double> state, const MatX& z, double initial_gap,
                                MatX* d_state) const {
  const int law = law_state_size_;
  const double onset = normal_->contact_onset_gap();
  if (!point_ || normal_->bilateral() || !(state[law + 2] >= onset)) return false;
  const int n = static_cast<int>(z.rows());
  Eigen::Index top = 0;
  const double largest = initial_gap + z.col(2).maxCoeff(&top);
  if (!(largest < onset)) return false;  // it opens: its closings set the offset
  const VecX w = (z.col(2).array() + (initial_gap - 2.0 * largest + onset)).max(0.0);
  const double total = w.sum();  // >= w(top) = onset - largest > 0
  const Vec2 offset = z.leftCols<2>().transpose() * w / total;
  point_->InitState(state.first(law));
  state[law] = offset(0);
  state[law + 1] = offset(1);
  state[law + 2] = initial_gap + z(0, 2);
  if (d_state == nullptr) return true;
  // d s* = sum_j (w_j d u_j + (u_j - s*) d w_j) / sum_j w_j, d w_j = d g_j - 2 d g_top.
  d_state->setZero(state_size(), 3 * n);
  (*d_state)(law + 2, 2 * n) = 1.0;
  for (int j = 0; j < n; ++j) {
    if (w(j) == 0.0) continue;
    for (int c = 0; c < 2; ++c) {
      const double away = (z(j, c) - offset(c)) / total;
      (*d_state)(law + c, c * n + j) = w(j) / total;
      (*d_state)(law + c, 2 * n + j) += away;
      (*d_state)(law + c, 2 * n + top) -= 2.0 * away;
    }
  }
  return true;
}

Status ContactPair::Evaluate(const PairInput& in, std::span<const double> committed,
                             std::span<double> trial, PairResponse& out) const {
  const Vec2 committed_offset(committed[law_state_size_], committed[law_state_size_ + 1]);
  const double gap = in.initial_gap + in.z(2);
  const Closing closing = ClosingBetween(committed[law_state_size_ + 2], gap);
  const Vec2 opened = in.z.head<2>() - committed_offset;  // u - s*_c
  const Vec2 offset = committed_offset + closing.theta * opened;
  const ContactInput contact{
      .slip = in.z.head<2>() - offset, .gap = gap, .gap_rate = in.gap_rate, .dt = in.dt};
  ContactResponse response;
  if (point_) {
    if (Status status = point_->Evaluate(contact, committed.first(law_state_size_),
                                         trial.first(law_state_size_), response);
        !status)
      return status;
  } else {
    const NormalResponse p = normal_->Evaluate(contact.gap, contact.gap_rate);
    if (!std::isfinite(p.pressure) || !std::isfinite(p.d_pressure_d_gap) ||
        !std::isfinite(p.d_pressure_d_gap_rate))
      return Status::Failure("normal law '" + std::string(normal_->type()) +
                             "' gave a non-finite pressure at gap " + FormatValue(contact.gap) +
                             " m");
    response.pressure = p.pressure;
    response.state = ContactState::kSlip;
    response.tangent(2, 2) = p.d_pressure_d_gap;
    response.d_pressure_d_gap_rate = p.d_pressure_d_gap_rate;
    response.stored_energy = p.stored_energy;
  }
  Vec2 slip = contact.slip;
  Vec2 trial_offset = offset;
  if (!normal_->bilateral() && response.pressure <= 0.0) {
    // Open: no traction, the offset follows, virgin history.
    slip.setZero();
    trial_offset = in.z.head<2>();
    if (point_) point_->InitState(trial.first(law_state_size_));
    const double onset = normal_->contact_onset_gap();
    const double closed_slope =
        contact.gap <= onset + touch_band_
            ? normal_
                  ->Evaluate(std::nextafter(onset, -std::numeric_limits<double>::infinity()),
                             contact.gap_rate)
                  .d_pressure_d_gap
            : 0.0;
    response = ContactResponse{};
    response.tangent(2, 2) = closed_slope;
  }
  trial[law_state_size_] = trial_offset(0);
  trial[law_state_size_ + 1] = trial_offset(1);
  trial[law_state_size_ + 2] = gap;
  out.kinematics << slip, contact.gap;
  out.stress << response.traction, -response.pressure;
  out.tangent = response.tangent;
  if (closing.theta > 0.0) {  // d s / d u = (1 - theta) I, d s / d g = -d theta / d g (u - s*_c)
    out.tangent.col(2) -= closing.d_gap * (out.tangent.leftCols<2>() * opened);
    out.tangent.leftCols<2>() *= 1.0 - closing.theta;
  }
  out.tangent.row(2) *= -1.0;  // t(2) = -p
  out.rate_tangent.setZero();
  out.rate_tangent.col(2) << response.d_traction_d_gap_rate, -response.d_pressure_d_gap_rate;
  out.state = response.state;
  out.stored_energy = response.stored_energy;
  out.tangential_energy = response.tangential_energy;
  return Status::Ok();
}

}  // namespace jointdyn::laws
