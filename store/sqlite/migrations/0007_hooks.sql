-- 0007: a race's webhooks and their outbox. Neither is part of the race: a
-- race replays and verifies without them, and an export leaves them out.
--
-- hooks: one row a webhook; it changes once, when it is removed.
-- outbox: one row a thing to tell a hook. A resolved turn's rows are written
-- by the trigger below, in the statement (so the transaction) that stores
-- the resolve: a turn is never resolved without them, nor they without it.
-- A row changes as it is claimed, tried and settled; once settled it stays.

CREATE TABLE hooks (
    id          INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    race_id     TEXT    NOT NULL REFERENCES races (id),
    url         TEXT    NOT NULL,
    format      TEXT    NOT NULL CHECK (format IN ('json', 'discord')),
    events      TEXT    NOT NULL,  -- the events asked for, comma-separated
    warn_before INTEGER NOT NULL CHECK (warn_before >= 0),  -- nanoseconds
    secret      TEXT    NOT NULL,
    key         TEXT    NOT NULL,
    created     TEXT    NOT NULL,
    removed     TEXT
) STRICT;

CREATE INDEX hooks_race ON hooks (race_id, id);
CREATE UNIQUE INDEX hooks_key ON hooks (race_id, key) WHERE key <> '';

CREATE TRIGGER hooks_only_removed BEFORE UPDATE ON hooks
WHEN OLD.removed IS NOT NULL OR NEW.removed IS NULL OR NEW.id <> OLD.id OR NEW.race_id <> OLD.race_id
     OR NEW.url <> OLD.url OR NEW.format <> OLD.format OR NEW.events <> OLD.events
     OR NEW.warn_before <> OLD.warn_before OR NEW.secret <> OLD.secret OR NEW.key <> OLD.key
     OR NEW.created <> OLD.created
BEGIN SELECT RAISE(ABORT, 'a webhook only ever changes by being removed'); END;
CREATE TRIGGER hooks_no_delete BEFORE DELETE ON hooks
BEGIN SELECT RAISE(ABORT, 'a webhook only ever changes by being removed'); END;

CREATE TABLE outbox (
    id       INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    hook_id  INTEGER NOT NULL REFERENCES hooks (id),
    race_id  TEXT    NOT NULL REFERENCES races (id),
    kind     TEXT    NOT NULL CHECK (kind IN ('turn', 'warning')),
    turn     INTEGER NOT NULL,
    seq      INTEGER NOT NULL,  -- turn: the resolve's entry; warning: 0
    deadline TEXT,              -- warning: the deadline warned of
    created  TEXT    NOT NULL,
    due      TEXT    NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    claim    TEXT    NOT NULL DEFAULT '',
    held     TEXT,              -- the claim holds the row until then
    outcome  TEXT    NOT NULL DEFAULT '' CHECK (outcome IN ('', 'delivered', 'failed', 'skipped', 'removed')),
    done     TEXT,
    error    TEXT    NOT NULL DEFAULT '',
    CHECK ((kind = 'warning') = (deadline IS NOT NULL)),
    CHECK ((outcome = '') = (done IS NULL))
) STRICT;

-- A turn is told to a hook once; a deadline is warned of once.
CREATE UNIQUE INDEX outbox_turn ON outbox (hook_id, turn) WHERE kind = 'turn';
CREATE UNIQUE INDEX outbox_warning ON outbox (hook_id, turn, deadline) WHERE kind = 'warning';
-- What to send next: the pending rows, by when they are due.
CREATE INDEX outbox_pending ON outbox (due) WHERE outcome = '';
CREATE INDEX outbox_race ON outbox (race_id, id);

-- A settled row stays as it was settled.
CREATE TRIGGER outbox_settled BEFORE UPDATE ON outbox
WHEN OLD.outcome <> '' OR NEW.id <> OLD.id OR NEW.hook_id <> OLD.hook_id OR NEW.race_id <> OLD.race_id
     OR NEW.kind <> OLD.kind OR NEW.turn <> OLD.turn OR NEW.seq <> OLD.seq OR NEW.created <> OLD.created
BEGIN SELECT RAISE(ABORT, 'a delivery once settled stays as it was'); END;
CREATE TRIGGER outbox_no_delete BEFORE DELETE ON outbox
BEGIN SELECT RAISE(ABORT, 'the outbox keeps what it told'); END;

-- The resolve of a turn queues the turn for every hook of its race.
CREATE TRIGGER entries_outbox AFTER INSERT ON entries WHEN NEW.kind = 'resolve'
BEGIN
    INSERT INTO outbox (hook_id, race_id, kind, turn, seq, created, due)
    SELECT id, NEW.race_id, 'turn', NEW.turn, NEW.seq, NEW.at, NEW.at
    FROM hooks WHERE race_id = NEW.race_id AND removed IS NULL;
END;
