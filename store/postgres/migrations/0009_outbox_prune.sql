-- 0009: the outbox is cleaned up (the SQLite store's version 9). A
-- delivery once settled (delivered, failed, skipped, removed) may be
-- deleted: the service deletes those done more than 30 days ago, save each
-- race's latest, in small batches. A delivery still to be sent is never
-- deleted, and TRUNCATE stays refused.

DROP TRIGGER outbox_no_delete ON outbox;

CREATE FUNCTION pitwall_outbox_pending_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.outcome = '' THEN
        RAISE EXCEPTION 'the outbox keeps what it has still to tell' USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN OLD;
END $$;

CREATE TRIGGER outbox_no_delete BEFORE DELETE ON outbox
FOR EACH ROW EXECUTE FUNCTION pitwall_outbox_pending_kept();

-- The cleanup's look for what is done, by when.
CREATE INDEX outbox_done ON outbox (done) WHERE outcome <> '';
