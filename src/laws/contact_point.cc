#include "laws/contact_point.h"

#include <cmath>
#include <string>
#include <utility>

#include "core/error.h"
#include "laws/coulomb.h"
#include "laws/normal_laws.h"

namespace jointdyn::laws {
namespace {

TangentialInput TangentialAt(const ContactInput& in, double pressure) {
  return {in.slip, pressure, in.dt};
}

}  // namespace

ContactPoint::ContactPoint(std::shared_ptr<const NormalLaw> normal,
                           std::shared_ptr<const TangentialLaw> tangential)
    : normal_(std::move(normal)), tangential_(std::move(tangential)) {
  JD_CHECK(normal_ != nullptr && tangential_ != nullptr, "ContactPoint needs both laws");
}

Status ContactPoint::Evaluate(const ContactInput& in, std::span<const double> committed,
                              std::span<double> trial, ContactResponse& out) const {
  const NormalResponse normal = normal_->Evaluate(in.gap, in.gap_rate);
  // NormalLaw::Evaluate has no status: an exponential law overflows to +inf, which would
  // turn 0 * inf into NaN in the chained tangent. Report it here instead.
  if (!std::isfinite(normal.pressure) || !std::isfinite(normal.d_pressure_d_gap) ||
      !std::isfinite(normal.d_pressure_d_gap_rate))
    return Status::Failure("normal law '" + std::string(normal_->type()) +
                           "' gave a non-finite pressure " + FormatValue(normal.pressure) +
                           " at gap " + FormatValue(in.gap) + " m");
  TangentialResponse tangential;
  Status status =
      tangential_->Evaluate(TangentialAt(in, normal.pressure), committed, trial, tangential);
  if (!status) return status;
  out = ContactResponse{};
  out.traction = tangential.traction;
  out.pressure = normal.pressure;
  out.state = tangential.state;
  out.tangent.topLeftCorner<2, 2>() = tangential.d_traction_d_slip;
  out.tangent.topRightCorner<2, 1>() = tangential.d_traction_d_pressure * normal.d_pressure_d_gap;
  out.tangent(2, 2) = normal.d_pressure_d_gap;
  out.d_pressure_d_gap_rate = normal.d_pressure_d_gap_rate;
  out.d_traction_d_gap_rate = tangential.d_traction_d_pressure * normal.d_pressure_d_gap_rate;
  out.stored_energy = normal.stored_energy + tangential.stored_energy;
  out.tangential_energy = tangential.stored_energy;
  return Status::Ok();
}

double ContactPoint::PostNewtonUpdate(const ContactInput& in, std::span<const double> trial,
                                      std::span<double> switching) const {
  const double pressure = normal_->Evaluate(in.gap, in.gap_rate).pressure;
  return tangential_->PostNewtonUpdate(TangentialAt(in, pressure), trial, switching);
}

ContactPoint MakeNodeToNodeElement(const NodeToNodeParams& params, int dim) {
  return ContactPoint(std::make_shared<UnilateralPreloadLaw>(
                          UnilateralPreloadParams{.k_n = params.k_n, .n0 = params.n0}),
                      std::make_shared<CoulombLaw>(
                          CoulombParams{.c1 = params.k_t, .c2 = 0.0, .mu = params.mu}, dim));
}

}  // namespace jointdyn::laws
