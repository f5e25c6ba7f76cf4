// Linear viscoelastic tangential laws: Kelvin-Voigt (spring k parallel to damper c),
// Maxwell (spring k in series with damper c) and Zener / standard linear solid (spring
// k_inf parallel to a Maxwell branch k1, c1). One kernel serves all three: the Zener
// solid written with the branch compliance f1 = 1/k1,
//
//   tau = k_inf s + sigma,   f1 d(sigma)/dt + sigma / c1 = ds/dt,
//
// where Maxwell is k_inf = 0 and Kelvin-Voigt is a rigid branch spring (f1 = 0, the
// branch is a pure damper, sigma = c ds/dt). Backward Euler for the branch stress:
//
//   sigma_{n+1} = (f1 sigma_n + s_{n+1} - s_n) / (f1 + dt / c1).
//
// The laws ignore the pressure: the traction is carried whatever p is (also for p <= 0),
// and d tau / d p = 0. 2D is isotropic, i.e. componentwise. They have no stick/slip
// distinction and report ContactState::kStick.
//
// History (4 doubles): the slip s_n and the branch stress sigma_n at the end of the
// committed increment. Stored energy: 0.5 k_inf |s|^2 + 0.5 f1 |sigma|^2 (the dampers
// store nothing).
//
// The elastic law is the parallel spring alone (no branch): tau = k s, rate independent,
// no history, for the tangential side of a bonded (tied) interface.
#pragma once

#include <string_view>

#include "laws/tangential_law.h"

namespace jointdyn::laws {

struct KelvinVoigtParams {
  double k = 0.0;  // spring stiffness [Pa/m], >= 0
  double c = 0.0;  // damping coefficient [Pa s/m], > 0
};

struct MaxwellParams {
  double k = 0.0;  // series spring stiffness [Pa/m], > 0
  double c = 0.0;  // series damping coefficient [Pa s/m], > 0
};

struct ZenerParams {
  double k_inf = 0.0;  // parallel (long-term) spring stiffness [Pa/m], >= 0
  double k1 = 0.0;     // spring of the Maxwell branch [Pa/m], > 0
  double c1 = 0.0;     // damper of the Maxwell branch [Pa s/m], > 0
};

class ViscoelasticLaw final : public TangentialLaw {
 public:
  ViscoelasticLaw(const KelvinVoigtParams& params, int dim);  // type "kelvin_voigt"
  ViscoelasticLaw(const MaxwellParams& params, int dim);      // type "maxwell"
  ViscoelasticLaw(const ZenerParams& params, int dim);        // type "zener"

  std::string_view type() const override { return type_; }
  int dim() const override { return dim_; }
  int state_size() const override { return 4; }
  bool rate_independent() const override { return false; }
  Status Evaluate(const TangentialInput& in, std::span<const double> committed,
                  std::span<double> trial, TangentialResponse& out) const override;

 private:
  ViscoelasticLaw(std::string_view type, double k_inf, double compliance, double c, int dim);

  std::string_view type_;
  double k_inf_;       // parallel spring [Pa/m]
  double compliance_;  // branch spring compliance f1 = 1/k1 [m/Pa], 0 for a pure damper
  double c_;           // branch damper [Pa s/m]
  int dim_;
};

struct ElasticParams {
  double k = 0.0;  // tangential stiffness [Pa/m], > 0
};

class ElasticLaw final : public TangentialLaw {
 public:
  ElasticLaw(const ElasticParams& params, int dim);  // type "elastic"

  std::string_view type() const override { return "elastic"; }
  int dim() const override { return dim_; }
  int state_size() const override { return 0; }
  bool rate_independent() const override { return true; }
  Status Evaluate(const TangentialInput& in, std::span<const double> committed,
                  std::span<double> trial, TangentialResponse& out) const override;

 private:
  double k_;  // [Pa/m]
  int dim_;
};

}  // namespace jointdyn::laws
