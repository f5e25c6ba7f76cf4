// Isotropic linear elastic material of the fe layer's solid and plane-stress elements.
#pragma once

#include <string>

namespace jointdyn::fe {

struct ElasticMaterial {
  double youngs_modulus = 210e9;  // E [Pa], > 0
  double poisson_ratio = 0.3;     // nu [-], in (-1, 0.5)
  double density = 7850.0;        // rho [kg/m^3], >= 0
  double thickness = 1.0;         // plane-stress elements only: out-of-plane thickness [m], > 0

  // Throws InputError naming the parameter, its value and the rule ("youngs_modulus = -1:
  // must be > 0"); the caller adds the file and the key path.
  void Validate() const;

  // Lame constants [Pa]: lambda of 3D elasticity, or of plane stress when `plane_stress`
  // (lambda* = E nu / (1 - nu^2)); the shear modulus mu = E / (2 (1 + nu)) in both cases.
  double Lambda(bool plane_stress) const;
  double ShearModulus() const;
};

}  // namespace jointdyn::fe
