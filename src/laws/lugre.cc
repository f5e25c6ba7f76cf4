#include "laws/lugre.h"

#include <cmath>

#include "laws/increment.h"
#include "laws/param_check.h"

namespace jointdyn::laws {

LuGreLaw::LuGreLaw(const LuGreParams& params, int dim) : params_(params), dim_(dim) {
  RequirePositive("sigma0", params.sigma0);
  RequireNonNegative("sigma1", params.sigma1);
  RequireNonNegative("sigma2", params.sigma2);
  RequirePositive("mu_c", params.mu_c);
  Require(params.mu_s >= params.mu_c && std::isfinite(params.mu_s), "mu_s", params.mu_s,
          "must be >= mu_c and finite");
  RequirePositive("v_s", params.v_s);
  RequireDim(dim);
}

Status LuGreLaw::Evaluate(const TangentialInput& in, std::span<const double> committed,
                          std::span<double> trial, TangentialResponse& out) const {
  if (Status status = CheckTimeStep(type(), in.dt); !status) return status;
  SlipIncrement increment;  // open contact: no shear, the bristles relax
  if (!BeginIncrement(dim_, in, committed, trial, out, increment)) return Status::Ok();
  const auto& [mask, s, s_prev, z_prev] = increment;
  const double p = in.pressure, dt = in.dt;
  const double sigma0 = params_.sigma0;
  const Vec2 ds = s - s_prev;
  const double q = ds.norm();  // |v| dt
  // Stribeck curve g = p g_hat(q/dt) and its derivative with respect to q.
  const double ratio = q / (dt * params_.v_s);
  const double decay = std::exp(-ratio * ratio);
  const double g_hat = params_.mu_c + (params_.mu_s - params_.mu_c) * decay;
  const double g = p * g_hat;
  const double dg_dq =
      decay > 0.0 ? -2.0 * p * (params_.mu_s - params_.mu_c) * decay * ratio / (dt * params_.v_s)
                  : 0.0;
  // Backward Euler: z = r (z_n + ds) with r = g / (g + sigma0 q).
  const double den = g + sigma0 * q;
  const double r = g / den;
  const Vec2 w = z_prev + ds;
  const Vec2 z = r * w;
  const double a = sigma0 + params_.sigma1 / dt;
  out.traction = a * z - (params_.sigma1 / dt) * z_prev + (params_.sigma2 / dt) * ds;
  Mat2 dz_ds = r * mask;
  if (q > 0.0) {
    // dr/dq = sigma0 (q dg/dq - g) / den^2 along n = ds/q. At q = 0 (|v| kink) the
    // direction is undefined; the average of the one-sided slopes drops this term.
    const Vec2 n = ds / q;
    dz_ds += w * (sigma0 * (q * dg_dq - g) / (den * den) * n).transpose();
    if (sigma0 * z.dot(n) > 0.5 * g) out.state = ContactState::kSlip;
  }
  out.d_traction_d_slip = a * dz_ds + (params_.sigma2 / dt) * mask;
  out.d_traction_d_pressure = a * (sigma0 * q * g_hat / (den * den)) * w;
  out.stored_energy = 0.5 * sigma0 * z.squaredNorm();
  if (!out.traction.allFinite() || !out.d_traction_d_slip.allFinite())
    return Status::Failure("lugre: non-finite traction at dt = " + FormatValue(dt) +
                           ", |ds| = " + FormatValue(q));
  trial[2] = z.x();
  trial[3] = z.y();
  return Status::Ok();
}

}  // namespace jointdyn::laws
