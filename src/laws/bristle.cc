#include "laws/bristle.h"

#include <algorithm>
#include <cmath>

#include "laws/increment.h"
#include "laws/param_check.h"

namespace jointdyn::laws {
namespace {

// Layout of the history.
constexpr int kSlipPrev = 0;   // s_n (2)
constexpr int kMode = 2;       // x_slip (1)
constexpr int kDirection = 3;  // slip direction d (2)
constexpr int kStickRef = 5;   // x_stickRef (2)

// Values of x_slip (seed 002, eq. 26).
constexpr double kUndefined = -2.0;
constexpr double kSticking = 0.0;
constexpr double kSlipping = 1.0;

Vec2 Read(std::span<const double> state, int at) { return Vec2(state[at], state[at + 1]); }
void Write(std::span<double> state, int at, const Vec2& value) {
  state[at] = value.x();
  state[at + 1] = value.y();
}

}  // namespace

BristleLaw::BristleLaw(const BristleParams& params, int dim) : params_(params), dim_(dim) {
  RequirePositive("mu_k", params.mu_k);
  RequireNonNegative("mu_v", params.mu_v);
  RequireNonNegative("mu", params.mu);
  RequireDim(dim);
}

void BristleLaw::InitState(std::span<double> state) const {
  std::fill(state.begin(), state.end(), 0.0);
  state[kMode] = kUndefined;
}

Status BristleLaw::Evaluate(const TangentialInput& in, std::span<const double> committed,
                            std::span<double> trial, TangentialResponse& out) const {
  if (Status status = CheckTimeStep(type(), in.dt); !status) return status;
  const Mat2 mask = DimMask(dim_);
  const Vec2 s = mask * in.slip;
  std::copy(committed.begin(), committed.end(), trial.begin());
  Write(trial, kSlipPrev, s);
  out = TangentialResponse{};
  if (in.pressure <= 0.0) {  // open: no traction, forget the stick reference
    trial[kMode] = kUndefined;
    out.state = ContactState::kOpen;
    return Status::Ok();
  }
  const Vec2 v = (s - Read(committed, kSlipPrev)) / in.dt;
  const double mode = committed[kMode];
  if (mode == kSlipping) {  // Coulomb, eq. 30; the spring is dragged along, at most at its limit
    const Vec2 d = Read(committed, kDirection);
    const double limit = params_.mu * in.pressure;
    out.traction = limit * d;
    out.d_traction_d_pressure = params_.mu * d;
    // The spring keeps its stretch along d, grows only by slip along d and is capped at
    // the limit: resetting it straight to the limit would create energy when the damper
    // term alone triggered the slip.
    const double stretch =
        std::clamp((s - Read(committed, kStickRef)).dot(d), 0.0, limit / params_.mu_k);
    out.stored_energy = 0.5 * params_.mu_k * stretch * stretch;
    out.state = ContactState::kSlip;
    Write(trial, kStickRef, s - stretch * d);
    return Status::Ok();
  }
  // Stick, eq. 20; undefined: no spring yet (dx_stick = 0).
  out.traction = params_.mu_v * v;
  out.d_traction_d_slip = (params_.mu_v / in.dt) * mask;
  if (mode == kSticking) {
    const Vec2 dx = s - Read(committed, kStickRef);
    out.traction += params_.mu_k * dx;
    out.d_traction_d_slip += params_.mu_k * mask;
    out.stored_energy = 0.5 * params_.mu_k * dx.squaredNorm();
  }
  out.state = ContactState::kStick;
  return Status::Ok();
}

double BristleLaw::PostNewtonUpdate(const TangentialInput& in, std::span<const double> trial,
                                    std::span<double> switching) const {
  if (in.pressure <= 0.0) return 0.0;     // open: nothing to switch
  const Vec2 s = Read(trial, kSlipPrev);  // the converged end-of-increment slip
  const Vec2 v = (s - Read(switching, kSlipPrev)) / in.dt;
  const double mode = switching[kMode];
  const Vec2 ref = mode == kUndefined ? s : Read(switching, kStickRef);
  const Vec2 f_lin = params_.mu_v * v + params_.mu_k * (s - ref);
  const double magnitude = f_lin.norm();
  const double limit = params_.mu * in.pressure;
  const double error = std::abs(magnitude - limit);  // eq. 29
  if (magnitude <= limit) {
    if (mode == kSticking) return 0.0;
    switching[kMode] = kSticking;
    Write(switching, kStickRef, ref);
    return error;
  }
  const Vec2 d = f_lin / magnitude;
  const Vec2 d_old = Read(switching, kDirection);
  if (mode == kSlipping && d == d_old) return 0.0;
  const double turn = mode == kSlipping ? limit * (d - d_old).norm() : 0.0;
  switching[kMode] = kSlipping;
  Write(switching, kDirection, d);
  return std::max(error, turn);
}

}  // namespace jointdyn::laws
