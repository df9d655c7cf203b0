import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { AuditLogService } from '../audit/audit-log.service';
import { ChangeRenderer, ChangeRenderScope, RendersChanges } from '../audit/change-renderer';
import { refIds, type ObjectRef } from '../common/listing/object-refs';
import type { Principal } from '../auth/principal';
import { invalidPk, ValidationFailed } from '../common/errors';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { findOrNotFound } from '../common/persistence/find';
import { randomString } from '../common/values/random';
import type { Organizer } from '../organizers/organizer.entity';
import { TenancyQueries } from '../organizers/tenancy.queries';
import type { CreateDeviceDto, UpdateDeviceDto } from './device.dto';
import { Device } from './device.entity';
import { DeviceJson, toDeviceJson } from './device.presenter';
import { DeviceQueries } from './device.queries';
import { Gate } from './gate.entity';

const SERIAL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const INIT_TOKEN_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Whether the principal may see initialization tokens of the organizer's devices (`organizer.devices:write`). */
function canSeeTokens(principal: Principal, organizerId: number): boolean {
  return principal.organizerPermissions(organizerId).has('organizer.devices:write');
}

/**
 * Devices of an organizer (`O/devices/`, pretix `DeviceViewSet`): list, detail by `device_id`, create (answers
 * the one-time `initialization_token`) and PATCH; never deleted. Writes log `pretix.device.created` /
 * `pretix.device.changed` with the request body.
 */
@Injectable()
@RendersChanges('device')
export class DevicesService implements ChangeRenderer {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly audit: AuditLogService,
    private readonly tenancy: TenancyQueries,
    private readonly queries: DeviceQueries,
  ) {}

  /** A page of the organizer's devices by id. One statement. */
  async list(organizer: Organizer, principal: Principal, page: PageRequest): Promise<Paginated<DeviceJson>> {
    const found = await this.queries.page(this.db, organizer.id, page);
    const show = canSeeTokens(principal, organizer.id);
    return found.withItems(found.items.map((r) => toDeviceJson(r, show)));
  }

  /** The change feed's devices (by database id) as {@link get} answers them. One statement. */
  async renderChanges(scope: ChangeRenderScope, refs: readonly ObjectRef[]): Promise<Map<number, unknown>> {
    const found = await this.queries.byIds(this.db, scope.organizer.id, refIds(refs));
    const show = canSeeTokens(scope.principal, scope.organizer.id);
    return new Map(found.map((r) => [r.device.id, toDeviceJson(r, show)]));
  }

  /** @throws NotFound for a number no device of this organizer has */
  async get(organizer: Organizer, principal: Principal, deviceId: number): Promise<DeviceJson> {
    return toDeviceJson(
      await this.queries.one(this.db, organizer.id, deviceId),
      canSeeTokens(principal, organizer.id),
    );
  }

  /**
   * Creates a device (201) with the organizer's next `device_id` (serialised per organizer), a new unique serial
   * and a one-time initialization token.
   * @throws ValidationFailed on unknown `limit_events` slugs or a `gate` of another organizer
   */
  async create(organizer: Organizer, principal: Principal, body: CreateDeviceDto): Promise<DeviceJson> {
    return this.db.transaction(async (em) => {
      const eventIds = await this.eventIds(em, organizer, body.limit_events);
      await this.checkGate(em, organizer, body.gate);
      const { serial, initToken } = await this.newSecrets(em);
      const device = em.create(Device, {
        organizerId: organizer.id,
        deviceId: await this.queries.nextDeviceId(em, organizer.id),
        uniqueSerial: serial,
        initializationToken: initToken,
        apiTokenHash: null,
        allEvents: body.all_events ?? false,
        revoked: false,
        name: body.name,
        securityProfile: body.security_profile ?? 'full',
        gateId: body.gate ?? null,
        initialized: null,
        info: null,
      });
      await em.save(device);
      await this.queries.setLimitEvents(em, device.id, eventIds);
      await this.audit.record(em, principal, {
        organizerId: organizer.id,
        contentType: 'device',
        objectId: device.id,
        action: 'pretix.device.created',
        data: { ...body, id: device.id },
      });
      return toDeviceJson(await this.queries.byId(em, device.id), canSeeTokens(principal, organizer.id));
    });
  }

  /**
   * Changes the writable fields sent (`name`, `all_events`, `limit_events`, `security_profile`, `gate`); the
   * device's hardware and software fields are read-only here (they come from the device).
   * @throws NotFound for a number no device of this organizer has
   * @throws ValidationFailed as for create
   */
  async update(
    organizer: Organizer,
    principal: Principal,
    deviceId: number,
    body: UpdateDeviceDto,
  ): Promise<DeviceJson> {
    return this.db.transaction(async (em) => {
      const device = await findOrNotFound(em, Device, { organizerId: organizer.id, deviceId }, true);
      const eventIds =
        body.limit_events !== undefined ? await this.eventIds(em, organizer, body.limit_events) : null;
      await this.checkGate(em, organizer, body.gate);
      if (body.name !== undefined) device.name = body.name;
      if (body.all_events !== undefined) device.allEvents = body.all_events;
      if (body.security_profile !== undefined) device.securityProfile = body.security_profile;
      if (body.gate !== undefined) device.gateId = body.gate;
      await em.save(device);
      if (eventIds) await this.queries.setLimitEvents(em, device.id, eventIds);
      await this.audit.record(em, principal, {
        organizerId: organizer.id,
        contentType: 'device',
        objectId: device.id,
        action: 'pretix.device.changed',
        data: { ...body },
      });
      return toDeviceJson(await this.queries.byId(em, device.id), canSeeTokens(principal, organizer.id));
    });
  }

  /** Ids of the organizer's events with these slugs. @throws ValidationFailed naming `limit_events` */
  private async eventIds(
    em: EntityManager,
    organizer: Organizer,
    slugs: string[] | undefined,
  ): Promise<number[]> {
    if (!slugs || slugs.length === 0) return [];
    const bySlug = await this.tenancy.eventIdsBySlugs(em, organizer.id, slugs);
    const unknown = slugs.find((slug) => !bySlug.has(slug));
    if (unknown !== undefined) {
      throw ValidationFailed.field('limit_events', `Object with slug=${unknown} does not exist.`);
    }
    return [...new Set(slugs.map((slug) => bySlug.get(slug)!))];
  }

  /** @throws ValidationFailed naming `gate` for an id that is no gate of this organizer */
  private async checkGate(
    em: EntityManager,
    organizer: Organizer,
    gate: number | null | undefined,
  ): Promise<void> {
    if (gate === undefined || gate === null) return;
    const found = await em.getRepository(Gate).exists({ where: { id: gate, organizerId: organizer.id } });
    if (!found) throw ValidationFailed.field('gate', invalidPk(gate));
  }

  /** A unique serial (16 of `A-Z0-9`) and initialization token (16 of `a-z0-9`) no device has yet. */
  private async newSecrets(em: EntityManager): Promise<{ serial: string; initToken: string }> {
    for (;;) {
      const serial = randomString(SERIAL_ALPHABET, 16);
      const initToken = randomString(INIT_TOKEN_ALPHABET, 16);
      if (!(await this.queries.secretTaken(em, serial, initToken))) return { serial, initToken };
    }
  }
}
