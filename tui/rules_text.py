"""The words of the help screen: the keys, a short rules summary, and the rulings."""

KEYS = """\
[b]Mykerinos — keys[/b]                            [dim]r: rules   Esc: close[/dim]

[b]Your turn (excavation)[/b]: the action bar lists the keys that work now.
  a  start an excavation (1 cube)   b  extend an excavation (2 cubes)
  p  pass                           v  Lady Violet (+1 cube, then a/b)
  l  Lord Lemon (one cube on a ▲)   s  Sir Brown (a cube to the Museum)
  k  Mrs. Blackmore (2 cubes)       t  Colonel Tangerine (3 in a chain)
  2 players, after a or b:  n 1 neutral cube  m 2 neutral cubes  x none
[b]Placing cubes[/b]
  arrows or h j k l  move the cursor   Enter/Space  place a cube
  Esc  take back the last cube, then leave the action
  Spaces that can take the next cube are shown [·] (bold, underlined).
[b]Survey and Museum[/b]
  1-9  pick an option (the area's ranking is shown above them).
  Booking or Sir Brown: the arrows move over the rooms, Enter takes the
  room under the cursor; the rooms you may take are shown [·].
[b]Always[/b]
  u undo   U or ctrl+r redo   ctrl+s rename the game   o load a game
  PgUp PgDn Home End  read the whole log   / hint   ? help   q quit
  F2  a coached game: no more coach's notes in it (see Learn to play)
[b]At a shared table[/b] (playing with others through a table server)
  c chat   H hand your seat to a computer (or an absent player's, live)
  P pause a live table for everyone (10 min, once a season); P again resumes
  ctrl+s export a copy of the game (through a door: to where you are)

[b]The board[/b]
  B R G W  the players' cubes (blue, red, green, white)  N the neutral
  {R}  cubes the others placed since your last decision
  ▲ a pyramid   · a free space   v3 a cartouche: patron and value
  P3 a parcel's number (reverse video: the area being surveyed)
  patrons: v Lady Violet, l Lord Lemon, s Sir Brown, k Mrs. Blackmore,
           t Colonel Tangerine, * no patron (worth 5 when taken)
  cards: ● usable (won in a survey: from next season)  ○ used (tilted)
  Museum: each wing's 5-room, 3-room, and the 2-room it shares with
  the next wing.

[b]In short[/b]
  Four seasons. Place cubes on the region; when all have passed, each
  area (two parcels) is surveyed: the player with most cubes there takes
  a parcel (its value scores at once) or books a Museum room; then the
  2nd; the 3rd and 4th only take what is left. Parcels give patron
  cards: their powers from next season on, and at the end each card
  scores the value of your best room for that patron's wing (5, 3, 2,
  else 1). Five different patrons: +5.
"""

RULES = """\
[b]Mykerinos — rules and rulings[/b]              [dim]r: keys   Esc: close[/dim]

[b]Season[/b]: everyone moves cubes from reserve to stock (11 each with 2 or
3 players, 8 with 4; 2 players also get 4 neutral cubes). 8 parcels are
dealt (12 in season 4). Areas are two parcels side by side.

[b]Actions[/b], in turn order, until all have passed:
  A  one cube from stock on any free space (no cube, no pyramid)
  B  two cubes: the first next to one of yours, the second next to it
  C  pass: take the lowest free space of the passing scale
  D  appeal to a patron: tilt one untilted card (one per turn; it stays
     tilted until the season ends) and use its power:
     Lady Violet: a cube reserve→stock, then A or B.
     Lord Lemon: A or B with exactly one cube on a pyramid.
     Sir Brown: a cube from stock into a legal Museum room.
     Mrs. Blackmore: a cube anywhere free, a second next to it.
     Colonel Tangerine: a chain of three starting next to one of yours.
  Adjacency is orthogonal and ignores parcel and area borders.

[b]Survey[/b], area by area in reading order. Rank by cubes in the area
(ties: lower passing space first). 1st and 2nd each take a parcel or
book a Museum room with a cube from reserve; 3rd and 4th take a parcel
if one is left. Untaken parcels are discarded; all cubes there go back
to reserves.

[b]Museum[/b]: any empty 2- or 3-room; a 5-room only next to a 2- or
3-room of yours. Rooms are kept for ever.

[b]End[/b]: each card scores your best room for its wing (5-room 5, 3-room
3, a neighbouring 2-room 2, else 1); each full set of five patrons +5.
Ties: most cubes in stock wins; still tied, the win is shared.

[b]Rulings of this game[/b]
  • With an empty stock you can only pass: Lady Violet cannot rescue it.
  • When one player is left, they take exactly one more action (it may
    be a pass) and then go on the passing scale; the last on it starts
    the next season.
  • A player whose options are all impossible in a survey gets nothing.
  • A pyramid holding a cube counts as occupied for Lord Lemon.
  • 2 players: the neutral sits on passing space 2 and is ranked like a
    player. Neutral 1st: the player not ranked 2nd picks its parcel;
    neutral 2nd: the 1st picks it (after their own choice); neutral
    alone: both parcels are discarded. Unused neutral cubes stay with
    their holder.
"""
