// shardlab-quiz: export the question bank, validate labs, print a shuffled attempt,
// generate observation questions from a learner's trace(s), export results.
// Each subcommand is added by one add*Command function.
#include "quiz/bank/AssetLocator.h"
#include "quiz/progress/AtomicFile.h"
#include "quiz/bank/Attempt.h"
#include "quiz/export/GiftExporter.h"
#include "quiz/export/JsonExporter.h"
#include "quiz/bank/KnownIds.h"
#include "quiz/bank/LabLoader.h"
#include "quiz/bank/Languages.h"
#include "quiz/bank/LessonLibrary.h"
#include "quiz/bank/LessonSizing.h"
#include "quiz/observations/LessonCheck.h"
#include "quiz/bank/Placeholders.h"
#include "quiz/export/MoodleXmlExporter.h"
#include "quiz/observations/Observation.h"
#include "quiz/observations/ObservationMessages.h"
#include "quiz/progress/Progress.h"
#include "quiz/progress/ProgressLocation.h"
#include "quiz/bank/QuestionBank.h"
#include "quiz/export/ResultsExporter.h"
#include "quiz/observations/TraceHash.h"

#include "job/BoundedFile.h"
#include "trace/Report.h"
#include "trace/OpenTrace.h"
#include "trace/TraceReader.h"

#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <functional>
#include <iostream>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace shardlab::quiz;

namespace {

struct Context {
  std::optional<std::filesystem::path> assetsOption;
  int exitCode = 0;

  std::filesystem::path assets() const { return findAssetsDir(assetsOption, currentExecutableDir()); }
};

void addExportCommand(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("export", "Export the question bank (Moodle XML, GIFT or JSON) in one language");
  auto format = std::make_shared<std::string>();
  auto lang = std::make_shared<std::string>("en");
  auto output = std::make_shared<std::string>();
  auto seed = std::make_shared<std::uint64_t>(1);
  cmd->add_option("--format", *format, "moodle, gift or json")->required()->check(CLI::IsMember({"moodle", "gift", "json"}));
  cmd->add_option("--lang", *lang, "en, fr or ru")->check(CLI::IsMember({"en", "fr", "ru"}));
  cmd->add_option("-o,--output", *output, "File to write (default: standard output)");
  cmd->add_option("--seed", *seed, "Seed of the choice order written to the file")->capture_default_str();
  cmd->callback([&ctx, format, lang, output, seed] {
    const auto bank = QuestionBank::loadDirectory(ctx.assets() / "quiz");
    std::string text;
    if (*format == "moodle") text = MoodleXmlExporter::render(bank, *lang, *seed);
    else if (*format == "gift") text = GiftExporter::render(bank, *lang, *seed);
    else text = JsonExporter::render(bank, *lang, *seed);
    if (output->empty()) std::cout << text;
    else AtomicFile::write(*output, text);
  });
}

void addValidateCommand(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("validate", "Check the question bank, the lessons, the observation messages and the "
                                             "given lab files; print every error; exit 1 on any");
  auto labs = std::make_shared<std::vector<std::string>>();
  cmd->add_option("LAB", *labs, "Lab files (JSON)");
  cmd->callback([&ctx, labs] {
    const auto assets = ctx.assets();
    Diagnostics diagnostics;
    const auto bank = QuestionBank::load(QuestionBank::jsonFilesIn(assets / "quiz"), diagnostics);
    const auto lessons = LessonLibrary::load(assets / "lessons", &bank, diagnostics);
    ObservationMessages::load(assets / "observations", diagnostics);
    const auto ids = observationTemplateIds();
    const LabLoader loader(bank, lessons, std::set<std::string>(ids.begin(), ids.end()));
    for (const auto& lab : *labs) loader.load(lab, diagnostics);
    for (const auto& d : diagnostics.all()) std::cout << d.toString() << "\n";
    if (!diagnostics.empty()) {
      std::cerr << diagnostics.size() << " error(s)\n";
      ctx.exitCode = 1;
    } else {
      std::cout << "ok: " << bank.questions().size() << " questions, " << lessons.lessons().size() << " lessons, "
                << labs->size() << " lab(s)\n";
    }
  });
}

void addShowCommand(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("show", "Print a shuffled attempt of the quiz");
  auto lang = std::make_shared<std::string>("en");
  auto seed = std::make_shared<std::optional<std::uint64_t>>();
  auto quiz = std::make_shared<std::string>();
  auto key = std::make_shared<bool>(false);
  cmd->add_option("--lang", *lang, "en, fr or ru")->check(CLI::IsMember({"en", "fr", "ru"}));
  cmd->add_option("--seed", *seed, "Seed of the attempt (default: random, printed)");
  cmd->add_option("--quiz", *quiz, "Only this quiz (e.g. fsdp, pipeline)");
  cmd->add_flag("--key", *key, "Mark the correct choices and print the explanations");
  cmd->callback([&ctx, lang, seed, quiz, key] {
    const auto bank = QuestionBank::loadDirectory(ctx.assets() / "quiz");
    const std::uint64_t s = seed->value_or((std::uint64_t{std::random_device{}()} << 32) ^ std::random_device{}());
    std::vector<Question> questions;
    for (const auto& q : bank.questions())
      if (quiz->empty() || q.quiz == *quiz) questions.push_back(q);
    if (questions.empty()) throw std::runtime_error("no questions in quiz \"" + *quiz + "\"");
    const auto attempt = Attempt::create(questions, s);
    std::cout << "seed " << s << "\n";
    std::size_t n = 0;
    for (const auto& item : attempt.items()) {
      std::cout << "\n" << ++n << ". [" << item.question.id << "] " << item.question.text.get(*lang) << "\n";
      for (std::size_t shown = 0; shown < item.order.size(); ++shown)
        std::cout << "   " << static_cast<char>('a' + shown) << ") " << item.shownChoice(shown).get(*lang)
                  << (*key && shown == item.correctShown ? "   <- correct" : "") << "\n";
      if (*key) {
        std::cout << "   " << item.question.explanation.get(*lang) << "\n";
        if (item.question.evidence)
          std::cout << "   evidence: " << item.question.evidence->lesson << " / " << item.question.evidence->moment << "\n";
      }
    }
  });
}

void addObserveCommand(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("observe", "Generate the observation questions of a run's trace (or two runs' "
                                            "traces to compare) and print them with answers and evidence as JSON");
  auto traces = std::make_shared<std::vector<std::string>>();
  auto lang = std::make_shared<std::string>("en");
  auto seed = std::make_shared<std::uint64_t>(1);
  auto only = std::make_shared<std::vector<std::string>>();
  cmd->add_option("TRACE", *traces, "One trace, or two to compare (e.g. DDP and FSDP)")->required()->expected(1, 2);
  cmd->add_option("--lang", *lang, "en, fr or ru")->check(CLI::IsMember({"en", "fr", "ru"}));
  cmd->add_option("--seed", *seed, "Seed of the choice order")->capture_default_str();
  cmd->add_option("--template", *only, "Only these template ids (repeatable)");
  cmd->callback([&ctx, traces, lang, seed, only] {
    std::vector<shardlab::trace::Trace> runs;
    nlohmann::json described = nlohmann::json::array();
    for (const auto& file : *traces) {
      // A ShardLab trace or a PyTorch profiler trace (docs/pytorch-traces.md).
      auto opened = shardlab::trace::openTrace(file);
      if (opened.imported && opened.ok())
        std::cerr << "shardlab-quiz: " << file << ": imported from a PyTorch profiler trace; "
                  << opened.imported->describe() << "\n";
      auto& read = opened.read;
      if (!read.ok()) {
        // A damaged trace keeps what came before the damage: ask about that, and say so.
        std::cerr << "shardlab-quiz: " << opened.describeError(file) << "\n";
        if (read.trace.events.empty()) throw std::runtime_error("no events in " + file);
      }
      const auto run = describeRun(file, read.trace);
      described.push_back({{"file", file}, {"trace_hash", run ? run->hash : ""},
                           {"config", runConfig(read.trace)}, {"complete", read.ok()}});
      runs.push_back(std::move(read.trace));
    }
    for (const auto& id : *only)
      if (!findObservationTemplate(id))
        throw std::runtime_error("unknown template \"" + id + "\"; known: " + joined(observationTemplateIds()));
    useObservationAssets(ctx.assets());
    const auto questions = observe(runs[0], runs.size() > 1 ? &runs[1] : nullptr, only->empty() ? nullptr : only.get());
    nlohmann::json out = {{"format", 1}, {"lang", *lang}, {"seed", *seed}, {"traces", described}};
    out["questions"] = nlohmann::json::array();
    for (const auto& q : questions) out["questions"].push_back(q.toJson(*lang, *seed));
    std::cout << out.dump(2) << "\n";
    (void)ctx;
  });
}

void addResultsCommand(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("results", "Export learners' answers and scores (learner, time, first-attempt result, "
                                            "the run each was about) as CSV or JSON; without PROGRESS, every "
                                            "learner's file in the app's data folder");
  auto files = std::make_shared<std::vector<std::string>>();
  auto format = std::make_shared<std::string>("csv");
  auto classCsv = std::make_shared<bool>(false);
  auto output = std::make_shared<std::string>();
  cmd->add_option("PROGRESS", *files, "Progress files (default: progress.json and learners/*.json in the app's "
                                      "data folder, " + dataDirectory().string() + ")");
  cmd->add_option("--format", *format, "csv or json")->check(CLI::IsMember({"csv", "json"}))->capture_default_str();
  cmd->add_flag("--csv", *classCsv, "One CSV row per learner and question, over all the given files (for a class)");
  cmd->add_option("-o,--output", *output, "File to write (default: standard output)");
  cmd->callback([&ctx, files, format, classCsv, output] {
    std::vector<std::filesystem::path> paths(files->begin(), files->end());
    if (paths.empty()) {
      // The app's own folder: say where it is, so an instructor can find the files.
      const auto dir = dataDirectory();
      paths = progressFiles(dir);
      if (paths.empty())
        std::cerr << "shardlab-quiz: no progress yet in " << dir.string()
                  << " (the app writes progress.json there, or learners/<name>.json per learner)\n";
      for (const auto& p : paths) std::cerr << "shardlab-quiz: progress file " << p.string() << "\n";
    }
    std::vector<Progress> learners;
    for (const auto& p : paths) {
      if (!std::filesystem::exists(p)) throw std::runtime_error(p.string() + ": no such file");
      learners.push_back(Progress::load(p)); // a bad file throws, naming it
    }
    const auto text = *classCsv ? ResultsExporter::renderClassCsv(learners)
                      : *format == "csv" ? ResultsExporter::renderCsv(learners)
                                         : ResultsExporter::renderJson(learners);
    if (output->empty()) std::cout << text;
    else AtomicFile::write(*output, text);
    (void)ctx;
  });
}

const Lesson& findLesson(const LessonLibrary& lessons, const std::string& id) {
  const auto* lesson = lessons.find(id);
  if (!lesson) throw std::runtime_error("no lesson \"" + id + "\" (known: " + joined(knownLessonIds()) + ")");
  return *lesson;
}

void addSizeCommand(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("size", "Size a lesson for a machine (shardlab-run --calibrate's JSON) and print "
                                         "the chosen jobs, the conditions' estimates and the budget as JSON");
  auto id = std::make_shared<std::string>();
  auto calibrationFile = std::make_shared<std::string>();
  cmd->add_option("LESSON", *id, "Lesson id")->required();
  cmd->add_option("--calibration", *calibrationFile, "The machine's calibration (JSON)")->required();
  cmd->callback([&ctx, id, calibrationFile] {
    const auto assets = ctx.assets();
    const auto bank = QuestionBank::loadDirectory(assets / "quiz");
    const auto lessons = LessonLibrary::loadDirectory(assets / "lessons", &bank);
    const Lesson& lesson = findLesson(lessons, *id);
    std::string problem;
    const auto machine = shardlab::Calibration::readFile(*calibrationFile, problem);
    if (!machine) throw std::runtime_error(*calibrationFile + " " + problem);
    nlohmann::json out = {{"lesson", lesson.id}, {"runs", nlohmann::json::array()}};
    std::vector<JobSpec> runs;
    for (const auto& r : lesson.runs) runs.push_back(r.spec);
    if (lesson.sizing) {
      const LessonSize size = sizeLesson(runs, *lesson.sizing, *machine);
      runs = size.runs;
      out["sized"] = {{"ranks", size.ranks}, {"hidden", size.hidden}, {"batch", size.batch},
                      {"lesson_ranks", size.lessonRanks}, {"estimated_seconds", size.estimatedSeconds},
                      {"budget_seconds", size.budgetSeconds}, {"conditions", nlohmann::json::array()}};
      for (const auto& c : size.conditions)
        out["sized"]["conditions"].push_back({{"ratio", c.condition.ratio}, {"at_least", c.condition.atLeast},
                                              {"estimated", c.estimated}, {"met", c.met()}});
    }
    for (std::size_t i = 0; i < runs.size(); ++i)
      out["runs"].push_back({{"label", lesson.runs[i].label.get("en")}, {"spec", runs[i].toJson()}});
    std::cout << out.dump(2) << "\n";
  });
}

void addGuideCommand(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("guide", "Print a lesson's guide page filled from the job that ran (its trace) "
                                          "and the machine it ran on");
  auto id = std::make_shared<std::string>();
  auto traceFile = std::make_shared<std::string>();
  auto lang = std::make_shared<std::string>("en");
  cmd->add_option("LESSON", *id, "Lesson id")->required();
  cmd->add_option("--trace", *traceFile, "The run's trace (its job record names the job and the machine)")->required();
  cmd->add_option("--lang", *lang, "en, fr or ru")->check(CLI::IsMember({"en", "fr", "ru"}));
  cmd->callback([&ctx, id, traceFile, lang] {
    const auto assets = ctx.assets();
    const auto lessons = LessonLibrary::loadDirectory(assets / "lessons", nullptr);
    const Lesson& lesson = findLesson(lessons, *id);
    const auto read = shardlab::trace::readTraceFile(*traceFile);
    if (!read.trace.job)  // a damaged record is no record: the error names its field
      throw std::runtime_error(read.ok() ? *traceFile + " has no job record" : read.error->describe(*traceFile));
    shardlab::FileProblem why;
    const auto text = shardlab::readBoundedFile(lesson.guides.at(*lang).string(), shardlab::kNotesFileCap, why);
    if (!text) throw std::runtime_error(lesson.guides.at(*lang).string() + " " + why.text);
    std::cout << fillPlaceholders(*text, *lang, placeholderValues(read.trace.job->config, read.trace.job->calibration));
  });
}

void addCheckLessonCommand(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("check-lesson", "Check that a lesson's runs (their traces, in the lesson's order) "
                                                 "showed its point, as the app does after a lesson; print the "
                                                 "check as JSON; exit 1 when the point did not show");
  auto id = std::make_shared<std::string>();
  auto traces = std::make_shared<std::vector<std::string>>();
  auto unmet = std::make_shared<std::vector<std::string>>();
  auto lang = std::make_shared<std::string>("en");
  cmd->add_option("LESSON", *id, "Lesson id")->required();
  cmd->add_option("TRACE", *traces, "The lesson's runs' traces, in the lesson's order")->required();
  cmd->add_option("--unmet", *unmet, "A sizing condition this machine could not meet (shardlab-quiz size: "
                                     "sized.conditions[].ratio with met false; repeatable)");
  cmd->add_option("--lang", *lang, "en, fr or ru: the verdict's language")->check(CLI::IsMember({"en", "fr", "ru"}));
  cmd->callback([&ctx, id, traces, unmet, lang] {
    const auto assets = ctx.assets();
    useObservationAssets(assets);
    const auto lessons = LessonLibrary::loadDirectory(assets / "lessons", nullptr);
    const Lesson& lesson = findLesson(lessons, *id);
    std::vector<shardlab::trace::Trace> read;
    for (const auto& file : *traces) {
      auto r = shardlab::trace::readTraceFile(file);
      if (!r.ok()) std::cerr << "shardlab-quiz: " << r.error->describe(file) << "\n";
      read.push_back(std::move(r.trace));
    }
    std::vector<shardlab::trace::Summary> summaries;
    for (const auto& t : read) summaries.push_back(shardlab::trace::summarize(t));
    std::vector<CheckedRun> runs;
    for (std::size_t i = 0; i < read.size(); ++i)
      runs.push_back({&read[i], &summaries[i], i < lesson.runs.size() ? lesson.runs[i].label.get("en") : ""});
    const auto check = checkLesson(lesson.id, runs, *unmet);
    if (!check) throw std::runtime_error("these traces are not the runs of lesson \"" + lesson.id + "\"");
    const char* replay = check->replay == ReplayToShow::ScheduleAlone ? "schedule_alone"
                         : check->replay == ReplayToShow::Reference   ? "reference"
                                                                      : nullptr;
    const nlohmann::json out = {{"lesson", lesson.id},         {"figure", check->figure},
                                {"expected", check->expected}, {"measured", check->measured},
                                {"passed", check->passed},     {"verdict", check->verdict.get(*lang)},
                                {"replay", replay ? nlohmann::json(replay) : nlohmann::json()}};
    std::cout << out.dump(2) << "\n";
    if (!check->passed) ctx.exitCode = 1;
  });
}

} // namespace

int main(int argc, char** argv) {
  CLI::App app{"ShardLab quiz tool: question bank exports, lab validation, shuffled attempts, observation "
               "questions from your own runs, results"};
  Context ctx;
  app.add_option("--assets", ctx.assetsOption,
                 "Assets folder (default: $SHARDLAB_ASSETS, <exe>/../share/shardlab/assets, then the source tree's)");
  app.require_subcommand(1);
  const std::vector<std::function<void(CLI::App&, Context&)>> commands{
      addExportCommand, addValidateCommand, addShowCommand, addObserveCommand, addResultsCommand, addSizeCommand, addGuideCommand,
      addCheckLessonCommand};
  for (const auto& add : commands) add(app, ctx);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::cerr << "shardlab-quiz: " << e.what() << (std::string(e.what()).ends_with("\n") ? "" : "\n");
    return 1;
  }
  // What went to standard output reached it: a full disk or a closed pipe there is an
  // error (`export > /dev/full` said nothing and exited 0).
  std::cout.flush();
  if (std::fflush(stdout) != 0 || std::ferror(stdout) || !std::cout) {
    std::cerr << "shardlab-quiz: cannot write to standard output: " << std::strerror(errno) << "\n";
    return 1;
  }
  return ctx.exitCode;
}
