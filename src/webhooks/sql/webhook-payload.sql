-- webhook_payload(entry_id, organizer_id, event_id, content_type, object_id, action, data) -> (code, payload)
--
-- The body of one webhook delivery for one audit log entry (pretix-compat.md §5 "Webhooks (outgoing
-- notifications)": payloads are minimal triggers, the receiver fetches the object through the API afterwards).
-- Called by webhook_outbox() (webhook-outbox.sql) once per log entry that at least one webhook listens to.
--
-- Inputs are the log entry's columns; `data` is its JSON data. Outputs: `code`, the order code of an order entry
-- (NULL otherwise; the sender keeps deliveries of one webhook and order code in order), and `payload`, the JSON
-- body. Every payload starts with `notification_id` (the log entry id) and `organizer` (the organizer's slug) and
-- carries `action` (the concrete log action, also when a webhook listens to a wildcard type). The first rule that
-- applies wins:
--   1. Check-in (content type `order`, action starting with `pretix.event.checkin`, e.g. `pretix.event.checkin`,
--      `pretix.event.checkin.reverted`): `event`, `code`, plus `orderposition_id`
--      (data.position), `orderposition_positionid` (that position's positionid, NULL when there is no such
--      position), `checkin_list` (data.list), `type` (data.type, default `entry`) and `first_checkin`
--      (data.first, default false).
--   2. Order (content type `order` with an order code): `event`, `code`. The code is the order's current code, or
--      data.code when the order is gone (a deleted order).
--   3. Sub-event (`pretix.subevent.*`): `event`, `subevent` (the entry's object id).
--   4. Item (`pretix.event.item.*`, variations, add-ons and bundles included): `event`, `item` (data.item, else
--      the entry's object id).
--   5. Voucher (`pretix.voucher.*`): `event`, `voucher` (the entry's object id).
--   6. Waiting list entry (`pretix.event.orders.waitinglist.*`): `event`, `waitinglistentry` (the entry's object id).
--   7. Customer (`pretix.customer.*`): `customer` (data.identifier); no event.
--   8. Any other event-bound entry: `event` only. For `pretix.event.deleted` the event row is gone: `event` is
--      the slug from data.slug, else data.event.
--   9. Organizer-level entries: `notification_id`, `organizer`, `action` only.
-- `event` is the event's slug. The function reads organizer, event, orders and order_position (the webhooks
-- context's one read of other contexts' tables, inside the database: it runs in the statement of the log entry).
--
-- Applied by migrations that read this file (src/webhooks/webhook-functions.ts): a change below the header needs a
-- new migration re-applying it with the new digest (test/webhook-functions.e2e-spec.ts fails until there is one).
CREATE OR REPLACE FUNCTION webhook_payload(
  entry_id bigint, organizer_id int, event_id int, content_type text, object_id int, action text, data jsonb,
  OUT code text, OUT payload json) LANGUAGE plpgsql STABLE AS $fn$
DECLARE
  org text;
  ev text;
  posid int;
BEGIN
  SELECT o.slug INTO org FROM organizer o WHERE o.id = organizer_id;
  IF event_id IS NOT NULL THEN SELECT e.slug INTO ev FROM event e WHERE e.id = event_id; END IF;
  IF action = 'pretix.event.deleted' THEN ev := coalesce(ev, data->>'slug', data->>'event'); END IF;
  IF content_type = 'order' THEN
    SELECT o.code INTO code FROM orders o WHERE o.id = object_id;
    code := coalesce(code, data->>'code');
  END IF;
  IF content_type = 'order' AND action LIKE 'pretix.event.checkin%' THEN
    SELECT p.positionid INTO posid FROM order_position p WHERE p.id = (data->>'position')::int;
    payload := json_build_object('notification_id', entry_id, 'organizer', org, 'event', ev, 'code', code,
      'action', action, 'orderposition_id', (data->>'position')::int, 'orderposition_positionid', posid,
      'checkin_list', (data->>'list')::int, 'type', coalesce(data->>'type', 'entry'),
      'first_checkin', coalesce((data->>'first')::boolean, false));
  ELSIF code IS NOT NULL THEN
    payload := json_build_object('notification_id', entry_id, 'organizer', org, 'event', ev, 'code', code,
      'action', action);
  ELSIF action LIKE 'pretix.subevent.%' THEN
    payload := json_build_object('notification_id', entry_id, 'organizer', org, 'event', ev,
      'subevent', object_id, 'action', action);
  ELSIF action LIKE 'pretix.event.item.%' THEN
    payload := json_build_object('notification_id', entry_id, 'organizer', org, 'event', ev,
      'item', coalesce((data->>'item')::int, object_id), 'action', action);
  ELSIF action LIKE 'pretix.voucher.%' THEN
    payload := json_build_object('notification_id', entry_id, 'organizer', org, 'event', ev,
      'voucher', object_id, 'action', action);
  ELSIF action LIKE 'pretix.event.orders.waitinglist.%' THEN
    payload := json_build_object('notification_id', entry_id, 'organizer', org, 'event', ev,
      'waitinglistentry', object_id, 'action', action);
  ELSIF action LIKE 'pretix.customer.%' THEN
    payload := json_build_object('notification_id', entry_id, 'organizer', org,
      'customer', data->>'identifier', 'action', action);
  ELSIF ev IS NOT NULL THEN
    payload := json_build_object('notification_id', entry_id, 'organizer', org, 'event', ev, 'action', action);
  ELSE
    payload := json_build_object('notification_id', entry_id, 'organizer', org, 'action', action);
  END IF;
END
$fn$;
