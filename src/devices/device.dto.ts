import { PartialType } from '@nestjs/swagger';
import {
  IsBool,
  IsChoice,
  IsInteger,
  IsStr,
  IsStrList,
  Nullable,
  Optional,
  Required,
} from '../common/validation/fields';
import { SECURITY_PROFILES } from './device.entity';

/**
 * Body of `POST O/devices/` (pretix `DeviceSerializer`): `name` and `limit_events` are required; every other
 * field of the device is read-only and ignored (it comes from the device at `device/initialize`).
 */
export class CreateDeviceDto {
  @Required()
  @IsStr({ max: 190, blank: false })
  name!: string;

  /** Access to all events of the organizer, including future ones (default false). */
  @Optional()
  @IsBool()
  all_events?: boolean;

  /** Slugs of events of this organizer (may be empty). */
  @Required()
  @IsStrList()
  limit_events!: string[];

  /** `full` (default), `pretixscan`, `pretixscan_online_kiosk` or `pretixscan_online_noorders`. */
  @Optional()
  @IsChoice(SECURITY_PROFILES)
  security_profile?: string;

  /** Extension: id of a gate of this organizer (`O/gates/`), or null (default). */
  @Nullable()
  @IsInteger({ min: 1 })
  gate?: number | null;
}

/** Body of `PATCH O/devices/{device_id}/`: the writable fields of {@link CreateDeviceDto}, each optional. */
export class UpdateDeviceDto extends PartialType(CreateDeviceDto, { skipNullProperties: false }) {}
