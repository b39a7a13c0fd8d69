#include "quiz/bank/LabLoader.h"

#include "quiz/bank/ContainedPath.h"
#include "quiz/bank/JsonFile.h"
#include "quiz/bank/JsonValidator.h"
#include "quiz/bank/KnownIds.h"
#include "quiz/bank/Languages.h"
#include "quiz/bank/Placeholders.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace shardlab::quiz {

Lab LabLoader::loadOrThrow(const std::filesystem::path& file) const {
  Diagnostics diagnostics;
  auto lab = load(file, diagnostics);
  if (!lab) throw ValidationError(std::move(diagnostics));
  return *lab;
}

std::optional<Lab> LabLoader::load(const std::filesystem::path& file, Diagnostics& diagnostics) const {
  const std::size_t before = diagnostics.size();
  auto doc = JsonFile::read(file, diagnostics);
  if (!doc) return std::nullopt;
  JsonValidator v(file, diagnostics);
  const JsonPath root;
  if (!v.requireObject(*doc, root)) return std::nullopt;
  v.rejectUnknownKeys(*doc, root, {"format", "id", "title", "description", "steps"});
  if (const auto* format = v.member(*doc, root, "format"); format && *format != kFormat)
    v.error(root / "format", "format", "unsupported format " + format->dump() + " (this build reads 1)");

  Lab lab;
  lab.file = file;
  const auto folder = file.parent_path().empty() ? std::filesystem::path(".") : file.parent_path();
  lab.id = v.id(*doc, root, "id").value_or("");
  if (const auto* t = v.member(*doc, root, "title")) lab.title = v.localized(*t, root / "title", false).value_or(LocalizedText{});
  // A title is a line in a window's title bar, a menu and the Lab dock: a 20 MB one froze the app.
  constexpr std::size_t kMaxTitle = 200;
  for (const auto& [lang, text] : lab.title.all())
    if (text.size() > kMaxTitle)
      v.error(root / "title" / lang, "text-too-long",
              "the title is " + std::to_string(text.size()) + " bytes; a title may be " + std::to_string(kMaxTitle));
  if (const auto* d = v.member(*doc, root, "description", false))
    lab.description = v.localized(*d, root / "description", false).value_or(LocalizedText{});

  const auto* steps = v.member(*doc, root, "steps");
  if (steps && (!steps->is_array() || steps->empty()))
    v.error(root / "steps", steps->is_array() ? "empty" : "wrong-type", "expected a non-empty array of steps");

  for (std::size_t si = 0; steps && steps->is_array() && si < steps->size(); ++si) {
    const auto& js = (*steps)[si];
    const JsonPath sp = root / "steps" / si;
    if (!v.requireObject(js, sp)) continue;
    v.rejectUnknownKeys(js, sp, {"lesson", "spec", "questions", "observations", "notes"});
    LabStep step;

    const Lesson* lesson = nullptr;
    if (auto id = v.string(js, sp, "lesson")) {
      step.lesson = *id;
      lesson = lessons_.find(*id);
      if (!lesson)
        v.error(sp / "lesson", "unknown-lesson",
                "\"" + *id + "\" is not a lesson (known: " + joined(knownLessonIds()) + ")");
    }

    std::optional<JobSpec> overrides = JobSpec{};
    if (const auto* spec = v.member(js, sp, "spec", false)) overrides = JobSpec::parse(*spec, sp / "spec", v);
    if (overrides) step.overrides = *overrides;
    if (lesson && overrides) {
      // Check each run of the lesson with the lab's settings applied; a problem
      // common to both runs of a comparison is reported once, others name their run.
      std::vector<std::pair<Diagnostic, std::vector<std::string>>> problems;
      for (const auto& run : lesson->runs) {
        const auto merged = run.spec.mergedWith(*overrides);
        Diagnostics runDiagnostics;
        JsonValidator runValidator(file, runDiagnostics);
        merged.checkConsistency(sp / "spec", runValidator);
        for (const auto& d : runDiagnostics.all()) {
          auto same = std::find_if(problems.begin(), problems.end(), [&](const auto& p) {
            return p.first.where == d.where && p.first.message == d.message;
          });
          if (same == problems.end()) {
            problems.push_back({d, {}});
            same = problems.end() - 1;
          }
          same->second.push_back(run.label.get("en"));
        }
        step.runs.push_back(merged);
      }
      for (const auto& [d, runs] : problems) {
        std::string message = d.message;
        if (lesson->isComparison() && runs.size() < lesson->runs.size())
          message = "in the run \"" + runs.front() + "\": " + message;
        diagnostics.add(d.file, d.where, d.rule, message);
      }
    }

    if (auto ids = v.stringList(js, sp, "questions", false)) {
      step.questionIds = *ids;
      for (std::size_t i = 0; i < ids->size(); ++i)
        if (!bank_.find((*ids)[i]))
          v.error(sp / "questions" / i, "unknown-question", "no question \"" + (*ids)[i] + "\" in the bank");
    } else if (lesson && !js.contains("questions")) {
      step.questionIds = lesson->questionIds;
    }

    if (auto ids = v.stringList(js, sp, "observations", false)) {
      for (std::size_t i = 0; i < ids->size(); ++i) {
        const auto& id = (*ids)[i];
        if (!isWellFormedId(id))
          v.error(sp / "observations" / i, "bad-id",
                  "\"" + id + "\" is not an observation template id (lower-case letters, digits, '-' and '_')");
        else if (observationTemplates_ && !observationTemplates_->count(id))
          v.error(sp / "observations" / i, "unknown-observation", "no observation template \"" + id + "\"");
      }
      step.observationIds = *ids;
    }

    if (const auto* notes = v.member(js, sp, "notes", false)) {
      const JsonPath np = sp / "notes";
      if (v.requireObject(*notes, np)) {
        for (const auto& [lang, rel] : notes->items()) {
          if (!isSupportedLanguage(lang)) {
            v.error(np / lang, "unknown-language", "\"" + lang + "\" is not one of en, fr, ru");
            continue;
          }
          if (!rel.is_string()) {
            v.error(np / lang, "wrong-type", "expected a path relative to the lab's folder");
            continue;
          }
          std::string problem;
          auto path = ContainedPath::resolve(folder, rel.get<std::string>(), problem);
          std::error_code ec;
          if (!path) v.error(np / lang, "path-outside-folder", problem);
          else if (!std::filesystem::exists(*path, ec))
            v.error(np / lang, "file-not-found", "no file " + path->string());
          else if (!std::filesystem::is_regular_file(*path, ec))
            v.error(np / lang, "file-unreadable", path->string() + " is not a regular file");
          else {
            step.notes[lang] = *path;
            checkPlaceholderFile(*path, lang, diagnostics);
          }
        }
        // As a lab's texts: English always (the app falls back to it), French and Russian
        // where the author wrote them.
        if (!notes->contains("en")) v.error(np / "en", "missing-language", "the en notes are missing");
      }
    }
    lab.steps.push_back(std::move(step));
  }
  if (diagnostics.size() != before) return std::nullopt;
  return lab;
}

} // namespace shardlab::quiz
