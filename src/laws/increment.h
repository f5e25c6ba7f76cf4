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
#include "laws/tangential_law.h"

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

// The increment of a law whose history is [s_n (2), z_n (2)]: the previous slip and one
// internal traction-like variable (Dahl/Valanis, Bouc-Wen/Masing, LuGre).
struct SlipIncrement {
  Mat2 mask;  // DimMask(dim)
  Vec2 s;     // end-of-increment slip, masked [m]
  Vec2 s_n;   // committed slip [m]
  Vec2 z_n;   // committed internal variable
};

// Reads the increment, resets `out` and writes s into the trial history. When the contact
// is open (p <= 0) it also relaxes z to zero, marks `out` open and returns false: the law
// is done. Otherwise returns true and leaves z in the trial history to the law.
inline bool BeginIncrement(int dim, const TangentialInput& in, std::span<const double> committed,
                           std::span<double> trial, TangentialResponse& out,
                           SlipIncrement& increment) {
  increment.mask = DimMask(dim);
  increment.s = increment.mask * in.slip;
  increment.s_n = Vec2(committed[0], committed[1]);
  increment.z_n = Vec2(committed[2], committed[3]);
  out = TangentialResponse{};
  trial[0] = increment.s.x();
  trial[1] = increment.s.y();
  if (in.pressure > 0.0) return true;
  trial[2] = trial[3] = 0.0;
  out.state = ContactState::kOpen;
  return false;
}

// A failed increment of a law, naming the law, what failed, the slip and the pressure.
inline Status IncrementFailure(std::string_view type, const char* what, const Vec2& s, double p) {
  return Status::Failure(std::string(type) + ": " + what + " at slip (" + FormatValue(s.x()) +
                         ", " + FormatValue(s.y()) + ") m, pressure " + FormatValue(p) + " Pa");
}

// Completes the response of a slider law with a parallel spring (Dahl/Valanis, Bouc-Wen/
// Masing): traction z + c2 s, masked tangents from dz/ds and dz/dR_G (R_G = mu p),
// stored energy |z|^2 / (2 c1) + c2 |s|^2 / 2, and z into the trial history. Returns false
// (the caller reports the failure) when any of it is not finite.
inline bool FinishSliderIncrement(double c1, double c2, double mu, const SlipIncrement& increment,
                                  const Vec2& z, const Mat2& dz_ds, const Vec2& dz_dr,
                                  std::span<double> trial, TangentialResponse& out) {
  const Mat2& mask = increment.mask;
  out.traction = z + c2 * increment.s;
  out.d_traction_d_slip = mask * dz_ds * mask + c2 * mask;
  out.d_traction_d_pressure = mu * (mask * dz_dr);
  out.stored_energy = 0.5 * z.squaredNorm() / c1 + 0.5 * c2 * increment.s.squaredNorm();
  if (!out.traction.allFinite() || !out.d_traction_d_slip.allFinite() ||
      !out.d_traction_d_pressure.allFinite() || !std::isfinite(out.stored_energy))
    return false;
  trial[2] = z.x();
  trial[3] = z.y();
  return true;
}

}  // namespace jointdyn::laws
