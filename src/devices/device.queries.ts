import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  findManyInOne,
  findOneInOne,
  paginateInOne,
  relatedValue,
  RelatedSpec,
} from '../common/listing/page-query';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { preparedQuery } from '../common/persistence/prepared';
import { TenancyQueries } from '../organizers/tenancy.queries';
import { Device } from './device.entity';

/** The tenancy roots' fragments (stateless). */
const tenancy = new TenancyQueries();

/** A device's gate as the statements return it. */
export interface GateRef {
  id: number;
  name: string;
  identifier: string;
}

/** A device with the slugs of its `limit_events` (ascending) and its gate. */
export interface DeviceWithRelations {
  device: Device;
  limitEvents: string[];
  gate: GateRef | null;
  /** Slug of the device's organizer. */
  organizerSlug: string;
}

/** The device of the credential statement (snake_case JSON). */
export interface DeviceTokenRow {
  id: number;
  device_id: number;
  name: string;
  organizer_id: number;
  organizer_slug: string;
  security_profile: string;
  gate: { id: number; name: string } | null;
  all_events: boolean;
  event_ids: number[];
  initialized: boolean;
  revoked: boolean;
}

/** What the credential statement returns: the device, and the URL's organizer and event as JSON. */
export interface DeviceTokenResolutionRow {
  device: DeviceTokenRow | null;
  organizer: unknown;
  event: unknown;
}

const RELATED: RelatedSpec<{ limitEvents: string[]; gate: GateRef | null; organizerSlug: string }> = {
  organizerSlug: relatedValue<string>(`SELECT ${tenancy.organizerSlugOf('d.organizer_id')}`),
  limitEvents: relatedValue<string[]>(
    `SELECT coalesce(array_agg(s.slug ORDER BY s.slug), '{}') FROM
          (SELECT ${tenancy.eventSlugOf('dle.event_id')} AS slug FROM device_limit_event dle
            WHERE dle.device_id = d.id) s`,
  ),
  gate: relatedValue<GateRef | null>(
    `SELECT jsonb_build_object('id', g.id, 'name', g.name, 'identifier', g.identifier) FROM gate g
       WHERE g.id = d.gate_id`,
  ),
};

/** A device with its gate and `limit_events` ids as JSON ({@link DeviceTokenRow}), over {@link DEVICE_FROM}. */
const DEVICE_JSON = `jsonb_build_object('id', d.id, 'device_id', d.device_id, 'name', d.name,
    'organizer_id', d.organizer_id, 'organizer_slug', ${tenancy.organizerSlugOf('d.organizer_id')},
    'security_profile', d.security_profile,
    'gate', CASE WHEN g.id IS NULL THEN NULL ELSE jsonb_build_object('id', g.id, 'name', g.name) END,
    'all_events', d.all_events,
    'event_ids', ARRAY(SELECT dle.event_id FROM device_limit_event dle WHERE dle.device_id = d.id),
    'initialized', d.initialized IS NOT NULL, 'revoked', d.revoked)`;
const DEVICE_FROM = 'FROM device d LEFT JOIN gate g ON g.id = d.gate_id';

/** The credential statement's text per data source (it embeds the entity-shaped JSON of the tenancy roots). */
const tokenSql = new WeakMap<object, string>();

/**
 * The SQL of devices and their `limit_events` (pretix `Device`), and the one-statement credential resolution of
 * device tokens (README "API conventions"). Stateless; runs in the caller's `em`.
 */
@Injectable()
export class DeviceQueries {
  /**
   * The device with this API token hash (with its gate and `limit_events` ids), and the organizer and event of
   * the URL as JSON, in ONE prepared statement; all parts null when unknown.
   */
  /** The device with this database id as the credential statement shows it (JSON), or null. One statement. */
  async tokenRowById(em: EntityManager, id: number): Promise<DeviceTokenRow | null> {
    const rows = await preparedQuery<{ device: DeviceTokenRow }>(
      em,
      `SELECT ${DEVICE_JSON} AS device ${DEVICE_FROM} WHERE d.id = $1`,
      [id],
    );
    return rows[0]?.device ?? null;
  }

  async resolveToken(
    em: EntityManager,
    tokenHash: string,
    organizerSlug: string | null,
    eventSlug: string | null,
  ): Promise<DeviceTokenResolutionRow | undefined> {
    let sql = tokenSql.get(em.connection);
    if (sql === undefined) {
      sql = `SELECT
      (SELECT ${DEVICE_JSON} ${DEVICE_FROM} WHERE d.api_token_hash = $1) AS device,
      ${tenancy.organizerBySlug(em, '$2::varchar')} AS organizer,
      ${tenancy.eventBySlugs(em, '$2::varchar', '$3::varchar')} AS event`;
      tokenSql.set(em.connection, sql);
    }
    const rows = await preparedQuery<DeviceTokenResolutionRow>(em, sql, [
      tokenHash,
      organizerSlug,
      eventSlug,
    ]);
    return rows[0];
  }

  /** A page of the organizer's devices (by id) with `limit_events` and gate. One statement. */
  page(em: EntityManager, organizerId: number, page: PageRequest): Promise<Paginated<DeviceWithRelations>> {
    const qb = em
      .getRepository(Device)
      .createQueryBuilder('d')
      .where('d.organizer_id = :org', { org: organizerId })
      .orderBy('d.id', 'ASC');
    return paginateInOne(qb, page, RELATED, (device, r) => ({ device, ...r }));
  }

  /** The organizer's device number `deviceId` with `limit_events` and gate. One statement. @throws NotFound */
  one(em: EntityManager, organizerId: number, deviceId: number): Promise<DeviceWithRelations> {
    const qb = em
      .getRepository(Device)
      .createQueryBuilder('d')
      .where('d.organizer_id = :org AND d.device_id = :num', { org: organizerId, num: deviceId });
    return findOneInOne(qb, RELATED, (device, r) => ({ device, ...r }));
  }

  /** The organizer's devices with these database ids, with `limit_events` and gate. One statement. */
  byIds(em: EntityManager, organizerId: number, ids: readonly number[]): Promise<DeviceWithRelations[]> {
    const qb = em
      .getRepository(Device)
      .createQueryBuilder('d')
      .where('d.organizer_id = :org AND d.id = ANY(:ids)', { org: organizerId, ids: [...ids] });
    return findManyInOne(qb, RELATED, (device, r) => ({ device, ...r }));
  }

  /** The device with this database id with `limit_events` and gate. One statement. @throws NotFound */
  byId(em: EntityManager, id: number): Promise<DeviceWithRelations> {
    const qb = em.getRepository(Device).createQueryBuilder('d').where('d.id = :id', { id });
    return findOneInOne(qb, RELATED, (device, r) => ({ device, ...r }));
  }

  /**
   * The next `device_id` of the organizer (max + 1, from 1), after taking a transaction-scoped advisory lock on
   * the organizer's numbering so parallel creations get distinct numbers.
   */
  async nextDeviceId(em: EntityManager, organizerId: number): Promise<number> {
    await em.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`device_id:${organizerId}`]);
    const rows: { n: number }[] = await em.query(
      'SELECT coalesce(max(device_id), 0) + 1 AS n FROM device WHERE organizer_id = $1',
      [organizerId],
    );
    return Number(rows[0].n);
  }

  /** Replaces the device's `limit_events`. */
  async setLimitEvents(em: EntityManager, deviceId: number, eventIds: number[]): Promise<void> {
    await em.query('DELETE FROM device_limit_event WHERE device_id = $1', [deviceId]);
    if (eventIds.length > 0) {
      await em.query(
        'INSERT INTO device_limit_event (device_id, event_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING',
        [deviceId, eventIds],
      );
    }
  }

  /**
   * The device with this initialization token, locked `FOR UPDATE` (so that parallel initializations with one
   * token are serialised and only the first sees it uninitialized), or null.
   */
  async lockByInitializationToken(em: EntityManager, token: string): Promise<Device | null> {
    return em
      .getRepository(Device)
      .findOne({ where: { initializationToken: token }, lock: { mode: 'pessimistic_write' } });
  }

  /** Whether a device already has this unique serial or initialization token (regenerate on a hit). */
  async secretTaken(em: EntityManager, serial: string, initToken: string): Promise<boolean> {
    const rows: unknown[] = await em.query(
      'SELECT 1 FROM device WHERE unique_serial = $1 OR initialization_token = $2 LIMIT 1',
      [serial, initToken],
    );
    return rows.length > 0;
  }
}
