// HDF5 result files (libhdf5, the C API): matrices, vectors and scalar / string attributes
// under slash-separated paths ("basis/V", "frequencies_hz"), groups created on the way.
// Used for what does not fit CSV: reduction bases and projections (n x m matrices), time
// histories of chosen DOFs. Matrices are stored row-major as HDF5 datasets of shape
// rows x cols (what h5py and MATLAB's h5read show as the matrix itself, MATLAB
// transposed), doubles in native little-endian IEEE format.
//
// Errors (a file that cannot be created or opened, a missing dataset, a wrong shape) throw
// InputError naming the file and the dataset path; HDF5's own error printing is turned
// off.
#pragma once

#include <memory>
#include <string>

#include "core/types.h"

namespace jointdyn::io {

class Hdf5File {
 public:
  enum class Mode { kCreate, kRead };  // kCreate truncates an existing file
  Hdf5File(const std::string& path, Mode mode);
  ~Hdf5File();
  Hdf5File(const Hdf5File&) = delete;
  Hdf5File& operator=(const Hdf5File&) = delete;

  const std::string& path() const { return path_; }

  // Datasets (kCreate). A path may not be written twice.
  void WriteMatrix(const std::string& name, const MatX& matrix);
  void WriteVector(const std::string& name, const VecX& vector);
  // Attributes on the root group ("/") or on an existing dataset or group.
  void WriteAttribute(const std::string& object, const std::string& name, double value);
  void WriteAttribute(const std::string& object, const std::string& name, const std::string& value);

  // Reading (kRead).
  bool Has(const std::string& name) const;
  MatX ReadMatrix(const std::string& name) const;  // 1D datasets read as a column
  VecX ReadVector(const std::string& name) const;
  double ReadAttribute(const std::string& object, const std::string& name) const;
  std::string ReadStringAttribute(const std::string& object, const std::string& name) const;

 private:
  // A dataset of `rank` (1 or 2) dimensions `dims` from row-major doubles.
  void WriteDataset(const std::string& name, int rank, const unsigned long long* dims,
                    const double* data);

  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string path_;
};

}  // namespace jointdyn::io
