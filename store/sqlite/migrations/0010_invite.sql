-- 0010: races that take their racers by invite. An invite race's access
-- says so: it takes entrants until its host starts it. A link may be an
-- invite (role 'invite': it opens a join and nothing else), and a racer's
-- link made before the start names its racer (racer), not its seat: the
-- seats are only known once the race is set up (its grid may be drawn by
-- lot). A seat's link names its seat or its racer, never both.
--
-- SQLite cannot change a table's CHECK constraints, so tokens is made
-- again with its rows, its index and its triggers (a DROP TABLE fires no
-- DELETE trigger).

ALTER TABLE access ADD COLUMN invite INTEGER NOT NULL DEFAULT 0 CHECK (invite IN (0, 1));

CREATE TABLE tokens_0010 (
    hash    TEXT    NOT NULL PRIMARY KEY CHECK (length(hash) = 64 AND hash NOT GLOB '*[^0-9a-f]*'),
    race_id TEXT    NOT NULL REFERENCES races (id),
    role    TEXT    NOT NULL CHECK (role IN ('host', 'seat', 'spectator', 'invite')),
    seat    INTEGER NOT NULL CHECK (seat >= -1),
    racer   TEXT    NOT NULL DEFAULT '',
    created TEXT    NOT NULL,
    revoked TEXT,
    CHECK ((role = 'seat') = (seat >= 0 OR racer <> '')),
    CHECK (seat < 0 OR racer = '')
) STRICT, WITHOUT ROWID;

INSERT INTO tokens_0010 (hash, race_id, role, seat, racer, created, revoked)
SELECT hash, race_id, role, seat, '', created, revoked FROM tokens;
DROP TABLE tokens;
ALTER TABLE tokens_0010 RENAME TO tokens;

CREATE INDEX tokens_race ON tokens (race_id);

CREATE TRIGGER tokens_only_revoked BEFORE UPDATE ON tokens
WHEN OLD.revoked IS NOT NULL OR NEW.revoked IS NULL OR NEW.hash <> OLD.hash OR NEW.race_id <> OLD.race_id
     OR NEW.role <> OLD.role OR NEW.seat <> OLD.seat OR NEW.racer <> OLD.racer OR NEW.created <> OLD.created
BEGIN SELECT RAISE(ABORT, 'a link only ever changes by being revoked'); END;
CREATE TRIGGER tokens_no_delete BEFORE DELETE ON tokens
BEGIN SELECT RAISE(ABORT, 'a link only ever changes by being revoked'); END;
-- INSERT OR REPLACE would delete the stored link without a DELETE trigger.
CREATE TRIGGER tokens_no_replace BEFORE INSERT ON tokens
WHEN EXISTS (SELECT 1 FROM tokens WHERE hash = NEW.hash)
BEGIN SELECT RAISE(ABORT, 'a link only ever changes by being revoked'); END;
