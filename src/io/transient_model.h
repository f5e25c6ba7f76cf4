// The `analysis: transient` model file: a lumped-parameter model (lumped/lumped_system.h)
// integrated in time (time/integrator.h). Reading and result writing; the schema is in
// docs/model_files.md.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "io/model_node.h"
#include "io/run_model.h"
#include "lumped/lumped_system.h"
#include "time/integrator.h"

namespace jointdyn::io {

struct TransientPlot {
  std::string file;  // SVG file name without extension
  std::string title;
  std::string x_label, y_label;
  std::string x_column = "time";     // the column on the x axis
  std::vector<std::string> columns;  // columns of transient.csv on the y axis
};

struct TransientOutput {
  std::vector<int> dofs;      // model DOF indices with q_ and v_ columns
  std::vector<int> elements;  // indices into lumped::Elements() with force columns
  bool energy = false;        // energy-balance columns
  std::vector<TransientPlot> plots;
};

struct TransientModel {
  std::string title;
  lumped::LumpedModel lumped;
  time::IntegratorOptions integrator;
  TransientOutput output;
};

// Reads and checks the whole model (throws InputError located in the file).
TransientModel ReadTransientModel(const ModelNode& root);

// The columns of transient.csv: time, q_<dof> and v_<dof> per output DOF, f_<name> per
// output spring, damper and 1D friction element (fx_<name> and fy_<name>, the two
// components, for a 2D friction element), p_<name> per friction and contact element, then
// the energy columns.
std::vector<std::string> TransientColumns(const TransientModel& model);

RunOutcome RunTransientModel(const ModelNode& root, const std::filesystem::path& out_dir);

}  // namespace jointdyn::io
