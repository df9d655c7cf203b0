import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiDateTime, ApiInt } from '../common/http/api-schemas';
import { isoUtc } from '../common/values/datetime';
import { SECURITY_PROFILES } from './device.entity';
import type { DeviceWithRelations, GateRef } from './device.queries';

/** A device's gate as devices show it (pretix `GateSerializer`: id, name, identifier). */
export class DeviceGateJson {
  @ApiInt()
  id!: number;
  name!: string;
  identifier!: string;
}

/**
 * Wire form of a device in `O/devices/` (pretix `DeviceSerializer` of the organizer API). `initialization_token`
 * is shown only to credentials that may change devices (`organizer.devices:write`). `gate` is an extension.
 */
export class DeviceJson {
  /** The device's number inside its organizer (1, 2, …); the id in URLs. */
  @ApiInt()
  device_id!: number;
  unique_serial!: string;
  /** One-time token for `device/initialize`; only for credentials with `organizer.devices:write`. */
  @ApiPropertyOptional()
  initialization_token?: string;
  all_events!: boolean;
  /** Event slugs, sorted. */
  limit_events!: string[];
  revoked!: boolean;
  name!: string;
  @ApiDateTime()
  created!: string;
  @ApiDateTime({ nullable: true })
  initialized!: string | null;
  @ApiProperty({ type: 'string', nullable: true })
  hardware_brand!: string | null;
  @ApiProperty({ type: 'string', nullable: true })
  hardware_model!: string | null;
  @ApiProperty({ type: 'string', nullable: true })
  os_name!: string | null;
  @ApiProperty({ type: 'string', nullable: true })
  os_version!: string | null;
  @ApiProperty({ type: 'string', nullable: true })
  software_brand!: string | null;
  @ApiProperty({ type: 'string', nullable: true })
  software_version!: string | null;
  @ApiProperty({ enum: SECURITY_PROFILES })
  security_profile!: string;
  /** Extension: the device's gate, or null. */
  @ApiProperty({ type: DeviceGateJson, nullable: true })
  gate!: DeviceGateJson | null;
}

/** Presents a device; `showToken` adds its `initialization_token`. */
export function toDeviceJson(found: DeviceWithRelations, showToken: boolean): DeviceJson {
  const d = found.device;
  return {
    device_id: d.deviceId,
    unique_serial: d.uniqueSerial,
    ...(showToken ? { initialization_token: d.initializationToken } : {}),
    all_events: d.allEvents,
    limit_events: [...found.limitEvents].sort(),
    revoked: d.revoked,
    name: d.name,
    created: isoUtc(d.created),
    initialized: d.initialized ? isoUtc(d.initialized) : null,
    hardware_brand: d.hardwareBrand,
    hardware_model: d.hardwareModel,
    os_name: d.osName,
    os_version: d.osVersion,
    software_brand: d.softwareBrand,
    software_version: d.softwareVersion,
    security_profile: d.securityProfile,
    gate: toGate(found.gate),
  };
}

function toGate(gate: GateRef | null): DeviceGateJson | null {
  return gate ? { id: gate.id, name: gate.name, identifier: gate.identifier } : null;
}

/**
 * A device as the device endpoints answer it (pretix's `DeviceSerializer` of `api/views/device.py`): organizer
 * slug, number, serial, the API token, name, security profile and gate.
 */
export class DeviceSelfJson {
  /** Slug of the device's organizer. */
  organizer!: string;
  @ApiInt()
  device_id!: number;
  unique_serial!: string;
  /**
   * The device's API token (`Authorization: Device <api_token>`): the new one after initialize and roll, else
   * the one the request presented (only its hash is stored).
   */
  api_token!: string;
  name!: string;
  @ApiProperty({ enum: SECURITY_PROFILES })
  security_profile!: string;
  @ApiProperty({ type: DeviceGateJson, nullable: true })
  gate!: DeviceGateJson | null;
}

/** Presents a device to itself with `apiToken` (never read back from the database: only its hash is there). */
export function toDeviceSelfJson(found: DeviceWithRelations, apiToken: string): DeviceSelfJson {
  const d = found.device;
  return {
    organizer: found.organizerSlug,
    device_id: d.deviceId,
    unique_serial: d.uniqueSerial,
    api_token: apiToken,
    name: d.name,
    security_profile: d.securityProfile,
    gate: toGate(found.gate),
  };
}
