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
#include "model/static_reader.h"
#include "model/transient_reader.h"

using namespace jointdyn;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const model::ModelNode root = model::ModelNode::LoadString(
        std::string(reinterpret_cast<const char*>(data), size), "fuzz.yaml");
    // Every reader first checks `analysis:` (ModelNode::ExpectAnalysis), so all but the one
    // the file names stop there, having read that key only: they can share the root, and
    // no list of names is needed here.
    const auto read = [&](auto reader) {
      try {
        reader(root);
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
    read(model::ReadStatic);
  } catch (const InputError&) {
  }
  return 0;
}
