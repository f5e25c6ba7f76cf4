// Pointwise tangential (friction) laws: the interface every friction model implements.
//
// A law is immutable after construction (its constructor validates the parameters and
// throws InputError naming the parameter, value and rule). History lives outside the law
// in a flat array of state_size() doubles: Evaluate() reads the committed history and
// writes the trial history, so many points can be evaluated in parallel and a rejected
// step rolls back by simply not committing (copying trial -> committed).
//
// Kinematics are incremental: the response is the algorithmic response at the end of an
// increment of length dt starting from the committed state, and the tangents are the
// consistent (algorithmic) derivatives with respect to the end-of-increment slip and
// pressure. 1D laws use slip.x() only and return zero y components.
#pragma once

#include <span>
#include <string_view>

#include "core/status.h"
#include "core/types.h"

namespace jointdyn::laws {

enum class ContactState { kOpen, kStick, kSlip };

std::string_view ToString(ContactState state);

struct TangentialInput {
  Vec2 slip = Vec2::Zero();  // relative tangential displacement s at the end of the increment [m]
  double pressure = 0.0;     // normal pressure p [Pa] (normal force [N] for whole-interface laws)
  double dt = 0.0;           // length of the increment [s]; rate-dependent laws need dt > 0
};

struct TangentialResponse {
  Vec2 traction = Vec2::Zero();               // friction traction tau [Pa] (force [N])
  Mat2 d_traction_d_slip = Mat2::Zero();      // consistent tangent d tau / d s [Pa/m]
  Vec2 d_traction_d_pressure = Vec2::Zero();  // d tau / d p [-]
  double stored_energy = 0.0;                 // recoverable energy of the trial state [J/m^2]
  ContactState state = ContactState::kStick;  // for output and post-Newton switching
};

class TangentialLaw {
 public:
  virtual ~TangentialLaw() = default;

  virtual std::string_view type() const = 0;  // model-file name, e.g. "coulomb"
  virtual int dim() const = 0;                // 1 or 2
  virtual int state_size() const = 0;         // number of history doubles
  virtual bool rate_independent() const = 0;  // true: response independent of dt

  // Writes the virgin state (no slip, no stress). The default fills zeros.
  virtual void InitState(std::span<double> state) const;

  // Trial response at `in` from the committed history; writes the trial history.
  // `committed` and `trial` have state_size() entries and must not alias.
  // Returns a failure status (never NaN) when the local update cannot be computed.
  virtual Status Evaluate(const TangentialInput& in, std::span<const double> committed,
                          std::span<double> trial, TangentialResponse& out) const = 0;

  // Post-Newton step (seed 002, eq. 26-29) for laws that switch stick/slip only outside
  // Newton. `switching` is the history Evaluate() was called with (a copy of the
  // committed one); from the converged `trial` history this updates the switching
  // variables in `switching` and returns the switching error [traction units], 0 when
  // nothing switched. The caller then evaluates again from `switching` until the error
  // is small. Laws that switch inside Evaluate() keep the default (returns 0).
  virtual double PostNewtonUpdate(const TangentialInput& in, std::span<const double> trial,
                                  std::span<double> switching) const;
};

}  // namespace jointdyn::laws
