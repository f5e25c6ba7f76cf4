// HDF5 result files (libhdf5, the C API): matrices, vectors and scalar / string attributes
// under slash-separated paths ("basis/V", "frequencies_hz"), groups created on the way.
// Every floating-point dataset carries its unit as the string attribute `unit` ("m", "Hz",
// "-" when dimensionless); indices are integer datasets (int64), lists of names are string
// array attributes (variable-length UTF-8: h5py gives a list of str, MATLAB a cell array).
// Used for what does not fit CSV: reduction bases and projections (n x m matrices), time
// histories of chosen DOFs. Matrices are stored row-major as HDF5 datasets of shape
// rows x cols (what h5py and MATLAB's h5read show as the matrix itself, MATLAB
// transposed), doubles in native little-endian IEEE format.
//
// A file is created under "<name>.part" and renamed to its name by Commit() (io/
// atomic_file.h); one not committed (an exception on the way) is removed. Errors reading (a
// file that cannot be opened, a missing dataset, a wrong shape) throw InputError naming the
// file and the dataset path; errors writing throw IoError with the operating system's
// reason; HDF5's own error printing is turned off.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/types.h"

namespace jointdyn::io {

class Hdf5File {
 public:
  enum class Mode { kCreate, kRead };  // kCreate replaces an existing file at Commit()
  Hdf5File(const std::string& path, Mode mode);
  ~Hdf5File();  // kCreate without Commit(): the .part file is removed
  // kCreate: closes the file and renames it into place; nothing may be written after.
  void Commit();
  Hdf5File(const Hdf5File&) = delete;
  Hdf5File& operator=(const Hdf5File&) = delete;

  const std::string& path() const { return path_; }

  // Datasets (kCreate) with their unit (attribute `unit`). A path may not be written twice.
  void WriteMatrix(const std::string& name, const MatX& matrix, const std::string& unit);
  void WriteVector(const std::string& name, const VecX& vector, const std::string& unit);
  // Integer datasets: indices (rows x cols, int64).
  using Indices = Eigen::Matrix<long long, Eigen::Dynamic, Eigen::Dynamic>;
  void WriteIndices(const std::string& name, const Indices& indices);
  // Attributes on the root group ("/") or on an existing dataset or group: a number, an
  // integer (a count), a string, a list of strings (names).
  void WriteAttribute(const std::string& object, const std::string& name, double value);
  void WriteAttribute(const std::string& object, const std::string& name, long long value);
  void WriteAttribute(const std::string& object, const std::string& name, int value) {
    WriteAttribute(object, name, static_cast<long long>(value));
  }
  void WriteAttribute(const std::string& object, const std::string& name, const std::string& value);
  void WriteAttribute(const std::string& object, const std::string& name, const char* value) {
    WriteAttribute(object, name, std::string(value));
  }
  void WriteAttribute(const std::string& object, const std::string& name,
                      const std::vector<std::string>& values);

  // Reading (kRead).
  bool Has(const std::string& name) const;
  MatX ReadMatrix(const std::string& name) const;  // 1D datasets read as a column
  VecX ReadVector(const std::string& name) const;
  Indices ReadIndices(const std::string& name) const;  // 1D datasets read as a column
  double ReadAttribute(const std::string& object, const std::string& name) const;  // numeric
  std::string ReadStringAttribute(const std::string& object, const std::string& name) const;
  std::vector<std::string> ReadStringsAttribute(const std::string& object,
                                                const std::string& name) const;

 private:
  // A dataset of `rank` (1 or 2) dimensions `dims` from row-major `data` of HDF5 memory
  // type `memory_type`, stored as `file_type`.
  void WriteDataset(const std::string& name, int rank, const unsigned long long* dims,
                    long long file_type, long long memory_type, const void* data);
  // The dimensions of dataset `name` (rank 1 or 2; cols 1 for a vector).
  std::pair<Eigen::Index, Eigen::Index> Shape(const std::string& name) const;

  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string path_;
};

}  // namespace jointdyn::io
