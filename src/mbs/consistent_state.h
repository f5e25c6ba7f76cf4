// Consistent initial conditions of a constrained system (time/second_order_system.h):
// positions moved onto c(q, t) = 0, velocities onto C_q v = -C_t, each by the smallest
// mass-weighted correction. Shared by the planar and spatial multibody systems.
#pragma once

#include <functional>

#include "core/status.h"
#include "core/types.h"
#include "time/second_order_system.h"

namespace jointdyn::mbs {

// q is moved by Newton steps q -= M^-1 C_q' (C_q M^-1 C_q')^-1 c until |c| <= tolerance
// [m or rad] (M = M(q) at the given positions, from Inertia() when the mass varies), then
// v is projected onto C_q v = -c_t(q). Fails naming the cause when the constraints are
// redundant or cannot be met. `correction` gets the largest position change.
Status ConsistentState(time::SecondOrderSystem& system, double t,
                       const std::function<VecX(const VecX& q)>& c_t, double tolerance, VecX& q,
                       VecX& v, double& correction);

}  // namespace jointdyn::mbs
