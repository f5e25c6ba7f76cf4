// Consistent initial conditions of a constrained system (time/second_order_system.h):
// positions moved onto c(q, t) = 0, velocities onto C_q v = -C_t, each by the smallest
// mass-weighted correction (the elastic coordinates weighted as far heavier). Shared by the planar
// and spatial multibody systems.
#pragma once

#include <functional>

#include "core/status.h"
#include "core/types.h"
#include "time/second_order_system.h"

namespace jointdyn::mbs {

// The weight of a flexible body's elastic coordinates in the projection: moving them costs
// 1 / kElasticWeight^2 = 1e6 times more than moving the frames, so that the given elastic
// state (a preloaded body's equilibrium) stays and the frames take the misfit of the
// markers, unless the frames alone cannot meet the joints.
constexpr double kElasticWeight = 1e-3;

// q is moved by Newton steps q -= W C_q' (C_q W C_q')^-1 c, W = D M^-1 D with D =
// diag(weights) (empty: 1), until |c| <= tolerance [m or rad] (M = M(q) at the given
// positions, from Inertia() when the mass varies), then v is projected onto C_q v = -c_t(q)
// the same way. Fails naming the cause when the constraints are redundant or cannot be met.
// `correction` gets the largest position change.
Status ConsistentState(time::SecondOrderSystem& system, double t,
                       const std::function<VecX(const VecX& q)>& c_t, double tolerance, VecX& q,
                       VecX& v, double& correction, const VecX& weights = VecX());

}  // namespace jointdyn::mbs
