// Parameter validation for law constructors: throws InputError(key, value, rule).
#pragma once

#include <cmath>
#include <string>

#include "core/error.h"

namespace jointdyn::laws {

inline void Require(bool ok, const char* key, double value, const char* rule) {
  if (!ok) throw InputError(key, FormatValue(value), rule);
}
inline void RequirePositive(const char* key, double value) {
  Require(value > 0.0 && std::isfinite(value), key, value, "must be > 0 and finite");
}
inline void RequireNonNegative(const char* key, double value) {
  Require(value >= 0.0 && std::isfinite(value), key, value, "must be >= 0 and finite");
}
inline void RequireFinite(const char* key, double value) {
  Require(std::isfinite(value), key, value, "must be finite");
}
inline void RequireDim(int dim) { Require(dim == 1 || dim == 2, "dim", dim, "must be 1 or 2"); }

}  // namespace jointdyn::laws
