-- 0006: a host's standing instructions to the service about a race (the
-- SQLite store's version 6, in PostgreSQL's types). Not part of the race:
-- what they lead to is logged like anything else. A control is appended
-- and never changed; the last of a kind (and seat) stands. A key, when
-- given, is unique in its race.

CREATE TABLE controls (
    id      bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    race_id text        NOT NULL REFERENCES races (id),
    kind    text        NOT NULL CHECK (kind IN ('seat', 'host', 'schedule', 'clock')),
    seat    integer     NOT NULL CHECK ((kind = 'seat') = (seat >= 0) AND seat >= -1),
    value   text        NOT NULL,
    key     text        NOT NULL,
    at      timestamptz NOT NULL
);

CREATE INDEX controls_race ON controls (race_id, id);
CREATE UNIQUE INDEX controls_key ON controls (race_id, key) WHERE key <> '';

CREATE TRIGGER controls_no_update BEFORE UPDATE ON controls
FOR EACH ROW EXECUTE FUNCTION pitwall_refuse('a control is never changed');
CREATE TRIGGER controls_no_delete BEFORE DELETE ON controls
FOR EACH ROW EXECUTE FUNCTION pitwall_refuse('a control is never changed');
CREATE TRIGGER controls_no_truncate BEFORE TRUNCATE ON controls
FOR EACH STATEMENT EXECUTE FUNCTION pitwall_refuse('a control is never changed');
