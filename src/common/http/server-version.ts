import { version as packageVersion } from '../../../package.json';

/**
 * The pretix release whose API this server speaks (pretix 2026.5). Clients compare `pretix_numeric` with the
 * minimum versions they need (pretixSCAN, pretixPOS), so the server reports this release, with its own version
 * (package.json) as a PEP 440 local label: `2026.5.0+ticketing-api.0.1.0`.
 */
export const PRETIX_COMPATIBLE_VERSION = '2026.5.0';

/**
 * pretix's `numeric_version` of a release `major.minor.patch`: major·10^10 + minor·10^7 + patch·10^4 + 5000 (stage
 * 50, "release", times 100); `2026.5.0` → 20260050005000.
 */
export function numericVersion(release: string): number {
  const parts = release.split('.').map((p) => Number.parseInt(p, 10) || 0);
  let value = 50 * 100;
  [...parts].reverse().forEach((part, i) => {
    value += part * 1000 ** i * 10000;
  });
  return value;
}

/** `GET /api/v1/version` (pretix `VersionView`): the version string and its numeric form. */
export function serverVersion(): { pretix: string; pretix_numeric: number } {
  return {
    pretix: `${PRETIX_COMPATIBLE_VERSION}+ticketing-api.${packageVersion}`,
    pretix_numeric: numericVersion(PRETIX_COMPATIBLE_VERSION),
  };
}
