-- 0005: what the service keeps beside a race to open it to racers and
-- spectators. Neither table is part of the race: a race replays and verifies
-- without them, and an export leaves them out.
--
-- access: one row a race, written with the race; public and resolve_when
-- may change (a host's choice), the rest never does.
-- tokens: the race's secret links, by the SHA-256 of the token (the token
-- itself is never stored); revoked is set once and kept.

CREATE TABLE access (
    race_id      TEXT    NOT NULL PRIMARY KEY REFERENCES races (id),
    public       INTEGER NOT NULL CHECK (public IN (0, 1)),
    resolve_when TEXT    NOT NULL CHECK (resolve_when IN ('deadline', 'ready', 'all_in')),
    created      TEXT    NOT NULL
) STRICT;

CREATE TABLE tokens (
    hash    TEXT    NOT NULL PRIMARY KEY CHECK (length(hash) = 64),
    race_id TEXT    NOT NULL REFERENCES races (id),
    role    TEXT    NOT NULL CHECK (role IN ('host', 'seat', 'spectator')),
    seat    INTEGER NOT NULL,
    created TEXT    NOT NULL,
    revoked TEXT
) STRICT, WITHOUT ROWID;

CREATE INDEX tokens_race ON tokens (race_id);

CREATE TRIGGER tokens_no_unrevoke BEFORE UPDATE ON tokens
WHEN OLD.revoked IS NOT NULL OR NEW.hash <> OLD.hash OR NEW.race_id <> OLD.race_id
     OR NEW.role <> OLD.role OR NEW.seat <> OLD.seat OR NEW.created <> OLD.created
BEGIN SELECT RAISE(ABORT, 'a link only ever changes by being revoked'); END;
