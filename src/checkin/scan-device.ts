import type { Principal } from '../auth/principal';

/** The device and gate a scan is attributed to (pretix `device_id`, `gate`); nulls for team tokens and OAuth. */
export interface ScanDevice {
  /** pretix's per-organizer device number. */
  deviceId: number | null;
  gateId: number | null;
}

/** The device of a `Device` credential and its gate at the moment of the scan, else nulls. */
export function scanDevice(principal: Principal | null): ScanDevice {
  const device = principal?.identity.kind === 'device' ? principal.identity.device : undefined;
  return { deviceId: device?.deviceId ?? null, gateId: device?.gate?.id ?? null };
}
