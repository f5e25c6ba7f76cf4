#include "fe/material.h"

#include <cmath>

#include "core/error.h"

namespace jointdyn::fe {

void ElasticMaterial::Validate() const {
  auto check = [](bool ok, const char* key, double value, const char* rule) {
    if (!ok) throw InputError(key, FormatValue(value), rule);
  };
  check(std::isfinite(youngs_modulus) && youngs_modulus > 0.0, "youngs_modulus", youngs_modulus,
        "must be > 0");
  check(poisson_ratio > -1.0 && poisson_ratio < 0.5, "poisson_ratio", poisson_ratio,
        "must be in (-1, 0.5)");
  check(std::isfinite(density) && density >= 0.0, "density", density, "must be >= 0");
  check(std::isfinite(thickness) && thickness > 0.0, "thickness", thickness, "must be > 0");
}

double ElasticMaterial::Lambda(bool plane_stress) const {
  const double e = youngs_modulus, nu = poisson_ratio;
  return plane_stress ? e * nu / (1.0 - nu * nu) : e * nu / ((1.0 + nu) * (1.0 - 2.0 * nu));
}

double ElasticMaterial::ShearModulus() const {
  return youngs_modulus / (2.0 * (1.0 + poisson_ratio));
}

}  // namespace jointdyn::fe
