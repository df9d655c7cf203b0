import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiInt } from '../common/http/api-schemas';
import { serverVersion } from '../common/http/server-version';
import { NoTrailingSlash, RequireAuthentication } from './access.decorators';

/** `GET /api/v1/version`'s answer (pretix `VersionView`). */
export class VersionJson {
  /** pretix release this server is compatible with, plus the server's own version as a local label. */
  pretix!: string;
  /** pretix's numeric form of the release (`2026.5.0` → 20260050005000), what scanner apps compare. */
  @ApiInt()
  pretix_numeric!: number;
}

/** `GET /api/v1/version` (compat §1.2): any valid credential (team token, OAuth, device), as pretix. */
@ApiTags('profile')
@Controller('version')
export class VersionController {
  @Get()
  @NoTrailingSlash()
  @RequireAuthentication()
  @ApiOperation({ summary: 'The server version, as pretix reports it' })
  retrieveVersion(): VersionJson {
    return serverVersion();
  }
}
