"""What a language pack holds: data, and the few functions of its grammar (``lang.grammar``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from .slot_grammar import SlotGrammar


@dataclass(frozen=True)
class Pack:
    """The words of one language that vmem's rules read.

    ``code`` is the ISO 639-1 code stored in tags and reports. ``function_words`` are
    frequent words of this language that are rare in the other packs' (the detector's
    vote); ``marks`` are characters only this language writes, each worth ``mark_weight``
    votes, and ``accents`` characters it shares with few others, worth one. ``abbreviations``
    end in a full stop that ends no sentence ("Mr.", "Dra.", "Av."). ``continues`` are the
    words that open a sentence going on about what the last one named ("She is a nurse.",
    "Ela é enfermeira."): said after a request to remember, it is part of it."""

    code: str
    name: str
    function_words: frozenset[str]
    marks: str = ""
    mark_weight: int = 2
    #: how only this language spells, as a pattern: one vote for it where a text spells so
    #: (Portuguese "nh" and "lh" between vowels inside a word, a pronoun hyphened to its
    #: verb: "minha", "trabalho", "lembre-se"; "A gatinha se chama Pipoca" was Spanish)
    spellings: str = ""
    accents: str = ""
    abbreviations: frozenset[str] = field(default_factory=frozenset)
    #: how much a memory matters by what it says, as (importance, phrases) from the most
    #: important down: a person's details .8 ("name", "sister", "lives in"), what they
    #: learned or struggle with .7, their likes .6; anything else .4 (``lifecycle.importance``)
    importance_cues: tuple[tuple[float, tuple[str, ...]], ...] = ()
    continues: frozenset[str] = field(default_factory=frozenset)
    #: the words that ask to keep something, as patterns of one whole word, accents folded
    #: ("remember(?:s|ed|ing)?"; "guard[\w-]*" of "guárdalo", "lembr[\w-]*" of "lembre-se"),
    #: and the words after which what to keep is said ("that", "que"): "Save this for future
    #: sessions: …", "Quero que você lembre que …"
    remember_cues: tuple[str, ...] = ()
    #: the languages a short text of this one is often told as ("uso óculos" reads as
    #: Spanish): a few words said among others of this language are read in it
    told_as: frozenset[str] = field(default_factory=frozenset)
    #: the words a request is asked with, as spelt right: a word typed close to one of them
    #: and that no cue reads ("rememebr", "rember", "lemrba") is read as it
    request_verbs: tuple[str, ...] = ()
    #: how the language asks not to forget, as patterns ("don't forget", "no te olvides",
    #: "não esquece"): before "to"/"de" and a verb, a to-do ("não esquece de reverter isso: …")
    forget_requests: tuple[str, ...] = ()
    #: the vowels of the language's words, accents folded: chat writes a request's word
    #: without them ("rmbr", "lmbr")
    vowels: str = ""
    #: the language's contractions as chat types them without their apostrophe, and as
    #: written ("dont": "don't", "im": "I'm"): every rule reads the written one. Only forms
    #: that are no word of their own ("ill", "its", "were", "lets", "wont" are)
    typed_contractions: Mapping[str, str] = field(default_factory=dict)
    #: what a request said after its fact points back with ("remember *that*", "guarda *isso*")
    back_refs: frozenset[str] = field(default_factory=frozenset)
    #: the back words that point at what follows as often as at what was said ("this",
    #: "esto", "isto"); the others point back ("that", "eso", "isso")
    near_refs: frozenset[str] = field(default_factory=frozenset)
    #: the words that follow a back word used as a pronoun, not as the "that" of a clause:
    #: "save that *somewhere*", "please commit that *to* memory", "keep it *in* mind" (the
    #: fact was said before the request)
    pronoun_tails: frozenset[str] = field(default_factory=frozenset)
    #: the nouns a back word points at what was said with ("save *that info*", "guarda *ese
    #: dato*"): not "save that file", which names a thing of the task
    back_nouns: frozenset[str] = field(default_factory=frozenset)
    #: what a request said after its fact may end with that says neither what it keeps nor
    #: anything else: a word said with the verb ("anota *aí*", "guarda *lá*"), and, as
    #: patterns, what opens what the request is for ("anota *pra quando* eu pedir…", "tenlo
    #: presente *cuando* te diga…", "make a note *for when* I ask…"): the request keeps what
    #: was said before it
    request_fillers: frozenset[str] = field(default_factory=frozenset)
    #: the idioms a request is asked with that hold no word of keeping, as (pattern, the
    #: request they ask): "hang on to that" → "remember that", "don't let me forget!" →
    #: "remember that!"; each reads only where what it asks to keep is pointed at
    request_idioms: tuple[tuple[str, str], ...] = ()
    #: the plainest way the language asks to keep what follows a colon ("remember this"):
    #: what a lead the judge of asking is sure of stands for (``conversation.signals``)
    plain_request: str = ""
    #: the plainest way the language asks to keep what was just said ("remember that",
    #: "recuérdalo"): what a last clause the judge of asking is sure of stands for, when it
    #: asks in words no pack holds whole ("…, me gustaría que lo recordaras")
    plain_back_request: str = ""
    #: the words of keeping, as patterns, that say where or when to keep and not the act
    #: ("in *mind*", "for *later*", "em *conta*"): a last clause asks with one only after a
    #: back word ("keep that in mind"), not alone ("talk to you later")
    cue_nouns: str = ""
    #: the subjects that make a word of keeping a verb said of someone, not a request
    #: ("*we* save that data for 90 days", "*they* file that paperwork in April")
    statement_subjects: frozenset[str] = field(default_factory=frozenset)
    #: the endings a word of keeping takes only when said of someone, never when asked
    #: ("guard*an*", "anot*ei*", "salv*amos*"), accents folded
    statement_endings: tuple[str, ...] = ()
    #: the labels of a task's item, not of one of the user's things ("TODO: call mom", "paso
    #: 1: instalar"): a list's "label: value" item under such a label says nothing of the user
    task_labels: frozenset[str] = field(default_factory=frozenset)
    request_purposes: tuple[str, ...] = ()
    #: of those, the clauses of when ("cuando te diga…", "when I ask you…"): a "que" or a
    #: "that" after one is the clause's ("tenlo presente cuando te diga que estoy cansado"),
    #: not the fact's, as it is after a time ("remember for next time that…")
    request_when: tuple[str, ...] = ()
    #: what opens why a request is asked, after a request that points back ("…. Note it,
    #: *because* you'll plan the menu", "Apúntalo, *ya que*…", "Anota isso, *pois*…"): the
    #: request keeps what was said before it, and the reason is no fact (patterns, read at the
    #: reason's start); after a fact a request opened, one that speaks to the assistant is cut
    #: off it too ("remember that my mom is Helen, because you'll help me write to her")
    request_reasons: tuple[str, ...] = ()
    #: what opens what a request that points back is for, said after it ("Note it so that
    #: you…", "Apúntalo, así me felicitas", "Anota isso caso eu precise…"): it ends such a
    #: request as a reason does, but a fact the request opened keeps it ("remember that I'm
    #: colorblind, so when you suggest colours avoid red/green": what to do with the fact)
    request_aims: tuple[str, ...] = ()
    #: the words of a request said after its fact, before its word that asks to keep
    #: ("…, *please could you* keep that", "*y que no se te* olvide", "*quero que você* lembre")
    request_glue: frozenset[str] = field(default_factory=frozenset)
    #: how a request is asked as a question ("could you remember that …?", "pode lembrar …?")
    polite_requests: tuple[str, ...] = ()
    #: what opens a request before a colon without a word that asks to keep ("for next
    #: time:", "para la próxima:", "para referência futura:"), as patterns
    keep_leads: tuple[str, ...] = ()
    #: of those, the ones that name what is kept for, which may run straight into what the
    #: user says of themselves ("for future reference my project is…"); "for the record I
    #: never said that" keeps nothing
    future_leads: tuple[str, ...] = ()
    #: what ends a sentence without making it a question ("…, ok?", "…, ¿vale?", "…, né?")
    question_tags: tuple[str, ...] = ()
    #: what the assistant is told to do next about the code ("fix it", "agrega una
    #: validación", "trata isso"): a note about the code followed by one is the task
    task_imperatives: tuple[str, ...] = ()
    #: the verbs that order work on a text the message then gives, after a colon
    #: ("*Summarize* this email:", "*traduce* al inglés:", "*revisa* o texto:"): what
    #: follows is the text to work on, not what the user asks to keep
    text_orders: frozenset[str] = field(default_factory=frozenset)
    #: the words that open a polite order before its verb ("can you", "¿podrías…",
    #: "consegue…"), read past to find it
    order_openers: frozenset[str] = field(default_factory=frozenset)
    #: the verbs of a workflow that order the assistant after a note about the code ("…,
    #: push there", "…, sube ahí los cambios", "…, não roda o seed"), in any form they take;
    #: several are also a third person ("corre Debian 12", "roda Unraid"), so one orders only
    #: when a thing of the task or a place ("there", "ahí", "lá") follows it
    task_orders: tuple[str, ...] = ()
    #: what may open such an order as a prohibition ("don't", "no", "não")
    prohibitions: tuple[str, ...] = ()
    #: what joins an order to the note before it as its consequence ("so", "así que", "então"),
    #: as patterns
    consequences: tuple[str, ...] = ()
    #: the words of a place pointed at ("there", "ahí", "lá"): where the work goes
    there_words: tuple[str, ...] = ()
    #: the determiners that point at a thing at hand ("this", "este", "nesse"): before a
    #: thing of the task ("on *this* repo", "en *este* PR") they name the work at hand
    demonstratives: tuple[str, ...] = ()
    #: how a fact about the user opens ("the user's", "i", "my"; "el usuario", "mi"): what
    #: a question about the user as a whole is answered with, whatever the rest says
    user_subjects: frozenset[str] = field(default_factory=frozenset)
    #: the user as the one who speaks, just before a verb of saying ("*I* said", "*yo* dije"):
    #: the words after it are the user's own; "*me* dijo" is someone else telling the user
    user_speakers: frozenset[str] = field(default_factory=frozenset)
    #: "while", "mientras", "enquanto": said among a request's own words ("keep this in mind
    #: *while we work on this*"), it asks to keep what follows for the work at hand only
    while_words: frozenset[str] = field(default_factory=frozenset)
    #: what is left of a time, before a conversation's noun it binds a request to ("for the
    #: *rest* of the session", "para el *resto* de la sesión"): this conversation only
    rest_words: frozenset[str] = field(default_factory=frozenset)
    #: how a sentence that gives the value of a thing just named opens ("Will you remember my
    #: dog's name? *It's* Biscuit", "¿Vas a recordar el nombre de mi pareja? *Es* Andrés"),
    #: and the verb it is written with after the thing ("is"; none: its own words, "es")
    value_opening: str = ""
    value_verb: str = ""
    #: a question about the user as a whole, as patterns of the whole question ("what do
    #: you know about me", "quién soy"), and the openers said before it or a request ("so",
    #: "by the way", "bueno", "por cierto", "então"), as patterns
    about_me: tuple[str, ...] = ()
    openers: tuple[str, ...] = ()
    #: the user as what a message asks about, wherever it is said: past a preposition of
    #: topic ("about me", "on me", "sobre mí", "a meu respeito"), their data ("datos míos"),
    #: who they are ("who am I", "quem sou eu"), as a pattern; in a message shaped as a
    #: question or a request to be told (``telling_verbs``), and with nothing of
    #: ``not_about_me``, a question about the user as a whole ("so what's your picture of me?")
    self_topic: str = ""
    #: what a question of who the user is asks with: a word of knowing or keeping, or of a
    #: summary ("know", "stored", "rundown", "sabés", "consta"), as a pattern; "Enough about
    #: me, how about you?" and "a photo of me" have none
    knowing_words: str = ""
    #: the verbs that ask to be told or shown ("tell", "summarize", "cuéntame", "diz-me"), as
    #: a pattern: a message that opens with one asks, question mark or not
    telling_verbs: str = ""
    #: what makes a message about the user no question of who they are, as a pattern: an
    #: operation on what is kept ("delete what you know about me", "borra…", "apaga…"), a
    #: count ("how many memories…"), how the keeping works ("how do you remember…"), a
    #: request to keep ("can you store that about me?", "guarda isso de mim")
    not_about_me: str = ""
    #: the words of time (``recall.told``, ``recall.dates``): numbers said as words, weekdays
    #: (Monday 0), months (January 1) and those that are common words too ("may"), units
    #: ("weeks" → "week"), and the phrases of a time told relative to a day, each with what
    #: it tells ("shift:-1" for "yesterday"; ``{N}`` stands for a count, ``{DAY}`` for a
    #: weekday, ``{FEW}`` for "a few", ``{UNITS}`` for a unit, ``{COUNT}`` for a number)
    numbers: Mapping[str, int] = field(default_factory=dict)
    #: the digits as they are said one by one, a code dictated ("two eight two eight", "oh
    #: nine", "meia", Brazil's six), and the words that say the next one twice or thrice
    #: ("double four": 44): ``lang.numbers.digits_said``
    digits: Mapping[str, int] = field(default_factory=dict)
    digit_repeats: Mapping[str, int] = field(default_factory=dict)
    #: the numbers of two digits said in one word ("fifteen", "veintiocho"), the tens
    #: ("thirty", "vinte"), and the word said between a ten and its unit ("y", "e"; English
    #: joins them by a dash or a space): a code said in twos ("twenty-eight twenty-eight")
    two_digits: Mapping[str, int] = field(default_factory=dict)
    tens: Mapping[str, int] = field(default_factory=dict)
    tens_joiner: str = ""
    weekdays: Mapping[str, int] = field(default_factory=dict)
    months: Mapping[str, int] = field(default_factory=dict)
    ambiguous_months: frozenset[str] = field(default_factory=frozenset)
    units: Mapping[str, str] = field(default_factory=dict)
    relative_times: tuple[tuple[str, str], ...] = ()
    #: a word every relative time of this pack holds: a text with none is not read for them
    time_triggers: tuple[str, ...] = ()
    #: the present a question names ("today" → "day"), the recent past ("lately"), "a few",
    #: the spans up to today or a while back, and the words after which a span is of
    #: something else ("the last days *of* the trip")
    present_times: tuple[tuple[str, str], ...] = ()
    recent_times: tuple[str, ...] = ()
    few: tuple[str, ...] = ()
    spans: tuple[str, ...] = ()
    span_of: tuple[str, ...] = ()
    #: the words a question about a time holds besides its time ("what did I do…?")
    no_subject: frozenset[str] = field(default_factory=frozenset)
    #: a part of the day says what, not only when ("after the party tonight"): its words stay
    parts_of_day: tuple[str, ...] = ()
    #: the explicit-signal tables (``conversation.signals``), as (rule, pattern): sentences
    #: that ask nothing to be kept ("do you remember…?", "don't note that"), requests to
    #: remember ("remember that X"), instructions that last ("from now on X"); and facts said
    #: outright as (rule, pattern, key, domain, the third person with ``{x}``, its opening
    #: when the user speaks of herself in the feminine, or None); the third person may name
    #: another group of the pattern (``{a}``): a word of the user's written as they typed it
    signal_refusals: tuple[tuple[str, str], ...] = ()
    signal_requests: tuple[tuple[str, str], ...] = ()
    signal_directives: tuple[tuple[str, str], ...] = ()
    signal_statements: tuple[tuple[str, str, str, str, str, str | None], ...] = ()
    #: the words around a request, as regex fragments: how a fact about the user opens ("I",
    #: "mi", "eu", a verb in the first person), how one about their group opens ("we",
    #: "nuestro", "a gente"), the possessives, the verbs that say something of a subject
    #: ("is", "tiene", "mora"), what points at the screen or at now ("this one", "por ahora"),
    #: and what points at what is on the screen anywhere ("this", "esto", "isso")
    user_opening: str = ""
    #: how a note about the user opens with its subject left out, as a pattern ("born in
    #: Montevideo", "been living in Valencia since 2021", "training for the Berlin
    #: marathon"): a profile reads it as the user's, before notes about things ("the
    #: billing service runs on…"); where the verb says its person ("soy", "tenho"),
    #: ``user_opening`` already does
    elided_user_opening: str = ""
    group_opening: str = ""
    #: the verbs of "we" that tell of the talk with the assistant ("lo que *hablamos*", "o que
    #: *combinamos*"): no fact of the user's group opens with one
    talk_verbs_we: tuple[str, ...] = ()
    #: how a fact about someone the text does not name opens ("he", "their", "ella"): kept
    #: alone, it would not say whom it is about
    others_opening: str = ""
    #: a sentence that takes back what the message asked before it ("actually no, forget
    #: it", "olvidalo", "deixa pra lá"), as a pattern of its whole opening
    retractions: str = ""
    possessives: str = ""
    #: what the user works in with others ("team", "equipo", "equipe", "time"): a fact that
    #: opens with theirs ("on my team PR titles…", "na minha equipe o code review…") is of
    #: their world, however many words of code it holds
    group_nouns: frozenset[str] = field(default_factory=frozenset)
    saying_verbs: str = ""
    deictic_openings: str = ""
    #: the openings of ``deictic_openings`` that name a thing when a noun and a copula
    #: follow ("*the new* address is…", "*o novo* emprego é…"): a named thing, not a choice
    #: on the screen ("the new one", "la nueva")
    renewal_openings: str = ""
    for_now: str = ""
    #: what says that a request holds for a while only, said beside it ("for the time being,
    #: remember…", "…, tenlo presente mientras tanto", "lembra pela próxima hora que…"): a
    #: pattern; not "today" alone, which a lasting fact says too ("desde hoy soy vegetariano")
    for_a_while: str = ""
    #: of ``for_a_while``, the spans of a few hours or of this conversation ("for the next
    #: hour", "today only", "solo por esta charla", "só hoje"), as a pattern: a fact a request
    #: keeps that holds one is passing wherever it says it ("I'm on my phone for the next
    #: hour"), where "for now" inside a fact may tell of a lasting one
    for_a_short_while: str = ""
    #: what places what is said at this moment or this day ("now", "today", "this
    #: afternoon", "ahorita", "neste momento"), as a pattern: a fact said with one may hold
    #: for the moment only ("I'm half asleep now") or begin a lasting one ("I'm vegan now");
    #: the judge of passing reads which (``lang.judge.passes``)
    now_words: str = ""
    #: what says a state is of this moment, or an act just done, as a pattern ("already",
    #: "just", "rn", "ya", "recién", "acabo de", "já", "acabei de"): the user's fact of the
    #: work said with one is the work at hand ("I already ran npm install"), not theirs to
    #: keep. Not a bare "now", "ahora", "agora": "lembra que agora o time usa GitHub Actions"
    #: tells of a change that lasts
    moment_words: str = ""
    pointing_words: str = ""
    #: the phrases a pointing word only links clauses in ("por isso", "because of this",
    #: "más que esto"): it points at what was said, at no thing of the task
    pointing_idioms: str = ""
    #: the words after a pointing word that make it a time, beside units, weekdays, months
    #: and parts of the day ("this *fall*", "esta *temporada*", "nesse *horário*")
    periods: tuple[str, ...] = ()
    #: what a newer fact says when what it tells has changed ("now", "moved", "switched",
    #: "no longer"), and what it says when it tells of another thing beside the first
    #: ("also", "other", "still"): ``lang.cues``, as patterns of words, accents folded
    change_cues: tuple[str, ...] = ()
    contrast_cues: tuple[str, ...] = ()
    #: the verbs whose past tells that something changed, whoever did it ("vender": "vendí",
    #: "vendió", "vendieron"; "dar de baja"), conjugated by ``past_forms``, the grammar's
    change_verbs: tuple[str, ...] = ()
    past_forms: Callable[[str], tuple[str, ...]] | None = None
    #: the names of the keys that say who the user is, in this language, by the concept each
    #: names ("nombre", "nome" → "name"): ``name: Lucas`` and ``nome: Lucas`` are one key;
    #: and the words a profile fact wraps its value in ("the user's name is", "se llama"),
    #: which are not the value (``lifecycle.rules``)
    key_names: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    value_wrapping: frozenset[str] = field(default_factory=frozenset)
    #: words people put before a colon that label what follows, no key of the user's
    #: ("Important: never deploy on Fridays", "Ojo: …"), folded, lower case
    colon_labels: frozenset[str] = field(default_factory=frozenset)
    #: the user's people and animals by the words of this language, each as a role that
    #: does not depend on it ("hermana", "irmã" → "sister"; ``lang.people``)
    kin: Mapping[str, str] = field(default_factory=dict)
    #: the people who serve the user, by the words of this language, each as a role ("mi
    #: dentista", "my landlord", "o meu chefe" → "dentist", "landlord", "boss"): read only
    #: when owned, and only to tell whom a question asks about from whom a fact names
    #: (``lang.served_by``); a fact about one is still the user's own
    serving: Mapping[str, str] = field(default_factory=dict)
    #: the words of ``kin``, as written (accents kept), that name one of the user's people
    #: only when owned, for they are other words too ("vieja": old, "bebe": drinks, "país":
    #: country, "nan"): a few words after one of ``kin_owners`` ("mi vieja", "mi querida
    #: mama") or before one of ``kin_owned_by`` ("la mama del usuario"), or capitalized as a
    #: name is ("Nan is 90"); "mamá", "bebé" are roles as they are
    kin_owned: frozenset[str] = field(default_factory=frozenset)
    kin_owners: frozenset[str] = field(default_factory=frozenset)
    kin_owned_by: tuple[str, ...] = ()
    #: the words a name follows ("a band *called* The Loud Neighbours", "se *llama*"): a
    #: role's word among the name's capitalized words after the first is no role
    naming_words: frozenset[str] = field(default_factory=frozenset)
    that_words: frozenset[str] = field(default_factory=frozenset)
    #: the nouns whose "that" opens what they are ("keep in mind *the fact* that…", "el *dato*
    #: de que…"): after any other noun the "that" is of a thing ("the tab that the user…")
    that_nouns: frozenset[str] = field(default_factory=frozenset)
    #: the words a fact cannot end with, as typed: what opens a clause still to come ("Would
    #: love it if", "soy vegano y"); not "when", which idioms end with ("de vez em quando")
    dangling: frozenset[str] = field(default_factory=frozenset)
    #: the word after a request's verb that makes it a to-do ("remember *to* call", "acordate
    #: *de* cerrar"): a list it announces ("Remember to:") holds things to do, not facts
    todo_words: frozenset[str] = field(default_factory=frozenset)
    #: what asks nicely and says nothing ("please", "por fa", "pfv"): a request that keeps
    #: only these ("Acuérdate, por fa.") keeps what was said before it
    courtesies: tuple[str, ...] = ()
    #: the words one addresses whom one writes to, or says in passing, one word each ("bro",
    #: "güey", "po", "mano", "cara"): after a request they say nothing, so "anota aí, mano"
    #: keeps what was said before it, not "Mano"
    vocatives: frozenset[str] = field(default_factory=frozenset)
    #: what closes a message, thanks or says sorry to whom one writes, and says no fact
    #: ("much appreciated", "have a great day", "un saludo", "desculpa"): a sentence that
    #: opens with one never goes on with the fact a request kept before it
    closings: tuple[str, ...] = ()
    #: how this language asks to keep what follows ("Remember that", "Recuerda que",
    #: "Lembra que"): Claude Code's ``#`` shortcut ("# uso vim") is read as that request
    keep_request: str = ""
    #: what turns a sentence to an aside, as patterns: a request to keep said after a task
    #: in one sentence ("fix the import, *and btw* remember I'm on Python 3.12", "*y de
    #: paso* apúntate que…", "*e aproveita pra* guardar que…")
    asides: tuple[str, ...] = ()
    #: the first words of a lead of the moment before a request, after a comma, a colon or a
    #: dash: a time of the task ("while you fix…", "antes de seguir…", "enquanto corriges…")
    #: or a word that announces a new thing ("quick thing:", "una cosita:", "uma coisa:").
    #: Not a purpose ("for the test fixture:"), a supposition or whose words follow
    lead_openings: frozenset[str] = frozenset()
    #: the words that open a lead of place or occasion before a request and a comma, which
    #: the fact is of ("*At* my parents' place, remember there's no wifi", "*Para* la boda de
    #: mi prima, recuerda que…", "*Na* academia, lembra que…"): kept with the fact
    place_leads: frozenset[str] = frozenset()
    #: the words that open a condition of the user's before a request and a comma ("*When* I
    #: visit my grandmother, remember…", "*Cuando* visito a mis padres, recuerda que…"):
    #: kept with the fact when the condition names the user
    condition_leads: frozenset[str] = frozenset()
    #: what may come before the word of a request that announces a list ("please", "could
    #: you", "por favor", "pode"), and what it points at what follows with ("these", "the
    #: following", "estos", "o seguinte"): "Could you store these about me:" and its items
    list_leads: frozenset[str] = field(default_factory=frozenset)
    list_words: frozenset[str] = field(default_factory=frozenset)
    #: what names the user in such a request ("these about *me*", "datos *míos*"): its items
    #: are theirs, however short ("- allergic to penicillin")
    self_words: frozenset[str] = field(default_factory=frozenset)
    #: the words a question opens with ("what", "qué", "quem"): a list's item that opens
    #: with one asks, it tells nothing
    question_openings: frozenset[str] = field(default_factory=frozenset)
    #: the words that ask, as typed, with or without their accents ("how", "cómo", "como",
    #: "o que"): after a comma or a join in a sentence that ends in "?", the question
    #: begins there ("remember that my gym is Ironworks, and how do I rebase?")
    interrogatives: tuple[str, ...] = ()
    #: the words a secret is told after, as patterns of words matched ignoring case
    #: ("password", "door code", "contraseña", "senha"); how its value is introduced
    #: ("is", "is now", "es", "é"); the words between that say whose it is ("for my gmail
    #: account", "del banco", "do wi-fi"); and the words an official identifier is told after
    #: ("passport", "DNI", "CPF"): ``vault.secrets``
    secret_words: tuple[str, ...] = ()
    #: of the secret words, those of a password (not of a code or a token): a value with a
    #: digit or a sign right after one is one, with no "is" between ("the wifi password
    #: hunter22, keep that in mind")
    password_words: tuple[str, ...] = ()
    #: what a password is said to be when that is no password ("weak", "fine", "segura",
    #: "fraca"; a participle: "expired", "guardada"), as patterns of one whole word matched
    #: lower-cased: a lone word of letters told after a password's word is its value
    #: ("the wifi password is sunflower") unless it is one of these, or a word of the pack
    password_states: tuple[str, ...] = ()
    #: the nouns a password's word right after them makes an adjective of, not a password
    #: ("nombre clave", "palabra clave": a code name, a keyword)
    password_adjective_of: frozenset[str] = field(default_factory=frozenset)
    #: the words that, said before a password's word in its clause, make the password no
    #: subject of what follows: whom "is" then names ("the person *who* knows the password
    #: is Maria", "el dueño *de* la contraseña es Juan")
    password_not_subject: frozenset[str] = field(default_factory=frozenset)
    #: how a password is said to be set to a value: the stems of the verbs ("chang", "set";
    #: "cambi"; "mud", "troc") and the word before the value ("to"; "a"; "para"), as
    #: patterns: "I changed the wifi password to sunflower", "mudei a senha para bacalhau"
    password_set_verbs: str = ""
    password_set_to: str = ""
    #: the stems of the verbs a value is used as a password with, before it ("I *used*
    #: elephant as the password", "escolhi X como senha"; not "escolher uma senha pra família")
    password_use_verbs: str = ""
    #: the word a password's value is used "as" ("use elephant *as* the password", "set it
    #: *as* …", "usa X *como* contraseña", "coloquei X *de* senha"), as a pattern
    password_set_as: str = ""
    #: the words that open a clause said of a password between its word and "is" ("the
    #: password *I* use for everything is …", "la contraseña *que* uso para todo es …")
    password_clause_openers: frozenset[str] = field(default_factory=frozenset)
    #: the words of a login said before its password in one sentence ("user …, password
    #: X", "usuario el de siempre y contraseña X"): there a lone word right after the
    #: password's word, ending the clause, is its value
    login_words: tuple[str, ...] = ()
    #: the words of a secret made of several words (a passphrase, a wallet's seed phrase) and
    #: what else may tell its words ("starts with", "empieza con"): "the passphrase is purple
    #: monkey dishwasher", "mi frase semilla es luna perro cielo …"
    passphrase_words: tuple[str, ...] = ()
    passphrase_links: tuple[str, ...] = ()
    #: the verbs a security question's answer is told after ("i *put* Kowalski", "y *puse*
    #: joaquin", "eu *coloquei* tiaguinho"), as patterns: read only in a text that names a
    #: security question (``answered_secrets``)
    answer_verbs: tuple[str, ...] = ()
    #: the labels an answer is written after, with a colon ("Answer: …", "Resposta: …")
    answer_labels: tuple[str, ...] = ()
    #: the names of codes that may be a word ("the alarm code is zebra", "o código do portão
    #: é abracadabra", a family's safe word): read as ``password_words`` are for a value of
    #: letters alone
    word_codes: tuple[str, ...] = ()
    #: how the letters of a value one types are said to be written ("all lowercase", "no
    #: spaces", "with a capital T", "todo junto", "sem espaço"): a word right before one, or
    #: after one and a colon, in a text that names a password, a code or a thing a password
    #: opens, is typed there ("the guest wifi? it's trombone, all lowercase")
    spelling_hints: tuple[str, ...] = ()
    #: the things a password opens, named without the password's word ("the *wifi* at my
    #: mom's is …", "la del *router*", "nosso *hotspot*: …")
    keyed_things: tuple[str, ...] = ()
    #: the words of a key that is a password where a thing it opens is named ("network X,
    #: *key* Y", "hotspot: nombre X, *clave* Y", "rede X, *chave* Y")
    key_words: tuple[str, ...] = ()
    #: how a value is said to be given as a security question's answer, after it ("used
    #: Maplewood *as the answer*", "coloquei Augusta *como resposta*")
    answer_as: tuple[str, ...] = ()
    #: how a value is said to be a word, between a code's link and it ("the passcode is *the
    #: word* dinosaur", "abre com *a palavra* Saudade")
    word_nouns: tuple[str, ...] = ()
    #: the nouns that say a name is told ("name", "ssid", "nombre"): a value said in their
    #: clause is a name, not a key ("wifi name CasaLopez, …")
    name_nouns: tuple[str, ...] = ()
    #: the words of an account a form's answer is given to ("bank", "app", "account",
    #: "cuenta", "conta"): a quoted question answered with none of them named nor a security
    #: question is a quiz's or a game's ("for 'capital of Peru' i answered Lima")
    account_words: tuple[str, ...] = ()
    #: what a security question asks of one's past, in its own words ("first pet", "where you
    #: were born", "apodo de niño", "nome de solteira"): a quoted question that asks one is a
    #: form's, whatever account it is for
    security_topics: tuple[str, ...] = ()
    secret_links: tuple[str, ...] = ()
    secret_whose: tuple[str, ...] = ()
    #: the words of secrets whose value is words, not a code (a security question's answer,
    #: a wallet's seed phrase): what a colon or an arrow after them says is the secret,
    #: whatever it holds ("pregunta secreta del banco: … → Firulais")
    answered_secrets: tuple[str, ...] = ()
    id_words: tuple[str, ...] = ()
    #: what may stand between an identifier's word and its number ("number", "número") and
    #: what introduces the number ("is", "es", "é"), as patterns
    id_labels: tuple[str, ...] = ()
    id_links: tuple[str, ...] = ()
    #: what opens with a code (an alarm, a gate, a key box); what it does ("opens",
    #: "desactiva"); the words it does it with ("with", "con", "com"); and how a code is keyed
    #: ("dial", "marca", "digita"): a code told by what it does, with no secret word ("the
    #: garage opens with 4471", "pra abrir a garagem digita 7007")
    #: the things only a code opens (a padlock, a safe): one said to be a number is told its code
    code_locks: tuple[str, ...] = ()
    #: what a code unlocks that is no door nor lock (a phone, a laptop): read only with a verb
    #: of opening ("my phone unlocks with 1234"), as a label it names its number
    code_devices: tuple[str, ...] = ()
    code_things: tuple[str, ...] = ()
    code_opens: tuple[str, ...] = ()
    code_with: tuple[str, ...] = ()
    code_keyed: tuple[str, ...] = ()
    #: the words that name a secret however it is told (a password's slang, a one-time code,
    #: a PIN, a card's check code, a national id), as patterns matched ignoring case: a value
    #: shaped like a secret (digits, or letters with digits or signs) within a few words of
    #: one, in its sentence, is one, whatever words join them ("la contra del insta es
    #: ig_pau.2003", "482913 is the code they texted"); and the words that make a code no
    #: secret when they qualify it ("zip code", "código postal", "error code"): ``vault.secrets``
    secret_names: tuple[str, ...] = ()
    #: of the names, those that name an open thing as often ("code", "key", "token"): one a
    #: word of ``open_codes`` qualifies names no secret ("the senha do banco" still does)
    code_names: tuple[str, ...] = ()
    open_codes: tuple[str, ...] = ()
    #: the words that make any secret's name name another thing ("password manager", "pin
    #: pad", "clave pública", "gestor de contraseñas")
    open_things: tuple[str, ...] = ()
    #: the names of a key or a token, whose value is long (twelve characters or more):
    #: "token zq199x" in a note names a test's word, "sk-pt-9JkL2mQ8xR" a key
    token_names: tuple[str, ...] = ()
    #: the words after which a run is where a secret is, not its value ("stored in
    #: 1Password", "guardada en Bitwarden")
    secret_places: frozenset[str] = field(default_factory=frozenset)
    #: of the names, those of a payment card: near one, only a card's number is its secret
    #: (twelve digits or more: "card number ends in 4411" tells none)
    card_names: tuple[str, ...] = ()
    #: what a number near a secret's name may count, so it is no value ("12 characters", "8
    #: dígitos", "3600 segundos"), besides the units of time (``units``)
    counted: frozenset[str] = field(default_factory=frozenset)
    #: the words a next clause opens with ("and", "then"; "y", "luego"; "e", "depois"): a
    #: code is told when its number ends the clause ("digita 7007 e aperta a chave"), not
    #: when a word of what it counts follows ("abre con 300 plazas")
    code_then: tuple[str, ...] = ()
    #: the words a purpose is told after ("to", "para"): "type 4471 *to* open the door"
    code_to: tuple[str, ...] = ()
    #: how a plain-text transcript labels its speakers ("User:", "Usuario:", "Utilizador:"),
    #: each with the role it names ("user" or "assistant"): ``conversation.transcript``
    speaker_labels: Mapping[str, str] = field(default_factory=dict)
    #: what a speaker says when they change the subject ("changing the subject", "otra
    #: cosa", "mudando de assunto"), as patterns of words: ``conversation.context`` closes a
    #: segment there
    topic_shifts: tuple[str, ...] = ()
    #: the kinds of question that what the user *is* answers, whatever their words
    #: (``lang.concepts``, ``recall.kinds``), as patterns of whole words matched ignoring
    #: case: a question about meals or food ("restaurant", "cenar"); a dish or drink it may
    #: name instead ("chicken wings", "milanesa"); medicines ("painkiller", "remédio"); what
    #: asks whether something is safe or allowed ("can I", "puedo", "evitar"; a question of
    #: medicines or dishes is of that kind only with one); what recalls a habit instead of
    #: asking ("do I usually have", "favorito": an opening, the rest of the word free); and
    #: the questions of the user's work and home, by the slot subject that answers them
    food_questions: tuple[str, ...] = ()
    dishes: tuple[str, ...] = ()
    medicine_words: tuple[str, ...] = ()
    may_i_have: tuple[str, ...] = ()
    recalls_a_habit: tuple[str, ...] = ()
    subject_questions: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: the names of medicines, and what a clinic gives ("ibuprofen", "dipirona", "with
    #: contrast"): a question that names one is about medicines, an allergy to one is no
    #: food's; read in every pack, since a medicine's name travels
    drugs: tuple[str, ...] = ()
    #: what the facts of those kinds say, as words written as people write them (the
    #: keyword questions that find them take both spellings, the rules read accents
    #: folded): an allergy, a diet, the foods a diet most often leaves out; and, as patterns
    #: over folded lower-case text, the user not eating something ("no como"), what an
    #: allergy is to when it is a food, and when it is a medicine or something around
    allergy_words: tuple[str, ...] = ()
    diet_words: tuple[str, ...] = ()
    avoided_foods: tuple[str, ...] = ()
    not_eating: tuple[str, ...] = ()
    food_allergens: tuple[str, ...] = ()
    other_allergens: tuple[str, ...] = ()
    #: how a recall block marks the older of two facts that may contradict each other, and
    #: how it says a fact was said again after it was written ("confirmed 2026-05-02"), in a
    #: fact of this language (empty: in English)
    outdated_mark: str = ""
    said_again: str = ""
    #: how it marks the older of two facts where only their meaning and a word of change
    #: relate them (``recall.related``): vmem cannot tell whether the newer replaced it, and
    #: says so ("newer related memory above")
    related_mark: str = ""
    #: a pack whose facts the slot rules (``vault.slots``: what a fact is about, and whether
    #: a newer one replaces it) read through a close language's forms: ``reads_as`` that
    #: language's code, and ``borrowed_forms`` the (pattern, that language's form) pairs,
    #: applied in order to the lower-case text, accents kept ("moro em" → "vivo en", "não"
    #: → "no", "se chama" → "se llama"); ``lang.borrowed``
    reads_as: str = ""
    borrowed_forms: tuple[tuple[str, str], ...] = ()
    #: what the keyword index (``index.keyword_index``) needs of the languages it stems:
    #: the words that deny, never dropped as stop words ("no", "without", "sin"); those of
    #: them that make a whole statement a denial ("never", "nothing", "nadie"; not "without",
    #: which says what something lacks); the words every fact is written about ("user",
    #: "usuario"), which find every memory; the words dropped besides the Snowball stop list
    #: (the voseo of its stop words: "vos", "sos"); this language's stop words that are
    #: content words of English ("son", "hay", "todo"); and the forms its stemmer does not
    #: take apart, each to the form it stems like ("acordate" → "acordar"), with word endings
    #: that do the same (("ís", "ir"): "vivís" like "vivir") and the words that only look so
    negations: frozenset[str] = field(default_factory=frozenset)
    #: the words that open where or how a thing is, after a copula, not what it is ("my
    #: manager is *on* leave", "mi coche está *en* el taller", "é *de* Braga"): such a fact
    #: describes its subject and replaces no name (``vault.slots``)
    state_openings: frozenset[str] = field(default_factory=frozenset)
    #: the adjectives the language writes with a capital (nationalities, peoples, faiths:
    #: "Indian", "Korean-American", "Catholic"), lower-cased: after a copula they describe
    #: someone, and name no one ("my landlord is Indian" replaces no "Mr. Okafor")
    proper_adjectives: frozenset[str] = field(default_factory=frozenset)
    #: the articles a name may follow after a copula ("is *a* Pixel 6", "es *el* Dr. Ruiz", "é
    #: *um* iPhone"): what a thing is named is read from the word after them
    value_articles: frozenset[str] = field(default_factory=frozenset)
    denials: frozenset[str] = field(default_factory=frozenset)
    subject_nouns: frozenset[str] = field(default_factory=frozenset)
    extra_stop_words: frozenset[str] = field(default_factory=frozenset)
    english_homographs: frozenset[str] = field(default_factory=frozenset)
    stem_as: Mapping[str, str] = field(default_factory=dict)
    stem_endings: tuple[tuple[str, str], ...] = ()
    stem_ending_exceptions: frozenset[str] = field(default_factory=frozenset)
    #: the pack's grammar (``lang.grammar``), the one thing a pack holds that is code: the
    #: user's own words as a fact about them ("I live in Lima" → "the user lives in Lima");
    #: None leaves them as said
    third_person: Callable[[str], str] | None = None
    #: a fact about the user in one gender: once it says she is a woman ("la usuaria es
    #: vegana"), every mention of the user in it is hers (a fact of two clauses, each read alone)
    one_gender: Callable[[str], str] | None = None
    #: and the words people type short as they are written ("im vegan" → "I'm vegan"), read
    #: before any rule; None reads them as typed
    as_written: Callable[[str], str] | None = None
    #: and how it writes an instruction that lasts (``signal_directives``), given what was
    #: said after the directive and the directive's rule ("always use tabs" → "The user
    #: wants the assistant to use tabs"), or None when it is none ("always the same"); the
    #: key the instruction is stored under; the words that open an instruction that lasts
    #: ("always", "nunca", "sempre": "remember to always…" is one, not a to-do) and the rule
    #: it is then read by
    write_instruction: Callable[[str, str], str | None] | None = None
    #: and whether a word is a form only an order takes, read by its ending on a verb the
    #: grammar knows ("actualizá", "corré": vos's); None reads orders from the lists alone
    order_form: Callable[[str], bool] | None = None
    instruction_key: str = "instruction"
    lasting_words: tuple[str, ...] = ()
    lasting_rule: str = ""
    #: how a request's words are read (``conversation.signals``): a passing state, as
    #: patterns ("today I'm tired", "hoy estoy cansado"), not kept; the words that join two
    #: clauses ("and", "pero", "mas"; a clause after one that opens as ``user_opening`` says
    #: is a fact of the user's own: "…, and I live in Lima"); the courtesies that end a value
    #: ("…, thanks") and those a request asked as a question opens or goes on with ("please
    #: could you…", "porfa podés…"); the words of whom the user talks to and of the two of
    #: them ("you", "our", "nos"): a fact of the relationship, not of the user; what follows
    #: a fact and goes on with the task ("…, then check it", "y arreglalo"), and the words of
    #: a task at hand ("tests", "archivos", "linha 12"), as patterns; an infinitive, which
    #: opens a to-do ("acordate de *cerrar*…"), as a pattern of one whole word (none: a to-do
    #: is told by ``todo_words`` alone); the pronouns a request's verb carries its object in
    #: ("guárda*lo*")
    passing_states: tuple[str, ...] = ()
    clause_joins: tuple[str, ...] = ()
    #: the words that join two names into one subject ("Jon and Gina", "Ana y Tomás")
    and_words: tuple[str, ...] = ()
    end_courtesies: tuple[str, ...] = ()
    #: the words after which a fact says its value even when it is a courtesy's word: a verb
    #: a text's words are told by, a past of being, a negation, a preposition of manner ("my
    #: signature *says* Cheers", "su primera palabra *fue* porfa", "i type haha, *never* lol",
    #: "termina toda mensagem *com* bjs")
    value_leads: tuple[str, ...] = ()
    #: the verbs that say whose words follow when someone else said them ("Sam *wrote* —
    #: remember that I moved to Oslo": Sam's words, not the user's)
    attributions: tuple[str, ...] = ()
    polite_openers: tuple[str, ...] = ()
    relationship_words: tuple[str, ...] = ()
    #: the words that name the one spoken to, the assistant ("you", "te", "você"): a clause
    #: after a phrase of when that holds one is of when ("…para las próximas veces que *te*
    #: pida ejercicios"), not the fact a request keeps
    addressee: frozenset[str] = field(default_factory=frozenset)
    #: what the user and the assistant have together ("conversation", "sesión", "papo"): a
    #: phrase that names one ("in all our next conversations", "en cada sesión") says when a
    #: request is for, and is no part of the fact it keeps
    session_nouns: frozenset[str] = field(default_factory=frozenset)
    task_tails: tuple[str, ...] = ()
    #: the ending the language's third person singular puts on its verb ("runs"), when it has
    #: one: a verb without it after a fact of someone's is an order ("… and make the header sticky")
    third_person_ending: str = ""
    #: what opens a task said after a fact by its verb alone ("and fix…", "y usa…", "e muda…"):
    #: a task only when a word of the task follows (``task_words``), for the same verb says
    #: a fact of someone else ("mi hermana vive en Lima y usa lentes")
    task_verb_tails: tuple[str, ...] = ()
    #: what opens a clause after the user's own fact by a verb that tells their habits as
    #: often as it orders, where the first person is the order's form ("I'm left-handed and
    #: use a split keyboard"): a task only when a word of the task follows
    habit_verb_tails: tuple[str, ...] = ()
    #: the subjects whose verb has the order's form ("I", "we"): a ``habit_verb_tails`` verb after them goes on
    habit_verb_subjects: tuple[str, ...] = ()
    #: what, said right after a ``habit_verb_tails`` verb, makes it an order all the same: a
    #: thing pointed at ("… and make the header smaller", "… and load this into the sheet")
    habit_verb_orders: tuple[str, ...] = ()
    task_words: tuple[str, ...] = ()
    infinitive: str = ""
    attached_objects: tuple[str, ...] = ()
    #: how a fact the rules do not recognise is filed: its domain by its words, as (domain,
    #: pattern searched for) from the first that matches ("allerg" → health), the
    #: possessives and the adjectives before the noun it is keyed by ("my *older* sister" →
    #: sister), and the key of a fact with none ("note", "nota")
    domain_words: tuple[tuple[str, str], ...] = ()
    key_possessives: tuple[str, ...] = ()
    key_adjectives: tuple[str, ...] = ()
    note_key: str = "note"
    #: what the slot rules read in this language (``lang.slot_grammar``; None for a pack
    #: that ``reads_as`` another), and the words that say what a subject is ("is", "es",
    #: "é"): "My boss is Pedro" names the boss, "is very demanding" describes them
    slots: SlotGrammar | None = None
    copulas: tuple[str, ...] = ()
    #: how a verb that asks to be reminded opens, when "me" is attached to it ("record",
    #: "acord", "lembr": "recordame", "lembra-me" ask to be reminded of a to-do, not to keep)
    remind_stems: tuple[str, ...] = ()
    #: what makes what follows such a verb a to-do though it opens with the user ("tengo que",
    #: "preciso", "I need to"): "recuérdame que tengo que sacar la basura" asks to be reminded
    obligations: tuple[str, ...] = ()
    #: what names the thing a code is for ("keypad", "pin": "Door keypad: 4471")
    code_labels: tuple[str, ...] = ()
    #: the subjects a contraction is made with ("i'm", "we're"): with their verb they say
    #: no more than the stop words they stand for (``index.keyword_index``)
    contracted_subjects: tuple[str, ...] = ()
