import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { createPublicKey } from 'crypto';
import { EntityManager } from 'typeorm';
import { AuditLogService } from '../audit/audit-log.service';
import { generateToken, hashToken } from '../auth/credentials.service';
import { Principal, type DeviceIdentity } from '../auth/principal';
import { NotAuthenticated, ValidationFailed } from '../common/errors';
import type { DeviceInitializeDto, DeviceUpdateDto } from './device-self.dto';
import { DeviceInfoJson, toDeviceInfoJson } from './device-self.presenter';
import { Device } from './device.entity';
import { DeviceSelfJson, toDeviceSelfJson } from './device.presenter';
import { DeviceQueries } from './device.queries';

/** pretix's 400 messages of `device/initialize` and `device/update` (`pretix.api.views.device`). */
export const UNKNOWN_INIT_TOKEN = 'Unknown initialization token.';
export const INIT_TOKEN_USED = 'This initialization token has already been used.';
export const INIT_TOKEN_REVOKED = 'This initialization token has been revoked.';
export const INVALID_PUBKEY = 'Not a valid public key.';
export const PUBKEY_IS_SET = 'You cannot change the rsa_pubkey of the device once it is set.';

/** @throws ValidationFailed naming `rsa_pubkey` when it is given and no PEM public key */
function checkPubkey(pem: string | null | undefined): void {
  if (!pem) return;
  try {
    createPublicKey({ key: pem, format: 'pem' });
  } catch {
    throw ValidationFailed.field('rsa_pubkey', INVALID_PUBKEY);
  }
}

/**
 * The device identity of a principal.
 * @throws NotAuthenticated for any other credential: pretix's device views authenticate only `Device` tokens, so
 *   a team token counts as no credential (401 "Authentication credentials were not provided.")
 */
function deviceOf(principal: Principal): DeviceIdentity {
  const device = principal.kind === 'device' ? principal.identity.device : undefined;
  if (!device) throw new NotAuthenticated();
  return device;
}

/**
 * The endpoints a device calls about itself (pretix `api/views/device.py`): `initialize` (public, with the
 * one-time token; single use even under parallel requests: the device row is locked), and, with
 * `Authorization: Device <token>` only, `update`, `info`, `roll` (a new token; the old one is refused from the
 * next request on) and `revoke`. Each logs pretix's action (`pretix.device.initialized`, `.updated`, `.keyroll`,
 * `.revoked`) with the device as actor.
 */
@Injectable()
export class DeviceSelfService {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly audit: AuditLogService,
    private readonly queries: DeviceQueries,
  ) {}

  /**
   * Initializes the device of `body.token`: stores what it reports and a new API token (only its hash), and
   * answers the token once.
   * @throws ValidationFailed naming `token` (unknown, already used, revoked) or `rsa_pubkey`
   */
  async initialize(body: DeviceInitializeDto): Promise<DeviceSelfJson> {
    checkPubkey(body.rsa_pubkey);
    return this.db.transaction(async (em) => {
      const device = await this.queries.lockByInitializationToken(em, body.token);
      if (!device) throw ValidationFailed.field('token', UNKNOWN_INIT_TOKEN);
      if (device.initialized) throw ValidationFailed.field('token', INIT_TOKEN_USED);
      if (device.revoked) throw ValidationFailed.field('token', INIT_TOKEN_REVOKED);
      const apiToken = generateToken();
      this.applyReport(device, body);
      device.rsaPubkey = body.rsa_pubkey ?? null;
      device.initialized = new Date();
      device.apiTokenHash = hashToken(apiToken);
      await em.save(device);
      const { token: _secret, ...logged } = body;
      await this.log(em, device, 'pretix.device.initialized', logged);
      return this.present(em, device.id, apiToken);
    });
  }

  /**
   * Stores what the device reports about itself (absent optional fields become null); `rsa_pubkey` can be set
   * once.
   * @throws ValidationFailed naming `rsa_pubkey` (invalid, or another key than the one set)
   * @throws NotAuthenticated for a credential that is not a device
   */
  async update(principal: Principal, presentedToken: string, body: DeviceUpdateDto): Promise<DeviceSelfJson> {
    const identity = deviceOf(principal);
    checkPubkey(body.rsa_pubkey);
    return this.db.transaction(async (em) => {
      const device = await this.lock(em, identity.id);
      if (body.rsa_pubkey && body.rsa_pubkey !== device.rsaPubkey) {
        if (device.rsaPubkey) throw ValidationFailed.field('rsa_pubkey', PUBKEY_IS_SET);
        device.rsaPubkey = body.rsa_pubkey;
      }
      this.applyReport(device, body);
      await em.save(device);
      await this.log(em, device, 'pretix.device.updated', { ...body });
      return this.present(em, device.id, presentedToken);
    });
  }

  /** The device, the server version and (always empty here) medium key sets. @throws NotAuthenticated */
  async info(principal: Principal, presentedToken: string): Promise<DeviceInfoJson> {
    const identity = deviceOf(principal);
    return toDeviceInfoJson(await this.present(this.db, identity.id, presentedToken));
  }

  /** Replaces the device's API token; the old one is refused at once. Answers the new one. @throws NotAuthenticated */
  async roll(principal: Principal): Promise<DeviceSelfJson> {
    const identity = deviceOf(principal);
    return this.db.transaction(async (em) => {
      const device = await this.lock(em, identity.id);
      const apiToken = generateToken();
      device.apiTokenHash = hashToken(apiToken);
      await em.save(device);
      await this.log(em, device, 'pretix.device.keyroll', {});
      return this.present(em, device.id, apiToken);
    });
  }

  /** Revokes the device: its token is refused from the next request on. @throws NotAuthenticated */
  async revoke(principal: Principal, presentedToken: string): Promise<DeviceSelfJson> {
    const identity = deviceOf(principal);
    return this.db.transaction(async (em) => {
      const device = await this.lock(em, identity.id);
      device.revoked = true;
      await em.save(device);
      await this.log(em, device, 'pretix.device.revoked', {});
      return this.present(em, device.id, presentedToken);
    });
  }

  private lock(em: EntityManager, id: number): Promise<Device> {
    return em.getRepository(Device).findOneOrFail({ where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  private applyReport(device: Device, body: DeviceUpdateDto): void {
    device.hardwareBrand = body.hardware_brand;
    device.hardwareModel = body.hardware_model;
    device.osName = body.os_name ?? null;
    device.osVersion = body.os_version ?? null;
    device.softwareBrand = body.software_brand;
    device.softwareVersion = body.software_version;
    device.info = body.info ?? null;
  }

  /** Writes a log entry of the device with the device as actor. */
  private log(
    em: EntityManager,
    device: Device,
    action: string,
    data: Record<string, unknown>,
  ): Promise<void> {
    const actor = new Principal(
      {
        kind: 'device',
        scopes: null,
        device: {
          id: device.id,
          deviceId: device.deviceId,
          name: device.name,
          organizerId: device.organizerId,
          securityProfile: device.securityProfile,
          gate: null,
        },
      },
      [],
    );
    return this.audit.record(em, actor, {
      organizerId: device.organizerId,
      contentType: 'device',
      objectId: device.id,
      action,
      data,
    });
  }

  private async present(em: EntityManager, id: number, apiToken: string): Promise<DeviceSelfJson> {
    return toDeviceSelfJson(await this.queries.byId(em, id), apiToken);
  }
}
