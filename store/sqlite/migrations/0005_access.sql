-- 0005: what the service keeps beside a race to open it to racers and
-- spectators. Neither table is part of the race: a race replays and verifies
-- without them, and an export leaves them out.
--
-- access: one row a race, written with the race, never changed.
-- tokens: the race's secret links, by the SHA-256 of the token (the token
-- itself is never stored). A link is never deleted or replaced; it changes
-- once, when it is revoked, and a revoked link stays revoked.

CREATE TABLE access (
    race_id      TEXT    NOT NULL PRIMARY KEY REFERENCES races (id),
    public       INTEGER NOT NULL CHECK (public IN (0, 1)),
    resolve_when TEXT    NOT NULL CHECK (resolve_when IN ('deadline', 'ready', 'all_in')),
    created      TEXT    NOT NULL
) STRICT;

CREATE TABLE tokens (
    hash    TEXT    NOT NULL PRIMARY KEY CHECK (length(hash) = 64 AND hash NOT GLOB '*[^0-9a-f]*'),
    race_id TEXT    NOT NULL REFERENCES races (id),
    role    TEXT    NOT NULL CHECK (role IN ('host', 'seat', 'spectator')),
    seat    INTEGER NOT NULL CHECK ((role = 'seat') = (seat >= 0)),
    created TEXT    NOT NULL,
    revoked TEXT
) STRICT, WITHOUT ROWID;

CREATE INDEX tokens_race ON tokens (race_id);

CREATE TRIGGER access_no_update BEFORE UPDATE ON access
BEGIN SELECT RAISE(ABORT, 'a race''s access never changes'); END;
CREATE TRIGGER access_no_delete BEFORE DELETE ON access
BEGIN SELECT RAISE(ABORT, 'a race''s access never changes'); END;
CREATE TRIGGER access_no_replace BEFORE INSERT ON access
WHEN EXISTS (SELECT 1 FROM access WHERE race_id = NEW.race_id)
BEGIN SELECT RAISE(ABORT, 'a race''s access never changes'); END;

CREATE TRIGGER tokens_only_revoked BEFORE UPDATE ON tokens
WHEN OLD.revoked IS NOT NULL OR NEW.revoked IS NULL OR NEW.hash <> OLD.hash OR NEW.race_id <> OLD.race_id
     OR NEW.role <> OLD.role OR NEW.seat <> OLD.seat OR NEW.created <> OLD.created
BEGIN SELECT RAISE(ABORT, 'a link only ever changes by being revoked'); END;
CREATE TRIGGER tokens_no_delete BEFORE DELETE ON tokens
BEGIN SELECT RAISE(ABORT, 'a link only ever changes by being revoked'); END;
-- INSERT OR REPLACE would delete the stored link without a DELETE trigger.
CREATE TRIGGER tokens_no_replace BEFORE INSERT ON tokens
WHEN EXISTS (SELECT 1 FROM tokens WHERE hash = NEW.hash)
BEGIN SELECT RAISE(ABORT, 'a link only ever changes by being revoked'); END;
