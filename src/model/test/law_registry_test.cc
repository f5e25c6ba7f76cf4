#include "model/law_registry.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/test/test_paths.h"
#include "laws/law_point.h"

namespace jointdyn::model {
namespace {

TEST(LawReference, DocsMatchTheRegistry) {
  std::ifstream in(test_paths::SourceDir() / "docs" / "laws.md");
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), LawReferenceMarkdown())
      << "docs/laws.md is stale: regenerate with `jointdyn laws > docs/laws.md`";
}

TEST(LawReference, TypeNamesAreUniqueAndLawsReportThem) {
  std::set<std::string> names;
  for (const auto& spec : TangentialLawSpecs()) EXPECT_TRUE(names.insert(spec.type).second);
  for (const auto& spec : NormalLawSpecs()) EXPECT_TRUE(names.insert(spec.type).second);
}

TEST(LawReader, ConstructorErrorsAreLocatedAtTheKey) {
  const ModelNode root =
      ModelNode::LoadString("law:\n  type: coulomb\n  c1: 1.0e11\n  mu: -2\n", "inline.yaml");
  try {
    ReadTangentialLaw(root.Map("law"));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "inline.yaml:4: law.mu = -2: must be >= 0 and finite");
  }
}

TEST(LawReader, DefaultsApplyAndDimIsRead) {
  const ModelNode root =
      ModelNode::LoadString("law: {type: coulomb, dim: 2, c1: 1.0e11, mu: 0.2}\n", "inline.yaml");
  const auto law = ReadTangentialLaw(root.Map("law"));
  EXPECT_EQ(law->type(), "coulomb");
  EXPECT_EQ(law->dim(), 2);
}

}  // namespace
}  // namespace jointdyn::model

namespace jointdyn::model {
namespace {

// Every law builds from its documented example, and the example exercises it: at the
// example scales a slip excursion gives a finite, nonzero traction.
TEST(LawExamples, EveryTangentialLawBuildsAndResponds) {
  for (const auto& spec : TangentialLawSpecs()) {
    SCOPED_TRACE(spec.type);
    const auto law = BuildExample(spec);
    ASSERT_GT(spec.example_slip, 0.0);
    laws::LawPoint point(*law);
    laws::TangentialResponse r;
    ASSERT_TRUE(point.Step({Vec2(spec.example_slip, 0.0), spec.example_pressure, 1e-3}, r).ok);
    EXPECT_TRUE(r.traction.allFinite());
    EXPECT_GT(r.traction.norm(), 0.0);
  }
}

TEST(LawExamples, EveryNormalLawBuildsAndResponds) {
  for (const auto& spec : NormalLawSpecs()) {
    SCOPED_TRACE(spec.type);
    const auto law = BuildExample(spec);
    ASSERT_GT(spec.example_slip, 0.0);
    const auto r = law->Evaluate(law->contact_onset_gap() - spec.example_slip, 0.0);
    EXPECT_GT(r.pressure, 0.0);
    EXPECT_LT(r.d_pressure_d_gap, 0.0);
  }
}

}  // namespace
}  // namespace jointdyn::model
