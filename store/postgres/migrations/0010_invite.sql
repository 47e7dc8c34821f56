-- 0010: races that take their racers by invite (the SQLite store's
-- version 10, in PostgreSQL's types). An invite race's access says so: it
-- takes entrants until its host starts it. A link may be an invite (role
-- 'invite': it opens a join and nothing else), and a racer's link made
-- before the start names its racer (racer), not its seat: the seats are
-- only known once the race is set up (its grid may be drawn by lot). A
-- seat's link names its seat or its racer, never both.

ALTER TABLE access ADD COLUMN invite boolean NOT NULL DEFAULT false;

ALTER TABLE tokens ADD COLUMN racer text NOT NULL DEFAULT '';
ALTER TABLE tokens DROP CONSTRAINT tokens_role_check;
ALTER TABLE tokens DROP CONSTRAINT tokens_check; -- the seat's check, as PostgreSQL named it
ALTER TABLE tokens ADD CONSTRAINT tokens_role_check CHECK (role IN ('host', 'seat', 'spectator', 'invite'));
ALTER TABLE tokens ADD CONSTRAINT tokens_seat_check CHECK (seat >= -1 AND (role = 'seat') = (seat >= 0 OR racer <> ''));
ALTER TABLE tokens ADD CONSTRAINT tokens_racer_check CHECK (seat < 0 OR racer = '');

CREATE OR REPLACE FUNCTION pitwall_token_revoked_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.revoked IS NOT NULL OR NEW.revoked IS NULL OR NEW.hash <> OLD.hash OR NEW.race_id <> OLD.race_id
       OR NEW.role <> OLD.role OR NEW.seat <> OLD.seat OR NEW.racer <> OLD.racer OR NEW.created <> OLD.created THEN
        RAISE EXCEPTION 'a link only ever changes by being revoked';
    END IF;
    RETURN NEW;
END $$;
