-- 0007: a race's webhooks and their outbox (the SQLite store's version 7,
-- in PostgreSQL's types). Neither is part of the race: a race replays and
-- verifies without them, and an export leaves them out.
--
-- hooks: one row a webhook; it changes once, when it is removed.
-- outbox: one row a thing to tell a hook. A resolved turn's rows are written
-- by the trigger below, in the statement (so the transaction) that stores
-- the resolve: a turn is never resolved without them, nor they without it.
-- A row changes as it is claimed, tried and settled; once settled it stays.

CREATE TABLE hooks (
    id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    race_id     text        NOT NULL REFERENCES races (id),
    url         text        NOT NULL,
    format      text        NOT NULL CHECK (format IN ('json', 'discord')),
    events      text        NOT NULL,  -- the events asked for, comma-separated
    warn_before bigint      NOT NULL CHECK (warn_before >= 0),  -- nanoseconds
    secret      text        NOT NULL,
    key         text        NOT NULL,
    created     timestamptz NOT NULL,
    removed     timestamptz
);

CREATE INDEX hooks_race ON hooks (race_id, id);
CREATE UNIQUE INDEX hooks_key ON hooks (race_id, key) WHERE key <> '';

CREATE FUNCTION pitwall_hook_removed_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.removed IS NOT NULL OR NEW.removed IS NULL OR NEW.id <> OLD.id OR NEW.race_id <> OLD.race_id
       OR NEW.url <> OLD.url OR NEW.format <> OLD.format OR NEW.events <> OLD.events
       OR NEW.warn_before <> OLD.warn_before OR NEW.secret <> OLD.secret OR NEW.key <> OLD.key
       OR NEW.created <> OLD.created THEN
        RAISE EXCEPTION 'a webhook only ever changes by being removed';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER hooks_only_removed BEFORE UPDATE ON hooks
FOR EACH ROW EXECUTE FUNCTION pitwall_hook_removed_only();
CREATE TRIGGER hooks_no_delete BEFORE DELETE ON hooks
FOR EACH ROW EXECUTE FUNCTION pitwall_refuse('a webhook only ever changes by being removed');
CREATE TRIGGER hooks_no_truncate BEFORE TRUNCATE ON hooks
FOR EACH STATEMENT EXECUTE FUNCTION pitwall_refuse('a webhook only ever changes by being removed');

CREATE TABLE outbox (
    id       bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    hook_id  bigint      NOT NULL REFERENCES hooks (id),
    race_id  text        NOT NULL REFERENCES races (id),
    kind     text        NOT NULL CHECK (kind IN ('turn', 'warning')),
    turn     integer     NOT NULL,
    seq      integer     NOT NULL,  -- turn: the resolve's entry; warning: 0
    deadline timestamptz,           -- warning: the deadline warned of
    created  timestamptz NOT NULL,
    due      timestamptz NOT NULL,
    attempts integer     NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    claim    text        NOT NULL DEFAULT '',
    held     timestamptz,           -- the claim holds the row until then
    outcome  text        NOT NULL DEFAULT '' CHECK (outcome IN ('', 'delivered', 'failed', 'skipped', 'removed')),
    done     timestamptz,
    error    text        NOT NULL DEFAULT '',
    CHECK ((kind = 'warning') = (deadline IS NOT NULL)),
    CHECK ((outcome = '') = (done IS NULL))
);

-- A turn is told to a hook once; a deadline is warned of once.
CREATE UNIQUE INDEX outbox_turn ON outbox (hook_id, turn) WHERE kind = 'turn';
CREATE UNIQUE INDEX outbox_warning ON outbox (hook_id, turn, deadline) WHERE kind = 'warning';
-- What to send next: the pending rows, by when they are due.
CREATE INDEX outbox_pending ON outbox (due) WHERE outcome = '';
CREATE INDEX outbox_race ON outbox (race_id, id);

CREATE FUNCTION pitwall_outbox_settled() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.outcome <> '' OR NEW.id <> OLD.id OR NEW.hook_id <> OLD.hook_id OR NEW.race_id <> OLD.race_id
       OR NEW.kind <> OLD.kind OR NEW.turn <> OLD.turn OR NEW.seq <> OLD.seq OR NEW.created <> OLD.created THEN
        RAISE EXCEPTION 'a delivery once settled stays as it was';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER outbox_settled BEFORE UPDATE ON outbox
FOR EACH ROW EXECUTE FUNCTION pitwall_outbox_settled();
CREATE TRIGGER outbox_no_delete BEFORE DELETE ON outbox
FOR EACH ROW EXECUTE FUNCTION pitwall_refuse('the outbox keeps what it told');
CREATE TRIGGER outbox_no_truncate BEFORE TRUNCATE ON outbox
FOR EACH STATEMENT EXECUTE FUNCTION pitwall_refuse('the outbox keeps what it told');

-- The resolve of a turn queues the turn for every hook of its race.
CREATE FUNCTION pitwall_queue_turn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO outbox (hook_id, race_id, kind, turn, seq, created, due)
    SELECT id, NEW.race_id, 'turn', NEW.turn, NEW.seq, NEW.at, NEW.at
    FROM hooks WHERE race_id = NEW.race_id AND removed IS NULL;
    RETURN NULL;
END $$;

CREATE TRIGGER entries_outbox AFTER INSERT ON entries
FOR EACH ROW WHEN (NEW.kind = 'resolve') EXECUTE FUNCTION pitwall_queue_turn();
