-- POST /api/v1/organizers/:organizer/giftcards/:id/transact/ (a debit)
-- 6 statements. Written by test/sql-snapshots.e2e-spec.ts; do not edit by hand:
-- UPDATE_SQL_SNAPSHOTS=1 npm test -- test/sql-snapshots

-- prepared statement
SELECT (SELECT jsonb_build_object('token_id', tok.id, 'token_name', tok.name, 'active', tok.active, 'grant', jsonb_build_object('team_id', team.id, 'team_name', team.name, 'organizer_id', team.organizer_id, 'organizer_slug', (SELECT so.slug FROM organizer so WHERE so.id = team.organizer_id), 'all_events', team.all_events, 'event_ids', ARRAY(SELECT tle.event_id FROM team_limit_event tle WHERE tle.team_id = team.id), 'all_event_permissions', team.all_event_permissions, 'limit_event_permissions', team.limit_event_permissions, 'all_organizer_permissions', team.all_organizer_permissions, 'limit_organizer_permissions', team.limit_organizer_permissions)) FROM team_api_token tok JOIN team ON team.id = tok.team_id WHERE tok.token_hash = $1) AS token, (SELECT jsonb_build_object('id', o."id", 'name', o."name", 'slug', o."slug", 'created', o."created") FROM organizer o WHERE o.slug = $2::varchar) AS organizer, (SELECT jsonb_build_object('id', e."id", 'organizer_id', e."organizer_id", 'name', e."name", 'slug', e."slug", 'live', e."live", 'testmode', e."testmode", 'currency', e."currency", 'date_from', e."date_from", 'date_to', e."date_to", 'date_admission', e."date_admission", 'is_public', e."is_public", 'presale_start', e."presale_start", 'presale_end', e."presale_end", 'location', e."location", 'geo_lat', e."geo_lat", 'geo_lon', e."geo_lon", 'has_subevents', e."has_subevents", 'timezone', e."timezone", 'meta_data', e."meta_data", 'seating_plan_id', e."seating_plan_id", 'seat_category_mapping', e."seat_category_mapping", 'all_sales_channels', e."all_sales_channels", 'limit_sales_channels', e."limit_sales_channels", 'catalogue_version', e."catalogue_version"::text, 'created', e."created", 'last_modified', e."last_modified") FROM event e JOIN organizer eo ON eo.id = e.organizer_id WHERE eo.slug = $2::varchar AND e.slug = $3::varchar) AS event;

START TRANSACTION;

UPDATE "giftcard" SET "value" = "value" + $1 WHERE "id" = $2 AND giftcard.issuer_id = $3 AND "value" + $1 >= 0 RETURNING *;

INSERT INTO "giftcard_transaction"("giftcard_id", "datetime", "value", "text", "info", "acceptor_id", "event_id", "order_id", "payment_id", "refund_id") VALUES ($1, DEFAULT, $2, $3, $4, $5, DEFAULT, DEFAULT, DEFAULT, DEFAULT) RETURNING "id", "datetime";

INSERT INTO log_entry (organizer_id, event_id, content_type, object_id, action_type, data, user_id, api_token_id, device_id, oauth_application_id) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10);

COMMIT;
