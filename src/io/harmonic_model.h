// The `analysis: harmonic` model file: the periodic steady states of a lumped model
// (lumped_reader.h) under harmonic excitation by harmonic balance (harmonic/continuation.h),
// as frequency-response curves (one per excitation level) or a level-response curve.
// Reading, building the HarmonicSystem and writing results; the schema is in
// docs/model_files.md.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "harmonic/continuation.h"
#include "io/model_node.h"
#include "io/run_model.h"
#include "lumped/lumped_system.h"

namespace jointdyn::io {

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

struct HarmonicModel {
  std::string title;
  lumped::LumpedModel lumped;  // no loads, prescribed motions or initial conditions
  std::vector<PolynomialSpring> polynomial_springs;
  std::vector<DryFriction> dry_friction;
  std::vector<harmonic::ExcitationTerm> excitation;  // at level 1
  harmonic::HarmonicOptions harmonics;
  harmonic::MarchOptions march;
  // Frequencies in rad/s (the file gives Hz); for frequency continuation `fixed` is set
  // per curve from `levels`.
  harmonic::ContinuationOptions continuation;
  std::vector<double> levels;  // frequency continuation: one curve per level; else empty
  std::vector<int> output_dofs;
};

// Reads and checks the whole model (throws InputError located in the file).
HarmonicModel ReadHarmonicModel(const ModelNode& root);

// M, C, K from the masses, springs and dampers; friction elements as tangential-law
// kernels at their constant normal force or, with a normal DOF pair, as contact kernels
// (tangential pair + normal pair); contact elements as normal-law kernels; polynomial
// springs as polynomial kernels; dry friction as harmonic::DryFrictionForce.
harmonic::HarmonicSystem BuildHarmonicSystem(const HarmonicModel& model);

// The columns of frequency_response.csv: level, frequency [Hz], per output DOF mean_<dof>
// (bases with the static term) and amp_<dof>_h<k>, phase_<dof>_h<k> [deg] per harmonic k
// (q = amp cos(k omega t + phase)), then stable (with stability) and turning_point.
std::vector<std::string> HarmonicColumns(const HarmonicModel& model);

RunOutcome RunHarmonicModel(const ModelNode& root, const std::filesystem::path& out_dir);

}  // namespace jointdyn::io
