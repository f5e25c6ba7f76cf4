// Whole-interface Iwan laws (seed 001): the tangential force T [N] of a whole joint
// interface against its relative displacement delta [m] (slip.x()) under the normal load
// N [N] (TangentialInput::pressure). One law class, three slider-strength densities
// (iwan_density.h): "iwan_uniform" (original Iwan), "iwan_segalman" (four-parameter Iwan,
// F_S = mu N) and "iwan_pressure" (pressure-cone density, eq. 10-12). Each in two forms:
//
// Closed form (elements = 0). The backbone T_b(x) = F_s g(k_t |x| / F_s) sgn(x)
// (eq. 1, 12) driven by the extended Masing rules (eq. 13) with turning-point memory: with
// the virgin origin o and the turning points p_1 .. p_m,
//   m = 0:  T = T_b(delta - o)
//   m > 0:  T = T_b(p_1 - o) + sum_{j=2..m} 2 T_b((p_j - p_{j-1}) / 2) + 2 T_b((delta - p_m) / 2).
// A reversal pushes the last slip; when the current branch reaches the start of the branch
// it came from (p_{m-1}, or the mirror 2 o - p_1 of the virgin curve), the pair is wiped
// out and the older branch continues (it passes through the same point). Loops smaller
// than kWipeOutTolerance times their own size count as closed, so round-off in
// periodic paths cannot fill the memory. The memory holds at most max_turning_points
// points; a reversal that would exceed it returns a failure status.
//
// Definition under varying N: the memory holds slips only, and every backbone term is
// evaluated at the current N. So T is a function of (delta, N, o, p_1..p_m): the response
// of the Iwan continuum that went through the same slip history at the current N. The
// tangents d T / d delta = k_t g'(.) of the last term and
// d T / d N = mu sum (term factor) sgn(x) M1(k_t |x| / (factor F_s)) are exact for it, and
// |T| <= mu N holds at every N. At constant N this is exactly the Iwan continuum.
// History: [o, delta_n, m, p_1 .. p_max_turning_points] (3 + max_turning_points doubles).
//
// Discrete form (elements = N_J > 0). N_J Jenkins elements in parallel, element i with
// spring k_t / N_J and slider strength F_s s_i / N_J, s_i = Q((i + 1/2) / N_J) (midpoint
// rule on the quantile of the density), so the closed form is the limit N_J -> infinity
// at constant N. Each slider returns to its strength at the current N (a drop of N makes
// sliders slip). History: the N_J slider positions [m].
//
// Both forms: stored energy = sum of the element spring energies (closed form: integrated
// over the density band by band); open contact (N <= 0) carries no force and resets the
// history to the virgin state at the current slip. ContactState::kSlip means gross slip
// (every slider sliding, dT/d delta = 0); micro-slip is reported as kStick.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "laws/iwan_density.h"
#include "laws/tangential_law.h"

namespace jointdyn::laws {

struct IwanParams {
  double k_t = 0.0;             // stiffness of the stuck interface [N/m], > 0
  double mu = 0.0;              // friction coefficient: gross-slip force F_s = mu N [-], > 0
  int elements = 0;             // 0: closed form; N_J > 0: N_J Jenkins elements [-], <= 1e6
  int max_turning_points = 32;  // closed form: turning-point memory capacity [-], 1..1e5
};

struct SegalmanIwanParams {
  IwanParams iwan;    // k_t = K_T, mu with F_S = mu N, elements, max_turning_points
  double chi = -0.5;  // exponent of the power-law density R phi^chi [-], -1 < chi <= 0
  double beta = 0.0;  // Dirac mass S over the continuous mass [-], >= 0
};

class IwanLaw final : public TangentialLaw {
 public:
  // Round-off tolerance of the wipe-out rule, relative to the size of the loop [-].
  static constexpr double kWipeOutTolerance = 1e-12;

  // `type` is the model-file name; `density` the normalized strength distribution.
  IwanLaw(std::string type, const IwanParams& params, std::unique_ptr<const IwanDensity> density);

  std::string_view type() const override { return type_; }
  int dim() const override { return 1; }
  int state_size() const override;
  bool rate_independent() const override { return true; }
  Status Evaluate(const TangentialInput& in, std::span<const double> committed,
                  std::span<double> trial, TangentialResponse& out) const override;

  const IwanParams& params() const { return params_; }
  const IwanDensity& density() const { return *density_; }

 private:
  Status EvaluateMasing(double delta, double normal, std::span<const double> committed,
                        std::span<double> trial, TangentialResponse& out) const;
  Status EvaluateJenkins(double delta, double normal, std::span<const double> committed,
                         std::span<double> trial, TangentialResponse& out) const;

  std::string type_;
  IwanParams params_;
  std::unique_ptr<const IwanDensity> density_;
  std::vector<double> strengths_;  // discrete form: normalized strengths s_i
};

// "iwan_uniform": strengths uniform on [0, 2 mu N] (gross slip at mu N).
std::unique_ptr<IwanLaw> MakeUniformIwan(const IwanParams& params);
// "iwan_segalman": Segalman's four-parameter Iwan with F_S = mu N, K_T = k_t.
std::unique_ptr<IwanLaw> MakeSegalmanIwan(const SegalmanIwanParams& params);
// "iwan_pressure": the pressure-cone density of seed 001, backbone eq. 12.
std::unique_ptr<IwanLaw> MakePressureIwan(const IwanParams& params);

}  // namespace jointdyn::laws
