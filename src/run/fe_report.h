// Report pieces of the FE analyses (modal, reduction, joint-mode study, joint dynamics):
// the FE part of summary.json, mode shapes and contact pairs as VTU grids.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/types.h"
#include "fe/fe_model.h"
#include "io/vtu.h"

namespace jointdyn::run {

// The head of an FE analysis's summary.json: `analysis`, `model` (the file), `title`, and
// the FE figures: mesh source, dim, nodes, elements per type, DOFs, free DOFs, nonzeros,
// masses, beams and the contact pairs (totals and per surface).
nlohmann::json FeRunSummary(const std::string& analysis, const std::string& model_file,
                            const std::string& title, const fe::FeModelSpec& spec,
                            const fe::FeModel& model);

// The mesh with displacement fields as point data: displacements[k] (on the mesh DOFs,
// node * dim + component) named names[k].
io::VtuGrid DisplacementGrid(const fe::Mesh& mesh, const std::vector<VecX>& displacements,
                             const std::vector<std::string>& names);

// The mesh with displacement fields as point data: column k of `vectors` (free DOFs,
// expanded by u = T q) named names[k].
io::VtuGrid ModeGrid(const fe::FeModel& model, const MatX& vectors,
                     const std::vector<std::string>& names);

// The contact pairs of all surfaces as points at the slave nodes, with their frames, gaps
// and area weights.
io::VtuGrid ContactGrid(const fe::FeModel& model);

}  // namespace jointdyn::run
