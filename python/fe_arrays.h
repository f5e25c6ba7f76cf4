// The FE analyses' results for Python (typed_results.h): the FE model (nodes, blocks, sets,
// K and M, contact pairs), the modal result and the static result.
#pragma once

#include <pybind11/pybind11.h>

#include "analysis/modal.h"
#include "analysis/static.h"
#include "fe/fe_model.h"

namespace jointdyn::python {

// nodes (n x 3 [m]), blocks {name: {type, connectivity (elements x nodes)}}, node_sets,
// stiffness and mass on the mesh DOFs (node * dim + component) and on the free DOFs,
// free_dofs, contacts {name: {slave, master, slave_node, point, normal, gap, area}}.
pybind11::dict FeModelDict(const fe::FeModel& model);
// frequencies_hz, modes (free DOFs x modes, M-normalized), the model (FeModelDict).
pybind11::dict ModalArrays(const analysis::ModalResult& result);
// Per step t, reactions (force, moment, point: supports x 3), bolt forces, the joints'
// figures and the solver's counters; displacement (nodes x dim [m]) of the last step; the
// model.
pybind11::dict StaticArrays(const analysis::StaticResult& result);

}  // namespace jointdyn::python
