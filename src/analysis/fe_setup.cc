#include "analysis/fe_setup.h"

#include "core/error.h"
#include "core/memory.h"

namespace jointdyn::analysis {

fe::FeModel BuildModel(const fe::FeModelSpec& spec, Observer& observer) {
  fe::FeModel model = fe::BuildFeModel(
      spec, observer.ProgressOf("FE model: mesh, assembly, constraints, contact pairing"));
  if (!model.ignored_keywords.empty()) {
    std::string list;
    for (const auto& [keyword, count] : model.ignored_keywords)
      list += (list.empty() ? "" : ", ") + keyword + " (" + std::to_string(count) + ")";
    observer.Note("mesh file: left out (the model file gives these): " + list);
  }
  for (const fe::PairingResult& contact : model.contacts) observer.Note(contact.Summary());
  return model;
}

std::vector<reduction::BoundaryDof> BoundaryDofs(const fe::FeModel& model,
                                                 const std::vector<std::string>& names,
                                                 int vibration_modes, const std::string& reduction,
                                                 const std::string& names_key) {
  std::vector<reduction::BoundaryDof> boundary;
  try {
    boundary = reduction::ReferenceNodeBoundary(*model.dofs, names, names_key);
  } catch (const InputError& error) {
    throw error.Located("", 0, reduction);
  }
  const int interior = model.dofs->num_free_dofs() - static_cast<int>(boundary.size());
  if (vibration_modes >= interior)
    throw InputError(reduction + ".vibration_modes", std::to_string(vibration_modes),
                     "must be < the interior DOFs (" + std::to_string(interior) + ")");
  return boundary;
}

void CheckEigenMemory(const std::string& key, int count, int free) {
  const double bytes = (3.0 * count + 1.0) * free * sizeof(double);
  const std::string rule =
      ExceedsMemory(bytes, std::to_string(count) + " eigenvectors of " + std::to_string(free) +
                               " free DOFs (and the Lanczos basis)");
  if (!rule.empty()) throw InputError(key, std::to_string(count), rule);
}

}  // namespace jointdyn::analysis
