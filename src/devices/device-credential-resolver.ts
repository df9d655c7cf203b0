import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import type { ResolvedEvent, ResolvedOrganizer, ScopeSlugs } from '../auth/credential-resolver';
import type { DeviceResolution, DeviceResolver } from '../auth/device-resolver';
import { TenancyQueries } from '../organizers/tenancy.queries';
import { DeviceQueries } from './device.queries';

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
    const d = row?.device;
    return {
      device: d
        ? {
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
          }
        : null,
      organizer: this.tenancy.organizerFromJson(this.db, row?.organizer) as ResolvedOrganizer | null,
      event: this.tenancy.eventFromJson(this.db, row?.event) as ResolvedEvent | null,
    };
  }
}
