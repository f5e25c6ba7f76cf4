#include "laws/iwan.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "core/error.h"
#include "core/numeric.h"
#include "laws/param_check.h"

namespace jointdyn::laws {
namespace {

constexpr int kHeader = 3;  // closed-form history header: origin, delta_n, m
constexpr int kMaxElements = 1000000;
constexpr int kMaxTurningPoints = 100000;

// factor * T_b(x / factor) and its derivatives: factor 1 is the virgin curve, factor 2 a
// Masing branch. With u = k_t |x| / (factor F_s): force = factor sgn(x) F_s g(u).
struct BranchTerm {
  double force = 0.0;    // [N]
  double d_slip = 0.0;   // d force / d x = k_t g'(u) [N/m]
  double d_scale = 0.0;  // d force / d F_s = factor sgn(x) M1(u) [-]
  bool gross_slip = false;
};

BranchTerm Branch(const IwanDensity& density, double k_t, double f_s, double x, double factor) {
  const double u = k_t * std::abs(x) / (factor * f_s);
  const double sign = Sign(x);
  if (u >= density.max_strength()) return {factor * sign * f_s, 0.0, factor * sign, true};
  const PartialMoments m = density.Moments(u);
  return {factor * sign * f_s * (m.m1 + u * (1.0 - m.m0)), k_t * (1.0 - m.m0), factor * sign * m.m1,
          false};
}

}  // namespace

IwanLaw::IwanLaw(std::string type, const IwanParams& params,
                 std::unique_ptr<const IwanDensity> density)
    : type_(std::move(type)), params_(params), density_(std::move(density)) {
  RequirePositive("k_t", params.k_t);
  RequirePositive("mu", params.mu);
  Require(params.elements >= 0 && params.elements <= kMaxElements, "elements", params.elements,
          "must be in [0, 1000000] (0: closed form)");
  Require(params.max_turning_points >= 1 && params.max_turning_points <= kMaxTurningPoints,
          "max_turning_points", params.max_turning_points, "must be in [1, 100000]");
  JD_CHECK(density_ != nullptr, "IwanLaw needs a strength density");
  strengths_.resize(params.elements);
  for (int i = 0; i < params.elements; ++i)
    strengths_[i] = density_->Quantile((i + 0.5) / params.elements);
}

int IwanLaw::state_size() const {
  return params_.elements > 0 ? params_.elements : kHeader + params_.max_turning_points;
}

Status IwanLaw::Evaluate(const TangentialInput& in, std::span<const double> committed,
                         std::span<double> trial, TangentialResponse& out) const {
  out = TangentialResponse{};
  const double delta = in.slip.x();
  if (!std::isfinite(delta) || !std::isfinite(in.pressure))
    return Status::Failure(type_ + ": non-finite input: slip " + FormatValue(delta) +
                           " m, normal load " + FormatValue(in.pressure) + " N");
  Status status = params_.elements > 0 ? EvaluateJenkins(delta, in.pressure, committed, trial, out)
                                       : EvaluateMasing(delta, in.pressure, committed, trial, out);
  if (status && !(std::isfinite(out.traction.x()) && std::isfinite(out.d_traction_d_slip(0, 0)) &&
                  std::isfinite(out.d_traction_d_pressure.x()) && std::isfinite(out.stored_energy)))
    return Status::Failure(type_ + ": non-finite response at slip " + FormatValue(delta) +
                           " m, normal load " + FormatValue(in.pressure) + " N");
  return status;
}

Status IwanLaw::EvaluateMasing(double delta, double normal, std::span<const double> committed,
                               std::span<double> trial, TangentialResponse& out) const {
  const double origin = committed[0];    // slip of the virgin state
  const double previous = committed[1];  // committed slip delta_n
  const int m = static_cast<int>(committed[2]);
  const double* stored = committed.data() + kHeader;
  std::fill(trial.begin() + kHeader, trial.end(), 0.0);
  if (normal <= 0.0) {  // open: no force, virgin again at the current slip
    trial[0] = delta;
    trial[1] = delta;
    trial[2] = 0.0;
    out.state = ContactState::kOpen;
    return Status::Ok();
  }

  // The memory seen by this increment: the stored points, plus delta_n when the motion
  // reverses (one monotonic move per increment, so at most one new point).
  const double last = m > 0 ? stored[m - 1] : origin;
  const bool reversal = (delta - previous) * Sign(previous - last) < 0.0;
  const auto point = [&](int i) { return i < m ? stored[i] : previous; };
  int top = m + (reversal ? 1 : 0);
  const double sigma = Sign(delta - (top > 0 ? point(top - 1) : origin));
  // Wipe-out: the branch from p_top meets the branch it started from at p_{top-1}
  // (the virgin curve at its mirror 2 o - p_1); from there the older branch continues.
  while (top > 0) {
    const double meet = top >= 2 ? point(top - 2) : 2.0 * origin - point(0);
    if (sigma * (delta - meet) < -kWipeOutTolerance * std::abs(point(top - 1) - meet)) break;
    top -= top >= 2 ? 2 : 1;
  }
  if (top > params_.max_turning_points)
    return Status::Failure(type_ + ": turning-point memory full (max_turning_points = " +
                           std::to_string(params_.max_turning_points) +
                           ") at the reversal at slip " + FormatValue(previous) +
                           " m; increase max_turning_points");

  const double k_t = params_.k_t;
  const double f_s = params_.mu * normal;
  // Masing sum: the virgin leg, the closed-off legs, the current branch.
  const auto anchor = [&](int j) { return j == 0 ? origin : (j <= top ? point(j - 1) : delta); };
  double force = 0.0, d_scale = 0.0;
  for (int j = 0; j < top; ++j) {
    const BranchTerm leg =
        Branch(*density_, k_t, f_s, anchor(j + 1) - anchor(j), j == 0 ? 1.0 : 2.0);
    force += leg.force;
    d_scale += leg.d_scale;
  }
  const BranchTerm current = Branch(*density_, k_t, f_s, delta - anchor(top), top == 0 ? 1.0 : 2.0);
  force += current.force;
  d_scale += current.d_scale;

  // Stored energy (1/2) (F_s^2 / k_t) int q(s)^2 dP over the normalized element forces q.
  // Band j = 0 .. top + 1 holds the strengths in (c_j, c_{j-1}] (c_{-1} = inf, c_0 =
  // k_t |a_1 - a_0| / F_s, c_j = k_t |a_{j+1} - a_j| / (2 F_s), c_{top+1} = 0, anchors
  // a_0 = o, a_1..a_top = p_1..p_top, a_{top+1} = delta): they slipped last on the leg
  // towards a_j (none for j = 0) and stick since, q = b_j s + k_t (delta - a_j) / F_s with
  // b_0 = 0, b_j = sgn(a_j - a_{j-1}).
  const double s_max = density_->max_strength();
  PartialMoments above = density_->Moments(s_max);
  double energy = 0.0;
  for (int j = 0; j <= top + 1; ++j) {
    const double lower =
        j == top + 1 ? 0.0
                     : k_t * std::abs(anchor(j + 1) - anchor(j)) / ((j == 0 ? 1.0 : 2.0) * f_s);
    if (lower >= s_max) continue;  // empty band
    const PartialMoments below = density_->Moments(lower);
    const double a = k_t * (delta - anchor(j)) / f_s;
    const double b = j == 0 ? 0.0 : Sign(anchor(j) - anchor(j - 1));
    energy += a * a * (above.m0 - below.m0) + 2.0 * a * b * (above.m1 - below.m1) +
              b * b * (above.m2 - below.m2);
    above = below;
  }

  out.traction.x() = force;
  out.d_traction_d_slip(0, 0) = current.d_slip;
  out.d_traction_d_pressure.x() = params_.mu * d_scale;
  out.stored_energy = 0.5 * f_s * f_s / k_t * energy;
  out.state = current.gross_slip ? ContactState::kSlip : ContactState::kStick;
  trial[0] = origin;
  trial[1] = delta;
  trial[2] = top;
  for (int i = 0; i < top; ++i) trial[kHeader + i] = point(i);
  return Status::Ok();
}

Status IwanLaw::EvaluateJenkins(double delta, double normal, std::span<const double> committed,
                                std::span<double> trial, TangentialResponse& out) const {
  if (normal <= 0.0) {  // open: no force, every slider follows the slip
    std::fill(trial.begin(), trial.end(), delta);
    out.state = ContactState::kOpen;
    return Status::Ok();
  }
  const int n = params_.elements;
  const double k_t = params_.k_t;
  const double f_s = params_.mu * normal;
  // Sums over elements of k_t (delta - x_i) clipped to F_s s_i; the weight 1 / N_J is
  // applied once at the end.
  double force = 0.0, stiffness = 0.0, d_scale = 0.0, energy = 0.0;
  int slipping = 0;
  for (int i = 0; i < n; ++i) {
    double q = k_t * (delta - committed[i]);
    const double limit = f_s * strengths_[i];
    if (std::abs(q) <= limit) {
      stiffness += k_t;
      trial[i] = committed[i];
    } else {
      q = std::copysign(limit, q);
      trial[i] = delta - q / k_t;
      d_scale += std::copysign(strengths_[i], q);
      ++slipping;
    }
    force += q;
    energy += q * q;
  }
  const double weight = 1.0 / n;
  out.traction.x() = weight * force;
  out.d_traction_d_slip(0, 0) = weight * stiffness;
  out.d_traction_d_pressure.x() = params_.mu * weight * d_scale;
  out.stored_energy = 0.5 * weight * energy / k_t;
  out.state = slipping == n ? ContactState::kSlip : ContactState::kStick;
  return Status::Ok();
}

std::unique_ptr<IwanLaw> MakeUniformIwan(const IwanParams& params) {
  return std::make_unique<IwanLaw>("iwan_uniform", params, MakeUniformDensity());
}

std::unique_ptr<IwanLaw> MakeSegalmanIwan(const SegalmanIwanParams& params) {
  return std::make_unique<IwanLaw>("iwan_segalman", params.iwan,
                                   MakeSegalmanDensity(params.chi, params.beta));
}

std::unique_ptr<IwanLaw> MakePressureIwan(const IwanParams& params) {
  return std::make_unique<IwanLaw>("iwan_pressure", params, MakePressureConeDensity());
}

}  // namespace jointdyn::laws
