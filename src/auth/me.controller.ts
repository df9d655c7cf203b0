import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { NoTrailingSlash, RequireAuthentication } from './access.decorators';
import { MeJson } from './me.presenter';
import { Principal } from './principal';
import { CurrentPrincipal } from './request-context';
import { User } from './user.entity';

/** `GET /api/v1/me`: who the credential is (spec "User profile"; compat §1.2). */
@ApiTags('profile')
@Controller('me')
export class MeController {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  @Get()
  @NoTrailingSlash()
  @RequireAuthentication()
  async me(@CurrentPrincipal() principal: Principal): Promise<MeJson> {
    if (principal.kind === 'user' && principal.identity.userId !== undefined) {
      const user = await this.db.getRepository(User).findOneByOrFail({ id: principal.identity.userId });
      return {
        email: user.email,
        fullname: user.fullname ?? '',
        locale: user.locale,
        is_staff: user.isStaff,
        timezone: user.timezone,
        auth_method: 'oauth',
        team: null,
      };
    }
    const [orgId] = principal.organizerIds();
    const grant = principal.grantsFor(orgId)[0];
    const rows: { slug: string }[] = await this.db.query('SELECT slug FROM organizer WHERE id = $1', [orgId]);
    return {
      email: null,
      fullname: null,
      locale: null,
      is_staff: false,
      timezone: null,
      auth_method: 'token',
      team: grant ? { id: grant.teamId, name: grant.teamName, organizer: rows[0]?.slug ?? '' } : null,
    };
  }
}
