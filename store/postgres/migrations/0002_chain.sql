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
-- On SQLite, pitwall chains the races stored under version 1 right after this
-- migration. The PostgreSQL store came after version 2, so no race was ever
-- stored here under version 1: a database that has one was not made by
-- pitwall, and is refused rather than left unchained.

DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM races) THEN
        RAISE EXCEPTION 'races stored under schema version 1 cannot be chained on PostgreSQL';
    END IF;
END
$$;

-- The append-only triggers are dropped here and made again, stricter, in
-- 0003 (as on SQLite, where the chain is written in between).
DROP TRIGGER entries_no_update ON entries;
DROP TRIGGER entries_no_delete ON entries;
DROP TRIGGER entries_no_truncate ON entries;
DROP TRIGGER turns_no_update ON turns;
DROP TRIGGER turns_no_delete ON turns;
DROP TRIGGER turns_no_truncate ON turns;

ALTER TABLE races ADD COLUMN rules integer NOT NULL DEFAULT 0;
ALTER TABLE entries ADD COLUMN key text NOT NULL DEFAULT '';
ALTER TABLE entries ADD COLUMN hash text NOT NULL DEFAULT '';
ALTER TABLE turns ADD COLUMN story bytea;
ALTER TABLE turns ADD COLUMN rules integer NOT NULL DEFAULT 0;

-- A key names one entry of a race; a turn is resolved by one entry.
CREATE UNIQUE INDEX entries_key ON entries (race_id, key) WHERE key <> '';
CREATE UNIQUE INDEX entries_resolve ON entries (race_id, turn) WHERE kind = 'resolve';
