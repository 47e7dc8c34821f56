-- 0005: what the service keeps beside a race to open it to racers and
-- spectators (the SQLite store's version 5, in PostgreSQL's types). Neither
-- table is part of the race: a race replays and verifies without them.
--
-- access: one row a race, written with the race, never changed.
-- tokens: the race's secret links, by the SHA-256 of the token (the token
-- itself is never stored). A link is never deleted or replaced; it changes
-- once, when it is revoked, and a revoked link stays revoked.

CREATE TABLE access (
    race_id      text        NOT NULL PRIMARY KEY REFERENCES races (id),
    public       boolean     NOT NULL,
    resolve_when text        NOT NULL CHECK (resolve_when IN ('deadline', 'ready', 'all_in')),
    created      timestamptz NOT NULL
);

CREATE TABLE tokens (
    hash    text        NOT NULL PRIMARY KEY CHECK (hash ~ '^[0-9a-f]{64}$'),
    race_id text        NOT NULL REFERENCES races (id),
    role    text        NOT NULL CHECK (role IN ('host', 'seat', 'spectator')),
    seat    integer     NOT NULL CHECK ((role = 'seat') = (seat >= 0)),
    created timestamptz NOT NULL,
    revoked timestamptz
);

CREATE INDEX tokens_race ON tokens (race_id);

CREATE TRIGGER access_no_update BEFORE UPDATE ON access
FOR EACH ROW EXECUTE FUNCTION pitwall_refuse('a race''s access never changes');
CREATE TRIGGER access_no_delete BEFORE DELETE ON access
FOR EACH ROW EXECUTE FUNCTION pitwall_refuse('a race''s access never changes');
CREATE TRIGGER access_no_truncate BEFORE TRUNCATE ON access
FOR EACH STATEMENT EXECUTE FUNCTION pitwall_refuse('a race''s access never changes');

CREATE FUNCTION pitwall_token_revoked_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.revoked IS NOT NULL OR NEW.revoked IS NULL OR NEW.hash <> OLD.hash OR NEW.race_id <> OLD.race_id
       OR NEW.role <> OLD.role OR NEW.seat <> OLD.seat OR NEW.created <> OLD.created THEN
        RAISE EXCEPTION 'a link only ever changes by being revoked';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER tokens_only_revoked BEFORE UPDATE ON tokens
FOR EACH ROW EXECUTE FUNCTION pitwall_token_revoked_only();
CREATE TRIGGER tokens_no_delete BEFORE DELETE ON tokens
FOR EACH ROW EXECUTE FUNCTION pitwall_refuse('a link only ever changes by being revoked');
CREATE TRIGGER tokens_no_truncate BEFORE TRUNCATE ON tokens
FOR EACH STATEMENT EXECUTE FUNCTION pitwall_refuse('a link only ever changes by being revoked');
