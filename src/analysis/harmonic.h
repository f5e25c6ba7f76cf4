// The harmonic analysis: the periodic steady states of a lumped model
// (lumped/lumped_system.h) under harmonic excitation by harmonic balance
// (harmonic/continuation.h), as frequency-response curves (one per excitation level) or a
// level-response curve.
#pragma once

#include <string>
#include <vector>

#include "analysis/observer.h"
#include "core/status.h"
#include "harmonic/continuation.h"
#include "lumped/lumped_system.h"

namespace jointdyn::analysis {

// A memoryless polynomial spring f = sum_p c_p r^p on r = q_a - q_b (the Duffing spring:
// {0, k, 0, k3}); c_p in N/m^p.
struct PolynomialSpring {
  int a = 0, b = lumped::kGround;
  std::vector<double> coefficients;
};

// Rigid (pure) Coulomb friction f = slip_force sgn(q_a' - q_b') on r = q_a - q_b, with exact
// Fourier coefficients (harmonic/dry_friction.h); harmonic analyses only.
struct DryFriction {
  std::string name;
  int a = 0, b = lumped::kGround;
  double slip_force = 0.0;  // F_s [N]
};

struct HarmonicOptions {
  std::string title;
  lumped::LumpedModel model;  // no loads, prescribed motions or initial conditions
  std::vector<PolynomialSpring> polynomial_springs;
  std::vector<DryFriction> dry_friction;
  std::vector<harmonic::ExcitationTerm> excitation;  // at level 1 [N]
  harmonic::HarmonicOptions harmonics;               // basis, AFT samples, condensation
  // Frequencies in rad/s; for frequency continuation `fixed` is set per curve from
  // `levels`.
  harmonic::ContinuationOptions continuation;
  std::vector<double> levels;    // frequency continuation: one curve per level [-]; else empty
  std::vector<int> output_dofs;  // model DOF indices reported

  // Throws InputError naming the option ("continuation", "output_dofs") for a set that
  // cannot run.
  void Validate() const;
  bool by_frequency() const {
    return continuation.parameter == harmonic::ContinuationParameter::kFrequency;
  }
  // The fixed parameter of each curve: levels [-] (frequency continuation), else the
  // frequency [rad/s].
  std::vector<double> CurveParameters() const;
};

// M, C, K from the masses, springs and dampers; friction elements as tangential-law
// kernels at their constant normal force or, with a normal DOF pair, as contact kernels
// (tangential pair + normal pair); contact elements as normal-law kernels; polynomial
// springs as polynomial kernels; dry friction as harmonic::DryFrictionForce.
harmonic::HarmonicSystem BuildHarmonicSystem(const HarmonicOptions& options);

struct HarmonicCurve {
  double fixed = 0.0;  // level [-] or frequency [rad/s] (HarmonicOptions::CurveParameters)
  harmonic::ContinuationResult continuation;  // the points, counters, stop reason
};

struct HarmonicResult {
  Status status;  // the first curve that failed, with its level or frequency
  int dofs = 0, unknowns = 0;
  std::vector<HarmonicCurve> curves;  // up to the failed one
  double wall_seconds = 0.0;
};

// Amplitude [m] of harmonic 1 of DOF `dof` at `point`.
double FirstHarmonicAmplitude(const harmonic::HarmonicBasis& basis,
                              const harmonic::SolutionPoint& point, int dof);

// Progress: "curves" (one unit per curve).
HarmonicResult RunHarmonic(const HarmonicOptions& options, Observer& observer);

}  // namespace jointdyn::analysis
