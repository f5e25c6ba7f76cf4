// Parts of summary.json shared by the report writers of several analyses.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/joints.h"
#include "core/status.h"
#include "joint/static_solver.h"
#include "lumped/lumped_system.h"
#include "run/output_folder.h"
#include "run/run_model.h"
#include "time/integrator.h"

namespace jointdyn::run {

// The element counts of a lumped model: springs, dampers, friction, contacts.
nlohmann::json LumpedElementCounts(const lumped::LumpedModel& model);

// The keys every summary.json starts with: analysis, model (the model file), title.
nlohmann::json SummaryHead(const std::string& analysis, const std::string& model_file,
                           const std::string& title);

// Writes summary.json into `folder` (atomically): `summary` with status ("ok", "failed",
// "interrupted" after SIGINT/SIGTERM; "running" while `final` is false), message, the
// files the run wrote so far (summary.json included) and those still being written
// ("partial": under <name>.part); returns the outcome of the run. A non-finite number in
// `summary` (written as null) fails the run with a message naming its key path.
RunOutcome WriteSummary(OutputFolder& folder, nlohmann::json summary, Status status,
                        bool final = true);

// The summary.json a run writes when it starts: analysis, model, process id, status
// "running"; replaced at each milestone (a finished run of a study) and at the end.
void WriteRunningSummary(OutputFolder& folder, const std::string& analysis,
                         const std::string& model_file);

// For a run ended by an exception (a write that failed, an internal error): rewrites the
// last summary written with status "failed" and `message`, when the disk still takes it.
void WriteFailedSummary(OutputFolder& folder, const std::string& message);

// The energy balance of a run with the work of prescribed motions [J], which the
// integrator counts as (negative) law dissipation: law_dissipation = its value +
// prescribed_work. Keys: external_work, prescribed_motion_work, initial_kinetic,
// initial_stored, kinetic, stored, viscous_dissipation, law_dissipation,
// numerical_dissipation, numerical_dissipation_relative.
nlohmann::json EnergySummary(const time::EnergyBalance& e, double prescribed_work = 0.0);

// The integrator's counters of a time-domain run: t_reached, accepted_steps,
// rejected_steps, newton_iterations, newton_iterations_per_step, residual_evaluations,
// jacobian_evaluations, factorizations, post_newton_passes, cpu_seconds.
nlohmann::json IntegratorCounters(const time::TransientResult& r);

// The state of joints: gap_norm_m, contact_force_norm_n, open_pairs, sticking_pairs,
// slipping_pairs, max_pressure_pa, normal_force_n.
nlohmann::json JointFiguresSummary(const analysis::JointFigures& joints);

// The joints of an FE analysis: per joint its `contact`, `pairs` (pairs[j]) and whether it
// has `friction`.
nlohmann::json JointsSummary(const std::vector<analysis::JointSpec>& joints,
                             const std::vector<int>& pairs);

// A static solution's state (a load step, a preload step): bolt_forces_n, gap_norm_m,
// open_pairs, sticking_pairs, slipping_pairs, max_pressure_pa, normal_force_n, and the
// solver's newton_iterations, increments, cutbacks, factorizations, reused_factorizations,
// residual_norm, seconds.
nlohmann::json StaticStateSummary(const std::vector<double>& bolt_forces,
                                  const analysis::JointFigures& joints,
                                  const joint::StaticResult& solve);

}  // namespace jointdyn::run
