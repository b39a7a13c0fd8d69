#include "quiz/bank/QuestionBank.h"

#include "quiz/bank/JsonFile.h"
#include "quiz/bank/JsonValidator.h"
#include "quiz/bank/KnownIds.h"

#include <algorithm>

namespace shardlab::quiz {

std::vector<std::filesystem::path> QuestionBank::jsonFilesIn(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.is_regular_file() && entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

QuestionBank QuestionBank::load(const std::vector<std::filesystem::path>& files, Diagnostics& diagnostics) {
  QuestionBank bank;
  for (const auto& f : files) bank.loadFile(f, diagnostics);
  return bank;
}

QuestionBank QuestionBank::loadDirectory(const std::filesystem::path& dir) {
  Diagnostics diagnostics;
  auto files = jsonFilesIn(dir);
  if (files.empty()) diagnostics.add(dir, "", "file-unreadable", "no question files (*.json) in this folder");
  auto bank = load(files, diagnostics);
  if (!diagnostics.empty()) throw ValidationError(std::move(diagnostics));
  return bank;
}

const Question* QuestionBank::find(std::string_view id) const {
  for (const auto& q : questions_)
    if (q.id == id) return &q;
  return nullptr;
}

std::vector<Question> QuestionBank::ofQuiz(std::string_view quizId) const {
  std::vector<Question> out;
  for (const auto& q : questions_)
    if (q.quiz == quizId) out.push_back(q);
  return out;
}

void QuestionBank::loadFile(const std::filesystem::path& file, Diagnostics& diagnostics) {
  auto doc = JsonFile::read(file, diagnostics);
  if (!doc) return;
  JsonValidator v(file, diagnostics);
  const JsonPath root;
  if (!v.requireObject(*doc, root)) return;
  v.rejectUnknownKeys(*doc, root, {"format", "quiz", "title", "source", "questions"});
  if (const auto* format = v.member(*doc, root, "format"); format && *format != kFormat)
    v.error(root / "format", "format", "unsupported format " + format->dump() + " (this build reads 1)");

  QuizInfo info;
  info.file = file;
  info.id = v.id(*doc, root, "quiz").value_or("");
  if (const auto* title = v.member(*doc, root, "title")) info.title = v.localized(*title, root / "title").value_or(LocalizedText{});

  const auto* list = v.member(*doc, root, "questions");
  if (!list) return;
  if (!list->is_array() || list->empty()) {
    v.error(root / "questions", "wrong-type", "expected a non-empty array of questions");
    return;
  }
  quizzes_.push_back(info);

  for (std::size_t qi = 0; qi < list->size(); ++qi) {
    const auto& jq = (*list)[qi];
    const JsonPath qp = root / "questions" / qi;
    if (!v.requireObject(jq, qp)) continue;
    const std::size_t before = v.errorCount();
    v.rejectUnknownKeys(jq, qp, {"id", "text", "choices", "explanation", "evidence"});

    Question q;
    q.quiz = info.id;
    q.id = v.id(jq, qp, "id").value_or("");
    if (!q.id.empty()) {
      const std::string here = file.filename().string() + " " + qp.str();
      if (auto [it, inserted] = idPlaces_.emplace(q.id, here); !inserted)
        v.error(qp / "id", "duplicate-id", "question id \"" + q.id + "\" is already used at " + it->second);
    }
    if (const auto* t = v.member(jq, qp, "text")) q.text = v.localized(*t, qp / "text").value_or(LocalizedText{});
    if (const auto* e = v.member(jq, qp, "explanation"))
      q.explanation = v.localized(*e, qp / "explanation").value_or(LocalizedText{});

    if (const auto* choices = v.member(jq, qp, "choices")) {
      if (!choices->is_array()) {
        v.error(qp / "choices", "wrong-type", "expected an array of 4 choices, found " + jsonTypeName(*choices));
      } else {
        if (choices->size() != kChoiceCount)
          v.error(qp / "choices", "choice-count",
                  "expected exactly 4 choices, found " + std::to_string(choices->size()));
        std::size_t correct = 0;
        for (std::size_t ci = 0; ci < choices->size(); ++ci) {
          const auto& jc = (*choices)[ci];
          const JsonPath cp = qp / "choices" / ci;
          if (!v.requireObject(jc, cp)) continue;
          Choice c;
          if (const auto* flag = v.member(jc, cp, "correct", false)) {
            if (!flag->is_boolean()) v.error(cp / "correct", "wrong-type", "expected true or false");
            else c.correct = flag->get<bool>();
          }
          if (c.correct) ++correct;
          nlohmann::json texts = jc;
          texts.erase("correct");
          c.text = v.localized(texts, cp).value_or(LocalizedText{});
          q.choices.push_back(std::move(c));
        }
        if (correct != 1)
          v.error(qp / "choices", "correct-count",
                  "exactly one choice must have \"correct\": true, found " + std::to_string(correct));
      }
    }

    if (const auto* ev = v.member(jq, qp, "evidence")) {
      const JsonPath ep = qp / "evidence";
      if (!ev->is_null() && v.requireObject(*ev, ep)) {
        v.rejectUnknownKeys(*ev, ep, {"lesson", "moment"});
        Evidence e;
        e.lesson = v.string(*ev, ep, "lesson").value_or("");
        e.moment = v.string(*ev, ep, "moment").value_or("");
        if (!e.lesson.empty() && !isKnownLessonId(e.lesson))
          v.error(ep / "lesson", "unknown-lesson",
                  "\"" + e.lesson + "\" is not a lesson id (known: " + joined(knownLessonIds()) + ")");
        if (!e.moment.empty() && !isKnownMomentId(e.moment))
          v.error(ep / "moment", "unknown-moment",
                  "\"" + e.moment + "\" is not a moment id (known: " + joined(knownMomentIds()) + ")");
        q.evidence = e;
      }
    }
    if (v.errorCount() == before) questions_.push_back(std::move(q));
  }
}

} // namespace shardlab::quiz
