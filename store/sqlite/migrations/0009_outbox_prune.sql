-- 0009: the outbox is cleaned up. A delivery once settled (delivered,
-- failed, skipped, removed) may be deleted: the service deletes those done
-- more than 30 days ago, save each race's latest, in small batches. A
-- delivery still to be sent is never deleted: what is to be told is kept
-- until it is told or given up.

DROP TRIGGER outbox_no_delete;
CREATE TRIGGER outbox_no_delete BEFORE DELETE ON outbox WHEN OLD.outcome = ''
BEGIN SELECT RAISE(ABORT, 'the outbox keeps what it has still to tell'); END;

-- The cleanup's look for what is done, by when.
CREATE INDEX outbox_done ON outbox (done) WHERE outcome <> '';
