"""Presentation: pictures and printouts for players.  Outside the rules core, so floats are allowed."""
