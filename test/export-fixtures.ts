import type { DataSource } from 'typeorm';
import { OAuthTokensService } from '../src/oauth/oauth-tokens.service';
import type { TestApp } from './harness';
import { userWithApp } from './oauth-helpers';

/**
 * `orders` orders of `positionsPerOrder` positions each for one item, written straight to the tables with
 * `generate_series` (a fixture for exports and their benchmark, not a sale: quotas are not counted). Order codes
 * are `<prefix>00001`, ...; every third order is pending (`n`) unless `status` is given, the rest paid.
 */
export async function seedOrders(
  db: DataSource,
  o: {
    organizerId: number;
    eventId: number;
    itemId: number;
    orders: number;
    positionsPerOrder?: number;
    prefix?: string;
    status?: 'p' | 'n';
  },
): Promise<void> {
  const per = o.positionsPerOrder ?? 1;
  await db.query(
    `WITH o AS (
       INSERT INTO orders (event_id, organizer_id, code, status, secret, email, datetime, expires, total)
       SELECT $1, $2, $3 || lpad(g::text, 5, '0'),
              coalesce($6::char, CASE WHEN g % 3 = 0 THEN 'n' ELSE 'p' END),
              md5('s' || $3 || g), 'buyer' || g || '@example.com', now() - interval '1 hour',
              now() + interval '10 days', 10.00 * $5
         FROM generate_series(1, $4) g
       RETURNING id, email)
     INSERT INTO order_position (order_id, event_id, positionid, item_id, price, secret, pseudonymization_id,
                                 attendee_name_parts, attendee_email)
     SELECT o.id, $1, p, $7, 10.00, md5('p' || o.id || '-' || p), left(md5('x' || o.id || '-' || p), 16),
            jsonb_build_object('given_name', 'Ann', 'family_name', 'Attendee' || o.id), o.email
       FROM o, generate_series(1, $5) p`,
    [o.eventId, o.organizerId, o.prefix ?? 'ORD', o.orders, per, o.status ?? null, o.itemId],
  );
}

/** A user with an OAuth access token (scopes read and write) for the organizers given, member of `teamIds`. */
export async function userBearer(
  t: TestApp,
  email: string,
  organizerIds: number[],
  teamIds: number[],
): Promise<{ userId: number; bearer: string }> {
  const app = await userWithApp(t, email);
  for (const team of teamIds)
    await t.db.query('INSERT INTO team_member (team_id, user_id) VALUES ($1, $2)', [team, app.userId]);
  const tokens = await t.app.get(OAuthTokensService).issue({
    applicationId: app.applicationId,
    userId: app.userId,
    scopes: ['read', 'write'],
    organizerIds,
    codeId: null,
  });
  return { userId: app.userId, bearer: `Bearer ${tokens.accessToken}` };
}

/** Creates a team with the given grants straight in the tables; returns its id. */
export async function team(
  db: DataSource,
  organizerId: number,
  spec: { allEvents: boolean; eventPermissions: string[]; organizerPermissions: string[] },
): Promise<number> {
  const rows: { id: number }[] = await db.query(
    `INSERT INTO team (organizer_id, name, all_events, all_event_permissions, limit_event_permissions,
                       all_organizer_permissions, limit_organizer_permissions)
     VALUES ($1, $2, $3, false, $4, false, $5) RETURNING id`,
    [
      organizerId,
      `team-${Math.random().toString(36).slice(2, 8)}`,
      spec.allEvents,
      spec.eventPermissions,
      spec.organizerPermissions,
    ],
  );
  return rows[0].id;
}
