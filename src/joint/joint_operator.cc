#include "joint/joint_operator.h"

#include <cmath>
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

namespace {

laws::ContactPair MakePair(const JointLaws& laws, const JointOptions& options) {
  options.Validate();
  if (laws.normal == nullptr) throw InputError("joint.normal_law", "", "must be given");
  return laws::ContactPair(laws.normal, laws.tangential, options.touch_band);
}

}  // namespace

JointOperator::JointOperator(PairProjection relative, VecX initial_gap, VecX area, JointLaws laws,
                             const JointOptions& options)
    : relative_(std::move(relative)),
      scaled_(relative_),
      initial_gap_(std::move(initial_gap)),
      area_(std::move(area)),
      laws_(std::move(laws)),
      options_(options),
      pair_(MakePair(laws_, options_)) {
  const int n = num_pairs();
  JD_CHECK(initial_gap_.size() == n && area_.size() == n,
           "JointOperator: one initial gap and area per pair");
  for (int i = 0; i < n; ++i) {
    if (!(area_(i) >= 0.0 && std::isfinite(area_(i))))
      throw InputError("joint.pairs[" + std::to_string(i) + "].area", FormatValue(area_(i)),
                       "must be finite and >= 0 (consistent nodal areas of quadratic faces are "
                       "negative at corners: pair with area_weighting diagonal_scaled)");
  }
  committed_.resize(static_cast<std::size_t>(n) * pair_.state_size());
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

std::span<const double> JointOperator::CommittedHistory(int pair) const {
  const int size = pair_.state_size();
  return std::span<const double>(committed_).subspan(static_cast<std::size_t>(pair) * size, size);
}

void JointOperator::ResetHistory() {
  const int n = num_pairs(), size = pair_.state_size();
  for (int i = 0; i < n; ++i)
    pair_.InitState(
        std::span<double>(committed_).subspan(static_cast<std::size_t>(i) * size, size));
  trial_ = committed_;
  committed_energy_ = VecX::Zero(n);
  trial_energy_ = committed_energy_;
  committed_closed_.assign(n, false);
  openings_.assign(n, 0);
  opening_energy_ = VecX::Zero(n);
}

void JointOperator::StickAt(const VecX& x) {
  ResetHistory();
  relative_.Apply(x, z_);
  const int size = pair_.state_size(), offset = pair_.law_state_size();
  for (int i = 0, n = num_pairs(); i < n; ++i) {
    committed_[static_cast<std::size_t>(i) * size + offset] = z_(3 * i);
    committed_[static_cast<std::size_t>(i) * size + offset + 1] = z_(3 * i + 1);
  }
  trial_ = committed_;
}

void JointOperator::StartPeriod(const MatX& samples) {
  const int n = static_cast<int>(samples.cols()), size = pair_.state_size();
  MatX z(3 * num_pairs(), n);  // pair rows over the samples
  VecX column;
  for (int j = 0; j < n; ++j) {
    relative_.Apply(samples.col(j), column);
    z.col(j) = column;
  }
  for (int i = 0, pairs = num_pairs(); i < pairs; ++i) {
    pair_.PeriodicStart(
        std::span<double>(committed_).subspan(static_cast<std::size_t>(i) * size, size),
        z.middleRows(3 * i, 3).transpose(), initial_gap_(i), nullptr);
  }
  trial_ = committed_;
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
  JD_CHECK(other.num_pairs() == num_pairs() && other.pair_.state_size() == pair_.state_size(),
           "JointOperator::CopyHistory: the operators differ in pairs or friction law");
  committed_ = other.committed_;
  trial_ = committed_;
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
  const std::size_t size = pair_.state_size();
  laws::PairResponse response;
  stored_energy_ = 0.0;
  rate_dependent_ = false;
  for (int i = 0, n = num_pairs(); i < n; ++i) {
    const laws::PairInput in{.z = z_.segment<3>(3 * i),
                             .gap_rate = z_rate_(3 * i + 2),
                             .initial_gap = initial_gap_(i),
                             .dt = dt};
    const Status status =
        pair_.Evaluate(in, std::span<const double>(committed_).subspan(i * size, size),
                       std::span<double>(trial_).subspan(i * size, size), response);
    if (!status) return Status::Failure("joint pair " + std::to_string(i) + ": " + status.message);
    kinematics_.segment<3>(3 * i) = response.kinematics;
    stresses_.segment<3>(3 * i) = response.stress;
    tangents_[i] = response.tangent;
    rate_tangents_[i] = response.rate_tangent;
    states_[i] = response.state;
    trial_energy_(i) = area_(i) * response.tangential_energy;
    stored_energy_ += area_(i) * response.stored_energy;
    rate_dependent_ = rate_dependent_ || !response.rate_tangent.isZero(0.0);
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
