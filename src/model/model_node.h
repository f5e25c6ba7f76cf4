// Strict reading of YAML model files into typed values.
//
// A ModelNode wraps one YAML mapping. Every value is read through it with its type and
// rule; Finish() then rejects keys that were never read (unknown keys). All errors are
// InputError naming file, line, key path, value and rule, e.g.
//   model.yaml:7: law.c1 = -3: must be > 0 and finite
// This is the only place where strings become enums (see Enum()).
#pragma once

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"

namespace jointdyn::model {

// A rule on a number: `ok` decides, `text` is the message ("must be > 0").
struct Rule {
  std::function<bool(double)> ok;
  std::string text;
};
Rule Any();
Rule Positive();
Rule NonNegative();
Rule AtLeast(double minimum);
Rule InRange(double lo, double hi);  // closed interval
Rule BelowOne();                     // [0, 1)

class ModelNode {
 public:
  // Parses `path` and returns its top-level mapping. Throws InputError for a missing
  // file, a YAML syntax error (with line) or a top level that is not a mapping.
  static ModelNode LoadFile(const std::string& path);
  // Parses a YAML text (used by tests); `file` names it in messages.
  static ModelNode LoadString(const std::string& text, const std::string& file);

  bool Has(const std::string& key) const;
  // What `key` holds, for values that may take several forms (a number or a mapping, a
  // count or a list of names).
  enum class Kind { kMissing, kScalar, kList, kMap };
  Kind KindOf(const std::string& key) const;

  double Double(const std::string& key, const Rule& rule = Any()) const;
  double Double(const std::string& key, double fallback, const Rule& rule = Any()) const;
  int Int(const std::string& key, const Rule& rule = Any()) const;
  int Int(const std::string& key, int fallback, const Rule& rule = Any()) const;
  bool Bool(const std::string& key, bool fallback) const;
  std::string String(const std::string& key) const;
  std::string String(const std::string& key, const std::string& fallback) const;
  std::vector<double> Doubles(const std::string& key, const Rule& rule = Any()) const;
  // A non-empty list of strings (e.g. names).
  std::vector<std::string> Strings(const std::string& key) const;
  // A list of lists of numbers (table rows), each row with `min_columns`..`max_columns`.
  std::vector<std::vector<double>> Rows(const std::string& key, int min_columns,
                                        int max_columns) const;

  // One of `choices` (name -> value); the message lists the valid names.
  template <class E>
  E Enum(const std::string& key, const std::vector<std::pair<std::string, E>>& choices) const {
    const std::string name = String(key);
    for (const auto& [choice, value] : choices)
      if (choice == name) return value;
    FailValue(key, name, "must be one of " + Join(choices));
  }

  // A non-empty list of distinct names of `choices` (the message lists the valid names).
  template <class E>
  std::vector<E> EnumList(const std::string& key,
                          const std::vector<std::pair<std::string, E>>& choices) const {
    std::vector<E> values;
    for (const std::string& name : Strings(key)) {
      const auto it = std::find_if(choices.begin(), choices.end(),
                                   [&](const auto& choice) { return choice.first == name; });
      if (it == choices.end()) FailValue(key, name, "must be one of " + Join(choices));
      if (std::find(values.begin(), values.end(), it->second) != values.end())
        FailValue(key, name, "is given twice");
      values.push_back(it->second);
    }
    return values;
  }

  // The keys of this mapping in file order (for mappings keyed by user names, e.g. the
  // materials per element block); they count as read only once their values are read.
  std::vector<std::string> Keys() const;

  ModelNode Map(const std::string& key) const;
  std::optional<ModelNode> OptionalMap(const std::string& key) const;
  // A non-empty list of mappings (e.g. elements), each read strictly like Map(); their key
  // paths are "key[i]".
  std::vector<ModelNode> Maps(const std::string& key) const;
  // Maps(), or no mappings when `key` is absent.
  std::vector<ModelNode> OptionalMaps(const std::string& key) const;

  // Throws for keys of this mapping that were never read.
  void Finish() const;

  // Reads the top-level `analysis` key and checks that it names `name` (each analysis's
  // reader calls it, so that a program can read a model file without the run layer).
  void ExpectAnalysis(const std::string& name) const;

  // Throws InputError for `key` of this mapping with `value` and `rule`.
  [[noreturn]] void FailValue(const std::string& key, const std::string& value,
                              const std::string& rule) const;
  // Throws InputError for `key` (with `value`, default: the key's scalar as written) when
  // `bytes`, an estimate of the memory the value asks for `what`, exceed the machine's
  // physical memory: "needs 48 GB for <what> but the machine has 23 GB of memory".
  void CheckMemory(const std::string& key, double bytes, const std::string& what,
                   const std::string& value = "") const;
  // Rethrows an InputError raised while building an object from this mapping (e.g. a
  // law constructor naming "c1"), located at that key's line in this file; an error
  // located already (a key read below this mapping) as it is.
  [[noreturn]] void Rethrow(const InputError& error) const;

  // `error` (found after reading, e.g. by fe::BuildFeModel or an analysis) located in this
  // file at the line of its where() key path below this mapping: the deepest part of the
  // path that exists ("contact[1]" for "contact[1].search_distance" when that key is left
  // to its default), else this mapping. An error that has a file already is returned as it
  // is.
  InputError Locate(const InputError& error) const;

  const std::string& file() const { return *file_; }
  const std::string& path() const { return path_; }  // key path, e.g. "law"
  int line() const;

 private:
  ModelNode(YAML::Node node, std::shared_ptr<const std::string> file, std::string path);
  YAML::Node Value(const std::string& key) const;  // marks the key read; throws if missing
  std::string KeyPath(const std::string& key) const;
  int LineOf(const std::string& key) const;
  double ToDouble(const YAML::Node& value, const std::string& key, const Rule& rule) const;

  template <class E>
  static std::string Join(const std::vector<std::pair<std::string, E>>& choices) {
    std::string text;
    for (size_t i = 0; i < choices.size(); ++i)
      text += (i ? (i + 1 == choices.size() ? " or " : ", ") : "") + choices[i].first;
    return text;
  }

  YAML::Node node_;
  std::shared_ptr<const std::string> file_;
  std::string path_;
  std::shared_ptr<std::set<std::string>> read_;
};

}  // namespace jointdyn::model
