-- 0003: the races row and the log refuse every change but an append.
--
-- UPDATE and DELETE are refused outright. INSERT OR REPLACE (and REPLACE
-- INTO) would delete the row it collides with without firing a DELETE
-- trigger, so an insert that collides with a stored row is refused before
-- SQLite resolves the conflict. Someone holding the file can still drop a
-- trigger: the hash chain, and a head once published, catch that.

CREATE TRIGGER races_no_update BEFORE UPDATE ON races
BEGIN SELECT RAISE(ABORT, 'a race''s definition never changes'); END;
CREATE TRIGGER races_no_delete BEFORE DELETE ON races
BEGIN SELECT RAISE(ABORT, 'races are kept'); END;
CREATE TRIGGER races_no_replace BEFORE INSERT ON races
WHEN EXISTS (SELECT 1 FROM races WHERE id = NEW.id)
BEGIN SELECT RAISE(ABORT, 'a race''s definition never changes'); END;

CREATE TRIGGER entries_no_update BEFORE UPDATE ON entries
BEGIN SELECT RAISE(ABORT, 'entries are append-only'); END;
CREATE TRIGGER entries_no_delete BEFORE DELETE ON entries
BEGIN SELECT RAISE(ABORT, 'entries are append-only'); END;
CREATE TRIGGER entries_no_replace BEFORE INSERT ON entries
WHEN EXISTS (SELECT 1 FROM entries WHERE race_id = NEW.race_id
             AND (seq = NEW.seq OR (NEW.key <> '' AND key = NEW.key)
                  OR (NEW.kind = 'resolve' AND kind = 'resolve' AND turn = NEW.turn)))
BEGIN SELECT RAISE(ABORT, 'entries are append-only'); END;

CREATE TRIGGER turns_no_update BEFORE UPDATE ON turns
BEGIN SELECT RAISE(ABORT, 'saved turns are append-only'); END;
CREATE TRIGGER turns_no_delete BEFORE DELETE ON turns
BEGIN SELECT RAISE(ABORT, 'saved turns are append-only'); END;
CREATE TRIGGER turns_no_replace BEFORE INSERT ON turns
WHEN EXISTS (SELECT 1 FROM turns WHERE race_id = NEW.race_id AND turn = NEW.turn)
BEGIN SELECT RAISE(ABORT, 'saved turns are append-only'); END;
