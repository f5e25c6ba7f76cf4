#include "laws/coulomb.h"

#include "laws/increment.h"
#include "laws/param_check.h"

namespace jointdyn::laws {

CoulombLaw::CoulombLaw(const CoulombParams& params, int dim) : params_(params), dim_(dim) {
  RequirePositive("c1", params.c1);
  RequireNonNegative("c2", params.c2);
  RequireNonNegative("mu", params.mu);
  RequireDim(dim);
}

Status CoulombLaw::Evaluate(const TangentialInput& in, std::span<const double> committed,
                            std::span<double> trial, TangentialResponse& out) const {
  const Mat2 mask = DimMask(dim_);
  const Vec2 s = mask * in.slip;
  const Vec2 s_slider(committed[0], committed[1]);
  out = TangentialResponse{};
  if (in.pressure <= 0.0) {  // open: no traction, the slider follows the slip
    trial[0] = s.x();
    trial[1] = s.y();
    out.state = ContactState::kOpen;
    return Status::Ok();
  }
  const double limit = params_.mu * in.pressure;
  const Vec2 tau_trial = params_.c1 * (s - s_slider);
  const double norm = tau_trial.norm();
  Vec2 tau1 = tau_trial;
  if (norm <= limit) {
    out.state = ContactState::kStick;
    out.d_traction_d_slip = params_.c1 * mask;
    trial[0] = s_slider.x();
    trial[1] = s_slider.y();
  } else {
    out.state = ContactState::kSlip;
    const Vec2 n = tau_trial / norm;
    tau1 = limit * n;
    const Vec2 slider = s - tau1 / params_.c1;
    trial[0] = slider.x();
    trial[1] = slider.y();
    out.d_traction_d_slip = (params_.c1 * limit / norm) * (mask - n * n.transpose());
    out.d_traction_d_pressure = params_.mu * n;
  }
  out.traction = tau1 + params_.c2 * s;
  out.d_traction_d_slip += params_.c2 * mask;
  out.stored_energy = 0.5 * tau1.squaredNorm() / params_.c1 + 0.5 * params_.c2 * s.squaredNorm();
  return Status::Ok();
}

}  // namespace jointdyn::laws
