#include "quiz/bank/LessonLibrary.h"

#include "quiz/bank/ContainedPath.h"
#include "quiz/bank/JsonFile.h"
#include "quiz/bank/JsonValidator.h"
#include "quiz/bank/KnownIds.h"
#include "quiz/bank/Languages.h"
#include "quiz/bank/Placeholders.h"

#include <algorithm>
#include <set>

namespace shardlab::quiz {

namespace {

const std::set<std::string> kPredictionKinds{"bytes", "ratio", "percent", "count", "milliseconds"};

} // namespace

const Lesson* LessonLibrary::find(std::string_view id) const {
  for (const auto& l : lessons_)
    if (l.id == id) return &l;
  return nullptr;
}

LessonLibrary LessonLibrary::load(const std::filesystem::path& dir, const QuestionBank* bank, Diagnostics& diagnostics) {
  LessonLibrary library;
  for (const auto& file : QuestionBank::jsonFilesIn(dir)) {
    if (auto lesson = loadFile(file, bank, diagnostics)) library.lessons_.push_back(std::move(*lesson));
  }
  for (const auto& id : knownLessonIds()) {
    if (!library.find(id) && !std::filesystem::exists(dir / (id + ".json")))
      diagnostics.add(dir, "", "missing-lesson", "lesson \"" + id + "\" has no file " + id + ".json");
  }
  return library;
}

LessonLibrary LessonLibrary::loadDirectory(const std::filesystem::path& dir, const QuestionBank* bank) {
  Diagnostics diagnostics;
  auto library = load(dir, bank, diagnostics);
  if (!diagnostics.empty()) throw ValidationError(std::move(diagnostics));
  return library;
}

std::optional<Lesson> LessonLibrary::loadFile(const std::filesystem::path& file, const QuestionBank* bank,
                                              Diagnostics& diagnostics) {
  auto doc = JsonFile::read(file, diagnostics);
  if (!doc) return std::nullopt;
  JsonValidator v(file, diagnostics);
  const std::size_t before = v.errorCount();
  const JsonPath root;
  if (!v.requireObject(*doc, root)) return std::nullopt;
  v.rejectUnknownKeys(*doc, root, {"format", "id", "title", "spec", "runs", "questions", "guide", "prediction", "sizing"});
  if (const auto* format = v.member(*doc, root, "format"); format && *format != kFormat)
    v.error(root / "format", "format", "unsupported format " + format->dump() + " (this build reads 1)");

  Lesson lesson;
  lesson.file = file;
  lesson.id = v.id(*doc, root, "id").value_or("");
  if (!lesson.id.empty()) {
    if (!isKnownLessonId(lesson.id))
      v.error(root / "id", "unknown-lesson",
              "\"" + lesson.id + "\" is not a lesson id (known: " + joined(knownLessonIds()) + ")");
    else if (file.stem() != lesson.id)
      v.error(root / "id", "id-mismatch", "the lesson \"" + lesson.id + "\" must be in " + lesson.id + ".json");
  }
  if (const auto* t = v.member(*doc, root, "title")) lesson.title = v.localized(*t, root / "title").value_or(LocalizedText{});

  const auto* spec = v.member(*doc, root, "spec", false);
  const auto* runs = v.member(*doc, root, "runs", false);
  if ((spec != nullptr) == (runs != nullptr)) {
    v.error(root, "run-count", "a lesson needs either \"spec\" (one run) or \"runs\" (two runs to compare), not " +
                                   std::string(spec ? "both" : "neither"));
  } else if (spec) {
    if (auto s = JobSpec::parse(*spec, root / "spec", v); s && s->checkConsistency(root / "spec", v))
      lesson.runs.push_back({LocalizedText{}, *s});
  } else if (!runs->is_array() || runs->size() != 2) {
    v.error(root / "runs", "run-count", "a comparison lesson has exactly two runs");
  } else {
    for (std::size_t i = 0; i < runs->size(); ++i) {
      const auto& jr = (*runs)[i];
      const JsonPath rp = root / "runs" / i;
      if (!v.requireObject(jr, rp)) continue;
      v.rejectUnknownKeys(jr, rp, {"label", "spec"});
      LessonRun run;
      if (const auto* label = v.member(jr, rp, "label")) run.label = v.localized(*label, rp / "label").value_or(LocalizedText{});
      if (const auto* js = v.member(jr, rp, "spec")) {
        if (auto s = JobSpec::parse(*js, rp / "spec", v); s && s->checkConsistency(rp / "spec", v)) run.spec = *s;
      }
      lesson.runs.push_back(std::move(run));
    }
  }

  if (auto ids = v.stringList(*doc, root, "questions")) {
    lesson.questionIds = *ids;
    for (std::size_t i = 0; i < ids->size(); ++i)
      if (bank && !bank->find((*ids)[i]))
        v.error(root / "questions" / i, "unknown-question", "no question \"" + (*ids)[i] + "\" in the bank");
  }

  if (const auto* guide = v.member(*doc, root, "guide")) {
    if (v.requireObject(*guide, root / "guide")) {
      for (auto lang : kLanguages) {
        const auto rel = v.string(*guide, root / "guide", lang);
        if (!rel) continue;
        std::string problem;
        auto path = ContainedPath::resolve(file.parent_path(), *rel, problem);
        std::error_code ec;
        if (!path) v.error(root / "guide" / lang, "path-outside-folder", problem);
        else if (!std::filesystem::exists(*path, ec))
          v.error(root / "guide" / lang, "file-not-found", "no file " + path->string());
        else if (!std::filesystem::is_regular_file(*path, ec)) // a folder, a FIFO: there, but no guide
          v.error(root / "guide" / lang, "file-unreadable", path->string() + " is not a regular file");
        else {
          lesson.guides[std::string(lang)] = *path;
          checkPlaceholderFile(*path, lang, diagnostics);
        }
      }
      for (const auto& [lang, value] : guide->items())
        if (!isSupportedLanguage(lang)) v.error(root / "guide" / lang, "unknown-language", "\"" + lang + "\" is not one of en, fr, ru");
    }
  }

  if (const auto* jp = v.member(*doc, root, "prediction")) {
    const JsonPath pp = root / "prediction";
    if (v.requireObject(*jp, pp)) {
      v.rejectUnknownKeys(*jp, pp, {"id", "kind", "text", "moment"});
      Prediction p;
      p.id = v.id(*jp, pp, "id").value_or("");
      p.kind = v.string(*jp, pp, "kind").value_or("");
      if (!p.kind.empty() && !kPredictionKinds.count(p.kind))
        v.error(pp / "kind", "bad-value", "\"" + p.kind + "\" is not one of bytes, count, milliseconds, percent, ratio");
      if (const auto* t = v.member(*jp, pp, "text")) {
        p.text = v.localized(*t, pp / "text").value_or(LocalizedText{});
        for (auto lang : kLanguages)
          for (const auto& issue : checkPlaceholders(p.text.get(lang), lang))
            v.error(pp / "text" / lang, "placeholder", issue.message);
      }
      if (auto m = v.string(*jp, pp, "moment", false)) {
        if (!isKnownMomentId(*m))
          v.error(pp / "moment", "unknown-moment", "\"" + *m + "\" is not a moment id (known: " + joined(knownMomentIds()) + ")");
        p.moment = *m;
      }
      lesson.prediction = p;
    }
  }
  if (const auto* js = v.member(*doc, root, "sizing", false)) {
    const JsonPath sp = root / "sizing";
    if (v.requireObject(*js, sp)) {
      v.rejectUnknownKeys(*js, sp, {"budget_seconds", "conditions"});
      LessonSizingRule rule;
      if (const auto* b = v.member(*js, sp, "budget_seconds")) {
        if (!b->is_number() || b->get<double>() <= 0) v.error(sp / "budget_seconds", "bad-value", "must be a positive number of seconds");
        else rule.budgetSeconds = b->get<double>();
      }
      const auto* conditions = v.member(*js, sp, "conditions");
      if (conditions && !conditions->is_array())
        v.error(sp / "conditions", "wrong-type", "expected an array of {\"ratio\", \"at_least\"}");
      for (std::size_t i = 0; conditions && conditions->is_array() && i < conditions->size(); ++i) {
        const auto& jc = (*conditions)[i];
        const JsonPath cp = sp / "conditions" / i;
        if (!v.requireObject(jc, cp)) continue;
        v.rejectUnknownKeys(jc, cp, {"ratio", "at_least"});
        SizingCondition c;
        c.ratio = v.string(jc, cp, "ratio").value_or("");
        const auto& known = knownSizingRatios();
        if (!c.ratio.empty() && std::find(known.begin(), known.end(), c.ratio) == known.end())
          v.error(cp / "ratio", "unknown-ratio", "\"" + c.ratio + "\" is not a sizing ratio (known: " + joined(known) + ")");
        if (const auto* a = v.member(jc, cp, "at_least")) {
          if (!a->is_number() || a->get<double>() <= 0) v.error(cp / "at_least", "bad-value", "must be a positive number");
          else c.atLeast = a->get<double>();
        }
        rule.conditions.push_back(c);
      }
      lesson.sizing = rule;
    }
  }
  if (v.errorCount() != before) return std::nullopt;
  return lesson;
}

} // namespace shardlab::quiz
