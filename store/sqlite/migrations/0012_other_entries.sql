-- 0012: entries_kinds (0004) held every entry, orders too, though a load
-- asks it only for the entries that are not orders: every order paid for
-- one more index to write in its commit. entries_others holds only those
-- others, so an order's append writes the table, its key and
-- entries_orders, and nothing more.
DROP INDEX entries_kinds;
CREATE INDEX entries_others ON entries (race_id, seq) WHERE kind <> 'order';
