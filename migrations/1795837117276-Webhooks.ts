/**
 * Webhooks (compat §3.27, §5): configuration, the delivery outbox and the trigger on the audit log that fills it.
 */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class Webhooks1795837117276 implements MigrationInterface {
    name = 'Webhooks1795837117276'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "webhook" ("id" SERIAL NOT NULL, "organizer_id" integer NOT NULL, "enabled" boolean NOT NULL DEFAULT true, "target_url" character varying(500) NOT NULL, "all_events" boolean NOT NULL DEFAULT false, "limit_event_ids" integer array NOT NULL DEFAULT '{}', "action_types" character varying(100) array NOT NULL DEFAULT '{}', "comment" text, "secret" character varying(64) NOT NULL, CONSTRAINT "PK_e6765510c2d078db49632b59020" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_404e2848b8b6a5fc52ab834d28" ON "webhook" ("organizer_id") `);
        await queryRunner.query(`CREATE TABLE "webhook_delivery" ("id" BIGSERIAL NOT NULL, "uid" uuid NOT NULL, "webhook_id" integer NOT NULL, "log_entry_id" bigint NOT NULL, "action" character varying(100) NOT NULL, "order_code" character varying(16), "payload" json NOT NULL, "status" character varying(10) NOT NULL DEFAULT 'pending', "attempts" jsonb NOT NULL DEFAULT '[]', "next_attempt" TIMESTAMP WITH TIME ZONE, "claimed_until" TIMESTAMP WITH TIME ZONE, "give_up_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b1ae290239a778f12399db91354" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "IDX_f023f7468f6305a28c0f359bde" ON "webhook_delivery" ("uid") `);
        await queryRunner.query(`CREATE INDEX "IDX_58025cf73b2a9d5f7700958719" ON "webhook_delivery" ("created") `);
        await queryRunner.query(`CREATE INDEX "ix_webhook_delivery_chain" ON "webhook_delivery" ("webhook_id", "order_code", "id") WHERE status = 'pending'`);
        await queryRunner.query(`CREATE INDEX "ix_webhook_delivery_due" ON "webhook_delivery" ("next_attempt") WHERE status = 'pending'`);
        await queryRunner.query(`CREATE INDEX "ix_webhook_delivery_webhook_created" ON "webhook_delivery" ("webhook_id", "created") `);
        await queryRunner.query(`ALTER TABLE "webhook" ADD CONSTRAINT "FK_404e2848b8b6a5fc52ab834d289" FOREIGN KEY ("organizer_id") REFERENCES "organizer"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "webhook_delivery" ADD CONSTRAINT "FK_ef25cc28dcf88ea3dd81f39af2d" FOREIGN KEY ("webhook_id") REFERENCES "webhook"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    // The outbox (compat §5): every audit log entry whose action an enabled webhook of the organizer listens to
    // (and, for event-bound entries, with all_events or the event in limit_events) becomes one delivery row, in the
    // same statement and transaction as the log entry. One statement-level trigger per INSERT into log_entry;
    // with no enabled webhook of the organizer it stops after one index probe. A committed delivery is announced
    // with NOTIFY webhook_delivery (the worker listens; its sweep catches what a NOTIFY missed).
    await queryRunner.query(`
      CREATE FUNCTION webhook_payload(
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
        ELSIF action LIKE 'pretix.customer.%' THEN
          payload := json_build_object('notification_id', entry_id, 'organizer', org,
            'customer', data->>'identifier', 'action', action);
        ELSIF ev IS NOT NULL THEN
          payload := json_build_object('notification_id', entry_id, 'organizer', org, 'event', ev, 'action', action);
        ELSE
          payload := json_build_object('notification_id', entry_id, 'organizer', org, 'action', action);
        END IF;
      END
      $fn$`);
    await queryRunner.query(`
      CREATE FUNCTION webhook_outbox() RETURNS trigger LANGUAGE plpgsql AS $fn$
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
      $fn$`);
    await queryRunner.query(`
      CREATE TRIGGER webhook_outbox AFTER INSERT ON log_entry REFERENCING NEW TABLE AS new_entries
        FOR EACH STATEMENT EXECUTE FUNCTION webhook_outbox()`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP TRIGGER webhook_outbox ON log_entry`);
        await queryRunner.query(`DROP FUNCTION webhook_outbox()`);
        await queryRunner.query(`DROP FUNCTION webhook_payload(bigint, int, int, text, int, text, jsonb)`);
        await queryRunner.query(`ALTER TABLE "webhook_delivery" DROP CONSTRAINT "FK_ef25cc28dcf88ea3dd81f39af2d"`);
        await queryRunner.query(`ALTER TABLE "webhook" DROP CONSTRAINT "FK_404e2848b8b6a5fc52ab834d289"`);
        await queryRunner.query(`DROP INDEX "public"."ix_webhook_delivery_webhook_created"`);
        await queryRunner.query(`DROP INDEX "public"."ix_webhook_delivery_due"`);
        await queryRunner.query(`DROP INDEX "public"."ix_webhook_delivery_chain"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_58025cf73b2a9d5f7700958719"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_f023f7468f6305a28c0f359bde"`);
        await queryRunner.query(`DROP TABLE "webhook_delivery"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_404e2848b8b6a5fc52ab834d28"`);
        await queryRunner.query(`DROP TABLE "webhook"`);
    }

}
