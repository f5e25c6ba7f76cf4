// The `analysis: modal` model file as analysis::ModalOptions (analysis/modal.h). The schema
// is in docs/model_files.md.
#pragma once

#include "analysis/modal.h"
#include "model/model_node.h"

namespace jointdyn::model {

// Reads and checks every key (throws InputError located in the file); builds nothing.
analysis::ModalOptions ReadModal(const ModelNode& root);

}  // namespace jointdyn::model
