-- 0008: on PostgreSQL, every entry appended is announced to the other
-- instances serving the database (LISTEN/NOTIFY). SQLite has no such thing,
-- and one service serves a SQLite file (the command line may write beside
-- it, and is seen within a second): nothing changes here. The version
-- stays, so that a version means the same in both stores.
SELECT 1;
