import type { ResolvedEvent, ResolvedOrganizer, ScopeSlugs } from './credential-resolver';
import type { DeviceIdentity } from './principal';

/**
 * Port through which authentication resolves a device API token (`Authorization: Device <token>`) together with
 * the organizer and event of the URL in ONE SQL statement (README "API conventions"), like
 * {@link CREDENTIAL_RESOLVER} for team tokens. Declared here, provided by the devices context (which owns the
 * device table) and handed to `AuthModule.forRoot` by the application module.
 */
export const DEVICE_RESOLVER = Symbol('DeviceResolver');

/** A device as the statement found it by the hash of its API token. */
export interface ResolvedDevice {
  identity: DeviceIdentity;
  /** Slug of the device's organizer. */
  organizerSlug: string;
  allEvents: boolean;
  /** Ids of the events of `limit_events`. */
  eventIds: number[];
  /** False before `device/initialize` answered (pretix refuses such tokens; ours cannot exist then). */
  initialized: boolean;
  revoked: boolean;
}

/** What the statement found: the device (null: no device has that token), the URL's organizer and event. */
export interface DeviceResolution {
  device: ResolvedDevice | null;
  organizer: ResolvedOrganizer | null;
  event: ResolvedEvent | null;
}

export interface DeviceResolver {
  /** Resolves a device by the SHA-256 hex of its API token, and the URL's organizer and event, in one statement. */
  resolveDeviceToken(tokenHash: string, scope: ScopeSlugs): Promise<DeviceResolution>;
}
