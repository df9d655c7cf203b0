import { ApiProperty } from '@nestjs/swagger';
import { DeviceSelfJson } from './device.presenter';

/** The version of pretix whose API this server answers (pretix `__version__` as devices see it). */
export const PRETIX_COMPAT_VERSION = '2026.5.0';

/**
 * pretix's `numeric_version` of a final release `major.minor.patch`: each part times 1000^(position) times 10000,
 * plus 5000 for the release stage (e.g. `2026.5.0` → 20260050005000).
 */
export function numericVersion(version: string): number {
  const parts = version.split('.').map(Number);
  let n = 50 * 100;
  parts.reverse().forEach((part, i) => (n += part * 1000 ** i * 10000));
  return n;
}

/** `server.version` of `device/info`. */
export class ServerVersionJson {
  pretix!: string;
  @ApiProperty({ type: 'integer', format: 'int64' })
  pretix_numeric!: number;
}

/** `server` of `device/info`. */
export class ServerInfoJson {
  version!: ServerVersionJson;
}

/**
 * A medium key set as pretix shows it to a device with an RSA key (pretix `MediumKeySetSerializer`; keys RSA
 * encrypted, base64). Documented for clients; this server has none.
 */
export class MediumKeySetJson {
  public_id!: string;
  /** Organizer slug. */
  organizer!: string;
  active!: boolean;
  media_type!: string;
  uid_key!: string;
  diversification_key!: string;
}

/** Answer of `GET device/info` (pretix `InfoView`). This server has no medium key sets: always `[]`. */
export class DeviceInfoJson {
  device!: DeviceSelfJson;
  server!: ServerInfoJson;
  @ApiProperty({ type: MediumKeySetJson, isArray: true, maxItems: 0 })
  medium_key_sets!: MediumKeySetJson[];
}

/** {@link DeviceInfoJson} of a device. */
export function toDeviceInfoJson(device: DeviceSelfJson): DeviceInfoJson {
  return {
    device,
    server: {
      version: { pretix: PRETIX_COMPAT_VERSION, pretix_numeric: numericVersion(PRETIX_COMPAT_VERSION) },
    },
    medium_key_sets: [],
  };
}
