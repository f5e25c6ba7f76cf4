#include "model/model_node.h"

#include <yaml-cpp/eventhandler.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>
#include <utility>

#include "core/memory.h"

namespace jointdyn::model {

Rule Any() {
  return {[](double) { return true; }, ""};
}
Rule Positive() {
  return {[](double x) { return x > 0.0; }, "must be > 0"};
}
Rule NonNegative() {
  return {[](double x) { return x >= 0.0; }, "must be >= 0"};
}
Rule AtLeast(double minimum) {
  return {[minimum](double x) { return x >= minimum; }, "must be >= " + FormatValue(minimum)};
}
Rule InRange(double lo, double hi) {
  return {[lo, hi](double x) { return x >= lo && x <= hi; },
          "must be in [" + FormatValue(lo) + ", " + FormatValue(hi) + "]"};
}

Rule BelowOne() {
  return {[](double x) { return x >= 0.0 && x < 1.0; }, "must be in [0, 1)"};
}

ModelNode::ModelNode(YAML::Node node, std::shared_ptr<const std::string> file, std::string path)
    : node_(std::move(node)),
      file_(std::move(file)),
      path_(std::move(path)),
      read_(std::make_shared<std::set<std::string>>()) {}

namespace {

// YAML aliases share nodes: an alias inside its own anchor makes a cycle, and aliases of
// aliases expand a short file exponentially ("billion laughs"). Readers and the key check
// below walk the expanded tree, so both are refused first, at the key that reaches them.
// The values are at most a million, and fewer where the memory bound (core/memory.h) could
// not hold what readers build from them: kBytesPerValue each, a generous bound (300 000
// springs of two values took 226 MB in a release build, ~380 B per value; AddressSanitizer
// multiplies that several times).
constexpr long kMaxValues = 1000000;
constexpr double kBytesPerValue = 8192.0;

long MaxValues() {
  const double bound = static_cast<double>(MemoryBound());
  if (bound == 0.0) return kMaxValues;
  return std::max(1000L, std::min(kMaxValues, static_cast<long>(bound / kBytesPerValue)));
}

struct KeyCheck {
  const std::string& file;
  std::vector<YAML::Node> open;  // the mappings and lists being walked
  long values = 0;               // values walked so far, aliases expanded
  const long max_values = MaxValues();
  std::string top_key;  // the top-level key being walked, and its line
  int top_line = 0;

  // Throws InputError for a key given twice in a mapping of `node` (YAML keeps both;
  // reading would see the first only), naming its key path and both lines. `line`: where
  // `node` is given, its key's line in a mapping (an alias's own mark is its anchor's).
  void Walk(const YAML::Node& node, const std::string& path, int line) {
    if (++values > max_values)  // located at the top-level key: the path is aliases deep
      throw InputError(
          top_key, "",
          "the file holds more than " + std::to_string(max_values) +
              " values once its YAML aliases are expanded" +
              (max_values < kMaxValues ? " (at most " + FormatBytes(kBytesPerValue) +
                                             " each within the memory bound of " +
                                             FormatBytes(static_cast<double>(MemoryBound())) + ")"
                                       : ""))
          .Located(file, top_line, "");
    if (!node.IsSequence() && !node.IsMap()) return;
    if (std::any_of(open.begin(), open.end(), [&](const YAML::Node& o) { return o.is(node); }))
      throw InputError(path, "", "contains itself (a YAML alias inside its own anchor)")
          .Located(file, line, "");
    open.push_back(node);
    if (node.IsSequence()) {
      for (std::size_t i = 0; i < node.size(); ++i)
        Walk(node[i], path + "[" + std::to_string(i) + "]", node[i].Mark().line + 1);
    } else {
      std::map<std::string, int> lines;  // key -> its first line
      for (const auto& entry : node) {
        if (!entry.first.IsScalar()) continue;
        const std::string& key = entry.first.Scalar();
        const std::string key_path = path.empty() ? key : path + "." + key;
        const int key_line = entry.first.Mark().line + 1;
        if (path.empty()) {
          top_key = key;
          top_line = key_line;
        }
        if (const auto [it, inserted] = lines.emplace(key, key_line); !inserted)
          throw InputError(key_path, "",
                           "is given twice (first at line " + std::to_string(it->second) + ")")
              .Located(file, key_line, "");
        Walk(entry.second, key_path, key_line);
      }
    }
    open.pop_back();
  }
};

}  // namespace

namespace {

// Where the second YAML document of a text starts (its first event), if there is one. Not
// YAML::LoadAll: yaml-cpp 0.7's loops forever, allocating, on a stray ',' at the start of a
// stream (every document it parses is empty; fixed upstream in yaml-cpp PR #1319): the
// parser is asked for two documents at most.
class SecondDocument : public YAML::EventHandler {
 public:
  static std::optional<YAML::Mark> Find(const std::string& text) {
    std::istringstream in(text);
    YAML::Parser parser(in);
    SecondDocument first, second;
    if (!parser.HandleNextDocument(first) || !parser.HandleNextDocument(second)) return {};
    return second.mark_.value_or(YAML::Mark::null_mark());
  }
  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { Mark(mark); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { Mark(mark); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                const std::string&) override {
    Mark(mark);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    Mark(mark);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    Mark(mark);
  }
  void OnMapEnd() override {}

 private:
  void Mark(const YAML::Mark& mark) {
    if (!mark_ || mark_->is_null()) mark_ = mark;
  }
  std::optional<YAML::Mark> mark_;
};

}  // namespace

ModelNode ModelNode::LoadString(const std::string& text, const std::string& file) {
  auto name = std::make_shared<const std::string>(file);
  YAML::Node root;
  try {
    root = YAML::Load(text);  // the first document
    if (const auto second = SecondDocument::Find(text); second && !root.IsNull())
      throw InputError("", "", "a second YAML document (after ---): a model file holds one")
          .Located(file, second->line + 1, "");
  } catch (const YAML::ParserException& e) {
    InputError error("", "", "YAML syntax error: " + e.msg);
    throw error.Located(file, e.mark.line + 1, "");
  }
  KeyCheck{file}.Walk(root, "", root.IsDefined() ? int(root.Mark().line) + 1 : 0);
  if (!root.IsMap())
    throw InputError("", "", "the model file must be a YAML mapping of keys to values")
        .Located(file, root.IsDefined() ? int(root.Mark().line) + 1 : 0, "");
  return ModelNode(root, name, "");
}

ModelNode ModelNode::LoadFile(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw InputError("", "", "cannot read the model file: no such file").Located(path, 0, "");
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw InputError("", "", "cannot open the model file").Located(path, 0, "");
  std::string text;
  char buffer[65536];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, f)) > 0;) text.append(buffer, n);
  std::fclose(f);
  return LoadString(text, path);
}

bool ModelNode::Has(const std::string& key) const { return bool(node_[key]); }

std::vector<std::string> ModelNode::Keys() const {
  std::vector<std::string> keys;
  for (const auto& entry : node_)
    keys.push_back(entry.first.IsScalar() ? entry.first.Scalar() : std::string("(not a name)"));
  return keys;
}

ModelNode::Kind ModelNode::KindOf(const std::string& key) const {
  const YAML::Node value = node_[key];
  if (!value) return Kind::kMissing;
  if (value.IsMap()) return Kind::kMap;
  if (value.IsSequence()) return Kind::kList;
  return Kind::kScalar;
}

std::string ModelNode::KeyPath(const std::string& key) const {
  return path_.empty() ? key : path_ + "." + key;
}

int ModelNode::line() const { return node_.Mark().line + 1; }

int ModelNode::LineOf(const std::string& key) const {
  for (const auto& entry : node_)
    if (entry.first.IsScalar() && entry.first.Scalar() == key) return entry.first.Mark().line + 1;
  return line();
}

void ModelNode::FailValue(const std::string& key, const std::string& value,
                          const std::string& rule) const {
  throw InputError(KeyPath(key), value, rule).Located(*file_, LineOf(key), "");
}

void ModelNode::CheckMemory(const std::string& key, double bytes, const std::string& what,
                            const std::string& value) const {
  const std::string rule = ExceedsMemory(bytes, what);
  if (rule.empty()) return;
  const YAML::Node given = node_[key];
  FailValue(key, !value.empty() || !given || !given.IsScalar() ? value : given.Scalar(), rule);
}

void ModelNode::Rethrow(const InputError& error) const {
  if (!error.file().empty()) throw error;  // located already (a key read below this node)
  throw error.Located(*file_, LineOf(error.key()), path_);
}

void ModelNode::ExpectAnalysis(const std::string& name) const {
  const std::string given = String("analysis");
  if (given != name) FailValue("analysis", given, "this reader takes analysis: " + name);
}

InputError ModelNode::Locate(const InputError& error) const {
  if (!error.file().empty()) return error;
  // Walks "a.b[2].c": each part a key of a mapping, each [i] an item of a list (reset()
  // rebinds a YAML::Node, assignment would write into the document; lookups are const so
  // that they create nothing).
  YAML::Node node;
  node.reset(node_);
  int line = this->line();
  const std::string& path = error.where();
  size_t at = 0;
  while (at < path.size()) {
    if (path[at] == '[') {
      const size_t close = path.find(']', at);
      if (close == std::string::npos || !node.IsSequence()) break;
      char* end = nullptr;
      const unsigned long i = std::strtoul(path.c_str() + at + 1, &end, 10);
      if (end != path.c_str() + close || i >= node.size()) break;
      node.reset(std::as_const(node)[i]);
      line = node.Mark().line + 1;
      at = close + 1;
    } else {
      const size_t end = std::min(path.find('.', at), path.find('[', at));
      const std::string key = path.substr(at, end == std::string::npos ? end : end - at);
      if (!node.IsMap() || !std::as_const(node)[key]) break;
      for (const auto& entry : node)
        if (entry.first.IsScalar() && entry.first.Scalar() == key)
          line = entry.first.Mark().line + 1;
      node.reset(std::as_const(node)[key]);
      at = end;
    }
    if (at < path.size() && path[at] == '.') ++at;
  }
  return error.Located(*file_, line, "");
}

YAML::Node ModelNode::Value(const std::string& key) const {
  read_->insert(key);
  const YAML::Node value = node_[key];
  if (!value)
    throw InputError(KeyPath(key), "", "missing required key").Located(*file_, line(), "");
  if (value.IsNull()) FailValue(key, "(empty)", "must have a value");
  return value;
}

double ModelNode::ToDouble(const YAML::Node& value, const std::string& key,
                           const Rule& rule) const {
  if (!value.IsScalar()) FailValue(key, "(not a scalar)", "must be a number");
  const std::string& text = value.Scalar();
  std::string lower;
  for (const char c : text) lower += char(std::tolower(static_cast<unsigned char>(c)));
  if (lower == ".nan" || lower == ".inf" || lower == "+.inf" || lower == "-.inf")
    FailValue(key, text, "must be finite");
  char* end = nullptr;
  errno = 0;
  const double x = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size()) FailValue(key, text, "must be a number");
  if (errno == ERANGE)  // overflow, or underflow to 0 or a subnormal number
    FailValue(key, text,
              "is out of range: a number must be 0 or of magnitude in [2.2e-308, 1.8e308]");
  if (!std::isfinite(x)) FailValue(key, text, "must be finite");
  if (!rule.ok(x)) FailValue(key, text, rule.text);
  return x;
}

double ModelNode::Double(const std::string& key, const Rule& rule) const {
  return ToDouble(Value(key), key, rule);
}

double ModelNode::Double(const std::string& key, double fallback, const Rule& rule) const {
  read_->insert(key);
  return Has(key) ? Double(key, rule) : fallback;
}

int ModelNode::Int(const std::string& key, const Rule& rule) const {
  const YAML::Node value = Value(key);
  const double x = ToDouble(value, key, Any());
  if (x != std::floor(x) || std::abs(x) > 2e9) FailValue(key, value.Scalar(), "must be an integer");
  if (!rule.ok(x)) FailValue(key, value.Scalar(), rule.text);
  return static_cast<int>(x);
}

int ModelNode::Int(const std::string& key, int fallback, const Rule& rule) const {
  read_->insert(key);
  return Has(key) ? Int(key, rule) : fallback;
}

bool ModelNode::Bool(const std::string& key, bool fallback) const {
  read_->insert(key);
  if (!Has(key)) return fallback;
  const YAML::Node value = Value(key);
  if (value.IsScalar() && value.Scalar() == "true") return true;
  if (value.IsScalar() && value.Scalar() == "false") return false;
  FailValue(key, value.IsScalar() ? value.Scalar() : "(not a scalar)", "must be true or false");
}

std::string ModelNode::String(const std::string& key) const {
  const YAML::Node value = Value(key);
  if (!value.IsScalar()) FailValue(key, "(not a scalar)", "must be a string");
  return value.Scalar();
}

std::string ModelNode::String(const std::string& key, const std::string& fallback) const {
  read_->insert(key);
  return Has(key) ? String(key) : fallback;
}

std::vector<double> ModelNode::Doubles(const std::string& key, const Rule& rule) const {
  const YAML::Node value = Value(key);
  if (!value.IsSequence() || value.size() == 0)
    FailValue(key, value.IsScalar() ? value.Scalar() : "", "must be a non-empty list of numbers");
  std::vector<double> numbers;
  for (size_t i = 0; i < value.size(); ++i)
    numbers.push_back(ToDouble(value[i], key + "[" + std::to_string(i) + "]", rule));
  return numbers;
}

std::vector<std::string> ModelNode::Strings(const std::string& key) const {
  const YAML::Node value = Value(key);
  if (!value.IsSequence() || value.size() == 0)
    FailValue(key, value.IsScalar() ? value.Scalar() : "", "must be a non-empty list of names");
  std::vector<std::string> strings;
  for (size_t i = 0; i < value.size(); ++i) {
    if (!value[i].IsScalar())
      FailValue(key + "[" + std::to_string(i) + "]", "(not a scalar)", "must be a name");
    strings.push_back(value[i].Scalar());
  }
  return strings;
}

std::vector<std::vector<double>> ModelNode::Rows(const std::string& key, int min_columns,
                                                 int max_columns) const {
  const YAML::Node value = Value(key);
  if (!value.IsSequence() || value.size() == 0)
    FailValue(key, "", "must be a non-empty list of rows [a, b, ...]");
  std::vector<std::vector<double>> rows;
  for (size_t i = 0; i < value.size(); ++i) {
    const std::string row_key = key + "[" + std::to_string(i) + "]";
    const YAML::Node row = value[i];
    if (!row.IsSequence() || int(row.size()) < min_columns || int(row.size()) > max_columns)
      FailValue(
          row_key, "",
          "must be a row of " + std::to_string(min_columns) +
              (max_columns > min_columns ? " to " + std::to_string(max_columns) : std::string()) +
              " numbers");
    std::vector<double> numbers;
    for (size_t j = 0; j < row.size(); ++j)
      numbers.push_back(ToDouble(row[j], row_key + "[" + std::to_string(j) + "]", Any()));
    rows.push_back(std::move(numbers));
  }
  return rows;
}

ModelNode ModelNode::Map(const std::string& key) const {
  const YAML::Node value = Value(key);
  if (!value.IsMap()) FailValue(key, value.IsScalar() ? value.Scalar() : "", "must be a mapping");
  return ModelNode(value, file_, KeyPath(key));
}

std::optional<ModelNode> ModelNode::OptionalMap(const std::string& key) const {
  read_->insert(key);
  if (!Has(key)) return std::nullopt;
  return Map(key);
}

std::vector<ModelNode> ModelNode::Maps(const std::string& key) const {
  const YAML::Node value = Value(key);
  if (!value.IsSequence() || value.size() == 0)
    FailValue(key, value.IsScalar() ? value.Scalar() : "", "must be a non-empty list of mappings");
  std::vector<ModelNode> maps;
  for (size_t i = 0; i < value.size(); ++i) {
    const std::string item = key + "[" + std::to_string(i) + "]";
    if (!value[i].IsMap())
      throw InputError(KeyPath(item), value[i].IsScalar() ? value[i].Scalar() : "",
                       "must be a mapping")
          .Located(*file_, value[i].Mark().line + 1, "");
    maps.push_back(ModelNode(value[i], file_, KeyPath(item)));
  }
  return maps;
}

std::vector<ModelNode> ModelNode::OptionalMaps(const std::string& key) const {
  read_->insert(key);
  if (!Has(key)) return {};
  return Maps(key);
}

void ModelNode::Finish() const {
  for (const auto& entry : node_) {
    const std::string key = entry.first.IsScalar() ? entry.first.Scalar() : "?";
    if (read_->count(key)) continue;
    std::string known;
    for (const std::string& k : *read_) known += (known.empty() ? "" : ", ") + k;
    throw InputError(KeyPath(key), "", "unknown key (valid keys here: " + known + ")")
        .Located(*file_, entry.first.Mark().line + 1, "");
  }
}

}  // namespace jointdyn::model
