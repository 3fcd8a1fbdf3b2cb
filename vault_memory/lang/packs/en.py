"""English."""

from ..pack import Pack

PACK = Pack(
    code="en",
    name="English",
    function_words=frozenset(
        """the an and is are was were be been being of to in on at for with my your our their his its
        i you we they it this that these those what where when who whom how which why do does did have
        has had not will would can could should from by about there just so but or am i'm it's don't
        user""".split()
    ),
    abbreviations=frozenset(
        """mr mrs ms mx dr prof st jr sr mt ft vs e.g i.e u.s u.k u.s.a a.m p.m approx dept inc ltd co corp
        ave rd blvd gen col lt sgt capt rev hon fig""".split()
    ),
    continues=frozenset("she he it they her his its their also both".split()),
    remember_cues=(
        "remember",
        "forget",
        "note",
        "save",
        "store",
        "mind",
        "record",
        "reference",
        "memori",
        "memory",
        "future",
        "fyi",
        "heads",
        "later",
        "jot",
        "memo",
        "track",
    ),  # fmt: skip
    polite_requests=("can you", "could you", "would you", "will you", "can u", "could u", "pls can you"),
    that_words=frozenset({"that"}),
    about_me=(
        r"what\s+(?:do|else\s+do)\s+you\s+(?:know|remember)\s+about\s+me",
        r"tell\s+me\s+(?:about\s+)?(?:myself|about\s+me|what\s+you\s+know)",
        r"who\s+am\s+i",
        r"what\s+have\s+you\s+learn(?:ed|t)\s+about\s+me",
        r"describe\s+me",
        r"my\s+profile",
    ),
    openers=("so", "ok", "okay", "hey", "and"),
    user_subjects=frozenset({"the user", "the user's", "user", "user's", "i", "i'm", "i've", "i'd", "my", "me"}),
    numbers={
        **{
            w: n
            for n, w in enumerate("one two three four five six seven eight nine ten eleven twelve".split(), start=1)
        },
        "a": 1,
        "an": 1,
        # "a couple of days ago" is two days ago as people say it; "a few" is no one number
        "a couple of": 2,
        "a couple": 2,
        "couple of": 2,  # "the last couple of days"
    },
    weekdays={w: n for n, w in enumerate("monday tuesday wednesday thursday friday saturday sunday".split())},
    months={
        m: n
        for n, m in enumerate(
            "january february march april may june july august september october november december".split(), start=1
        )
    },
    ambiguous_months=frozenset({"may", "march", "august"}),
    units={w: w.rstrip("s") for w in "hour hours day days week weeks month months year years".split()},
    relative_times=(
        (r"the day before yesterday", "shift:-2"),
        (r"the day after tomorrow", "shift:2"),
        (r"yesterday|last night", "shift:-1"),
        (r"tomorrow", "shift:1"),
        (r"(?<!the )(?:last|this past) weekend", "last:weekend"),
        (r"this weekend", "this:weekend"),
        (r"(?<!the )(?:last|this past) week", "last:week"),
        (r"(?<!the )next week", "next:week"),
        (r"(?<!the )last month", "last:month"),
        (r"(?<!the )next month", "next:month"),
        (r"(?<!the )last year", "last:year"),
        (r"(?<!the )next year", "next:year"),
        (r"{N} (?P<unit>days?|weeks?|months?|years?) ago", "ago"),
        (r"(?<!the )(?:last|this past) {DAY}", "weekday:-1"),
        (r"(?<!the )(?:next|this coming) {DAY}", "weekday:1"),
    ),
    time_triggers=("yesterday", "tomorrow", " ago", "last ", "next ", "this past", "this coming", "this weekend"),
    present_times=(
        (r"today|tonight|this (?:morning|afternoon|evening)", "day"),
        (r"this week", "week"),
        (r"this month", "month"),
        (r"this year", "year"),
    ),
    recent_times=(r"recently|lately|these days",),
    few=("few", "several"),
    spans=(
        # "the last few days", "the past two weeks", "last 3 days": a span that ends today
        r"(?:the )?(?:last|past) (?P<n>{FEW}|{COUNT}) (?P<unit>{UNITS})",
        # "the past week", "the last month": one unit up to today ("last month" is the calendar one)
        r"the (?:last|past) (?P<unit>hour|day|week|month|year)",
        # "a few days ago": a while back, not today
        r"(?:a )?(?P<ago>{FEW}) (?P<unit>{UNITS}) ago",
    ),
    span_of=("of",),
    no_subject=frozenset(
        """
        what whats which anything something everything else all so far did do does done doing
        i we you me us my our your it there was were is are be been being have has had s
        happen happened happening go going went get got on in at to of about with for from the a an and or
        up talk talked discuss discussed say said tell told work worked remind recap new plan plans planned
        schedule scheduled agenda over during within
        """.split()
    ),
    parts_of_day=("tonight", "night", "morning", "afternoon", "evening"),
    change_cues=(
        r"now",
        r"these days",
        r"nowadays",
        r"any ?more",
        r"no longer",
        r"not \w+ any ?more",
        r"lately",
        r"moved",
        r"switched",
        r"changed",
        r"renamed",
        r"replaced",
        r"migrated",
        r"upgraded",
        r"relocated",
        r"transferred",
        r"new",
        r"newly",
        r"started",
        r"starting",
        r"since",
        r"ditched",
        r"dropped",
        r"instead",
        r"going forward",
        r"from now on",
        r"finally",
        r"traded",
        r"cancell?ed",
        r"quit",
        r"left",
        r"joined",
        r"became",
        r"become",
        r"gone to",
        r"took over",
        r"taken over",
        r"after the",
        r"this (?:year|month|fall|spring)",
        r"reporting to",
        r"used to",
    ),
    contrast_cues=(
        r"other",
        r"also",
        r"too",
        r"another",
        r"as well",
        r"both",
        r"still",
        r"second",
        r"plus",
        r"besides",
        r"at home",
        r"at work",
        r"for work",
        r"legacy",
        r"guest",
        r"backup",
        r"spare",
        r"personal",
    ),
    kin={
        **dict.fromkeys("partner boyfriend girlfriend husband wife spouse fiance fiancee".split(), "partner"),
        **dict.fromkeys("mother mom mum mommy mummy".split(), "mother"),
        **dict.fromkeys("father dad daddy".split(), "father"),
        **dict.fromkeys("parents folks".split(), "parent"),
        **dict.fromkeys("sister sis".split(), "sister"),
        **dict.fromkeys("brother bro".split(), "brother"),
        **dict.fromkeys("siblings sibling".split(), "sibling"),
        **dict.fromkeys("son sons".split(), "son"),
        **dict.fromkeys("daughter daughters".split(), "daughter"),
        **dict.fromkeys("child children kid kids baby toddler".split(), "child"),
        **dict.fromkeys("grandmother grandma granny nan".split(), "grandmother"),
        **dict.fromkeys("grandfather grandpa grandad".split(), "grandfather"),
        **dict.fromkeys("grandparents".split(), "grandparent"),
        **dict.fromkeys("grandson grandsons".split(), "grandson"),
        **dict.fromkeys("granddaughter granddaughters".split(), "granddaughter"),
        **dict.fromkeys("grandchildren grandkids grandchild".split(), "grandchild"),
        **dict.fromkeys("cousin cousins".split(), "cousin"),
        **dict.fromkeys("aunt auntie".split(), "aunt"),
        "uncle": "uncle",
        "nephew": "nephew",
        "niece": "niece",
        **dict.fromkeys("mother-in-law".split(), "mother_in_law"),
        **dict.fromkeys("father-in-law".split(), "father_in_law"),
        **dict.fromkeys("friend friends".split(), "friend"),
        **dict.fromkeys("colleague colleagues coworker coworkers".split(), "colleague"),
        **dict.fromkeys("neighbour neighbor neighbours neighbors".split(), "neighbour"),
        **dict.fromkeys("dog dogs puppy".split(), "dog"),
        **dict.fromkeys("cat cats kitten".split(), "cat"),
        **dict.fromkeys("pet pets".split(), "pet"),
    },
)
