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
    remember_cues=("remember", "forget", "note", "save", "store", "mind", "record", "reference", "memori"),
    that_words=frozenset({"that"}),
)
