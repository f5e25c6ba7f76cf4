// The harmonic tests write their small systems with dense matrices: one conversion to the
// sparse HarmonicSystem; and the lumped elements they share.
#pragma once

#include <memory>
#include <vector>

#include "harmonic/harmonic_balance.h"
#include "harmonic/point_kernel.h"
#include "laws/coulomb.h"

namespace jointdyn::harmonic {

inline HarmonicSystem DenseSystem(const MatX& mass, const MatX& damping, const MatX& stiffness) {
  HarmonicSystem system;
  system.mass = mass.sparseView();
  system.damping = damping.sparseView();
  system.stiffness = stiffness.sparseView();
  return system;
}

// Three-parameter Coulomb friction (c2 = 0: the Jenkins element of stiffness c1) at a normal
// force of 1, marched with or without the history sensitivity.
inline std::unique_ptr<NonlinearForce> CoulombForce(double c1, double c2, double f_s,
                                                    bool history = true) {
  auto law = std::make_shared<laws::CoulombLaw>(laws::CoulombParams{c1, c2, f_s}, 1);
  return std::make_unique<MarchedForce>(
      std::make_unique<TangentialKernel>(law, 1.0),
      MarchOptions{.closure_tolerance = 1e-12, .max_periods = 20, .history_sensitivity = history});
}

// The cubic spring k3 r^3.
inline std::unique_ptr<NonlinearForce> CubicForce(double k3) {
  return std::make_unique<MarchedForce>(
      std::make_unique<PolynomialKernel>(std::vector<double>{0.0, 0.0, 0.0, k3}), MarchOptions{});
}

}  // namespace jointdyn::harmonic
