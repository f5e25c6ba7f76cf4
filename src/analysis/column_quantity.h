// What a column of a sampled result (multibody.csv, belt_drive.csv) holds: its quantity
// ("position") and unit ("m"), for the HDF5 attributes and the plots' axis labels.
#pragma once

#include <string>

namespace jointdyn::analysis {

struct ColumnQuantity {
  std::string quantity, unit;
};

}  // namespace jointdyn::analysis
