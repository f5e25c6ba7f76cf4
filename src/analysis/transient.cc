#include "analysis/transient.h"

#include <algorithm>
#include <cmath>

#include "core/clock.h"
#include "core/error.h"

namespace jointdyn::analysis {
namespace {

using lumped::ElementKind;

// The row of one observed state (TransientOptions::Columns()).
std::vector<double> Row(const TransientOptions& options, const lumped::LumpedSystem& system,
                        const std::vector<lumped::ElementInfo>& elements,
                        const time::StepRecord& record) {
  std::vector<double> row = {record.t};
  VecX q_all, v_all;
  system.AllDofs(record.t, *record.q, *record.v, q_all, v_all);
  for (const int d : options.output.dofs) {
    row.push_back(q_all(d));
    row.push_back(v_all(d));
  }
  const auto forces = system.ElementForces(record.t, *record.q, *record.v);
  for (const int e : options.output.elements) {
    if (elements[e].kind != ElementKind::kContact) row.push_back(forces[e].force.x());
    if (elements[e].dim == 2) row.push_back(forces[e].force.y());
    if (elements[e].kind != ElementKind::kSpring && elements[e].kind != ElementKind::kDamper)
      row.push_back(forces[e].normal_force);
  }
  if (options.output.energy) {
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

void TransientOptions::Validate() const {
  if (const Status status = integrator.Validate(); !status)
    throw InputError("integrator", "", status.message);
  const int dof_count = static_cast<int>(model.dofs.size());
  for (const int d : output.dofs)
    if (d < 0 || d >= dof_count) throw InputError("output.dofs", std::to_string(d), "is no DOF");
  const int element_count = static_cast<int>(lumped::Elements(model).size());
  for (const int e : output.elements)
    if (e < 0 || e >= element_count)
      throw InputError("output.elements", std::to_string(e), "is no element");
}

std::vector<std::string> TransientOptions::Columns() const {
  std::vector<std::string> columns = {"time"};
  for (const int d : output.dofs) {
    columns.push_back("q_" + model.dofs[d].name);
    columns.push_back("v_" + model.dofs[d].name);
  }
  const auto elements = lumped::Elements(model);
  for (const int e : output.elements) {
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
  if (output.energy)
    for (const char* c : {"E_kinetic", "E_stored", "W_external", "W_prescribed", "D_viscous",
                          "D_laws", "D_numerical"})
      columns.push_back(c);
  return columns;
}

TransientResult RunTransient(const TransientOptions& options, TransientObserver& observer) {
  options.Validate();
  const Clock::time_point start = Clock::now();
  lumped::LumpedSystem system(options.model);
  TransientResult result;
  result.columns = options.Columns();
  result.dofs = system.size();
  result.prescribed_dofs = static_cast<int>(options.model.dofs.size()) - system.size();
  const auto elements = lumped::Elements(options.model);
  const time::IntegratorOptions& integrator = options.integrator;
  const double span = integrator.t_end - integrator.t_start;
  observer.Progress("time integration, % of t_end", 0, 100);
  const auto record = [&](const time::StepRecord& step) {
    result.rows.push_back(Row(options, system, elements, step));
    observer.Sample(result.rows.back());
    observer.Progress("time integration, % of t_end",
                      static_cast<int>(std::floor(100.0 * (step.t - integrator.t_start) / span)),
                      100);
  };
  result.integration = time::Integrate(system, integrator, system.initial_positions(),
                                       system.initial_velocities(), record);
  result.status = result.integration.status;
  result.prescribed_work = system.prescribed_work();
  result.wall_seconds = Seconds(start);
  return result;
}

}  // namespace jointdyn::analysis
