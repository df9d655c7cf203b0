import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsJsonObject, IsStr, Nullable, Required } from '../common/validation/fields';

/**
 * Body of `POST device/update` (pretix `UpdateRequestSerializer`): what the device reports about itself. Absent
 * optional fields are stored as null; `rsa_pubkey` can be set once and never changed.
 */
export class DeviceUpdateDto {
  @Required()
  @IsStr({ max: 190, blank: false })
  hardware_brand!: string;

  @Required()
  @IsStr({ max: 190, blank: false })
  hardware_model!: string;

  @Nullable()
  @IsStr({ max: 190, blank: false })
  os_name?: string | null;

  @Nullable()
  @IsStr({ max: 190, blank: false })
  os_version?: string | null;

  @Required()
  @IsStr({ max: 190, blank: false })
  software_brand!: string;

  @Required()
  @IsStr({ max: 190, blank: false })
  software_version!: string;

  /** Free-form information about the device: a JSON object (what pretixSCAN sends), or null. */
  @Nullable()
  @IsJsonObject()
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true })
  info?: Record<string, unknown> | null;

  /** PEM-encoded RSA public key of the device (`Not a valid public key.` otherwise). */
  @Nullable()
  @IsStr({ blank: false })
  rsa_pubkey?: string | null;
}

/** Body of `POST device/initialize` (pretix `InitializationRequestSerializer`): the one-time token and the device's details. */
export class DeviceInitializeDto extends DeviceUpdateDto {
  /** The device's `initialization_token` from `O/devices/`. */
  @Required()
  @IsStr({ max: 190, blank: false })
  token!: string;
}
