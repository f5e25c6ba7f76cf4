// The transient examples against their references (closed forms, the seeds), and a failing
// transient model that stops cleanly.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/test/test_paths.h"
#include "run/run_model.h"
#include "run/test/read_csv.h"

namespace jointdyn::run {
namespace {

struct RunResult {
  RunOutcome outcome;
  nlohmann::json summary;
  std::map<std::string, std::vector<double>> csv;  // transient.csv by column
  size_t rows = 0;
};

RunResult RunModel(const std::filesystem::path& model) {
  const auto out = std::filesystem::temp_directory_path() / "jointdyn_transient" / model.stem();
  std::filesystem::remove_all(out);
  RunResult run;
  run.outcome = RunModelFile(model, out);
  std::ifstream summary(out / "summary.json");
  run.summary = nlohmann::json::parse(summary);
  testing::CsvTable table = testing::ReadCsv(out / "transient.csv");
  run.csv = std::move(table.columns);
  run.rows = table.rows;
  return run;
}

RunResult RunExample(const std::string& name) {
  RunResult run = RunModel(test_paths::SourceDir() / "examples" / "transient" / (name + ".yaml"));
  EXPECT_TRUE(run.outcome.ok) << run.outcome.message;
  return run;
}

double Energy(const RunResult& run, const std::string& key) {
  return run.summary["energy"][key].get<double>();
}

// q0 cos(omega t), omega = 2 pi rad/s. Newmark average acceleration lengthens the period by
// (omega dt)^2 / 12 (relative) and keeps the amplitude, so the error grows as the phase lag
// q0 omega t (omega dt)^2 / 12 = 2.6e-5 m at t = 5 s (dt = 5 ms); 5 % margin. The energy of
// this linear system is conserved exactly (up to rounding).
TEST(TransientExample, SdofFreeVibrationMatchesTheExactSolution) {
  const RunResult run = RunExample("sdof_free_vibration");
  const double q0 = 0.01, omega = 2 * M_PI, dt = 0.005;
  const auto& t = run.csv.at("time");
  const auto& q = run.csv.at("q_x");
  ASSERT_EQ(run.rows, 1001u);  // the initial state and every step
  for (size_t i = 0; i < t.size(); ++i) {
    const double bound = 1.05 * q0 * omega * t[i] * std::pow(omega * dt, 2) / 12 + 1e-12;
    ASSERT_NEAR(q[i], q0 * std::cos(omega * t[i]), bound) << "t = " << t[i];
  }
  EXPECT_LT(std::abs(Energy(run, "numerical_dissipation_relative")), 1e-12);
}

// Den Hartog's steady state (the closed form in the example's comment): the run starts on
// it, so every period has its maximum X = 18.265936 mm at t = (n + 1/2) / 1.5 s. The issue
// asks for 0.5 %; the stick stiffness c1 = 1e6 k alone shifts the amplitude by about
// 0.05 % and the step by about 0.1 %.
TEST(TransientExample, DenHartogAmplitudeAndPhase) {
  const RunResult run = RunExample("den_hartog_coulomb");
  // Den Hartog (1931), Coulomb friction only: X = (P/k) sqrt(V^2 - (F/P)^2 U^2) with
  // V = 1 / (1 - beta^2), U = sin(pi/beta) / (beta (1 + cos(pi/beta))).
  const double k = 4 * M_PI * M_PI, p = 1.0, f = 0.3, beta = 1.5;
  const double v = 1.0 / (1.0 - beta * beta);
  const double u = std::sin(M_PI / beta) / (beta * (1.0 + std::cos(M_PI / beta)));
  const double amplitude = p / k * std::sqrt(v * v - std::pow(f / p * u, 2));
  ASSERT_NEAR(amplitude, 0.018265936145657604, 1e-15);  // the example starts at -X
  const double period = 1.0 / beta;
  const auto& t = run.csv.at("time");
  const auto& q = run.csv.at("q_x");
  for (int n = 0; n < 6; ++n) {
    // The largest sample in period n, refined by the parabola through its neighbours.
    size_t best = 0;
    for (size_t i = 1; i + 1 < t.size(); ++i)
      if (t[i] >= n * period && t[i] < (n + 1) * period && (best == 0 || q[i] > q[best])) best = i;
    const double y0 = q[best - 1], y1 = q[best], y2 = q[best + 1];
    const double shift = 0.5 * (y0 - y2) / (y0 - 2 * y1 + y2);
    const double peak = y1 - 0.25 * (y0 - y2) * shift;
    const double time = t[best] + shift * (t[best + 1] - t[best]);
    EXPECT_NEAR(peak / amplitude, 1.0, 5e-3) << "period " << n;
    // Phase phi = -0.4478 rad: 0.5 % of it.
    EXPECT_NEAR(2 * M_PI / period * (time - (n + 0.5) * period), 0.0, 5e-3 * 0.4478)
        << "period " << n;
  }
}

// The energy-conserving Newmark variant on a conservative nonlinear model: the issue asks
// for an energy balance closed to 1e-6 (relative).
TEST(TransientExample, BouncingContactConservesEnergy) {
  const RunResult run = RunExample("bouncing_contact");
  EXPECT_LT(std::abs(Energy(run, "numerical_dissipation_relative")), 1e-6);
  EXPECT_NEAR(Energy(run, "law_dissipation"), 0.0, 1e-12);
  // It bounces: the contact force is positive at times and the mass rises again above 5 mm.
  const auto& p = run.csv.at("p_contact");
  EXPECT_GT(*std::max_element(p.begin(), p.end()), 0.0);
  const auto& y = run.csv.at("q_y");
  EXPECT_GT(*std::max_element(y.begin() + y.size() / 2, y.end()), 5e-3);
}

// Seed 002: the LuGre mass breaks loose close to F_s = 1.5 N (the seed's fig. 7: it tends to
// F_s as sigma0 grows; 1.476 N at sigma0 = 1e5), the bristle mass slides at mu p = 1 N.
// The work of the moving spring tip is stored, kinetic or dissipated in the laws.
TEST(TransientExample, LuGreAndBristleStickSlip) {
  const RunResult run = RunExample("lugre_vs_bristle");
  const auto& f_lugre = run.csv.at("f_lugre");
  const auto& f_bristle = run.csv.at("f_bristle");
  const double breakaway = *std::max_element(f_lugre.begin(), f_lugre.end());
  EXPECT_GT(breakaway, 1.4);
  EXPECT_LT(breakaway, 1.5);
  EXPECT_NEAR(*std::max_element(f_bristle.begin(), f_bristle.end()), 1.0, 1e-6);
  // The tip's work, integral of 0.1 m/s K (x_tip - x) over both springs, by the trapezoidal
  // rule over the 10 ms output samples (the sampling error is below 1e-3 relative).
  const auto& t = run.csv.at("time");
  const auto& tip = run.csv.at("q_tip");
  double tip_work = 0.0;
  for (size_t i = 1; i < t.size(); ++i)
    for (const char* x : {"q_x_lugre", "q_x_bristle"}) {
      const auto& q = run.csv.at(x);
      tip_work += 0.1 * 2.0 * 0.5 * ((tip[i] - q[i]) + (tip[i - 1] - q[i - 1])) * (t[i] - t[i - 1]);
    }
  EXPECT_NEAR(Energy(run, "prescribed_motion_work") / tip_work, 1.0, 1e-3);
  EXPECT_GT(Energy(run, "law_dissipation"), 0.0);
  EXPECT_LT(std::abs(Energy(run, "numerical_dissipation_relative")), 1e-6);
}

// Seed 003 multi-mass oscillator: the friction force of mass 25 never exceeds its limit
// R_G = p (mu = 1) beyond the parallel spring c2 q (c2 = 1 N/m) and vanishes when the
// contact is open; pure sticking dissipates nothing.
TEST(TransientExample, MultiMassFrictionStaysWithinItsLimit) {
  for (const std::string name : {"gaping", "varying_rg", "sticking_sliding", "pure_sticking"}) {
    const RunResult run = RunExample("multi_mass_" + name);
    const auto& f = run.csv.at("f_chain_ground25");
    const auto& p = run.csv.at("p_chain_ground25");
    const auto& q = run.csv.at("q_25");
    for (size_t i = 0; i < f.size(); ++i) {
      if (p[i] == 0.0)  // open (gaping): no traction at all, not even c2 q
        ASSERT_EQ(f[i], 0.0) << name << " row " << i;
      else
        ASSERT_LE(std::abs(f[i] - 1.0 * q[i]), p[i] * (1 + 1e-9)) << name << " row " << i;
    }
    const double work = Energy(run, "external_work");
    if (name == "pure_sticking")
      EXPECT_NEAR(Energy(run, "law_dissipation"), 0.0, 1e-9 * work) << name;
    else
      EXPECT_GT(Energy(run, "law_dissipation"), 0.1 * work) << name;
  }
}

TEST(TransientFailure, StopsCleanlyAndKeepsTheResultsSoFar) {
  const RunResult run = RunModel(test_paths::SourceDir() / "tests" / "failing_models" /
                                 "transient_pressure_overflow.yaml");
  EXPECT_FALSE(run.outcome.ok);
  EXPECT_NE(run.outcome.message.find("element 'clamp': normal law 'exponential' gave a non-finite"),
            std::string::npos)
      << run.outcome.message;
  EXPECT_EQ(run.summary["status"], "failed");
  EXPECT_EQ(run.summary["message"], run.outcome.message);
  const int samples = run.summary["samples"];
  EXPECT_GT(samples, 10);
  EXPECT_EQ(run.rows, size_t(samples));
  const double t_reached = run.summary["t_reached"];
  EXPECT_GT(t_reached, 0.5);  // the overflow starts near 0.67-0.71 s
  EXPECT_LT(t_reached, 0.71);
  EXPECT_DOUBLE_EQ(run.csv.at("time").back(), t_reached);
}

}  // namespace
}  // namespace jointdyn::run
