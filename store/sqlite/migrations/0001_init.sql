-- 0001: races, their append-only log and the turns resolved from it.
--
-- Times are UTC text, fixed width with nanoseconds
-- (2006-01-02T15:04:05.000000000Z), so they sort as text and come back exact.
-- Tables are STRICT so that a wrong type is refused rather than coerced.

CREATE TABLE races (
    id           TEXT NOT NULL PRIMARY KEY,
    ruleset      TEXT NOT NULL,
    config       TEXT NOT NULL,  -- race.Config as JSON
    entrants     TEXT NOT NULL,  -- []race.Entrant as JSON
    seed         TEXT NOT NULL,  -- 64 hex digits, kept secret until the race ends
    commitment   TEXT NOT NULL,  -- SHA-256 of the seed in hex, public from the start
    created      TEXT NOT NULL,
    deadline     TEXT,           -- the next turn's deadline; NULL when none is set
    window_open  TEXT,           -- the next turn's bonus window; NULL when none is set
    window_close TEXT
) STRICT;

-- List shows the newest races first.
CREATE INDEX races_created ON races (created);

CREATE TABLE entries (
    race_id   TEXT    NOT NULL REFERENCES races (id),
    seq       INTEGER NOT NULL CHECK (seq >= 1),
    kind      TEXT    NOT NULL,
    turn      INTEGER NOT NULL,
    seat      INTEGER NOT NULL,
    text      TEXT    NOT NULL,
    in_window INTEGER NOT NULL CHECK (in_window IN (0, 1)),
    at        TEXT    NOT NULL,
    PRIMARY KEY (race_id, seq)
) STRICT, WITHOUT ROWID;

CREATE TABLE turns (
    race_id    TEXT    NOT NULL REFERENCES races (id),
    turn       INTEGER NOT NULL,
    hash       TEXT    NOT NULL,
    rolls      TEXT    NOT NULL,  -- []dice.Roll as JSON
    dice_state BLOB,              -- the dice stream's state after the turn
    state      TEXT,              -- JSON snapshot of the state after the turn (a cache)
    at         TEXT    NOT NULL,
    PRIMARY KEY (race_id, turn)
) STRICT, WITHOUT ROWID;

-- The log is the race: replay and audits depend on it never changing, so the
-- database refuses edits even from a hand-typed statement.
CREATE TRIGGER entries_no_update BEFORE UPDATE ON entries
BEGIN SELECT RAISE(ABORT, 'entries are append-only'); END;
CREATE TRIGGER entries_no_delete BEFORE DELETE ON entries
BEGIN SELECT RAISE(ABORT, 'entries are append-only'); END;
CREATE TRIGGER turns_no_update BEFORE UPDATE ON turns
BEGIN SELECT RAISE(ABORT, 'saved turns are append-only'); END;
CREATE TRIGGER turns_no_delete BEFORE DELETE ON turns
BEGIN SELECT RAISE(ABORT, 'saved turns are append-only'); END;
