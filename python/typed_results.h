// The typed results of the analyses for Python: model -> options (src/model) -> the
// analysis (src/analysis, GIL released) -> a dict of figures and numpy arrays. One entry
// per analysis in typed_results.cc; adding one is a converter of its Result and a line.
#pragma once

#include <pybind11/pybind11.h>

#include "model/model_node.h"

namespace jointdyn::python {

// Runs the analysis `root` names and returns its result (status, counters, timings,
// arrays). `progress`: None or a callable taking event dicts (python_observer.h). Throws
// InputError (located in the model) for a bad model.
pybind11::dict Analyze(const model::ModelNode& root, pybind11::object progress);

}  // namespace jointdyn::python
