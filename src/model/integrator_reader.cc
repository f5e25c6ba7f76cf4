#include "model/integrator_reader.h"

#include <algorithm>
#include <cmath>

#include "solvers/linear_solver.h"

namespace jointdyn::model {

const std::vector<std::pair<std::string, time::Scheme>>& SchemeNames() {
  static const std::vector<std::pair<std::string, time::Scheme>> schemes = {
      {"newmark", time::Scheme::kNewmark},
      {"hht", time::Scheme::kHht},
      {"generalized_alpha", time::Scheme::kGeneralizedAlpha}};
  return schemes;
}

std::string SchemeName(time::Scheme scheme) {
  for (const auto& [name, value] : SchemeNames())
    if (value == scheme) return name;
  return "";
}

namespace {

// The span must not need more than kMaxSteps steps: fixed steps span / dt, adaptive ones at
// least span / dt_max (dt_min is a floor for rejected steps, not a count). An explicit
// dt_max must not exceed the span.
void CheckSteps(const ModelNode& node, const time::IntegratorOptions& o) {
  const double span = o.t_end - o.t_start;  // may be inf (t_start -1e308, t_end 1e308)
  if (o.adaptive && node.Has("dt_max") && o.dt_max > span)
    node.FailValue("dt_max", FormatValue(o.dt_max),
                   "must be <= t_end - t_start = " + FormatValue(span) + " (the span)");
  const double steps = std::ceil(span / (o.adaptive ? o.dt_max : o.dt));
  if (steps <= kMaxSteps) return;
  node.FailValue("t_end", FormatValue(o.t_end),
                 "the span from t_start = " + FormatValue(o.t_start) + " takes " +
                     (std::isfinite(steps) ? FormatValue(steps) : std::string("more than 1e308")) +
                     (o.adaptive ? " steps of dt_max = " + FormatValue(o.dt_max)
                                 : " steps of dt = " + FormatValue(o.dt)) +
                     ", more than the " + FormatValue(kMaxSteps) + " a run may take");
}

}  // namespace

double OutputSamples(const time::IntegratorOptions& o) {
  const double span = o.t_end - o.t_start;
  const double steps = std::ceil(span / o.dt);  // adaptive: about as many as at dt
  return 1.0 +
         (o.output_interval > 0.0 ? std::min(steps, std::ceil(span / o.output_interval)) : steps);
}

time::IntegratorOptions ReadIntegrator(const ModelNode& node) {
  using time::Scheme;
  time::IntegratorOptions o;
  if (node.Has("scheme")) o.scheme = node.Enum<Scheme>("scheme", SchemeNames());
  const std::vector<std::pair<std::string, Scheme>> scheme_keys = {
      {"beta", Scheme::kNewmark},
      {"gamma", Scheme::kNewmark},
      {"energy_conserving", Scheme::kNewmark},
      {"alpha", Scheme::kHht},
      {"rho_inf", Scheme::kGeneralizedAlpha}};
  for (const auto& [key, scheme] : scheme_keys)
    if (node.Has(key) && scheme != o.scheme)
      node.FailValue(key, "", "applies to scheme " + SchemeName(scheme) + " only");
  o.beta = node.Double("beta", o.beta,
                       {[](double x) { return x > 0.0 && x <= 0.5; }, "must be in (0, 0.5]"});
  o.gamma = node.Double("gamma", o.gamma, InRange(0.5, 1.0));
  o.energy_conserving = node.Bool("energy_conserving", o.energy_conserving);
  o.alpha = node.Double("alpha", o.alpha, InRange(-1.0 / 3.0, 0.0));
  o.rho_inf = node.Double("rho_inf", o.rho_inf, InRange(0.0, 1.0));

  o.t_start = node.Double("t_start", 0.0);
  o.t_end = node.Double("t_end");
  if (!(o.t_end > o.t_start))
    node.FailValue("t_end", FormatValue(o.t_end), "must be > t_start = " + FormatValue(o.t_start));
  o.dt = node.Double("dt", Positive());
  o.adaptive = node.Bool("adaptive", false);
  o.dt_min = node.Double("dt_min", std::min(o.dt_min, o.dt), Positive());
  o.dt_max = node.Double("dt_max", std::max(o.dt_max, o.dt), Positive());
  o.error_tolerance = node.Double("error_tolerance", o.error_tolerance, Positive());
  o.max_step_cuts = node.Int("max_step_cuts", o.max_step_cuts, AtLeast(0));
  o.position_scale = node.Double("position_scale", o.position_scale, Positive());
  o.force_scale = node.Double("force_scale", o.force_scale, NonNegative());
  CheckSteps(node, o);

  if (const auto newton = node.OptionalMap("newton")) {
    auto& n = o.newton;
    n.residual_tolerance = newton->Double("residual_tolerance", n.residual_tolerance, Positive());
    n.increment_tolerance =
        newton->Double("increment_tolerance", n.increment_tolerance, Positive());
    n.max_iterations = newton->Int("max_iterations", n.max_iterations, AtLeast(1));
    if (newton->Has("line_search"))
      n.line_search = newton->Enum<solvers::LineSearch>(
          "line_search", {{"none", solvers::LineSearch::kNone},
                          {"residual_norm", solvers::LineSearch::kResidualNorm},
                          {"directional", solvers::LineSearch::kDirectional}});
    n.max_backtracks = newton->Int("max_backtracks", n.max_backtracks, AtLeast(0));
    n.max_increment = newton->Double("max_increment", n.max_increment, NonNegative());
    n.reuse_contraction = newton->Double("reuse_contraction", n.reuse_contraction, BelowOne());
    if (newton->Has("linear_solver"))
      n.linear_solver = newton->Enum<solvers::LinearSolverKind>(
          "linear_solver", {{"auto", solvers::LinearSolverKind::kAuto},
                            {"dense_lu", solvers::LinearSolverKind::kDenseLU},
                            {"sparse_lu", solvers::LinearSolverKind::kSparseLU},
                            {"umfpack_lu", solvers::LinearSolverKind::kUmfpackLU}});
    newton->Finish();
  }
  if (const auto pn = node.OptionalMap("post_newton")) {
    o.post_newton_tolerance = pn->Double("tolerance", o.post_newton_tolerance, NonNegative());
    o.post_newton_max = pn->Int("max_passes", o.post_newton_max, AtLeast(0));
    pn->Finish();
  }
  node.Finish();
  return o;
}

}  // namespace jointdyn::model
