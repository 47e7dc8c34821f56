-- 0008: every entry appended is announced on the channel pitwall_log, so
-- that each instance serving the database learns of another's writes at
-- once (its streams wake, the race it keeps in memory is read again). The
-- payload is the race's id and the writer's application_name (each
-- instance's own), so an instance can pass over its own writes;
-- PostgreSQL sends a transaction's equal payloads once, at its commit.

CREATE FUNCTION pitwall_announce() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('pitwall_log', NEW.race_id || ' ' || current_setting('application_name'));
    RETURN NULL;
END $$;

CREATE TRIGGER entries_announce AFTER INSERT ON entries
FOR EACH ROW EXECUTE FUNCTION pitwall_announce();
