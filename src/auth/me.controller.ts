import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { NotAuthenticated } from '../common/errors';
import { AcceptsProfileScope, NoTrailingSlash, RequireAuthentication } from './access.decorators';
import { MeJson } from './me.presenter';
import { Principal } from './principal';
import { CurrentPrincipal } from './request-context';
import { UsersService } from './users.service';

/** `GET /api/v1/me`: who the credential is (spec "User profile"; compat §1.2). */
@ApiTags('profile')
@Controller('me')
export class MeController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @NoTrailingSlash()
  @RequireAuthentication()
  @AcceptsProfileScope()
  @ApiOperation({ summary: 'Who the credential is' })
  async retrieveMe(@CurrentPrincipal() principal: Principal): Promise<MeJson> {
    if (principal.kind === 'user' && principal.identity.userId !== undefined) {
      const user = await this.users.find(principal.identity.userId);
      if (!user) throw new NotAuthenticated('Invalid token.');
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
    return {
      email: null,
      fullname: null,
      locale: null,
      is_staff: false,
      timezone: null,
      auth_method: 'token',
      team: grant ? { id: grant.teamId, name: grant.teamName, organizer: grant.organizerSlug } : null,
    };
  }
}
