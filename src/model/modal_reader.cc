#include "model/modal_reader.h"

#include "model/fe_reader.h"

namespace jointdyn::model {

analysis::ModalOptions ReadModal(const ModelNode& root) {
  analysis::ModalOptions options;
  root.ExpectAnalysis("modal");
  options.title = root.String("title", "");
  options.fe = ReadFeModelSpec(root);
  if (const auto modes = root.OptionalMap("modes")) {
    options.mode_count = modes->Int("count", AtLeast(1));
    options.shift_frequency = modes->Double("shift", options.shift_frequency);
    modes->Finish();
  }
  if (root.Has("export")) {
    const std::string format = root.String("export");
    if (format != "matrix_market") root.FailValue("export", format, "must be matrix_market");
    options.export_matrix_market = true;
  }
  root.Finish();
  return options;
}

}  // namespace jointdyn::model
