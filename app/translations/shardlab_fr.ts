<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr">
<context>
    <name>Appearance</name>
    <message>
        <source>Light theme</source>
        <translation>Thème clair</translation>
    </message>
    <message>
        <source>Dark theme</source>
        <translation>Thème sombre</translation>
    </message>
    <message>
        <source>Presentation mode (large)</source>
        <translation>Mode présentation (grand)</translation>
    </message>
    <message>
        <source>Larger text</source>
        <translation>Texte plus grand</translation>
    </message>
    <message>
        <source>Smaller text</source>
        <translation>Texte plus petit</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Langue</translation>
    </message>
</context>
<context>
    <name>Captions</name>
    <message>
        <source> (micro-batch %1)</source>
        <translation> (micro-lot %1)</translation>
    </message>
    <message>
        <source>Rank %1 computes %2 of %3%4 in step %5 — %6</source>
        <translation>Le rang %1 calcule %2 de %3%4 au pas %5 — %6</translation>
    </message>
    <message numerus="yes">
        <source>Rank %1 all-reduces %2 of %3 with rank(s) %4: every rank ends with the sum — %5</source>
        <translation>
            <numerusform>Le rang %1 effectue l&apos;all-reduce de %2 de %3 avec le rang %4 : chaque rang obtient la somme — %5</numerusform>
            <numerusform>Le rang %1 effectue l&apos;all-reduce de %2 de %3 avec les rangs %4 : chaque rang obtient la somme — %5</numerusform>
        </translation>
    </message>
    <message>
        <source>Rank %1 sends %2 (%3×%4) to rank %5%6 — %7</source>
        <translation>Le rang %1 envoie %2 (%3×%4) au rang %5%6 — %7</translation>
    </message>
    <message>
        <source>Rank %1 receives %2 (%3×%4) from rank %5%6 — %7</source>
        <translation>Le rang %1 reçoit %2 (%3×%4) du rang %5%6 — %7</translation>
    </message>
    <message>
        <source>Rank %1: %2 of %3, %4 — %5</source>
        <translation>Rang %1 : %2 de %3, %4 — %5</translation>
    </message>
    <message>
        <source>Rank %1 runs out of memory: %2 needs %3 more, it holds %4 and the budget is %5</source>
        <translation>Le rang %1 manque de mémoire : %2 demande %3 de plus, il détient %4 et le budget est de %5</translation>
    </message>
    <message>
        <source> of %1</source>
        <translation> de %1</translation>
    </message>
    <message>
        <source>Rank %1 failed: %2</source>
        <translation>Le rang %1 a échoué : %2</translation>
    </message>
    <message>
        <source>Rank %1 finished step %2 (loss %3)</source>
        <translation>Le rang %1 a terminé le pas %2 (perte %3)</translation>
    </message>
    <message>
        <source>Rank %1 %2 %3 of %4 for %5; it now holds %6</source>
        <translation>Le rang %1 %2 %3 de %4 pour %5 ; il détient maintenant %6</translation>
    </message>
    <message>
        <source>allocates</source>
        <translation>alloue</translation>
    </message>
    <message>
        <source>frees</source>
        <translation>libère</translation>
    </message>
    <message numerus="yes">
        <source>Rank %1 all-gathers %2: %n shard(s) of %3 from ranks %4 — %5</source>
        <translation>
            <numerusform>Le rang %1 fait un all-gather de %2 : %n shard de %3 venant du rang %4 — %5</numerusform>
            <numerusform>Le rang %1 fait un all-gather de %2 : %n shards de %3 venant des rangs %4 — %5</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Rank %1 reduce-scatters the gradients of %2: sends %n slice(s) of %3 to ranks %4 and keeps its own — %5</source>
        <translation>
            <numerusform>Le rang %1 fait un reduce-scatter des gradients de %2 : envoie %n tranche de %3 au rang %4 et garde la sienne — %5</numerusform>
            <numerusform>Le rang %1 fait un reduce-scatter des gradients de %2 : envoie %n tranches de %3 aux rangs %4 et garde la sienne — %5</numerusform>
        </translation>
    </message>
    <message>
        <source>Rank %1 is idle, %2%3 — %4 of pipeline bubble</source>
        <translation>Le rang %1 est inactif, %2%3 — %4 de bulle du pipeline</translation>
    </message>
    <message>
        <source>Rank %1 is idle, %2%3 — %4 of exposed communication</source>
        <translation>Le rang %1 est inactif, %2%3 — %4 de communication exposée</translation>
    </message>
    <message>
        <source>%1 · rank %2 waited %3 of it for a CPU core (CPU time %4)</source>
        <translation>%1 · le rang %2 en a passé %3 à attendre un cœur de processeur (temps processeur %4)</translation>
    </message>
</context>
<context>
    <name>Format</name>
    <message>
        <source>%1 ns</source>
        <translation>%1 ns</translation>
    </message>
    <message>
        <source>%1 µs</source>
        <translation>%1 µs</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 and %2</source>
        <translation>%1 et %2</translation>
    </message>
    <message>
        <source>KiB</source>
        <translation>Kio</translation>
    </message>
    <message>
        <source>MiB</source>
        <translation>Mio</translation>
    </message>
    <message>
        <source>GiB</source>
        <translation>Gio</translation>
    </message>
    <message>
        <source>B</source>
        <translation>o</translation>
    </message>
    <message>
        <source>exited with status %1</source>
        <translation>s’est terminé avec le code %1</translation>
    </message>
    <message>
        <source>killed by signal %1</source>
        <translation>tué par le signal %1</translation>
    </message>
    <message>
        <source>killed by signal %1 (%2)</source>
        <translation>tué par le signal %1 (%2)</translation>
    </message>
    <message>
        <source>stopped the job (MPI_Abort, error code %1)</source>
        <translation>a arrêté la tâche (MPI_Abort, code d’erreur %1)</translation>
    </message>
    <message>
        <source>out of memory on rank %1: needs %2 for %3, budget %4, holding %5</source>
        <translation>mémoire insuffisante sur le rang %1 : il faut %2 (%3), budget %4, %5 détenus</translation>
    </message>
    <message>
        <source>hang: %1 had not finished after %2 s (Hang timeout in the Experiment form); its flight recorder is in the trace</source>
        <translation>blocage : %1 n’était pas terminé après %2 s (Délai de blocage dans le formulaire Expérience) ; son enregistreur de vol est dans la trace</translation>
    </message>
    <message>
        <source>parameter shard</source>
        <translation>shard de paramètres</translation>
    </message>
    <message>
        <source>parameter replica</source>
        <translation>réplique des paramètres</translation>
    </message>
    <message>
        <source>gathered parameters</source>
        <translation>paramètres rassemblés</translation>
    </message>
    <message>
        <source>gradients</source>
        <translation>gradients</translation>
    </message>
    <message>
        <source>gradient shard</source>
        <translation>shard de gradients</translation>
    </message>
    <message>
        <source>optimizer state</source>
        <translation>état de l&apos;optimiseur</translation>
    </message>
    <message>
        <source>activations</source>
        <translation>activations</translation>
    </message>
    <message>
        <source>comm buffers</source>
        <translation>tampons de communication</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>passe avant</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>passe arrière</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>optimiseur</translation>
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
        <translation>envoi</translation>
    </message>
    <message>
        <source>receive</source>
        <translation>réception</translation>
    </message>
    <message>
        <source>broadcast</source>
        <translation>broadcast</translation>
    </message>
    <message>
        <source>waiting for an activation</source>
        <translation>attente d&apos;une activation</translation>
    </message>
    <message>
        <source>waiting for a gradient</source>
        <translation>attente d&apos;un gradient</translation>
    </message>
    <message>
        <source>waiting for a collective</source>
        <translation>attente d&apos;une opération collective</translation>
    </message>
    <message>
        <source>%1 from rank %2</source>
        <translation>%1 du rang %2</translation>
    </message>
    <message>
        <source>%1 to rank %2</source>
        <translation>%1 vers le rang %2</translation>
    </message>
    <message>
        <source>%1 in step %2</source>
        <translation>%1 au pas %2</translation>
    </message>
    <message>
        <source>%1 (micro-batch %2)</source>
        <translation>%1 (micro-lot %2)</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <comment>a memory category of a unit</comment>
        <translation>%1 de %2</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <comment>a call of a unit</comment>
        <translation>%1 de %2</translation>
    </message>
    <message numerus="yes">
        <source>%1… (%n more characters in the trace)</source>
        <translation>
            <numerusform>%1… (%n caractère de plus dans la trace)</numerusform>
            <numerusform>%1… (%n caractères de plus dans la trace)</numerusform>
        </translation>
    </message>
    <message>
        <source>backward, input gradient</source>
        <translation>passe arrière, gradient d’entrée</translation>
    </message>
    <message>
        <source>backward, weight gradients</source>
        <translation>passe arrière, gradients des poids</translation>
    </message>
    <message>
        <source>uncategorised</source>
        <translation>sans catégorie</translation>
    </message>
</context>
<context>
    <name>HelpMenu</name>
    <message>
        <source>&lt;p&gt;They work wherever the focus is in the window, also when the timeline or the rank view has it (click a view to give it the focus). In a text field being edited, Space and the arrows type and move the cursor; saving a prediction gives the keys back to the view.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Ils fonctionnent où que soit le focus dans la fenêtre, y compris quand la chronologie ou la vue des rangs l&apos;a (cliquez sur une vue pour lui donner le focus). Dans un champ de texte en cours de saisie, Espace et les flèches tapent et déplacent le curseur ; enregistrer une prédiction rend les touches à la vue.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;In the timeline: mouse wheel zooms, dragging pans, a click moves the playhead.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Dans la chronologie : la molette zoome, le glisser déplace, un clic place la tête de lecture.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Aide</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>&amp;Raccourcis clavier</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Raccourcis clavier</translation>
    </message>
    <message>
        <source>&amp;About ShardLab</source>
        <translation>À &amp;propos de ShardLab</translation>
    </message>
    <message>
        <source>About ShardLab</source>
        <translation>À propos de ShardLab</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;ShardLab %1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Teaches distributed training by running small real jobs under Open MPI and replaying what they recorded.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;ShardLab %1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Enseigne l&apos;entraînement distribué en lançant de petites tâches réelles sous Open MPI et en rejouant ce qu&apos;elles ont enregistré.&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>JobRule</name>
    <message>
        <source>must be a JSON object</source>
        <translation>doit être un objet JSON</translation>
    </message>
    <message>
        <source>unknown key</source>
        <translation>clé inconnue</translation>
    </message>
    <message>
        <source>must be an integer</source>
        <translation>doit être un entier</translation>
    </message>
    <message>
        <source>must be a non-negative integer</source>
        <translation>doit être un entier positif ou nul</translation>
    </message>
    <message>
        <source>must be a number</source>
        <translation>doit être un nombre</translation>
    </message>
    <message>
        <source>must be a string</source>
        <translation>doit être une chaîne de caractères</translation>
    </message>
    <message>
        <source>must be true or false</source>
        <translation>doit valoir true ou false</translation>
    </message>
    <message>
        <source>must be a list of unit counts</source>
        <translation>doit être une liste de nombres d&apos;unités</translation>
    </message>
    <message>
        <source>must be a size such as 3MiB or a number of bytes</source>
        <translation>doit être une taille comme 3MiB ou un nombre d&apos;octets</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a size (use bytes, KiB, MiB or GiB)</source>
        <translation>« %1 » n&apos;est pas une taille (utilisez des octets, KiB, MiB ou GiB)</translation>
    </message>
    <message>
        <source>must be one of %1 (got &apos;%2&apos;)</source>
        <translation>doit être l&apos;une des valeurs %1 (reçu « %2 »)</translation>
    </message>
    <message>
        <source>must be between %1 and %2 (got %3)</source>
        <translation>doit être compris entre %1 et %2 (reçu %3)</translation>
    </message>
    <message>
        <source>must be at least %1 (got %2)</source>
        <translation>doit valoir au moins %1 (reçu %2)</translation>
    </message>
    <message>
        <source>must be a positive number</source>
        <translation>doit être un nombre strictement positif</translation>
    </message>
    <message>
        <source>must not be negative</source>
        <translation>ne doit pas être négatif</translation>
    </message>
    <message>
        <source>the global batch (%1) must be divisible by ranks (%2)</source>
        <translation>le lot global (%1) doit être divisible par le nombre de rangs (%2)</translation>
    </message>
    <message>
        <source>the naive schedule runs the whole batch at once (use 1, or gpipe/1f1b)</source>
        <translation>l&apos;ordonnancement naive traite tout le lot d&apos;un coup (mettez 1, ou choisissez gpipe/1f1b)</translation>
    </message>
    <message>
        <source>must divide the global batch (%1 is not divisible by %2)</source>
        <translation>doit diviser le lot global (%1 n&apos;est pas divisible par %2)</translation>
    </message>
    <message>
        <source>a pipeline of %1 stages needs at least as many units, the model has %2 (layers + 2)</source>
        <translation>un pipeline de %1 étages demande au moins autant d&apos;unités, le modèle en a %2 (layers + 2)</translation>
    </message>
    <message>
        <source>the interleaved schedule cuts the model into ranks x virtual stages = %1 chunks of at least one unit, the model has %2 (layers + 2)</source>
        <translation>l&apos;ordonnancement interleaved découpe le modèle en rangs × étages virtuels = %1 morceaux d&apos;au moins une unité, le modèle en a %2 (layers + 2)</translation>
    </message>
    <message>
        <source>the interleaved schedule needs at least 2 chunks per rank</source>
        <translation>l&apos;ordonnancement interleaved demande au moins 2 morceaux par rang</translation>
    </message>
    <message>
        <source>the interleaved schedule needs at least 2 ranks (its chunks alternate between ranks)</source>
        <translation>l&apos;ordonnancement interleaved demande au moins 2 rangs (ses morceaux alternent entre les rangs)</translation>
    </message>
    <message>
        <source>only the interleaved schedule uses virtual stages</source>
        <translation>seul l&apos;ordonnancement interleaved utilise des étages virtuels</translation>
    </message>
    <message>
        <source>the interleaved schedule needs a multiple of the stage count (%1), got %2</source>
        <translation>l&apos;ordonnancement interleaved demande un multiple du nombre d&apos;étages (%1), reçu %2</translation>
    </message>
    <message>
        <source>expected %1 unit counts, one per stage (per chunk when interleaved), got %2</source>
        <translation>%1 nombres d&apos;unités attendus, un par étage (par morceau en interleaved), reçu %2</translation>
    </message>
    <message>
        <source>unit counts must add up to the model&apos;s %1 units</source>
        <translation>la somme des nombres d&apos;unités doit égaler les %1 unités du modèle</translation>
    </message>
    <message>
        <source>every stage needs at least one unit</source>
        <translation>chaque étage demande au moins une unité</translation>
    </message>
    <message>
        <source>the tensor-parallel degree (%1) must divide hidden (%2) and 4 x hidden (%3)</source>
        <translation>le degré de parallélisme tensoriel (%1) doit diviser hidden (%2) et 4 × hidden (%3)</translation>
    </message>
    <message>
        <source>hybrid sharding needs the number of ranks per shard group</source>
        <translation>le sharding hybride demande le nombre de rangs par groupe de shards</translation>
    </message>
    <message>
        <source>the shard group (%1 ranks) must divide the ranks (%2) into equal groups</source>
        <translation>le groupe de shards (%1 rangs) doit partager les rangs (%2) en groupes égaux</translation>
    </message>
    <message>
        <source>only FSDP&apos;s hybrid sharding uses a shard group</source>
        <translation>seul le sharding hybride de FSDP utilise un groupe de shards</translation>
    </message>
    <message>
        <source>only DDP and FSDP have this option (the strategy is %1)</source>
        <translation>seuls DDP et FSDP ont cette option (la stratégie est %1)</translation>
    </message>
    <message>
        <source>the global batch (%1) must split into ranks (%2) x micro-steps (%3) equal micro-batches</source>
        <translation>le lot global (%1) doit se partager en rangs (%2) × micro-pas (%3) micro-lots égaux</translation>
    </message>
    <message>
        <source>no_sync skips the reduction of every micro-step but the last: it needs at least 2 micro-steps (accumulate)</source>
        <translation>`no_sync` saute la réduction de chaque micro-pas sauf le dernier : il faut au moins 2 micro-pas (`accumulate`)</translation>
    </message>
    <message>
        <source>%1 is implemented for FSDP&apos;s grad-op, full and hybrid sharding (the stages that gather parameters and reduce-scatter gradients)</source>
        <translation>%1 est implémenté pour les shardings `grad-op`, `full` et `hybrid` de FSDP (les étapes qui rassemblent les paramètres et font un reduce-scatter des gradients)</translation>
    </message>
    <message>
        <source>must be null or {&quot;rank&quot;: R, &quot;factor&quot;: F, &quot;from_step&quot;: S}</source>
        <translation>doit valoir `null` ou `{&quot;rank&quot;: R, &quot;factor&quot;: F, &quot;from_step&quot;: S}`</translation>
    </message>
    <message>
        <source>the slow rank (%1) must be one of the job&apos;s ranks, 0 to %2</source>
        <translation>le rang lent (%1) doit être l&apos;un des rangs de la tâche, de 0 à %2</translation>
    </message>
    <message>
        <source>the slow rank&apos;s factor must be at least 1 (got %1)</source>
        <translation>le facteur du rang lent doit valoir au moins 1 (reçu %1)</translation>
    </message>
    <message>
        <source>there is no file &apos;%1&apos;</source>
        <translation>il n&apos;y a pas de fichier &apos;%1&apos;</translation>
    </message>
    <message>
        <source>&apos;%1&apos; cannot be read as a hostfile (not a readable file)</source>
        <translation>&apos;%1&apos; ne peut pas être lu comme fichier d&apos;hôtes (ce n&apos;est pas un fichier lisible)</translation>
    </message>
    <message>
        <source>&apos;%1&apos; names no host (one host per line, e.g. &apos;lab-pc-01 slots=4&apos;)</source>
        <translation>&apos;%1&apos; ne nomme aucun hôte (un hôte par ligne, p. ex. &apos;lab-pc-01 slots=4&apos;)</translation>
    </message>
    <message>
        <source>the attention heads (%1) must divide hidden (%2): each head has hidden / heads dimensions</source>
        <translation>le nombre de têtes d’attention (%1) doit diviser hidden (%2) : chaque tête a hidden / têtes dimensions</translation>
    </message>
    <message>
        <source>the tensor-parallel degree (%1) must divide the attention heads (%2)</source>
        <translation>le degré de parallélisme tensoriel (%1) doit diviser le nombre de têtes d’attention (%2)</translation>
    </message>
    <message>
        <source>a batch of %1 sequences of %2 tokens is more than the %3 tokens a batch may hold</source>
        <translation>un lot de %1 séquences de %2 jetons dépasse les %3 jetons qu’un lot peut contenir</translation>
    </message>
    <message>
        <source>the %1 schedule needs at least 2 stages (ranks): its weight gradients wait to fill the time a stage waits for its neighbours</source>
        <translation>l’ordonnancement %1 demande au moins 2 étages (rangs) : ses gradients des poids attendent pour remplir le temps où un étage attend ses voisins</translation>
    </message>
    <message>
        <source>the GPT does not run the %1 schedule yet: its backward is not split into input and weight gradients (B and W)</source>
        <translation>le GPT n’exécute pas encore le calendrier %1 : sa passe arrière n’est pas scindée en gradients d’entrée et de poids (B et W)</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a mesh: write its dimensions and sizes, e.g. dp=2,tp=2</source>
        <translation>« %1 » n’est pas un maillage : écrivez ses dimensions et leurs tailles, par ex. dp=2,tp=2</translation>
    </message>
    <message>
        <source>unknown dimension &apos;%1&apos; (the dimensions are dp, pp and tp)</source>
        <translation>dimension inconnue « %1 » (les dimensions sont dp, pp et tp)</translation>
    </message>
    <message>
        <source>the dimension %1 is named twice</source>
        <translation>la dimension %1 est nommée deux fois</translation>
    </message>
    <message>
        <source>the mesh&apos;s sizes multiply to %1 ranks, the job has %2</source>
        <translation>le produit des tailles du maillage donne %1 rangs, la tâche en a %2</translation>
    </message>
    <message>
        <source>the %1 strategy does not run over %2: that dimension must be 1 (ddp and fsdp run over dp, tp over dp and tp, pipeline over dp and pp)</source>
        <translation>la stratégie %1 ne s’exécute pas sur %2 : cette dimension doit valoir 1 (ddp et fsdp sur dp, tp sur dp et tp, pipeline sur dp et pp)</translation>
    </message>
    <message>
        <source>the global batch (%1) must be divisible by the data-parallel degree dp (%2)</source>
        <translation>le lot global (%1) doit être divisible par le degré de parallélisme de données dp (%2)</translation>
    </message>
    <message>
        <source>must divide each replica&apos;s batch (the global batch %1 over dp = %2 replicas, in %3 micro-batches)</source>
        <translation>doit diviser le lot de chaque réplique (le lot global %1 réparti sur dp = %2 répliques, en %3 micro-lots)</translation>
    </message>
    <message>
        <source>must be an integer between %1 and %2 (got %3)</source>
        <translation>doit être un entier compris entre %1 et %2 (reçu %3)</translation>
    </message>
    <message>
        <source>only the %1 strategy has this option (the strategy is %2)</source>
        <translation>seule la stratégie %1 a cette option (la stratégie est %2)</translation>
    </message>
</context>
<context>
    <name>JobText</name>
    <message>
        <source> · no prefetch</source>
        <translation> · sans prélecture</translation>
    </message>
    <message>
        <source> · budget %1</source>
        <translation> · budget %1</translation>
    </message>
    <message numerus="yes">
        <source> · shard groups of %n ranks</source>
        <translation>
            <numerusform> · groupes de shards de %n rang</numerusform>
            <numerusform> · groupes de shards de %n rangs</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 · %2 · %3 × %4 · batch %5 · %6</source>
        <extracomment>%1 strategy, %2 &quot;4 ranks&quot;, %3 &quot;4 layers&quot;, %4 hidden size, %5 batch, %6 &quot;20 steps&quot;</extracomment>
        <translation>%1 · %2 · %3 × %4 · lot %5 · %6</translation>
    </message>
    <message numerus="yes">
        <source>%n rank(s)</source>
        <translation>
            <numerusform>%n rang</numerusform>
            <numerusform>%n rangs</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n layer(s)</source>
        <translation>
            <numerusform>%n couche</numerusform>
            <numerusform>%n couches</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n step(s)</source>
        <translation>
            <numerusform>%n pas</numerusform>
            <numerusform>%n pas</numerusform>
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
            <numerusform>%n micro-lot</numerusform>
            <numerusform>%n micro-lots</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LabOpener</name>
    <message>
        <source>Open lab</source>
        <translation>Ouvrir un TP</translation>
    </message>
    <message>
        <source>The lab %1 is not valid.</source>
        <translation>Le TP %1 n&apos;est pas valide.</translation>
    </message>
</context>
<context>
    <name>LearnerDialogs</name>
    <message>
        <source>Who is learning?</source>
        <translation>Qui apprend ?</translation>
    </message>
    <message>
        <source>Your name (or a nickname). Your answers and predictions are kept under it, apart from other learners on this computer.</source>
        <translation>Votre nom (ou un pseudonyme). Vos réponses et vos prédictions sont conservées sous ce nom, séparément de celles des autres apprenants de cet ordinateur.</translation>
    </message>
    <message>
        <source>this computer&apos;s unnamed learner</source>
        <translation>l&apos;apprenant sans nom de cet ordinateur</translation>
    </message>
    <message>
        <source>Reset my progress</source>
        <translation>Réinitialiser ma progression</translation>
    </message>
    <message>
        <source>Forget every answer and prediction of %1? The lessons lose their ticks. This cannot be undone.</source>
        <translation>Oublier toutes les réponses et prédictions de %1 ? Les leçons perdent leurs coches. Cette action est irréversible.</translation>
    </message>
</context>
<context>
    <name>LessonCatalog</name>
    <message>
        <source> vs </source>
        <translation> contre </translation>
    </message>
</context>
<context>
    <name>MemoryLedger</name>
    <message>
        <source>equal</source>
        <translation>égal</translation>
    </message>
    <message>
        <source>not held at the end of a step: freed after the optimizer step</source>
        <translation>non détenu à la fin d&apos;un pas : libéré après le pas de l&apos;optimiseur</translation>
    </message>
    <message>
        <source>+%1: each unit&apos;s flat parameter is padded to a multiple of the shard degree D</source>
        <translation>+%1 : le paramètre plat de chaque unité est complété jusqu&apos;à un multiple du degré de sharding D</translation>
    </message>
    <message>
        <source>%1 %2 the arithmetic with padding (%3): not explained</source>
        <translation>%1 %2 l&apos;arithmétique avec complément (%3) : non expliqué</translation>
    </message>
    <message>
        <source>above</source>
        <translation>au-dessus de</translation>
    </message>
    <message>
        <source>below</source>
        <translation>en dessous de</translation>
    </message>
    <message>
        <source>units rebuilt for their compute: the peak is %1 × the largest unit (%2), the unit computing and those prefetched or kept</source>
        <translation>unités reconstruites pour leur calcul : le pic vaut %1 × la plus grande unité (%2), l&apos;unité en calcul et celles rassemblées par prélecture ou gardées</translation>
    </message>
    <message>
        <source>full gradients of the units being reduce-scattered, freed once their slice is reduced</source>
        <translation>gradients complets des unités en cours de reduce-scatter, libérés une fois leur tranche réduite</translation>
    </message>
    <message>
        <source>not in the Ψ arithmetic: they grow with the batch, the hidden size and the layers, not with Ψ</source>
        <translation>absentes de l&apos;arithmétique en Ψ : elles croissent avec le lot, la dimension cachée et les couches, pas avec Ψ</translation>
    </message>
    <message>
        <source>staging for collectives and messages</source>
        <translation>tampons des collectives et des messages</translation>
    </message>
    <message>
        <source>no memory record of this rank before the run stopped out of memory</source>
        <translation>aucun enregistrement mémoire de ce rang avant l&apos;arrêt pour mémoire insuffisante</translation>
    </message>
    <message>
        <source>not allocated when the run stopped out of memory</source>
        <translation>pas encore alloué quand l&apos;exécution s&apos;est arrêtée, mémoire insuffisante</translation>
    </message>
    <message>
        <source>%1 short: the run stopped out of memory before all of it was allocated</source>
        <translation>il manque %1 : l&apos;exécution s&apos;est arrêtée, mémoire insuffisante, avant que tout soit alloué</translation>
    </message>
    <message>
        <source>what the rank still held when its last step ended, of the allocations the profiler saw (on CPU ranks those made while it recorded: the parameters, allocated before it, are not counted)</source>
        <translation>ce que le rang détenait encore à la fin de son dernier pas, parmi les allocations vues par le profileur (sur des rangs CPU, celles faites pendant l&apos;enregistrement : les paramètres, alloués avant, ne sont pas comptés)</translation>
    </message>
    <message>
        <source>the profiler&apos;s largest total allocated on this rank</source>
        <translation>le plus grand total alloué sur ce rang selon le profileur</translation>
    </message>
</context>
<context>
    <name>Phases</name>
    <message>
        <source>Step %1 · forward pass</source>
        <translation>Pas %1 · passe avant</translation>
    </message>
    <message>
        <source>Step %1 · backward pass</source>
        <translation>Pas %1 · passe arrière</translation>
    </message>
    <message>
        <source>Step %1 · optimizer step</source>
        <translation>Pas %1 · mise à jour de l&apos;optimiseur</translation>
    </message>
</context>
<context>
    <name>RunEnding</name>
    <message>
        <source>Rank %1 failed: %2.</source>
        <translation>Le rang %1 a échoué : %2.</translation>
    </message>
    <message numerus="yes">
        <source>Then rank(s) %1 failed too.</source>
        <translation>
            <numerusform>Puis le rang %1 a échoué aussi.</numerusform>
            <numerusform>Puis les rangs %1 ont échoué aussi.</numerusform>
        </translation>
    </message>
    <message>
        <source>The other ranks were stopped; the trace up to the failure is shown.</source>
        <translation>Les autres rangs ont été arrêtés ; la trace jusqu&apos;à l&apos;échec est affichée.</translation>
    </message>
    <message numerus="yes">
        <source> Rank(s) %1 finished it.</source>
        <translation>
            <numerusform> Le rang %1 l&apos;a terminé.</numerusform>
            <numerusform> Les rangs %1 l&apos;ont terminé.</numerusform>
        </translation>
    </message>
    <message>
        <source>never entered %1</source>
        <translation>n&apos;est jamais entré dans %1</translation>
    </message>
    <message>
        <source>waiting in %1</source>
        <translation>attend dans %1</translation>
    </message>
    <message numerus="yes">
        <source>waiting in %1 for rank(s) %2</source>
        <translation>
            <numerusform>attend le rang %2 dans %1</numerusform>
            <numerusform>attend les rangs %2 dans %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>rank(s) %1 are waiting in %2</source>
        <translation>
            <numerusform>le rang %1 attend dans %2</numerusform>
            <numerusform>les rangs %1 attendent dans %2</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 %2; rank %3 got past it.</source>
        <translation>%1 %2 ; le rang %3 l&apos;a dépassé.</translation>
    </message>
    <message>
        <source>%1 %2; rank %3 never sent it.</source>
        <translation>%1 %2 ; le rang %3 ne l&apos;a jamais envoyé.</translation>
    </message>
    <message>
        <source>%1 %2; rank %3 never received it.</source>
        <translation>%1 %2 ; le rang %3 ne l&apos;a jamais reçu.</translation>
    </message>
    <message>
        <source>%1 %2.</source>
        <translation>%1 %2.</translation>
    </message>
    <message numerus="yes">
        <source>rank(s) %1 never entered %2</source>
        <translation>
            <numerusform>le rang %1 n&apos;est jamais entré dans %2</numerusform>
            <numerusform>les rangs %1 ne sont jamais entrés dans %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>rank(s) %1 are waiting in it</source>
        <translation>
            <numerusform>le rang %1 y attend</numerusform>
            <numerusform>les rangs %1 y attendent</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 %2; %3.</source>
        <translation>%1 %2 ; %3.</translation>
    </message>
    <message>
        <source>Hang after %1 s (Hang timeout in the Experiment form):</source>
        <translation>Blocage après %1 s (Délai de blocage dans le formulaire Expérience) :</translation>
    </message>
</context>
<context>
    <name>Sizing</name>
    <message>
        <source>one micro-batch&apos;s compute on a stage is about %1× a hand-off (needs at least %2×)</source>
        <translation>le calcul d&apos;un micro-lot sur un étage vaut environ %1× un transfert entre étages (il faut au moins %2×)</translation>
    </message>
    <message>
        <source>a block&apos;s forward compute is about %1× its all-gather (needs at least %2×)</source>
        <translation>la passe avant d&apos;un bloc vaut environ %1× son all-gather (il faut au moins %2×)</translation>
    </message>
    <message>
        <source>a block&apos;s backward compute is about %1× its gradient all-reduce (needs at least %2×)</source>
        <translation>la passe arrière d&apos;un bloc vaut environ %1× l&apos;all-reduce de son gradient (il faut au moins %2×)</translation>
    </message>
    <message>
        <source>free cores per rank: about %1 (needs at least %2)</source>
        <translation>cœurs libres par rang : environ %1 (il en faut au moins %2)</translation>
    </message>
    <message numerus="yes">
        <source>%n stage(s)</source>
        <translation>
            <numerusform>%n étage</numerusform>
            <numerusform>%n étages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n rank(s)</source>
        <translation>
            <numerusform>%n rang</numerusform>
            <numerusform>%n rangs</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>**Sized for this machine:** %n core(s)</source>
        <translation>
            <numerusform>**Dimensionné pour cette machine :** %n cœur</numerusform>
            <numerusform>**Dimensionné pour cette machine :** %n cœurs</numerusform>
        </translation>
    </message>
    <message>
        <source>; hidden %1, batch %2.</source>
        <translation> ; taille cachée %1, lot %2.</translation>
    </message>
    <message>
        <source>So that compute outweighs the communication: </source>
        <translation>Pour que le calcul l&apos;emporte sur la communication : </translation>
    </message>
    <message>
        <source>These are estimates from this machine&apos;s calibration; the run measures them.</source>
        <translation>Ce sont des estimations tirées de l&apos;étalonnage de cette machine ; l&apos;exécution les mesure.</translation>
    </message>
    <message>
        <source>**Warning:** within the lesson&apos;s budget of %1 s this machine cannot meet: %2. The closest size runs; its effect is weaker than the lesson describes.</source>
        <translation>**Attention :** dans le budget de la leçon (%1 s), cette machine ne peut pas obtenir : %2. La taille la plus proche est exécutée ; son effet est plus faible que ce que décrit la leçon.</translation>
    </message>
    <message numerus="yes">
        <source>**Not shown for real here:** the lesson&apos;s own job has %1, more than this machine&apos;s %n core(s) can run at once; ranks sharing a core would wait for it, not for each other. This run uses %2 instead. Its lost time is taken apart by replays of its own trace, and the switch above the views shows it replayed with communication free (Schedule alone).</source>
        <translation>
            <numerusform>**Pas montré en vrai ici :** la tâche de la leçon compte %1, plus que le seul cœur de cette machine (%n) ne peut exécuter à la fois ; des rangs qui partagent un cœur l&apos;attendraient, lui, et non les uns les autres. Cette exécution utilise %2 à la place. Son temps perdu est décomposé par des rejeux de sa propre trace, et le sélecteur au-dessus des vues la montre rejouée avec des communications gratuites (Ordonnancement seul).</numerusform>
            <numerusform>**Pas montré en vrai ici :** la tâche de la leçon compte %1, plus que les %n cœurs de cette machine ne peuvent exécuter à la fois ; des rangs qui partagent un cœur l&apos;attendraient, lui, et non les uns les autres. Cette exécution utilise %2 à la place. Son temps perdu est décomposé par des rejeux de sa propre trace, et le sélecteur au-dessus des vues la montre rejouée avec des communications gratuites (Ordonnancement seul).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>**Not shown for real here:** hiding communication behind compute needs a core for each rank&apos;s communication thread besides its compute, since Open MPI moves a CPU rank&apos;s bytes with the CPU: %1 need %2 cores, and this machine has %n. Both runs are real and measured, but here the overlap competes with the compute for the cores. The switch above the views shows the same runs replayed with communication free (Schedule alone), which is what overlap can gain at most.</source>
        <translation>
            <numerusform>**Pas montré pour de vrai ici :** masquer les communications derrière le calcul demande, pour chaque rang, un cœur pour son fil de communication en plus de son calcul, car Open MPI déplace les octets d&apos;un rang CPU avec le CPU : %1 demandent %2 cœurs, et cette machine en a %n. Les deux exécutions sont réelles et mesurées, mais ici le recouvrement dispute les cœurs au calcul. Le sélecteur au-dessus des vues montre les mêmes exécutions rejouées avec des communications gratuites (Ordonnancement seul), soit le maximum que le recouvrement peut gagner.</numerusform>
            <numerusform>**Pas montré pour de vrai ici :** masquer les communications derrière le calcul demande, pour chaque rang, un cœur pour son fil de communication en plus de son calcul, car Open MPI déplace les octets d&apos;un rang CPU avec le CPU : %1 demandent %2 cœurs, et cette machine en a %n. Les deux exécutions sont réelles et mesurées, mais ici le recouvrement dispute les cœurs au calcul. Le sélecteur au-dessus des vues montre les mêmes exécutions rejouées avec des communications gratuites (Ordonnancement seul), soit le maximum que le recouvrement peut gagner.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TraceModel</name>
    <message>
        <source>Cannot open %1: the file does not exist or is not readable.</source>
        <translation>Impossible d&apos;ouvrir %1 : le fichier n&apos;existe pas ou n&apos;est pas lisible.</translation>
    </message>
    <message>
        <source>%1, line %2: %3.%4</source>
        <translation>%1, ligne %2 : %3.%4</translation>
    </message>
</context>
<context>
    <name>TraceOpening</name>
    <message numerus="yes">
        <source>%1, line %2: %3; the line was skipped and the %Ln line(s) after it were read.</source>
        <translation>
            <numerusform>%1, ligne %2 : %3 ; la ligne a été ignorée et la %Ln ligne qui la suit a été lue.</numerusform>
            <numerusform>%1, ligne %2 : %3 ; la ligne a été ignorée et les %Ln lignes qui la suivent ont été lues.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1, line %2: %3; %Ln line(s) that are no record were skipped, the first here, and the other lines were read.</source>
        <translation>
            <numerusform>%1, ligne %2 : %3 ; %Ln ligne qui n’est pas un enregistrement a été ignorée, et les autres lignes ont été lues.</numerusform>
            <numerusform>%1, ligne %2 : %3 ; %Ln lignes qui ne sont pas des enregistrements ont été ignorées, la première ici, et les autres lignes ont été lues.</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 is empty: there is no trace in it.</source>
        <translation>%1 est vide : il ne contient aucune trace.</translation>
    </message>
    <message>
        <source>%1 The run on screen stays.</source>
        <translation>%1 L&apos;exécution affichée reste à l&apos;écran.</translation>
    </message>
    <message>
        <source>%1 holds no trace.</source>
        <translation>%1 ne contient aucune trace.</translation>
    </message>
    <message>
        <source>This trace could not be read completely: %1</source>
        <translation>Cette trace n&apos;a pas pu être lue entièrement : %1</translation>
    </message>
    <message numerus="yes">
        <source>%1: imported from a PyTorch profiler trace (%n file(s)). %2</source>
        <translation>
            <numerusform>%1 : importé d&apos;une trace du profileur PyTorch (%n fichier). %2</numerusform>
            <numerusform>%1 : importé d&apos;une trace du profileur PyTorch (%n fichiers). %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Imported from a PyTorch profiler trace: %n step(s) from its ProfilerStep ranges. Ranks, the timeline, Plots (step times, memory) and Summary show it; memory is one total, in no category (the profiler does not say what a buffer holds). Nothing from it in: Pipeline (not a pipeline job), the loss (not recorded), the replay (not replayable), the Memory ledger&apos;s Ψ arithmetic (no model size). The Log lists the profiler events not mapped.</source>
        <translation>
            <numerusform>Importé d&apos;une trace du profileur PyTorch : %n pas, d&apos;après ses intervalles ProfilerStep. Rangs, la frise, Graphiques (durées des pas, mémoire) et Résumé la montrent ; la mémoire y est un seul total, sans catégorie (le profileur ne dit pas ce que contient un tampon). Rien d&apos;elle dans : Pipeline (ce n&apos;est pas un travail en pipeline), la perte (non enregistrée), le rejeu (impossible), l&apos;arithmétique Ψ du Bilan mémoire (pas de taille de modèle). Le Journal liste les événements du profileur non repris.</numerusform>
            <numerusform>Importé d&apos;une trace du profileur PyTorch : %n pas, d&apos;après ses intervalles ProfilerStep. Rangs, la frise, Graphiques (durées des pas, mémoire) et Résumé la montrent ; la mémoire y est un seul total, sans catégorie (le profileur ne dit pas ce que contient un tampon). Rien d&apos;elle dans : Pipeline (ce n&apos;est pas un travail en pipeline), la perte (non enregistrée), le rejeu (impossible), l&apos;arithmétique Ψ du Bilan mémoire (pas de taille de modèle). Le Journal liste les événements du profileur non repris.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>shardlab: %1; running the default FSDP job headless with shardlab-run.</source>
        <translation>shardlab : %1 ; exécution de la tâche FSDP par défaut sans interface avec shardlab-run.</translation>
    </message>
    <message>
        <source>shardlab: cannot start %1: %2</source>
        <translation>shardlab : impossible de démarrer %1 : %2</translation>
    </message>
    <message>
        <source>ShardLab: watch real distributed training jobs.</source>
        <translation>ShardLab : observez de vraies tâches d&apos;entraînement distribué.</translation>
    </message>
    <message>
        <source>Run the lesson ID.</source>
        <translation>Lancer la leçon ID.</translation>
    </message>
    <message>
        <source>Open a trace file.</source>
        <translation>Ouvrir un fichier de trace.</translation>
    </message>
    <message>
        <source>Save a PNG of the main window and exit.</source>
        <translation>Enregistrer un PNG de la fenêtre principale et quitter.</translation>
    </message>
    <message>
        <source>Playhead position for the screenshot, 0..1.</source>
        <translation>Position de la tête de lecture pour la capture, 0..1.</translation>
    </message>
    <message>
        <source>Run the default FSDP job without a window.</source>
        <translation>Lancer la tâche FSDP par défaut sans fenêtre.</translation>
    </message>
    <message>
        <source>Interface language for this run: en, fr, ru.</source>
        <translation>Langue de l&apos;interface pour cette exécution : en, fr, ru.</translation>
    </message>
    <message>
        <source>Window size, e.g. 1600x1000.</source>
        <translation>Taille de la fenêtre, p. ex. 1600x1000.</translation>
    </message>
    <message>
        <source>Theme for this run: light, dark.</source>
        <translation>Thème pour cette exécution : light, dark.</translation>
    </message>
    <message>
        <source>Presentation mode (large text) for this run.</source>
        <translation>Mode présentation (grand texte) pour cette exécution.</translation>
    </message>
    <message>
        <source>--headless was given</source>
        <translation>--headless a été donné</translation>
    </message>
    <message>
        <source>no display (DISPLAY and WAYLAND_DISPLAY are unset)</source>
        <translation>pas d&apos;affichage (DISPLAY et WAYLAND_DISPLAY ne sont pas définies)</translation>
    </message>
    <message>
        <source>the Qt platform is &apos;%1&apos;, which shows no window</source>
        <translation>la plateforme Qt est « %1 », qui n&apos;affiche aucune fenêtre</translation>
    </message>
    <message>
        <source>shardlab: cannot write %1</source>
        <translation>shardlab : impossible d&apos;écrire %1</translation>
    </message>
    <message>
        <source>shardlab: no lesson &apos;%1&apos;</source>
        <translation>shardlab : pas de leçon « %1 »</translation>
    </message>
    <message>
        <source>shardlab: no view &apos;%1&apos;</source>
        <translation>shardlab : pas de vue « %1 »</translation>
    </message>
    <message>
        <source>Open the lab FILE (its steps in the Lab panel).</source>
        <translation>Ouvrir le TP FILE (ses étapes dans le panneau TP).</translation>
    </message>
    <message>
        <source>What the views show: measured, schedule-alone or projected (replays of the run).</source>
        <translation>Ce que montrent les vues : measured (mesuré), schedule-alone (ordonnancement seul) ou projected (projeté), rejeux de l&apos;exécution.</translation>
    </message>
    <message>
        <source>shardlab: --show must be measured, schedule-alone or projected (got &apos;%1&apos;)</source>
        <translation>shardlab : --show doit valoir measured, schedule-alone ou projected (reçu « %1 »)</translation>
    </message>
    <message>
        <source>View to show: ranks, both, pipeline, plots, compare, summary, ledger, quiz.</source>
        <translation>Vue à afficher : `ranks`, `both`, `pipeline`, `plots`, `compare`, `summary`, `ledger`, `quiz`.</translation>
    </message>
    <message>
        <source>shardlab: the quiz&apos;s sentences could not be loaded: %1</source>
        <translation>shardlab : les phrases du quiz n’ont pas pu être chargées : %1</translation>
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
        <translation>Cartes des rangs</translation>
    </message>
    <message>
        <source>Pipeline diagram</source>
        <translation>Diagramme du pipeline</translation>
    </message>
    <message>
        <source>Timelines</source>
        <translation>Chronologies</translation>
    </message>
</context>
<context>
    <name>shardlab::app::CompareWindow</name>
    <message>
        <source>ShardLab — compare two runs</source>
        <translation>ShardLab — comparer deux exécutions</translation>
    </message>
</context>
<context>
    <name>shardlab::app::ExperimentPanel</name>
    <message>
        <source>none</source>
        <translation>aucun</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>sans limite</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Seconds a collective or a message may wait before the job is declared hung and stopped (collective_timeout)</source>
        <translation>Secondes qu’une collective ou un message peut attendre avant que la tâche soit déclarée bloquée et arrêtée (collective_timeout)</translation>
    </message>
    <message>
        <source>gather the next unit early</source>
        <translation>rassembler l&apos;unité suivante tôt</translation>
    </message>
    <message>
        <source>recompute in the backward</source>
        <translation>recalculer dans la passe arrière</translation>
    </message>
    <message>
        <source>Reduce the gradients once, at the last micro-step (PyTorch&apos;s no_sync)</source>
        <translation>Réduire les gradients une seule fois, au dernier micro-pas (`no_sync` de PyTorch)</translation>
    </message>
    <message>
        <source>param_dtype: the type the all-gathers carry (master shards stay fp32)</source>
        <translation>`param_dtype` : le type que transportent les all-gather (les shards maîtres restent en fp32)</translation>
    </message>
    <message>
        <source>reduce_dtype: the type gradients are reduce-scattered in</source>
        <translation>`reduce_dtype` : le type dans lequel les gradients passent par le reduce-scatter</translation>
    </message>
    <message>
        <source>none, or e.g. 3MiB</source>
        <translation>aucun, ou p. ex. 3MiB</translation>
    </message>
    <message>
        <source>none, or e.g. dp=2,tp=2</source>
        <translation>aucun, ou par ex. dp=2,tp=2</translation>
    </message>
    <message>
        <source>The ranks as a grid of dimensions dp, pp and tp, the last varying fastest; the sizes multiply to the ranks</source>
        <translation>Les rangs disposés en grille de dimensions dp, pp et tp, la dernière variant le plus vite ; le produit des tailles est le nombre de rangs</translation>
    </message>
    <message>
        <source>none: every rank on this machine</source>
        <translation>aucun : tous les rangs sur cette machine</translation>
    </message>
    <message>
        <source>An Open MPI hostfile, one machine per line (lab-pc-01 slots=4), to spread the ranks over the machines of a lab room</source>
        <translation>Un fichier d&apos;hôtes d&apos;Open MPI (`hostfile`), une machine par ligne (lab-pc-01 slots=4), pour répartir les rangs sur les machines d&apos;une salle de TP</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>Choisir…</translation>
    </message>
    <message>
        <source>Hostfile</source>
        <translation>Fichier d&apos;hôtes</translation>
    </message>
    <message>
        <source>Strategy</source>
        <translation>Stratégie</translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation>Rangs</translation>
    </message>
    <message>
        <source>Mesh</source>
        <translation>Maillage</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Appareil</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>Couches</translation>
    </message>
    <message>
        <source>Hidden size</source>
        <translation>Dimension cachée</translation>
    </message>
    <message>
        <source>Vocabulary</source>
        <translation>Vocabulaire</translation>
    </message>
    <message>
        <source>Batch</source>
        <translation>Lot (batch)</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Pas</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>Graine</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>Taux d&apos;apprentissage</translation>
    </message>
    <message>
        <source>FSDP sharding</source>
        <translation>Partitionnement FSDP</translation>
    </message>
    <message>
        <source>Shard group (hybrid)</source>
        <translation>Groupe de shards (hybride)</translation>
    </message>
    <message>
        <source>Backward prefetch</source>
        <translation>Prélecture en passe arrière</translation>
    </message>
    <message>
        <source>Forward prefetch</source>
        <translation>Prélecture en passe avant</translation>
    </message>
    <message>
        <source>Gathered units at most</source>
        <translation>Unités rassemblées, max.</translation>
    </message>
    <message>
        <source>Precision (param, reduce)</source>
        <translation>Précision (paramètres, réduction)</translation>
    </message>
    <message>
        <source>Activation checkpointing</source>
        <translation>Recalcul des activations</translation>
    </message>
    <message>
        <source>Micro-steps per step</source>
        <translation>Micro-pas par pas</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>Ordonnancement</translation>
    </message>
    <message>
        <source>Micro-batches</source>
        <translation>Micro-lots</translation>
    </message>
    <message>
        <source>Virtual stages</source>
        <translation>Étages virtuels</translation>
    </message>
    <message>
        <source>Memory budget</source>
        <translation>Budget mémoire</translation>
    </message>
    <message>
        <source>Hang timeout</source>
        <translation>Délai de blocage</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Lancer</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Arrêter</translation>
    </message>
    <message>
        <source>Run: fix the options named below</source>
        <translation>Lancer : corrigez d&apos;abord les options signalées ci-dessous</translation>
    </message>
    <message>
        <source>Run this job with shardlab-run</source>
        <translation>Lancer cette tâche avec shardlab-run</translation>
    </message>
    <message>
        <source>Fix the options named below first</source>
        <translation>Corrigez d&apos;abord les options signalées ci-dessous</translation>
    </message>
</context>
<context>
    <name>shardlab::app::GuidePanel</name>
    <message>
        <source>Show the answer</source>
        <translation>Afficher la réponse</translation>
    </message>
    <message>
        <source>Next lesson ▶</source>
        <translation>Leçon suivante ▶</translation>
    </message>
    <message>
        <source>Last lesson</source>
        <translation>Dernière leçon</translation>
    </message>
    <message>
        <source>Available once this lesson&apos;s run is over.</source>
        <translation>Disponible une fois l&apos;exécution de cette leçon terminée.</translation>
    </message>
</context>
<context>
    <name>shardlab::app::JobRunner</name>
    <message>
        <source>The job did not stop within 3 s; killing it.</source>
        <translation>La tâche ne s&apos;est pas arrêtée en 3 s ; elle est tuée.</translation>
    </message>
    <message numerus="yes">
        <source>No rank has recorded anything for %n s; the run stops at the hang timeout of %1 s (Hang timeout in the Experiment form).</source>
        <translation>
            <numerusform>Aucun rang n’a rien enregistré depuis %n s ; l’exécution s’arrête au délai de blocage de %1 s (Délai de blocage dans le formulaire Expérience).</numerusform>
            <numerusform>Aucun rang n’a rien enregistré depuis %n s ; l’exécution s’arrête au délai de blocage de %1 s (Délai de blocage dans le formulaire Expérience).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>No event from rank(s) %1 for %2 s; the run stops at the hang timeout of %3 s (Hang timeout in the Experiment form).</source>
        <translation>
            <numerusform>Aucun événement du rang %1 depuis %2 s ; l’exécution s’arrête au délai de blocage de %3 s (Délai de blocage dans le formulaire Expérience).</numerusform>
            <numerusform>Aucun événement des rangs %1 depuis %2 s ; l’exécution s’arrête au délai de blocage de %3 s (Délai de blocage dans le formulaire Expérience).</numerusform>
        </translation>
    </message>
    <message>
        <source>The options break a rule, so nothing was run:
%1</source>
        <translation>Les options enfreignent une règle, rien n&apos;a été lancé :
%1</translation>
    </message>
    <message>
        <source>The job&apos;s spec file could not be written (%1).</source>
        <translation>Le fichier de spécification de la tâche n&apos;a pas pu être écrit (%1).</translation>
    </message>
    <message>
        <source>The launcher shardlab-run was not found (looked for %1). Build it with &apos;cmake --build build --target shardlab-run&apos;, or set SHARDLAB_RUN to its path.</source>
        <translation>Le lanceur shardlab-run est introuvable (cherché : %1). Compilez-le avec &apos;cmake --build build --target shardlab-run&apos; ou indiquez son chemin dans SHARDLAB_RUN.</translation>
    </message>
    <message>
        <source>Stopping the job…
</source>
        <translation>Arrêt de la tâche…
</translation>
    </message>
    <message>
        <source>shardlab-run could not be started (%1): %2</source>
        <translation>shardlab-run n&apos;a pas pu être démarré (%1) : %2</translation>
    </message>
    <message>
        <source>You stopped the job. The events recorded until then are shown.</source>
        <translation>Vous avez arrêté la tâche. Les événements enregistrés jusque-là sont affichés.</translation>
    </message>
    <message>
        <source>shardlab-run crashed. What it wrote before is shown.
%1</source>
        <translation>shardlab-run a planté. Ce qu&apos;il a écrit avant est affiché.
%1</translation>
    </message>
    <message>
        <source>The job finished.</source>
        <translation>La tâche est terminée.</translation>
    </message>
    <message>
        <source>The launcher refused the options:
%1</source>
        <translation>Le lanceur a refusé les options :
%1</translation>
    </message>
    <message>
        <source>Out of memory on rank %1: it needed %2 more for %3%4 while holding %5, but the budget is %6. This is the lesson: the model state did not fit on one rank.</source>
        <translation>Mémoire insuffisante sur le rang %1 : il lui fallait %2 de plus pour %3%4 en détenant %5, mais le budget est de %6. C&apos;est la leçon : l&apos;état du modèle ne tenait pas sur un rang.</translation>
    </message>
    <message>
        <source> of %1</source>
        <translation> de %1</translation>
    </message>
    <message>
        <source>Rank %1: %2
</source>
        <translation>Rang %1 : %2
</translation>
    </message>
    <message>
        <source>A rank failed; the trace up to the failure is shown.
%1%2</source>
        <translation>Un rang a échoué ; la trace jusqu&apos;à l&apos;échec est affichée.
%1%2</translation>
    </message>
    <message>
        <source>shardlab-run was interrupted. The events recorded until then are shown.</source>
        <translation>shardlab-run a été interrompu. Les événements enregistrés jusque-là sont affichés.</translation>
    </message>
    <message>
        <source>mpirun or the worker is missing:
%1</source>
        <translation>mpirun ou le worker est manquant :
%1</translation>
    </message>
    <message>
        <source>An output of the run could not be written whole (is the disk full?); the events received are shown:
%1</source>
        <translation>Une sortie de l’exécution n’a pas pu être écrite en entier (le disque est-il plein ?) ; les événements reçus sont affichés :
%1</translation>
    </message>
    <message>
        <source>shardlab-run exited with code %1.
%2</source>
        <translation>shardlab-run s&apos;est terminé avec le code %1.
%2</translation>
    </message>
</context>
<context>
    <name>shardlab::app::LabPanel</name>
    <message>
        <source>Results</source>
        <translation>Résultats</translation>
    </message>
    <message>
        <source>done</source>
        <translation>terminée</translation>
    </message>
    <message>
        <source>not run to its end</source>
        <translation>pas exécutée jusqu’au bout</translation>
    </message>
    <message>
        <source>no answers</source>
        <translation>aucune réponse</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n answer(s) right</source>
        <translation>
            <numerusform>%1 réponse juste sur %n</numerusform>
            <numerusform>%1 réponses justes sur %n</numerusform>
        </translation>
    </message>
    <message>
        <source>Run this step</source>
        <translation>Lancer cette étape</translation>
    </message>
    <message>
        <source>Next step</source>
        <translation>Étape suivante</translation>
    </message>
    <message>
        <source>Notes for this step</source>
        <translation>Notes de cette étape</translation>
    </message>
    <message>
        <source>No lab open. File → Open lab… loads one.</source>
        <translation>Aucun TP ouvert. Fichier → Ouvrir un TP… en charge un.</translation>
    </message>
    <message>
        <source>%1. %2 ✓ done</source>
        <translation>%1. %2 ✓ fait</translation>
    </message>
    <message>
        <source>%1. %2</source>
        <translation>%1. %2</translation>
    </message>
    <message numerus="yes">
        <source>Lab complete: %1 of %n step(s) done</source>
        <translation>
            <numerusform>TP terminé : %1 étape sur %n faite</numerusform>
            <numerusform>TP terminé : %1 étapes sur %n faites</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Lab finished: %1 of %n step(s) done</source>
        <translation>
            <numerusform>TP clos : %1 étape sur %n faite</numerusform>
            <numerusform>TP clos : %1 étapes sur %n faites</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Step %1 of %2 · %n done</source>
        <translation>
            <numerusform>Étape %1 sur %2 · %n terminée</numerusform>
            <numerusform>Étape %1 sur %2 · %n terminées</numerusform>
        </translation>
    </message>
    <message>
        <source>This step has no notes: follow the lesson&apos;s guide and its questions.</source>
        <translation>Cette étape n&apos;a pas de notes : suivez le guide de la leçon et ses questions.</translation>
    </message>
    <message>
        <source>Finish lab</source>
        <translation>Terminer le TP</translation>
    </message>
</context>
<context>
    <name>shardlab::app::LearnerMenu</name>
    <message>
        <source>L&amp;earner</source>
        <translation>A&amp;pprenant</translation>
    </message>
    <message>
        <source>&amp;Switch learner…</source>
        <translation>&amp;Changer d&apos;apprenant…</translation>
    </message>
    <message>
        <source>&amp;Reset my progress…</source>
        <translation>&amp;Réinitialiser ma progression…</translation>
    </message>
    <message>
        <source>Answers are now recorded for %1.</source>
        <translation>Les réponses sont désormais enregistrées pour %1.</translation>
    </message>
    <message>
        <source>(no name)</source>
        <translation>(sans nom)</translation>
    </message>
    <message>
        <source>Your progress was reset.</source>
        <translation>Votre progression a été réinitialisée.</translation>
    </message>
    <message>
        <source>Learner: %1</source>
        <translation>Apprenant : %1</translation>
    </message>
</context>
<context>
    <name>shardlab::app::LedgerView</name>
    <message>
        <source>Run</source>
        <translation>Exécution</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rang</translation>
    </message>
    <message>
        <source>run A</source>
        <translation>exécution A</translation>
    </message>
    <message>
        <source>run B</source>
        <translation>exécution B</translation>
    </message>
    <message>
        <source>&lt;p&gt;No run yet for this lesson: it runs once you have made your prediction (or chosen to run without one).&lt;/p&gt;</source>
        <translation>&lt;p&gt;Pas encore d&apos;exécution pour cette leçon : elle sera lancée une fois votre prédiction faite (ou si vous choisissez de lancer sans prédire).&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;No run yet.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Pas encore d&apos;exécution.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Imported from a PyTorch profiler trace: the profiler records how much each rank had allocated, not what for, nor the model&apos;s size, so there is no Ψ arithmetic here: only the rank&apos;s total, at the end of its last step and at its peak.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Importé d&apos;une trace du profileur PyTorch : le profileur enregistre combien chaque rang avait alloué, pas pour quoi, ni la taille du modèle ; il n&apos;y a donc pas ici d&apos;arithmétique Ψ : seulement le total du rang, à la fin de son dernier pas et à son pic.&lt;/p&gt;</translation>
    </message>
    <message numerus="yes">
        <source>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt; · Ψ = %2 parameters · D = %3 · %n rank(s)&lt;/p&gt;</source>
        <translation>
            <numerusform>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt; · Ψ = %2 paramètres · D = %3 · %n rang&lt;/p&gt;</numerusform>
            <numerusform>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt; · Ψ = %2 paramètres · D = %3 · %n rangs&lt;/p&gt;</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;p&gt;The Ψ arithmetic is data parallelism&apos;s (DDP, FSDP): here only what the rank measured is shown.&lt;/p&gt;</source>
        <translation>&lt;p&gt;L&apos;arithmétique en Ψ est celle du parallélisme de données (DDP, FSDP) : seul ce que le rang a mesuré est affiché ici.&lt;/p&gt;</translation>
    </message>
    <message>
        <source> of %1</source>
        <translation> de %1</translation>
    </message>
    <message>
        <source>The run ended out of memory before its first step</source>
        <translation>L&apos;exécution s&apos;est arrêtée, mémoire insuffisante, avant sa première étape</translation>
    </message>
    <message>
        <source>The run ended out of memory in step %1</source>
        <translation>L&apos;exécution s&apos;est arrêtée, mémoire insuffisante, à l&apos;étape %1</translation>
    </message>
    <message>
        <source>rank %1 needed %2 more for %3 while holding %4; the budget is %5. Below: what %6 held then.</source>
        <translation>le rang %1 demandait %2 de plus pour %3 en détenant %4 ; le budget est de %5. Ci-dessous : ce que détenait alors %6.</translation>
    </message>
    <message>
        <source>part</source>
        <translation>partie</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>mesuré</translation>
    </message>
    <message>
        <source>Ψ arithmetic</source>
        <translation>arithmétique en Ψ</translation>
    </message>
    <message>
        <source>the difference</source>
        <translation>l&apos;écart</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;small&gt;peak&lt;/small&gt;</source>
        <translation>&lt;br&gt;&lt;small&gt;pic&lt;/small&gt;</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;small&gt;when the run stopped&lt;/small&gt;</source>
        <translation>&lt;br&gt;&lt;small&gt;à l&apos;arrêt de l&apos;exécution&lt;/small&gt;</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;small&gt;at the end of a step&lt;/small&gt;</source>
        <translation>&lt;br&gt;&lt;small&gt;à la fin d&apos;un pas&lt;/small&gt;</translation>
    </message>
    <message>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <source>persistent</source>
        <translation>persistant</translation>
    </message>
    <message>
        <source>&lt;p&gt;ShardLab trains in fp32 and its parameters are the master copy, so the textbook&apos;s 16Ψ at mixed precision (2Ψ bf16 parameters + 2Ψ bf16 gradients + 12Ψ fp32 master, momentum and variance) is here 4Ψ parameters + 4Ψ gradients + 8Ψ AdamW moments: the same total. A part is divided by D where the run keeps only its own slice of it between steps: the optimizer state under ZeRO-1; the parameters, the gradients and the optimizer state under SHARD_GRAD_OP, FULL_SHARD and HYBRID_SHARD; nothing under DDP and NO_SHARD (docs/sharding.md).&lt;/p&gt;</source>
        <translation>&lt;p&gt;ShardLab entraîne en fp32 et ses paramètres sont la copie maîtresse : les 16Ψ du manuel en précision mixte (2Ψ de paramètres bf16 + 2Ψ de gradients bf16 + 12Ψ fp32 de copie maîtresse, moment et variance) sont ici 4Ψ de paramètres + 4Ψ de gradients + 8Ψ de moments d&apos;AdamW : le même total. Une partie est divisée par D là où l&apos;exécution n&apos;en garde que sa propre tranche entre les pas : l&apos;état de l&apos;optimiseur sous ZeRO-1 ; les paramètres, les gradients et l&apos;état de l&apos;optimiseur sous SHARD_GRAD_OP, FULL_SHARD et HYBRID_SHARD ; rien sous DDP et NO_SHARD (docs/sharding.md).&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;SHARD_GRAD_OP is only close to ZeRO-2: ZeRO-2 keeps the parameters replicated (4Ψ + 12Ψ/D), SHARD_GRAD_OP also shards them between steps (16Ψ/D), and this ledger counts them so.&lt;/p&gt;</source>
        <translation>&lt;p&gt;SHARD_GRAD_OP n&apos;est que proche de ZeRO-2 : ZeRO-2 garde les paramètres répliqués (4Ψ + 12Ψ/D), SHARD_GRAD_OP les partitionne aussi entre les pas (16Ψ/D), et ce bilan les compte ainsi.&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>shardlab::app::LessonCheckBar</name>
    <message>
        <source>Less</source>
        <translation>Moins</translation>
    </message>
    <message>
        <source>Why?</source>
        <translation>Pourquoi ?</translation>
    </message>
    <message>
        <source>Show the schedule-alone replay</source>
        <translation>Montrer le rejeu « Ordonnancement seul »</translation>
    </message>
    <message>
        <source>Show the projected replay</source>
        <translation>Montrer le rejeu « Projeté »</translation>
    </message>
</context>
<context>
    <name>shardlab::app::LogPane</name>
    <message>
        <source>The command line of the job appears here</source>
        <translation>La ligne de commande de la tâche apparaît ici</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Copier</translation>
    </message>
    <message>
        <source>Copy the command line to run the same job in a terminal</source>
        <translation>Copier la ligne de commande pour lancer la même tâche dans un terminal</translation>
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
        <translation>Votre fichier de progression n&apos;a pas pu être lu ; le quiz repart de zéro : %1</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Fichier</translation>
    </message>
    <message>
        <source>&amp;Start page</source>
        <translation>Page d&apos;&amp;accueil</translation>
    </message>
    <message>
        <source>&amp;Open trace…</source>
        <translation>&amp;Ouvrir une trace…</translation>
    </message>
    <message>
        <source>Open PyTorch trace &amp;folder…</source>
        <translation>Ouvrir un &amp;dossier de traces PyTorch…</translation>
    </message>
    <message>
        <source>&amp;Compare with trace…</source>
        <translation>&amp;Comparer avec une trace…</translation>
    </message>
    <message>
        <source>Compare with trace</source>
        <translation>Comparer avec une trace</translation>
    </message>
    <message>
        <source>Open &amp;lab…</source>
        <translation>Ouvrir un &amp;TP…</translation>
    </message>
    <message>
        <source>Open lab</source>
        <translation>Ouvrir un TP</translation>
    </message>
    <message>
        <source>ShardLab labs (*.json);;All files (*)</source>
        <translation>TP ShardLab (*.json);;Tous les fichiers (*)</translation>
    </message>
    <message>
        <source>Export &amp;Chrome trace…</source>
        <translation>Exporter une trace &amp;Chrome…</translation>
    </message>
    <message>
        <source>Export Chrome trace</source>
        <translation>Exporter une trace Chrome</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Export &amp;PNG of the view…</source>
        <translation>Exporter un &amp;PNG de la vue…</translation>
    </message>
    <message>
        <source>Export PNG</source>
        <translation>Exporter en PNG</translation>
    </message>
    <message>
        <source>PNG (*.png)</source>
        <translation>PNG (*.png)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Quitter</translation>
    </message>
    <message>
        <source>&amp;Playback</source>
        <translation>&amp;Lecture</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Affichage</translation>
    </message>
    <message>
        <source>Language changed. The experiment panel, the playback bar and the log show the new language after a restart.</source>
        <translation>Langue changée. Le panneau d&apos;expérience, la barre de lecture et le journal passent à la nouvelle langue après un redémarrage.</translation>
    </message>
    <message>
        <source>Open trace</source>
        <translation>Ouvrir une trace</translation>
    </message>
    <message>
        <source>Traces (*.trace *.txt *.json *.json.gz);;ShardLab traces (*.trace *.txt);;PyTorch profiler traces (*.pt.trace.json *.pt.trace.json.gz *.json *.json.gz);;All files (*)</source>
        <translation>Traces (*.trace *.txt *.json *.json.gz);;Traces ShardLab (*.trace *.txt);;Traces du profileur PyTorch (*.pt.trace.json *.pt.trace.json.gz *.json *.json.gz);;Tous les fichiers (*)</translation>
    </message>
    <message>
        <source>Open a folder of PyTorch profiler traces, one per rank</source>
        <translation>Ouvrir un dossier de traces du profileur PyTorch, une par rang</translation>
    </message>
    <message>
        <source>Experiment</source>
        <translation>Expérience</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>Journal</translation>
    </message>
    <message>
        <source>Quiz</source>
        <translation>Quiz</translation>
    </message>
    <message>
        <source>Guide</source>
        <translation>Guide</translation>
    </message>
    <message>
        <source>Lab</source>
        <translation>TP</translation>
    </message>
    <message>
        <source>ShardLab — %1</source>
        <translation>ShardLab — %1</translation>
    </message>
    <message>
        <source>There is no lesson &apos;%1&apos;.</source>
        <translation>Il n&apos;y a pas de leçon « %1 ».</translation>
    </message>
    <message>
        <source>run A</source>
        <translation>exécution A</translation>
    </message>
    <message>
        <source>run B</source>
        <translation>exécution B</translation>
    </message>
    <message>
        <source>%1 — both runs side by side in &quot;Both runs&quot;; their figures in Plots → Compare runs.</source>
        <translation>%1 — les deux exécutions côte à côte dans « Les deux exécutions » ; leurs chiffres dans Graphiques → Comparer les exécutions.</translation>
    </message>
    <message>
        <source>Chrome trace written to %1</source>
        <translation>Trace Chrome écrite dans %1</translation>
    </message>
    <message>
        <source>Picture of the window saved to %1</source>
        <translation>Image de la fenêtre enregistrée dans %1</translation>
    </message>
    <message>
        <source>Cannot write %1.</source>
        <translation>Impossible d&apos;écrire %1.</translation>
    </message>
    <message numerus="yes">
        <source>This lab has %n error(s); see the log.</source>
        <translation>
            <numerusform>Ce TP a %n erreur ; voir le journal.</numerusform>
            <numerusform>Ce TP a %n erreurs ; voir le journal.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>shardlab::app::PipelineView</name>
    <message>
        <source>The pipeline diagram shows pipeline runs. This run uses %1.</source>
        <translation>Le diagramme de pipeline montre les exécutions en pipeline. Cette exécution utilise %1.</translation>
    </message>
    <message>
        <source>no strategy yet</source>
        <translation>pas encore de stratégie</translation>
    </message>
    <message>
        <source>Step %1 · %2 · %3 · %4</source>
        <translation>Pas %1 · %2 · %3 · %4</translation>
    </message>
    <message numerus="yes">
        <source>%n stage(s)</source>
        <translation>
            <numerusform>%n étage</numerusform>
            <numerusform>%n étages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n micro-batch(es)</source>
        <translation>
            <numerusform>%n micro-lot</numerusform>
            <numerusform>%n micro-lots</numerusform>
        </translation>
    </message>
    <message>
        <source>Stage 00</source>
        <translation>Étage 00</translation>
    </message>
    <message>
        <source>recorded idle (hatched)</source>
        <translation>inactivité enregistrée (hachurée)</translation>
    </message>
    <message>
        <source>waiting for a CPU core (dotted)</source>
        <translation>attente d’un cœur CPU (pointillé)</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>Step %1 lasted %2</source>
        <translation>L’étape %1 a duré %2</translation>
    </message>
    <message>
        <source>Stage %1</source>
        <translation>Étage %1</translation>
    </message>
    <message>
        <source>schedule as run</source>
        <translation>ordonnancement tel qu&apos;exécuté</translation>
    </message>
    <message>
        <source>hand-offs</source>
        <translation>passages</translation>
    </message>
    <message>
        <source>slower ops</source>
        <translation>opérations plus lentes</translation>
    </message>
    <message>
        <source>waiting for cores</source>
        <translation>attente de cœurs</translation>
    </message>
    <message>
        <source>unexplained</source>
        <translation>inexpliqué</translation>
    </message>
    <message>
        <source>REPLAY (%1) · bubble in this replay %2 · theory %3</source>
        <translation>REJEU (%1) · bulle dans ce rejeu %2 · théorie %3</translation>
    </message>
    <message>
        <source>Bubble %1 measured · theory %2</source>
        <translation>Bulle %1 mesurée · théorie %2</translation>
    </message>
    <message>
        <source>other %1</source>
        <translation>autres %1</translation>
    </message>
    <message>
        <source>%1 · difference %2 (its parts: hover)</source>
        <translation>%1 · écart %2 (ses parts : au survol)</translation>
    </message>
    <message>
        <source>%1 · difference %2 = %3</source>
        <translation>%1 · écart %2 = %3</translation>
    </message>
    <message>
        <source>Bubble: the recorded pipeline idle over the steady steps&apos; stage time, %1 (theory %2). Its parts come from replays of the trace once a step has completed.</source>
        <translation>Bulle : l&apos;inactivité enregistrée du pipeline sur le temps d&apos;étage des pas stables, %1 (théorie %2). Ses parts viennent de rejeux de la trace dès qu&apos;un pas est terminé.</translation>
    </message>
    <message>
        <source>Bubble (recorded pipeline idle over the steady steps&apos; stage time): measured %1, theory %2 ((p−1)/(V·m+p−1)).</source>
        <translation>Bulle (inactivité enregistrée du pipeline sur le temps d&apos;étage des pas stables) : mesurée %1, théorie %2 ((p−1)/(V·m+p−1)).</translation>
    </message>
    <message>
        <source>Difference %1 points, each part a replay of this trace:</source>
        <translation>Écart de %1 points, chaque part un rejeu de cette trace :</translation>
    </message>
    <message>
        <source>  schedule as run %1: the schedule-alone replay (%2) minus the theory; the formula leaves out the optimizer step, which counts as stage time, and unequal stages</source>
        <translation>  ordonnancement tel qu&apos;exécuté %1 : le rejeu « Ordonnancement seul » (%2) moins la théorie ; la formule omet le pas de l&apos;optimiseur, compté comme temps d&apos;étage, et les étages inégaux</translation>
    </message>
    <message>
        <source>  hand-offs %1: every message at its measured duration</source>
        <translation>  passages %1 : chaque message à sa durée mesurée</translation>
    </message>
    <message>
        <source>  slower ops %1: every op at its own CPU time, not its fastest</source>
        <translation>  opérations plus lentes %1 : chaque opération à son propre temps CPU, non au plus rapide</translation>
    </message>
    <message>
        <source>  slower ops %1: every op at its own wall time (no CPU times recorded, so core waits are in it)</source>
        <translation>  opérations plus lentes %1 : chaque opération à sa propre durée réelle (aucun temps CPU enregistré : les attentes de cœur y sont)</translation>
    </message>
    <message>
        <source>  waiting for cores %1: every op at its wall time</source>
        <translation>  attente de cœurs %1 : chaque opération à sa durée réelle</translation>
    </message>
    <message>
        <source>  unexplained %1: what the last replay misses (±%2 expected)</source>
        <translation>  inexpliqué %1 : ce que le dernier rejeu manque (±%2 attendu)</translation>
    </message>
    <message>
        <source>; the replay misses more than that here: read the parts as rough</source>
        <translation> ; le rejeu manque plus que cela ici : lisez les parts comme approximatives</translation>
    </message>
    <message>
        <source>A different figure: %1 of stage time was not spent computing at the ops&apos; fastest pace = bubble %2 + ops slower than their fastest %3 + time under no record %4.</source>
        <translation>Un autre chiffre : %1 du temps d&apos;étage n&apos;a pas servi à calculer au rythme le plus rapide des opérations = bulle %2 + opérations plus lentes que leur plus rapide %3 + temps sans aucun enregistrement %4.</translation>
    </message>
</context>
<context>
    <name>shardlab::app::PlaybackBar</name>
    <message>
        <source>Scrub over the recorded time</source>
        <translation>Parcourir le temps enregistré</translation>
    </message>
    <message>
        <source>Follow live</source>
        <translation>Suivre en direct</translation>
    </message>
    <message>
        <source>While a job runs, keep the playhead on the newest event</source>
        <translation>Pendant une tâche, garder la tête de lecture sur l&apos;événement le plus récent</translation>
    </message>
    <message>
        <source>Start (Home)</source>
        <translation>Début (Origine)</translation>
    </message>
    <message>
        <source>Previous event (Left)</source>
        <translation>Événement précédent (Gauche)</translation>
    </message>
    <message>
        <source>Play / pause (Space)</source>
        <translation>Lecture / pause (Espace)</translation>
    </message>
    <message>
        <source>Next event (Right)</source>
        <translation>Événement suivant (Droite)</translation>
    </message>
    <message>
        <source>End (End)</source>
        <translation>Fin (Fin)</translation>
    </message>
    <message>
        <source>Next collective</source>
        <translation>Opération collective suivante</translation>
    </message>
    <message>
        <source>Next collective (Ctrl+Right)</source>
        <translation>Opération collective suivante (Ctrl+Droite)</translation>
    </message>
    <message>
        <source>Next phase</source>
        <translation>Phase suivante</translation>
    </message>
    <message>
        <source>Next phase: forward, backward, optimizer, then the next step (Shift+Right)</source>
        <translation>Phase suivante : passe avant, passe arrière, optimiseur, puis le pas suivant (Maj+Droite)</translation>
    </message>
    <message>
        <source>Slower (−)</source>
        <translation>Plus lent (−)</translation>
    </message>
    <message>
        <source>Slow-down: screen time per recorded time</source>
        <translation>Ralenti : temps à l&apos;écran par temps enregistré</translation>
    </message>
    <message>
        <source>Faster (+)</source>
        <translation>Plus vite (+)</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>×%1 slower</source>
        <translation>×%1 plus lent</translation>
    </message>
    <message>
        <source>Play / pause</source>
        <translation>Lecture / pause</translation>
    </message>
    <message>
        <source>Next event</source>
        <translation>Événement suivant</translation>
    </message>
    <message>
        <source>Previous event</source>
        <translation>Événement précédent</translation>
    </message>
    <message>
        <source>Previous collective</source>
        <translation>Opération collective précédente</translation>
    </message>
    <message>
        <source>Previous phase</source>
        <translation>Phase précédente</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Début</translation>
    </message>
    <message>
        <source>End</source>
        <translation>Fin</translation>
    </message>
    <message>
        <source>Faster</source>
        <translation>Plus vite</translation>
    </message>
    <message>
        <source>Slower</source>
        <translation>Plus lent</translation>
    </message>
</context>
<context>
    <name>shardlab::app::PlotsView</name>
    <message>
        <source>Rank:</source>
        <translation>Rang :</translation>
    </message>
    <message>
        <source>Memory over time</source>
        <translation>Mémoire au fil du temps</translation>
    </message>
    <message>
        <source>Loss per step</source>
        <translation>Perte par pas</translation>
    </message>
    <message>
        <source>Bytes per step</source>
        <translation>Octets par pas</translation>
    </message>
    <message>
        <source>Compare runs</source>
        <translation>Comparer les exécutions</translation>
    </message>
    <message>
        <source>time since start (ms)</source>
        <translation>temps depuis le début (ms)</translation>
    </message>
    <message>
        <source>held (MiB), stacked by category</source>
        <translation>détenu (Mio), empilé par catégorie</translation>
    </message>
    <message>
        <source>loss (this run)</source>
        <translation>perte (cette exécution)</translation>
    </message>
    <message>
        <source>step</source>
        <translation>pas</translation>
    </message>
    <message>
        <source>mean loss per token</source>
        <translation>perte moyenne par jeton</translation>
    </message>
    <message>
        <source>step (rank 0)</source>
        <translation>pas (rang 0)</translation>
    </message>
    <message>
        <source>collective buffer bytes (KiB)</source>
        <translation>octets des tampons collectifs (Kio)</translation>
    </message>
    <message>
        <source>No run yet for this lesson: it runs once you have made your prediction (or chosen to run without one).</source>
        <translation>Pas encore d&apos;exécution pour cette leçon : elle sera lancée une fois votre prédiction faite (ou si vous choisissez de lancer sans prédire).</translation>
    </message>
    <message>
        <source>No comparison: run a comparison lesson or use File → Compare with trace…</source>
        <translation>Aucune comparaison : lancez une leçon de comparaison ou utilisez Fichier → Comparer avec une trace…</translation>
    </message>
    <message>
        <source>Step time (steady steps, slowest rank)</source>
        <translation>Durée du pas (pas réguliers, rang le plus lent)</translation>
    </message>
    <message>
        <source>Step time, schedule alone (replay, communication free)</source>
        <translation>Durée du pas, ordonnancement seul (rejeu, communications gratuites)</translation>
    </message>
    <message>
        <source>Exposed communication (whole run, per rank)</source>
        <translation>Communication exposée (toute l&apos;exécution, par rang)</translation>
    </message>
    <message>
        <source>Bubble, measured (share of stage time idle)</source>
        <translation>Bulle mesurée (part du temps d&apos;étage inactif)</translation>
    </message>
    <message>
        <source>Bubble, schedule alone (replay)</source>
        <translation>Bulle, ordonnancement seul (rejeu)</translation>
    </message>
    <message>
        <source>Peak memory (highest rank)</source>
        <translation>Mémoire au pic (rang au pic le plus haut)</translation>
    </message>
    <message>
        <source>%1 — out of memory</source>
        <translation>%1 — mémoire insuffisante</translation>
    </message>
    <message>
        <source>Needed, refused (out of memory)</source>
        <translation>Demandé, refusé (mémoire insuffisante)</translation>
    </message>
    <message>
        <source>%1 (%2 more)</source>
        <translation>%1 (%2 de plus)</translation>
    </message>
    <message>
        <source>Persistent memory (end of the last step)</source>
        <translation>Mémoire persistante (fin du dernier pas)</translation>
    </message>
    <message>
        <source>Memory budget per rank</source>
        <translation>Budget mémoire par rang</translation>
    </message>
    <message>
        <source>none</source>
        <translation>aucun</translation>
    </message>
    <message>
        <source>%1: persistent</source>
        <translation>%1 : persistante</translation>
    </message>
    <message>
        <source>%1: peak</source>
        <translation>%1 : pic</translation>
    </message>
    <message>
        <source>%1: needed, refused (out of memory)</source>
        <translation>%1 : demandé, refusé (mémoire insuffisante)</translation>
    </message>
    <message>
        <source>memory budget %1</source>
        <translation>budget mémoire %1</translation>
    </message>
    <message>
        <source>rank</source>
        <translation>rang</translation>
    </message>
    <message>
        <source>held (MiB)</source>
        <translation>détenu (Mio)</translation>
    </message>
</context>
<context>
    <name>shardlab::app::QuizController</name>
    <message>
        <source>no assets folder was found, so the quiz has no sentences</source>
        <translation>aucun dossier de ressources n’a été trouvé : le quiz n’a donc pas de phrases</translation>
    </message>
</context>
<context>
    <name>shardlab::app::QuizOverlay</name>
    <message>
        <source>Quiz</source>
        <translation>Quiz</translation>
    </message>
    <message>
        <source>Hide (F9)</source>
        <translation>Masquer (F9)</translation>
    </message>
    <message>
        <source>Hide the quiz; F9 shows it again.</source>
        <translation>Masquer le quiz ; F9 le réaffiche.</translation>
    </message>
</context>
<context>
    <name>shardlab::app::QuizPanel</name>
    <message>
        <source>At t = %1 ms:</source>
        <translation>À t = %1 ms :</translation>
    </message>
    <message>
        <source>This run does not show this moment.</source>
        <translation>Cette exécution ne montre pas ce moment.</translation>
    </message>
    <message>
        <source>Not a value of this kind (%1).</source>
        <translation>Pas une valeur de ce type (%1).</translation>
    </message>
    <message>
        <source>Saved: %1. It is compared with the run&apos;s measurement when the run is there.</source>
        <translation>Enregistré : %1. Elle sera comparée à la mesure de l&apos;exécution dès que l&apos;exécution sera là.</translation>
    </message>
    <message>
        <source>First, predict: %1 The run starts when you save your prediction (or run without one).</source>
        <translation>D&apos;abord, prédisez : %1 L&apos;exécution démarre quand vous enregistrez votre prédiction (ou lancez sans prédire).</translation>
    </message>
    <message>
        <source>No questions yet: run a lesson or open a trace.</source>
        <translation>Pas encore de questions : lancez une leçon ou ouvrez une trace.</translation>
    </message>
    <message>
        <source>About your run</source>
        <translation>Sur votre exécution</translation>
    </message>
    <message>
        <source>Lesson question</source>
        <translation>Question de la leçon</translation>
    </message>
    <message>
        <source>Right.</source>
        <translation>Juste.</translation>
    </message>
    <message>
        <source>Not quite. The answer: %1</source>
        <translation>Pas tout à fait. La réponse : %1</translation>
    </message>
    <message>
        <source>This run does not show it; running the lesson %1…</source>
        <translation>Cette exécution ne le montre pas ; lancement de la leçon %1…</translation>
    </message>
    <message>
        <source>Questions</source>
        <translation>Questions</translation>
    </message>
    <message>
        <source>Review</source>
        <translation>Révision</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Enregistrer</translation>
    </message>
    <message>
        <source>Run without predicting</source>
        <translation>Lancer sans prédire</translation>
    </message>
    <message>
        <source>Predict before you run:</source>
        <translation>Prédisez avant de lancer :</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>Vérifier</translation>
    </message>
    <message>
        <source>Show me the moment</source>
        <translation>Montrez-moi le moment</translation>
    </message>
    <message>
        <source>Show me</source>
        <translation>Montrez-moi</translation>
    </message>
    <message>
        <source>◀ Previous</source>
        <translation>◀ Précédente</translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation>Suivante ▶</translation>
    </message>
</context>
<context>
    <name>shardlab::app::QuizPlace</name>
    <message>
        <source>Quiz overlay (presentation)</source>
        <translation>Quiz en surimpression (présentation)</translation>
    </message>
</context>
<context>
    <name>shardlab::app::RankView</name>
    <message numerus="yes">
        <source>HYBRID_SHARD: each shard group of %n rank(s) splits every unit; the ranks that hold the same slice are replicas, kept equal by an all-reduce across the groups</source>
        <translation>
            <numerusform>HYBRID_SHARD : chaque groupe de sharding de %n rang découpe chaque unité ; les rangs qui détiennent la même tranche sont des répliques, maintenues identiques par un all-reduce entre les groupes</numerusform>
            <numerusform>HYBRID_SHARD : chaque groupe de sharding de %n rangs découpe chaque unité ; les rangs qui détiennent la même tranche sont des répliques, maintenues identiques par un all-reduce entre les groupes</numerusform>
        </translation>
    </message>
    <message>
        <source>no work at this instant</source>
        <translation>aucun travail à cet instant</translation>
    </message>
    <message>
        <source>shard group %1: ranks %2–%3</source>
        <translation>groupe de sharding %1 : rangs %2–%3</translation>
    </message>
    <message>
        <source>Rank %1</source>
        <translation>Rang %1</translation>
    </message>
    <message>
        <source>group %1 · slice %2</source>
        <translation>groupe %1 · tranche %2</translation>
    </message>
    <message>
        <source>slice %1</source>
        <translation>tranche %1</translation>
    </message>
    <message>
        <source>idle: %1</source>
        <translation>inactif : %1</translation>
    </message>
    <message>
        <source>last recorded: %1</source>
        <translation>dernier enregistré : %1</translation>
    </message>
    <message>
        <source>OUT OF MEMORY</source>
        <translation>MÉMOIRE INSUFFISANTE</translation>
    </message>
    <message>
        <source>FAILED</source>
        <translation>ÉCHEC</translation>
    </message>
    <message>
        <source>MISSING: %1</source>
        <translation>ABSENT : %1</translation>
    </message>
    <message>
        <source>FAILED: %1</source>
        <translation>ÉCHEC : %1</translation>
    </message>
    <message>
        <source>%1 held · peak %2</source>
        <translation>%1 détenus · pic %2</translation>
    </message>
    <message>
        <source> · budget %1</source>
        <translation> · budget %1</translation>
    </message>
    <message>
        <source>%1 held</source>
        <translation>%1 détenus</translation>
    </message>
    <message numerus="yes">
        <source>Rank %1 %2; rank(s) %3 wait for it.</source>
        <translation>
            <numerusform>Le rang %1 %2 ; le rang %3 l&apos;attend.</numerusform>
            <numerusform>Le rang %1 %2 ; les rangs %3 l&apos;attendent.</numerusform>
        </translation>
    </message>
    <message>
        <source>Rank %1 failed: %2.</source>
        <translation>Le rang %1 a échoué : %2.</translation>
    </message>
    <message>
        <source>Out of memory: %1 needed %2 more while holding %3; budget %4.</source>
        <translation>Mémoire insuffisante : %1 demandait %2 de plus en détenant %3 ; budget %4.</translation>
    </message>
    <message>
        <source> of %1</source>
        <translation> de %1</translation>
    </message>
    <message>
        <source>No run yet for this lesson: it runs once you have made your prediction (or chosen to run without one).</source>
        <translation>Pas encore d&apos;exécution pour cette leçon : elle sera lancée une fois votre prédiction faite (ou si vous choisissez de lancer sans prédire).</translation>
    </message>
    <message>
        <source>No run yet. Pick a lesson or run an experiment.</source>
        <translation>Pas encore d&apos;exécution. Choisissez une leçon ou lancez une expérience.</translation>
    </message>
</context>
<context>
    <name>shardlab::app::ReviewView</name>
    <message>
        <source>Right at the first try.</source>
        <translation>Juste du premier coup.</translation>
    </message>
    <message>
        <source>Wrong at the first try.</source>
        <translation>Faux au premier essai.</translation>
    </message>
    <message>
        <source>Your answer:</source>
        <translation>Votre réponse :</translation>
    </message>
    <message>
        <source>Right answer:</source>
        <translation>Bonne réponse :</translation>
    </message>
    <message>
        <source>No answers yet in this quiz.</source>
        <translation>Pas encore de réponse dans ce quiz.</translation>
    </message>
    <message>
        <source>No mistakes to review.</source>
        <translation>Aucune erreur à revoir.</translation>
    </message>
</context>
<context>
    <name>shardlab::app::StartPage</name>
    <message>
        <source>No lessons were found: %1</source>
        <translation>Aucune leçon trouvée : %1</translation>
    </message>
    <message>
        <source>&lt;h1&gt;ShardLab&lt;/h1&gt;&lt;p&gt;Run a small real training job on several ranks and watch what actually happened: every block, shard and number on screen comes from the recorded trace.&lt;/p&gt;</source>
        <translation>&lt;h1&gt;ShardLab&lt;/h1&gt;&lt;p&gt;Lancez une petite tâche d&apos;entraînement réelle sur plusieurs rangs et regardez ce qui s&apos;est réellement passé : chaque bloc, shard et nombre à l&apos;écran vient de la trace enregistrée.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Lessons&lt;/h3&gt;</source>
        <translation>&lt;h3&gt;Leçons&lt;/h3&gt;</translation>
    </message>
    <message>
        <source>&lt;h3&gt;On your own&lt;/h3&gt;</source>
        <translation>&lt;h3&gt;Par vous-même&lt;/h3&gt;</translation>
    </message>
    <message>
        <source>Free experiment</source>
        <translation>Expérience libre</translation>
    </message>
    <message>
        <source>Choose the strategy, ranks, model size and schedule yourself.</source>
        <translation>Choisissez vous-même la stratégie, les rangs, la taille du modèle et l&apos;ordonnancement.</translation>
    </message>
    <message>
        <source>Open a trace</source>
        <translation>Ouvrir une trace</translation>
    </message>
    <message>
        <source>Replay a trace recorded earlier by shardlab-run --trace.</source>
        <translation>Rejouer une trace enregistrée auparavant par shardlab-run --trace.</translation>
    </message>
    <message>
        <source>Run this lesson</source>
        <translation>Lancer cette leçon</translation>
    </message>
    <message>
        <source>Show the answer</source>
        <translation>Afficher la réponse</translation>
    </message>
    <message>
        <source>%1 — complete: you answered all its questions.</source>
        <translation>%1 — terminée : vous avez répondu à toutes ses questions.</translation>
    </message>
</context>
<context>
    <name>shardlab::app::SummaryView</name>
    <message>
        <source>%1 modelled</source>
        <translation>%1 modélisés</translation>
    </message>
    <message>
        <source>%1 modelled · %2 measured</source>
        <translation>%1 modélisés · %2 mesurés</translation>
    </message>
    <message>
        <source>&lt;p&gt;No run yet.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Pas encore d&apos;exécution.&lt;/p&gt;</translation>
    </message>
    <message numerus="yes">
        <source>&lt;p&gt;%1 on %n rank(s) · %2 of %3 steps (ProfilerStep) · %4 units · wall %5 · the trace records neither the parameters nor the loss, and is not replayed&lt;/p&gt;</source>
        <translation>
            <numerusform>&lt;p&gt;%1 sur %n rang · %2 pas sur %3 (ProfilerStep) · %4 unités · durée %5 · la trace n&apos;enregistre ni les paramètres ni la perte, et n&apos;est pas rejouée&lt;/p&gt;</numerusform>
            <numerusform>&lt;p&gt;%1 sur %n rangs · %2 pas sur %3 (ProfilerStep) · %4 unités · durée %5 · la trace n&apos;enregistre ni les paramètres ni la perte, et n&apos;est pas rejouée&lt;/p&gt;</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;p&gt;%1 on %n rank(s) · %2 of %3 steps · %4 parameters in %5 units · wall %6&lt;/p&gt;</source>
        <translation>
            <numerusform>&lt;p&gt;%1 sur %n rang · %2 pas sur %3 · %4 paramètres dans %5 unités · durée %6&lt;/p&gt;</numerusform>
            <numerusform>&lt;p&gt;%1 sur %n rangs · %2 pas sur %3 · %4 paramètres dans %5 unités · durée %6&lt;/p&gt;</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;p&gt;Loss %1 → %2&lt;/p&gt;</source>
        <translation>&lt;p&gt;Perte %1 → %2&lt;/p&gt;</translation>
    </message>
    <message>
        <source>rank</source>
        <translation>rang</translation>
    </message>
    <message>
        <source>persistent</source>
        <translation>persistant</translation>
    </message>
    <message>
        <source>peak</source>
        <translation>pic</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>calcul</translation>
    </message>
    <message>
        <source>comm</source>
        <translation>comm.</translation>
    </message>
    <message>
        <source>exposed comm</source>
        <translation>comm. exposée</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>inactif</translation>
    </message>
    <message>
        <source>sent</source>
        <translation>envoyé</translation>
    </message>
    <message>
        <source>collective</source>
        <translation>opération collective</translation>
    </message>
    <message>
        <source>calls per rank</source>
        <translation>appels par rang</translation>
    </message>
    <message>
        <source>buffer bytes</source>
        <translation>octets de tampon</translation>
    </message>
    <message>
        <source>on the wire</source>
        <translation>sur le réseau</translation>
    </message>
    <message>
        <source>time</source>
        <translation>temps</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;i&gt;Modelled&lt;/i&gt;: what a ring algorithm sends for each recorded call. &lt;i&gt;Measured&lt;/i&gt;: what Open MPI&apos;s monitoring counted the rank really sending, whatever algorithm it chose; not available on NCCL ranks, for point-to-point messages on Open MPI 4.1, or with &lt;code&gt;--no-wire-monitoring&lt;/code&gt;.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;i&gt;Modélisé&lt;/i&gt; : ce qu&apos;un algorithme en anneau envoie pour chaque appel enregistré. &lt;i&gt;Mesuré&lt;/i&gt; : ce que la surveillance d&apos;Open MPI a compté comme réellement envoyé par le rang, quel que soit l&apos;algorithme qu&apos;elle a choisi ; indisponible sur les rangs NCCL, pour les messages point à point sous Open MPI 4.1 et avec &lt;code&gt;--no-wire-monitoring&lt;/code&gt;.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Pipeline bubble (%1; p = %2 stages, m = %3 micro-batches, V = %4 model chunks per rank): measured %5%, theory %6%&lt;/p&gt;</source>
        <translation>&lt;p&gt;Bulle du pipeline (%1 ; p = %2 étages, m = %3 micro-lots, V = %4 morceaux du modèle par rang) : mesurée %5 %, théorie %6 %&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Out of memory on rank %1&lt;/b&gt;: %2 needed %3 more while holding %4; the budget is %5.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Mémoire insuffisante sur le rang %1&lt;/b&gt; : %2 demandait %3 de plus en détenant %4 ; le budget est de %5.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Rank %1 failed&lt;/b&gt;: %2&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Le rang %1 a échoué&lt;/b&gt; : %2&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>shardlab::app::TimelineView</name>
    <message>
        <source>CPU rank 00</source>
        <translation>Rang CPU 00</translation>
    </message>
    <message>
        <source>The timeline fills in as the job runs.</source>
        <translation>La chronologie se remplit pendant l&apos;exécution de la tâche.</translation>
    </message>
    <message>
        <source>CPU rank %1</source>
        <translation>Rang CPU %1</translation>
    </message>
    <message>
        <source>GPU rank %1</source>
        <translation>Rang GPU %1</translation>
    </message>
    <message>
        <source>OOM</source>
        <translation>OOM</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>échec</translation>
    </message>
</context>
<context>
    <name>shardlab::app::TraceModel</name>
    <message>
        <source>Cannot open %1: the file does not exist or is not readable.</source>
        <translation>Impossible d&apos;ouvrir %1 : le fichier n&apos;existe pas ou n&apos;est pas lisible.</translation>
    </message>
    <message>
        <source>%1, line %2: %3.%4</source>
        <translation>%1, ligne %2 : %3.%4</translation>
    </message>
    <message numerus="yes">
        <source> The %n event(s) before it are shown.</source>
        <translation>
            <numerusform> L&apos;événement qui le précède est affiché.</numerusform>
            <numerusform> Les %n événements qui le précèdent sont affichés.</numerusform>
        </translation>
    </message>
    <message>
        <source>stream line %1: %2</source>
        <translation>ligne %1 du flux : %2</translation>
    </message>
    <message>
        <source>CPU rank %1</source>
        <translation>Rang CPU %1</translation>
    </message>
    <message>
        <source>GPU rank %1</source>
        <translation>Rang GPU %1</translation>
    </message>
    <message>
        <source>GPU rank %1 · %2</source>
        <translation>Rang GPU %1 · %2</translation>
    </message>
    <message>
        <source>No run</source>
        <translation>Aucune exécution</translation>
    </message>
    <message numerus="yes">
        <source>%n GPU rank(s)</source>
        <translation>
            <numerusform>%n rang GPU</numerusform>
            <numerusform>%n rangs GPU</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n CPU rank(s)</source>
        <translation>
            <numerusform>%n rang CPU</numerusform>
            <numerusform>%n rangs CPU</numerusform>
        </translation>
    </message>
    <message>
        <source>Imported from a PyTorch profiler trace: %1</source>
        <translation>Importé d&apos;une trace du profileur PyTorch : %1</translation>
    </message>
    <message>
        <source>Imported from a PyTorch profiler trace: %1, %2 backend</source>
        <translation>Importé d&apos;une trace du profileur PyTorch : %1, moteur de communication %2</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>(Open MPI, shared memory)</source>
        <translation>(Open MPI, mémoire partagée)</translation>
    </message>
    <message>
        <source>, each on a core of its own</source>
        <translation>, chacun sur son propre cœur</translation>
    </message>
    <message>
        <source>, each on CPUs of its own</source>
        <translation>, chacun sur ses propres processeurs</translation>
    </message>
    <message numerus="yes">
        <source>%n rank(s), device not yet known</source>
        <translation>
            <numerusform>%n rang, appareil encore inconnu</numerusform>
            <numerusform>%n rangs, appareil encore inconnu</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n rank(s) not yet reported</source>
        <translation>
            <numerusform>%n rang pas encore signalé</numerusform>
            <numerusform>%n rangs pas encore signalés</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>on %n host(s)</source>
        <translation>
            <numerusform>sur %n hôte</numerusform>
            <numerusform>sur %n hôtes</numerusform>
        </translation>
    </message>
    <message>
        <source>REPLAY of this run (%1) — %2</source>
        <translation>REJEU de cette exécution (%1) — %2</translation>
    </message>
    <message>
        <source>schedule alone: communication free, each op at its fastest recorded time</source>
        <translation>ordonnancement seul : communications gratuites, chaque opération à son temps enregistré le plus court</translation>
    </message>
    <message>
        <source>communication as fitted to this run</source>
        <translation>communications ajustées sur cette exécution</translation>
    </message>
    <message>
        <source>projected on %1, ops at their fastest recorded time</source>
        <translation>projeté sur %1, opérations à leur temps enregistré le plus court</translation>
    </message>
</context>
<context>
    <name>shardlab::app::WorkspacePage</name>
    <message>
        <source>%v / %m steps</source>
        <translation>%v / %m pas</translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation>Rangs</translation>
    </message>
    <message>
        <source>Pipeline</source>
        <translation>Pipeline</translation>
    </message>
    <message>
        <source>Plots</source>
        <translation>Graphiques</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>Résumé</translation>
    </message>
    <message>
        <source>Memory ledger</source>
        <translation>Bilan mémoire</translation>
    </message>
    <message>
        <source>Both runs</source>
        <translation>Les deux exécutions</translation>
    </message>
    <message>
        <source>no run</source>
        <translation>aucune exécution</translation>
    </message>
    <message>
        <source>Running: %1</source>
        <translation>En cours : %1</translation>
    </message>
    <message>
        <source>An imported PyTorch trace is not replayed: it records no wait for a collective and not the time between its ops, so a replay would not be this run.</source>
        <translation>Une trace PyTorch importée n&apos;est pas rejouée : elle n&apos;enregistre aucune attente d&apos;une collective ni le temps entre ses opérations, si bien qu&apos;un rejeu ne serait pas cette exécution.</translation>
    </message>
    <message>
        <source>this run</source>
        <translation>cette exécution</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>Mesuré</translation>
    </message>
    <message>
        <source>Schedule alone</source>
        <translation>Ordonnancement seul</translation>
    </message>
    <message>
        <source>Projected</source>
        <translation>Projeté</translation>
    </message>
    <message>
        <source>What this run measured on this machine.</source>
        <translation>Ce que cette exécution a mesuré sur cette machine.</translation>
    </message>
    <message>
        <source>Replay of this run&apos;s own dependency graph with communication free and each op at its fastest recorded time: what the schedule alone costs. A computation on the trace, not a new run.</source>
        <translation>Rejeu du graphe de dépendances de cette exécution, communications gratuites et chaque opération à son temps enregistré le plus court : ce que coûte l&apos;ordonnancement seul. Un calcul sur la trace, pas une nouvelle exécution.</translation>
    </message>
    <message>
        <source>Replay of this run&apos;s graph with each transfer costed on %1 (docs/replay.md) and each op at its fastest recorded time. A computation on the trace, not a new run.</source>
        <translation>Rejeu du graphe de cette exécution, chaque transfert coûté sur %1 (docs/replay.md) et chaque opération à son temps enregistré le plus court. Un calcul sur la trace, pas une nouvelle exécution.</translation>
    </message>
</context>
</TS>
