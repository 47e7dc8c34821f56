-- 0002: the log becomes turn-addressed, keyed and chained; entrants and
-- schedules become entries, so the races row never changes once written.
--
-- entries.key is the client's idempotency key ('' for none), unique in a race.
-- entries.hash is the head of the race's hash chain after the entry.
-- turns.story is the turn's story (orders, defaults, events) as JSON, so a
-- post of an old turn is told as it was resolved; turns.rules is the version
-- of the rules that resolved it. races.rules is the version the race was
-- created under (0: before versions were recorded).
--
-- The append-only triggers are dropped here and made again, stricter, in
-- 0003, after pitwall has written the chain of the races already stored.

DROP TRIGGER entries_no_update;
DROP TRIGGER entries_no_delete;
DROP TRIGGER turns_no_update;
DROP TRIGGER turns_no_delete;

ALTER TABLE races ADD COLUMN rules INTEGER NOT NULL DEFAULT 0;
ALTER TABLE entries ADD COLUMN key TEXT NOT NULL DEFAULT '';
ALTER TABLE entries ADD COLUMN hash TEXT NOT NULL DEFAULT '';
ALTER TABLE turns ADD COLUMN story TEXT;
ALTER TABLE turns ADD COLUMN rules INTEGER NOT NULL DEFAULT 0;

-- A key names one entry of a race; a turn is resolved by one entry.
CREATE UNIQUE INDEX entries_key ON entries (race_id, key) WHERE key <> '';
CREATE UNIQUE INDEX entries_resolve ON entries (race_id, turn) WHERE kind = 'resolve';
