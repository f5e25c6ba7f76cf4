// The FE analyses' results for Python (typed_results.h; the options are unused so far): the FE
// model (nodes, blocks, sets, K and M, contact pairs), the modal result and the static result.
#pragma once

#include <pybind11/pybind11.h>

#include "analysis/joint_dynamics.h"
#include "analysis/joint_mode_study.h"
#include "analysis/modal.h"
#include "analysis/reduction.h"
#include "analysis/static.h"
#include "fe/fe_model.h"

namespace jointdyn::python {

// nodes (n x 3 [m]), blocks {name: {type, connectivity (elements x nodes)}}, node_sets,
// stiffness and mass on the mesh DOFs (node * dim + component) and on the free DOFs,
// free_dofs, contacts {name: {slave, master, slave_node, point, normal, gap, area}}.
pybind11::dict FeModelDict(const fe::FeModel& model);
// frequencies_hz, modes (free DOFs x modes, M-normalized), the model (FeModelDict).
pybind11::dict ModalArrays(const analysis::ModalOptions&, const analysis::ModalResult& result);
// Per step t, reactions (force, moment, point: supports x 3), bolt forces, the joints'
// figures and the solver's counters; displacement (nodes x dim [m]) of the last step; the
// model.
pybind11::dict StaticArrays(const analysis::StaticOptions&, const analysis::StaticResult& result);

// The final basis V (free DOFs x m) with its columns' names and kinds, V^T K V, V^T M V, its
// elastic frequencies [Hz]; the model.
pybind11::dict ReductionArrays(const analysis::ReductionOptions&,
                               const analysis::ReductionResult& result);
// Per run (by name): time [s], the criteria (measure, gap_norm_m, normal_force_n) and their
// errors against the reference run, the output DOFs (samples x DOFs), counters and energy;
// the model.
pybind11::dict JointDynamicsArrays(const analysis::JointDynamicsOptions&,
                                   const analysis::JointDynamicsResult& result);

// Per load case: the full solution's criteria; per method: g, the basis size and the
// criteria and their relative errors per g; w(g) per method; the model.
pybind11::dict JointModeStudyArrays(const analysis::JointModeStudyOptions& options,
                                    const analysis::JointModeStudyResult& result);

}  // namespace jointdyn::python
