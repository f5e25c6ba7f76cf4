// The opening the FE analyses share (modal, reduction, joint-mode study, joint dynamics):
// the FE model built with its progress reported, and the boundary of a Craig-Bampton
// reduction read off it.
#pragma once

#include <string>
#include <vector>

#include "analysis/observer.h"
#include "fe/fe_model.h"
#include "reduction/craig_bampton.h"

namespace jointdyn::analysis {

// fe::BuildFeModel with progress "FE model: mesh, assembly, constraints, contact pairing",
// and notes: what the mesh file had that is left out (FeModel::ignored_keywords) and each
// contact's pairing (faces, pairs, gaps, shared nodes: PairingResult::Summary).
fe::FeModel BuildModel(const fe::FeModelSpec& spec, Observer& observer);

// The boundary DOFs of the reference nodes `names` (reduction::ReferenceNodeBoundary), with
// its InputError at "<reduction>.<names_key>" ("reduction.boundary"), and the check that
// `vibration_modes` fixed-interface modes are fewer than the interior DOFs (InputError at
// "<reduction>.vibration_modes", `reduction` the key of the mapping, e.g. "reduction").
std::vector<reduction::BoundaryDof> BoundaryDofs(const fe::FeModel& model,
                                                 const std::vector<std::string>& names,
                                                 int vibration_modes,
                                                 const std::string& reduction = "reduction",
                                                 const std::string& names_key = "boundary");

// Throws InputError at `key` (value `count`) when an eigen solve for `count` modes of `free`
// DOFs needs more memory than the machine has: the Lanczos basis of 2 count + 1 vectors
// (Spectra's default subspace) and the count eigenvectors, of `free` doubles each (the
// factorization not counted).
void CheckEigenMemory(const std::string& key, int count, int free);

}  // namespace jointdyn::analysis
