// A contact point: one normal law and one tangential law coupled through the pressure.
// The normal law gives p(g, g_dot); the tangential law is evaluated at that pressure
// (R_G = mu p for the Coulomb family), so the traction depends on the gap through p:
//   d tau / d g = d tau / d p * dp/dg,   d tau / d g_dot = d tau / d p * dp/dg_dot.
//
// The point holds shared ownership of the two immutable laws and nothing else. Its
// history is the tangential law's history (state_size() doubles), held by the caller
// with the same committed / trial protocol as TangentialLaw (tangential_law.h).
#pragma once

#include <memory>
#include <span>

#include "core/status.h"
#include "core/types.h"
#include "laws/normal_law.h"
#include "laws/tangential_law.h"

namespace jointdyn::laws {

struct ContactInput {
  Vec2 slip = Vec2::Zero();  // tangential relative displacement s at the end of the step [m]
  double gap = 0.0;          // normal gap g [m], > 0 open, < 0 penetration
  double gap_rate = 0.0;     // normal gap rate g_dot [m/s]
  double dt = 0.0;           // length of the increment [s]
};

struct ContactResponse {
  Vec2 traction = Vec2::Zero();  // tangential traction tau [Pa] (force [N] for point laws)
  double pressure = 0.0;         // normal pressure p >= 0 [Pa] (force [N])
  ContactState state = ContactState::kOpen;
  // Consistent tangent d[tau_x, tau_y, p] / d[s_x, s_y, g] [Pa/m]. 1D tangential laws
  // have zero tau_y row and s_y column.
  Mat3 tangent = Mat3::Zero();
  double d_pressure_d_gap_rate = 0.0;         // dp/dg_dot [Pa s/m]
  Vec2 d_traction_d_gap_rate = Vec2::Zero();  // d tau / d g_dot [Pa s/m]
  double stored_energy = 0.0;      // normal + tangential recoverable energy [J/m^2] ([J])
  double tangential_energy = 0.0;  // its tangential part [J/m^2] ([J])
};

class ContactPoint {
 public:
  // Both laws must be non-null; their pressure units must agree (both per area or both
  // whole-point forces).
  ContactPoint(std::shared_ptr<const NormalLaw> normal,
               std::shared_ptr<const TangentialLaw> tangential);

  const NormalLaw& normal_law() const { return *normal_; }
  const TangentialLaw& tangential_law() const { return *tangential_; }
  int dim() const { return tangential_->dim(); }
  int state_size() const { return tangential_->state_size(); }

  void InitState(std::span<double> state) const { tangential_->InitState(state); }

  // Trial response at `in` from the committed history; writes the trial history
  // (TangentialLaw::Evaluate protocol: spans of state_size(), not aliased). Fails when
  // the normal law's pressure or tangents are not finite, or the tangential law fails.
  Status Evaluate(const ContactInput& in, std::span<const double> committed,
                  std::span<double> trial, ContactResponse& out) const;

  // TangentialLaw::PostNewtonUpdate at the pressure the normal law gives for `in`.
  double PostNewtonUpdate(const ContactInput& in, std::span<const double> trial,
                          std::span<double> switching) const;

 private:
  std::shared_ptr<const NormalLaw> normal_;
  std::shared_ptr<const TangentialLaw> tangential_;
};

// Node-to-node contact element with normal load variation (seed 004, eq. 13-14), 1D or
// 2D tangential: f_n = max(n0 + k_n v, 0) with the normal approach v = -g, and a stick
// spring k_t in series with a Coulomb slider of limit mu f_n, zero force in separation.
// It is exactly ContactPoint(UnilateralPreloadLaw{k_n, n0}, CoulombLaw{k_t, 0, mu}).
// Forces in N, displacements in m.
struct NodeToNodeParams {
  double k_t = 0.0;  // tangential (stick) stiffness [N/m], > 0
  double k_n = 0.0;  // normal stiffness [N/m], > 0
  double mu = 0.0;   // friction coefficient [-], >= 0
  double n0 = 0.0;   // static normal preload [N], finite; < 0: initial gap -n0 / k_n
};

ContactPoint MakeNodeToNodeElement(const NodeToNodeParams& params, int dim);

}  // namespace jointdyn::laws
