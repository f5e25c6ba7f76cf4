// The interface laws a model file can name, with their parameters: one table per kind
// (tangential, normal). The table drives reading (every documented key, nothing else),
// construction (validation is in the law constructors) and the generated model-file
// reference (docs/laws.md), so the three cannot drift apart.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "laws/normal_law.h"
#include "laws/tangential_law.h"
#include "model/model_node.h"

namespace jointdyn::model {

enum class ParamKind { kNumber, kInteger, kList };

struct ParamDoc {
  std::string key;
  ParamKind kind = ParamKind::kNumber;
  std::string unit;  // SI unit, "-" when dimensionless
  std::string rule;  // as enforced by the law's constructor
  std::string meaning;
  std::optional<double> fallback;  // default when the key is absent (numbers only)
};

// Parameter values read for one law: number(key), list(key).
class ParamValues {
 public:
  double number(const std::string& key) const;
  const std::vector<double>& list(const std::string& key) const;

 private:
  friend class LawReader;
  std::map<std::string, double> numbers_;
  std::map<std::string, std::vector<double>> lists_;
};

template <class Law>
struct LawSpec {
  std::string type;       // the model-file name
  std::string summary;    // one line
  std::string reference;  // seed and equations
  bool has_dim = false;   // accepts dim: 1 | 2
  std::vector<ParamDoc> params;
  std::function<std::unique_ptr<Law>(const ParamValues&, int dim)> build;
  // A realistic parameter set as a YAML flow mapping (docs, tests, benchmarks), and the
  // scales it is meant for: slip amplitude [m] (normal laws: penetration depth) and
  // pressure [Pa] (whole-interface laws: normal load [N]; normal laws: unused).
  std::string example;
  double example_slip = 0.0;
  double example_pressure = 0.0;
};

using TangentialSpec = LawSpec<laws::TangentialLaw>;
using NormalSpec = LawSpec<laws::NormalLaw>;

const std::vector<TangentialSpec>& TangentialLawSpecs();
const std::vector<NormalSpec>& NormalLawSpecs();

// Reads `type`, `dim` and the documented parameters from `node`, rejects anything else,
// and builds the law; constructor errors come back located at the offending key.
std::unique_ptr<laws::TangentialLaw> ReadTangentialLaw(const ModelNode& node);
std::unique_ptr<laws::NormalLaw> ReadNormalLaw(const ModelNode& node);

// Builds the law of `spec` from its example parameters (dim 2 when the law has one).
std::unique_ptr<laws::TangentialLaw> BuildExample(const TangentialSpec& spec);
std::unique_ptr<laws::NormalLaw> BuildExample(const NormalSpec& spec);

// The model-file reference of all laws as Markdown (docs/laws.md is this text).
std::string LawReferenceMarkdown();

}  // namespace jointdyn::model
