-- Webhooks: customers register URLs; when a render a customer's job points at ends
-- (completed or error), a delivery row is written and a graphile-worker `webhook` job queued,
-- in the same transaction as the status change. Delivery runs outside the render workers.
CREATE TABLE webhooks (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  customer_id  uuid NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  url          text NOT NULL,
  -- kept in clear: every delivery is signed with it (HMAC); shown to the customer once
  secret       text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  disabled_at  timestamptz
);
CREATE INDEX webhooks_customer ON webhooks (customer_id) WHERE disabled_at IS NULL;

CREATE TABLE webhook_deliveries (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  webhook_id       uuid NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  job_id           uuid NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  event            text NOT NULL CHECK (event IN ('job.completed', 'job.error')),
  status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts         integer NOT NULL DEFAULT 0,
  response_status  integer,
  last_error       text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  last_attempt_at  timestamptz,
  finished_at      timestamptz
);
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, created_at DESC);
CREATE INDEX webhook_deliveries_job ON webhook_deliveries (job_id);

CREATE FUNCTION render_farm_queue_webhooks() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  queued integer;
BEGIN
  -- a subtransaction: whatever goes wrong here must never undo the render's completion
  BEGIN
    WITH d AS (
      INSERT INTO webhook_deliveries (webhook_id, job_id, event)
      SELECT w.id, j.id, CASE NEW.status WHEN 'completed' THEN 'job.completed' ELSE 'job.error' END
        FROM jobs j
        JOIN webhooks w ON w.customer_id = j.customer_id AND w.disabled_at IS NULL
       WHERE j.render_id = NEW.id
      RETURNING id
    )
    SELECT count(graphile_worker.add_job('webhook', json_build_object('deliveryId', d.id), max_attempts := 10))
      INTO queued FROM d;
  EXCEPTION WHEN OTHERS THEN
    RAISE WARNING 'render-farm: webhooks for render % not queued: %', NEW.id, SQLERRM;
  END;
  RETURN NULL;
END $$;

CREATE TRIGGER renders_webhooks AFTER UPDATE OF status ON renders
  FOR EACH ROW
  WHEN (NEW.status IN ('completed', 'error') AND OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION render_farm_queue_webhooks();
