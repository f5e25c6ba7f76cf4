// The `analysis: joint_dynamics` model file: the dynamic convergence study of seed 003
// section 4.1.1 (fig. 4.6-4.8) and the reduced transient simulation of a jointed FE
// structure. An FE model with joints (per contact a normal law and a friction law) under
// time-dependent loads on reference nodes is integrated in time (time::Integrate, e.g.
// HHT-alpha) as
//
//   full     the unreduced model on the independent DOFs of the FE model (every pair;
//            `study.full: true`, optional: expensive);
//   reduced  the model on a basis V (joint::Reduce): the CMS basis (Craig-Bampton +
//            free-free orthogonalization, m vectors) extended by g joint modes (wPOD of
//            TVDs, POD of TVDs, POD of forces from the 2 m^2 TVDs of the CMS basis with
//            the TVD normal law), for every method of `study.methods` and every g of
//            `study.modes` (g = 0: the CMS basis alone, run once as `cms`).
//
// Runs are named `full`, `cms` and `<method>_<g>` (e.g. `wpod_tvd_20`). Each run records
// per output step a measure (a reference-node component, e.g. the tip deflection) and the
// gap norm ||g_N||_2 over all pairs of all joints, and the chosen DOFs for histories.h5.
// The reference of the errors is the full run when it ran to t_end, else the reduced run
// with the largest g (the first method of `study.methods` among equals) that did; every
// other run gets e(t) = |u(t) - u_ref(t)| / max_t |u_ref| (u_ref interpolated linearly to
// the run's output times) for the measure and for the gap norm.
//
// A run that fails numerically (Newton after all step cuts, a law) is reported with what
// failed and where (TransientResult::status: time, step, iteration); its results up to
// there are kept, the other runs continue, and the outcome is a failure (exit code 3).
//
// Results: histories.csv (run, time, measure, gap norm; written while integrating),
// errors.csv, measure.svg and gap_norm.svg (all runs over time), error_<method>_measure.svg
// and error_<method>_gap_norm.svg (log scale, one curve per g), histories.h5 (per run: time,
// measure, gap norm and the chosen DOFs), contact_fields/<run>_<contact>.pvd with one VTU
// per field step (ParaView), and summary.json. The schema is in docs/model_files.md.
#pragma once

#include <filesystem>

#include "io/model_node.h"
#include "io/run_model.h"

namespace jointdyn::io {

RunOutcome RunJointDynamics(const ModelNode& root, const std::filesystem::path& out_dir);

}  // namespace jointdyn::io
