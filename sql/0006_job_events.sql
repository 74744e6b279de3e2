-- Job events (GET /render-build/:jobId/events, `render-farm jobs watch`): every change of a
-- render's status or progress is recorded and announced with NOTIFY, whichever process made it
-- (worker, sweeper, retry), so any serve process can stream it and a client can resume from
-- the last event id it saw (SSE Last-Event-ID).
CREATE TABLE render_events (
  id          bigserial PRIMARY KEY,
  render_id   uuid NOT NULL REFERENCES renders(id) ON DELETE CASCADE,
  kind        text NOT NULL CHECK (kind IN ('status', 'progress')),
  status      text NOT NULL,
  progress    real NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX render_events_render ON render_events (render_id, id);

CREATE FUNCTION render_farm_render_event() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ev_kind text;
  ev_id   bigint;
BEGIN
  IF NEW.status IS DISTINCT FROM OLD.status THEN
    ev_kind := 'status';
  ELSIF NEW.progress IS DISTINCT FROM OLD.progress THEN
    ev_kind := 'progress';
  ELSE
    RETURN NULL;
  END IF;
  INSERT INTO render_events (render_id, kind, status, progress)
    VALUES (NEW.id, ev_kind, NEW.status, NEW.progress) RETURNING id INTO ev_id;
  -- a finished render's progress rows are no longer worth replaying: keep the table small
  IF ev_kind = 'status' AND NEW.status IN ('completed', 'error') THEN
    DELETE FROM render_events WHERE render_id = NEW.id AND kind = 'progress';
  END IF;
  -- delivered at commit, to every session that LISTENs (one per serve process)
  PERFORM pg_notify('render_farm_render_events',
    json_build_object('id', ev_id, 'render', NEW.id, 'kind', ev_kind, 'status', NEW.status, 'progress', NEW.progress)::text);
  RETURN NULL;
END $$;

CREATE TRIGGER renders_events AFTER UPDATE OF status, progress ON renders
  FOR EACH ROW EXECUTE FUNCTION render_farm_render_event();
