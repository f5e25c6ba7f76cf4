// The belt drive example (examples/belt_drive/seed_belt_drive.yaml) from its model file:
//   - a short run-up (80 elements, dt = 1e-4 s, to t = 0.3 s) against the belt's and the
//     pulleys' equations: the pre-tension -EA eps_ref, P1 on its prescribed speed ramp,
//     P2's balance I alpha = belt torque - c omega, the belt torque on P2 against the span
//     forces (F1 - F2) r (eq. 38), the pressure on the wrapped arcs N / (R b) (membrane
//     equilibrium); the result files;
//   - the nominal run to t = 2.45 s (label long, about 5 minutes) against seed 002 table 4
//     within 1 %, the balance of eq. 38 within 0.5 % and each pulley's slip arc against
//     the capstan formula within 5 %;
// the quasi-static circle pressed onto a beam (examples/belt_drive/circle_on_beam.yaml,
// seed 002 section 3) against the closed form of its string limit, converging at second
// order in the elements; and a roller on a swing arm (examples/belt_drive/roller_on_arm.yaml,
// a circle on a body of a mechanism) against the arm's moment balance about its hinge.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "core/test/test_paths.h"
#include "run/run_model.h"
#include "run/test/read_csv.h"
#include "run/test/vtu_reader.h"

namespace jointdyn::run {
namespace {

struct BeltRun {
  nlohmann::json summary;
  testing::CsvTable csv;
  std::filesystem::path out;
};

// The example `example` (examples/belt_drive/<example>.yaml) with its text edited by `edits`
// (from, to), run into a temporary folder.
BeltRun RunExample(const std::string& example, const std::string& name,
                   const std::vector<std::pair<std::string, std::string>>& edits) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / "jointdyn_belt_drive" / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ifstream in(test_paths::SourceDir() / "examples" / "belt_drive" / (example + ".yaml"));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const auto& [from, to] : edits) {
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
  }
  std::ofstream(dir / "model.yaml") << text;
  BeltRun run{.out = dir / "out"};
  const RunOutcome outcome = RunModelFile(dir / "model.yaml", run.out);
  EXPECT_TRUE(outcome.ok) << outcome.message;
  std::ifstream summary(run.out / "summary.json");
  run.summary = nlohmann::json::parse(summary);
  run.csv = testing::ReadCsv(run.out / "belt_drive.csv");
  return run;
}

constexpr double kRadius = 0.09995, kInertia = 0.25, kDamping = 2.0, kWidth = 0.08;

TEST(BeltDriveExample, RunUpFollowsThePulleyAndBeltEquations) {
  const BeltRun run = RunExample("seed_belt_drive", "run_up",
                                 {{"elements: 240", "elements: 80"},
                                  {"dt: 5.0e-5", "dt: 1.0e-4"},
                                  {"t_end: 2.45", "t_end: 0.3"},
                                  {"profiles: [1.0, 2.45]", "profiles: [0.3]"},
                                  {"frames: 50", "frames: 3"}});
  // The pre-tension of eq. 36: -EA eps_ref = 400 N along the belt, bent round the pulleys.
  EXPECT_NEAR(run.summary["pre_solve"]["axial_force_min_n"].get<double>(), 400.0, 4.0);
  EXPECT_NEAR(run.summary["pre_solve"]["axial_force_max_n"].get<double>(), 400.0, 4.0);
  const auto& c = run.csv.columns;
  const auto& t = c.at("time");
  const size_t n = t.size() - 1;
  ASSERT_NEAR(t[n], 0.3, 1e-12);
  // P1 on the haversine ramp 0 -> 12 rad/s over 0.55 s from t = 0.05 s.
  EXPECT_NEAR(c.at("omega_P1")[n], 6.0 * (1.0 - std::cos(M_PI * 0.25 / 0.55)), 1e-6);
  // P2: I alpha = belt torque - c omega (no load before t = 1 s), alpha by central
  // differences of the samples (5 ms apart).
  const double alpha = (c.at("omega_P2")[n] - c.at("omega_P2")[n - 2]) / (t[n] - t[n - 2]);
  const double torque = c.at("torque_P2")[n - 1], omega = c.at("omega_P2")[n - 1];
  EXPECT_NEAR(kInertia * alpha, torque - kDamping * omega, 0.03 * torque);
  // Eq. 38 while it runs up: the belt's torque on P2 from the span forces (the spans'
  // inertia and the probes between the arcs make up the rest).
  EXPECT_NEAR((c.at("N_top")[n] - c.at("N_bottom")[n]) * kRadius, c.at("torque_P2")[n],
              0.04 * c.at("torque_P2")[n]);
  EXPECT_GT(c.at("N_top")[n], 450.0);  // the tight span above the pre-tension
  EXPECT_LT(c.at("N_bottom")[n], 350.0);
  // The profile: on a wrapped arc the pressure is the membrane's N / (R b) (R the
  // centreline's radius; the centrifugal rho A v^2 is 0.2 N here) away from the arc's ends
  // (bending boundary layers of a few elements), per element (its 4 segments' pressures
  // alternate by a few %); both pulleys show stick and slip.
  const testing::CsvTable profile = testing::ReadCsv(run.out / "profile_t0.300.csv");
  const auto& p = profile.columns;
  const size_t segments = p.at("s").size();
  ASSERT_EQ(segments, 320u);  // 80 elements x 4 segments
  const auto pulley = [&](size_t i) { return int(p.at("pulley")[i]); };
  int stick[2] = {0, 0}, slip[2] = {0, 0};
  for (size_t i = 0; i < segments; ++i)
    if (pulley(i) >= 0) (p.at("state")[i] == 1.0 ? stick : slip)[pulley(i)]++;
  double worst = 0.0;
  int inner_elements = 0;
  for (size_t first = 12; first + 4 + 12 <= segments; first += 4) {
    double pressure = 0.0, membrane = 0.0;
    bool inner = true;
    for (size_t i = first; i < first + 4; ++i) {
      inner = inner && pulley(i) >= 0 && pulley(i - 12) == pulley(i) && pulley(i + 12) == pulley(i);
      pressure += p.at("pressure")[i];
      membrane += p.at("axial_force")[i] / ((kRadius + 5e-5) * kWidth);
    }
    if (!inner) continue;
    ++inner_elements;
    worst = std::max(worst, std::abs(pressure / membrane - 1.0));
  }
  EXPECT_GT(inner_elements, 20);
  EXPECT_LT(worst, 0.01);
  for (int k = 0; k < 2; ++k) {
    EXPECT_GT(stick[k], 10) << "pulley " << k;
    EXPECT_GT(slip[k], 0) << "pulley " << k;
  }
  // The files.
  for (const char* file :
       {"belt_drive.h5", "belt.pvd", "belt/frame_000003.vtu", "speeds.svg", "span_forces.svg",
        "profile_t0.300_force.svg", "profile_t0.300_contact.svg"})
    EXPECT_TRUE(std::filesystem::exists(run.out / file)) << file;
  EXPECT_EQ(run.summary["frames"].get<int>(), 4);
  EXPECT_EQ(run.summary["elements"].get<int>(), 80);
}

TEST(BeltDriveExampleLong, NominalCaseReproducesTable4) {
  const BeltRun run = RunExample("seed_belt_drive", "nominal", {{"frames: 50", "frames: 0"}});
  const auto& c = run.csv.columns;
  const size_t n = c.at("time").size() - 1;
  const double f1 = c.at("N_top")[n], f2 = c.at("N_bottom")[n];
  std::printf(
      "F1 %.2f N, F2 %.2f N, drive %.3f N m, (F1 - F2) r %.3f N m, omega_P2 %.4f, span "
      "speeds %.4f %.4f m/s\n",
      f1, f2, c.at("drive_P1")[n], (f1 - f2) * kRadius, c.at("omega_P2")[n],
      std::abs(c.at("v_top")[n]), std::abs(c.at("v_bottom")[n]));
  EXPECT_NEAR(f1 / 665.22, 1.0, 0.01);
  EXPECT_NEAR(f2 / 186.65, 1.0, 0.01);
  EXPECT_NEAR(c.at("drive_P1")[n] / 47.68, 1.0, 0.01);
  EXPECT_NEAR(c.at("omega_P2")[n] / 11.3405, 1.0, 0.01);
  EXPECT_NEAR(std::abs(c.at("v_top")[n]) / 1.2025, 1.0, 0.01);
  EXPECT_NEAR(std::abs(c.at("v_bottom")[n]) / 1.133, 1.0, 0.01);
  EXPECT_NEAR((f1 - f2) * kRadius / c.at("drive_P1")[n], 1.0, 0.005);  // eq. 38
  // The slip arcs: where the tension changes from F1 to F2 the friction is saturated, and
  // the capstan formula F1 / F2 = e^(mu phi) gives their angle phi on each pulley (the
  // centrifugal rho A v^2 taken off both forces; the rest of the wrap sticks).
  const testing::CsvTable profile = testing::ReadCsv(run.out / "profile_t2.450.csv");
  const auto& p = profile.columns;
  const double centrifugal = 0.8288 * std::abs(c.at("v_top")[n] * c.at("v_bottom")[n]);
  const double capstan = std::log((f1 - centrifugal) / (f2 - centrifugal)) / 0.5;
  const double segment_angle = 0.4 * M_PI / (240 * 4) / (kRadius + 5e-5);
  for (int pulley = 0; pulley < 2; ++pulley) {
    int slipping = 0;
    for (size_t i = 0; i < p.at("s").size(); ++i)
      slipping += p.at("pulley")[i] == pulley && p.at("state")[i] == 2.0 ? 1 : 0;
    std::printf("pulley %d: slip arc %.3f rad, capstan %.3f rad\n", pulley + 1,
                slipping * segment_angle, capstan);
    EXPECT_NEAR(slipping * segment_angle / capstan, 1.0, 0.05) << "pulley " << pulley + 1;
  }
}

// Seed 002 section 3's circle (r = 0.35 m, spring 1 N/m, 200 N down) on the pinned beam
// (EA 200 N, L = 1 m) in the string limit EI -> 0: straight spans from the supports tangent
// to the circle at the angle phi below the horizontal, the wrap 2 phi at the centreline's
// radius rho = r - the penalty's penetration T / (rho b k_c), the tension T = EA (l / L - 1)
// of the stretched length l, and the circle's balance 2 T sin(phi) + k (y0 - y) = f.
// Returns the centre's y [m] and T [N].
std::pair<double, double> StringLimit() {
  const double ea = 200.0, span = 1.0, r = 0.35, k = 1.0, y0 = 0.35, f = 200.0, b = 1e-3, kc = 1e10;
  const auto balance = [&](double y, double rho) {
    const double d = std::hypot(0.5 * span, y);
    const double phi = std::asin(rho / d) - std::atan2(y, 0.5 * span);
    const double length = 2.0 * std::sqrt(d * d - rho * rho) + 2.0 * phi * rho;
    const double tension = ea * (length / span - 1.0);
    return std::pair{2.0 * tension * std::sin(phi) + k * (y0 - y) - f, tension};
  };
  double rho = r, y = 0.0, tension = 0.0;
  for (int fixed_point = 0; fixed_point < 20; ++fixed_point) {
    double low = -2.0 * r, high = y0;  // the balance falls with y
    for (int bisection = 0; bisection < 100; ++bisection)
      (balance(0.5 * (low + high), rho).first > 0.0 ? low : high) = 0.5 * (low + high);
    y = 0.5 * (low + high);
    tension = balance(y, rho).second;
    rho = r - tension / (rho * b * kc);
  }
  return {y, tension};
}

TEST(CircleOnBeamExample, ConvergesToTheStringLimitAtSecondOrder) {
  const auto [y_string, n_string] = StringLimit();
  std::vector<double> errors;
  for (const int elements : {8, 16, 32}) {
    const std::string count = std::to_string(elements);
    const BeltRun run =
        RunExample("circle_on_beam", "elements_" + count,
                   {{"elements: 32", "elements: " + count}, {"frames: 21", "frames: 2"}});
    const auto& c = run.csv.columns;
    const double y = c.at("y_C").back(), n = c.at("N_middle").back();
    std::printf("%d elements: y_C %.7f m (string limit %.7f), N %.4f N (%.4f); %d steps\n",
                elements, y, y_string, n, n_string, run.summary["accepted_steps"].get<int>());
    errors.push_back(std::abs(y - y_string));
    EXPECT_NEAR(c.at("time").back(), 1.0, 1e-12);
    EXPECT_NEAR(c.at("x_C").back(), 0.5, 1e-9);                  // symmetric
    EXPECT_NEAR(c.at("Fy_C").back(), 200.0 + (y - 0.35), 1e-6);  // the belt carries f - k dy
    EXPECT_NEAR(n / n_string, 1.0, 0.02);
  }
  // 32 elements (4 segments each): within 1e-4 m and 0.1 % of the string limit (its bending
  // and the chords' second-order error); each halving of the elements cuts the error by > 3.
  EXPECT_LT(errors[2], 1e-4);
  EXPECT_GT(errors[0] / errors[1], 3.0);
  EXPECT_GT(errors[1] / errors[2], 3.0);
}

// The roller's circle is on a body of the mechanism (its own body on a revolute joint at the
// tip of an arm hinged to the ground): the belt's force F on the circle, reported from the
// contact segments, must balance the torque M(t) = -30 t N m on the arm about the hinge p,
// M + (c - p) x F = 0 (frictionless: F acts through the roller's centre c), at every
// quasi-static step; the roller stays at the arm's tip and carries no torque.
TEST(RollerOnArmExample, ArmBalancesTheBeltsForceAboutItsHinge) {
  const BeltRun run = RunExample("roller_on_arm", "roller_on_arm", {{"frames: 21", "frames: 2"}});
  const auto& c = run.csv.columns;
  ASSERT_NEAR(c.at("time").back(), 1.0, 1e-12);
  double worst = 0.0;
  for (size_t i = 0; i < c.at("time").size(); ++i) {
    const double dx = c.at("x_roller")[i], dy = c.at("y_roller")[i] - 0.35;
    const double moment = -30.0 * c.at("time")[i] + dx * c.at("Fy_C")[i] - dy * c.at("Fx_C")[i];
    worst = std::max(worst, std::abs(moment));
    const double angle = c.at("angle_arm")[i];
    EXPECT_NEAR(c.at("x_roller")[i], 0.5 * std::cos(angle), 1e-9);  // the axle at the arm's tip
    EXPECT_NEAR(c.at("y_roller")[i], 0.35 + 0.5 * std::sin(angle), 1e-9);
    EXPECT_NEAR(c.at("torque_C")[i], 0.0, 1e-9);
  }
  const double force = std::hypot(c.at("Fx_C").back(), c.at("Fy_C").back());
  std::printf(
      "roller on arm: arm angle %.4f rad, force on the roller %.3f N, worst moment "
      "balance %.2e N m (of 30)\n",
      c.at("angle_arm").back(), force, worst);
  EXPECT_LT(worst, 1e-6 * 30.0);
  EXPECT_GT(force, 30.0 / 0.5);  // at least M / lever: the arm is pressed down
  EXPECT_GT(c.at("stick_C").back(), 0.0);
  // The last frame draws the arm (centre of mass to hinge and to tip) and the roller's hub as
  // part -1: the arm's tip where the roller's centre is.
  const testing::DecodedVtu vtu =
      testing::DecodeVtu(run.out / "belt" / "frame_000002.vtu");  // t = 1
  const std::vector<double>& part = vtu.floats.at("part");
  const std::vector<double>& points = vtu.floats.at("");
  int lines = 0;
  double tip_to_centre = 1e9;
  for (size_t cell = 0; cell < part.size(); ++cell) {
    if (part[cell] != -1.0) continue;
    ++lines;
    const int64_t start = vtu.connectivity[vtu.offsets[cell] - 2];  // the centre of mass
    const int64_t end = vtu.connectivity[vtu.offsets[cell] - 1];    // the marker's point
    const auto distance = [&](int64_t p, double x, double y) {
      return std::hypot(points[3 * p] - x, points[3 * p + 1] - y);
    };
    if (distance(start, c.at("x_arm").back(), c.at("y_arm").back()) > 1e-12) continue;  // hub
    tip_to_centre =
        std::min(tip_to_centre, distance(end, c.at("x_roller").back(), c.at("y_roller").back()));
  }
  EXPECT_EQ(lines, 3);
  EXPECT_LT(tip_to_centre, 1e-9);
}

}  // namespace
}  // namespace jointdyn::run
