// Helpers for the incremental kinematics of tangential laws: the 1D/2D component mask
// and the time-step check of rate-dependent laws, whose velocities are the discrete
// v = (s_{n+1} - s_n) / dt with s_n kept in the history.
#pragma once

#include <cmath>
#include <string>
#include <string_view>

#include "core/error.h"
#include "core/status.h"
#include "core/types.h"

namespace jointdyn::laws {

// Identity in 2D; keeps only the x component in 1D.
inline Mat2 DimMask(int dim) {
  return dim == 2 ? Mat2::Identity() : Mat2(Vec2(1.0, 0.0).asDiagonal());
}

// Rate-dependent laws need a positive, finite increment length.
inline Status CheckTimeStep(std::string_view type, double dt) {
  if (dt > 0.0 && std::isfinite(dt)) return Status::Ok();
  return Status::Failure(std::string(type) + ": dt = " + FormatValue(dt) +
                         ": must be > 0 and finite (rate-dependent law)");
}

}  // namespace jointdyn::laws
