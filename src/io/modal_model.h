// The `analysis: modal` model file: an FE model (io/fe_model_reader.h) assembled, its
// contact surfaces paired and reported, and optionally its eigenfrequencies and mode shapes
// (solvers/eigen_solver.h) on the free DOFs of the DofMap. Results: summary.json,
// frequencies.csv/.svg, contact_pairs_<k>.csv, mesh.vtu (mode shapes as point data),
// contact_pairs.vtu (gaps and frames of the pairs), and on request the Matrix Market
// export of K and M. The schema is in docs/model_files.md.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "io/fe_model_reader.h"
#include "io/model_node.h"
#include "io/run_model.h"
#include "io/vtu.h"

namespace jointdyn::io {

struct ModalModel {
  std::string title;
  FeModelSpec fe;
  int mode_count = 0;             // eigenpairs wanted (0: none)
  double shift_frequency = -1.0;  // [Hz] signed: sigma = sign(f) (2 pi f)^2
  bool export_matrix_market = false;
};

// Reads and checks every key (throws InputError located in the file); builds nothing.
ModalModel ReadModalModel(const ModelNode& root);

// The eigenvalue shift sigma [rad^2/s^2] of a signed shift frequency [Hz].
double ShiftEigenvalue(double shift_frequency);
// The signed frequency [Hz] of an eigenvalue lambda = omega^2: sign(lambda) sqrt|lambda| / 2 pi
// (a slightly negative rigid-body eigenvalue gives a small negative frequency, not NaN).
double SignedFrequency(double eigenvalue);

// The head of an FE analysis's summary.json (shared by the FE analyses): `analysis`,
// `model` (the file), `title`, and the FE figures: mesh source, dim, nodes, elements per
// type, DOFs, free DOFs, nonzeros, masses, beams and the contact pairs (totals and per
// surface).
nlohmann::json FeRunSummary(const std::string& analysis, const ModelNode& root,
                            const std::string& title, const FeModelSpec& spec,
                            const FeModel& model);

// The mesh with displacement fields as point data: column k of `vectors` (free DOFs, expanded
// by u = T q) named names[k].
VtuGrid ModeGrid(const FeModel& model, const MatX& vectors, const std::vector<std::string>& names);

RunOutcome RunModalModel(const ModelNode& root, const std::filesystem::path& out_dir);

}  // namespace jointdyn::io
