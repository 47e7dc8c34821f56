-- 0004: a load reads the entries after the last resolve but only the last
-- order of each seat; these indexes let it find them without reading the
-- orders a racer resent.
CREATE INDEX entries_kinds ON entries (race_id, kind, seq);
CREATE INDEX entries_orders ON entries (race_id, turn, seat, seq) WHERE kind = 'order';
