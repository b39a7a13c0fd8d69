<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>Appearance</name>
    <message>
        <source>Light theme</source>
        <translation></translation>
    </message>
    <message>
        <source>Dark theme</source>
        <translation></translation>
    </message>
    <message>
        <source>Presentation mode (large)</source>
        <translation></translation>
    </message>
    <message>
        <source>Larger text</source>
        <translation></translation>
    </message>
    <message>
        <source>Smaller text</source>
        <translation></translation>
    </message>
    <message>
        <source>Language</source>
        <translation></translation>
    </message>
</context>
<context>
    <name>Captions</name>
    <message>
        <source> (micro-batch %1)</source>
        <translation></translation>
    </message>
    <message>
        <source>Rank %1 computes %2 of %3%4 in step %5 — %6</source>
        <translation></translation>
    </message>
    <message numerus="yes">
        <source>Rank %1 all-reduces %2 of %3 with rank(s) %4: every rank ends with the sum — %5</source>
        <translation>
            <numerusform>Rank %1 all-reduces %2 of %3 with rank %4: every rank ends with the sum — %5</numerusform>
            <numerusform>Rank %1 all-reduces %2 of %3 with ranks %4: every rank ends with the sum — %5</numerusform>
        </translation>
    </message>
    <message>
        <source>Rank %1 sends %2 (%3×%4) to rank %5%6 — %7</source>
        <translation></translation>
    </message>
    <message>
        <source>Rank %1 receives %2 (%3×%4) from rank %5%6 — %7</source>
        <translation></translation>
    </message>
    <message>
        <source>Rank %1: %2 of %3, %4 — %5</source>
        <translation></translation>
    </message>
    <message>
        <source>Rank %1 runs out of memory: %2 needs %3 more, it holds %4 and the budget is %5</source>
        <translation></translation>
    </message>
    <message>
        <source> of %1</source>
        <translation></translation>
    </message>
    <message>
        <source>Rank %1 failed: %2</source>
        <translation></translation>
    </message>
    <message>
        <source>Rank %1 finished step %2 (loss %3)</source>
        <translation></translation>
    </message>
    <message>
        <source>Rank %1 %2 %3 of %4 for %5; it now holds %6</source>
        <translation></translation>
    </message>
    <message>
        <source>allocates</source>
        <translation></translation>
    </message>
    <message>
        <source>frees</source>
        <translation></translation>
    </message>
    <message numerus="yes">
        <source>Rank %1 all-gathers %2: %n shard(s) of %3 from ranks %4 — %5</source>
        <translation>
            <numerusform>Rank %1 all-gathers %2: %n shard of %3 from rank %4 — %5</numerusform>
            <numerusform>Rank %1 all-gathers %2: %n shards of %3 from ranks %4 — %5</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Rank %1 reduce-scatters the gradients of %2: sends %n slice(s) of %3 to ranks %4 and keeps its own — %5</source>
        <translation>
            <numerusform>Rank %1 reduce-scatters the gradients of %2: sends %n slice of %3 to rank %4 and keeps its own — %5</numerusform>
            <numerusform>Rank %1 reduce-scatters the gradients of %2: sends %n slices of %3 to ranks %4 and keeps its own — %5</numerusform>
        </translation>
    </message>
    <message>
        <source>Rank %1 is idle, %2%3 — %4 of pipeline bubble</source>
        <translation>Rank %1 is idle, %2%3 — %4 of pipeline bubble</translation>
    </message>
    <message>
        <source>Rank %1 is idle, %2%3 — %4 of exposed communication</source>
        <translation>Rank %1 is idle, %2%3 — %4 of exposed communication</translation>
    </message>
    <message>
        <source>%1 · rank %2 waited %3 of it for a CPU core (CPU time %4)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Format</name>
    <message>
        <source>%1 ns</source>
        <translation></translation>
    </message>
    <message>
        <source>%1 µs</source>
        <translation></translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation></translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation></translation>
    </message>
    <message>
        <source>%1 and %2</source>
        <translation></translation>
    </message>
    <message>
        <source>KiB</source>
        <translation>KiB</translation>
    </message>
    <message>
        <source>MiB</source>
        <translation>MiB</translation>
    </message>
    <message>
        <source>GiB</source>
        <translation>GiB</translation>
    </message>
    <message>
        <source>B</source>
        <translation>B</translation>
    </message>
    <message>
        <source>exited with status %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>killed by signal %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>killed by signal %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stopped the job (MPI_Abort, error code %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>out of memory on rank %1: needs %2 for %3, budget %4, holding %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>hang: %1 had not finished after %2 s (Hang timeout in the Experiment form); its flight recorder is in the trace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>parameter shard</source>
        <translation></translation>
    </message>
    <message>
        <source>parameter replica</source>
        <translation></translation>
    </message>
    <message>
        <source>gathered parameters</source>
        <translation></translation>
    </message>
    <message>
        <source>gradients</source>
        <translation></translation>
    </message>
    <message>
        <source>gradient shard</source>
        <translation></translation>
    </message>
    <message>
        <source>optimizer state</source>
        <translation></translation>
    </message>
    <message>
        <source>activations</source>
        <translation></translation>
    </message>
    <message>
        <source>comm buffers</source>
        <translation></translation>
    </message>
    <message>
        <source>forward</source>
        <translation></translation>
    </message>
    <message>
        <source>backward</source>
        <translation></translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation></translation>
    </message>
    <message>
        <source>all-gather</source>
        <translation></translation>
    </message>
    <message>
        <source>reduce-scatter</source>
        <translation></translation>
    </message>
    <message>
        <source>all-reduce</source>
        <translation></translation>
    </message>
    <message>
        <source>send</source>
        <translation></translation>
    </message>
    <message>
        <source>receive</source>
        <translation></translation>
    </message>
    <message>
        <source>broadcast</source>
        <translation></translation>
    </message>
    <message>
        <source>waiting for an activation</source>
        <translation></translation>
    </message>
    <message>
        <source>waiting for a gradient</source>
        <translation></translation>
    </message>
    <message>
        <source>waiting for a collective</source>
        <translation></translation>
    </message>
    <message>
        <source>%1 from rank %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 to rank %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 in step %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (micro-batch %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <comment>a memory category of a unit</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <comment>a call of a unit</comment>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1… (%n more characters in the trace)</source>
        <translation>
            <numerusform>%1… (%n more character in the trace)</numerusform>
            <numerusform>%1… (%n more characters in the trace)</numerusform>
        </translation>
    </message>
    <message>
        <source>backward, input gradient</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>backward, weight gradients</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>uncategorised</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>HelpMenu</name>
    <message>
        <source>&lt;p&gt;They work wherever the focus is in the window, also when the timeline or the rank view has it (click a view to give it the focus). In a text field being edited, Space and the arrows type and move the cursor; saving a prediction gives the keys back to the view.&lt;/p&gt;</source>
        <translation></translation>
    </message>
    <message>
        <source>&lt;p&gt;In the timeline: mouse wheel zooms, dragging pans, a click moves the playhead.&lt;/p&gt;</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation></translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;About ShardLab</source>
        <translation></translation>
    </message>
    <message>
        <source>About ShardLab</source>
        <translation></translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;ShardLab %1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Teaches distributed training by running small real jobs under Open MPI and replaying what they recorded.&lt;/p&gt;</source>
        <translation></translation>
    </message>
</context>
<context>
    <name>JobRule</name>
    <message>
        <source>must be a JSON object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an integer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a non-negative integer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a string</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be true or false</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a list of unit counts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a size such as 3MiB or a number of bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a size (use bytes, KiB, MiB or GiB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be one of %1 (got &apos;%2&apos;)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be between %1 and %2 (got %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be at least %1 (got %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a positive number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must not be negative</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the global batch (%1) must be divisible by ranks (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the naive schedule runs the whole batch at once (use 1, or gpipe/1f1b)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must divide the global batch (%1 is not divisible by %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a pipeline of %1 stages needs at least as many units, the model has %2 (layers + 2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the interleaved schedule cuts the model into ranks x virtual stages = %1 chunks of at least one unit, the model has %2 (layers + 2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the interleaved schedule needs at least 2 chunks per rank</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the interleaved schedule needs at least 2 ranks (its chunks alternate between ranks)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>only the interleaved schedule uses virtual stages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the interleaved schedule needs a multiple of the stage count (%1), got %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expected %1 unit counts, one per stage (per chunk when interleaved), got %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unit counts must add up to the model&apos;s %1 units</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>every stage needs at least one unit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the tensor-parallel degree (%1) must divide hidden (%2) and 4 x hidden (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>hybrid sharding needs the number of ranks per shard group</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the shard group (%1 ranks) must divide the ranks (%2) into equal groups</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>only FSDP&apos;s hybrid sharding uses a shard group</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>only DDP and FSDP have this option (the strategy is %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the global batch (%1) must split into ranks (%2) x micro-steps (%3) equal micro-batches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no_sync skips the reduction of every micro-step but the last: it needs at least 2 micro-steps (accumulate)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is implemented for FSDP&apos;s grad-op, full and hybrid sharding (the stages that gather parameters and reduce-scatter gradients)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be null or {&quot;rank&quot;: R, &quot;factor&quot;: F, &quot;from_step&quot;: S}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the slow rank (%1) must be one of the job&apos;s ranks, 0 to %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the slow rank&apos;s factor must be at least 1 (got %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>there is no file &apos;%1&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&apos;%1&apos; cannot be read as a hostfile (not a readable file)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&apos;%1&apos; names no host (one host per line, e.g. &apos;lab-pc-01 slots=4&apos;)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the attention heads (%1) must divide hidden (%2): each head has hidden / heads dimensions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the tensor-parallel degree (%1) must divide the attention heads (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a batch of %1 sequences of %2 tokens is more than the %3 tokens a batch may hold</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the %1 schedule needs at least 2 stages (ranks): its weight gradients wait to fill the time a stage waits for its neighbours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the GPT does not run the %1 schedule yet: its backward is not split into input and weight gradients (B and W)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a mesh: write its dimensions and sizes, e.g. dp=2,tp=2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown dimension &apos;%1&apos; (the dimensions are dp, pp and tp)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the dimension %1 is named twice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the mesh&apos;s sizes multiply to %1 ranks, the job has %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the %1 strategy does not run over %2: that dimension must be 1 (ddp and fsdp run over dp, tp over dp and tp, pipeline over dp and pp)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the global batch (%1) must be divisible by the data-parallel degree dp (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must divide each replica&apos;s batch (the global batch %1 over dp = %2 replicas, in %3 micro-batches)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an integer between %1 and %2 (got %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>only the %1 strategy has this option (the strategy is %2)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>JobText</name>
    <message>
        <source> · no prefetch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · budget %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source> · shard groups of %n ranks</source>
        <translation>
            <numerusform> · shard groups of %n rank</numerusform>
            <numerusform> · shard groups of %n ranks</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 · %2 · %3 × %4 · batch %5 · %6</source>
        <extracomment>%1 strategy, %2 &quot;4 ranks&quot;, %3 &quot;4 layers&quot;, %4 hidden size, %5 batch, %6 &quot;20 steps&quot;</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n rank(s)</source>
        <translation>
            <numerusform>%n rank</numerusform>
            <numerusform>%n ranks</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n layer(s)</source>
        <translation>
            <numerusform>%n layer</numerusform>
            <numerusform>%n layers</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n step(s)</source>
        <translation>
            <numerusform>%n step</numerusform>
            <numerusform>%n steps</numerusform>
        </translation>
    </message>
    <message>
        <source> · %1, %2</source>
        <extracomment>%1 the pipeline schedule, %2 &quot;4 micro-batches&quot;</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n micro-batch(es)</source>
        <translation>
            <numerusform>%n micro-batch</numerusform>
            <numerusform>%n micro-batches</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LabOpener</name>
    <message>
        <source>Open lab</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The lab %1 is not valid.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LearnerDialogs</name>
    <message>
        <source>Who is learning?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your name (or a nickname). Your answers and predictions are kept under it, apart from other learners on this computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this computer&apos;s unnamed learner</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reset my progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forget every answer and prediction of %1? The lessons lose their ticks. This cannot be undone.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LessonCatalog</name>
    <message>
        <source> vs </source>
        <translation></translation>
    </message>
</context>
<context>
    <name>MemoryLedger</name>
    <message>
        <source>equal</source>
        <translation></translation>
    </message>
    <message>
        <source>not held at the end of a step: freed after the optimizer step</source>
        <translation></translation>
    </message>
    <message>
        <source>+%1: each unit&apos;s flat parameter is padded to a multiple of the shard degree D</source>
        <translation></translation>
    </message>
    <message>
        <source>%1 %2 the arithmetic with padding (%3): not explained</source>
        <translation></translation>
    </message>
    <message>
        <source>above</source>
        <translation></translation>
    </message>
    <message>
        <source>below</source>
        <translation></translation>
    </message>
    <message>
        <source>units rebuilt for their compute: the peak is %1 × the largest unit (%2), the unit computing and those prefetched or kept</source>
        <translation></translation>
    </message>
    <message>
        <source>full gradients of the units being reduce-scattered, freed once their slice is reduced</source>
        <translation></translation>
    </message>
    <message>
        <source>not in the Ψ arithmetic: they grow with the batch, the hidden size and the layers, not with Ψ</source>
        <translation></translation>
    </message>
    <message>
        <source>staging for collectives and messages</source>
        <translation></translation>
    </message>
    <message>
        <source>no memory record of this rank before the run stopped out of memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not allocated when the run stopped out of memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 short: the run stopped out of memory before all of it was allocated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>what the rank still held when its last step ended, of the allocations the profiler saw (on CPU ranks those made while it recorded: the parameters, allocated before it, are not counted)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the profiler&apos;s largest total allocated on this rank</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Phases</name>
    <message>
        <source>Step %1 · forward pass</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step %1 · backward pass</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step %1 · optimizer step</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RunEnding</name>
    <message>
        <source>Rank %1 failed: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Then rank(s) %1 failed too.</source>
        <translation>
            <numerusform>Then rank %1 failed too.</numerusform>
            <numerusform>Then ranks %1 failed too.</numerusform>
        </translation>
    </message>
    <message>
        <source>The other ranks were stopped; the trace up to the failure is shown.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source> Rank(s) %1 finished it.</source>
        <translation>
            <numerusform> Rank %1 finished it.</numerusform>
            <numerusform> Ranks %1 finished it.</numerusform>
        </translation>
    </message>
    <message>
        <source>never entered %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiting in %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>waiting in %1 for rank(s) %2</source>
        <translation>
            <numerusform>waiting in %1 for rank %2</numerusform>
            <numerusform>waiting in %1 for ranks %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>rank(s) %1 are waiting in %2</source>
        <translation>
            <numerusform>rank %1 is waiting in %2</numerusform>
            <numerusform>ranks %1 are waiting in %2</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 %2; rank %3 got past it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2; rank %3 never sent it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2; rank %3 never received it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>rank(s) %1 never entered %2</source>
        <translation>
            <numerusform>rank %1 never entered %2</numerusform>
            <numerusform>ranks %1 never entered %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>rank(s) %1 are waiting in it</source>
        <translation>
            <numerusform>rank %1 is waiting in it</numerusform>
            <numerusform>ranks %1 are waiting in it</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 %2; %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hang after %1 s (Hang timeout in the Experiment form):</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Sizing</name>
    <message>
        <source>one micro-batch&apos;s compute on a stage is about %1× a hand-off (needs at least %2×)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a block&apos;s forward compute is about %1× its all-gather (needs at least %2×)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a block&apos;s backward compute is about %1× its gradient all-reduce (needs at least %2×)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>free cores per rank: about %1 (needs at least %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n stage(s)</source>
        <translation>
            <numerusform>%n stage</numerusform>
            <numerusform>%n stages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n rank(s)</source>
        <translation>
            <numerusform>%n rank</numerusform>
            <numerusform>%n ranks</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>**Sized for this machine:** %n core(s)</source>
        <translation>
            <numerusform>**Sized for this machine:** %n core</numerusform>
            <numerusform>**Sized for this machine:** %n cores</numerusform>
        </translation>
    </message>
    <message>
        <source>; hidden %1, batch %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>So that compute outweighs the communication: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>These are estimates from this machine&apos;s calibration; the run measures them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>**Warning:** within the lesson&apos;s budget of %1 s this machine cannot meet: %2. The closest size runs; its effect is weaker than the lesson describes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>**Not shown for real here:** the lesson&apos;s own job has %1, more than this machine&apos;s %n core(s) can run at once; ranks sharing a core would wait for it, not for each other. This run uses %2 instead. Its lost time is taken apart by replays of its own trace, and the switch above the views shows it replayed with communication free (Schedule alone).</source>
        <translation>
            <numerusform>**Not shown for real here:** the lesson&apos;s own job has %1, more than this machine&apos;s %n core can run at once; ranks sharing a core would wait for it, not for each other. This run uses %2 instead. Its lost time is taken apart by replays of its own trace, and the switch above the views shows it replayed with communication free (Schedule alone).</numerusform>
            <numerusform>**Not shown for real here:** the lesson&apos;s own job has %1, more than this machine&apos;s %n cores can run at once; ranks sharing a core would wait for it, not for each other. This run uses %2 instead. Its lost time is taken apart by replays of its own trace, and the switch above the views shows it replayed with communication free (Schedule alone).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>**Not shown for real here:** hiding communication behind compute needs a core for each rank&apos;s communication thread besides its compute, since Open MPI moves a CPU rank&apos;s bytes with the CPU: %1 need %2 cores, and this machine has %n. Both runs are real and measured, but here the overlap competes with the compute for the cores. The switch above the views shows the same runs replayed with communication free (Schedule alone), which is what overlap can gain at most.</source>
        <translation>
            <numerusform>**Not shown for real here:** hiding communication behind compute needs a core for each rank&apos;s communication thread besides its compute, since Open MPI moves a CPU rank&apos;s bytes with the CPU: %1 need %2 cores, and this machine has %n. Both runs are real and measured, but here the overlap competes with the compute for the cores. The switch above the views shows the same runs replayed with communication free (Schedule alone), which is what overlap can gain at most.</numerusform>
            <numerusform>**Not shown for real here:** hiding communication behind compute needs a core for each rank&apos;s communication thread besides its compute, since Open MPI moves a CPU rank&apos;s bytes with the CPU: %1 need %2 cores, and this machine has %n. Both runs are real and measured, but here the overlap competes with the compute for the cores. The switch above the views shows the same runs replayed with communication free (Schedule alone), which is what overlap can gain at most.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TraceModel</name>
    <message>
        <source>Cannot open %1: the file does not exist or is not readable.</source>
        <translation></translation>
    </message>
    <message>
        <source>%1, line %2: %3.%4</source>
        <translation></translation>
    </message>
</context>
<context>
    <name>TraceOpening</name>
    <message numerus="yes">
        <source>%1, line %2: %3; the line was skipped and the %Ln line(s) after it were read.</source>
        <translation>
            <numerusform>%1, line %2: %3; the line was skipped and the %Ln line after it was read.</numerusform>
            <numerusform>%1, line %2: %3; the line was skipped and the %Ln lines after it were read.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1, line %2: %3; %Ln line(s) that are no record were skipped, the first here, and the other lines were read.</source>
        <translation>
            <numerusform>%1, line %2: %3; %Ln line that is no record was skipped, and the other lines were read.</numerusform>
            <numerusform>%1, line %2: %3; %Ln lines that are no record were skipped, the first here, and the other lines were read.</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 is empty: there is no trace in it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 The run on screen stays.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 holds no trace.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This trace could not be read completely: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1: imported from a PyTorch profiler trace (%n file(s)). %2</source>
        <translation>
            <numerusform>%1: imported from a PyTorch profiler trace (%n file). %2</numerusform>
            <numerusform>%1: imported from a PyTorch profiler trace (%n files). %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Imported from a PyTorch profiler trace: %n step(s) from its ProfilerStep ranges. Ranks, the timeline, Plots (step times, memory) and Summary show it; memory is one total, in no category (the profiler does not say what a buffer holds). Nothing from it in: Pipeline (not a pipeline job), the loss (not recorded), the replay (not replayable), the Memory ledger&apos;s Ψ arithmetic (no model size). The Log lists the profiler events not mapped.</source>
        <translation>
            <numerusform>Imported from a PyTorch profiler trace: %n step from its ProfilerStep ranges. Ranks, the timeline, Plots (step times, memory) and Summary show it; memory is one total, in no category (the profiler does not say what a buffer holds). Nothing from it in: Pipeline (not a pipeline job), the loss (not recorded), the replay (not replayable), the Memory ledger&apos;s Ψ arithmetic (no model size). The Log lists the profiler events not mapped.</numerusform>
            <numerusform>Imported from a PyTorch profiler trace: %n steps from its ProfilerStep ranges. Ranks, the timeline, Plots (step times, memory) and Summary show it; memory is one total, in no category (the profiler does not say what a buffer holds). Nothing from it in: Pipeline (not a pipeline job), the loss (not recorded), the replay (not replayable), the Memory ledger&apos;s Ψ arithmetic (no model size). The Log lists the profiler events not mapped.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>shardlab: %1; running the default FSDP job headless with shardlab-run.</source>
        <translation></translation>
    </message>
    <message>
        <source>shardlab: cannot start %1: %2</source>
        <translation></translation>
    </message>
    <message>
        <source>ShardLab: watch real distributed training jobs.</source>
        <translation></translation>
    </message>
    <message>
        <source>Run the lesson ID.</source>
        <translation></translation>
    </message>
    <message>
        <source>Open a trace file.</source>
        <translation></translation>
    </message>
    <message>
        <source>Save a PNG of the main window and exit.</source>
        <translation></translation>
    </message>
    <message>
        <source>Playhead position for the screenshot, 0..1.</source>
        <translation></translation>
    </message>
    <message>
        <source>Run the default FSDP job without a window.</source>
        <translation></translation>
    </message>
    <message>
        <source>Interface language for this run: en, fr, ru.</source>
        <translation></translation>
    </message>
    <message>
        <source>Window size, e.g. 1600x1000.</source>
        <translation></translation>
    </message>
    <message>
        <source>Theme for this run: light, dark.</source>
        <translation></translation>
    </message>
    <message>
        <source>Presentation mode (large text) for this run.</source>
        <translation></translation>
    </message>
    <message>
        <source>--headless was given</source>
        <translation></translation>
    </message>
    <message>
        <source>no display (DISPLAY and WAYLAND_DISPLAY are unset)</source>
        <translation></translation>
    </message>
    <message>
        <source>the Qt platform is &apos;%1&apos;, which shows no window</source>
        <translation></translation>
    </message>
    <message>
        <source>shardlab: cannot write %1</source>
        <translation></translation>
    </message>
    <message>
        <source>shardlab: no lesson &apos;%1&apos;</source>
        <translation></translation>
    </message>
    <message>
        <source>shardlab: no view &apos;%1&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the lab FILE (its steps in the Lab panel).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the views show: measured, schedule-alone or projected (replays of the run).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>shardlab: --show must be measured, schedule-alone or projected (got &apos;%1&apos;)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>View to show: ranks, both, pipeline, plots, compare, summary, ledger, quiz.</source>
        <translation></translation>
    </message>
    <message>
        <source>shardlab: the quiz&apos;s sentences could not be loaded: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>shardlab::app::CaptionBar</name>
    <message>
        <source>%1 — %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>shardlab::app::CompareView</name>
    <message>
        <source>Rank cards</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pipeline diagram</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timelines</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>shardlab::app::CompareWindow</name>
    <message>
        <source>ShardLab — compare two runs</source>
        <translation></translation>
    </message>
</context>
<context>
    <name>shardlab::app::ExperimentPanel</name>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seconds a collective or a message may wait before the job is declared hung and stopped (collective_timeout)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>gather the next unit early</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>recompute in the backward</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reduce the gradients once, at the last micro-step (PyTorch&apos;s no_sync)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>param_dtype: the type the all-gathers carry (master shards stay fp32)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reduce_dtype: the type gradients are reduce-scattered in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none, or e.g. 3MiB</source>
        <translation></translation>
    </message>
    <message>
        <source>none, or e.g. dp=2,tp=2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The ranks as a grid of dimensions dp, pp and tp, the last varying fastest; the sizes multiply to the ranks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none: every rank on this machine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An Open MPI hostfile, one machine per line (lab-pc-01 slots=4), to spread the ranks over the machines of a lab room</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hostfile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Strategy</source>
        <translation></translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation></translation>
    </message>
    <message>
        <source>Mesh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device</source>
        <translation></translation>
    </message>
    <message>
        <source>Layers</source>
        <translation></translation>
    </message>
    <message>
        <source>Hidden size</source>
        <translation></translation>
    </message>
    <message>
        <source>Vocabulary</source>
        <translation></translation>
    </message>
    <message>
        <source>Batch</source>
        <translation></translation>
    </message>
    <message>
        <source>Steps</source>
        <translation></translation>
    </message>
    <message>
        <source>Seed</source>
        <translation></translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation></translation>
    </message>
    <message>
        <source>FSDP sharding</source>
        <translation></translation>
    </message>
    <message>
        <source>Shard group (hybrid)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Backward prefetch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forward prefetch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gathered units at most</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Precision (param, reduce)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Activation checkpointing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Micro-steps per step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation></translation>
    </message>
    <message>
        <source>Micro-batches</source>
        <translation></translation>
    </message>
    <message>
        <source>Virtual stages</source>
        <translation></translation>
    </message>
    <message>
        <source>Memory budget</source>
        <translation></translation>
    </message>
    <message>
        <source>Hang timeout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run</source>
        <translation></translation>
    </message>
    <message>
        <source>Stop</source>
        <translation></translation>
    </message>
    <message>
        <source>Run: fix the options named below</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run this job with shardlab-run</source>
        <translation></translation>
    </message>
    <message>
        <source>Fix the options named below first</source>
        <translation></translation>
    </message>
</context>
<context>
    <name>shardlab::app::GuidePanel</name>
    <message>
        <source>Show the answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next lesson ▶</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last lesson</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Available once this lesson&apos;s run is over.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>shardlab::app::JobRunner</name>
    <message>
        <source>The job did not stop within 3 s; killing it.</source>
        <translation></translation>
    </message>
    <message numerus="yes">
        <source>No rank has recorded anything for %n s; the run stops at the hang timeout of %1 s (Hang timeout in the Experiment form).</source>
        <translation>
            <numerusform>No rank has recorded anything for %n s; the run stops at the hang timeout of %1 s (Hang timeout in the Experiment form).</numerusform>
            <numerusform>No rank has recorded anything for %n s; the run stops at the hang timeout of %1 s (Hang timeout in the Experiment form).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>No event from rank(s) %1 for %2 s; the run stops at the hang timeout of %3 s (Hang timeout in the Experiment form).</source>
        <translation>
            <numerusform>No event from rank %1 for %2 s; the run stops at the hang timeout of %3 s (Hang timeout in the Experiment form).</numerusform>
            <numerusform>No event from ranks %1 for %2 s; the run stops at the hang timeout of %3 s (Hang timeout in the Experiment form).</numerusform>
        </translation>
    </message>
    <message>
        <source>The options break a rule, so nothing was run:
%1</source>
        <translation></translation>
    </message>
    <message>
        <source>The job&apos;s spec file could not be written (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The launcher shardlab-run was not found (looked for %1). Build it with &apos;cmake --build build --target shardlab-run&apos;, or set SHARDLAB_RUN to its path.</source>
        <translation></translation>
    </message>
    <message>
        <source>Stopping the job…
</source>
        <translation></translation>
    </message>
    <message>
        <source>shardlab-run could not be started (%1): %2</source>
        <translation></translation>
    </message>
    <message>
        <source>You stopped the job. The events recorded until then are shown.</source>
        <translation></translation>
    </message>
    <message>
        <source>shardlab-run crashed. What it wrote before is shown.
%1</source>
        <translation></translation>
    </message>
    <message>
        <source>The job finished.</source>
        <translation></translation>
    </message>
    <message>
        <source>The launcher refused the options:
%1</source>
        <translation></translation>
    </message>
    <message>
        <source>Out of memory on rank %1: it needed %2 more for %3%4 while holding %5, but the budget is %6. This is the lesson: the model state did not fit on one rank.</source>
        <translation></translation>
    </message>
    <message>
        <source> of %1</source>
        <translation></translation>
    </message>
    <message>
        <source>Rank %1: %2
</source>
        <translation></translation>
    </message>
    <message>
        <source>A rank failed; the trace up to the failure is shown.
%1%2</source>
        <translation></translation>
    </message>
    <message>
        <source>shardlab-run was interrupted. The events recorded until then are shown.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mpirun or the worker is missing:
%1</source>
        <translation></translation>
    </message>
    <message>
        <source>An output of the run could not be written whole (is the disk full?); the events received are shown:
%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>shardlab-run exited with code %1.
%2</source>
        <translation></translation>
    </message>
</context>
<context>
    <name>shardlab::app::LabPanel</name>
    <message>
        <source>Results</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not run to its end</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no answers</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n answer(s) right</source>
        <translation>
            <numerusform>%1 of %n answer right</numerusform>
            <numerusform>%1 of %n answers right</numerusform>
        </translation>
    </message>
    <message>
        <source>Run this step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notes for this step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No lab open. File → Open lab… loads one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1. %2 ✓ done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1. %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Lab complete: %1 of %n step(s) done</source>
        <translation>
            <numerusform>Lab complete: %1 of %n step done</numerusform>
            <numerusform>Lab complete: %1 of %n steps done</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Lab finished: %1 of %n step(s) done</source>
        <translation>
            <numerusform>Lab finished: %1 of %n step done</numerusform>
            <numerusform>Lab finished: %1 of %n steps done</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Step %1 of %2 · %n done</source>
        <translation>
            <numerusform>Step %1 of %2 · %n done</numerusform>
            <numerusform>Step %1 of %2 · %n done</numerusform>
        </translation>
    </message>
    <message>
        <source>This step has no notes: follow the lesson&apos;s guide and its questions.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finish lab</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>shardlab::app::LearnerMenu</name>
    <message>
        <source>L&amp;earner</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Switch learner…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Reset my progress…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answers are now recorded for %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(no name)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your progress was reset.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Learner: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>shardlab::app::LedgerView</name>
    <message>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rank</source>
        <translation></translation>
    </message>
    <message>
        <source>run A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>run B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;No run yet for this lesson: it runs once you have made your prediction (or chosen to run without one).&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;No run yet.&lt;/p&gt;</source>
        <translation></translation>
    </message>
    <message>
        <source>&lt;p&gt;Imported from a PyTorch profiler trace: the profiler records how much each rank had allocated, not what for, nor the model&apos;s size, so there is no Ψ arithmetic here: only the rank&apos;s total, at the end of its last step and at its peak.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt; · Ψ = %2 parameters · D = %3 · %n rank(s)&lt;/p&gt;</source>
        <translation>
            <numerusform>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt; · Ψ = %2 parameters · D = %3 · %n rank&lt;/p&gt;</numerusform>
            <numerusform>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt; · Ψ = %2 parameters · D = %3 · %n ranks&lt;/p&gt;</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;p&gt;The Ψ arithmetic is data parallelism&apos;s (DDP, FSDP): here only what the rank measured is shown.&lt;/p&gt;</source>
        <translation></translation>
    </message>
    <message>
        <source> of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run ended out of memory before its first step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run ended out of memory in step %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rank %1 needed %2 more for %3 while holding %4; the budget is %5. Below: what %6 held then.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>part</source>
        <translation></translation>
    </message>
    <message>
        <source>measured</source>
        <translation></translation>
    </message>
    <message>
        <source>Ψ arithmetic</source>
        <translation></translation>
    </message>
    <message>
        <source>the difference</source>
        <translation></translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;small&gt;peak&lt;/small&gt;</source>
        <translation></translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;small&gt;when the run stopped&lt;/small&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;small&gt;at the end of a step&lt;/small&gt;</source>
        <translation></translation>
    </message>
    <message>
        <source>—</source>
        <translation></translation>
    </message>
    <message>
        <source>persistent</source>
        <translation></translation>
    </message>
    <message>
        <source>&lt;p&gt;ShardLab trains in fp32 and its parameters are the master copy, so the textbook&apos;s 16Ψ at mixed precision (2Ψ bf16 parameters + 2Ψ bf16 gradients + 12Ψ fp32 master, momentum and variance) is here 4Ψ parameters + 4Ψ gradients + 8Ψ AdamW moments: the same total. A part is divided by D where the run keeps only its own slice of it between steps: the optimizer state under ZeRO-1; the parameters, the gradients and the optimizer state under SHARD_GRAD_OP, FULL_SHARD and HYBRID_SHARD; nothing under DDP and NO_SHARD (docs/sharding.md).&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;SHARD_GRAD_OP is only close to ZeRO-2: ZeRO-2 keeps the parameters replicated (4Ψ + 12Ψ/D), SHARD_GRAD_OP also shards them between steps (16Ψ/D), and this ledger counts them so.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>shardlab::app::LessonCheckBar</name>
    <message>
        <source>Less</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the schedule-alone replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the projected replay</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>shardlab::app::LogPane</name>
    <message>
        <source>The command line of the job appears here</source>
        <translation></translation>
    </message>
    <message>
        <source>Copy</source>
        <translation></translation>
    </message>
    <message>
        <source>Copy the command line to run the same job in a terminal</source>
        <translation></translation>
    </message>
</context>
<context>
    <name>shardlab::app::MainWindow</name>
    <message>
        <source>ShardLab</source>
        <translation></translation>
    </message>
    <message>
        <source>Your progress file could not be read, so the quiz starts empty: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Start page</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Open trace…</source>
        <translation></translation>
    </message>
    <message>
        <source>Open PyTorch trace &amp;folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Compare with trace…</source>
        <translation></translation>
    </message>
    <message>
        <source>Compare with trace</source>
        <translation></translation>
    </message>
    <message>
        <source>Open &amp;lab…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open lab</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ShardLab labs (*.json);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export &amp;Chrome trace…</source>
        <translation></translation>
    </message>
    <message>
        <source>Export Chrome trace</source>
        <translation></translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation></translation>
    </message>
    <message>
        <source>Export &amp;PNG of the view…</source>
        <translation></translation>
    </message>
    <message>
        <source>Export PNG</source>
        <translation></translation>
    </message>
    <message>
        <source>PNG (*.png)</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;Playback</source>
        <translation></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation></translation>
    </message>
    <message>
        <source>Language changed. The experiment panel, the playback bar and the log show the new language after a restart.</source>
        <translation></translation>
    </message>
    <message>
        <source>Open trace</source>
        <translation></translation>
    </message>
    <message>
        <source>Traces (*.trace *.txt *.json *.json.gz);;ShardLab traces (*.trace *.txt);;PyTorch profiler traces (*.pt.trace.json *.pt.trace.json.gz *.json *.json.gz);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a folder of PyTorch profiler traces, one per rank</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Experiment</source>
        <translation></translation>
    </message>
    <message>
        <source>Log</source>
        <translation></translation>
    </message>
    <message>
        <source>Quiz</source>
        <translation></translation>
    </message>
    <message>
        <source>Guide</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lab</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ShardLab — %1</source>
        <translation></translation>
    </message>
    <message>
        <source>There is no lesson &apos;%1&apos;.</source>
        <translation></translation>
    </message>
    <message>
        <source>run A</source>
        <translation></translation>
    </message>
    <message>
        <source>run B</source>
        <translation></translation>
    </message>
    <message>
        <source>%1 — both runs side by side in &quot;Both runs&quot;; their figures in Plots → Compare runs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chrome trace written to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Picture of the window saved to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1.</source>
        <translation></translation>
    </message>
    <message numerus="yes">
        <source>This lab has %n error(s); see the log.</source>
        <translation>
            <numerusform>This lab has %n error; see the log.</numerusform>
            <numerusform>This lab has %n errors; see the log.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>shardlab::app::PipelineView</name>
    <message>
        <source>The pipeline diagram shows pipeline runs. This run uses %1.</source>
        <translation></translation>
    </message>
    <message>
        <source>no strategy yet</source>
        <translation></translation>
    </message>
    <message>
        <source>Step %1 · %2 · %3 · %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n stage(s)</source>
        <translation>
            <numerusform>%n stage</numerusform>
            <numerusform>%n stages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n micro-batch(es)</source>
        <translation>
            <numerusform>%n micro-batch</numerusform>
            <numerusform>%n micro-batches</numerusform>
        </translation>
    </message>
    <message>
        <source>Stage 00</source>
        <translation></translation>
    </message>
    <message>
        <source>recorded idle (hatched)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiting for a CPU core (dotted)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step %1 lasted %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage %1</source>
        <translation></translation>
    </message>
    <message>
        <source>schedule as run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>hand-offs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>slower ops</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiting for cores</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unexplained</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>REPLAY (%1) · bubble in this replay %2 · theory %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bubble %1 measured · theory %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>other %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · difference %2 (its parts: hover)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · difference %2 = %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bubble: the recorded pipeline idle over the steady steps&apos; stage time, %1 (theory %2). Its parts come from replays of the trace once a step has completed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bubble (recorded pipeline idle over the steady steps&apos; stage time): measured %1, theory %2 ((p−1)/(V·m+p−1)).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Difference %1 points, each part a replay of this trace:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>  schedule as run %1: the schedule-alone replay (%2) minus the theory; the formula leaves out the optimizer step, which counts as stage time, and unequal stages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>  hand-offs %1: every message at its measured duration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>  slower ops %1: every op at its own CPU time, not its fastest</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>  slower ops %1: every op at its own wall time (no CPU times recorded, so core waits are in it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>  waiting for cores %1: every op at its wall time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>  unexplained %1: what the last replay misses (±%2 expected)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; the replay misses more than that here: read the parts as rough</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A different figure: %1 of stage time was not spent computing at the ops&apos; fastest pace = bubble %2 + ops slower than their fastest %3 + time under no record %4.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>shardlab::app::PlaybackBar</name>
    <message>
        <source>Scrub over the recorded time</source>
        <translation></translation>
    </message>
    <message>
        <source>Follow live</source>
        <translation></translation>
    </message>
    <message>
        <source>While a job runs, keep the playhead on the newest event</source>
        <translation></translation>
    </message>
    <message>
        <source>Start (Home)</source>
        <translation></translation>
    </message>
    <message>
        <source>Previous event (Left)</source>
        <translation></translation>
    </message>
    <message>
        <source>Play / pause (Space)</source>
        <translation></translation>
    </message>
    <message>
        <source>Next event (Right)</source>
        <translation></translation>
    </message>
    <message>
        <source>End (End)</source>
        <translation></translation>
    </message>
    <message>
        <source>Next collective</source>
        <translation></translation>
    </message>
    <message>
        <source>Next collective (Ctrl+Right)</source>
        <translation></translation>
    </message>
    <message>
        <source>Next phase</source>
        <translation></translation>
    </message>
    <message>
        <source>Next phase: forward, backward, optimizer, then the next step (Shift+Right)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Slower (−)</source>
        <translation></translation>
    </message>
    <message>
        <source>Slow-down: screen time per recorded time</source>
        <translation></translation>
    </message>
    <message>
        <source>Faster (+)</source>
        <translation></translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation></translation>
    </message>
    <message>
        <source>×%1 slower</source>
        <translation></translation>
    </message>
    <message>
        <source>Play / pause</source>
        <translation></translation>
    </message>
    <message>
        <source>Next event</source>
        <translation></translation>
    </message>
    <message>
        <source>Previous event</source>
        <translation></translation>
    </message>
    <message>
        <source>Previous collective</source>
        <translation></translation>
    </message>
    <message>
        <source>Previous phase</source>
        <translation></translation>
    </message>
    <message>
        <source>Start</source>
        <translation></translation>
    </message>
    <message>
        <source>End</source>
        <translation></translation>
    </message>
    <message>
        <source>Faster</source>
        <translation></translation>
    </message>
    <message>
        <source>Slower</source>
        <translation></translation>
    </message>
</context>
<context>
    <name>shardlab::app::PlotsView</name>
    <message>
        <source>Rank:</source>
        <translation></translation>
    </message>
    <message>
        <source>Memory over time</source>
        <translation></translation>
    </message>
    <message>
        <source>Loss per step</source>
        <translation></translation>
    </message>
    <message>
        <source>Bytes per step</source>
        <translation></translation>
    </message>
    <message>
        <source>Compare runs</source>
        <translation></translation>
    </message>
    <message>
        <source>time since start (ms)</source>
        <translation></translation>
    </message>
    <message>
        <source>held (MiB), stacked by category</source>
        <translation></translation>
    </message>
    <message>
        <source>loss (this run)</source>
        <translation></translation>
    </message>
    <message>
        <source>step</source>
        <translation></translation>
    </message>
    <message>
        <source>mean loss per token</source>
        <translation></translation>
    </message>
    <message>
        <source>step (rank 0)</source>
        <translation></translation>
    </message>
    <message>
        <source>collective buffer bytes (KiB)</source>
        <translation></translation>
    </message>
    <message>
        <source>No run yet for this lesson: it runs once you have made your prediction (or chosen to run without one).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No comparison: run a comparison lesson or use File → Compare with trace…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step time (steady steps, slowest rank)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step time, schedule alone (replay, communication free)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exposed communication (whole run, per rank)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bubble, measured (share of stage time idle)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bubble, schedule alone (replay)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak memory (highest rank)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — out of memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Needed, refused (out of memory)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2 more)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Persistent memory (end of the last step)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory budget per rank</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: persistent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: needed, refused (out of memory)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>memory budget %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rank</source>
        <translation></translation>
    </message>
    <message>
        <source>held (MiB)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>shardlab::app::QuizController</name>
    <message>
        <source>no assets folder was found, so the quiz has no sentences</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>shardlab::app::QuizOverlay</name>
    <message>
        <source>Quiz</source>
        <translation></translation>
    </message>
    <message>
        <source>Hide (F9)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hide the quiz; F9 shows it again.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>shardlab::app::QuizPanel</name>
    <message>
        <source>At t = %1 ms:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This run does not show this moment.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not a value of this kind (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved: %1. It is compared with the run&apos;s measurement when the run is there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>First, predict: %1 The run starts when you save your prediction (or run without one).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No questions yet: run a lesson or open a trace.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About your run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lesson question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Right.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not quite. The answer: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This run does not show it; running the lesson %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Questions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Review</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run without predicting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Predict before you run:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show me the moment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show me</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>◀ Previous</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>shardlab::app::QuizPlace</name>
    <message>
        <source>Quiz overlay (presentation)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>shardlab::app::RankView</name>
    <message numerus="yes">
        <source>HYBRID_SHARD: each shard group of %n rank(s) splits every unit; the ranks that hold the same slice are replicas, kept equal by an all-reduce across the groups</source>
        <translation>
            <numerusform>HYBRID_SHARD: each shard group of %n rank splits every unit; the ranks that hold the same slice are replicas, kept equal by an all-reduce across the groups</numerusform>
            <numerusform>HYBRID_SHARD: each shard group of %n ranks splits every unit; the ranks that hold the same slice are replicas, kept equal by an all-reduce across the groups</numerusform>
        </translation>
    </message>
    <message>
        <source>no work at this instant</source>
        <translation></translation>
    </message>
    <message>
        <source>shard group %1: ranks %2–%3</source>
        <translation></translation>
    </message>
    <message>
        <source>Rank %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>group %1 · slice %2</source>
        <translation></translation>
    </message>
    <message>
        <source>slice %1</source>
        <translation></translation>
    </message>
    <message>
        <source>idle: %1</source>
        <translation></translation>
    </message>
    <message>
        <source>last recorded: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OUT OF MEMORY</source>
        <translation></translation>
    </message>
    <message>
        <source>FAILED</source>
        <translation></translation>
    </message>
    <message>
        <source>MISSING: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FAILED: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 held · peak %2</source>
        <translation></translation>
    </message>
    <message>
        <source> · budget %1</source>
        <translation></translation>
    </message>
    <message>
        <source>%1 held</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Rank %1 %2; rank(s) %3 wait for it.</source>
        <translation>
            <numerusform>Rank %1 %2; rank %3 waits for it.</numerusform>
            <numerusform>Rank %1 %2; ranks %3 wait for it.</numerusform>
        </translation>
    </message>
    <message>
        <source>Rank %1 failed: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Out of memory: %1 needed %2 more while holding %3; budget %4.</source>
        <translation></translation>
    </message>
    <message>
        <source> of %1</source>
        <translation></translation>
    </message>
    <message>
        <source>No run yet for this lesson: it runs once you have made your prediction (or chosen to run without one).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No run yet. Pick a lesson or run an experiment.</source>
        <translation></translation>
    </message>
</context>
<context>
    <name>shardlab::app::ReviewView</name>
    <message>
        <source>Right at the first try.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wrong at the first try.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your answer:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Right answer:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No answers yet in this quiz.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No mistakes to review.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>shardlab::app::StartPage</name>
    <message>
        <source>No lessons were found: %1</source>
        <translation></translation>
    </message>
    <message>
        <source>&lt;h1&gt;ShardLab&lt;/h1&gt;&lt;p&gt;Run a small real training job on several ranks and watch what actually happened: every block, shard and number on screen comes from the recorded trace.&lt;/p&gt;</source>
        <translation></translation>
    </message>
    <message>
        <source>&lt;h3&gt;Lessons&lt;/h3&gt;</source>
        <translation></translation>
    </message>
    <message>
        <source>&lt;h3&gt;On your own&lt;/h3&gt;</source>
        <translation></translation>
    </message>
    <message>
        <source>Free experiment</source>
        <translation></translation>
    </message>
    <message>
        <source>Choose the strategy, ranks, model size and schedule yourself.</source>
        <translation></translation>
    </message>
    <message>
        <source>Open a trace</source>
        <translation></translation>
    </message>
    <message>
        <source>Replay a trace recorded earlier by shardlab-run --trace.</source>
        <translation></translation>
    </message>
    <message>
        <source>Run this lesson</source>
        <translation></translation>
    </message>
    <message>
        <source>Show the answer</source>
        <translation></translation>
    </message>
    <message>
        <source>%1 — complete: you answered all its questions.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>shardlab::app::SummaryView</name>
    <message>
        <source>%1 modelled</source>
        <translation>%1 modelled</translation>
    </message>
    <message>
        <source>%1 modelled · %2 measured</source>
        <translation>%1 modelled · %2 measured</translation>
    </message>
    <message>
        <source>&lt;p&gt;No run yet.&lt;/p&gt;</source>
        <translation></translation>
    </message>
    <message numerus="yes">
        <source>&lt;p&gt;%1 on %n rank(s) · %2 of %3 steps (ProfilerStep) · %4 units · wall %5 · the trace records neither the parameters nor the loss, and is not replayed&lt;/p&gt;</source>
        <translation>
            <numerusform>&lt;p&gt;%1 on %n rank · %2 of %3 steps (ProfilerStep) · %4 units · wall %5 · the trace records neither the parameters nor the loss, and is not replayed&lt;/p&gt;</numerusform>
            <numerusform>&lt;p&gt;%1 on %n ranks · %2 of %3 steps (ProfilerStep) · %4 units · wall %5 · the trace records neither the parameters nor the loss, and is not replayed&lt;/p&gt;</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;p&gt;%1 on %n rank(s) · %2 of %3 steps · %4 parameters in %5 units · wall %6&lt;/p&gt;</source>
        <translation>
            <numerusform>&lt;p&gt;%1 on %n rank · %2 of %3 steps · %4 parameters in %5 units · wall %6&lt;/p&gt;</numerusform>
            <numerusform>&lt;p&gt;%1 on %n ranks · %2 of %3 steps · %4 parameters in %5 units · wall %6&lt;/p&gt;</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;p&gt;Loss %1 → %2&lt;/p&gt;</source>
        <translation></translation>
    </message>
    <message>
        <source>rank</source>
        <translation></translation>
    </message>
    <message>
        <source>persistent</source>
        <translation></translation>
    </message>
    <message>
        <source>peak</source>
        <translation></translation>
    </message>
    <message>
        <source>compute</source>
        <translation></translation>
    </message>
    <message>
        <source>comm</source>
        <translation></translation>
    </message>
    <message>
        <source>exposed comm</source>
        <translation></translation>
    </message>
    <message>
        <source>idle</source>
        <translation></translation>
    </message>
    <message>
        <source>sent</source>
        <translation>sent</translation>
    </message>
    <message>
        <source>collective</source>
        <translation></translation>
    </message>
    <message>
        <source>calls per rank</source>
        <translation></translation>
    </message>
    <message>
        <source>buffer bytes</source>
        <translation></translation>
    </message>
    <message>
        <source>on the wire</source>
        <translation>on the wire</translation>
    </message>
    <message>
        <source>time</source>
        <translation></translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;i&gt;Modelled&lt;/i&gt;: what a ring algorithm sends for each recorded call. &lt;i&gt;Measured&lt;/i&gt;: what Open MPI&apos;s monitoring counted the rank really sending, whatever algorithm it chose; not available on NCCL ranks, for point-to-point messages on Open MPI 4.1, or with &lt;code&gt;--no-wire-monitoring&lt;/code&gt;.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;i&gt;Modelled&lt;/i&gt;: what a ring algorithm sends for each recorded call. &lt;i&gt;Measured&lt;/i&gt;: what Open MPI&apos;s monitoring counted the rank really sending, whatever algorithm it chose; not available on NCCL ranks, for point-to-point messages on Open MPI 4.1, or with &lt;code&gt;--no-wire-monitoring&lt;/code&gt;.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Pipeline bubble (%1; p = %2 stages, m = %3 micro-batches, V = %4 model chunks per rank): measured %5%, theory %6%&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Out of memory on rank %1&lt;/b&gt;: %2 needed %3 more while holding %4; the budget is %5.&lt;/p&gt;</source>
        <translation></translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Rank %1 failed&lt;/b&gt;: %2&lt;/p&gt;</source>
        <translation></translation>
    </message>
</context>
<context>
    <name>shardlab::app::TimelineView</name>
    <message>
        <source>CPU rank 00</source>
        <translation></translation>
    </message>
    <message>
        <source>The timeline fills in as the job runs.</source>
        <translation></translation>
    </message>
    <message>
        <source>CPU rank %1</source>
        <translation></translation>
    </message>
    <message>
        <source>GPU rank %1</source>
        <translation></translation>
    </message>
    <message>
        <source>OOM</source>
        <translation></translation>
    </message>
    <message>
        <source>failed</source>
        <translation></translation>
    </message>
</context>
<context>
    <name>shardlab::app::TraceModel</name>
    <message>
        <source>Cannot open %1: the file does not exist or is not readable.</source>
        <translation></translation>
    </message>
    <message>
        <source>%1, line %2: %3.%4</source>
        <translation></translation>
    </message>
    <message numerus="yes">
        <source> The %n event(s) before it are shown.</source>
        <translation>
            <numerusform> The event before it is shown.</numerusform>
            <numerusform> The %n events before it are shown.</numerusform>
        </translation>
    </message>
    <message>
        <source>stream line %1: %2</source>
        <translation></translation>
    </message>
    <message>
        <source>CPU rank %1</source>
        <translation></translation>
    </message>
    <message>
        <source>GPU rank %1</source>
        <translation></translation>
    </message>
    <message>
        <source>GPU rank %1 · %2</source>
        <translation></translation>
    </message>
    <message>
        <source>No run</source>
        <translation></translation>
    </message>
    <message numerus="yes">
        <source>%n GPU rank(s)</source>
        <translation>
            <numerusform>%n GPU rank</numerusform>
            <numerusform>%n GPU ranks</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n CPU rank(s)</source>
        <translation>
            <numerusform>%n CPU rank</numerusform>
            <numerusform>%n CPU ranks</numerusform>
        </translation>
    </message>
    <message>
        <source>Imported from a PyTorch profiler trace: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Imported from a PyTorch profiler trace: %1, %2 backend</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU</source>
        <translation></translation>
    </message>
    <message>
        <source>(Open MPI, shared memory)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, each on a core of its own</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, each on CPUs of its own</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n rank(s), device not yet known</source>
        <translation>
            <numerusform>%n rank, device not yet known</numerusform>
            <numerusform>%n ranks, device not yet known</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n rank(s) not yet reported</source>
        <translation>
            <numerusform>%n rank not yet reported</numerusform>
            <numerusform>%n ranks not yet reported</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>on %n host(s)</source>
        <translation>
            <numerusform>on %n host</numerusform>
            <numerusform>on %n hosts</numerusform>
        </translation>
    </message>
    <message>
        <source>REPLAY of this run (%1) — %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>schedule alone: communication free, each op at its fastest recorded time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>communication as fitted to this run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>projected on %1, ops at their fastest recorded time</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>shardlab::app::WorkspacePage</name>
    <message>
        <source>%v / %m steps</source>
        <translation></translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation></translation>
    </message>
    <message>
        <source>Pipeline</source>
        <translation></translation>
    </message>
    <message>
        <source>Plots</source>
        <translation></translation>
    </message>
    <message>
        <source>Summary</source>
        <translation></translation>
    </message>
    <message>
        <source>Memory ledger</source>
        <translation></translation>
    </message>
    <message>
        <source>Both runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An imported PyTorch trace is not replayed: it records no wait for a collective and not the time between its ops, so a replay would not be this run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this run</source>
        <translation></translation>
    </message>
    <message>
        <source>Measured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Schedule alone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Projected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What this run measured on this machine.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay of this run&apos;s own dependency graph with communication free and each op at its fastest recorded time: what the schedule alone costs. A computation on the trace, not a new run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay of this run&apos;s graph with each transfer costed on %1 (docs/replay.md) and each op at its fastest recorded time. A computation on the trace, not a new run.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
