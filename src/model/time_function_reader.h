// The time functions of model files (time/time_function.h): forces, prescribed motions and
// pressures of lumped models, the dynamic loads of FE models. The keys are in
// docs/model_files.md (`analysis: transient`, Time functions).
#pragma once

#include "model/model_node.h"
#include "time/time_function.h"

namespace jointdyn::model {

// Reads `type` and the keys of that function from `node`, and `delay` [s] (optional: the
// function started that much later; the caller finishes `node`).
time::TimeFunction ReadTimeFunction(const ModelNode& node);

}  // namespace jointdyn::model
