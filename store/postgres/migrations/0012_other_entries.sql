-- 0012: entries_kinds (0004) held every entry, orders too, though a load
-- asks it only for the entries that are not orders: every order paid for
-- one more index to write. entries_others holds only those others (as
-- SQLite's 0012).
DROP INDEX entries_kinds;
CREATE INDEX entries_others ON entries (race_id, seq) WHERE kind <> 'order';
