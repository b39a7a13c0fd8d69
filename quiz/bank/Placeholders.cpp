#include "quiz/bank/Placeholders.h"

#include "job/BoundedFile.h"

#include <cmath>

#include "job/Calibration.h"

#include <fstream>
#include <optional>
#include <sstream>

namespace shardlab::quiz {

namespace {

struct Placeholder {
  std::string name;
  std::vector<std::string> forms;  // empty: the bare number
};

// "{name}" or "{name|form|form...}" from the inside of the braces; nullopt when the
// name is not one of knownPlaceholders().
std::optional<Placeholder> parse(std::string_view inside) {
  Placeholder p;
  std::size_t start = 0;
  bool first = true;
  while (true) {
    const auto bar = inside.find('|', start);
    const auto part = std::string(inside.substr(start, bar == std::string_view::npos ? bar : bar - start));
    if (first) p.name = part;
    else p.forms.push_back(part);
    first = false;
    if (bar == std::string_view::npos) break;
    start = bar + 1;
  }
  for (const auto& known : knownPlaceholders())
    if (known == p.name) return p;
  return std::nullopt;
}

long long valueOf(const std::string& name, const PlaceholderValues& v) {
  const JobConfig& j = v.job;
  if (name == "ranks") return j.ranks;
  if (name == "stages") return j.ranks;
  if (name == "microbatches") return j.microbatches;
  if (name == "virtual_stages") return j.virtualStages;
  if (name == "layers") return j.layers;
  if (name == "units") return j.unitCount();
  if (name == "hidden") return j.hidden;
  if (name == "batch") return j.batch;
  if (name == "steps") return j.steps;
  if (name == "cores") return v.cores;
  // The straggler (JobConfig::straggler): its rank, its factor (rounded) and the step it
  // slows from; 0 when the job has none.
  if (name == "slow_rank") return j.straggler ? j.straggler->rank : 0;
  if (name == "slow_factor") return j.straggler ? std::llround(j.straggler->factor) : 0;
  if (name == "slow_step") return j.straggler ? j.straggler->fromStep : 0;
  if (name == "accumulate") return j.accumulate; // micro-steps per optimizer step
  return v.gpus;  // "gpus": parse() admits only known names
}

// Calls onPlaceholder(inside, line) for each {...}, onText for the text between; an
// unclosed brace goes to onUnclosed.
template <class Text, class Found, class Unclosed>
void scan(std::string_view text, Text onText, Found onPlaceholder, Unclosed onUnclosed) {
  int line = 1;
  std::size_t i = 0;
  while (i < text.size()) {
    const auto open = text.find('{', i);
    const auto chunk = text.substr(i, open == std::string_view::npos ? std::string_view::npos : open - i);
    onText(chunk);
    for (char c : chunk) line += c == '\n';
    if (open == std::string_view::npos) return;
    const auto close = text.find_first_of("}\n", open + 1);
    if (close == std::string_view::npos || text[close] != '}') {
      onUnclosed(line);
      onText(text.substr(open, 1));
      i = open + 1;
      continue;
    }
    onPlaceholder(text.substr(open + 1, close - open - 1), line);
    i = close + 1;
  }
}

} // namespace

PlaceholderValues placeholderValues(const JobConfig& job, const std::optional<Calibration>& machine) {
  PlaceholderValues v;
  v.job = job;
  if (machine) {
    v.cores = machine->cores;
    v.gpus = machine->gpus;
  }
  return v;
}

const std::vector<std::string>& knownPlaceholders() {
  static const std::vector<std::string> names{"ranks", "stages", "microbatches", "virtual_stages", "layers", "units",
                                              "hidden", "batch", "steps", "cores", "gpus", "slow_rank",
                                              "slow_factor", "slow_step", "accumulate"};
  return names;
}

std::vector<PlaceholderIssue> checkPlaceholders(std::string_view text, std::string_view language) {
  std::vector<PlaceholderIssue> issues;
  scan(
      text, [](std::string_view) {},
      [&](std::string_view inside, int line) {
        const auto p = parse(inside);
        if (!p) {
          std::string known;
          for (const auto& k : knownPlaceholders()) known += (known.empty() ? "" : ", ") + k;
          issues.push_back({line, "unknown placeholder {" + std::string(inside) + "} (known: " + known + ")"});
        } else if (!p->forms.empty() && static_cast<int>(p->forms.size()) != pluralFormCount(language)) {
          issues.push_back({line, "{" + std::string(inside) + "} gives " + std::to_string(p->forms.size()) +
                                      " plural forms; " + std::string(language) + " needs " +
                                      std::to_string(pluralFormCount(language)) +
                                      (language == "ru" ? " (one|few|many)" : " (one|other)")});
        }
      },
      [&](int line) { issues.push_back({line, "a '{' without its '}' on the same line"}); });
  return issues;
}

void checkPlaceholderFile(const std::filesystem::path& file, std::string_view language, Diagnostics& diagnostics) {
  FileProblem problem;
  const auto text = readBoundedFile(file.string(), kNotesFileCap, problem);
  if (!text) {
    diagnostics.add(file, "", problem.kind == FileProblem::Kind::TooLarge ? "file-too-large" : "file-unreadable",
                    "the file " + problem.text);
    return;
  }
  for (const auto& issue : checkPlaceholders(*text, language))
    diagnostics.add(file, "line " + std::to_string(issue.line), "placeholder", issue.message);
}

std::string fillPlaceholders(std::string_view text, std::string_view language, const PlaceholderValues& values) {
  std::string out;
  scan(
      text, [&](std::string_view chunk) { out += chunk; },
      [&](std::string_view inside, int) {
        const auto p = parse(inside);
        if (!p || (!p->forms.empty() && static_cast<int>(p->forms.size()) != pluralFormCount(language))) {
          out += "{" + std::string(inside) + "}";
          return;
        }
        const long long n = valueOf(p->name, values);
        out += std::to_string(n);
        if (!p->forms.empty()) out += " " + p->forms[static_cast<std::size_t>(pluralForm(language, n))];
      },
      [](int) {});
  return out;
}

} // namespace shardlab::quiz
