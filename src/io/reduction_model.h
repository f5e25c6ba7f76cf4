// The `analysis: reduction` model file: an FE model (io/fe_model_reader.h) reduced by
// Craig-Bampton (reduction/craig_bampton.h: fixed-interface modes and the constraint modes of
// the boundary reference nodes) and, by default, orthogonalized to free-free modes
// (reduction/free_free.h); optionally extended by joint modes from trial vector derivatives
// of a joint's contact pairs and by a preload mode (io/joint_mode_stage.h). Results:
// basis.h5 (the basis, its column kinds and names, the reduced K and M, frequencies, DOF
// counts, the contact pairs, the expansion T; with joint modes the POVs, w(g) and R V;
// with a preload the full and reduced preload states), summary.json, frequencies.csv/.svg
// (against the full model's on request), mesh.vtu (the basis vectors as point data),
// joint_modes.csv/.svg (POVs and w(g)), preload_pressure.csv/.svg and the pressure fields
// as VTU. The schema is in docs/model_files.md.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "io/fe_model_reader.h"
#include "io/joint_mode_stage.h"
#include "io/model_node.h"
#include "io/run_model.h"
#include "reduction/craig_bampton.h"
#include "reduction/free_free.h"

namespace jointdyn::io {

struct ReductionModel {
  std::string title;
  FeModelSpec fe;
  std::vector<std::string> boundary;  // reference nodes whose DOFs are the CB boundary
  reduction::CraigBamptonOptions craig_bampton;
  bool orthogonalize = true;
  reduction::FreeFreeOptions free_free;
  int compare_full = 0;  // lowest elastic eigenfrequencies of the full model (0: none)
  std::optional<JointModeSpec> joint_modes;
  std::optional<PreloadSpec> preload;       // needs joint_modes (its contact and normal law)
  std::optional<ModelNode> reduction_node;  // for errors found while building
};

// Reads and checks every key (throws InputError located in the file); builds nothing.
ReductionModel ReadReductionModel(const ModelNode& root);

RunOutcome RunReductionModel(const ModelNode& root, const std::filesystem::path& out_dir);

}  // namespace jointdyn::io
