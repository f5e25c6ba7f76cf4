#include "io/transient_model.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>

#include "core/clock.h"
#include "core/progress.h"
#include "io/integrator_reader.h"
#include "io/lumped_reader.h"
#include "io/results.h"
#include "io/svg_plot.h"

namespace jointdyn::io {
namespace {

using lumped::ElementKind;
using lumped::kGround;
using lumped::TimeFunction;
using Kind = ModelNode::Kind;

// An axis label for `columns` from their kind (q_, v_, f_, fx_, fy_ or p_, energies).
std::string Label(const std::vector<std::string>& columns) {
  const auto kind = [](const std::string& column) -> std::string {
    if (column.starts_with("q_")) return "displacement [m]";
    if (column.starts_with("v_")) return "velocity [m/s]";
    for (const char* force : {"f_", "fx_", "fy_", "p_"})
      if (column.starts_with(force)) return "force [N]";
    return "energy [J]";
  };
  std::string first = kind(columns.front());
  for (const auto& c : columns)
    if (kind(c) != first) return "value";
  return first;
}

void ReadOutput(const ModelNode* node, const DofTable& dofs, const std::string& title,
                TransientModel& model) {
  auto& out = model.output;
  const auto elements = lumped::Elements(model.lumped);
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
  const std::vector<std::string> columns = TransientColumns(model);
  std::set<std::string> files;
  if (node && node->Has("plots")) {
    const auto plots = node->OptionalMaps("plots");
    for (size_t i = 0; i < plots.size(); ++i) {
      TransientPlot plot;
      plot.columns = plots[i].Strings("columns");
      for (const auto& c : plot.columns)
        if (c == "time" || std::find(columns.begin(), columns.end(), c) == columns.end())
          plots[i].FailValue("columns", c,
                             "is not a column of transient.csv (see output.dofs, output.elements)");
      plot.file =
          plots[i].String("file", i == 0 ? "transient" : "transient_" + std::to_string(i + 1));
      if (plot.file.empty() || plot.file.find_first_of("/\\.") != std::string::npos)
        plots[i].FailValue("file", plot.file, "must be a file name without directory or extension");
      if (!files.insert(plot.file).second)
        plots[i].FailValue("file", plot.file, "is used by another plot");
      plot.x_column = plots[i].String("x", "time");
      if (std::find(columns.begin(), columns.end(), plot.x_column) == columns.end())
        plots[i].FailValue("x", plot.x_column, "is not a column of transient.csv");
      plot.title = plots[i].String("title", title);
      plot.x_label = plots[i].String(
          "x_label", plot.x_column == "time" ? "time t [s]" : Label({plot.x_column}));
      plot.y_label = plots[i].String("y_label", Label(plot.columns));
      plots[i].Finish();
      out.plots.push_back(std::move(plot));
    }
  } else {  // the displacements of the first output DOFs
    TransientPlot plot{"transient", title, "time t [s]", "displacement [m]"};
    for (size_t i = 0; i < out.dofs.size() && i < 8; ++i)
      plot.columns.push_back("q_" + dofs.name(out.dofs[i]));
    if (!plot.columns.empty()) out.plots.push_back(std::move(plot));
  }
  if (node) node->Finish();
}

}  // namespace

TransientModel ReadTransientModel(const ModelNode& root) {
  TransientModel model;
  auto& lm = model.lumped;
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
             model.title.empty() ? "Transient response" : model.title, model);
  root.Finish();
  if (const Status status = model.integrator.Validate(); !status)
    throw InputError("integrator", "", status.message).Located(root.file(), integrator.line(), "");
  return model;
}

std::vector<std::string> TransientColumns(const TransientModel& model) {
  std::vector<std::string> columns = {"time"};
  const auto& dofs = model.lumped.dofs;
  for (const int d : model.output.dofs) {
    columns.push_back("q_" + dofs[d].name);
    columns.push_back("v_" + dofs[d].name);
  }
  const auto elements = lumped::Elements(model.lumped);
  for (const int e : model.output.elements) {
    const auto& [name, kind, dim] = elements[e];
    if (dim == 2) {
      columns.push_back("fx_" + name);
      columns.push_back("fy_" + name);
    } else if (kind != ElementKind::kContact) {
      columns.push_back("f_" + name);
    }
    if (kind == ElementKind::kFriction || kind == ElementKind::kContact)
      columns.push_back("p_" + name);
  }
  if (model.output.energy)
    for (const char* c : {"E_kinetic", "E_stored", "W_external", "W_prescribed", "D_viscous",
                          "D_laws", "D_numerical"})
      columns.push_back(c);
  return columns;
}

namespace {

// The CSV row of one observed state.
std::vector<double> Row(const TransientModel& model, const lumped::LumpedSystem& system,
                        const std::vector<lumped::ElementInfo>& elements,
                        const time::StepRecord& record) {
  std::vector<double> row = {record.t};
  VecX q_all, v_all;
  system.AllDofs(record.t, *record.q, *record.v, q_all, v_all);
  for (const int d : model.output.dofs) {
    row.push_back(q_all(d));
    row.push_back(v_all(d));
  }
  const auto forces = system.ElementForces(record.t, *record.q, *record.v);
  for (const int e : model.output.elements) {
    if (elements[e].kind != ElementKind::kContact) row.push_back(forces[e].force.x());
    if (elements[e].dim == 2) row.push_back(forces[e].force.y());
    if (elements[e].kind != ElementKind::kSpring && elements[e].kind != ElementKind::kDamper)
      row.push_back(forces[e].normal_force);
  }
  if (model.output.energy) {
    JD_CHECK(record.energy != nullptr, "the integrator reported a step without its energy");
    const time::EnergyBalance& e = *record.energy;
    const double w = system.prescribed_work();
    for (const double x : {e.kinetic, e.stored, e.external_work, w, e.viscous_dissipation,
                           e.law_dissipation + w, e.numerical_dissipation})
      row.push_back(x);
  }
  return row;
}

}  // namespace

RunOutcome RunTransientModel(const ModelNode& root, const std::filesystem::path& out_dir) {
  const auto start = Clock::now();
  const TransientModel model = ReadTransientModel(root);
  lumped::LumpedSystem system(model.lumped);
  EnsureDirectory(out_dir);

  const std::vector<std::string> columns = TransientColumns(model);
  CsvWriter csv(out_dir / "transient.csv", columns);
  std::vector<std::vector<double>> series(columns.size());  // the plotted columns only
  std::vector<bool> plotted(columns.size(), false);
  const auto index = [&](const std::string& name) {
    return std::find(columns.begin(), columns.end(), name) - columns.begin();
  };
  for (const auto& plot : model.output.plots)
    for (const auto& c : plot.columns) plotted[index(c)] = plotted[index(plot.x_column)] = true;

  const auto elements = lumped::Elements(model.lumped);
  const auto& options = model.integrator;
  Progress progress("time integration, % of t_end", 100);
  int samples = 0;
  const auto observer = [&](const time::StepRecord& record) {
    const std::vector<double> row = Row(model, system, elements, record);
    csv.Row(row);
    ++samples;
    for (size_t i = 0; i < row.size(); ++i)
      if (plotted[i]) series[i].push_back(row[i]);
    progress.Update(
        int(std::floor(100.0 * (record.t - options.t_start) / (options.t_end - options.t_start))));
  };
  const time::TransientResult result = time::Integrate(system, options, system.initial_positions(),
                                                       system.initial_velocities(), observer);

  if (samples >= 2)
    for (const auto& plot : model.output.plots) {
      PlotSpec spec{plot.title, plot.x_label, plot.y_label, false, false, {}};
      for (const auto& c : plot.columns)
        spec.series.push_back({c, series[index(plot.x_column)], series[index(c)]});
      WriteSvgPlot(spec, out_dir / (plot.file + ".svg"));
    }

  const int steps = result.accepted_steps;
  nlohmann::json summary;
  summary["analysis"] = "transient";
  summary["model"] = root.file();
  summary["title"] = model.title;
  summary["status"] = result.status.ok ? "ok" : "failed";
  summary["message"] = result.status.message;
  summary["dofs"] = system.size();
  summary["prescribed_dofs"] = int(model.lumped.dofs.size()) - system.size();
  summary["elements"] = {{"springs", model.lumped.springs.size()},
                         {"dampers", model.lumped.dampers.size()},
                         {"friction", model.lumped.friction.size()},
                         {"contacts", model.lumped.contacts.size()}};
  summary["scheme"] = SchemeName(options.scheme);
  summary["t_start"] = options.t_start;
  summary["t_end"] = options.t_end;
  summary["t_reached"] = result.t_reached;
  summary["samples"] = samples;
  summary["accepted_steps"] = steps;
  summary["rejected_steps"] = result.rejected_steps;
  summary["newton_iterations"] = result.newton_iterations;
  summary["newton_iterations_per_step"] =
      steps > 0 ? double(result.newton_iterations) / steps : 0.0;
  summary["residual_evaluations"] = result.residual_evaluations;
  summary["jacobian_evaluations"] = result.jacobian_evaluations;
  summary["factorizations"] = result.factorizations;
  summary["post_newton_passes"] = result.post_newton_passes;
  summary["cpu_seconds"] = result.cpu_seconds;
  summary["energy"] = EnergySummary(result.energy, system.prescribed_work());
  summary["wall_time_s"] = Seconds(start);
  RunOutcome outcome{result.status.ok, result.status.message, out_dir / "summary.json"};
  WriteJson(outcome.summary, summary);
  return outcome;
}

}  // namespace jointdyn::io
