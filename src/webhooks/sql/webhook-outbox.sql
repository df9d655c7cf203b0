-- webhook_outbox(): statement-level AFTER INSERT trigger on log_entry (trigger `webhook_outbox`, transition table
-- `new_entries`), the webhook outbox (architecture.md "webhooks/"; pretix-compat.md §5 "Webhooks (outgoing
-- notifications)", fan-out and delivery).
--
-- Rules, in words:
--   * Fan-out: a new log entry becomes one delivery per enabled webhook of the entry's organizer that listens to
--     its action type and, for an event-bound entry (event_id set), has all_events or the event in
--     limit_event_ids. A webhook listens to an action type when one of its action_types equals it or is a
--     wildcard `<prefix>.*` whose `<prefix>.` the action type starts with (`pretix.event.order.changed.*` matches
--     `pretix.event.order.changed.item`, not `pretix.event.order.changed`).
--   * The delivery row (webhook_delivery): a fresh uid (the `webhook-id` header), the log entry id, the concrete
--     action, the order code and JSON payload of webhook_payload() (webhook-payload.sql), pending, due now, given
--     up after 3 days. Rows are inserted in log entry id, then webhook id order.
--   * Same statement and transaction as the log entry: a change that rolls back leaves no delivery.
--   * Cheap when nobody listens: with no enabled webhook of the entries' organizers it stops after one index probe.
--   * When at least one delivery was written it notifies channel `webhook_delivery` (delivered on commit; the
--     worker listens, and its sweep catches what a missed notification left behind).
--
-- Applied by migrations that read this file (src/webhooks/webhook-functions.ts): a change below the header needs a
-- new migration re-applying it with the new digest (test/webhook-functions.e2e-spec.ts fails until there is one). The
-- trigger itself was created with the first version of this function (migrations/1795837117276-Webhooks.ts).
CREATE OR REPLACE FUNCTION webhook_outbox() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  n int;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhook w
                  WHERE w.enabled AND w.organizer_id IN (SELECT e.organizer_id FROM new_entries e)) THEN
    RETURN NULL;
  END IF;
  WITH matches AS (
    SELECT e.id AS entry_id, w.id AS webhook_id
      FROM new_entries e
      JOIN webhook w ON w.organizer_id = e.organizer_id AND w.enabled
       AND (e.event_id IS NULL OR w.all_events OR e.event_id = ANY (w.limit_event_ids))
       AND EXISTS (SELECT 1 FROM unnest(w.action_types) t
                    WHERE t = e.action_type
                       OR (right(t, 2) = '.*' AND starts_with(e.action_type, left(t, -1))))
  ), payloads AS (
    SELECT e.id, e.action_type, p.code, p.payload
      FROM new_entries e
      CROSS JOIN LATERAL webhook_payload(e.id, e.organizer_id, e.event_id, e.content_type::text, e.object_id,
                                         e.action_type::text, e.data) p
     WHERE e.id IN (SELECT m.entry_id FROM matches m)
  ), inserted AS (
    INSERT INTO webhook_delivery (uid, webhook_id, log_entry_id, action, order_code, payload, next_attempt,
                                  give_up_at)
    SELECT gen_random_uuid(), m.webhook_id, m.entry_id, p.action_type, p.code, p.payload, now(),
           now() + interval '3 days'
      FROM matches m JOIN payloads p ON p.id = m.entry_id
     ORDER BY m.entry_id, m.webhook_id
    RETURNING 1
  )
  SELECT count(*) INTO n FROM inserted;
  IF n > 0 THEN PERFORM pg_notify('webhook_delivery', ''); END IF;
  RETURN NULL;
END
$fn$;
