"""The map of 1805 as data: seas.json and one areas_*.json per region (docs/map.md)."""
