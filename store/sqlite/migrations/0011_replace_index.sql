-- 0011: the trigger that keeps INSERT OR REPLACE from overwriting a stored
-- entry looks its collisions up by index. 0003's one condition (seq, or
-- key, or a resolve's turn, ORed) could only be answered by reading every
-- entry of the race, so each append cost more the longer its race ran.
-- Each probe below names the columns of one index (for the partial ones,
-- their WHERE too), so an append costs the same at any length.

DROP TRIGGER entries_no_replace;
CREATE TRIGGER entries_no_replace BEFORE INSERT ON entries
WHEN EXISTS (SELECT 1 FROM entries WHERE race_id = NEW.race_id AND seq = NEW.seq)
  OR (NEW.key <> '' AND EXISTS (SELECT 1 FROM entries WHERE race_id = NEW.race_id AND key = NEW.key AND key <> ''))
  OR (NEW.kind = 'resolve' AND EXISTS (SELECT 1 FROM entries WHERE race_id = NEW.race_id AND turn = NEW.turn AND kind = 'resolve'))
BEGIN SELECT RAISE(ABORT, 'entries are append-only'); END;
