#include "model/transient_reader.h"

#include <algorithm>

#include "model/column_plots.h"
#include "model/integrator_reader.h"
#include "model/lumped_reader.h"
#include "model/time_function_reader.h"

namespace jointdyn::model {
namespace {

using time::TimeFunction;
using Kind = ModelNode::Kind;

// The axis label of a column of transient.csv by its kind (q_, v_, f_, fx_, fy_ or p_,
// energies).
std::string ColumnLabel(const std::string& column) {
  if (column.starts_with("q_")) return "displacement [m]";
  if (column.starts_with("v_")) return "velocity [m/s]";
  for (const char* force : {"f_", "fx_", "fy_", "p_"})
    if (column.starts_with(force)) return "force [N]";
  return "energy [J]";
}

void ReadOutput(const ModelNode* node, const DofTable& dofs, const std::string& title,
                TransientFile& file) {
  analysis::TransientOptions& model = file.options;
  auto& out = model.output;
  const auto elements = lumped::Elements(model.model);
  if (node && node->Has("dofs")) {
    bool all = false;
    out.dofs = dofs.ReadList(*node, "dofs", &all);
  } else {
    for (int i = 0; i < dofs.size(); ++i) out.dofs.push_back(i);
  }
  if (node && node->KindOf("elements") == Kind::kList) {
    for (const std::string& name : node->Strings("elements")) {
      const auto it = std::find_if(elements.begin(), elements.end(),
                                   [&](const auto& e) { return e.name == name; });
      if (it == elements.end()) node->FailValue("elements", name, "is not the name of an element");
      out.elements.push_back(int(it - elements.begin()));
    }
  } else {
    const std::string choice = node ? node->String("elements", "all") : "all";
    if (choice != "all" && choice != "none")
      node->FailValue("elements", choice, "must be all, none or a list of element names");
    if (choice == "all")
      for (int i = 0; i < int(elements.size()); ++i) out.elements.push_back(i);
  }
  if (node) {
    model.integrator.output_interval = node->Double("interval", 0.0, NonNegative());
    out.energy = node->Bool("energy", false);
  }
  if (node && node->Has("plots")) {
    file.plots =
        ReadColumnPlots(*node, model.Columns(), "transient.csv",
                        " (see output.dofs, output.elements)", "transient", title, ColumnLabel);
  } else {  // the displacements of the first output DOFs
    TransientPlot plot{"transient", title, "time t [s]", "displacement [m]"};
    for (size_t i = 0; i < out.dofs.size() && i < 8; ++i)
      plot.columns.push_back("q_" + dofs.name(out.dofs[i]));
    if (!plot.columns.empty()) file.plots.push_back(std::move(plot));
  }
  if (node) node->Finish();
}

}  // namespace

TransientFile ReadTransient(const ModelNode& root) {
  TransientFile file;
  root.ExpectAnalysis("transient");
  analysis::TransientOptions& model = file.options;
  auto& lm = model.model;
  model.title = root.String("title", "");
  if (root.Has("dry_friction"))
    root.FailValue("dry_friction", "",
                   "rigid Coulomb friction is for analysis: harmonic only (a time integrator "
                   "cannot step the set-valued law): use a friction element with a stiff "
                   "coulomb law");
  LumpedStructure structure = ReadLumpedStructure(root, true);
  lm = std::move(structure.model);
  const DofTable& dofs = structure.dofs;

  // Loads.
  const auto free_only = [&](const ModelNode& node, const std::string& key,
                             const std::vector<int>& list) {
    for (const int d : list)
      if (lm.dofs[d].motion)
        node.FailValue(key, dofs.name(d), "has a prescribed motion: forces act on free DOFs only");
  };
  for (const ModelNode& node : root.OptionalMaps("forces")) {
    if (node.Has("dof") == node.Has("dofs"))
      node.FailValue("dof", "", "give dof (one DOF) or dofs (a list, or all)");
    bool all = false;
    std::vector<int> list = node.Has("dof") ? std::vector<int>{dofs.Read(node, "dof", false)}
                                            : dofs.ReadList(node, "dofs", &all);
    if (all) std::erase_if(list, [&](int d) { return lm.dofs[d].motion.has_value(); });
    free_only(node, node.Has("dof") ? "dof" : "dofs", list);
    const TimeFunction force = ReadTimeFunction(node);
    node.Finish();
    for (const int d : list) lm.loads.push_back({d, force});
  }
  if (const auto gravity = root.OptionalMap("gravity")) {
    const double g = gravity->Double("acceleration");
    bool all = true;
    std::vector<int> list;
    if (gravity->Has("dofs")) {
      list = dofs.ReadList(*gravity, "dofs", &all);
    } else {
      for (int i = 0; i < dofs.size(); ++i) list.push_back(i);
    }
    if (all) std::erase_if(list, [&](int d) { return lm.dofs[d].motion.has_value(); });
    free_only(*gravity, "dofs", list);
    gravity->Finish();
    for (const int d : list) lm.loads.push_back({d, TimeFunction::Constant(lm.dofs[d].mass * g)});
  }

  const ModelNode integrator = root.Map("integrator");
  model.integrator = ReadIntegrator(integrator);
  const auto output = root.OptionalMap("output");
  ReadOutput(output ? &*output : nullptr, dofs,
             model.title.empty() ? "Transient response" : model.title, file);
  // The rows of transient.csv are kept in memory: 8 B per column and the time, and a
  // vector's 24 B per row.
  const double samples = OutputSamples(model.integrator);
  const size_t columns = model.Columns().size();
  const std::string what = FormatValue(samples) + " output rows of " + std::to_string(columns + 1) +
                           " columns (transient.csv)";
  const double bytes = samples * ((columns + 1) * 8.0 + 24.0);
  if (output)
    output->CheckMemory("interval", bytes, what, FormatValue(model.integrator.output_interval));
  else
    root.CheckMemory("integrator", bytes, what, "(no output.interval)");
  root.Finish();
  return file;  // RunTransient validates the integrator options (TransientOptions::Validate)
}

}  // namespace jointdyn::model
