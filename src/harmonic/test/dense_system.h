// The harmonic tests write their small systems with dense matrices: one conversion to the
// sparse HarmonicSystem.
#pragma once

#include "harmonic/harmonic_balance.h"

namespace jointdyn::harmonic {

inline HarmonicSystem DenseSystem(const MatX& mass, const MatX& damping, const MatX& stiffness) {
  HarmonicSystem system;
  system.mass = mass.sparseView();
  system.damping = damping.sparseView();
  system.stiffness = stiffness.sparseView();
  return system;
}

}  // namespace jointdyn::harmonic
