#include "laws/viscoelastic.h"

#include "laws/increment.h"
#include "laws/param_check.h"

namespace jointdyn::laws {

ViscoelasticLaw::ViscoelasticLaw(std::string_view type, double k_inf, double compliance, double c,
                                 int dim)
    : type_(type), k_inf_(k_inf), compliance_(compliance), c_(c), dim_(dim) {
  RequireDim(dim);
}

ViscoelasticLaw::ViscoelasticLaw(const KelvinVoigtParams& params, int dim)
    : ViscoelasticLaw("kelvin_voigt", params.k, 0.0, params.c, dim) {
  RequireNonNegative("k", params.k);
  RequirePositive("c", params.c);
}

ViscoelasticLaw::ViscoelasticLaw(const MaxwellParams& params, int dim)
    : ViscoelasticLaw("maxwell", 0.0, 1.0 / params.k, params.c, dim) {
  RequirePositive("k", params.k);
  RequirePositive("c", params.c);
}

ViscoelasticLaw::ViscoelasticLaw(const ZenerParams& params, int dim)
    : ViscoelasticLaw("zener", params.k_inf, 1.0 / params.k1, params.c1, dim) {
  RequireNonNegative("k_inf", params.k_inf);
  RequirePositive("k1", params.k1);
  RequirePositive("c1", params.c1);
}

Status ViscoelasticLaw::Evaluate(const TangentialInput& in, std::span<const double> committed,
                                 std::span<double> trial, TangentialResponse& out) const {
  if (Status status = CheckTimeStep(type_, in.dt); !status) return status;
  const Mat2 mask = DimMask(dim_);
  const Vec2 s = mask * in.slip;
  const Vec2 s_prev(committed[0], committed[1]);
  const Vec2 sigma_prev(committed[2], committed[3]);
  // Backward Euler of f1 d(sigma)/dt + sigma / c = ds/dt.
  const double branch_compliance = compliance_ + in.dt / c_;
  const Vec2 sigma = (compliance_ * sigma_prev + (s - s_prev)) / branch_compliance;
  out = TangentialResponse{};
  out.traction = k_inf_ * s + sigma;
  out.d_traction_d_slip = (k_inf_ + 1.0 / branch_compliance) * mask;
  out.stored_energy = 0.5 * k_inf_ * s.squaredNorm() + 0.5 * compliance_ * sigma.squaredNorm();
  out.state = ContactState::kStick;
  trial[0] = s.x();
  trial[1] = s.y();
  trial[2] = sigma.x();
  trial[3] = sigma.y();
  return Status::Ok();
}

ElasticLaw::ElasticLaw(const ElasticParams& params, int dim) : k_(params.k), dim_(dim) {
  RequireDim(dim);
  RequirePositive("k", params.k);
}

Status ElasticLaw::Evaluate(const TangentialInput& in, std::span<const double> /*committed*/,
                            std::span<double> /*trial*/, TangentialResponse& out) const {
  const Mat2 mask = DimMask(dim_);
  const Vec2 s = mask * in.slip;
  out = TangentialResponse{};
  out.traction = k_ * s;
  out.d_traction_d_slip = k_ * mask;
  out.stored_energy = 0.5 * k_ * s.squaredNorm();
  out.state = ContactState::kStick;
  return Status::Ok();
}

}  // namespace jointdyn::laws
