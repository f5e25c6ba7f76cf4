// The seed 003 multi-mass oscillator (section 4.4.2, table 4.9) with a choice of friction
// law: shared by the reproduction study and the transient throughput benchmark.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "laws/bouc_wen.h"
#include "laws/coulomb.h"
#include "laws/dahl_valanis.h"
#include "model/model_node.h"
#include "model/transient_reader.h"

namespace jointdyn::bench {

// The four cases of table 4.9, as example model files.
inline const std::vector<std::string>& MultiMassCases() {
  static const std::vector<std::string> cases{"gaping", "varying_rg", "sticking_sliding",
                                              "pure_sticking"};
  return cases;
}

inline const std::vector<std::string>& MultiMassLaws() {
  static const std::vector<std::string> laws{"coulomb", "dahl", "valanis", "bouc_wen"};
  return laws;
}

// The seed's four laws with the examples' c1 = 1000 N/m, c2 = 1 N/m, mu = 1 (R_G = p);
// Valanis kappa = 0.9, Bouc-Wen n = 2.
inline std::shared_ptr<const laws::TangentialLaw> MultiMassLaw(const std::string& name) {
  const double c1 = 1000.0, c2 = 1.0, mu = 1.0;
  if (name == "dahl")
    return std::make_shared<laws::DahlValanisLaw>(laws::DahlParams{c1, c2, mu}, 1);
  if (name == "valanis")
    return std::make_shared<laws::DahlValanisLaw>(laws::ValanisParams{c1, c2, mu, 0.9}, 1);
  if (name == "bouc_wen")
    return std::make_shared<laws::BoucWenLaw>(laws::BoucWenParams{c1, c2, mu, 2.0}, 1);
  return std::make_shared<laws::CoulombLaw>(laws::CoulombParams{c1, c2, mu}, 1);
}

// Reads examples/transient/multi_mass_<case>.yaml and puts `law` on every ground element.
inline analysis::TransientOptions MultiMassModel(const std::string& source_dir,
                                                 const std::string& name, const std::string& law) {
  const model::ModelNode root =
      model::ModelNode::LoadFile(source_dir + "/examples/transient/multi_mass_" + name + ".yaml");
  analysis::TransientOptions options = model::ReadTransient(root).options;
  const auto shared = MultiMassLaw(law);
  for (auto& element : options.model.friction) element.law = shared;
  return options;
}

}  // namespace jointdyn::bench
