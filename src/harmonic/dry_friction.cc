#include "harmonic/dry_friction.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <utility>

#include "core/error.h"

namespace jointdyn::harmonic {
namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;
// Crossings this close [rad] are one tangential root (a few roundings of a phase).
constexpr double kCoincident = 8.0 * std::numeric_limits<double>::epsilon() * kTwoPi;
// A Newton step below this [rad] ends the refinement (rounding of a phase in [0, 2 pi)).
constexpr double kPhaseTolerance = 4.0 * std::numeric_limits<double>::epsilon() * kTwoPi;
// Bisection alone reaches kPhaseTolerance from a sample spacing in fewer steps.
constexpr int kMaxRefinements = 100;

struct SeriesValue {
  double value = 0.0;
  double slope = 0.0;  // d value / d theta
};

// The series with coefficients y and its derivative at theta.
SeriesValue Series(const HarmonicBasis& basis, const VecX& y, double theta) {
  SeriesValue s;
  if (basis.has_static()) s.value = y(0);
  for (int pair = 0; pair < basis.num_pairs(); ++pair) {
    const int k = basis.PairHarmonic(pair);
    const double a = y(basis.CosIndex(pair)), b = y(basis.CosIndex(pair) + 1);
    const double c = std::cos(k * theta), sn = std::sin(k * theta);
    s.value += a * c + b * sn;
    s.slope += k * (b * c - a * sn);
  }
  return s;
}

// The basis functions phi_c(theta) and their derivatives phi'_c(theta).
void BasisAt(const HarmonicBasis& basis, double theta, VecX& phi, VecX& derivative) {
  phi.setZero(basis.size());
  derivative.setZero(basis.size());
  if (basis.has_static()) phi(0) = 1.0;
  for (int pair = 0; pair < basis.num_pairs(); ++pair) {
    const int k = basis.PairHarmonic(pair), c = basis.CosIndex(pair);
    const double cs = std::cos(k * theta), sn = std::sin(k * theta);
    phi(c) = cs;
    phi(c + 1) = sn;
    derivative(c) = -k * sn;
    derivative(c + 1) = k * cs;
  }
}

// w_c / pi per coefficient: the projection of a signal onto coefficient c (w_0 = 1/2).
VecX Projection(const HarmonicBasis& basis) {
  VecX w = VecX::Constant(basis.size(), 1.0 / std::numbers::pi);
  if (basis.has_static()) w(0) = 0.5 / std::numbers::pi;
  return w;
}

// The zero of the series y in [lo, hi], where it is <= 0 at lo and > 0 at hi (`rising`) or
// the other way round: Newton's method safeguarded by bisection (the bracket shrinks at
// every step; Newton steps that leave it or do not halve the step before last bisect).
double Refine(const HarmonicBasis& basis, const VecX& y, double lo, double hi, bool rising) {
  double step_before = hi - lo, step = step_before;
  double x = 0.5 * (lo + hi);
  SeriesValue s = Series(basis, y, x);
  for (int iteration = 0; iteration < kMaxRefinements && s.value != 0.0; ++iteration) {
    if ((s.value > 0.0) == rising) {
      hi = x;
    } else {
      lo = x;
    }
    const bool newton_leaves =
        ((x - hi) * s.slope - s.value) * ((x - lo) * s.slope - s.value) >= 0.0;
    if (newton_leaves || std::abs(2.0 * s.value) > std::abs(step_before * s.slope)) {
      step_before = step;
      step = 0.5 * (hi - lo);
      x = lo + step;
    } else {
      step_before = step;
      step = s.value / s.slope;
      x -= step;
    }
    if (std::abs(step) <= kPhaseTolerance) break;
    s = Series(basis, y, x);
  }
  return x;
}

}  // namespace

DryFrictionForce::DryFrictionForce(double slip_force, std::string name)
    : slip_force_(slip_force), name_(std::move(name)) {
  JD_CHECK(std::isfinite(slip_force) && slip_force > 0.0,
           "DryFrictionForce: the slip force must be finite and > 0");
}

Status DryFrictionForce::Locate(Aft& aft, const MatX& x) {
  const HarmonicBasis& basis = aft.basis();
  const int n = aft.num_samples();
  JD_CHECK(x.rows() == aft.num_coefficients() && x.cols() == 1,
           "DryFrictionForce: coefficient matrix shape");
  crossings_.clear();
  if (!x.allFinite()) {
    return Status::Failure("dry friction" + (name_.empty() ? "" : " '" + name_ + "'") +
                           ": the relative displacement has non-finite coefficients");
  }
  slope_ = aft.derivative_matrix() * x.col(0);
  curvature_ = aft.derivative_matrix() * slope_;
  if (slope_.cwiseAbs().maxCoeff() == 0.0) return Status::Ok();  // no motion
  curvature_floor_ = kTangentFloor * curvature_.cwiseAbs().sum();
  slope_samples_.resize(n);
  curvature_samples_.resize(n);
  aft.ToTime(slope_, slope_samples_);
  aft.ToTime(curvature_, curvature_samples_);
  for (int j = 0; j < n; ++j) {
    const int next = (j + 1) % n;
    // The sample interval, split at the extremum of r' inside it (a sign change of r'').
    double cuts[3] = {kTwoPi * j / n, kTwoPi * (j + 1) / n, 0.0};
    bool positive[3] = {slope_samples_(j) > 0.0, slope_samples_(next) > 0.0, false};
    int count = 2;
    if ((curvature_samples_(j) > 0.0) != (curvature_samples_(next) > 0.0)) {
      const double extremum =
          Refine(basis, curvature_, cuts[0], cuts[1], curvature_samples_(next) > 0.0);
      cuts[2] = cuts[1];
      positive[2] = positive[1];
      cuts[1] = extremum;
      positive[1] = Series(basis, slope_, extremum).value > 0.0;
      count = 3;
    }
    for (int i = 0; i + 1 < count; ++i) {
      if (positive[i] == positive[i + 1]) continue;
      Crossing crossing;
      crossing.theta = Refine(basis, slope_, cuts[i], cuts[i + 1], positive[i + 1]);
      crossing.curvature = Series(basis, slope_, crossing.theta).slope;
      crossing.jump = positive[i + 1] ? 2.0 * slip_force_ : -2.0 * slip_force_;
      if (crossing.theta >= kTwoPi) crossing.theta -= kTwoPi;
      crossings_.push_back(crossing);
    }
  }
  std::sort(crossings_.begin(), crossings_.end(),
            [](const Crossing& a, const Crossing& b) { return a.theta < b.theta; });
  // Tangential roots: neighbouring crossings (the jumps alternate) that coincide.
  for (std::size_t i = 0; i + 1 < crossings_.size();) {
    if (crossings_[i + 1].theta - crossings_[i].theta <= kCoincident) {
      crossings_.erase(crossings_.begin() + i, crossings_.begin() + i + 2);
    } else {
      ++i;
    }
  }
  if (crossings_.size() >= 2 &&
      crossings_.front().theta + kTwoPi - crossings_.back().theta <= kCoincident) {
    crossings_.pop_back();
    crossings_.erase(crossings_.begin());
  }
  return Status::Ok();
}

double DryFrictionForce::Weight(const Crossing& crossing) const {
  return 2.0 * slip_force_ / std::max(std::abs(crossing.curvature), curvature_floor_);
}

Status DryFrictionForce::Evaluate(Aft& aft, double omega, const MatX& x, MatX& f, MatX* jacobian,
                                  MatX* d_omega) {
  JD_CHECK(omega > 0.0 && std::isfinite(omega), "DryFrictionForce: omega must be > 0");
  if (Status status = Locate(aft, x); !status) return status;
  const HarmonicBasis& basis = aft.basis();
  const int nc = aft.num_coefficients();
  f.setZero(nc, 1);
  if (jacobian != nullptr) jacobian->setZero(nc, nc);
  if (d_omega != nullptr) d_omega->setZero(nc, 1);  // rate independent
  if (crossings_.empty()) return Status::Ok();      // no motion: transparent
  if (basis.has_static()) {
    // The sign just after theta = 0 is the opposite of the first jump's direction.
    f(0) = crossings_.front().jump > 0.0 ? -slip_force_ : slip_force_;
    for (const Crossing& c : crossings_) f(0) -= c.jump * c.theta / kTwoPi;
  }
  for (int pair = 0; pair < basis.num_pairs(); ++pair) {
    const int k = basis.PairHarmonic(pair), a = basis.CosIndex(pair);
    for (const Crossing& c : crossings_) {
      f(a) -= c.jump * std::sin(k * c.theta) / (std::numbers::pi * k);
      f(a + 1) += c.jump * std::cos(k * c.theta) / (std::numbers::pi * k);
    }
  }
  if (jacobian != nullptr) {
    const VecX projection = Projection(basis);
    VecX phi, derivative;
    for (const Crossing& c : crossings_) {
      BasisAt(basis, c.theta, phi, derivative);
      jacobian->noalias() += Weight(c) * projection.cwiseProduct(phi) * derivative.transpose();
    }
  }
  return Status::Ok();
}

Status DryFrictionForce::RateJacobian(Aft& aft, double omega, const MatX& x, MatX& jacobian) {
  JD_CHECK(omega > 0.0 && std::isfinite(omega), "DryFrictionForce: omega must be > 0");
  if (Status status = Locate(aft, x); !status) return status;
  const int nc = aft.num_coefficients();
  jacobian.setZero(nc, nc);
  const VecX projection = Projection(aft.basis());
  VecX phi, derivative;
  for (const Crossing& c : crossings_) {
    BasisAt(aft.basis(), c.theta, phi, derivative);
    jacobian.noalias() += (Weight(c) / omega) * projection.cwiseProduct(phi) * phi.transpose();
  }
  return Status::Ok();
}

}  // namespace jointdyn::harmonic
