// Converting C++ results to Python: vectors and matrices as numpy arrays (copies), sparse
// matrices as scipy.sparse.csc_matrix (or (rows, cols, values) without scipy), a status
// with the wall time as the head of every result dict.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "analysis/joints.h"
#include "core/status.h"
#include "core/types.h"
#include "solvers/matrix.h"
#include "time/integrator.h"

namespace jointdyn::python {

namespace py = pybind11;

inline py::array_t<double> Array(const std::vector<double>& values) {
  return py::array_t<double>(static_cast<py::ssize_t>(values.size()), values.data());
}

inline py::array_t<double> Array(const VecX& values) {
  return py::array_t<double>(static_cast<py::ssize_t>(values.size()), values.data());
}

// Rows x cols, C order.
inline py::array_t<double> Array(const MatX& values) {
  py::array_t<double> out(
      {static_cast<py::ssize_t>(values.rows()), static_cast<py::ssize_t>(values.cols())});
  auto a = out.mutable_unchecked<2>();
  for (py::ssize_t i = 0; i < a.shape(0); ++i)
    for (py::ssize_t j = 0; j < a.shape(1); ++j) a(i, j) = values(i, j);
  return out;
}

// One value per item.
template <class T, class Get>
py::array_t<double> Column(const std::vector<T>& items, Get get) {
  py::array_t<double> out(static_cast<py::ssize_t>(items.size()));
  auto a = out.mutable_unchecked<1>();
  for (size_t i = 0; i < items.size(); ++i) a(static_cast<py::ssize_t>(i)) = get(items[i]);
  return out;
}

// scipy.sparse.csc_matrix when scipy imports, else the tuple (rows, cols, values).
py::object Sparse(const solvers::SparseMatrix& matrix);

// The energy balance of a time integration [J].
inline py::dict EnergyDict(const time::EnergyBalance& e) {
  return py::dict(py::arg("external_work") = e.external_work, py::arg("kinetic") = e.kinetic,
                  py::arg("stored") = e.stored,
                  py::arg("viscous_dissipation") = e.viscous_dissipation,
                  py::arg("law_dissipation") = e.law_dissipation,
                  py::arg("constraint_work") = e.constraint_work,
                  py::arg("numerical_dissipation") = e.numerical_dissipation);
}

// The state of joints (analysis::JointFigures), keyed as in summary.json.
inline py::dict JointFiguresDict(const analysis::JointFigures& j) {
  return py::dict(
      py::arg("gap_norm_m") = j.gap_norm, py::arg("contact_force_norm_n") = j.force_norm,
      py::arg("max_pressure_pa") = j.max_pressure, py::arg("normal_force_n") = j.normal_force,
      py::arg("open_pairs") = j.open_pairs, py::arg("sticking_pairs") = j.sticking_pairs,
      py::arg("slipping_pairs") = j.slipping_pairs);
}

inline py::dict StatusDict(const Status& status, double wall_seconds) {
  py::dict out;
  out["ok"] = status.ok;
  out["message"] = status.message;
  out["wall_seconds"] = wall_seconds;
  return out;
}

}  // namespace jointdyn::python
