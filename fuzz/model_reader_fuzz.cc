// libFuzzer target: the bytes are a model file, read (never run) by the reader of each
// analysis. A malformed file must be an InputError; a crash, a sanitizer report or any
// other exception is a finding (libFuzzer reports an uncaught exception as a crash).
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.h"
#include "model/harmonic_reader.h"
#include "model/hysteresis_reader.h"
#include "model/joint_dynamics_reader.h"
#include "model/joint_mode_study_reader.h"
#include "model/modal_reader.h"
#include "model/model_node.h"
#include "model/reduction_reader.h"
#include "model/transient_reader.h"

using namespace jointdyn;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  // Every reader first checks `analysis:` (ModelNode::ExpectAnalysis), so all but the one
  // the file names stop there, without a list of names here to keep current.
  const auto read = [&](auto reader) {
    try {
      reader(model::ModelNode::LoadString(text, "fuzz.yaml"));
    } catch (const InputError&) {
    }
  };
  read(model::ReadHysteresis);
  read(model::ReadTransient);
  read(model::ReadHarmonic);
  read(model::ReadModal);
  read(model::ReadReduction);
  read(model::ReadJointModeStudy);
  read(model::ReadJointDynamics);
  return 0;
}
