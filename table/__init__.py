"""Tables: one game, played from one terminal or several.

:mod:`table.seat` is the contract the game screen plays through; :mod:`table.local` is the
game saved on this machine. Never imports textual or rich (a test checks it).
"""
