// The `analysis: belt_drive` model file as analysis::BeltDriveOptions (analysis/belt_drive.h)
// and the plots its report draws. The schema is in docs/model_files.md.
#pragma once

#include <vector>

#include "analysis/belt_drive.h"
#include "model/column_plots.h"
#include "model/model_node.h"

namespace jointdyn::model {

struct BeltDriveFile {
  analysis::BeltDriveOptions options;
  std::vector<ColumnPlot> plots;  // of belt_drive.csv
  int frames = 100;               // belt.pvd frames over the run (output.frames), >= 0; 0: none
};

// Reads and checks every key of `root` (throws InputError located in the file).
BeltDriveFile ReadBeltDrive(const ModelNode& root);

}  // namespace jointdyn::model
