// The `analysis: harmonic` model file as analysis::HarmonicOptions (analysis/harmonic.h):
// frequencies in Hz in the file, rad/s in the options. The schema is in docs/model_files.md.
#pragma once

#include <vector>

#include "analysis/harmonic.h"
#include "model/model_node.h"

namespace jointdyn::model {

// Reads and checks every key of `root` (throws InputError located in the file).
analysis::HarmonicOptions ReadHarmonic(const ModelNode& root);

// The pieces the harmonic analyses share (lumped: above; FE: joint_harmonic_reader.h).
// harmonics: count, odd_only, samples, condense.
harmonic::HarmonicOptions ReadHarmonics(const ModelNode& node);
// The phase of `amplitude cos(k omega t + phase)` at node.phase_deg [rad] (0 when absent;
// refused for the static term k = 0).
double ReadPhase(const ModelNode& node, int harmonic);
// newton: residual_tolerance, increment_tolerance, max_iterations, reuse_contraction (the
// rest as given).
void ReadNewton(const ModelNode& node, solvers::NewtonOptions& newton);
// root.continuation (from, to in Hz for the frequency, or the level range; steps, Newton,
// stability) into `o` (rad/s) and root.levels into `levels`. `dense_dofs` >= 0: the DOFs
// of Hill's method, refused when too many for it (< 0: not known yet). `frequency_only`:
// `parameter` is optional and must be frequency.
void ReadContinuation(const ModelNode& root, harmonic::ContinuationOptions& o,
                      std::vector<double>& levels, int dense_dofs,
                      const harmonic::HarmonicBasis& basis, bool frequency_only);

}  // namespace jointdyn::model
