#include "joint/joint_operator.h"

#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <utility>

#include "core/error.h"

namespace jointdyn::joint {

double PairOutput::friction_stress() const { return std::hypot(tau1, tau2); }

void JointOptions::Validate() const {
  if (!(touch_band >= 0.0 && std::isfinite(touch_band)))
    throw InputError("joint.touch_band", FormatValue(touch_band), "must be finite and >= 0");
}

JointOperator::JointOperator(PairProjection relative, VecX initial_gap, VecX area, JointLaws laws,
                             const JointOptions& options)
    : relative_(std::move(relative)),
      scaled_(relative_),
      initial_gap_(std::move(initial_gap)),
      area_(std::move(area)),
      laws_(std::move(laws)),
      options_(options) {
  options_.Validate();
  if (laws_.normal == nullptr) throw InputError("joint.normal_law", "", "must be given");
  const int n = num_pairs();
  JD_CHECK(initial_gap_.size() == n && area_.size() == n,
           "JointOperator: one initial gap and area per pair");
  for (int i = 0; i < n; ++i) {
    if (!(area_(i) >= 0.0 && std::isfinite(area_(i))))
      throw InputError("joint.pairs[" + std::to_string(i) + "].area", FormatValue(area_(i)),
                       "must be finite and >= 0 (consistent nodal areas of quadratic faces are "
                       "negative at corners: pair with area_weighting diagonal_scaled)");
  }
  if (laws_.tangential != nullptr) {
    point_.emplace(laws_.normal, laws_.tangential);
    state_size_ = laws_.tangential->state_size();
  }
  committed_.resize(static_cast<std::size_t>(n) * state_size_);
  trial_.resize(committed_.size());
  z_ = VecX::Zero(3 * n);
  z_rate_ = VecX::Zero(3 * n);
  kinematics_ = VecX::Zero(3 * n);
  stresses_ = VecX::Zero(3 * n);
  weighted_ = VecX::Zero(3 * n);
  tangents_.assign(n, Mat3::Zero());
  rate_tangents_.assign(n, Mat3::Zero());
  states_.assign(n, laws::ContactState::kOpen);
  ResetHistory();
}

void JointOperator::ResetHistory() {
  const int n = num_pairs();
  for (int i = 0; i < n && point_; ++i) {
    point_->InitState(std::span<double>(committed_).subspan(i * state_size_, state_size_));
  }
  trial_ = committed_;
  committed_offset_ = VecX::Zero(2 * n);
  trial_offset_ = committed_offset_;
  committed_energy_ = VecX::Zero(n);
  trial_energy_ = committed_energy_;
  committed_closed_.assign(n, false);
  openings_.assign(n, 0);
  opening_energy_ = VecX::Zero(n);
}

namespace {

// `joint` on x = basis y, with its committed history.
template <class Basis>
JointOperator OnBasis(const JointOperator& joint, const Basis& basis) {
  JointOperator reduced(joint.relative().Compose(basis), joint.initial_gap(), joint.area(),
                        joint.laws(), joint.options());
  reduced.CopyHistory(joint);
  return reduced;
}

}  // namespace

JointOperator JointOperator::Reduced(const MatX& basis) const { return OnBasis(*this, basis); }

JointOperator JointOperator::Reduced(const solvers::SparseMatrix& basis) const {
  return OnBasis(*this, basis);
}

void JointOperator::CopyHistory(const JointOperator& other) {
  JD_CHECK(other.num_pairs() == num_pairs() && other.state_size_ == state_size_,
           "JointOperator::CopyHistory: the operators differ in pairs or friction law");
  committed_ = other.committed_;
  trial_ = committed_;
  committed_offset_ = other.committed_offset_;
  trial_offset_ = committed_offset_;
  committed_energy_ = other.committed_energy_;
  trial_energy_ = committed_energy_;
  committed_closed_ = other.committed_closed_;
  openings_.assign(num_pairs(), 0);
  opening_energy_ = VecX::Zero(num_pairs());
}

Status JointOperator::Evaluate(const VecX& x, const VecX* velocity, double dt) {
  relative_.Apply(x, z_);
  if (velocity != nullptr) {
    relative_.Apply(*velocity, z_rate_);
  } else {
    z_rate_.setZero();
  }
  const laws::NormalLaw& normal = *laws_.normal;
  const double onset = normal.contact_onset_gap();
  const double band_end = onset + options_.touch_band;
  const bool bilateral = normal.bilateral();
  const std::span<const double> committed(committed_);
  const std::span<double> trial(trial_);
  laws::ContactResponse response;
  stored_energy_ = 0.0;
  rate_dependent_ = false;
  for (int i = 0, n = num_pairs(); i < n; ++i) {
    const laws::ContactInput in{.slip = z_.segment<2>(3 * i) - committed_offset_.segment<2>(2 * i),
                                .gap = initial_gap_(i) + z_(3 * i + 2),
                                .gap_rate = z_rate_(3 * i + 2),
                                .dt = dt};
    if (point_) {
      const Status status = point_->Evaluate(in, committed.subspan(i * state_size_, state_size_),
                                             trial.subspan(i * state_size_, state_size_), response);
      if (!status)
        return Status::Failure("joint pair " + std::to_string(i) + ": " + status.message);
    } else {
      const laws::NormalResponse p = normal.Evaluate(in.gap, in.gap_rate);
      if (!std::isfinite(p.pressure) || !std::isfinite(p.d_pressure_d_gap) ||
          !std::isfinite(p.d_pressure_d_gap_rate))
        return Status::Failure("joint pair " + std::to_string(i) + ": normal law '" +
                               std::string(normal.type()) + "' gave a non-finite pressure at gap " +
                               FormatValue(in.gap) + " m");
      response = laws::ContactResponse{};
      response.pressure = p.pressure;
      response.state = laws::ContactState::kSlip;
      response.tangent(2, 2) = p.d_pressure_d_gap;
      response.d_pressure_d_gap_rate = p.d_pressure_d_gap_rate;
      response.stored_energy = p.stored_energy;
    }
    Vec2 slip = in.slip;
    // Open: no traction, the offset follows, virgin history.
    if (!bilateral && response.pressure <= 0.0) {
      slip.setZero();
      trial_offset_.segment<2>(2 * i) = z_.segment<2>(3 * i);
      if (point_) point_->InitState(trial.subspan(i * state_size_, state_size_));
      const double closed_slope =
          in.gap <= band_end
              ? normal
                    .Evaluate(std::nextafter(onset, -std::numeric_limits<double>::infinity()),
                              in.gap_rate)
                    .d_pressure_d_gap
              : 0.0;
      response = laws::ContactResponse{};
      response.tangent(2, 2) = closed_slope;
    } else {
      trial_offset_.segment<2>(2 * i) = committed_offset_.segment<2>(2 * i);
    }
    kinematics_.segment<3>(3 * i) << slip, in.gap;
    stresses_.segment<3>(3 * i) << response.traction, -response.pressure;
    Mat3& d = tangents_[i];
    d = response.tangent;
    d.row(2) *= -1.0;  // t(2) = -p
    Mat3& c = rate_tangents_[i];
    c.setZero();
    c.col(2) << response.d_traction_d_gap_rate, -response.d_pressure_d_gap_rate;
    states_[i] = response.state;
    trial_energy_(i) = area_(i) * response.tangential_energy;
    stored_energy_ += area_(i) * response.stored_energy;
    rate_dependent_ = rate_dependent_ || !c.isZero(0.0);
  }
  return Status::Ok();
}

void JointOperator::Forces(VecX& f) {
  for (int i = 0, n = num_pairs(); i < n; ++i)
    weighted_.segment<3>(3 * i) = area_(i) * stresses_.segment<3>(3 * i);
  relative_.ApplyTranspose(weighted_, f);
}

void JointOperator::Jacobian(solvers::SparseMatrix& j, Derivative derivative) {
  relative_.ScaleRows(derivative == Derivative::kDisplacement ? tangents_ : rate_tangents_,
                      std::span<const double>(area_.data(), area_.size()), scaled_);
  relative_.TransposeTimes(scaled_, j);
}

void JointOperator::Jacobian(MatX& j, Derivative derivative) {
  relative_.ScaleRows(derivative == Derivative::kDisplacement ? tangents_ : rate_tangents_,
                      std::span<const double>(area_.data(), area_.size()), scaled_);
  relative_.TransposeTimes(scaled_, j);
}

void JointOperator::Commit() {
  for (int i = 0, n = num_pairs(); i < n; ++i) {
    const bool closed = states_[i] != laws::ContactState::kOpen;
    if (committed_closed_[i] && !closed) {
      ++openings_[i];
      opening_energy_(i) += committed_energy_(i);
    }
    committed_closed_[i] = closed;
  }
  committed_ = trial_;
  committed_offset_ = trial_offset_;
  committed_energy_ = trial_energy_;
}

PairOutput JointOperator::Output(int pair) const {
  JD_CHECK(pair >= 0 && pair < num_pairs(), "JointOperator::Output: pair index");
  return {.gap = kinematics_(3 * pair + 2),
          .pressure = -stresses_(3 * pair + 2),
          .s1 = kinematics_(3 * pair),
          .s2 = kinematics_(3 * pair + 1),
          .tau1 = stresses_(3 * pair),
          .tau2 = stresses_(3 * pair + 1),
          .state = states_[pair],
          .openings = openings_[pair],
          .opening_energy = opening_energy_(pair)};
}

int JointOperator::openings() const {
  return std::accumulate(openings_.begin(), openings_.end(), 0);
}

double JointOperator::opening_energy() const { return opening_energy_.sum(); }

int JointOperator::CountInContact() const {
  int count = 0;
  for (const laws::ContactState state : states_) count += state != laws::ContactState::kOpen;
  return count;
}

double JointOperator::GapNorm() const {
  double sum = 0.0;
  for (int i = 0, n = num_pairs(); i < n; ++i)
    sum += kinematics_(3 * i + 2) * kinematics_(3 * i + 2);
  return std::sqrt(sum);
}

double JointOperator::NormalForce() const {
  double sum = 0.0;
  for (int i = 0, n = num_pairs(); i < n; ++i) sum -= area_(i) * stresses_(3 * i + 2);
  return sum;
}

}  // namespace jointdyn::joint
