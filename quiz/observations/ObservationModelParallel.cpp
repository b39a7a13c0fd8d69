// Observation templates about model parallelism: bubble-fraction, bubble-change,
// activation-bytes-per-message, peak-activation-memory (pipelines) and
// tp-all-reduces-per-block (tensor parallelism).
#include "quiz/observations/ObservationSupport.h"

#include <algorithm>
#include <cmath>

namespace shardlab::quiz::observation {
namespace {

using text::localized;

// The parts of the gap between a measured bubble and (p−1)/(V·m+p−1): the theory is
// never a wrong answer; the question is what the run adds to it (hand-offs, waits on
// sends, neighbours waiting for a core) or takes from it (stage time the formula omits:
// the optimizer step, a heavier stage, a stage's own core waits recorded as compute).
const LocalizedText& fillAndDrainOnly() {
  static const LocalizedText t = localized(
      "Only the fill and drain the formula counts: the gap is within 5 points, the noise of a short run",
      "Seulement le remplissage et la vidange que compte la formule : l'écart reste sous 5 points, le bruit d'une "
      "exécution courte",
      "Только заполнение и опустошение, которые учитывает формула: разрыв меньше 5 пунктов, это шум короткого запуска");
  return t;
}
const LocalizedText& timeTheFormulaLeavesOut() {
  static const LocalizedText t = localized(
      "Time the formula leaves out: each hand-off between stages takes long next to a CPU rank's small compute, waits "
      "on the stage's own sends count as idle, and, when ranks outnumber the cores, the stage waits for neighbours "
      "that wait for a core",
      "Du temps que la formule ignore : chaque passage entre étages est long face au petit calcul d'un rang CPU, les "
      "attentes sur les propres envois de l'étage comptent comme inactivité et, quand les rangs sont plus nombreux que "
      "les cœurs, l'étage attend des voisins qui attendent un cœur",
      "Время, которого нет в формуле: каждая передача между стадиями долгая по сравнению с небольшими вычислениями "
      "CPU-ранга, ожидание собственных отправок стадии тоже считается простоем, а когда рангов больше, чем ядер, стадия "
      "ждёт соседей, которые сами ждут ядро");
  return t;
}
// Below the theory: every stage's optimizer step counts as its stage time and no stage
// idles during it (docs/replay.md, "Limits"); the last stage also computes the output
// layer and the loss; and with more ranks than cores a stage's own wait for a core is
// recorded as compute, not idle (docs/performance.md, "p = 4 is distorted").
const LocalizedText& unequalStages() {
  static const LocalizedText t = localized(
      "Unequal stages and stage time the formula omits: the optimizer step counts as stage time and no stage idles "
      "during it, this stage computes more than the others (the output layer and the loss), and, when ranks outnumber "
      "the cores, its own waits for a core are recorded as compute; so it is idle less than the formula says",
      "Des étages inégaux et du temps d'étage que la formule omet : le pas de l'optimiseur compte comme temps d'étage "
      "et aucun étage n'est inactif pendant ce temps, cet étage calcule plus que les autres (couche de sortie et "
      "perte) et, quand les rangs sont plus nombreux que les cœurs, ses propres attentes d'un cœur sont enregistrées "
      "comme du calcul ; il est donc moins inactif que ne le dit la formule",
      "Неравные стадии и время стадии, которого нет в формуле: шаг оптимизатора считается временем стадии, и ни одна "
      "стадия в это время не простаивает, эта стадия считает больше других (выходной слой и функция потерь), а когда "
      "рангов больше, чем ядер, её собственное ожидание ядра записывается как вычисление; поэтому она простаивает "
      "меньше, чем говорит формула");
  return t;
}

class BubbleFraction final : public ObservationTemplate {
public:
  std::string id() const override { return "bubble-fraction"; }
  std::optional<ObservedQuestion> generate(const ObservationInput& in) const override {
    const auto& b = in.summary.bubble;
    if (strategyOf(in.trace) != StrategyKind::Pipeline || !b.present || b.perStage.empty()) return std::nullopt;
    const int stage = static_cast<int>(b.perStage.size()) - 1; // the last stage waits longest for its first input
    const double measured = b.perStage.back();
    const double gap = measured - b.theory;
    constexpr double kNoise = 0.05;
    Draft d;
    d.templateId = id();
    d.lesson = "pipeline-bubble";
    d.moment = "bubble";
    const std::vector<std::string> args{b.schedule,
                                        std::to_string(b.stages),
                                        std::to_string(b.microbatches),
                                        std::to_string(stage),
                                        text::percent(measured),
                                        text::percent(b.theory),
                                        std::to_string(b.virtualStages),
                                        text::fixed(gap * 100.0, 1)};
    d.text = localized("Your pipeline run ({0} schedule, p = {1|stage|stages}, m = {2|micro-batch|micro-batches}, V = "
                       "{6}, the model chunks per rank): over the steady steps stage {3} was idle {4} of its time, "
                       "and the theory (p−1)/(V·m+p−1) gives {5}. What makes the gap of {7} points between the two?",
                       "Votre exécution en pipeline (ordonnancement {0}, p = {1|étage|étages}, m = "
                       "{2|micro-lot|micro-lots}, V = {6}, le nombre de morceaux du modèle par rang) : sur les pas "
                       "stables, l'étage {3} a été inactif {4} de son temps, et la théorie (p−1)/(V·m+p−1) donne {5}. "
                       "D'où vient l'écart de {7} points entre les deux ?",
                       "Ваш конвейерный запуск (расписание {0}, p = {1|стадия|стадии|стадий}, m = "
                       "{2|микробатч|микробатча|микробатчей}, V = {6} — число частей модели на ранг): на установившихся "
                       "шагах стадия {3} простаивала {4} времени, а теория (p−1)/(V·m+p−1) даёт {5}. Из чего "
                       "складывается разрыв в {7} пункта между ними?",
                       args);
    const LocalizedText* parts[] = {&fillAndDrainOnly(), &timeTheFormulaLeavesOut(), &unequalStages()};
    const std::size_t right = gap > kNoise ? 1 : gap < -kNoise ? 2 : 0;
    d.correct = *parts[right];
    for (std::size_t i = 0; i < 3; ++i)
      if (i != right) d.wrong.push_back(*parts[i]);
    d.wrong.push_back(localized("The formula holds only on GPUs: CPU ranks have no pipeline bubble, only slow messages",
                                "La formule ne vaut que sur GPU : des rangs CPU n'ont pas de bulle de pipeline, "
                                "seulement des messages lents",
                                "Формула верна только на GPU: у CPU-рангов нет конвейерного пузыря, есть только "
                                "медленные сообщения"));
    d.explanation = localized("Your summary: stage {3} was idle {4} of its steady-step time (bubble.per_stage); "
                              "(p−1)/(V·m+p−1) gives {5} for p = {1}, m = {2}, V = {6}. The formula counts only the "
                              "fill and drain of equal stages with free hand-offs, in a step of forwards and "
                              "backwards alone; it is the right value to expect, and a measurement sits near it, on "
                              "either side. Above it: the hand-offs' own time (large next to a CPU rank's compute), "
                              "waits on the stage's own sends, and, when ranks outnumber the cores, waits for "
                              "neighbours that wait for a core. Below it: stage time the formula omits, the "
                              "optimizer step (stage time, during which no stage idles), a stage that computes more "
                              "than the others (the last one: the output layer and the loss), and, when ranks "
                              "outnumber the cores, the stage's own waits for a core, recorded as compute.",
                              "Votre résumé : l'étage {3} a été inactif {4} du temps des pas stables "
                              "(bubble.per_stage) ; (p−1)/(V·m+p−1) donne {5} pour p = {1}, m = {2}, V = {6}. La "
                              "formule ne compte que le remplissage et la vidange d'étages égaux aux passages "
                              "gratuits, dans un pas fait des seules passes avant et arrière ; c'est la bonne valeur "
                              "à attendre, et une mesure reste proche, d'un côté ou de l'autre. Au-dessus : le temps "
                              "des passages eux-mêmes (grand face au calcul d'un rang CPU), les attentes sur les "
                              "propres envois de l'étage et, quand les rangs sont plus nombreux que les cœurs, "
                              "l'attente de voisins qui attendent un cœur. En dessous : du temps d'étage que la "
                              "formule omet, le pas de l'optimiseur (temps d'étage pendant lequel aucun étage n'est "
                              "inactif), un étage qui calcule plus que les autres (le dernier : couche de sortie et "
                              "perte) et, quand les rangs sont plus nombreux que les cœurs, les propres attentes d'un "
                              "cœur de l'étage, enregistrées comme du calcul.",
                              "Ваша сводка: стадия {3} простаивала {4} времени установившихся шагов "
                              "(bubble.per_stage); (p−1)/(V·m+p−1) даёт {5} при p = {1}, m = {2}, V = {6}. Формула "
                              "учитывает только заполнение и опустошение равных стадий с бесплатными передачами в "
                              "шаге из одних прямых и обратных проходов; это верное ожидаемое значение, и измерение "
                              "оказывается рядом с ним, выше или ниже. Выше: время самих передач (большое по сравнению "
                              "с вычислениями CPU-ранга), ожидание собственных отправок стадии и, когда рангов больше, "
                              "чем ядер, ожидание соседей, которые сами ждут ядро. Ниже: время стадии, которого нет в "
                              "формуле, — шаг оптимизатора (время стадии, когда ни одна стадия не простаивает), "
                              "стадия, которая считает больше других (последняя: выходной слой и функция потерь), и, "
                              "когда рангов больше, чем ядер, собственное ожидание ядра стадией, записанное как "
                              "вычисление.",
                              args);
    d.numeric = NumericAnswer{gap, kNoise, "fraction"};
    return finish(std::move(d), in);
  }
};

// Two pipeline runs with different micro-batch counts (m = 1 and m = 8, say). The
// theory's values are given in the question, and never offered as a wrong choice.
class BubbleChange final : public ObservationTemplate {
public:
  std::string id() const override { return "bubble-change"; }
  bool needsTwoRuns() const override { return true; }
  std::optional<ObservedQuestion> generate(const ObservationInput& in) const override {
    if (!in.second || !in.secondSummary) return std::nullopt;
    if (strategyOf(in.trace) != StrategyKind::Pipeline || strategyOf(*in.second) != StrategyKind::Pipeline)
      return std::nullopt;
    const auto &a = in.summary.bubble, &b = in.secondSummary->bubble;
    if (!a.present || !b.present || a.microbatches >= b.microbatches) return std::nullopt; // fewer first
    Draft d;
    d.templateId = id();
    d.lesson = "pipeline-bubble";
    d.moment = "bubble";
    d.evidenceRun = 1;
    const std::vector<std::string> args{std::to_string(a.microbatches), std::to_string(b.microbatches),
                                        text::percent(a.measured), text::percent(b.measured), text::percent(a.theory),
                                        text::percent(b.theory), std::to_string(b.stages)};
    d.text = localized("Your two pipeline runs on {6|stage|stages}: from m = {0} to m = {1} micro-batches the theory "
                       "(p−1)/(V·m+p−1), with V = 1 model chunk per rank, goes from {4} to {5}. How did the measured bubble (idle over stage "
                       "time, steady steps, all stages) change?",
                       "Vos deux exécutions en pipeline sur {6|étage|étages} : de m = {0} à m = {1} micro-lots, la "
                       "théorie (p−1)/(V·m+p−1), avec V = 1 morceau du modèle par rang, passe de {4} à {5}. Comment la bulle mesurée (inactivité sur "
                       "temps d'étage, pas stables, tous les étages) a-t-elle changé ?",
                       "Ваши два конвейерных запуска на {6|стадии|стадиях|стадиях}: при переходе от m = {0} к m = {1} "
                       "микробатчам теория (p−1)/(V·m+p−1), где V = 1 — одна часть модели на ранг, меняется с {4} до {5}. Как изменился измеренный "
                       "пузырь (простой к времени стадии, установившиеся шаги, все стадии)?",
                       args);
    auto change = [&](double from, double to) {
      return localized("From {0} to {1}", "De {0} à {1}", "С {0} до {1}", {text::percent(from), text::percent(to)});
    };
    d.correct = change(a.measured, b.measured);
    std::vector<double> candidates;
    for (double v : {a.measured, a.measured / b.microbatches * a.microbatches, 0.0, std::min(1.0, a.measured * 1.5), 0.5,
                     0.9})
      if (std::abs(v - b.theory) >= 0.05) candidates.push_back(v); // the theory's value is not wrong
    for (double v : distinctFrom(b.measured, candidates, 0.05, false)) d.wrong.push_back(change(a.measured, v));
    d.explanation = localized("Your summaries: bubble.measured was {2} with m = {0} and {3} with m = {1}; the theory "
                              "predicts {4} and {5}. More micro-batches fill the pipeline for a larger share of the "
                              "step. The measured values sit near the theory, on either side: above it by time it "
                              "leaves out (the hand-offs between stages, m times more of them, each smaller; waits on "
                              "a stage's own sends; when ranks outnumber the cores, waits for neighbours that wait "
                              "for a core), below it by stage time it omits (the optimizer step, during which no "
                              "stage idles; when ranks outnumber the cores, a stage's own waits for a core, recorded "
                              "as compute).",
                              "Vos résumés : bubble.measured valait {2} avec m = {0} et {3} avec m = {1} ; la théorie "
                              "prédit {4} et {5}. Plus de micro-lots remplissent le pipeline sur une plus grande "
                              "part du pas. Les valeurs mesurées restent proches de la théorie, d'un côté ou de "
                              "l'autre : au-dessus par du temps qu'elle ignore (les passages entre étages, m fois "
                              "plus nombreux, chacun plus petit ; les attentes sur les propres envois d'un étage ; "
                              "quand les rangs sont plus nombreux que les cœurs, l'attente de voisins qui attendent "
                              "un cœur), en dessous par du temps d'étage qu'elle omet (le pas de l'optimiseur, "
                              "pendant lequel aucun étage n'est inactif ; quand les rangs sont plus nombreux que les "
                              "cœurs, les propres attentes d'un cœur d'un étage, enregistrées comme du calcul).",
                              "Ваши сводки: bubble.measured был {2} при m = {0} и {3} при m = {1}; теория "
                              "предсказывает {4} и {5}. Больше микробатчей заполняют конвейер на большей части шага. "
                              "Измеренные значения близки к теории, выше или ниже неё: выше — из-за времени, которого "
                              "в ней нет (передачи между стадиями, их в m раз больше, каждая меньше; ожидание "
                              "собственных отправок стадии; когда рангов больше, чем ядер, ожидание соседей, которые "
                              "сами ждут ядро), ниже — из-за времени стадии, которое она опускает (шаг оптимизатора, "
                              "когда ни одна стадия не простаивает; когда рангов больше, чем ядер, собственное "
                              "ожидание ядра стадией, записанное как вычисление).",
                              args);
    d.numeric = NumericAnswer{b.measured - a.measured, 0.05, "fraction"};
    return finish(std::move(d), in);
  }
};

class ActivationBytesPerMessage final : public ObservationTemplate {
public:
  std::string id() const override { return "activation-bytes-per-message"; }
  std::optional<ObservedQuestion> generate(const ObservationInput& in) const override {
    if (strategyOf(in.trace) != StrategyKind::Pipeline) return std::nullopt;
    const auto moment = findMoment(in.trace, in.summary, "activation_send");
    if (!moment) return std::nullopt;
    const auto& e = in.trace.events[moment->eventIndex];
    const std::int64_t rows = e.rows, cols = e.cols;
    const std::int64_t batch = in.trace.config()->batch;  // a pipeline run has a job record
    const std::vector<std::int64_t> candidates{rows * cols, batch * cols * 4, rows * cols * 16, e.bytes * 2};
    Draft d;
    d.templateId = id();
    d.lesson = "pipeline-bubble";
    d.moment = "activation_send";
    d.text = localized("Your pipeline run (batch of {0|token|tokens}, {1|micro-batch|micro-batches}, hidden width {2}): how many bytes was "
                       "one activation message from rank {3} to rank {4}, and why?",
                       "Votre exécution en pipeline (lot de {0|jeton|jetons}, {1|micro-lot|micro-lots}, largeur cachée {2}) : combien "
                       "d'octets faisait un message d'activation du rang {3} au rang {4}, et pourquoi ?",
                       "Ваш конвейерный запуск (батч из {0|токена|токенов|токенов}, {1|микробатч|микробатча|микробатчей}, скрытая "
                       "ширина {2}): сколько байт было в одном сообщении с активацией от ранга {3} к рангу {4} и почему?",
                       {std::to_string(batch), std::to_string(in.summary.bubble.microbatches), std::to_string(cols),
                        std::to_string(e.rank), std::to_string(e.peer)});
    d.correct = localized("{0}: {1|row|rows} (one micro-batch) × {2} hidden × 4 bytes (fp32)",
                          "{0} : {1|ligne|lignes} (un micro-lot) × {2} de largeur × 4 octets (fp32)",
                          "{0}: {1|строка|строки|строк} (один микробатч) × ширина {2} × 4 байта (fp32)",
                          {text::bytes(e.bytes), std::to_string(rows), std::to_string(cols)});
    const std::vector<LocalizedText> reasons{
        localized("{0}: {1|row|rows} × {2} hidden, one byte per value", "{0} : {1|ligne|lignes} × {2} de largeur, un octet par valeur",
                  "{0}: {1|строка|строки|строк} × ширина {2}, один байт на значение",
                  {text::bytes(rows * cols), std::to_string(rows), std::to_string(cols)}),
        localized("{0}: the whole batch of {1|token|tokens} × {2} hidden × 4 bytes", "{0} : tout le lot de {1|jeton|jetons} × {2} × 4 octets",
                  "{0}: весь батч из {1|токена|токенов|токенов} × {2} × 4 байта",
                  {text::bytes(batch * cols * 4), std::to_string(batch), std::to_string(cols)}),
        localized("{0}: {1|row|rows} × the block's inner width 4 × {2} × 4 bytes",
                  "{0} : {1|ligne|lignes} × la largeur interne du bloc 4 × {2} × 4 octets",
                  "{0}: {1|строка|строки|строк} × внутренняя ширина блока 4 × {2} × 4 байта",
                  {text::bytes(rows * cols * 16), std::to_string(rows), std::to_string(cols)}),
        localized("{0}: the activation and its gradient travel together", "{0} : l'activation et son gradient voyagent ensemble",
                  "{0}: активация и её градиент передаются вместе", {text::bytes(e.bytes * 2)})};
    for (std::size_t i = 0; i < reasons.size(); ++i)
      if (candidates[i] != e.bytes) d.wrong.push_back(reasons[i]);
    d.explanation = localized("Your trace's send record: a {0}×{1} tensor, {2}. A stage passes one micro-batch's "
                              "output of the last layer it runs: rows = batch / micro-batches = {0}, columns = hidden "
                              "= {1}, 4 bytes per fp32 value.",
                              "L'enregistrement send de votre trace : un tenseur de {0}×{1}, {2}. Un étage transmet la "
                              "sortie de sa dernière couche pour un micro-lot : lignes = lot / micro-lots = {0}, "
                              "colonnes = largeur = {1}, 4 octets par valeur fp32.",
                              "Запись send в вашей трассе: тензор {0}×{1}, {2}. Стадия передаёт выход своего "
                              "последнего слоя для одного микробатча: строк = батч / микробатчи = {0}, столбцов = "
                              "ширина = {1}, 4 байта на значение fp32.",
                              {std::to_string(rows), std::to_string(cols), text::bytes(e.bytes)});
    d.numeric = NumericAnswer{static_cast<double>(e.bytes), 0.0, "bytes"};
    return finish(std::move(d), in);
  }
};

class PeakActivationMemory final : public ObservationTemplate {
public:
  std::string id() const override { return "peak-activation-memory"; }
  std::optional<ObservedQuestion> generate(const ObservationInput& in) const override {
    if (strategyOf(in.trace) != StrategyKind::Pipeline || in.summary.ranksDetail.empty()) return std::nullopt;
    const auto& r = in.summary.ranksDetail.front();
    const auto peak = r.peakByCategory[static_cast<std::size_t>(trace::Category::Activations)];
    if (peak <= 0) return std::nullopt;
    const int m = std::max(1, in.summary.bubble.microbatches);
    const double p = static_cast<double>(peak);
    Draft d;
    d.templateId = id();
    d.lesson = m > 1 ? "gpipe-vs-1f1b" : "pipeline-bubble";
    d.moment = "activation_send";
    d.text = localized("Your pipeline run ({0} schedule, {1|micro-batch|micro-batches}): what was rank {2}'s peak of saved "
                       "activation memory?",
                       "Votre exécution en pipeline (ordonnancement {0}, {1|micro-lot|micro-lots}) : quel a été le pic de "
                       "mémoire d'activations sauvegardées du rang {2} ?",
                       "Ваш конвейерный запуск (расписание {0}, {1|микробатч|микробатча|микробатчей}): каким был пик памяти сохранённых "
                       "активаций ранга {2}?",
                       {in.summary.bubble.schedule, std::to_string(m), std::to_string(r.rank)});
    d.correct = same(text::bytes(peak));
    for (double v : distinctFrom(p, {p * m, p / m, p * 2, p / 2, p * 4, p / 4}, 0.2, true))
      d.wrong.push_back(same(text::bytes(static_cast<std::int64_t>(std::llround(v)))));
    d.explanation = localized("Your summary: peak_by_category.activations = {0} on rank {1}. GPipe runs every "
                              "micro-batch's forward before any backward, so a stage keeps all {2} micro-batches' "
                              "activations at once; 1F1B starts backwards early and keeps at most about p of them.",
                              "Votre résumé : peak_by_category.activations = {0} sur le rang {1}. GPipe fait la passe "
                              "avant de tous les micro-lots avant toute passe arrière : un étage garde les activations "
                              "des {2} micro-lots à la fois ; 1F1B commence les passes arrière tôt et en garde au plus "
                              "environ p.",
                              "Ваша сводка: peak_by_category.activations = {0} на ранге {1}. GPipe выполняет прямой "
                              "проход всех микробатчей до любого обратного, поэтому стадия хранит активации всех {2} "
                              "микробатчей сразу; 1F1B начинает обратные проходы рано и хранит не больше примерно p "
                              "из них.",
                              {text::bytes(peak), std::to_string(r.rank), std::to_string(m)});
    d.numeric = NumericAnswer{p, 0.05 * p, "bytes"};
    return finish(std::move(d), in);
  }
};

class TpAllReducesPerBlock final : public ObservationTemplate {
public:
  std::string id() const override { return "tp-all-reduces-per-block"; }
  std::optional<ObservedQuestion> generate(const ObservationInput& in) const override {
    if (strategyOf(in.trace) != StrategyKind::Tp) return std::nullopt;
    const int blocks = blockCount(in.trace);
    const auto it = in.summary.collectives.find("all_reduce");
    const int steps = in.summary.stepsCompleted;
    if (blocks <= 0 || steps <= 0 || it == in.summary.collectives.end() || in.summary.steps != steps) return std::nullopt;
    const std::int64_t count = it->second.count;
    if (count <= 0 || count % (static_cast<std::int64_t>(steps) * blocks) != 0) return std::nullopt;
    const std::int64_t perBlock = count / (static_cast<std::int64_t>(steps) * blocks);
    const auto b = std::to_string(blocks), n = std::to_string(in.summary.ranks);
    std::vector<std::pair<std::int64_t, LocalizedText>> options{
        {2, localized("2: one after the row-parallel layer in the forward, one for the input gradient in the backward",
                      "2 : un après la couche parallèle en lignes dans la passe avant, un pour le gradient d'entrée "
                      "dans la passe arrière",
                      "2: один после построчно-параллельного слоя в прямом проходе, один для градиента входа в обратном")},
        {1, localized("1: only in the forward, to sum the partial outputs",
                      "1 : seulement dans la passe avant, pour sommer les sorties partielles",
                      "1: только в прямом проходе, чтобы сложить частичные выходы")},
        {4, localized("4: one after each of the two matrix products, in the forward and in the backward",
                      "4 : un après chacun des deux produits matriciels, dans la passe avant et dans la passe arrière",
                      "4: по одному после каждого из двух матричных умножений, в прямом и в обратном проходе")},
        {0, localized("0: each rank computes its slice independently; only the gradients are averaged at the end",
                      "0 : chaque rang calcule sa tranche indépendamment ; seuls les gradients sont moyennés à la fin",
                      "0: каждый ранг считает свою часть независимо; усредняются только градиенты в конце")},
        {3, localized("3: forward, backward and the optimizer step each need one",
                      "3 : la passe avant, la passe arrière et l'optimiseur en ont chacun besoin",
                      "3: по одному нужно прямому проходу, обратному и шагу оптимизатора")}};
    Draft d;
    d.templateId = id();
    d.lesson = "tensor-parallel";
    d.moment = "tp_all_reduce";
    d.text = localized("Your tensor-parallel run ({0|rank|ranks}, {1|block|blocks}): how many all-reduces did one rank issue per "
                       "block per training step, and why?",
                       "Votre exécution en parallélisme tensoriel ({0|rang|rangs}, {1|bloc|blocs}) : combien d'all-reduces un "
                       "rang a-t-il lancés par bloc et par pas d'entraînement, et pourquoi ?",
                       "Ваш запуск с тензорным параллелизмом ({0|ранг|ранга|рангов}, {1|блок|блока|блоков}): сколько all-reduce выполнил "
                       "один ранг на блок за шаг обучения и почему?",
                       {n, b});
    bool matched = false;
    for (auto& [k, label] : options) {
      if (k == perBlock) {
        d.correct = label;
        matched = true;
      } else {
        d.wrong.push_back(label);
      }
    }
    if (!matched) d.correct = localized("{0}, as your trace counts", "{0}, comme le compte votre trace", "{0}, как показывает ваша трасса",
                                        {std::to_string(perBlock)});
    d.explanation = localized("Your summary: {0} all-reduces per rank over {1|step|steps} and {2|block|blocks}, {3} per block per "
                              "step. A Megatron block splits its first matrix by columns and its second by rows: the "
                              "forward sums the row-parallel partial outputs, and the backward sums the input "
                              "gradients of the column-parallel layer. ShardLab's block is an MLP only, hence 1 + 1; a "
                              "Transformer layer adds attention, split the same way: 2 + 2 per layer.",
                              "Votre résumé : {0} all-reduces par rang sur {1} pas et {2|bloc|blocs}, soit {3} par bloc et "
                              "par pas. Un bloc Megatron découpe sa première matrice en colonnes et la seconde en "
                              "lignes : la passe avant somme les sorties partielles de la couche en lignes, la passe "
                              "arrière les gradients d'entrée de la couche en colonnes. Le bloc de ShardLab n'est qu'un "
                              "MLP, d'où 1 + 1 ; une couche Transformer y ajoute l'attention, découpée de même : 2 + 2 "
                              "par couche.",
                              "Ваша сводка: {0} all-reduce на ранг за {1|шаг|шага|шагов} и {2|блок|блока|блоков} — {3} на блок за шаг. "
                              "Блок Megatron делит первую матрицу по столбцам, а вторую по строкам: прямой проход "
                              "складывает частичные выходы построчного слоя, обратный — градиенты входа слоя по "
                              "столбцам. Блок ShardLab — только MLP, отсюда 1 + 1; слой Transformer добавляет внимание, "
                              "разделённое так же: 2 + 2 на слой.",
                              {std::to_string(count), std::to_string(steps), b, std::to_string(perBlock)});
    d.numeric = NumericAnswer{static_cast<double>(perBlock), 0.0, "count"};
    return finish(std::move(d), in);
  }
};

} // namespace

std::vector<std::unique_ptr<ObservationTemplate>> modelParallelTemplates() {
  std::vector<std::unique_ptr<ObservationTemplate>> v;
  v.push_back(std::make_unique<BubbleFraction>());
  v.push_back(std::make_unique<BubbleChange>());
  v.push_back(std::make_unique<ActivationBytesPerMessage>());
  v.push_back(std::make_unique<PeakActivationMemory>());
  v.push_back(std::make_unique<TpAllReducesPerBlock>());
  return v;
}

} // namespace shardlab::quiz::observation
