"""The game loop on a player's computer: a game folder, its save, and the rules engine.

``eiapbem.pbem`` knows files and nothing of the rules; ``eiapbem.rules`` knows
the rules and nothing of files.  This package joins them for the commands:

- ``session``: ``Session``, made of the parts below, and its public operations
  (what the CLI, the host's menu and a view call);
- ``store``: the game folder, keys, the save, monthly saves, the game's journal;
- ``slot``: the slot in play: its dice, the actions taken, its replay;
- ``turns``: acting, end-phase (the turn file) and loading the others' files,
  on the rules' one turn function (``rules.turn.play_turn``);
- ``exchange`` and ``battles``: battle files between two humans (4.2.7);
- ``autoplay``: the computer's slots, played at every client alike;
- ``outbox``: files going out and their email drafts;
- ``newgame``: the host's new game and the client's join (4.2.2);
- ``setups``: saved and default setups (5.2.2, 14.5);
- ``show``: what the manual's info boxes show, as text;
- ``demo``: a hot-seat game in a temporary folder.
"""
