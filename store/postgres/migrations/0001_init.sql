-- 0001: races, their append-only log and the turns resolved from it.
-- The same schema as the SQLite store's version 1, in PostgreSQL's types.
--
-- Times are timestamptz (microseconds, UTC). JSON is kept as text, never
-- jsonb, and snapshots as bytea: a stored snapshot is hashed, so it must come
-- back byte for byte.

CREATE TABLE races (
    id           text        NOT NULL PRIMARY KEY,
    ruleset      text        NOT NULL,
    config       text        NOT NULL,  -- race.Config as JSON
    entrants     text        NOT NULL,  -- []race.Entrant as JSON
    seed         text        NOT NULL,  -- 64 hex digits, kept secret until the race ends
    commitment   text        NOT NULL,  -- SHA-256 of the seed in hex, public from the start
    created      timestamptz NOT NULL,
    deadline     timestamptz,           -- the next turn's deadline; NULL when none is set
    window_open  timestamptz,           -- the next turn's bonus window; NULL when none is set
    window_close timestamptz
);

-- List shows the newest races first.
CREATE INDEX races_created ON races (created);

CREATE TABLE entries (
    race_id   text        NOT NULL REFERENCES races (id),
    seq       integer     NOT NULL CHECK (seq >= 1),
    kind      text        NOT NULL,
    turn      integer     NOT NULL,
    seat      integer     NOT NULL,
    text      text        NOT NULL,
    in_window boolean     NOT NULL,
    at        timestamptz NOT NULL,
    PRIMARY KEY (race_id, seq)
);

CREATE TABLE turns (
    race_id    text        NOT NULL REFERENCES races (id),
    turn       integer     NOT NULL,
    hash       text        NOT NULL,
    rolls      text        NOT NULL,  -- []dice.Roll as JSON
    dice_state bytea,                 -- the dice stream's state after the turn
    state      bytea,                 -- JSON snapshot of the state after the turn (a cache)
    at         timestamptz NOT NULL,
    PRIMARY KEY (race_id, turn)
);

-- The log is the race: replay and audits depend on it never changing, so the
-- database refuses edits even from a hand-typed statement. TRUNCATE fires no
-- DELETE trigger, so it has its own.
CREATE FUNCTION pitwall_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '%', TG_ARGV[0] USING ERRCODE = 'integrity_constraint_violation';
END
$$;

CREATE TRIGGER entries_no_update BEFORE UPDATE ON entries
FOR EACH ROW EXECUTE FUNCTION pitwall_refuse('entries are append-only');
CREATE TRIGGER entries_no_delete BEFORE DELETE ON entries
FOR EACH ROW EXECUTE FUNCTION pitwall_refuse('entries are append-only');
CREATE TRIGGER entries_no_truncate BEFORE TRUNCATE ON entries
FOR EACH STATEMENT EXECUTE FUNCTION pitwall_refuse('entries are append-only');
CREATE TRIGGER turns_no_update BEFORE UPDATE ON turns
FOR EACH ROW EXECUTE FUNCTION pitwall_refuse('saved turns are append-only');
CREATE TRIGGER turns_no_delete BEFORE DELETE ON turns
FOR EACH ROW EXECUTE FUNCTION pitwall_refuse('saved turns are append-only');
CREATE TRIGGER turns_no_truncate BEFORE TRUNCATE ON turns
FOR EACH STATEMENT EXECUTE FUNCTION pitwall_refuse('saved turns are append-only');
