-- 0006: a host's standing instructions to the service about a race (who
-- plays a seat, who makes the host's settings, the repeating schedule, a
-- pause). Not part of the race: what they lead to is logged like anything
-- else. A control is appended and never changed; the last of a kind (and
-- seat) stands. A key, when given, is unique in its race.

CREATE TABLE controls (
    id      INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    race_id TEXT    NOT NULL REFERENCES races (id),
    kind    TEXT    NOT NULL CHECK (kind IN ('seat', 'host', 'schedule', 'clock')),
    seat    INTEGER NOT NULL CHECK ((kind = 'seat') = (seat >= 0) AND seat >= -1),
    value   TEXT    NOT NULL,
    key     TEXT    NOT NULL,
    at      TEXT    NOT NULL
) STRICT;

CREATE INDEX controls_race ON controls (race_id, id);
CREATE UNIQUE INDEX controls_key ON controls (race_id, key) WHERE key <> '';

CREATE TRIGGER controls_no_update BEFORE UPDATE ON controls
BEGIN SELECT RAISE(ABORT, 'a control is never changed'); END;
CREATE TRIGGER controls_no_delete BEFORE DELETE ON controls
BEGIN SELECT RAISE(ABORT, 'a control is never changed'); END;
