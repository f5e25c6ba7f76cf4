#include "io/run_model.h"

#include "io/hysteresis_model.h"
#include "io/model_node.h"

namespace jointdyn::io {

RunOutcome RunModelFile(const std::filesystem::path& model, const std::filesystem::path& out_dir) {
  const ModelNode root = ModelNode::LoadFile(model.string());
  enum class Analysis { kHysteresis };
  switch (root.Enum<Analysis>("analysis", {{"hysteresis", Analysis::kHysteresis}})) {
    case Analysis::kHysteresis:
      return RunHysteresisModel(root, out_dir);
  }
  return {};
}

}  // namespace jointdyn::io
