<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ru">
<context>
    <name>Appearance</name>
    <message>
        <source>Light theme</source>
        <translation>Светлая тема</translation>
    </message>
    <message>
        <source>Dark theme</source>
        <translation>Тёмная тема</translation>
    </message>
    <message>
        <source>Presentation mode (large)</source>
        <translation>Режим презентации (крупно)</translation>
    </message>
    <message>
        <source>Larger text</source>
        <translation>Крупнее текст</translation>
    </message>
    <message>
        <source>Smaller text</source>
        <translation>Мельче текст</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Язык</translation>
    </message>
</context>
<context>
    <name>Captions</name>
    <message>
        <source> (micro-batch %1)</source>
        <translation> (микробатч %1)</translation>
    </message>
    <message>
        <source>Rank %1 computes %2 of %3%4 in step %5 — %6</source>
        <translation>Ранг %1 вычисляет %2 для %3%4 на шаге %5 — %6</translation>
    </message>
    <message numerus="yes">
        <source>Rank %1 all-reduces %2 of %3 with rank(s) %4: every rank ends with the sum — %5</source>
        <translation>
            <numerusform>Ранг %1 выполняет all-reduce %2 для %3 с рангом %4: у каждого ранга оказывается сумма — %5</numerusform>
            <numerusform>Ранг %1 выполняет all-reduce %2 для %3 с рангами %4: у каждого ранга оказывается сумма — %5</numerusform>
            <numerusform>Ранг %1 выполняет all-reduce %2 для %3 с рангами %4: у каждого ранга оказывается сумма — %5</numerusform>
        </translation>
    </message>
    <message>
        <source>Rank %1 sends %2 (%3×%4) to rank %5%6 — %7</source>
        <translation>Ранг %1 отправляет %2 (%3×%4) рангу %5%6 — %7</translation>
    </message>
    <message>
        <source>Rank %1 receives %2 (%3×%4) from rank %5%6 — %7</source>
        <translation>Ранг %1 получает %2 (%3×%4) от ранга %5%6 — %7</translation>
    </message>
    <message>
        <source>Rank %1: %2 of %3, %4 — %5</source>
        <translation>Ранг %1: %2 для %3, %4 — %5</translation>
    </message>
    <message>
        <source>Rank %1 runs out of memory: %2 needs %3 more, it holds %4 and the budget is %5</source>
        <translation>Рангу %1 не хватает памяти: %2 требует ещё %3, он держит %4, а бюджет — %5</translation>
    </message>
    <message>
        <source> of %1</source>
        <translation> из %1</translation>
    </message>
    <message>
        <source>Rank %1 failed: %2</source>
        <translation>Ранг %1 завершился с ошибкой: %2</translation>
    </message>
    <message>
        <source>Rank %1 finished step %2 (loss %3)</source>
        <translation>Ранг %1 закончил шаг %2 (потери %3)</translation>
    </message>
    <message>
        <source>Rank %1 %2 %3 of %4 for %5; it now holds %6</source>
        <translation>Ранг %1 %2 %3 (%4, модуль %5); теперь он держит %6</translation>
    </message>
    <message>
        <source>allocates</source>
        <translation>выделяет</translation>
    </message>
    <message>
        <source>frees</source>
        <translation>освобождает</translation>
    </message>
    <message numerus="yes">
        <source>Rank %1 all-gathers %2: %n shard(s) of %3 from ranks %4 — %5</source>
        <translation>
            <numerusform>Ранг %1 выполняет all-gather для %2: %n шард по %3 от ранга %4 — %5</numerusform>
            <numerusform>Ранг %1 выполняет all-gather для %2: %n шарда по %3 от рангов %4 — %5</numerusform>
            <numerusform>Ранг %1 выполняет all-gather для %2: %n шардов по %3 от рангов %4 — %5</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Rank %1 reduce-scatters the gradients of %2: sends %n slice(s) of %3 to ranks %4 and keeps its own — %5</source>
        <translation>
            <numerusform>Ранг %1 выполняет reduce-scatter градиентов %2: отправляет %n часть по %3 рангу %4 и оставляет свою — %5</numerusform>
            <numerusform>Ранг %1 выполняет reduce-scatter градиентов %2: отправляет %n части по %3 рангам %4 и оставляет свою — %5</numerusform>
            <numerusform>Ранг %1 выполняет reduce-scatter градиентов %2: отправляет %n частей по %3 рангам %4 и оставляет свою — %5</numerusform>
        </translation>
    </message>
    <message>
        <source>Rank %1 is idle, %2%3 — %4 of pipeline bubble</source>
        <translation>Ранг %1 простаивает, %2%3 — %4 пузыря конвейера</translation>
    </message>
    <message>
        <source>Rank %1 is idle, %2%3 — %4 of exposed communication</source>
        <translation>Ранг %1 простаивает, %2%3 — %4 неперекрытого обмена (exposed communication)</translation>
    </message>
    <message>
        <source>%1 · rank %2 waited %3 of it for a CPU core (CPU time %4)</source>
        <translation>%1 · ранг %2 из них %3 ждал ядро процессора (процессорное время %4)</translation>
    </message>
</context>
<context>
    <name>Format</name>
    <message>
        <source>%1 ns</source>
        <translation>%1 нс</translation>
    </message>
    <message>
        <source>%1 µs</source>
        <translation>%1 мкс</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 мс</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 с</translation>
    </message>
    <message>
        <source>%1 and %2</source>
        <translation>%1 и %2</translation>
    </message>
    <message>
        <source>KiB</source>
        <translation>КиБ</translation>
    </message>
    <message>
        <source>MiB</source>
        <translation>МиБ</translation>
    </message>
    <message>
        <source>GiB</source>
        <translation>ГиБ</translation>
    </message>
    <message>
        <source>B</source>
        <translation>Б</translation>
    </message>
    <message>
        <source>exited with status %1</source>
        <translation>завершился с кодом %1</translation>
    </message>
    <message>
        <source>killed by signal %1</source>
        <translation>убит сигналом %1</translation>
    </message>
    <message>
        <source>killed by signal %1 (%2)</source>
        <translation>убит сигналом %1 (%2)</translation>
    </message>
    <message>
        <source>stopped the job (MPI_Abort, error code %1)</source>
        <translation>остановил задачу (`MPI_Abort`, код ошибки %1)</translation>
    </message>
    <message>
        <source>out of memory on rank %1: needs %2 for %3, budget %4, holding %5</source>
        <translation>нехватка памяти на ранге %1: нужно %2 (%3), бюджет %4, занято %5</translation>
    </message>
    <message>
        <source>hang: %1 had not finished after %2 s (Hang timeout in the Experiment form); its flight recorder is in the trace</source>
        <translation>зависание: %1 не завершилась за %2 с (Тайм-аут зависания в форме «Эксперимент»); её бортовой журнал записан в трассу</translation>
    </message>
    <message>
        <source>parameter shard</source>
        <translation>шард параметров</translation>
    </message>
    <message>
        <source>parameter replica</source>
        <translation>реплика параметров</translation>
    </message>
    <message>
        <source>gathered parameters</source>
        <translation>собранные параметры</translation>
    </message>
    <message>
        <source>gradients</source>
        <translation>градиенты</translation>
    </message>
    <message>
        <source>gradient shard</source>
        <translation>шард градиентов</translation>
    </message>
    <message>
        <source>optimizer state</source>
        <translation>состояние оптимизатора</translation>
    </message>
    <message>
        <source>activations</source>
        <translation>активации</translation>
    </message>
    <message>
        <source>comm buffers</source>
        <translation>буферы обмена</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>прямой проход</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>обратный проход</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>оптимизатор</translation>
    </message>
    <message>
        <source>all-gather</source>
        <translation>all-gather</translation>
    </message>
    <message>
        <source>reduce-scatter</source>
        <translation>reduce-scatter</translation>
    </message>
    <message>
        <source>all-reduce</source>
        <translation>all-reduce</translation>
    </message>
    <message>
        <source>send</source>
        <translation>отправка</translation>
    </message>
    <message>
        <source>receive</source>
        <translation>приём</translation>
    </message>
    <message>
        <source>broadcast</source>
        <translation>broadcast</translation>
    </message>
    <message>
        <source>waiting for an activation</source>
        <translation>ожидание активации</translation>
    </message>
    <message>
        <source>waiting for a gradient</source>
        <translation>ожидание градиента</translation>
    </message>
    <message>
        <source>waiting for a collective</source>
        <translation>ожидание коллективной операции</translation>
    </message>
    <message>
        <source>%1 from rank %2</source>
        <translation>%1 от ранга %2</translation>
    </message>
    <message>
        <source>%1 to rank %2</source>
        <translation>%1 рангу %2</translation>
    </message>
    <message>
        <source>%1 in step %2</source>
        <translation>%1 на шаге %2</translation>
    </message>
    <message>
        <source>%1 (micro-batch %2)</source>
        <translation>%1 (микробатч %2)</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <comment>a memory category of a unit</comment>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <comment>a call of a unit</comment>
        <translation>%1 для %2</translation>
    </message>
    <message numerus="yes">
        <source>%1… (%n more characters in the trace)</source>
        <translation>
            <numerusform>%1… (ещё %n символ в трассе)</numerusform>
            <numerusform>%1… (ещё %n символа в трассе)</numerusform>
            <numerusform>%1… (ещё %n символов в трассе)</numerusform>
        </translation>
    </message>
    <message>
        <source>backward, input gradient</source>
        <translation>обратный проход, градиент по входу</translation>
    </message>
    <message>
        <source>backward, weight gradients</source>
        <translation>обратный проход, градиенты весов</translation>
    </message>
    <message>
        <source>uncategorised</source>
        <translation>без категории</translation>
    </message>
</context>
<context>
    <name>HelpMenu</name>
    <message>
        <source>&lt;p&gt;They work wherever the focus is in the window, also when the timeline or the rank view has it (click a view to give it the focus). In a text field being edited, Space and the arrows type and move the cursor; saving a prediction gives the keys back to the view.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Они работают, где бы ни был фокус в окне, в том числе когда он на временной шкале или на виде рангов (щёлкните по виду, чтобы передать ему фокус). В редактируемом текстовом поле пробел и стрелки вводят текст и двигают курсор; после сохранения прогноза клавиши снова управляют видом.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;In the timeline: mouse wheel zooms, dragging pans, a click moves the playhead.&lt;/p&gt;</source>
        <translation>&lt;p&gt;На временной шкале: колесо мыши масштабирует, перетаскивание сдвигает, щелчок ставит курсор воспроизведения.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Справка</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>&amp;Горячие клавиши</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Горячие клавиши</translation>
    </message>
    <message>
        <source>&amp;About ShardLab</source>
        <translation>&amp;О ShardLab</translation>
    </message>
    <message>
        <source>About ShardLab</source>
        <translation>О ShardLab</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;ShardLab %1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Teaches distributed training by running small real jobs under Open MPI and replaying what they recorded.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;ShardLab %1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Обучает распределённому обучению: запускает небольшие реальные задачи под Open MPI и воспроизводит то, что они записали.&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>JobRule</name>
    <message>
        <source>must be a JSON object</source>
        <translation>должно быть объектом JSON</translation>
    </message>
    <message>
        <source>unknown key</source>
        <translation>неизвестный ключ</translation>
    </message>
    <message>
        <source>must be an integer</source>
        <translation>должно быть целым числом</translation>
    </message>
    <message>
        <source>must be a non-negative integer</source>
        <translation>должно быть неотрицательным целым числом</translation>
    </message>
    <message>
        <source>must be a number</source>
        <translation>должно быть числом</translation>
    </message>
    <message>
        <source>must be a string</source>
        <translation>должно быть строкой</translation>
    </message>
    <message>
        <source>must be true or false</source>
        <translation>должно быть true или false</translation>
    </message>
    <message>
        <source>must be a list of unit counts</source>
        <translation>должно быть списком чисел модулей</translation>
    </message>
    <message>
        <source>must be a size such as 3MiB or a number of bytes</source>
        <translation>должно быть размером вроде 3MiB или числом байтов</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a size (use bytes, KiB, MiB or GiB)</source>
        <translation>«%1» — не размер (укажите байты, KiB, MiB или GiB)</translation>
    </message>
    <message>
        <source>must be one of %1 (got &apos;%2&apos;)</source>
        <translation>должно быть одним из значений %1 (получено «%2»)</translation>
    </message>
    <message>
        <source>must be between %1 and %2 (got %3)</source>
        <translation>должно быть от %1 до %2 (получено %3)</translation>
    </message>
    <message>
        <source>must be at least %1 (got %2)</source>
        <translation>должно быть не меньше %1 (получено %2)</translation>
    </message>
    <message>
        <source>must be a positive number</source>
        <translation>должно быть положительным числом</translation>
    </message>
    <message>
        <source>must not be negative</source>
        <translation>не может быть отрицательным</translation>
    </message>
    <message>
        <source>the global batch (%1) must be divisible by ranks (%2)</source>
        <translation>глобальный батч (%1) должен делиться на число рангов (%2)</translation>
    </message>
    <message>
        <source>the naive schedule runs the whole batch at once (use 1, or gpipe/1f1b)</source>
        <translation>расписание naive обрабатывает весь батч сразу (укажите 1 или выберите gpipe/1f1b)</translation>
    </message>
    <message>
        <source>must divide the global batch (%1 is not divisible by %2)</source>
        <translation>должно делить глобальный батч (%1 не делится на %2)</translation>
    </message>
    <message>
        <source>a pipeline of %1 stages needs at least as many units, the model has %2 (layers + 2)</source>
        <translation>конвейеру нужно не меньше модулей, чем стадий (стадий: %1), а модулей в модели: %2 (layers + 2)</translation>
    </message>
    <message>
        <source>the interleaved schedule cuts the model into ranks x virtual stages = %1 chunks of at least one unit, the model has %2 (layers + 2)</source>
        <translation>расписание interleaved режет модель на части (ранги × виртуальные стадии = %1), в каждой хотя бы один модуль, а модулей в модели: %2 (layers + 2)</translation>
    </message>
    <message>
        <source>the interleaved schedule needs at least 2 chunks per rank</source>
        <translation>расписанию interleaved нужно не меньше 2 частей на ранг</translation>
    </message>
    <message>
        <source>the interleaved schedule needs at least 2 ranks (its chunks alternate between ranks)</source>
        <translation>расписанию interleaved нужно не меньше 2 рангов (его части чередуются между рангами)</translation>
    </message>
    <message>
        <source>only the interleaved schedule uses virtual stages</source>
        <translation>виртуальные стадии использует только расписание interleaved</translation>
    </message>
    <message>
        <source>the interleaved schedule needs a multiple of the stage count (%1), got %2</source>
        <translation>расписанию interleaved нужно число, кратное числу стадий (%1), получено %2</translation>
    </message>
    <message>
        <source>expected %1 unit counts, one per stage (per chunk when interleaved), got %2</source>
        <translation>ожидалось чисел модулей: %1, по одному на стадию (на часть при interleaved), получено: %2</translation>
    </message>
    <message>
        <source>unit counts must add up to the model&apos;s %1 units</source>
        <translation>сумма чисел модулей должна равняться числу модулей модели (%1)</translation>
    </message>
    <message>
        <source>every stage needs at least one unit</source>
        <translation>каждой стадии нужен хотя бы один модуль</translation>
    </message>
    <message>
        <source>the tensor-parallel degree (%1) must divide hidden (%2) and 4 x hidden (%3)</source>
        <translation>степень тензорного параллелизма (%1) должна делить hidden (%2) и 4 × hidden (%3)</translation>
    </message>
    <message>
        <source>hybrid sharding needs the number of ranks per shard group</source>
        <translation>гибридному шардированию нужно число рангов в группе шардирования</translation>
    </message>
    <message>
        <source>the shard group (%1 ranks) must divide the ranks (%2) into equal groups</source>
        <translation>группа шардирования (рангов в группе: %1) должна делить ранги (%2) на равные группы</translation>
    </message>
    <message>
        <source>only FSDP&apos;s hybrid sharding uses a shard group</source>
        <translation>группа шардирования нужна только гибридному шардированию FSDP</translation>
    </message>
    <message>
        <source>only DDP and FSDP have this option (the strategy is %1)</source>
        <translation>эта опция есть только у DDP и FSDP (стратегия: %1)</translation>
    </message>
    <message>
        <source>the global batch (%1) must split into ranks (%2) x micro-steps (%3) equal micro-batches</source>
        <translation>глобальный батч (%1) должен делиться на ранги (%2) × микрошаги (%3) равных микробатчей</translation>
    </message>
    <message>
        <source>no_sync skips the reduction of every micro-step but the last: it needs at least 2 micro-steps (accumulate)</source>
        <translation>`no_sync` пропускает сведение на всех микрошагах, кроме последнего: нужно не меньше 2 микрошагов (`accumulate`)</translation>
    </message>
    <message>
        <source>%1 is implemented for FSDP&apos;s grad-op, full and hybrid sharding (the stages that gather parameters and reduce-scatter gradients)</source>
        <translation>%1 реализован для шардирования FSDP `grad-op`, `full` и `hybrid` (стадий, которые собирают параметры и выполняют reduce-scatter градиентов)</translation>
    </message>
    <message>
        <source>must be null or {&quot;rank&quot;: R, &quot;factor&quot;: F, &quot;from_step&quot;: S}</source>
        <translation>должно быть `null` или `{&quot;rank&quot;: R, &quot;factor&quot;: F, &quot;from_step&quot;: S}`</translation>
    </message>
    <message>
        <source>the slow rank (%1) must be one of the job&apos;s ranks, 0 to %2</source>
        <translation>медленный ранг (%1) должен быть одним из рангов задачи, от 0 до %2</translation>
    </message>
    <message>
        <source>the slow rank&apos;s factor must be at least 1 (got %1)</source>
        <translation>множитель медленного ранга должен быть не меньше 1 (получено %1)</translation>
    </message>
    <message>
        <source>there is no file &apos;%1&apos;</source>
        <translation>нет файла «%1»</translation>
    </message>
    <message>
        <source>&apos;%1&apos; cannot be read as a hostfile (not a readable file)</source>
        <translation>«%1» не читается как файл хостов (это не читаемый файл)</translation>
    </message>
    <message>
        <source>&apos;%1&apos; names no host (one host per line, e.g. &apos;lab-pc-01 slots=4&apos;)</source>
        <translation>в «%1» не указан ни один хост (один хост на строку, например «lab-pc-01 slots=4»)</translation>
    </message>
    <message>
        <source>the attention heads (%1) must divide hidden (%2): each head has hidden / heads dimensions</source>
        <translation>число голов внимания (%1) должно делить hidden (%2): у каждой головы hidden, делённое на число голов, измерений</translation>
    </message>
    <message>
        <source>the tensor-parallel degree (%1) must divide the attention heads (%2)</source>
        <translation>степень тензорного параллелизма (%1) должна делить число голов внимания (%2)</translation>
    </message>
    <message>
        <source>a batch of %1 sequences of %2 tokens is more than the %3 tokens a batch may hold</source>
        <translation>батч из %1 последовательностей по %2 токенов больше, чем %3 токенов, которые может вместить батч</translation>
    </message>
    <message>
        <source>the %1 schedule needs at least 2 stages (ranks): its weight gradients wait to fill the time a stage waits for its neighbours</source>
        <translation>расписанию %1 нужны хотя бы 2 стадии (ранга): его градиенты весов ждут, заполняя время, пока стадия ждёт соседей</translation>
    </message>
    <message>
        <source>the GPT does not run the %1 schedule yet: its backward is not split into input and weight gradients (B and W)</source>
        <translation>GPT пока не выполняет расписание %1: его обратный проход не разделён на градиенты по входу и по весам (B и W)</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a mesh: write its dimensions and sizes, e.g. dp=2,tp=2</source>
        <translation>«%1» — не сетка: укажите измерения и их размеры, например dp=2,tp=2</translation>
    </message>
    <message>
        <source>unknown dimension &apos;%1&apos; (the dimensions are dp, pp and tp)</source>
        <translation>неизвестное измерение «%1» (измерения: dp, pp и tp)</translation>
    </message>
    <message>
        <source>the dimension %1 is named twice</source>
        <translation>измерение %1 указано дважды</translation>
    </message>
    <message>
        <source>the mesh&apos;s sizes multiply to %1 ranks, the job has %2</source>
        <translation>произведение размеров сетки — %1 рангов, а в задании их %2</translation>
    </message>
    <message>
        <source>the %1 strategy does not run over %2: that dimension must be 1 (ddp and fsdp run over dp, tp over dp and tp, pipeline over dp and pp)</source>
        <translation>стратегия %1 не работает по измерению %2: его размер должен быть 1 (ddp и fsdp — по dp, tp — по dp и tp, pipeline — по dp и pp)</translation>
    </message>
    <message>
        <source>the global batch (%1) must be divisible by the data-parallel degree dp (%2)</source>
        <translation>глобальный батч (%1) должен делиться на степень параллелизма по данным dp (%2)</translation>
    </message>
    <message>
        <source>must divide each replica&apos;s batch (the global batch %1 over dp = %2 replicas, in %3 micro-batches)</source>
        <translation>должно делить батч каждой реплики (глобальный батч %1 на dp = %2 реплик, в %3 микробатчах)</translation>
    </message>
    <message>
        <source>must be an integer between %1 and %2 (got %3)</source>
        <translation>должно быть целым числом от %1 до %2 (получено %3)</translation>
    </message>
    <message>
        <source>only the %1 strategy has this option (the strategy is %2)</source>
        <translation>эта опция есть только у стратегии %1 (стратегия: %2)</translation>
    </message>
</context>
<context>
    <name>JobText</name>
    <message>
        <source> · no prefetch</source>
        <translation> · без предвыборки</translation>
    </message>
    <message>
        <source> · budget %1</source>
        <translation> · бюджет %1</translation>
    </message>
    <message numerus="yes">
        <source> · shard groups of %n ranks</source>
        <translation>
            <numerusform> · группы шардирования по %n рангу</numerusform>
            <numerusform> · группы шардирования по %n ранга</numerusform>
            <numerusform> · группы шардирования по %n рангов</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 · %2 · %3 × %4 · batch %5 · %6</source>
        <extracomment>%1 strategy, %2 &quot;4 ranks&quot;, %3 &quot;4 layers&quot;, %4 hidden size, %5 batch, %6 &quot;20 steps&quot;</extracomment>
        <translation>%1 · %2 · %3 × %4 · батч %5 · %6</translation>
    </message>
    <message numerus="yes">
        <source>%n rank(s)</source>
        <translation>
            <numerusform>%n ранг</numerusform>
            <numerusform>%n ранга</numerusform>
            <numerusform>%n рангов</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n layer(s)</source>
        <translation>
            <numerusform>%n слой</numerusform>
            <numerusform>%n слоя</numerusform>
            <numerusform>%n слоёв</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n step(s)</source>
        <translation>
            <numerusform>%n шаг</numerusform>
            <numerusform>%n шага</numerusform>
            <numerusform>%n шагов</numerusform>
        </translation>
    </message>
    <message>
        <source> · %1, %2</source>
        <extracomment>%1 the pipeline schedule, %2 &quot;4 micro-batches&quot;</extracomment>
        <translation> · %1, %2</translation>
    </message>
    <message numerus="yes">
        <source>%n micro-batch(es)</source>
        <translation>
            <numerusform>%n микробатч</numerusform>
            <numerusform>%n микробатча</numerusform>
            <numerusform>%n микробатчей</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LabOpener</name>
    <message>
        <source>Open lab</source>
        <translation>Открыть практикум</translation>
    </message>
    <message>
        <source>The lab %1 is not valid.</source>
        <translation>Практикум %1 некорректен.</translation>
    </message>
</context>
<context>
    <name>LearnerDialogs</name>
    <message>
        <source>Who is learning?</source>
        <translation>Кто учится?</translation>
    </message>
    <message>
        <source>Your name (or a nickname). Your answers and predictions are kept under it, apart from other learners on this computer.</source>
        <translation>Ваше имя (или псевдоним). Ваши ответы и прогнозы хранятся под ним, отдельно от других учащихся на этом компьютере.</translation>
    </message>
    <message>
        <source>this computer&apos;s unnamed learner</source>
        <translation>учащийся без имени на этом компьютере</translation>
    </message>
    <message>
        <source>Reset my progress</source>
        <translation>Сбросить мой прогресс</translation>
    </message>
    <message>
        <source>Forget every answer and prediction of %1? The lessons lose their ticks. This cannot be undone.</source>
        <translation>Забыть все ответы и прогнозы (учащийся: %1)? Уроки потеряют отметки. Это нельзя отменить.</translation>
    </message>
</context>
<context>
    <name>LessonCatalog</name>
    <message>
        <source> vs </source>
        <translation> против </translation>
    </message>
</context>
<context>
    <name>MemoryLedger</name>
    <message>
        <source>equal</source>
        <translation>равно</translation>
    </message>
    <message>
        <source>not held at the end of a step: freed after the optimizer step</source>
        <translation>не хранится в конце шага: освобождается после шага оптимизатора</translation>
    </message>
    <message>
        <source>+%1: each unit&apos;s flat parameter is padded to a multiple of the shard degree D</source>
        <translation>+%1: плоский параметр каждого модуля дополняется до кратного степени шардирования D</translation>
    </message>
    <message>
        <source>%1 %2 the arithmetic with padding (%3): not explained</source>
        <translation>%1 %2 арифметики с дополнением (%3): не объяснено</translation>
    </message>
    <message>
        <source>above</source>
        <translation>выше</translation>
    </message>
    <message>
        <source>below</source>
        <translation>ниже</translation>
    </message>
    <message>
        <source>units rebuilt for their compute: the peak is %1 × the largest unit (%2), the unit computing and those prefetched or kept</source>
        <translation>модули, собранные для вычисления: пик равен %1 × самый большой модуль (%2) — вычисляемый модуль и модули, собранные предвыборкой или сохранённые</translation>
    </message>
    <message>
        <source>full gradients of the units being reduce-scattered, freed once their slice is reduced</source>
        <translation>полные градиенты модулей во время reduce-scatter, освобождаются, когда их часть сведена</translation>
    </message>
    <message>
        <source>not in the Ψ arithmetic: they grow with the batch, the hidden size and the layers, not with Ψ</source>
        <translation>не входят в арифметику в Ψ: растут с батчем, скрытой размерностью и числом слоёв, а не с Ψ</translation>
    </message>
    <message>
        <source>staging for collectives and messages</source>
        <translation>буферы коллективных операций и сообщений</translation>
    </message>
    <message>
        <source>no memory record of this rank before the run stopped out of memory</source>
        <translation>нет записей памяти этого ранга до остановки из-за нехватки памяти</translation>
    </message>
    <message>
        <source>not allocated when the run stopped out of memory</source>
        <translation>ещё не выделено, когда запуск остановила нехватка памяти</translation>
    </message>
    <message>
        <source>%1 short: the run stopped out of memory before all of it was allocated</source>
        <translation>не хватает %1: запуск остановила нехватка памяти, прежде чем всё было выделено</translation>
    </message>
    <message>
        <source>what the rank still held when its last step ended, of the allocations the profiler saw (on CPU ranks those made while it recorded: the parameters, allocated before it, are not counted)</source>
        <translation>что ранг ещё держал в конце последнего шага из выделений, которые видел профилировщик (на CPU-рангах — сделанных во время записи: параметры, выделенные раньше, не учтены)</translation>
    </message>
    <message>
        <source>the profiler&apos;s largest total allocated on this rank</source>
        <translation>наибольший общий объём выделенной памяти на этом ранге по данным профилировщика</translation>
    </message>
</context>
<context>
    <name>Phases</name>
    <message>
        <source>Step %1 · forward pass</source>
        <translation>Шаг %1 · прямой проход</translation>
    </message>
    <message>
        <source>Step %1 · backward pass</source>
        <translation>Шаг %1 · обратный проход</translation>
    </message>
    <message>
        <source>Step %1 · optimizer step</source>
        <translation>Шаг %1 · шаг оптимизатора</translation>
    </message>
</context>
<context>
    <name>RunEnding</name>
    <message>
        <source>Rank %1 failed: %2.</source>
        <translation>Ранг %1 завершился с ошибкой: %2.</translation>
    </message>
    <message numerus="yes">
        <source>Then rank(s) %1 failed too.</source>
        <translation>
            <numerusform>Затем с ошибкой завершился и ранг %1.</numerusform>
            <numerusform>Затем с ошибкой завершились и ранги %1.</numerusform>
            <numerusform>Затем с ошибкой завершились и ранги %1.</numerusform>
        </translation>
    </message>
    <message>
        <source>The other ranks were stopped; the trace up to the failure is shown.</source>
        <translation>Остальные ранги были остановлены; показана трасса до сбоя.</translation>
    </message>
    <message numerus="yes">
        <source> Rank(s) %1 finished it.</source>
        <translation>
            <numerusform> Ранг %1 его завершил.</numerusform>
            <numerusform> Ранги %1 его завершили.</numerusform>
            <numerusform> Ранги %1 его завершили.</numerusform>
        </translation>
    </message>
    <message>
        <source>never entered %1</source>
        <translation>так и не вошёл в %1</translation>
    </message>
    <message>
        <source>waiting in %1</source>
        <translation>ждёт в %1</translation>
    </message>
    <message numerus="yes">
        <source>waiting in %1 for rank(s) %2</source>
        <translation>
            <numerusform>ждёт ранг %2 в %1</numerusform>
            <numerusform>ждёт ранги %2 в %1</numerusform>
            <numerusform>ждёт ранги %2 в %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>rank(s) %1 are waiting in %2</source>
        <translation>
            <numerusform>ранг %1 ждёт в %2</numerusform>
            <numerusform>ранги %1 ждут в %2</numerusform>
            <numerusform>ранги %1 ждут в %2</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 %2; rank %3 got past it.</source>
        <translation>%1 %2; ранг %3 его прошёл.</translation>
    </message>
    <message>
        <source>%1 %2; rank %3 never sent it.</source>
        <translation>%1 %2; ранг %3 так его и не отправил.</translation>
    </message>
    <message>
        <source>%1 %2; rank %3 never received it.</source>
        <translation>%1 %2; ранг %3 так его и не получил.</translation>
    </message>
    <message>
        <source>%1 %2.</source>
        <translation>%1 %2.</translation>
    </message>
    <message numerus="yes">
        <source>rank(s) %1 never entered %2</source>
        <translation>
            <numerusform>ранг %1 так и не вошёл в %2</numerusform>
            <numerusform>ранги %1 так и не вошли в %2</numerusform>
            <numerusform>ранги %1 так и не вошли в %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>rank(s) %1 are waiting in it</source>
        <translation>
            <numerusform>ранг %1 ждёт в нём</numerusform>
            <numerusform>ранги %1 ждут в нём</numerusform>
            <numerusform>ранги %1 ждут в нём</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 %2; %3.</source>
        <translation>%1 %2; %3.</translation>
    </message>
    <message>
        <source>Hang after %1 s (Hang timeout in the Experiment form):</source>
        <translation>Зависание через %1 с (Тайм-аут зависания в форме «Эксперимент»):</translation>
    </message>
</context>
<context>
    <name>Sizing</name>
    <message>
        <source>one micro-batch&apos;s compute on a stage is about %1× a hand-off (needs at least %2×)</source>
        <translation>вычисление одного микробатча на стадии занимает примерно %1× времени передачи между стадиями (нужно не меньше %2×)</translation>
    </message>
    <message>
        <source>a block&apos;s forward compute is about %1× its all-gather (needs at least %2×)</source>
        <translation>прямой проход блока занимает примерно %1× времени его all-gather (нужно не меньше %2×)</translation>
    </message>
    <message>
        <source>a block&apos;s backward compute is about %1× its gradient all-reduce (needs at least %2×)</source>
        <translation>обратный проход блока занимает примерно %1× времени all-reduce его градиента (нужно не меньше %2×)</translation>
    </message>
    <message>
        <source>free cores per rank: about %1 (needs at least %2)</source>
        <translation>свободных ядер на ранг: примерно %1 (нужно не меньше %2)</translation>
    </message>
    <message numerus="yes">
        <source>%n stage(s)</source>
        <translation>
            <numerusform>%n стадия</numerusform>
            <numerusform>%n стадии</numerusform>
            <numerusform>%n стадий</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n rank(s)</source>
        <translation>
            <numerusform>%n ранг</numerusform>
            <numerusform>%n ранга</numerusform>
            <numerusform>%n рангов</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>**Sized for this machine:** %n core(s)</source>
        <translation>
            <numerusform>**Подобрано под эту машину:** %n ядро</numerusform>
            <numerusform>**Подобрано под эту машину:** %n ядра</numerusform>
            <numerusform>**Подобрано под эту машину:** %n ядер</numerusform>
        </translation>
    </message>
    <message>
        <source>; hidden %1, batch %2.</source>
        <translation>; скрытый размер %1, батч %2.</translation>
    </message>
    <message>
        <source>So that compute outweighs the communication: </source>
        <translation>Чтобы вычисления перевешивали обмен данными: </translation>
    </message>
    <message>
        <source>These are estimates from this machine&apos;s calibration; the run measures them.</source>
        <translation>Это оценки по калибровке этой машины; запуск их измеряет.</translation>
    </message>
    <message>
        <source>**Warning:** within the lesson&apos;s budget of %1 s this machine cannot meet: %2. The closest size runs; its effect is weaker than the lesson describes.</source>
        <translation>**Внимание:** в пределах бюджета урока (%1 с) эта машина не может обеспечить: %2. Запускается ближайший размер; эффект будет слабее, чем описано в уроке.</translation>
    </message>
    <message numerus="yes">
        <source>**Not shown for real here:** the lesson&apos;s own job has %1, more than this machine&apos;s %n core(s) can run at once; ranks sharing a core would wait for it, not for each other. This run uses %2 instead. Its lost time is taken apart by replays of its own trace, and the switch above the views shows it replayed with communication free (Schedule alone).</source>
        <translation>
            <numerusform>**Здесь это не показать по-настоящему:** в задании урока %1 — больше, чем %n ядро этой машины может выполнять одновременно; ранги, делящие ядро, ждали бы его, а не друг друга. Этот запуск использует %2. Его потерянное время разложено воспроизведениями его собственной трассы, а переключатель над видами показывает его воспроизведённым с бесплатными обменами (Только расписание).</numerusform>
            <numerusform>**Здесь это не показать по-настоящему:** в задании урока %1 — больше, чем %n ядра этой машины могут выполнять одновременно; ранги, делящие ядро, ждали бы его, а не друг друга. Этот запуск использует %2. Его потерянное время разложено воспроизведениями его собственной трассы, а переключатель над видами показывает его воспроизведённым с бесплатными обменами (Только расписание).</numerusform>
            <numerusform>**Здесь это не показать по-настоящему:** в задании урока %1 — больше, чем %n ядер этой машины могут выполнять одновременно; ранги, делящие ядро, ждали бы его, а не друг друга. Этот запуск использует %2. Его потерянное время разложено воспроизведениями его собственной трассы, а переключатель над видами показывает его воспроизведённым с бесплатными обменами (Только расписание).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>**Not shown for real here:** hiding communication behind compute needs a core for each rank&apos;s communication thread besides its compute, since Open MPI moves a CPU rank&apos;s bytes with the CPU: %1 need %2 cores, and this machine has %n. Both runs are real and measured, but here the overlap competes with the compute for the cores. The switch above the views shows the same runs replayed with communication free (Schedule alone), which is what overlap can gain at most.</source>
        <translation>
            <numerusform>**Здесь это не показать по-настоящему:** чтобы скрыть обмены за вычислениями, каждому рангу нужно ядро для потока обменов в дополнение к вычислениям, ведь Open MPI пересылает байты ранга CPU силами самого CPU: запуску (%1) нужно ядер: %2, а у этой машины их %n. Оба запуска настоящие и измерены, но здесь перекрытие отнимает ядра у вычислений. Переключатель над видами показывает те же запуски, воспроизведённые с бесплатными обменами (Только расписание): это наибольшее, что может дать перекрытие.</numerusform>
            <numerusform>**Здесь это не показать по-настоящему:** чтобы скрыть обмены за вычислениями, каждому рангу нужно ядро для потока обменов в дополнение к вычислениям, ведь Open MPI пересылает байты ранга CPU силами самого CPU: запуску (%1) нужно ядер: %2, а у этой машины их %n. Оба запуска настоящие и измерены, но здесь перекрытие отнимает ядра у вычислений. Переключатель над видами показывает те же запуски, воспроизведённые с бесплатными обменами (Только расписание): это наибольшее, что может дать перекрытие.</numerusform>
            <numerusform>**Здесь это не показать по-настоящему:** чтобы скрыть обмены за вычислениями, каждому рангу нужно ядро для потока обменов в дополнение к вычислениям, ведь Open MPI пересылает байты ранга CPU силами самого CPU: запуску (%1) нужно ядер: %2, а у этой машины их %n. Оба запуска настоящие и измерены, но здесь перекрытие отнимает ядра у вычислений. Переключатель над видами показывает те же запуски, воспроизведённые с бесплатными обменами (Только расписание): это наибольшее, что может дать перекрытие.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TraceModel</name>
    <message>
        <source>Cannot open %1: the file does not exist or is not readable.</source>
        <translation>Не удалось открыть %1: файла нет или он недоступен для чтения.</translation>
    </message>
    <message>
        <source>%1, line %2: %3.%4</source>
        <translation>%1, строка %2: %3.%4</translation>
    </message>
</context>
<context>
    <name>TraceOpening</name>
    <message numerus="yes">
        <source>%1, line %2: %3; the line was skipped and the %Ln line(s) after it were read.</source>
        <translation>
            <numerusform>%1, строка %2: %3; строка пропущена, а %Ln строка после неё прочитана.</numerusform>
            <numerusform>%1, строка %2: %3; строка пропущена, а %Ln строки после неё прочитаны.</numerusform>
            <numerusform>%1, строка %2: %3; строка пропущена, а %Ln строк после неё прочитаны.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1, line %2: %3; %Ln line(s) that are no record were skipped, the first here, and the other lines were read.</source>
        <translation>
            <numerusform>%1, строка %2: %3; пропущена %Ln строка, не являющаяся записью (первая — здесь), остальные строки прочитаны.</numerusform>
            <numerusform>%1, строка %2: %3; пропущены %Ln строки, не являющиеся записями (первая — здесь), остальные строки прочитаны.</numerusform>
            <numerusform>%1, строка %2: %3; пропущено %Ln строк, не являющихся записями (первая — здесь), остальные строки прочитаны.</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 is empty: there is no trace in it.</source>
        <translation>%1 пуст: в нём нет трассы.</translation>
    </message>
    <message>
        <source>%1 The run on screen stays.</source>
        <translation>%1 Запуск на экране остаётся.</translation>
    </message>
    <message>
        <source>%1 holds no trace.</source>
        <translation>%1 не содержит трассы.</translation>
    </message>
    <message>
        <source>This trace could not be read completely: %1</source>
        <translation>Трассу не удалось прочитать полностью: %1</translation>
    </message>
    <message numerus="yes">
        <source>%1: imported from a PyTorch profiler trace (%n file(s)). %2</source>
        <translation>
            <numerusform>%1: импортировано из трассы профилировщика PyTorch (%n файл). %2</numerusform>
            <numerusform>%1: импортировано из трассы профилировщика PyTorch (%n файла). %2</numerusform>
            <numerusform>%1: импортировано из трассы профилировщика PyTorch (%n файлов). %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Imported from a PyTorch profiler trace: %n step(s) from its ProfilerStep ranges. Ranks, the timeline, Plots (step times, memory) and Summary show it; memory is one total, in no category (the profiler does not say what a buffer holds). Nothing from it in: Pipeline (not a pipeline job), the loss (not recorded), the replay (not replayable), the Memory ledger&apos;s Ψ arithmetic (no model size). The Log lists the profiler events not mapped.</source>
        <translation>
            <numerusform>Импортировано из трассы профилировщика PyTorch: %n шаг по её интервалам ProfilerStep. Её показывают Ранги, временная шкала, Графики (время шагов, память) и Сводка; память — одна сумма без категории (профилировщик не говорит, что хранит буфер). Ничего из неё нет в: Конвейер (это не конвейерное задание), потери (не записаны), воспроизведении (невозможно), Ψ-арифметике Учёта памяти (нет размера модели). Журнал перечисляет события профилировщика, которые не отображены.</numerusform>
            <numerusform>Импортировано из трассы профилировщика PyTorch: %n шага по её интервалам ProfilerStep. Её показывают Ранги, временная шкала, Графики (время шагов, память) и Сводка; память — одна сумма без категории (профилировщик не говорит, что хранит буфер). Ничего из неё нет в: Конвейер (это не конвейерное задание), потери (не записаны), воспроизведении (невозможно), Ψ-арифметике Учёта памяти (нет размера модели). Журнал перечисляет события профилировщика, которые не отображены.</numerusform>
            <numerusform>Импортировано из трассы профилировщика PyTorch: %n шагов по её интервалам ProfilerStep. Её показывают Ранги, временная шкала, Графики (время шагов, память) и Сводка; память — одна сумма без категории (профилировщик не говорит, что хранит буфер). Ничего из неё нет в: Конвейер (это не конвейерное задание), потери (не записаны), воспроизведении (невозможно), Ψ-арифметике Учёта памяти (нет размера модели). Журнал перечисляет события профилировщика, которые не отображены.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>shardlab: %1; running the default FSDP job headless with shardlab-run.</source>
        <translation>shardlab: %1; задача FSDP по умолчанию запускается без окна через shardlab-run.</translation>
    </message>
    <message>
        <source>shardlab: cannot start %1: %2</source>
        <translation>shardlab: не удалось запустить %1: %2</translation>
    </message>
    <message>
        <source>ShardLab: watch real distributed training jobs.</source>
        <translation>ShardLab: наблюдайте за реальными задачами распределённого обучения.</translation>
    </message>
    <message>
        <source>Run the lesson ID.</source>
        <translation>Запустить урок ID.</translation>
    </message>
    <message>
        <source>Open a trace file.</source>
        <translation>Открыть файл трассы.</translation>
    </message>
    <message>
        <source>Save a PNG of the main window and exit.</source>
        <translation>Сохранить PNG главного окна и выйти.</translation>
    </message>
    <message>
        <source>Playhead position for the screenshot, 0..1.</source>
        <translation>Положение курсора воспроизведения для снимка, 0..1.</translation>
    </message>
    <message>
        <source>Run the default FSDP job without a window.</source>
        <translation>Запустить задачу FSDP по умолчанию без окна.</translation>
    </message>
    <message>
        <source>Interface language for this run: en, fr, ru.</source>
        <translation>Язык интерфейса для этого запуска: en, fr, ru.</translation>
    </message>
    <message>
        <source>Window size, e.g. 1600x1000.</source>
        <translation>Размер окна, например 1600x1000.</translation>
    </message>
    <message>
        <source>Theme for this run: light, dark.</source>
        <translation>Тема для этого запуска: light, dark.</translation>
    </message>
    <message>
        <source>Presentation mode (large text) for this run.</source>
        <translation>Режим презентации (крупный текст) для этого запуска.</translation>
    </message>
    <message>
        <source>--headless was given</source>
        <translation>указан --headless</translation>
    </message>
    <message>
        <source>no display (DISPLAY and WAYLAND_DISPLAY are unset)</source>
        <translation>нет дисплея (DISPLAY и WAYLAND_DISPLAY не заданы)</translation>
    </message>
    <message>
        <source>the Qt platform is &apos;%1&apos;, which shows no window</source>
        <translation>платформа Qt — «%1», она не показывает окон</translation>
    </message>
    <message>
        <source>shardlab: cannot write %1</source>
        <translation>shardlab: не удалось записать %1</translation>
    </message>
    <message>
        <source>shardlab: no lesson &apos;%1&apos;</source>
        <translation>shardlab: урока «%1» нет</translation>
    </message>
    <message>
        <source>shardlab: no view &apos;%1&apos;</source>
        <translation>shardlab: нет вида «%1»</translation>
    </message>
    <message>
        <source>Open the lab FILE (its steps in the Lab panel).</source>
        <translation>Открыть практикум FILE (его шаги на панели «Практикум»).</translation>
    </message>
    <message>
        <source>What the views show: measured, schedule-alone or projected (replays of the run).</source>
        <translation>Что показывают виды: `measured` (измерено), `schedule-alone` (только расписание) или `projected` (прогноз) — воспроизведения запуска.</translation>
    </message>
    <message>
        <source>shardlab: --show must be measured, schedule-alone or projected (got &apos;%1&apos;)</source>
        <translation>shardlab: `--show` должен быть `measured`, `schedule-alone` или `projected` (получено «%1»)</translation>
    </message>
    <message>
        <source>View to show: ranks, both, pipeline, plots, compare, summary, ledger, quiz.</source>
        <translation>Показываемый вид: `ranks`, `both`, `pipeline`, `plots`, `compare`, `summary`, `ledger`, `quiz`.</translation>
    </message>
    <message>
        <source>shardlab: the quiz&apos;s sentences could not be loaded: %1</source>
        <translation>shardlab: не удалось загрузить фразы теста: %1</translation>
    </message>
</context>
<context>
    <name>shardlab::app::CaptionBar</name>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
</context>
<context>
    <name>shardlab::app::CompareView</name>
    <message>
        <source>Rank cards</source>
        <translation>Карточки рангов</translation>
    </message>
    <message>
        <source>Pipeline diagram</source>
        <translation>Диаграмма конвейера</translation>
    </message>
    <message>
        <source>Timelines</source>
        <translation>Временные шкалы</translation>
    </message>
</context>
<context>
    <name>shardlab::app::CompareWindow</name>
    <message>
        <source>ShardLab — compare two runs</source>
        <translation>ShardLab — сравнение двух запусков</translation>
    </message>
</context>
<context>
    <name>shardlab::app::ExperimentPanel</name>
    <message>
        <source>none</source>
        <translation>нет</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>без ограничения</translation>
    </message>
    <message>
        <source> s</source>
        <translation> с</translation>
    </message>
    <message>
        <source>Seconds a collective or a message may wait before the job is declared hung and stopped (collective_timeout)</source>
        <translation>Сколько секунд коллективная операция или сообщение может ждать, прежде чем задание будет признано зависшим и остановлено (collective_timeout)</translation>
    </message>
    <message>
        <source>gather the next unit early</source>
        <translation>собрать следующий модуль заранее</translation>
    </message>
    <message>
        <source>recompute in the backward</source>
        <translation>пересчитывать в обратном проходе</translation>
    </message>
    <message>
        <source>Reduce the gradients once, at the last micro-step (PyTorch&apos;s no_sync)</source>
        <translation>Сводить градиенты один раз, на последнем микрошаге (`no_sync` в PyTorch)</translation>
    </message>
    <message>
        <source>param_dtype: the type the all-gathers carry (master shards stay fp32)</source>
        <translation>`param_dtype`: тип, который переносят all-gather (мастер-шарды остаются в fp32)</translation>
    </message>
    <message>
        <source>reduce_dtype: the type gradients are reduce-scattered in</source>
        <translation>`reduce_dtype`: тип, в котором градиенты проходят reduce-scatter</translation>
    </message>
    <message>
        <source>none, or e.g. 3MiB</source>
        <translation>нет, или например 3MiB</translation>
    </message>
    <message>
        <source>none, or e.g. dp=2,tp=2</source>
        <translation>нет, или например dp=2,tp=2</translation>
    </message>
    <message>
        <source>The ranks as a grid of dimensions dp, pp and tp, the last varying fastest; the sizes multiply to the ranks</source>
        <translation>Ранги в виде сетки с измерениями dp, pp и tp, последнее меняется быстрее всего; произведение размеров равно числу рангов</translation>
    </message>
    <message>
        <source>none: every rank on this machine</source>
        <translation>нет: все ранги на этой машине</translation>
    </message>
    <message>
        <source>An Open MPI hostfile, one machine per line (lab-pc-01 slots=4), to spread the ranks over the machines of a lab room</source>
        <translation>Файл хостов Open MPI (`hostfile`), одна машина на строку (lab-pc-01 slots=4), чтобы распределить ранги по машинам учебного класса</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>Выбрать…</translation>
    </message>
    <message>
        <source>Hostfile</source>
        <translation>Файл хостов</translation>
    </message>
    <message>
        <source>Strategy</source>
        <translation>Стратегия</translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation>Ранги</translation>
    </message>
    <message>
        <source>Mesh</source>
        <translation>Сетка</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Устройство</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>Слои</translation>
    </message>
    <message>
        <source>Hidden size</source>
        <translation>Скрытая размерность</translation>
    </message>
    <message>
        <source>Vocabulary</source>
        <translation>Словарь</translation>
    </message>
    <message>
        <source>Batch</source>
        <translation>Батч</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Шаги</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>Зерно (seed)</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>Скорость обучения</translation>
    </message>
    <message>
        <source>FSDP sharding</source>
        <translation>Шардирование FSDP</translation>
    </message>
    <message>
        <source>Shard group (hybrid)</source>
        <translation>Группа (гибрид)</translation>
    </message>
    <message>
        <source>Backward prefetch</source>
        <translation>Предвыборка в обратном проходе</translation>
    </message>
    <message>
        <source>Forward prefetch</source>
        <translation>Предвыборка в прямом проходе</translation>
    </message>
    <message>
        <source>Gathered units at most</source>
        <translation>Собранных модулей, макс.</translation>
    </message>
    <message>
        <source>Precision (param, reduce)</source>
        <translation>Точность (параметры, сведение)</translation>
    </message>
    <message>
        <source>Activation checkpointing</source>
        <translation>Пересчёт активаций</translation>
    </message>
    <message>
        <source>Micro-steps per step</source>
        <translation>Микрошагов на шаг</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>Расписание</translation>
    </message>
    <message>
        <source>Micro-batches</source>
        <translation>Микробатчи</translation>
    </message>
    <message>
        <source>Virtual stages</source>
        <translation>Виртуальные стадии</translation>
    </message>
    <message>
        <source>Memory budget</source>
        <translation>Бюджет памяти</translation>
    </message>
    <message>
        <source>Hang timeout</source>
        <translation>Тайм-аут зависания</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Запустить</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Остановить</translation>
    </message>
    <message>
        <source>Run: fix the options named below</source>
        <translation>Запуск: сначала исправьте параметры, названные ниже</translation>
    </message>
    <message>
        <source>Run this job with shardlab-run</source>
        <translation>Запустить эту задачу через shardlab-run</translation>
    </message>
    <message>
        <source>Fix the options named below first</source>
        <translation>Сначала исправьте параметры, указанные ниже</translation>
    </message>
</context>
<context>
    <name>shardlab::app::GuidePanel</name>
    <message>
        <source>Show the answer</source>
        <translation>Показать ответ</translation>
    </message>
    <message>
        <source>Next lesson ▶</source>
        <translation>Следующий урок ▶</translation>
    </message>
    <message>
        <source>Last lesson</source>
        <translation>Последний урок</translation>
    </message>
    <message>
        <source>Available once this lesson&apos;s run is over.</source>
        <translation>Доступно после завершения запуска этого урока.</translation>
    </message>
</context>
<context>
    <name>shardlab::app::JobRunner</name>
    <message>
        <source>The job did not stop within 3 s; killing it.</source>
        <translation>Задача не остановилась за 3 с; она будет принудительно завершена.</translation>
    </message>
    <message numerus="yes">
        <source>No rank has recorded anything for %n s; the run stops at the hang timeout of %1 s (Hang timeout in the Experiment form).</source>
        <translation>
            <numerusform>Ни один ранг ничего не записал уже %n с; запуск остановится по тайм-ауту зависания через %1 с (Тайм-аут зависания в форме «Эксперимент»).</numerusform>
            <numerusform>Ни один ранг ничего не записал уже %n с; запуск остановится по тайм-ауту зависания через %1 с (Тайм-аут зависания в форме «Эксперимент»).</numerusform>
            <numerusform>Ни один ранг ничего не записал уже %n с; запуск остановится по тайм-ауту зависания через %1 с (Тайм-аут зависания в форме «Эксперимент»).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>No event from rank(s) %1 for %2 s; the run stops at the hang timeout of %3 s (Hang timeout in the Experiment form).</source>
        <translation>
            <numerusform>Нет событий от ранга %1 уже %2 с; запуск остановится по тайм-ауту зависания через %3 с (Тайм-аут зависания в форме «Эксперимент»).</numerusform>
            <numerusform>Нет событий от рангов %1 уже %2 с; запуск остановится по тайм-ауту зависания через %3 с (Тайм-аут зависания в форме «Эксперимент»).</numerusform>
            <numerusform>Нет событий от рангов %1 уже %2 с; запуск остановится по тайм-ауту зависания через %3 с (Тайм-аут зависания в форме «Эксперимент»).</numerusform>
        </translation>
    </message>
    <message>
        <source>The options break a rule, so nothing was run:
%1</source>
        <translation>Параметры нарушают правило, поэтому ничего не запущено:
%1</translation>
    </message>
    <message>
        <source>The job&apos;s spec file could not be written (%1).</source>
        <translation>Не удалось записать файл спецификации задачи (%1).</translation>
    </message>
    <message>
        <source>The launcher shardlab-run was not found (looked for %1). Build it with &apos;cmake --build build --target shardlab-run&apos;, or set SHARDLAB_RUN to its path.</source>
        <translation>Программа запуска shardlab-run не найдена (искали: %1). Соберите её командой «cmake --build build --target shardlab-run» или укажите путь в SHARDLAB_RUN.</translation>
    </message>
    <message>
        <source>Stopping the job…
</source>
        <translation>Остановка задачи…
</translation>
    </message>
    <message>
        <source>shardlab-run could not be started (%1): %2</source>
        <translation>Не удалось запустить shardlab-run (%1): %2</translation>
    </message>
    <message>
        <source>You stopped the job. The events recorded until then are shown.</source>
        <translation>Вы остановили задачу. Показаны события, записанные до этого момента.</translation>
    </message>
    <message>
        <source>shardlab-run crashed. What it wrote before is shown.
%1</source>
        <translation>shardlab-run аварийно завершился. Показано то, что он успел записать.
%1</translation>
    </message>
    <message>
        <source>The job finished.</source>
        <translation>Задача завершена.</translation>
    </message>
    <message>
        <source>The launcher refused the options:
%1</source>
        <translation>Программа запуска отклонила параметры:
%1</translation>
    </message>
    <message>
        <source>Out of memory on rank %1: it needed %2 more for %3%4 while holding %5, but the budget is %6. This is the lesson: the model state did not fit on one rank.</source>
        <translation>Нехватка памяти на ранге %1: ему нужно было ещё %2 для %3%4 при %5 занятых, а бюджет — %6. В этом и урок: состояние модели не поместилось на одном ранге.</translation>
    </message>
    <message>
        <source> of %1</source>
        <translation> из %1</translation>
    </message>
    <message>
        <source>Rank %1: %2
</source>
        <translation>Ранг %1: %2
</translation>
    </message>
    <message>
        <source>A rank failed; the trace up to the failure is shown.
%1%2</source>
        <translation>Один из рангов завершился с ошибкой; показана трасса до сбоя.
%1%2</translation>
    </message>
    <message>
        <source>shardlab-run was interrupted. The events recorded until then are shown.</source>
        <translation>shardlab-run был прерван. Показаны события, записанные до этого момента.</translation>
    </message>
    <message>
        <source>mpirun or the worker is missing:
%1</source>
        <translation>Нет mpirun или worker:
%1</translation>
    </message>
    <message>
        <source>An output of the run could not be written whole (is the disk full?); the events received are shown:
%1</source>
        <translation>Один из выходных файлов запуска не удалось записать целиком (диск заполнен?); показаны полученные события:
%1</translation>
    </message>
    <message>
        <source>shardlab-run exited with code %1.
%2</source>
        <translation>shardlab-run завершился с кодом %1.
%2</translation>
    </message>
</context>
<context>
    <name>shardlab::app::LabPanel</name>
    <message>
        <source>Results</source>
        <translation>Результаты</translation>
    </message>
    <message>
        <source>done</source>
        <translation>выполнен</translation>
    </message>
    <message>
        <source>not run to its end</source>
        <translation>не доведён до конца</translation>
    </message>
    <message>
        <source>no answers</source>
        <translation>нет ответов</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n answer(s) right</source>
        <translation>
            <numerusform>%1 из %n ответа верно</numerusform>
            <numerusform>%1 из %n ответов верно</numerusform>
            <numerusform>%1 из %n ответов верно</numerusform>
        </translation>
    </message>
    <message>
        <source>Run this step</source>
        <translation>Запустить этот шаг</translation>
    </message>
    <message>
        <source>Next step</source>
        <translation>Следующий шаг</translation>
    </message>
    <message>
        <source>Notes for this step</source>
        <translation>Заметки к этому шагу</translation>
    </message>
    <message>
        <source>No lab open. File → Open lab… loads one.</source>
        <translation>Практикум не открыт. Файл → Открыть практикум… загружает его.</translation>
    </message>
    <message>
        <source>%1. %2 ✓ done</source>
        <translation>%1. %2 ✓ выполнен</translation>
    </message>
    <message>
        <source>%1. %2</source>
        <translation>%1. %2</translation>
    </message>
    <message numerus="yes">
        <source>Lab complete: %1 of %n step(s) done</source>
        <translation>
            <numerusform>Практикум пройден: выполнено %1 из %n шага</numerusform>
            <numerusform>Практикум пройден: выполнено %1 из %n шагов</numerusform>
            <numerusform>Практикум пройден: выполнено %1 из %n шагов</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Lab finished: %1 of %n step(s) done</source>
        <translation>
            <numerusform>Практикум завершён: выполнено %1 из %n шага</numerusform>
            <numerusform>Практикум завершён: выполнено %1 из %n шагов</numerusform>
            <numerusform>Практикум завершён: выполнено %1 из %n шагов</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Step %1 of %2 · %n done</source>
        <translation>
            <numerusform>Шаг %1 из %2 · %n шаг выполнен</numerusform>
            <numerusform>Шаг %1 из %2 · %n шага выполнено</numerusform>
            <numerusform>Шаг %1 из %2 · %n шагов выполнено</numerusform>
        </translation>
    </message>
    <message>
        <source>This step has no notes: follow the lesson&apos;s guide and its questions.</source>
        <translation>У этого шага нет заметок: следуйте руководству урока и его вопросам.</translation>
    </message>
    <message>
        <source>Finish lab</source>
        <translation>Завершить практикум</translation>
    </message>
</context>
<context>
    <name>shardlab::app::LearnerMenu</name>
    <message>
        <source>L&amp;earner</source>
        <translation>&amp;Учащийся</translation>
    </message>
    <message>
        <source>&amp;Switch learner…</source>
        <translation>&amp;Сменить учащегося…</translation>
    </message>
    <message>
        <source>&amp;Reset my progress…</source>
        <translation>С&amp;бросить мой прогресс…</translation>
    </message>
    <message>
        <source>Answers are now recorded for %1.</source>
        <translation>Теперь ответы записываются для учащегося: %1.</translation>
    </message>
    <message>
        <source>(no name)</source>
        <translation>(без имени)</translation>
    </message>
    <message>
        <source>Your progress was reset.</source>
        <translation>Ваш прогресс сброшен.</translation>
    </message>
    <message>
        <source>Learner: %1</source>
        <translation>Учащийся: %1</translation>
    </message>
</context>
<context>
    <name>shardlab::app::LedgerView</name>
    <message>
        <source>Run</source>
        <translation>Запуск</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Ранг</translation>
    </message>
    <message>
        <source>run A</source>
        <translation>запуск A</translation>
    </message>
    <message>
        <source>run B</source>
        <translation>запуск B</translation>
    </message>
    <message>
        <source>&lt;p&gt;No run yet for this lesson: it runs once you have made your prediction (or chosen to run without one).&lt;/p&gt;</source>
        <translation>&lt;p&gt;Запуска этого урока ещё нет: он начнётся, когда вы сделаете прогноз (или решите запустить без прогноза).&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;No run yet.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Запусков ещё нет.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Imported from a PyTorch profiler trace: the profiler records how much each rank had allocated, not what for, nor the model&apos;s size, so there is no Ψ arithmetic here: only the rank&apos;s total, at the end of its last step and at its peak.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Импортировано из трассы профилировщика PyTorch: профилировщик записывает, сколько памяти выделил каждый ранг, но не для чего, и не размер модели, поэтому Ψ-арифметики здесь нет: только общий объём ранга в конце последнего шага и на пике.&lt;/p&gt;</translation>
    </message>
    <message numerus="yes">
        <source>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt; · Ψ = %2 parameters · D = %3 · %n rank(s)&lt;/p&gt;</source>
        <translation>
            <numerusform>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt; · Ψ = %2 параметров · D = %3 · %n ранг&lt;/p&gt;</numerusform>
            <numerusform>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt; · Ψ = %2 параметров · D = %3 · %n ранга&lt;/p&gt;</numerusform>
            <numerusform>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt; · Ψ = %2 параметров · D = %3 · %n рангов&lt;/p&gt;</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;p&gt;The Ψ arithmetic is data parallelism&apos;s (DDP, FSDP): here only what the rank measured is shown.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Арифметика в Ψ относится к параллелизму по данным (DDP, FSDP): здесь показано только то, что измерил ранг.&lt;/p&gt;</translation>
    </message>
    <message>
        <source> of %1</source>
        <translation> из %1</translation>
    </message>
    <message>
        <source>The run ended out of memory before its first step</source>
        <translation>Запуск остановлен нехваткой памяти до первого шага</translation>
    </message>
    <message>
        <source>The run ended out of memory in step %1</source>
        <translation>Запуск остановлен нехваткой памяти на шаге %1</translation>
    </message>
    <message>
        <source>rank %1 needed %2 more for %3 while holding %4; the budget is %5. Below: what %6 held then.</source>
        <translation>рангу %1 требовалось ещё %2 (%3) при %4 занятых; бюджет %5. Ниже: что тогда занимал %6.</translation>
    </message>
    <message>
        <source>part</source>
        <translation>часть памяти</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>измерено</translation>
    </message>
    <message>
        <source>Ψ arithmetic</source>
        <translation>арифметика в Ψ</translation>
    </message>
    <message>
        <source>the difference</source>
        <translation>разница</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;small&gt;peak&lt;/small&gt;</source>
        <translation>&lt;br&gt;&lt;small&gt;пик&lt;/small&gt;</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;small&gt;when the run stopped&lt;/small&gt;</source>
        <translation>&lt;br&gt;&lt;small&gt;в момент остановки&lt;/small&gt;</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;small&gt;at the end of a step&lt;/small&gt;</source>
        <translation>&lt;br&gt;&lt;small&gt;в конце шага&lt;/small&gt;</translation>
    </message>
    <message>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <source>persistent</source>
        <translation>постоянная</translation>
    </message>
    <message>
        <source>&lt;p&gt;ShardLab trains in fp32 and its parameters are the master copy, so the textbook&apos;s 16Ψ at mixed precision (2Ψ bf16 parameters + 2Ψ bf16 gradients + 12Ψ fp32 master, momentum and variance) is here 4Ψ parameters + 4Ψ gradients + 8Ψ AdamW moments: the same total. A part is divided by D where the run keeps only its own slice of it between steps: the optimizer state under ZeRO-1; the parameters, the gradients and the optimizer state under SHARD_GRAD_OP, FULL_SHARD and HYBRID_SHARD; nothing under DDP and NO_SHARD (docs/sharding.md).&lt;/p&gt;</source>
        <translation>&lt;p&gt;ShardLab обучает в fp32, и его параметры сами являются мастер-копией, поэтому 16Ψ из учебника при смешанной точности (2Ψ параметров bf16 + 2Ψ градиентов bf16 + 12Ψ fp32: мастер-копия, момент и дисперсия) здесь — это 4Ψ параметров + 4Ψ градиентов + 8Ψ моментов AdamW: та же сумма. Часть делится на D там, где запуск хранит между шагами только свою долю: состояние оптимизатора при ZeRO-1; параметры, градиенты и состояние оптимизатора при SHARD_GRAD_OP, FULL_SHARD и HYBRID_SHARD; ничего при DDP и NO_SHARD (docs/sharding.md).&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;SHARD_GRAD_OP is only close to ZeRO-2: ZeRO-2 keeps the parameters replicated (4Ψ + 12Ψ/D), SHARD_GRAD_OP also shards them between steps (16Ψ/D), and this ledger counts them so.&lt;/p&gt;</source>
        <translation>&lt;p&gt;SHARD_GRAD_OP лишь близок к ZeRO-2: ZeRO-2 хранит параметры реплицированными (4Ψ + 12Ψ/D), SHARD_GRAD_OP шардирует между шагами и их (16Ψ/D), и этот учёт считает их так.&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>shardlab::app::LessonCheckBar</name>
    <message>
        <source>Less</source>
        <translation>Скрыть</translation>
    </message>
    <message>
        <source>Why?</source>
        <translation>Почему?</translation>
    </message>
    <message>
        <source>Show the schedule-alone replay</source>
        <translation>Показать повтор «только расписание»</translation>
    </message>
    <message>
        <source>Show the projected replay</source>
        <translation>Показать прогнозный повтор</translation>
    </message>
</context>
<context>
    <name>shardlab::app::LogPane</name>
    <message>
        <source>The command line of the job appears here</source>
        <translation>Здесь появится командная строка задачи</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Копировать</translation>
    </message>
    <message>
        <source>Copy the command line to run the same job in a terminal</source>
        <translation>Скопировать командную строку, чтобы запустить ту же задачу в терминале</translation>
    </message>
</context>
<context>
    <name>shardlab::app::MainWindow</name>
    <message>
        <source>ShardLab</source>
        <translation>ShardLab</translation>
    </message>
    <message>
        <source>Your progress file could not be read, so the quiz starts empty: %1</source>
        <translation>Не удалось прочитать файл прогресса, поэтому тест начинается с нуля: %1</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Файл</translation>
    </message>
    <message>
        <source>&amp;Start page</source>
        <translation>&amp;Начальная страница</translation>
    </message>
    <message>
        <source>&amp;Open trace…</source>
        <translation>&amp;Открыть трассу…</translation>
    </message>
    <message>
        <source>Open PyTorch trace &amp;folder…</source>
        <translation>Открыть &amp;папку трасс PyTorch…</translation>
    </message>
    <message>
        <source>&amp;Compare with trace…</source>
        <translation>&amp;Сравнить с трассой…</translation>
    </message>
    <message>
        <source>Compare with trace</source>
        <translation>Сравнить с трассой</translation>
    </message>
    <message>
        <source>Open &amp;lab…</source>
        <translation>Открыть &amp;практикум…</translation>
    </message>
    <message>
        <source>Open lab</source>
        <translation>Открыть практикум</translation>
    </message>
    <message>
        <source>ShardLab labs (*.json);;All files (*)</source>
        <translation>Практикумы ShardLab (*.json);;Все файлы (*)</translation>
    </message>
    <message>
        <source>Export &amp;Chrome trace…</source>
        <translation>Экспорт трассы &amp;Chrome…</translation>
    </message>
    <message>
        <source>Export Chrome trace</source>
        <translation>Экспорт трассы Chrome</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Export &amp;PNG of the view…</source>
        <translation>Экспорт &amp;PNG текущего вида…</translation>
    </message>
    <message>
        <source>Export PNG</source>
        <translation>Экспорт PNG</translation>
    </message>
    <message>
        <source>PNG (*.png)</source>
        <translation>PNG (*.png)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>В&amp;ыход</translation>
    </message>
    <message>
        <source>&amp;Playback</source>
        <translation>&amp;Воспроизведение</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>В&amp;ид</translation>
    </message>
    <message>
        <source>Language changed. The experiment panel, the playback bar and the log show the new language after a restart.</source>
        <translation>Язык изменён. Панель эксперимента, панель воспроизведения и журнал переключатся на новый язык после перезапуска.</translation>
    </message>
    <message>
        <source>Open trace</source>
        <translation>Открыть трассу</translation>
    </message>
    <message>
        <source>Traces (*.trace *.txt *.json *.json.gz);;ShardLab traces (*.trace *.txt);;PyTorch profiler traces (*.pt.trace.json *.pt.trace.json.gz *.json *.json.gz);;All files (*)</source>
        <translation>Трассы (*.trace *.txt *.json *.json.gz);;Трассы ShardLab (*.trace *.txt);;Трассы профилировщика PyTorch (*.pt.trace.json *.pt.trace.json.gz *.json *.json.gz);;Все файлы (*)</translation>
    </message>
    <message>
        <source>Open a folder of PyTorch profiler traces, one per rank</source>
        <translation>Открыть папку трасс профилировщика PyTorch, по одной на ранг</translation>
    </message>
    <message>
        <source>Experiment</source>
        <translation>Эксперимент</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>Журнал</translation>
    </message>
    <message>
        <source>Quiz</source>
        <translation>Тест</translation>
    </message>
    <message>
        <source>Guide</source>
        <translation>Руководство</translation>
    </message>
    <message>
        <source>Lab</source>
        <translation>Практикум</translation>
    </message>
    <message>
        <source>ShardLab — %1</source>
        <translation>ShardLab — %1</translation>
    </message>
    <message>
        <source>There is no lesson &apos;%1&apos;.</source>
        <translation>Урока «%1» нет.</translation>
    </message>
    <message>
        <source>run A</source>
        <translation>запуск A</translation>
    </message>
    <message>
        <source>run B</source>
        <translation>запуск B</translation>
    </message>
    <message>
        <source>%1 — both runs side by side in &quot;Both runs&quot;; their figures in Plots → Compare runs.</source>
        <translation>%1 — оба запуска рядом во вкладке «Оба запуска»; их показатели в Графики → Сравнить запуски.</translation>
    </message>
    <message>
        <source>Chrome trace written to %1</source>
        <translation>Трасса Chrome записана в %1</translation>
    </message>
    <message>
        <source>Picture of the window saved to %1</source>
        <translation>Снимок окна сохранён в %1</translation>
    </message>
    <message>
        <source>Cannot write %1.</source>
        <translation>Не удалось записать %1.</translation>
    </message>
    <message numerus="yes">
        <source>This lab has %n error(s); see the log.</source>
        <translation>
            <numerusform>В практикуме %n ошибка; см. журнал.</numerusform>
            <numerusform>В практикуме %n ошибки; см. журнал.</numerusform>
            <numerusform>В практикуме %n ошибок; см. журнал.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>shardlab::app::PipelineView</name>
    <message>
        <source>The pipeline diagram shows pipeline runs. This run uses %1.</source>
        <translation>Диаграмма конвейера показывает конвейерные запуски. Этот запуск использует %1.</translation>
    </message>
    <message>
        <source>no strategy yet</source>
        <translation>стратегия ещё неизвестна</translation>
    </message>
    <message>
        <source>Step %1 · %2 · %3 · %4</source>
        <translation>Шаг %1 · %2 · %3 · %4</translation>
    </message>
    <message numerus="yes">
        <source>%n stage(s)</source>
        <translation>
            <numerusform>%n стадия</numerusform>
            <numerusform>%n стадии</numerusform>
            <numerusform>%n стадий</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n micro-batch(es)</source>
        <translation>
            <numerusform>%n микробатч</numerusform>
            <numerusform>%n микробатча</numerusform>
            <numerusform>%n микробатчей</numerusform>
        </translation>
    </message>
    <message>
        <source>Stage 00</source>
        <translation>Стадия 00</translation>
    </message>
    <message>
        <source>recorded idle (hatched)</source>
        <translation>записанный простой (штриховка)</translation>
    </message>
    <message>
        <source>waiting for a CPU core (dotted)</source>
        <translation>ожидание ядра CPU (точки)</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>Step %1 lasted %2</source>
        <translation>Шаг %1 длился %2</translation>
    </message>
    <message>
        <source>Stage %1</source>
        <translation>Стадия %1</translation>
    </message>
    <message>
        <source>schedule as run</source>
        <translation>расписание как выполнено</translation>
    </message>
    <message>
        <source>hand-offs</source>
        <translation>передачи</translation>
    </message>
    <message>
        <source>slower ops</source>
        <translation>более медленные операции</translation>
    </message>
    <message>
        <source>waiting for cores</source>
        <translation>ожидание ядер</translation>
    </message>
    <message>
        <source>unexplained</source>
        <translation>необъяснённое</translation>
    </message>
    <message>
        <source>REPLAY (%1) · bubble in this replay %2 · theory %3</source>
        <translation>ПОВТОР (%1) · пузырь в этом повторе %2 · теория %3</translation>
    </message>
    <message>
        <source>Bubble %1 measured · theory %2</source>
        <translation>Пузырь %1 измерен · теория %2</translation>
    </message>
    <message>
        <source>other %1</source>
        <translation>прочее %1</translation>
    </message>
    <message>
        <source>%1 · difference %2 (its parts: hover)</source>
        <translation>%1 · разница %2 (части — во всплывающей подсказке)</translation>
    </message>
    <message>
        <source>%1 · difference %2 = %3</source>
        <translation>%1 · разница %2 = %3</translation>
    </message>
    <message>
        <source>Bubble: the recorded pipeline idle over the steady steps&apos; stage time, %1 (theory %2). Its parts come from replays of the trace once a step has completed.</source>
        <translation>Пузырь: записанный простой конвейера относительно времени стадий на установившихся шагах, %1 (теория %2). Его части дают повторы трассы, когда завершится хотя бы один шаг.</translation>
    </message>
    <message>
        <source>Bubble (recorded pipeline idle over the steady steps&apos; stage time): measured %1, theory %2 ((p−1)/(V·m+p−1)).</source>
        <translation>Пузырь (записанный простой конвейера относительно времени стадий на установившихся шагах): измерено %1, теория %2 ((p−1)/(V·m+p−1)).</translation>
    </message>
    <message>
        <source>Difference %1 points, each part a replay of this trace:</source>
        <translation>Разница %1 пункта, каждая часть — повтор этой трассы:</translation>
    </message>
    <message>
        <source>  schedule as run %1: the schedule-alone replay (%2) minus the theory; the formula leaves out the optimizer step, which counts as stage time, and unequal stages</source>
        <translation>  расписание как выполнено %1: повтор «только расписание» (%2) минус теория; формула не учитывает шаг оптимизатора, который считается временем стадии, и неравные стадии</translation>
    </message>
    <message>
        <source>  hand-offs %1: every message at its measured duration</source>
        <translation>  передачи %1: каждое сообщение с его измеренной длительностью</translation>
    </message>
    <message>
        <source>  slower ops %1: every op at its own CPU time, not its fastest</source>
        <translation>  более медленные операции %1: каждая операция со своим временем CPU, а не с самым быстрым</translation>
    </message>
    <message>
        <source>  slower ops %1: every op at its own wall time (no CPU times recorded, so core waits are in it)</source>
        <translation>  более медленные операции %1: каждая операция со своим реальным временем (время CPU не записано, поэтому ожидание ядер входит сюда)</translation>
    </message>
    <message>
        <source>  waiting for cores %1: every op at its wall time</source>
        <translation>  ожидание ядер %1: каждая операция со своим реальным временем</translation>
    </message>
    <message>
        <source>  unexplained %1: what the last replay misses (±%2 expected)</source>
        <translation>  необъяснённое %1: то, чего не воспроизводит последний повтор (ожидается ±%2)</translation>
    </message>
    <message>
        <source>; the replay misses more than that here: read the parts as rough</source>
        <translation>; здесь повтор упускает больше: считайте части приблизительными</translation>
    </message>
    <message>
        <source>A different figure: %1 of stage time was not spent computing at the ops&apos; fastest pace = bubble %2 + ops slower than their fastest %3 + time under no record %4.</source>
        <translation>Другая величина: %1 времени стадий не ушло на вычисления в самом быстром темпе операций = пузырь %2 + операции медленнее своего самого быстрого времени %3 + время без записей %4.</translation>
    </message>
</context>
<context>
    <name>shardlab::app::PlaybackBar</name>
    <message>
        <source>Scrub over the recorded time</source>
        <translation>Перемещение по записанному времени</translation>
    </message>
    <message>
        <source>Follow live</source>
        <translation>Следить за запуском</translation>
    </message>
    <message>
        <source>While a job runs, keep the playhead on the newest event</source>
        <translation>Пока задача выполняется, держать курсор на самом новом событии</translation>
    </message>
    <message>
        <source>Start (Home)</source>
        <translation>В начало (Home)</translation>
    </message>
    <message>
        <source>Previous event (Left)</source>
        <translation>Предыдущее событие (Влево)</translation>
    </message>
    <message>
        <source>Play / pause (Space)</source>
        <translation>Пуск / пауза (Пробел)</translation>
    </message>
    <message>
        <source>Next event (Right)</source>
        <translation>Следующее событие (Вправо)</translation>
    </message>
    <message>
        <source>End (End)</source>
        <translation>В конец (End)</translation>
    </message>
    <message>
        <source>Next collective</source>
        <translation>След. коллективная</translation>
    </message>
    <message>
        <source>Next collective (Ctrl+Right)</source>
        <translation>Следующая коллективная операция (Ctrl+Вправо)</translation>
    </message>
    <message>
        <source>Next phase</source>
        <translation>След. фаза</translation>
    </message>
    <message>
        <source>Next phase: forward, backward, optimizer, then the next step (Shift+Right)</source>
        <translation>Следующая фаза: прямой проход, обратный проход, оптимизатор, затем следующий шаг (Shift+Вправо)</translation>
    </message>
    <message>
        <source>Slower (−)</source>
        <translation>Медленнее (−)</translation>
    </message>
    <message>
        <source>Slow-down: screen time per recorded time</source>
        <translation>Замедление: экранное время на записанное время</translation>
    </message>
    <message>
        <source>Faster (+)</source>
        <translation>Быстрее (+)</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>×%1 slower</source>
        <translation>замедление ×%1</translation>
    </message>
    <message>
        <source>Play / pause</source>
        <translation>Пуск / пауза</translation>
    </message>
    <message>
        <source>Next event</source>
        <translation>Следующее событие</translation>
    </message>
    <message>
        <source>Previous event</source>
        <translation>Предыдущее событие</translation>
    </message>
    <message>
        <source>Previous collective</source>
        <translation>Предыдущая коллективная операция</translation>
    </message>
    <message>
        <source>Previous phase</source>
        <translation>Предыдущая фаза</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>В начало</translation>
    </message>
    <message>
        <source>End</source>
        <translation>В конец</translation>
    </message>
    <message>
        <source>Faster</source>
        <translation>Быстрее</translation>
    </message>
    <message>
        <source>Slower</source>
        <translation>Медленнее</translation>
    </message>
</context>
<context>
    <name>shardlab::app::PlotsView</name>
    <message>
        <source>Rank:</source>
        <translation>Ранг:</translation>
    </message>
    <message>
        <source>Memory over time</source>
        <translation>Память во времени</translation>
    </message>
    <message>
        <source>Loss per step</source>
        <translation>Потери по шагам</translation>
    </message>
    <message>
        <source>Bytes per step</source>
        <translation>Байты за шаг</translation>
    </message>
    <message>
        <source>Compare runs</source>
        <translation>Сравнить запуски</translation>
    </message>
    <message>
        <source>time since start (ms)</source>
        <translation>время от начала (мс)</translation>
    </message>
    <message>
        <source>held (MiB), stacked by category</source>
        <translation>занято (МиБ), по категориям</translation>
    </message>
    <message>
        <source>loss (this run)</source>
        <translation>потери (этот запуск)</translation>
    </message>
    <message>
        <source>step</source>
        <translation>шаг</translation>
    </message>
    <message>
        <source>mean loss per token</source>
        <translation>средние потери на токен</translation>
    </message>
    <message>
        <source>step (rank 0)</source>
        <translation>шаг (ранг 0)</translation>
    </message>
    <message>
        <source>collective buffer bytes (KiB)</source>
        <translation>байты буферов коллективных операций (КиБ)</translation>
    </message>
    <message>
        <source>No run yet for this lesson: it runs once you have made your prediction (or chosen to run without one).</source>
        <translation>Запуска этого урока ещё нет: он начнётся, когда вы сделаете прогноз (или решите запустить без прогноза).</translation>
    </message>
    <message>
        <source>No comparison: run a comparison lesson or use File → Compare with trace…</source>
        <translation>Сравнения нет: запустите урок-сравнение или выберите Файл → Сравнить с трассой…</translation>
    </message>
    <message>
        <source>Step time (steady steps, slowest rank)</source>
        <translation>Время шага (установившиеся шаги, самый медленный ранг)</translation>
    </message>
    <message>
        <source>Step time, schedule alone (replay, communication free)</source>
        <translation>Время шага, только расписание (воспроизведение, обмен бесплатный)</translation>
    </message>
    <message>
        <source>Exposed communication (whole run, per rank)</source>
        <translation>Неперекрытый обмен (весь запуск, на ранг)</translation>
    </message>
    <message>
        <source>Bubble, measured (share of stage time idle)</source>
        <translation>Пузырь, измерено (доля простоя стадий)</translation>
    </message>
    <message>
        <source>Bubble, schedule alone (replay)</source>
        <translation>Пузырь, только расписание (воспроизведение)</translation>
    </message>
    <message>
        <source>Peak memory (highest rank)</source>
        <translation>Пиковая память (ранг с наибольшим пиком)</translation>
    </message>
    <message>
        <source>%1 — out of memory</source>
        <translation>%1 — нехватка памяти</translation>
    </message>
    <message>
        <source>Needed, refused (out of memory)</source>
        <translation>Требовалось, отказано (нехватка памяти)</translation>
    </message>
    <message>
        <source>%1 (%2 more)</source>
        <translation>%1 (ещё %2)</translation>
    </message>
    <message>
        <source>Persistent memory (end of the last step)</source>
        <translation>Постоянная память (конец последнего шага)</translation>
    </message>
    <message>
        <source>Memory budget per rank</source>
        <translation>Бюджет памяти на ранг</translation>
    </message>
    <message>
        <source>none</source>
        <translation>нет</translation>
    </message>
    <message>
        <source>%1: persistent</source>
        <translation>%1: постоянная</translation>
    </message>
    <message>
        <source>%1: peak</source>
        <translation>%1: пик</translation>
    </message>
    <message>
        <source>%1: needed, refused (out of memory)</source>
        <translation>%1: требовалось, отказано (нехватка памяти)</translation>
    </message>
    <message>
        <source>memory budget %1</source>
        <translation>бюджет памяти %1</translation>
    </message>
    <message>
        <source>rank</source>
        <translation>ранг</translation>
    </message>
    <message>
        <source>held (MiB)</source>
        <translation>занято (МиБ)</translation>
    </message>
</context>
<context>
    <name>shardlab::app::QuizController</name>
    <message>
        <source>no assets folder was found, so the quiz has no sentences</source>
        <translation>папка ресурсов не найдена, поэтому у теста нет фраз</translation>
    </message>
</context>
<context>
    <name>shardlab::app::QuizOverlay</name>
    <message>
        <source>Quiz</source>
        <translation>Тест</translation>
    </message>
    <message>
        <source>Hide (F9)</source>
        <translation>Скрыть (F9)</translation>
    </message>
    <message>
        <source>Hide the quiz; F9 shows it again.</source>
        <translation>Скрыть тест; F9 покажет его снова.</translation>
    </message>
</context>
<context>
    <name>shardlab::app::QuizPanel</name>
    <message>
        <source>At t = %1 ms:</source>
        <translation>При t = %1 мс:</translation>
    </message>
    <message>
        <source>This run does not show this moment.</source>
        <translation>Этот запуск не показывает этот момент.</translation>
    </message>
    <message>
        <source>Not a value of this kind (%1).</source>
        <translation>Это не значение нужного вида (%1).</translation>
    </message>
    <message>
        <source>Saved: %1. It is compared with the run&apos;s measurement when the run is there.</source>
        <translation>Сохранено: %1. Прогноз сравнивается с измерением, как только есть запуск.</translation>
    </message>
    <message>
        <source>First, predict: %1 The run starts when you save your prediction (or run without one).</source>
        <translation>Сначала сделайте прогноз: %1 Запуск начнётся, когда вы сохраните прогноз (или запустите без него).</translation>
    </message>
    <message>
        <source>No questions yet: run a lesson or open a trace.</source>
        <translation>Вопросов пока нет: запустите урок или откройте трассу.</translation>
    </message>
    <message>
        <source>About your run</source>
        <translation>О вашем запуске</translation>
    </message>
    <message>
        <source>Lesson question</source>
        <translation>Вопрос урока</translation>
    </message>
    <message>
        <source>Right.</source>
        <translation>Верно.</translation>
    </message>
    <message>
        <source>Not quite. The answer: %1</source>
        <translation>Не совсем. Ответ: %1</translation>
    </message>
    <message>
        <source>This run does not show it; running the lesson %1…</source>
        <translation>Этот запуск этого не показывает; запускаю урок %1…</translation>
    </message>
    <message>
        <source>Questions</source>
        <translation>Вопросы</translation>
    </message>
    <message>
        <source>Review</source>
        <translation>Повторение</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Сохранить</translation>
    </message>
    <message>
        <source>Run without predicting</source>
        <translation>Запустить без прогноза</translation>
    </message>
    <message>
        <source>Predict before you run:</source>
        <translation>Предскажите до запуска:</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>Проверить</translation>
    </message>
    <message>
        <source>Show me the moment</source>
        <translation>Показать этот момент</translation>
    </message>
    <message>
        <source>Show me</source>
        <translation>Показать</translation>
    </message>
    <message>
        <source>◀ Previous</source>
        <translation>◀ Назад</translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation>Далее ▶</translation>
    </message>
</context>
<context>
    <name>shardlab::app::QuizPlace</name>
    <message>
        <source>Quiz overlay (presentation)</source>
        <translation>Тест поверх видов (презентация)</translation>
    </message>
</context>
<context>
    <name>shardlab::app::RankView</name>
    <message numerus="yes">
        <source>HYBRID_SHARD: each shard group of %n rank(s) splits every unit; the ranks that hold the same slice are replicas, kept equal by an all-reduce across the groups</source>
        <translation>
            <numerusform>HYBRID_SHARD: каждая группа шардирования из %n ранга делит каждый модуль; ранги с одной и той же частью — реплики, одинаковые благодаря all-reduce между группами</numerusform>
            <numerusform>HYBRID_SHARD: каждая группа шардирования из %n рангов делит каждый модуль; ранги с одной и той же частью — реплики, одинаковые благодаря all-reduce между группами</numerusform>
            <numerusform>HYBRID_SHARD: каждая группа шардирования из %n рангов делит каждый модуль; ранги с одной и той же частью — реплики, одинаковые благодаря all-reduce между группами</numerusform>
        </translation>
    </message>
    <message>
        <source>no work at this instant</source>
        <translation>в этот момент работы нет</translation>
    </message>
    <message>
        <source>shard group %1: ranks %2–%3</source>
        <translation>группа шардирования %1: ранги %2–%3</translation>
    </message>
    <message>
        <source>Rank %1</source>
        <translation>Ранг %1</translation>
    </message>
    <message>
        <source>group %1 · slice %2</source>
        <translation>группа %1 · часть %2</translation>
    </message>
    <message>
        <source>slice %1</source>
        <translation>часть %1</translation>
    </message>
    <message>
        <source>idle: %1</source>
        <translation>простой: %1</translation>
    </message>
    <message>
        <source>last recorded: %1</source>
        <translation>последнее записанное: %1</translation>
    </message>
    <message>
        <source>OUT OF MEMORY</source>
        <translation>НЕХВАТКА ПАМЯТИ</translation>
    </message>
    <message>
        <source>FAILED</source>
        <translation>СБОЙ</translation>
    </message>
    <message>
        <source>MISSING: %1</source>
        <translation>ОТСУТСТВУЕТ: %1</translation>
    </message>
    <message>
        <source>FAILED: %1</source>
        <translation>СБОЙ: %1</translation>
    </message>
    <message>
        <source>%1 held · peak %2</source>
        <translation>занято %1 · пик %2</translation>
    </message>
    <message>
        <source> · budget %1</source>
        <translation> · бюджет %1</translation>
    </message>
    <message>
        <source>%1 held</source>
        <translation>занято %1</translation>
    </message>
    <message numerus="yes">
        <source>Rank %1 %2; rank(s) %3 wait for it.</source>
        <translation>
            <numerusform>Ранг %1 %2; ранг %3 ждёт его.</numerusform>
            <numerusform>Ранг %1 %2; ранги %3 ждут его.</numerusform>
            <numerusform>Ранг %1 %2; ранги %3 ждут его.</numerusform>
        </translation>
    </message>
    <message>
        <source>Rank %1 failed: %2.</source>
        <translation>Ранг %1 завершился с ошибкой: %2.</translation>
    </message>
    <message>
        <source>Out of memory: %1 needed %2 more while holding %3; budget %4.</source>
        <translation>Нехватка памяти: %1 требовалось ещё %2 при %3 занятых; бюджет %4.</translation>
    </message>
    <message>
        <source> of %1</source>
        <translation> из %1</translation>
    </message>
    <message>
        <source>No run yet for this lesson: it runs once you have made your prediction (or chosen to run without one).</source>
        <translation>Запуска этого урока ещё нет: он начнётся, когда вы сделаете прогноз (или решите запустить без прогноза).</translation>
    </message>
    <message>
        <source>No run yet. Pick a lesson or run an experiment.</source>
        <translation>Запусков ещё нет. Выберите урок или запустите эксперимент.</translation>
    </message>
</context>
<context>
    <name>shardlab::app::ReviewView</name>
    <message>
        <source>Right at the first try.</source>
        <translation>Верно с первой попытки.</translation>
    </message>
    <message>
        <source>Wrong at the first try.</source>
        <translation>Неверно с первой попытки.</translation>
    </message>
    <message>
        <source>Your answer:</source>
        <translation>Ваш ответ:</translation>
    </message>
    <message>
        <source>Right answer:</source>
        <translation>Правильный ответ:</translation>
    </message>
    <message>
        <source>No answers yet in this quiz.</source>
        <translation>В этом тесте ещё нет ответов.</translation>
    </message>
    <message>
        <source>No mistakes to review.</source>
        <translation>Ошибок для повторения нет.</translation>
    </message>
</context>
<context>
    <name>shardlab::app::StartPage</name>
    <message>
        <source>No lessons were found: %1</source>
        <translation>Уроки не найдены: %1</translation>
    </message>
    <message>
        <source>&lt;h1&gt;ShardLab&lt;/h1&gt;&lt;p&gt;Run a small real training job on several ranks and watch what actually happened: every block, shard and number on screen comes from the recorded trace.&lt;/p&gt;</source>
        <translation>&lt;h1&gt;ShardLab&lt;/h1&gt;&lt;p&gt;Запустите небольшую реальную задачу обучения на нескольких рангах и посмотрите, что на самом деле произошло: каждый блок, шард и число на экране взяты из записанной трассы.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Lessons&lt;/h3&gt;</source>
        <translation>&lt;h3&gt;Уроки&lt;/h3&gt;</translation>
    </message>
    <message>
        <source>&lt;h3&gt;On your own&lt;/h3&gt;</source>
        <translation>&lt;h3&gt;Самостоятельно&lt;/h3&gt;</translation>
    </message>
    <message>
        <source>Free experiment</source>
        <translation>Свободный эксперимент</translation>
    </message>
    <message>
        <source>Choose the strategy, ranks, model size and schedule yourself.</source>
        <translation>Сами выберите стратегию, число рангов, размер модели и расписание.</translation>
    </message>
    <message>
        <source>Open a trace</source>
        <translation>Открыть трассу</translation>
    </message>
    <message>
        <source>Replay a trace recorded earlier by shardlab-run --trace.</source>
        <translation>Воспроизвести трассу, записанную ранее через shardlab-run --trace.</translation>
    </message>
    <message>
        <source>Run this lesson</source>
        <translation>Запустить урок</translation>
    </message>
    <message>
        <source>Show the answer</source>
        <translation>Показать ответ</translation>
    </message>
    <message>
        <source>%1 — complete: you answered all its questions.</source>
        <translation>%1 — пройден: вы ответили на все его вопросы.</translation>
    </message>
</context>
<context>
    <name>shardlab::app::SummaryView</name>
    <message>
        <source>%1 modelled</source>
        <translation>%1 по модели</translation>
    </message>
    <message>
        <source>%1 modelled · %2 measured</source>
        <translation>%1 по модели · %2 измерено</translation>
    </message>
    <message>
        <source>&lt;p&gt;No run yet.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Запусков ещё нет.&lt;/p&gt;</translation>
    </message>
    <message numerus="yes">
        <source>&lt;p&gt;%1 on %n rank(s) · %2 of %3 steps (ProfilerStep) · %4 units · wall %5 · the trace records neither the parameters nor the loss, and is not replayed&lt;/p&gt;</source>
        <translation>
            <numerusform>&lt;p&gt;%1 на %n ранге · %2 из %3 шагов (ProfilerStep) · модулей: %4 · время %5 · в трассе нет ни параметров, ни потерь, и она не воспроизводится&lt;/p&gt;</numerusform>
            <numerusform>&lt;p&gt;%1 на %n рангах · %2 из %3 шагов (ProfilerStep) · модулей: %4 · время %5 · в трассе нет ни параметров, ни потерь, и она не воспроизводится&lt;/p&gt;</numerusform>
            <numerusform>&lt;p&gt;%1 на %n рангах · %2 из %3 шагов (ProfilerStep) · модулей: %4 · время %5 · в трассе нет ни параметров, ни потерь, и она не воспроизводится&lt;/p&gt;</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;p&gt;%1 on %n rank(s) · %2 of %3 steps · %4 parameters in %5 units · wall %6&lt;/p&gt;</source>
        <translation>
            <numerusform>&lt;p&gt;%1 на %n ранге · %2 из %3 шагов · %4 параметров в модулях (%5) · время %6&lt;/p&gt;</numerusform>
            <numerusform>&lt;p&gt;%1 на %n рангах · %2 из %3 шагов · %4 параметров в модулях (%5) · время %6&lt;/p&gt;</numerusform>
            <numerusform>&lt;p&gt;%1 на %n рангах · %2 из %3 шагов · %4 параметров в модулях (%5) · время %6&lt;/p&gt;</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;p&gt;Loss %1 → %2&lt;/p&gt;</source>
        <translation>&lt;p&gt;Потери %1 → %2&lt;/p&gt;</translation>
    </message>
    <message>
        <source>rank</source>
        <translation>ранг</translation>
    </message>
    <message>
        <source>persistent</source>
        <translation>постоянная</translation>
    </message>
    <message>
        <source>peak</source>
        <translation>пик</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>вычисления</translation>
    </message>
    <message>
        <source>comm</source>
        <translation>обмен</translation>
    </message>
    <message>
        <source>exposed comm</source>
        <translation>неперекрытый обмен</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>простой</translation>
    </message>
    <message>
        <source>sent</source>
        <translation>отправлено</translation>
    </message>
    <message>
        <source>collective</source>
        <translation>коллективная операция</translation>
    </message>
    <message>
        <source>calls per rank</source>
        <translation>вызовов на ранг</translation>
    </message>
    <message>
        <source>buffer bytes</source>
        <translation>байты буферов</translation>
    </message>
    <message>
        <source>on the wire</source>
        <translation>по сети</translation>
    </message>
    <message>
        <source>time</source>
        <translation>время</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;i&gt;Modelled&lt;/i&gt;: what a ring algorithm sends for each recorded call. &lt;i&gt;Measured&lt;/i&gt;: what Open MPI&apos;s monitoring counted the rank really sending, whatever algorithm it chose; not available on NCCL ranks, for point-to-point messages on Open MPI 4.1, or with &lt;code&gt;--no-wire-monitoring&lt;/code&gt;.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;i&gt;По модели&lt;/i&gt;: сколько отправил бы кольцевой алгоритм для каждого записанного вызова. &lt;i&gt;Измерено&lt;/i&gt;: сколько ранг реально отправил по подсчёту мониторинга Open MPI, какой бы алгоритм ни был выбран; недоступно на рангах NCCL, для сообщений «точка — точка» в Open MPI 4.1 и с `--no-wire-monitoring`.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Pipeline bubble (%1; p = %2 stages, m = %3 micro-batches, V = %4 model chunks per rank): measured %5%, theory %6%&lt;/p&gt;</source>
        <translation>&lt;p&gt;Пузырь конвейера (%1; p — число стадий: %2, m — число микробатчей: %3, V — число частей модели на ранг: %4): измеренный %5%, теоретический %6%&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Out of memory on rank %1&lt;/b&gt;: %2 needed %3 more while holding %4; the budget is %5.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Нехватка памяти на ранге %1&lt;/b&gt;: %2 требовалось ещё %3 при %4 занятых; бюджет %5.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Rank %1 failed&lt;/b&gt;: %2&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Ранг %1 завершился с ошибкой&lt;/b&gt;: %2&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>shardlab::app::TimelineView</name>
    <message>
        <source>CPU rank 00</source>
        <translation>CPU-ранг 00</translation>
    </message>
    <message>
        <source>The timeline fills in as the job runs.</source>
        <translation>Временная шкала заполняется по ходу задачи.</translation>
    </message>
    <message>
        <source>CPU rank %1</source>
        <translation>CPU-ранг %1</translation>
    </message>
    <message>
        <source>GPU rank %1</source>
        <translation>GPU-ранг %1</translation>
    </message>
    <message>
        <source>OOM</source>
        <translation>OOM</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>сбой</translation>
    </message>
</context>
<context>
    <name>shardlab::app::TraceModel</name>
    <message>
        <source>Cannot open %1: the file does not exist or is not readable.</source>
        <translation>Не удалось открыть %1: файла нет или он недоступен для чтения.</translation>
    </message>
    <message>
        <source>%1, line %2: %3.%4</source>
        <translation>%1, строка %2: %3.%4</translation>
    </message>
    <message numerus="yes">
        <source> The %n event(s) before it are shown.</source>
        <translation>
            <numerusform> Показано %n событие до неё.</numerusform>
            <numerusform> Показаны %n события до неё.</numerusform>
            <numerusform> Показаны %n событий до неё.</numerusform>
        </translation>
    </message>
    <message>
        <source>stream line %1: %2</source>
        <translation>строка потока %1: %2</translation>
    </message>
    <message>
        <source>CPU rank %1</source>
        <translation>CPU-ранг %1</translation>
    </message>
    <message>
        <source>GPU rank %1</source>
        <translation>GPU-ранг %1</translation>
    </message>
    <message>
        <source>GPU rank %1 · %2</source>
        <translation>GPU-ранг %1 · %2</translation>
    </message>
    <message>
        <source>No run</source>
        <translation>Запуска нет</translation>
    </message>
    <message numerus="yes">
        <source>%n GPU rank(s)</source>
        <translation>
            <numerusform>%n GPU-ранг</numerusform>
            <numerusform>%n GPU-ранга</numerusform>
            <numerusform>%n GPU-рангов</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n CPU rank(s)</source>
        <translation>
            <numerusform>%n CPU-ранг</numerusform>
            <numerusform>%n CPU-ранга</numerusform>
            <numerusform>%n CPU-рангов</numerusform>
        </translation>
    </message>
    <message>
        <source>Imported from a PyTorch profiler trace: %1</source>
        <translation>Импортировано из трассы профилировщика PyTorch: %1</translation>
    </message>
    <message>
        <source>Imported from a PyTorch profiler trace: %1, %2 backend</source>
        <translation>Импортировано из трассы профилировщика PyTorch: %1, бэкенд %2</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>(Open MPI, shared memory)</source>
        <translation>(Open MPI, общая память)</translation>
    </message>
    <message>
        <source>, each on a core of its own</source>
        <translation>, каждый на своём ядре</translation>
    </message>
    <message>
        <source>, each on CPUs of its own</source>
        <translation>, каждый на своих процессорах</translation>
    </message>
    <message numerus="yes">
        <source>%n rank(s), device not yet known</source>
        <translation>
            <numerusform>%n ранг, устройство пока неизвестно</numerusform>
            <numerusform>%n ранга, устройство пока неизвестно</numerusform>
            <numerusform>%n рангов, устройство пока неизвестно</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n rank(s) not yet reported</source>
        <translation>
            <numerusform>%n ранг ещё не отчитался</numerusform>
            <numerusform>%n ранга ещё не отчитались</numerusform>
            <numerusform>%n рангов ещё не отчитались</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>on %n host(s)</source>
        <translation>
            <numerusform>на %n хосте</numerusform>
            <numerusform>на %n хостах</numerusform>
            <numerusform>на %n хостах</numerusform>
        </translation>
    </message>
    <message>
        <source>REPLAY of this run (%1) — %2</source>
        <translation>ВОСПРОИЗВЕДЕНИЕ этого запуска (%1) — %2</translation>
    </message>
    <message>
        <source>schedule alone: communication free, each op at its fastest recorded time</source>
        <translation>только расписание: обмены бесплатны, каждая операция — за самое короткое записанное время</translation>
    </message>
    <message>
        <source>communication as fitted to this run</source>
        <translation>обмены, подогнанные по этому запуску</translation>
    </message>
    <message>
        <source>projected on %1, ops at their fastest recorded time</source>
        <translation>прогноз для %1, операции — за самое короткое записанное время</translation>
    </message>
</context>
<context>
    <name>shardlab::app::WorkspacePage</name>
    <message>
        <source>%v / %m steps</source>
        <translation>%v / %m шагов</translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation>Ранги</translation>
    </message>
    <message>
        <source>Pipeline</source>
        <translation>Конвейер</translation>
    </message>
    <message>
        <source>Plots</source>
        <translation>Графики</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>Сводка</translation>
    </message>
    <message>
        <source>Memory ledger</source>
        <translation>Учёт памяти</translation>
    </message>
    <message>
        <source>Both runs</source>
        <translation>Оба запуска</translation>
    </message>
    <message>
        <source>no run</source>
        <translation>запуска нет</translation>
    </message>
    <message>
        <source>Running: %1</source>
        <translation>Выполняется: %1</translation>
    </message>
    <message>
        <source>An imported PyTorch trace is not replayed: it records no wait for a collective and not the time between its ops, so a replay would not be this run.</source>
        <translation>Импортированная трасса PyTorch не воспроизводится: в ней нет ожиданий коллективных операций и нет времени между операциями, так что воспроизведение не было бы этим запуском.</translation>
    </message>
    <message>
        <source>this run</source>
        <translation>этот запуск</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>Измерено</translation>
    </message>
    <message>
        <source>Schedule alone</source>
        <translation>Только расписание</translation>
    </message>
    <message>
        <source>Projected</source>
        <translation>Прогноз</translation>
    </message>
    <message>
        <source>What this run measured on this machine.</source>
        <translation>То, что этот запуск измерил на этой машине.</translation>
    </message>
    <message>
        <source>Replay of this run&apos;s own dependency graph with communication free and each op at its fastest recorded time: what the schedule alone costs. A computation on the trace, not a new run.</source>
        <translation>Воспроизведение графа зависимостей этого запуска: обмены бесплатны, каждая операция — за своё самое короткое записанное время; столько стоит одно расписание. Это расчёт по трассе, а не новый запуск.</translation>
    </message>
    <message>
        <source>Replay of this run&apos;s graph with each transfer costed on %1 (docs/replay.md) and each op at its fastest recorded time. A computation on the trace, not a new run.</source>
        <translation>Воспроизведение графа этого запуска: каждая передача оценена для %1 (docs/replay.md), каждая операция — за своё самое короткое записанное время. Это расчёт по трассе, а не новый запуск.</translation>
    </message>
</context>
</TS>
