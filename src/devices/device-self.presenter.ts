import { ApiProperty } from '@nestjs/swagger';
import { serverVersion } from '../common/http/server-version';
import { DeviceSelfJson } from './device.presenter';

/** `server.version` of `device/info`: the same as `GET /api/v1/version` (`serverVersion()`). */
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
    server: { version: serverVersion() },
    medium_key_sets: [],
  };
}
