"""The lessons, in teaching order: each one idea of docs/RULES.md on a small position.

The learner is always seat 0 (Blue); the other seats' moves are scripted (``reply``).
The Museum's wings are fixed for lessons (wing 1 Lady Violet, 2 Lord Lemon, 3 Sir Brown,
4 Mrs. Blackmore, 5 Colonel Tangerine) so prompts can name rooms in words.
"""

from __future__ import annotations

from collections.abc import Callable

from core.actions import (
    Action,
    Blackmore,
    BookRoom,
    Brown,
    Excavate,
    Extend,
    Lemon,
    NeutralExcavate,
    NeutralExtend,
    Pass,
    TakeParcel,
    Tangerine,
    Violet,
    placed_spaces,
)
from core.cards import Patron
from core.errors import IllegalActionError
from core.lessons.positions import card, play, position, surveying
from core.lessons.steps import Check, Lesson, Step
from core.museum import Room
from core.region import AREA_MASK, PARCEL_MASK, parcel_of, space_name
from core.rules import apply_action, legal_actions
from core.scoring import player_score
from core.state import EMPTY, GameState

LEARNER = 0


def _replies(*notations: str) -> Callable[[GameState], GameState]:
    """The other players' scripted actions, in the text notation."""

    def reply(state: GameState) -> GameState:
        for text in notations:
            try:
                state = play(state, text)
            except IllegalActionError:  # the learner took that space: any start will do
                options = legal_actions(state)
                state = apply_action(state, next(iter(filter(_is_start, options)), options[0]))
        return state

    return reply


def _is_start(action: Action) -> bool:
    return isinstance(action, Excavate)


def _wanted(kinds: tuple[type, ...], words: str) -> Check:
    """A check that the action is one of ``kinds``; ``words`` say why another misses."""

    def check(before: GameState, action: Action, after: GameState) -> str | None:
        return None if isinstance(action, kinds) else words

    return check


def _area_of(space: int) -> int:
    return next(a for a, mask in enumerate(AREA_MASK) if mask >> space & 1)


# ---------------------------------------------------------------- the board

_BOARD = """
  a b c d | e f g h
1 . . . . | . . . .
2 . . G . | . . ^ .
3 . . . . | . . . .
4 . . . . | . . . .
5 . ^ . . | . R . .
6 . . . . | . . . .
"""


def _in_area_3(before: GameState, action: Action, after: GameState) -> str | None:
    if not isinstance(action, Excavate):
        return "this task is a start: one cube on one free space"
    if AREA_MASK[2] >> action.space & 1:
        return None
    name = space_name(action.space)
    return (
        f"{name} is in area {_area_of(action.space) + 1}: area 3 is the lower left one, "
        "rows 4 to 6, columns a to d"
    )


def _on_parcel_2(before: GameState, action: Action, after: GameState) -> str | None:
    if not isinstance(action, Excavate):
        return "this task is a start: one cube on one free space"
    if PARCEL_MASK[1] >> action.space & 1:
        return None
    return (
        f"{space_name(action.space)} is on parcel P{parcel_of(action.space) + 1}: P2 is the "
        "second parcel of the top line, columns c and d, rows 1 to 3"
    )


BOARD = Lesson(
    key="board",
    title="The board: regions, areas, parcels, pyramids",
    idea=(
        "Each season's region is made of parcels, each 2 spaces wide and 3 tall, with a "
        "cartouche at its centre showing its patron and its value (none, 2, 3 or 5).\n"
        "Two parcels side by side form an area; the region has two areas per line: 4 areas "
        "in seasons 1 to 3 (8 parcels), 6 in season 4 (12 parcels).\n"
        "Areas are numbered in reading order, parcels too (P1 to P8). Some spaces hold a "
        "pyramid: no cube may go there (except with Lord Lemon's help)."
    ),
    start=lambda: position(_BOARD),
    steps=(
        Step(
            prompt=(
                "Start an excavation in area 3 (parcels P5 and P6): put one cube on a free "
                "space there."
            ),
            check=_in_area_3,
            why="The survey counts cubes area by area: where you dig decides what you win.",
            reply=_replies("A h1", "A a1"),
        ),
        Step(
            prompt="Start another excavation, this time on parcel P2.",
            check=_on_parcel_2,
            why="An area's two parcels are its prizes: the survey gives them out.",
        ),
    ),
)

# ---------------------------------------------------------------- starting

_START = """
  a b c d | e f g h
1 . . . . | . . . .
2 . . . . | . . . .
3 . . . . | . . . .
4 . . . ^ | R . . .
5 . . . . | . . . .
6 . . . . | . . . .
"""

START = Lesson(
    key="start",
    title="Starting an excavation",
    idea=(
        "On your turn you take one action. The simplest is A, start an excavation: one "
        "cube from your stock onto any free space of the region (no cube, no pyramid).\n"
        "It need not touch anything: a start is how you reach a new part of the region."
    ),
    start=lambda: position(_START),
    steps=(
        Step(
            prompt="Start an excavation: one cube from your stock onto any free space.",
            check=_wanted((Excavate,), "this task is a start (A): one cube on one free space"),
            why="A start reaches anywhere; extensions then grow from any of your cubes.",
        ),
    ),
)

# ---------------------------------------------------------------- extending

_EXTEND = """
  a b c d | e f g h
1 . . . . | . . . .
2 . . . B | . . . .
3 . . . . | ^ . . .
4 . . . . | . . . .
5 . . . . | . . R .
6 . . . . | . . . .
"""


def _into_area_2(before: GameState, action: Action, after: GameState) -> str | None:
    if not isinstance(action, Extend):
        return "this task is an extension (B): two cubes from your stock"
    if any(AREA_MASK[1] >> s & 1 for s in placed_spaces(action)):
        return None
    return (
        "both cubes stayed in area 1: d2's neighbour e2 lies across the gap between the "
        "areas, and adjacency ignores every boundary"
    )


def _onto_parcel_4(before: GameState, action: Action, after: GameState) -> str | None:
    if not isinstance(action, Extend):
        return "this task is an extension (B): two cubes from your stock"
    if any(PARCEL_MASK[3] >> s & 1 for s in placed_spaces(action)):
        return None
    return "no cube reached parcel P4 (columns g and h, rows 1 to 3): grow towards it"


EXTEND = Lesson(
    key="extend",
    title="Extending an excavation",
    idea=(
        "B, extend an excavation: 2 cubes from your stock. The first goes on a free space "
        "next to any of your cubes, the second on a free space next to the first. Both must "
        "be placed, so with 1 cube in stock you cannot extend.\n"
        "Adjacency is orthogonal only (no diagonals) and ignores every boundary: spaces side "
        "by side on different parcels or different areas are next to each other."
    ),
    start=lambda: position(_EXTEND),
    steps=(
        Step(
            prompt=(
                "Extend from your cube on d2 so that at least one new cube lands in area 2 "
                "(columns e to h)."
            ),
            check=_into_area_2,
            why="Two cubes in one turn: extending is how you outnumber others in an area.",
            reply=_replies("A h6", "A a6"),
        ),
        Step(
            prompt="Extend again, from any of your cubes, until a cube reaches parcel P4.",
            check=_onto_parcel_4,
            why="Cubes flow over parcel and area edges: plan chains across boundaries.",
        ),
    ),
)

# ---------------------------------------------------------------- passing

_PASS = """
  a b c d | e f g h
1 . . . . | . . . .
2 . B . . | . . . .
3 . . . . | . . . .
4 . . . . | . . . .
5 . . G . | . R . .
6 . . . . | . . . .
"""

PASSING = Lesson(
    key="pass",
    title="Passing and the passing scale",
    idea=(
        "C, pass: take the lowest free space of the passing scale (1, 2, 3, 4) and take no "
        "more actions this season. A player with an empty stock can only pass.\n"
        "When exactly one player has not passed, that player takes exactly one more action "
        "and is then placed on the next free space.\n"
        "In the survey, ties go to the player on the lower space; the last player placed on "
        "the scale is the first player of the next season."
    ),
    start=lambda: position(_PASS, passing=(1, EMPTY, EMPTY)),
    steps=(
        Step(
            prompt="Red has passed (space 1). Pass now: you take the lowest free space.",
            check=_wanted((Pass,), "this task is to pass, taking the next passing space"),
            why="Space 2: you win ties against Green, who lands on 3 and so starts next season.",
            reply=_replies("A h1"),
        ),
    ),
)

# ---------------------------------------------------------------- the survey

_SURVEY = """
  a b c d | e f g h
1 B B B . | B B . .
2 . . . . | . . . .
3 . . . R | . . G G
4 . . . . | . . . .
5 . . . . | . . . .
6 . . . . | . . . .
"""


def _survey_start() -> GameState:
    state = position(
        _SURVEY,
        parcels={0: card(Patron.VIOLET, 0), 1: card(Patron.LEMON, 3)},
        passing=(1, 2, 0),
    )
    return surveying(state, 0)


def _best_parcel(before: GameState, action: Action, after: GameState) -> str | None:
    if isinstance(action, TakeParcel) and action.parcel == 1:
        return None
    if isinstance(action, TakeParcel):
        return "P1's cartouche shows no value: P2 is worth 3 points at once"
    return "booking a room is allowed to the 1st and 2nd; this time take the best parcel, P2"


def _book_any(before: GameState, action: Action, after: GameState) -> str | None:
    if isinstance(action, BookRoom):
        return None
    return "taking P4 is allowed too; this step asks you to book a Museum room instead"


SURVEY = Lesson(
    key="survey",
    title="The survey: ranks, ties, parcels and rooms",
    idea=(
        "When everyone has passed, the areas are surveyed in reading order. In each area the "
        "players with cubes there are ranked by their number of cubes, most first; ties go "
        "to the player on the lower passing space.\n"
        "1st, then 2nd, either take one of the area's parcels or book a Museum room with a "
        "cube from their reserve. 3rd and 4th only take a parcel if one is left.\n"
        "A player alone in an area makes only the 1st player's choice. A parcel's value is "
        "scored at once; parcels nobody took are discarded, and every cube there goes back "
        "to its owner's reserve."
    ),
    start=_survey_start,
    steps=(
        Step(
            prompt=(
                "Area 1: you have 3 cubes, Red 1. You rank 1st: take the parcel worth the "
                "most points."
            ),
            check=_best_parcel,
            why="The 1st picks before anyone else: majorities are worth the cubes.",
            reply=_replies("take P1", "take P3"),
        ),
        Step(
            prompt=(
                "Area 2: you and Green have 2 cubes each; Green is on passing space 2, you "
                "on 3, so Green ranked 1st and took P3. Book a Museum room."
            ),
            check=_book_any,
            why="Passing early wins ties; and a room can be worth more than a parcel.",
        ),
    ),
)

# ---------------------------------------------------------------- the Museum

_MUSEUM = """
  a b c d | e f g h
1 B B B . | B B . .
2 . . . . | . . . .
3 . . . R | . . . R
4 . . . . | . . . .
5 . . . . | . . . .
6 . . . . | . . . .
"""


def _museum_start() -> GameState:
    state = position(_MUSEUM, museum={Room.T1: LEARNER, Room.D23: 1}, passing=(0, 1, 2))
    return surveying(state, 0)


def _violet_five(before: GameState, action: Action, after: GameState) -> str | None:
    if isinstance(action, BookRoom) and action.room == Room.F1:
        return None
    return (
        "that is allowed, but this step asks for the Violet 5-room: your cube in the "
        "Violet 3-room opens onto it"
    )


def _two_room(before: GameState, action: Action, after: GameState) -> str | None:
    if isinstance(action, BookRoom) and action.room >= Room.D12:
        return None
    return (
        "this step asks for a 2-room (the Museum's 2 column): each sits between a wing and "
        "the next, and serves both"
    )


MUSEUM = Lesson(
    key="museum",
    title="The Museum: wings and rooms",
    idea=(
        "The Museum has five wings, one per patron, around a central hall. Each wing has a "
        "3-room opening onto its 5-room; between two neighbouring wings is a 2-room that "
        "belongs to both and opens onto both 5-rooms. Each room holds one cube, forever.\n"
        "You may place a cube (booking in the survey, or with Sir Brown) in any empty 2- or "
        "3-room, or in an empty 5-room next to a 2- or 3-room where you already have a cube."
    ),
    start=_museum_start,
    steps=(
        Step(
            prompt=(
                "You hold the Violet 3-room. In area 1 you rank 1st: book the Violet 5-room "
                "it opens onto."
            ),
            check=_violet_five,
            why="At the end each Violet card you own scores 5 with that room.",
            reply=_replies("take P1"),
        ),
        Step(
            prompt="Area 2: you rank 1st again. Book a 2-room, which serves two wings.",
            check=_two_room,
            why="A 2-room counts for both its wings, and opens both their 5-rooms to you.",
        ),
    ),
)

# ---------------------------------------------------------------- the patrons

_PATRONS = """
  a b c d | e f g h
1 . . . . | . . . .
2 . ^ . . | . R . .
3 . . B . | . . . .
4 . . . . | . ^ . .
5 . . G . | . . . .
6 . . . . | . . . .
"""


def _patron_start(patron: Patron) -> Callable[[], GameState]:
    def start() -> GameState:
        return position(_PATRONS, season=2, owned={LEARNER: [card(patron, 0)]})

    return start


_IDEA_PATRONS = (
    "A parcel you take is kept patron side up. From the next season on, your turn may be "
    "D, appeal to a patron, instead of A, B or C: turn one untilted card of that patron "
    "(it stays turned until the season ends) and use its power. At most one card per "
    "turn; several cards of one patron may each be used once a season.\n"
)


def _patron_lesson(
    patron: Patron, kind: type, idea: str, prompt: str, why: str, words: str
) -> Lesson:
    return Lesson(
        key=patron.name.lower(),
        title=f"{patron.title}'s power",
        idea=_IDEA_PATRONS + idea,
        start=_patron_start(patron),
        steps=(
            Step(
                prompt=prompt,
                check=_wanted((kind,), words),
                why=why,
                reply=_replies("A h1", "A a6"),
            ),
            Step(
                prompt=(
                    f"Your {patron.name.title()} card is turned until the season ends. "
                    "Start or extend as usual."
                ),
                check=_wanted((Excavate, Extend), "this step asks for a start or an extension"),
                why="Each card is used once a season: more cards of a patron, more uses.",
            ),
        ),
    )


VIOLET = _patron_lesson(
    Patron.VIOLET,
    Violet,
    "Lady Violet: move 1 cube from your reserve to your stock, then do A or B. Not "
    "possible with an empty reserve; and with an empty stock you may only pass.",
    "You own a Violet card. Appeal to Lady Violet: then start or extend.",
    "Lady Violet grows your stock: one more cube to place this season.",
    "that is an ordinary action: appeal to Lady Violet to bring a cube from your reserve",
)
LEMON = _patron_lesson(
    Patron.LEMON,
    Lemon,
    "Lord Lemon: do A or B with exactly one of the placed cubes on a pyramid space "
    "(which must hold no cube).",
    "You own a Lemon card. Appeal to Lord Lemon: put a cube on a pyramid (b2 or f4).",
    "Lord Lemon opens the pyramids, spaces nobody can take without him.",
    "only Lord Lemon lets a cube onto a pyramid: appeal to him",
)
BROWN = _patron_lesson(
    Patron.BROWN,
    Brown,
    "Sir Brown: move 1 cube from your stock into a legal Museum room, during the "
    "excavations, without waiting for the survey.",
    "You own a Brown card. Appeal to Sir Brown: send a cube from your stock to the Museum.",
    "Sir Brown books a room now, with a cube from your stock, before the survey.",
    "appeal to Sir Brown: a cube from your stock into a Museum room",
)
BLACKMORE = _patron_lesson(
    Patron.BLACKMORE,
    Blackmore,
    "Mrs. Blackmore: 2 cubes from your stock, the first on any free space, the second on a "
    "free space next to the first.",
    "You own a Blackmore card. Appeal to Mrs. Blackmore: two cubes side by side anywhere.",
    "Mrs. Blackmore opens a new place with two cubes at once.",
    "appeal to Mrs. Blackmore: two cubes, the first anywhere, the second next to it",
)
TANGERINE = _patron_lesson(
    Patron.TANGERINE,
    Tangerine,
    "Colonel Tangerine: 3 cubes from your stock in a chain: the first next to one of your "
    "cubes, the second next to the first, the third next to the second.",
    "You own a Tangerine card. Appeal to Colonel Tangerine: a chain of three from c3.",
    "Three cubes in one turn: the biggest push for a majority.",
    "appeal to Colonel Tangerine: three cubes in a chain from one of yours",
)

# ---------------------------------------------------------------- the final scoring

_SCORING = """
  a b c d | e f g h
1 B B B . | B B B .
2 . . . . | . . . .
3 . . . R | . . . R
4 . . . . | . . . .
5 . . . . | . . . .
6 . . . . | . . . .
"""


def _scoring_start() -> GameState:
    owned = [card(p, 0) for p in (Patron.VIOLET, Patron.LEMON, Patron.BLACKMORE, Patron.TANGERINE)]
    parcels = {
        0: card(Patron.BROWN, 0),
        1: card(Patron.LEMON, 2),
        2: card(None),
        3: card(Patron.VIOLET, 3),
    }
    state = position(_SCORING, season=3, owned={LEARNER: owned}, parcels=parcels, passing=(0, 1, 2))
    return surveying(state, 0)


def total(state: GameState) -> int:
    """The learner's score if the game ended now (parcels, exhibition, series)."""
    return player_score(state, LEARNER).total


def _scores_most(before: GameState, action: Action, after: GameState) -> str | None:
    gains = [total(apply_action(before, other)) for other in legal_actions(before)]
    best = max(gains) - total(before)
    got = total(after) - total(before)
    if got >= best:
        return None
    return f"that adds {got} to your final score; another choice adds {best}: count again"


SCORING = Lesson(
    key="scoring",
    title="The final scoring",
    idea=(
        "After season 4's survey, each card of a patron scores the value of the best Museum "
        "room you hold for that patron's wing: 5 (its 5-room), 3 (its 3-room), 2 (a 2-room "
        "next to it), else 1. Values never add up.\n"
        "Each complete series of the five different patrons scores 5 more. The patronless "
        "card scores nothing at the end: its 5 was scored when taken.\n"
        "Highest total wins; a tie goes to the most cubes in stock, and if still tied the "
        "win is shared."
    ),
    start=_scoring_start,
    steps=(
        Step(
            prompt=(
                "You own Violet, Lemon, Blackmore and Tangerine cards. Area 1: take the "
                "parcel or book the room that adds most to your final score."
            ),
            check=_scores_most,
            why="The Brown card completed a series of five: 5 points more, plus its own 1.",
            reply=_replies("take P2"),
        ),
        Step(
            prompt="Area 2: again, choose what adds most to your final score.",
            check=_scores_most,
            why="The patronless card's 5 is scored at once; it counts for no series.",
        ),
    ),
)

# ---------------------------------------------------------------- two players

_NEUTRAL = """
  a b c d | e f g h
1 . . . . | . . . .
2 . B . . | . N . .
3 . . . . | . . . .
4 . . . . | . . R .
5 . . . . | . . . .
6 . . . . | . . . .
"""

NEUTRAL = Lesson(
    key="neutral",
    title="Two players: the neutral archaeologist",
    idea=(
        "With 2 players a third, neutral colour plays no turns and scores nothing. Its "
        "passing disk sits on space 2, so the two players pass onto 1 and 3.\n"
        "Each season each player also takes 4 neutral cubes. After a start or an extension "
        "(never a pass or a patron) you may place neutral cubes: one on any free space, or "
        "two, the first next to a neutral cube and the second next to the first.\n"
        "In the survey the neutral is ranked like a player; a parcel it wins is discarded."
    ),
    start=lambda: position(_NEUTRAL, players=2),
    steps=(
        Step(
            prompt="Start or extend an excavation of your own first.",
            check=_wanted((Excavate, Extend), "neutral cubes come after a start or extension"),
            why="Only after your own start or extension may neutral cubes follow.",
        ),
        Step(
            prompt="Now place neutral cubes: one anywhere, or two extending from f2.",
            check=_wanted(
                (NeutralExcavate, NeutralExtend),
                "placing none is allowed; this step asks you to place neutral cubes",
            ),
            why="Neutral cubes can break an opponent's majority in an area.",
        ),
    ),
)

LESSONS: tuple[Lesson, ...] = (
    BOARD,
    START,
    EXTEND,
    PASSING,
    SURVEY,
    MUSEUM,
    VIOLET,
    LEMON,
    BROWN,
    BLACKMORE,
    TANGERINE,
    SCORING,
    NEUTRAL,
)
"""Every lesson, in teaching order."""
