-- 0011: SQLite's trigger against INSERT OR REPLACE on entries looks its
-- collisions up by index. PostgreSQL has no such trigger (a colliding
-- insert fails on the key or a unique index, and ON CONFLICT DO UPDATE
-- meets the UPDATE trigger), so its schema is the same at this version.

SELECT 1;
