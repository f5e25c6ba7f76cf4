#include "python/fe_arrays.h"

#include <pybind11/stl.h>

#include "fe/mesh.h"
#include "python/arrays.h"

namespace jointdyn::python {

py::object Sparse(const solvers::SparseMatrix& matrix) {
  solvers::SparseMatrix m = matrix;
  m.makeCompressed();
  const auto nnz = static_cast<py::ssize_t>(m.nonZeros());
  py::array_t<double> values(nnz, m.valuePtr());
  py::array_t<int> indices(nnz, m.innerIndexPtr());
  py::array_t<int> pointers(static_cast<py::ssize_t>(m.outerSize() + 1), m.outerIndexPtr());
  try {
    const py::module_ sparse = py::module_::import("scipy.sparse");
    return sparse.attr("csc_matrix")(py::make_tuple(values, indices, pointers),
                                     py::make_tuple(m.rows(), m.cols()));
  } catch (const py::error_already_set&) {  // no scipy: coordinates
    py::array_t<int> rows(nnz), cols(nnz);
    auto r = rows.mutable_unchecked<1>();
    auto c = cols.mutable_unchecked<1>();
    py::ssize_t k = 0;
    for (int j = 0; j < m.outerSize(); ++j)
      for (solvers::SparseMatrix::InnerIterator it(m, j); it; ++it, ++k) {
        r(k) = static_cast<int>(it.row());
        c(k) = j;
      }
    return py::make_tuple(rows, cols, values);
  }
}

namespace {

py::dict Contacts(const fe::FeModel& model) {
  py::dict contacts;
  for (size_t c = 0; c < model.contacts.size(); ++c) {
    const fe::PairingResult& pairing = model.contacts[c];
    const auto n = static_cast<py::ssize_t>(pairing.pairs.size());
    py::array_t<double> point({n, py::ssize_t{3}}), normal({n, py::ssize_t{3}});
    auto p = point.mutable_unchecked<2>();
    auto q = normal.mutable_unchecked<2>();
    for (py::ssize_t i = 0; i < n; ++i)
      for (int a = 0; a < 3; ++a) {
        p(i, a) = pairing.pairs[i].point(a);
        q(i, a) = pairing.pairs[i].n(a);
      }
    using Pair = fe::ContactPair;
    py::dict entry;
    entry["slave"] = pairing.slave;
    entry["master"] = pairing.master;
    entry["slave_node"] = Column(pairing.pairs, [](const Pair& x) { return double(x.slave); });
    entry["point"] = point;
    entry["normal"] = normal;
    entry["gap"] = Column(pairing.pairs, [](const Pair& x) { return x.gap; });
    entry["area"] = Column(pairing.pairs, [](const Pair& x) { return x.area; });
    entry["shared_nodes"] = pairing.shared_nodes;
    contacts[py::str(model.contact_names[c])] = entry;
  }
  return contacts;
}

}  // namespace

py::dict FeModelDict(const fe::FeModel& model) {
  py::dict out;
  out["nodes"] = Array(MatX(model.mesh.nodes));
  out["dim"] = model.mesh.dim;
  py::dict blocks;
  for (const fe::ElementBlock& block : model.mesh.blocks) {
    const auto per = static_cast<py::ssize_t>(fe::NodesPerElement(block.type));
    py::array_t<int> connectivity({static_cast<py::ssize_t>(block.size()), per},
                                  block.connectivity.data());
    blocks[py::str(block.name)] = py::dict(py::arg("type") = std::string(fe::Name(block.type)),
                                           py::arg("connectivity") = connectivity);
  }
  out["blocks"] = blocks;
  out["node_sets"] = model.mesh.node_sets;
  out["stiffness"] = Sparse(model.stiffness);
  out["mass"] = Sparse(model.mass);
  out["free_stiffness"] = Sparse(model.ReducedStiffness());
  out["free_mass"] = Sparse(model.ReducedMass());
  out["free_dofs"] = model.dofs->num_free_dofs();
  out["contacts"] = Contacts(model);
  return out;
}

py::dict ModalArrays(const analysis::ModalOptions&, const analysis::ModalResult& result) {
  py::dict out = StatusDict(result.status, result.wall_seconds);
  out["frequencies_hz"] = Array(result.frequencies_hz);
  out["modes"] = Array(result.eigen.vectors);
  out["eigen_seconds"] = result.eigen_seconds;
  out["model"] = FeModelDict(result.model);
  return out;
}

py::dict StaticArrays(const analysis::StaticOptions&, const analysis::StaticResult& result) {
  py::dict out = StatusDict(result.status, result.wall_seconds);
  py::list steps;
  for (const analysis::StaticStep& step : result.steps) {
    const auto supports = static_cast<py::ssize_t>(step.reactions.size());
    MatX force(supports, 3), moment(supports, 3), point(supports, 3);
    for (py::ssize_t s = 0; s < supports; ++s) {
      force.row(s) = step.reactions[s].force.transpose();
      moment.row(s) = step.reactions[s].moment.transpose();
      point.row(s) = step.reactions[s].point.transpose();
    }
    py::dict entry = JointFiguresDict(step.joints);
    entry.attr("update")(py::dict(
        py::arg("index") = step.index, py::arg("t") = step.t, py::arg("force_n") = Array(force),
        py::arg("moment_nm") = Array(moment), py::arg("about_m") = Array(point),
        py::arg("bolt_forces_n") = Array(step.bolt_forces),
        py::arg("newton_iterations") = step.solve.iterations,
        py::arg("factorizations") = step.solve.factorizations,
        py::arg("seconds") = step.solve.seconds));
    steps.append(entry);
  }
  out["steps"] = steps;
  const int dim = result.model.mesh.dim;
  const auto nodes = static_cast<Eigen::Index>(result.displacement.size() / std::max(dim, 1));
  out["displacement"] = Array(MatX(result.displacement.reshaped<Eigen::RowMajor>(nodes, dim)));
  out["basis"] = result.basis;
  out["coordinates"] = result.coordinates;
  out["model"] = FeModelDict(result.model);
  return out;
}

py::dict ReductionArrays(const analysis::ReductionOptions&,
                         const analysis::ReductionResult& result) {
  py::dict out = StatusDict(result.status, result.wall_seconds);
  out["basis"] = Array(result.basis.vectors);
  py::list names, kinds;
  for (const reduction::BasisColumn& column : result.basis.columns) {
    names.append(column.name);
    kinds.append(std::string(reduction::Name(column.kind)));
  }
  out["columns"] = names;
  out["kinds"] = kinds;
  out["stiffness"] = Array(result.stiffness);
  out["mass"] = Array(result.mass);
  out["frequencies_hz"] = Array(result.frequencies);
  out["rigid_modes_removed"] = result.rigid_modes_removed;
  out["model"] = FeModelDict(result.model);
  return out;
}

namespace {

py::dict RunArrays(const analysis::DynamicRunResult& run) {
  const analysis::RunHistory& h = run.history;
  py::dict out = StatusDict(run.transient.status, run.wall_seconds);
  out["time"] = Array(h.time);
  for (int c = 0; c < analysis::kCriteria; ++c) {
    const std::string key = analysis::kCriterionNames[c].key;
    out[py::str(analysis::kCriterionNames[c].column)] = Array(h.criteria[c]);
    if (!run.errors[c].empty()) out[py::str(key + "_error")] = Array(run.errors[c]);
  }
  MatX dofs(static_cast<Eigen::Index>(h.dofs.size()), h.dofs.empty() ? 0 : h.dofs[0].size());
  for (size_t i = 0; i < h.dofs.size(); ++i) dofs.row(static_cast<Eigen::Index>(i)) = h.dofs[i];
  out["dofs"] = Array(dofs);
  out["coordinates"] = run.size;
  out["accepted_steps"] = run.transient.accepted_steps;
  out["rejected_steps"] = run.transient.rejected_steps;
  out["newton_iterations"] = run.transient.newton_iterations;
  out["cpu_seconds"] = run.transient.cpu_seconds;
  out["peak_velocity"] = run.peak_velocity;
  out["energy"] = EnergyDict(run.transient.energy);
  return out;
}

}  // namespace

py::dict JointDynamicsArrays(const analysis::JointDynamicsOptions&,
                             const analysis::JointDynamicsResult& result) {
  py::dict out = StatusDict(result.status, result.wall_seconds);
  py::dict runs;
  for (size_t r = 0; r < result.results.size(); ++r)
    runs[py::str(result.runs[r].name)] = RunArrays(result.results[r]);
  out["runs"] = runs;
  if (result.reference) out["reference"] = result.runs[*result.reference].name;
  out["cms_basis"] = result.cms_basis;
  out["times_s"] = result.times;
  out["model"] = FeModelDict(result.model);
  return out;
}

namespace {

py::dict Criteria(const std::array<double, analysis::kCriteria>& values) {
  py::dict out;
  for (int c = 0; c < analysis::kCriteria; ++c)
    out[py::str(analysis::kCriterionNames[c].column)] = values[c];
  return out;
}

py::dict CurveArrays(const analysis::StudyCurve& curve, const std::vector<int>& modes) {
  py::dict out;
  out["method"] = analysis::ExtensionKey(curve.method);
  out["g"] = modes;
  out["vectors"] = curve.vectors;
  for (int c = 0; c < analysis::kCriteria; ++c) {
    const std::string column = analysis::kCriterionNames[c].column;
    out[py::str(column)] =
        Column(curve.points, [c](const analysis::StudyPoint& p) { return p.values[c]; });
    out[py::str(std::string(analysis::kCriterionNames[c].key) + "_error")] = Array(curve.errors[c]);
  }
  return out;
}

}  // namespace

py::dict JointModeStudyArrays(const analysis::JointModeStudyOptions& options,
                              const analysis::JointModeStudyResult& result) {
  py::dict out = StatusDict(result.status, result.wall_seconds);
  py::dict cases;
  for (size_t i = 0; i < result.cases.size(); ++i) {
    const analysis::StudyCase& study = result.cases[i];
    py::dict entry;
    entry["full"] = Criteria(study.full.values);
    py::list curves;
    py::dict pressures;  // per pair [Pa], as <case>_pressures.csv
    pressures["full"] = Array(study.full.pressures);
    for (const analysis::StudyCurve& curve : study.curves) {
      curves.append(CurveArrays(curve, options.modes));
      for (size_t g = 0; g < curve.points.size(); ++g)
        pressures[py::str(std::string(analysis::ExtensionKey(curve.method)) + "_" +
                          std::to_string(options.modes[g]))] = Array(curve.points[g].pressures);
    }
    entry["curves"] = curves;
    entry["pressures_pa"] = pressures;
    cases[py::str(options.cases[i].name)] = entry;
  }
  out["cases"] = cases;
  py::dict povs;
  for (const analysis::PovCurve& pov : result.povs)
    povs[analysis::ExtensionKey(pov.method)] = Array(pov.ratio);
  out["pov_ratio"] = povs;
  out["pair_positions_m"] = Array(result.pair_positions);
  out["m"] = result.m;
  out["cms_basis"] = result.cms_basis;
  out["times_s"] = result.times;
  out["model"] = FeModelDict(result.model);
  return out;
}

}  // namespace jointdyn::python
