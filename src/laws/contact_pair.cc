#include "laws/contact_pair.h"

#include <cmath>
#include <limits>
#include <string>
#include <utility>

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
}

Status ContactPair::Evaluate(const PairInput& in, std::span<const double> committed,
                             std::span<double> trial, PairResponse& out) const {
  const Vec2 offset(committed[law_state_size_], committed[law_state_size_ + 1]);
  const ContactInput contact{.slip = in.z.head<2>() - offset,
                             .gap = in.initial_gap + in.z(2),
                             .gap_rate = in.gap_rate,
                             .dt = in.dt};
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
  out.kinematics << slip, contact.gap;
  out.stress << response.traction, -response.pressure;
  out.tangent = response.tangent;
  out.tangent.row(2) *= -1.0;  // t(2) = -p
  out.rate_tangent.setZero();
  out.rate_tangent.col(2) << response.d_traction_d_gap_rate, -response.d_pressure_d_gap_rate;
  out.state = response.state;
  out.stored_energy = response.stored_energy;
  out.tangential_energy = response.tangential_energy;
  return Status::Ok();
}

}  // namespace jointdyn::laws
