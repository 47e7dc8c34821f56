-- 0003: the races row and the log refuse every change but an append.
--
-- UPDATE, DELETE and TRUNCATE are refused outright. An INSERT that collides
-- with a stored row fails on the primary key or a unique index; INSERT ... ON
-- CONFLICT DO UPDATE and MERGE go through the UPDATE trigger, so they cannot
-- overwrite either. The table's owner can still drop or disable a trigger:
-- the hash chain, and a head once published, catch that.

CREATE TRIGGER races_no_update BEFORE UPDATE ON races
FOR EACH ROW EXECUTE FUNCTION pitwall_refuse('a race''s definition never changes');
CREATE TRIGGER races_no_delete BEFORE DELETE ON races
FOR EACH ROW EXECUTE FUNCTION pitwall_refuse('races are kept');
CREATE TRIGGER races_no_truncate BEFORE TRUNCATE ON races
FOR EACH STATEMENT EXECUTE FUNCTION pitwall_refuse('races are kept');

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
