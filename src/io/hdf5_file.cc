#include "io/hdf5_file.h"

#include <hdf5.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "core/atomic_file.h"
#include "core/error.h"

namespace jointdyn::io {
namespace {

// An HDF5 identifier closed by `close` at scope exit.
class Handle {
 public:
  Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  ~Handle() {
    if (id_ >= 0) close_(id_);
  }
  Handle(Handle&& other) noexcept : id_(std::exchange(other.id_, -1)), close_(other.close_) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  hid_t get() const { return id_; }
  bool ok() const { return id_ >= 0; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

}  // namespace

struct Hdf5File::Impl {
  hid_t file = -1;
  Hdf5File::Mode mode = Hdf5File::Mode::kRead;
};

Hdf5File::Hdf5File(const std::string& path, Mode mode)
    : impl_(std::make_unique<Impl>()), path_(path) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // failures are reported by exceptions
  impl_->mode = mode;
  if (mode == Mode::kCreate) {
    errno = 0;
    impl_->file = H5Fcreate(PartPath(path).c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (impl_->file < 0) throw IoError("create the HDF5 file", path, errno);
    return;
  }
  impl_->file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (impl_->file < 0)
    throw InputError("file", path, "cannot be opened as an HDF5 file (missing, or not HDF5)");
}

Hdf5File::~Hdf5File() {
  if (!impl_ || impl_->file < 0) return;
  H5Fclose(impl_->file);
  if (impl_->mode == Mode::kCreate) {  // not committed
    std::error_code ignored;
    std::filesystem::remove(PartPath(path_), ignored);
  }
}

void Hdf5File::Commit() {
  JD_CHECK(impl_->mode == Mode::kCreate && impl_->file >= 0,
           "Hdf5File::Commit: not an open file in create mode");
  errno = 0;
  const herr_t closed = H5Fclose(impl_->file);
  impl_->file = -1;
  if (closed < 0) throw IoError("write", path_, errno);
  RenameFile(PartPath(path_), path_);
}

void Hdf5File::WriteDataset(const std::string& name, int rank, const unsigned long long* dims,
                            long long file_type, long long memory_type, const void* data) {
  JD_CHECK(impl_->mode == Mode::kCreate, "Hdf5File: written in read mode");
  if (Has(name)) throw InputError(path_ + ": " + name, "", "is written twice");
  const hsize_t shape[2] = {dims[0], rank == 2 ? dims[1] : 1};
  const Handle space(H5Screate_simple(rank, shape, nullptr), H5Sclose);
  const Handle links(H5Pcreate(H5P_LINK_CREATE), H5Pclose);
  H5Pset_create_intermediate_group(links.get(), 1);
  const Handle dataset(H5Dcreate2(impl_->file, name.c_str(), file_type, space.get(), links.get(),
                                  H5P_DEFAULT, H5P_DEFAULT),
                       H5Dclose);
  if (!dataset.ok() ||
      H5Dwrite(dataset.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
    throw IoError("write the dataset " + name + " of", path_, errno);
}

void Hdf5File::WriteMatrix(const std::string& name, const MatX& matrix, const std::string& unit) {
  JD_CHECK(matrix.allFinite(), "Hdf5File: non-finite values for " + name);
  const RowMajor data = matrix;
  const unsigned long long dims[2] = {static_cast<unsigned long long>(matrix.rows()),
                                      static_cast<unsigned long long>(matrix.cols())};
  WriteDataset(name, 2, dims, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, data.data());
  WriteAttribute(name, "unit", unit);
}

void Hdf5File::WriteVector(const std::string& name, const VecX& vector, const std::string& unit) {
  JD_CHECK(vector.allFinite(), "Hdf5File: non-finite values for " + name);
  const unsigned long long dims[1] = {static_cast<unsigned long long>(vector.size())};
  WriteDataset(name, 1, dims, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, vector.data());
  WriteAttribute(name, "unit", unit);
}

void Hdf5File::WriteIndices(const std::string& name, const Indices& indices) {
  const Eigen::Matrix<long long, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> data = indices;
  const unsigned long long dims[2] = {static_cast<unsigned long long>(indices.rows()),
                                      static_cast<unsigned long long>(indices.cols())};
  WriteDataset(name, indices.cols() == 1 ? 1 : 2, dims, H5T_STD_I64LE, H5T_NATIVE_LLONG,
               data.data());
}

namespace {

// A scalar attribute of `type` written from `value` (memory type `memory`).
void WriteScalarAttribute(hid_t file, const std::string& path, const std::string& object,
                          const std::string& name, hid_t type, hid_t memory, const void* value) {
  const Handle target(H5Oopen(file, object.c_str(), H5P_DEFAULT), H5Oclose);
  if (!target.ok()) throw InputError(path + ": " + object, "", "is not a dataset or group");
  const Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  const Handle attribute(
      H5Acreate2(target.get(), name.c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT),
      H5Aclose);
  if (!attribute.ok() || H5Awrite(attribute.get(), memory, value) < 0)
    throw InputError(path + ": " + object + "@" + name, "", "cannot be written");
}

// Attribute `name` of `object` (InputError naming both when there is none).
Handle OpenAttribute(hid_t file, const std::string& path, const std::string& object,
                     const std::string& name) {
  Handle attribute(H5Aopen_by_name(file, object.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT),
                   H5Aclose);
  if (!attribute.ok())
    throw InputError(path + ": " + object + "@" + name, "", "is not an attribute");
  return attribute;
}

}  // namespace

void Hdf5File::WriteAttribute(const std::string& object, const std::string& name, double value) {
  WriteScalarAttribute(impl_->file, path_, object, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &value);
}

void Hdf5File::WriteAttribute(const std::string& object, const std::string& name, long long value) {
  WriteScalarAttribute(impl_->file, path_, object, name, H5T_STD_I64LE, H5T_NATIVE_LLONG, &value);
}

void Hdf5File::WriteAttribute(const std::string& object, const std::string& name,
                              const std::string& value) {
  const Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(type.get(), std::max<std::size_t>(value.size(), 1));
  H5Tset_strpad(type.get(), H5T_STR_NULLPAD);
  H5Tset_cset(type.get(), H5T_CSET_UTF8);
  const std::string padded = value.empty() ? std::string(1, '\0') : value;
  WriteScalarAttribute(impl_->file, path_, object, name, type.get(), type.get(), padded.data());
}

void Hdf5File::WriteAttribute(const std::string& object, const std::string& name,
                              const std::vector<std::string>& values) {
  const Handle target(H5Oopen(impl_->file, object.c_str(), H5P_DEFAULT), H5Oclose);
  if (!target.ok()) throw InputError(path_ + ": " + object, "", "is not a dataset or group");
  const Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(type.get(), H5T_VARIABLE);
  H5Tset_cset(type.get(), H5T_CSET_UTF8);
  const hsize_t count = values.size();
  const Handle space(H5Screate_simple(1, &count, nullptr), H5Sclose);
  const Handle attribute(
      H5Acreate2(target.get(), name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
      H5Aclose);
  std::vector<const char*> pointers;
  for (const std::string& value : values) pointers.push_back(value.c_str());
  if (!attribute.ok() || H5Awrite(attribute.get(), type.get(), pointers.data()) < 0)
    throw InputError(path_ + ": " + object + "@" + name, "", "cannot be written");
}

bool Hdf5File::Has(const std::string& name) const {
  // H5Lexists fails on a missing intermediate group: check the path link by link.
  std::size_t start = name.front() == '/' ? 1 : 0;
  while (start <= name.size()) {
    const std::size_t slash = name.find('/', start);
    const std::string prefix = name.substr(0, slash);
    if (H5Lexists(impl_->file, prefix.c_str(), H5P_DEFAULT) <= 0) return false;
    if (slash == std::string::npos) return true;
    start = slash + 1;
  }
  return true;
}

std::pair<Eigen::Index, Eigen::Index> Hdf5File::Shape(const std::string& name) const {
  if (!Has(name)) throw InputError(path_ + ": " + name, "", "is not in the file");
  const Handle dataset(H5Dopen2(impl_->file, name.c_str(), H5P_DEFAULT), H5Dclose);
  const Handle space(H5Dget_space(dataset.get()), H5Sclose);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 1 || rank > 2)
    throw InputError(path_ + ": " + name, std::to_string(rank) + " dimensions",
                     "must be a vector or a matrix");
  hsize_t dims[2] = {0, 1};
  H5Sget_simple_extent_dims(space.get(), dims, nullptr);
  return {static_cast<Eigen::Index>(dims[0]), static_cast<Eigen::Index>(dims[1])};
}

MatX Hdf5File::ReadMatrix(const std::string& name) const {
  const auto [rows, cols] = Shape(name);
  RowMajor data(rows, cols);
  const Handle dataset(H5Dopen2(impl_->file, name.c_str(), H5P_DEFAULT), H5Dclose);
  if (H5Dread(dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()) < 0)
    throw InputError(path_ + ": " + name, "", "cannot be read as doubles");
  return data;
}

Hdf5File::Indices Hdf5File::ReadIndices(const std::string& name) const {
  const auto [rows, cols] = Shape(name);
  Eigen::Matrix<long long, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> data(rows, cols);
  const Handle dataset(H5Dopen2(impl_->file, name.c_str(), H5P_DEFAULT), H5Dclose);
  const Handle type(H5Dget_type(dataset.get()), H5Tclose);
  if (H5Tget_class(type.get()) != H5T_INTEGER ||
      H5Dread(dataset.get(), H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()) < 0)
    throw InputError(path_ + ": " + name, "", "cannot be read as integers");
  return data;
}

VecX Hdf5File::ReadVector(const std::string& name) const {
  const MatX m = ReadMatrix(name);
  if (m.cols() != 1)
    throw InputError(path_ + ": " + name,
                     std::to_string(m.rows()) + " x " + std::to_string(m.cols()),
                     "must be a vector");
  return m.col(0);
}

double Hdf5File::ReadAttribute(const std::string& object, const std::string& name) const {
  const Handle attribute(
      H5Aopen_by_name(impl_->file, object.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT),
      H5Aclose);
  double value = 0.0;
  if (!attribute.ok() || H5Aread(attribute.get(), H5T_NATIVE_DOUBLE, &value) < 0)
    throw InputError(path_ + ": " + object + "@" + name, "", "is not a numeric attribute");
  return value;
}

std::string Hdf5File::ReadStringAttribute(const std::string& object,
                                          const std::string& name) const {
  const Handle attribute = OpenAttribute(impl_->file, path_, object, name);
  const Handle type(H5Aget_type(attribute.get()), H5Tclose);
  if (H5Tget_class(type.get()) != H5T_STRING || H5Tis_variable_str(type.get()) > 0)
    throw InputError(path_ + ": " + object + "@" + name, "",
                     "is not a fixed-length string attribute");
  std::string value(H5Tget_size(type.get()), '\0');
  if (H5Aread(attribute.get(), type.get(), value.data()) < 0)
    throw InputError(path_ + ": " + object + "@" + name, "", "cannot be read");
  value.resize(value.find('\0') == std::string::npos ? value.size() : value.find('\0'));
  return value;
}

std::vector<std::string> Hdf5File::ReadStringsAttribute(const std::string& object,
                                                        const std::string& name) const {
  const Handle attribute = OpenAttribute(impl_->file, path_, object, name);
  const Handle type(H5Aget_type(attribute.get()), H5Tclose);
  const Handle space(H5Aget_space(attribute.get()), H5Sclose);
  if (H5Tget_class(type.get()) != H5T_STRING || H5Tis_variable_str(type.get()) <= 0 ||
      H5Sget_simple_extent_ndims(space.get()) != 1)
    throw InputError(path_ + ": " + object + "@" + name, "", "is not a list of strings");
  hsize_t count = 0;
  H5Sget_simple_extent_dims(space.get(), &count, nullptr);
  std::vector<char*> pointers(count, nullptr);
  if (H5Aread(attribute.get(), type.get(), pointers.data()) < 0)
    throw InputError(path_ + ": " + object + "@" + name, "", "cannot be read");
  std::vector<std::string> values(pointers.begin(), pointers.end());
  H5Dvlen_reclaim(type.get(), space.get(), H5P_DEFAULT, pointers.data());
  return values;
}

}  // namespace jointdyn::io
