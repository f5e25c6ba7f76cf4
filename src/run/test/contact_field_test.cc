// Contact field files (seed 003 section 3.3.3): a PVD collection of two time steps and
// their VTU point clouds, read back (XML structure, times, array names, one pair's values).
#include "run/contact_field.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <regex>

#include "io/pvd.h"
#include "laws/coulomb.h"
#include "laws/normal_laws.h"
#include "run/test/vtu_reader.h"

namespace jointdyn::run {
namespace {

std::string ReadText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Three pairs with R = I (the state is [s1, s2, normal displacement] per pair), a linear
// penalty 1e13 Pa/m and Coulomb friction (c1 = 1e13 Pa/m, c2 = 0, mu = 0.15): pair 0 open
// (initial gap 1e-6 m), pair 1 penetrating 1e-9 m with a slip of 1e-11 m (stick: c1 s =
// 100 Pa < mu p = 1500 Pa), pair 2 penetrating 2e-9 m with 1e-6 m of slip along t1 (slip:
// tau1 = mu p = 3000 Pa).
struct ThreePairs {
  joint::JointOperator joint;
  fe::Mesh mesh;
  fe::PairingResult pairing;
};

ThreePairs MakeThreePairs() {
  joint::DenseRows r = joint::DenseRows::Identity(9, 9);
  ThreePairs t{
      joint::JointOperator(joint::PairProjection(r), Vec3(1e-6, 0.0, 0.0), Vec3(1e-4, 2e-4, 3e-4),
                           {.normal = std::make_shared<laws::LinearPenaltyLaw>(
                                laws::LinearPenaltyParams{.eps = 1e13}),
                            .tangential = std::make_shared<laws::CoulombLaw>(
                                laws::CoulombParams{.c1 = 1e13, .c2 = 0.0, .mu = 0.15}, 2)}),
      {},
      {}};
  t.mesh.nodes.resize(4, 3);
  t.mesh.nodes << 0.0, 0.0, 0.0, 0.01, 0.0, 0.0, 0.02, 0.0, 0.0, 0.03, 0.0, 0.0;
  for (int slave : {3, 1, 2}) t.pairing.pairs.push_back({.slave = slave});
  return t;
}

TEST(ContactField, TwoStepsReadBackFromPvdAndVtu) {
  ThreePairs t = MakeThreePairs();
  const auto dir = std::filesystem::temp_directory_path() / "jointdyn_contact_field";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  io::PvdWriter pvd(dir / "contact.pvd");
  VecX u = VecX::Zero(12);  // mesh displacements: node 3 moves by (1, 2, 3) mm at step 1
  for (int step = 0; step < 2; ++step) {
    VecX x(9);
    x << 0.0, 0.0, 0.0, 1e-11, 0.0, -1e-9, step == 0 ? 0.0 : 1e-6, 0.0, -2e-9;
    ASSERT_TRUE(t.joint.Evaluate(x).ok);
    if (step == 1) u.segment<3>(9) << 1e-3, 2e-3, 3e-3;
    const std::string file = "contact_00000" + std::to_string(step) + ".vtu";
    io::WriteVtu(dir / file, ContactFieldGrid(t.joint, SlavePositions(t.mesh, t.pairing, &u)));
    pvd.Add(0.001 * step, file);
  }
  EXPECT_EQ(pvd.size(), 2);

  // The collection: two data sets with their times and files.
  const std::string collection = ReadText(dir / "contact.pvd");
  EXPECT_NE(collection.find("<VTKFile type=\"Collection\""), std::string::npos);
  const std::regex data_set(
      "<DataSet timestep=\"([^\"]+)\" group=\"\" part=\"0\" file=\"([^\"]+)\"/>");
  std::vector<double> times;
  std::vector<std::string> files;
  for (auto it = std::sregex_iterator(collection.begin(), collection.end(), data_set);
       it != std::sregex_iterator(); ++it) {
    times.push_back(std::stod((*it)[1]));
    files.push_back((*it)[2]);
  }
  EXPECT_EQ(times, (std::vector<double>{0.0, 0.001}));
  ASSERT_EQ(files, (std::vector<std::string>{"contact_000000.vtu", "contact_000001.vtu"}));

  // The second step: three vertex cells at the current slave positions, the eleven arrays,
  // the legend, and the values of pair 2 (slipping) and the states of all.
  const std::string text = ReadText(dir / files[1]);
  EXPECT_NE(text.find("<!-- jointdyn contact field"), std::string::npos);
  EXPECT_NE(text.find("status: 0 open, 1 stick, 2 slip"), std::string::npos);
  const testing::DecodedVtu vtu = testing::DecodeVtu(dir / files[1]);
  EXPECT_EQ(vtu.points, 3);
  EXPECT_EQ(vtu.cells, 3);
  EXPECT_EQ(vtu.types, std::vector<uint8_t>(3, 1));  // VTK_VERTEX
  EXPECT_EQ(vtu.floats.at(""),
            (std::vector<double>{0.031, 0.002, 0.003, 0.01, 0.0, 0.0, 0.02, 0.0, 0.0}));
  for (const char* name : {"gap", "pressure", "status", "s1", "s2", "friction_stress", "tau1",
                           "tau2", "normal_force", "openings", "opening_energy"})
    ASSERT_EQ(vtu.floats.count(name), 1u) << name;
  EXPECT_EQ(vtu.floats.size(), 12u);  // the eleven arrays and the points
  EXPECT_EQ(vtu.floats.at("openings"), (std::vector<double>(3, 0.0)));  // none opened yet
  EXPECT_EQ(vtu.floats.at("status"), (std::vector<double>{0.0, 1.0, 2.0}));
  // Pair 2, from the laws by hand: p = eps * 2e-9 = 2e4 Pa, tau1 = mu p = 3000 Pa (slip
  // along +t1), A p = 3e-4 * 2e4 = 6 N.
  const joint::PairOutput pair = t.joint.Output(2);
  EXPECT_EQ(vtu.floats.at("gap")[2], pair.gap);
  EXPECT_NEAR(pair.gap, -2e-9, 1e-24);
  EXPECT_NEAR(vtu.floats.at("pressure")[2], 2e4, 1e-6);
  EXPECT_NEAR(vtu.floats.at("tau1")[2], 3000.0, 1e-9);
  EXPECT_EQ(vtu.floats.at("tau2")[2], 0.0);
  EXPECT_NEAR(vtu.floats.at("friction_stress")[2], 3000.0, 1e-9);
  EXPECT_EQ(vtu.floats.at("s1")[2], pair.s1);
  EXPECT_NEAR(vtu.floats.at("normal_force")[2], 6.0, 1e-12);
  // The open pair carries nothing; the first step had pair 2 sticking.
  EXPECT_EQ(vtu.floats.at("pressure")[0], 0.0);
  EXPECT_EQ(vtu.floats.at("normal_force")[0], 0.0);
  EXPECT_EQ(testing::DecodeVtu(dir / files[0]).floats.at("status"),
            (std::vector<double>{0.0, 1.0, 1.0}));
}

TEST(ContactField, ReferencePositionsWithoutDisplacement) {
  const ThreePairs t = MakeThreePairs();
  const MatX x = SlavePositions(t.mesh, t.pairing);
  ASSERT_EQ(x.rows(), 3);
  EXPECT_EQ(x.row(0), t.mesh.nodes.row(3));
  EXPECT_EQ(x.row(2), t.mesh.nodes.row(2));
}

}  // namespace
}  // namespace jointdyn::run
