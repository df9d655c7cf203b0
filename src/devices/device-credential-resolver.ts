import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import type { ResolvedEvent, ResolvedOrganizer, ScopeSlugs } from '../auth/credential-resolver';
import type { DeviceResolution, DeviceResolver, ResolvedDevice } from '../auth/device-resolver';
import { TenancyQueries } from '../organizers/tenancy.queries';
import { DeviceQueries, DeviceTokenRow } from './device.queries';

/**
 * The devices context's answer to auth's `DEVICE_RESOLVER` port: a device by the hash of its API token, and the
 * organizer and event of the URL, in ONE statement ({@link DeviceQueries.resolveToken}). No cache: a revoked
 * device or a rolled token is refused by the very next request.
 */
@Injectable()
export class DeviceCredentialResolver implements DeviceResolver {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly tenancy: TenancyQueries,
    private readonly queries: DeviceQueries,
  ) {}

  async resolveDeviceToken(tokenHash: string, scope: ScopeSlugs): Promise<DeviceResolution> {
    const row = await this.queries.resolveToken(
      this.db,
      tokenHash,
      scope.organizer ?? null,
      scope.event ?? null,
    );
    return {
      device: row?.device ? toResolvedDevice(row.device) : null,
      organizer: this.tenancy.organizerFromJson(this.db, row?.organizer) as ResolvedOrganizer | null,
      event: this.tenancy.eventFromJson(this.db, row?.event) as ResolvedEvent | null,
    };
  }

  async deviceById(id: number): Promise<ResolvedDevice | null> {
    const row = await this.queries.tokenRowById(this.db, id);
    return row ? toResolvedDevice(row) : null;
  }
}

function toResolvedDevice(d: DeviceTokenRow): ResolvedDevice {
  return {
    identity: {
      id: d.id,
      deviceId: d.device_id,
      name: d.name,
      organizerId: d.organizer_id,
      securityProfile: d.security_profile,
      gate: d.gate,
    },
    organizerSlug: d.organizer_slug,
    allEvents: d.all_events,
    eventIds: d.event_ids,
    initialized: d.initialized,
    revoked: d.revoked,
  };
}
