#include "model/preload_reader.h"

#include <algorithm>
#include <string>

namespace jointdyn::model {

std::vector<analysis::BoltPreload> ReadBoltPreloads(const ModelNode& parent, const std::string& key,
                                                    const fe::FeModelSpec& fe) {
  std::vector<analysis::BoltPreload> preloads;
  for (const ModelNode& node : parent.OptionalMaps(key)) {
    const std::vector<std::string> names = node.Strings("beam");
    const auto beam = std::find_if(fe.beams.begin(), fe.beams.end(), [&](const fe::BeamSpec& b) {
      return names.size() == 2 &&
             ((b.a == names[0] && b.b == names[1]) || (b.a == names[1] && b.b == names[0]));
    });
    if (beam == fe.beams.end()) {
      std::string text;
      for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
      node.FailValue("beam", "[" + text + "]",
                     "must name the two reference nodes of a beam (key beams): a preload acts "
                     "along a beam bolt");
    }
    preloads.push_back({.beam = static_cast<int>(beam - fe.beams.begin()),
                        .force = node.Double("force", Positive())});
    for (size_t i = 0; i + 1 < preloads.size(); ++i)
      if (preloads[i].beam == preloads.back().beam)
        node.FailValue("beam", names[0] + ", " + names[1], "has a preload already");
    node.Finish();
  }
  return preloads;
}

void ReadStaticSolver(const ModelNode& node, joint::StaticOptions& solver) {
  solver.load_steps = node.Int("increments", solver.load_steps, InRange(1, 1e6));
  solver.max_cutbacks = node.Int("max_cutbacks", solver.max_cutbacks, AtLeast(0));
  solver.max_iterations = node.Int("max_iterations", solver.max_iterations, AtLeast(1));
  solver.residual_tolerance =
      node.Double("residual_tolerance", solver.residual_tolerance, Positive());
  solver.increment_tolerance =
      node.Double("increment_tolerance", solver.increment_tolerance, Positive());
}

}  // namespace jointdyn::model
